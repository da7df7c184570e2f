//! An evaluation report as GitHub-flavoured Markdown, for a pull request: a job summary
//! (`$GITHUB_STEP_SUMMARY`), a review comment, a CI artifact. It shows the report and the
//! gate failures the other formats get, and nothing the report does not carry (a figure
//! with no interval in the report has none here). Text from the report is escaped so that
//! it cannot break the table, and there is never colour: the reader is a web page.

use super::report::{NOT_EVALUATED, estimate, failed_note};
use super::{EvalArgs, unevaluated};
use crate::wire::align::gates::Judged;
use crate::wire::align::{Estimate, EvaluationReport, QuestionEvaluation};
use crate::wire::decision::short_commit;
use std::fmt::Write as _;

/// A cell with nothing to show.
const NONE: &str = "—";

/// The summary: a title naming the model and checkpoints, the gates' verdict, a row per
/// question (and `overall`) with its figures, the baseline's and the change, then what
/// failed and what was not evaluated.
pub(super) fn markdown(args: &EvalArgs, report: &EvaluationReport, judged: &Judged) -> String {
    let with_baseline = report.baseline.is_some();
    let gate_column = judged.gated();
    let mut out = title(&args.model, report);
    out.push_str(&verdict(args, report, judged));
    let mut rows = Vec::new();
    for (id, evaluation) in &report.questions {
        let mut row = vec![cell_code(id)];
        row.extend(figures(evaluation, with_baseline));
        if gate_column {
            row.push(gate_cell(id, evaluation, judged));
        }
        rows.push(row);
    }
    // Gates judge questions, not the mean over them: its gate cell stays empty.
    let mut row = vec!["**overall**".to_owned()];
    row.extend(figures(&report.overall, with_baseline));
    if gate_column {
        row.push(String::new());
    }
    rows.push(row);
    let mut columns = if with_baseline {
        BASELINE_COLUMNS.to_vec()
    } else {
        COLUMNS.to_vec()
    };
    if gate_column {
        columns.push(("Gate", false));
    }
    out.push_str(&table(&columns, &rows));
    out.push_str(legend(with_baseline));
    if let Some(working) = &report.working_copy {
        let _ = write!(
            out,
            "\n\n**Working copy** of {}, not committed\n",
            code(&working.of)
        );
        for (id, origin) in &working.questions {
            let _ = write!(out, "\n- {}: {}", code(id), origin.describe());
        }
    }
    if let Some(file) = &judged.file {
        let _ = write!(out, "\n\n**Gates** ({})\n", code(file));
        for id in judged.gates.keys() {
            let _ = write!(out, "\n- {}: {}", code(id), text(&judged.describe(id)));
        }
    }
    if !judged.failures.is_empty() {
        out.push_str("\n\n**Gate failures**\n");
        for failure in &judged.failures {
            let _ = write!(
                out,
                "\n- {} ({}): {}",
                code(&failure.question),
                failure.gate,
                text(&failure.message)
            );
        }
    }
    let mut not_evaluated = unevaluated(report).peekable();
    if not_evaluated.peek().is_some() {
        out.push_str("\n\n**Not evaluated**\n");
        for (id, reason) in not_evaluated {
            let _ = write!(out, "\n- {}: {}", code(id), text(reason));
        }
    }
    out
}

/// The columns without a baseline: (header, a number, right-aligned).
const COLUMNS: [(&str, bool); 6] = [
    ("Question", false),
    ("Examples", true),
    ("Accuracy (95%)", true),
    ("Metric", false),
    ("Loss (95%)", true),
    ("ECE", true),
];

/// The columns with a baseline: each figure as baseline → revision, then its change.
const BASELINE_COLUMNS: [(&str, bool); 9] = [
    ("Question", false),
    ("Examples", true),
    ("Accuracy", true),
    ("Change (95%)", true),
    ("Metric", false),
    ("Loss", true),
    ("Change (95%)", true),
    ("ECE", true),
    ("Change", true),
];

/// The heading (`arbiter eval:` the model at the revision, against the baseline), and what
/// each checkpoint is.
fn title(model: &str, report: &EvaluationReport) -> String {
    let revision = &report.revision;
    let mut out = format!(
        "### arbiter eval: {} at {}",
        code(model),
        code(&revision.name)
    );
    if let Some(base) = &report.baseline {
        let _ = write!(out, " against {}", code(&base.name));
    }
    let _ = write!(
        out,
        "\n\n{} is {} {}",
        code(&revision.name),
        revision.kind.as_str(),
        code(short_commit(&revision.commit))
    );
    if let Some(base) = &report.baseline {
        let _ = write!(
            out,
            "; baseline {} is {} {}",
            code(&base.name),
            base.kind.as_str(),
            code(short_commit(&base.commit))
        );
    }
    out.push_str(".\n\n");
    out
}

/// Whether the gates passed, and which were asked for (the exit code is theirs).
fn verdict(args: &EvalArgs, report: &EvaluationReport, judged: &Judged) -> String {
    if !judged.gated() {
        return "No gate was asked for.\n\n".to_owned();
    }
    let mut flags = Vec::new();
    if let Some(min) = args.min_accuracy {
        flags.push(format!("--min-accuracy {min}"));
    }
    if let Some(max) = args.max_ece {
        flags.push(format!("--max-ece {max}"));
    }
    if args.no_regression {
        flags.push("--no-regression".to_owned());
    }
    if args.strict {
        flags.push("--strict".to_owned());
    }
    if args.allow_unevaluated {
        flags.push("--allow-unevaluated".to_owned());
    }
    let mut under = Vec::new();
    if let Some(file) = &judged.file {
        under.push(code(file));
    }
    if !flags.is_empty() {
        under.push(code(&flags.join(" ")));
    }
    let flags = under.join(" and ");
    if judged.failures.is_empty() {
        return format!("✅ **Gates passed**: {flags}.\n\n");
    }
    let failed = report
        .questions
        .keys()
        .filter(|id| judged.failures_of(id).next().is_some())
        .count();
    let all = report.questions.len();
    let plural = if all == 1 { "" } else { "s" };
    format!("❌ **Gates failed** (exit 3): {failed} of {all} question{plural}, under {flags}.\n\n")
}

/// A row's figures after its question, in the columns' order.
fn figures(evaluation: &QuestionEvaluation, with_baseline: bool) -> Vec<String> {
    let width = if with_baseline {
        BASELINE_COLUMNS.len()
    } else {
        COLUMNS.len()
    } - 1;
    let Some(m) = &evaluation.metrics else {
        let mut row = vec![format!("0{}", failed_note(evaluation))];
        row.push(NOT_EVALUATED.to_owned());
        row.resize(width, NONE.to_owned());
        return row;
    };
    let examples = format!("{}{}", m.examples, failed_note(evaluation));
    let metric = cell_code(&m.metric);
    if !with_baseline {
        let intervals = m.intervals.as_ref();
        return vec![
            examples,
            intervals.map_or_else(|| fixed(m.accuracy), |iv| estimate(&iv.accuracy, false)),
            metric,
            intervals.map_or_else(|| fixed(m.loss), |iv| estimate(&iv.loss, false)),
            fixed(m.ece),
        ];
    }
    let Some(base) = &evaluation.baseline else {
        // A question the baseline did not measure: the revision's figures, no change.
        return vec![
            examples,
            fixed(m.accuracy),
            NONE.to_owned(),
            metric,
            fixed(m.loss),
            NONE.to_owned(),
            fixed(m.ece),
            NONE.to_owned(),
        ];
    };
    let delta = evaluation.delta.as_ref();
    vec![
        examples,
        from_to(base.accuracy, m.accuracy),
        delta.map_or_else(
            || difference(m.accuracy, base.accuracy),
            |d| change(&d.accuracy, false),
        ),
        metric,
        from_to(base.loss, m.loss),
        delta.map_or_else(|| difference(m.loss, base.loss), |d| change(&d.loss, true)),
        from_to(base.ece, m.ece),
        // The report has no interval for a change of ECE: the change alone.
        difference(m.ece, base.ece),
    ]
}

/// A figure as the table shows it.
fn fixed(value: f64) -> String {
    format!("{value:.3}")
}

/// `0.576 → 0.939`: the baseline's figure, then the revision's.
fn from_to(then: f64, now: f64) -> String {
    format!("{then:.3} → {now:.3}")
}

/// A change with no interval in the report: the difference alone, unmarked.
fn difference(now: f64, then: f64) -> String {
    format!("{:+.3}", now - then)
}

/// A change with its paired 95% interval, marked ▲ (better) or ▼ (worse) when the
/// interval excludes 0, as a change beyond chance does.
fn change(e: &Estimate, lower_is_better: bool) -> String {
    let rose = e.low > 0.0;
    let mark = if !rose && e.high >= 0.0 {
        ""
    } else if rose != lower_is_better {
        " ▲"
    } else {
        " ▼"
    };
    format!("{}{mark}", estimate(e, true))
}

/// The gates' verdict on a question: the gates it failed; else whether it passed or went
/// unmeasured by leave of `--allow-unevaluated`.
fn gate_cell(id: &str, evaluation: &QuestionEvaluation, judged: &Judged) -> String {
    if !judged.gates.contains_key(id) {
        return String::new();
    }
    let mut gates: Vec<&str> = judged.failures_of(id).map(|f| f.gate).collect();
    // --no-regression fails once for accuracy and once for loss: one name is enough.
    gates.dedup();
    if !gates.is_empty() {
        format!("❌ {}", gates.join(", "))
    } else if evaluation.metrics.is_none() {
        "⚠️ not measured, allowed".to_owned()
    } else {
        "✅ pass".to_owned()
    }
}

/// Under the table: how to read it.
fn legend(with_baseline: bool) -> &'static str {
    if with_baseline {
        "\nFigures are baseline → revision, to three decimals. A change's interval is the 95% \
         bootstrap over the examples both checkpoints scored, paired; ▲ (better) or ▼ (worse) \
         marks one whose interval excludes 0, a change beyond chance. The report has no \
         interval for ECE, nor for `overall` (the example-weighted mean over the questions \
         evaluated): their changes are shown alone."
    } else {
        "\nIntervals: 95% bootstrap over the examples. `overall` is the example-weighted mean \
         over the questions evaluated, with no interval."
    }
}

/// A GitHub-flavoured Markdown table; the cells are already escaped.
fn table(columns: &[(&str, bool)], rows: &[Vec<String>]) -> String {
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut out = String::from("|");
        for cell in cells {
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
        out
    };
    let mut out = line(&mut columns.iter().map(|(header, _)| *header));
    out.push_str(&line(
        &mut columns
            .iter()
            .map(|(_, number)| if *number { "---:" } else { "---" }),
    ));
    for row in rows {
        out.push_str(&line(&mut row.iter().map(String::as_str)));
    }
    out
}

/// Text for Markdown, inline: the characters that would start markup, or end a table
/// cell, are escaped; a line break is `<br>` (a cell is one line); other control
/// characters are dropped.
fn text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' | '\n' => {
                if c == '\r' && chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("<br>");
            }
            '\\' | '|' | '`' | '*' | '_' | '~' | '[' | ']' | '<' | '>' | '&' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// An inline code span of `raw` (a name, an ID), fenced by more backticks than it holds;
/// line breaks become spaces (a code span is one line), other control characters are
/// dropped.
fn code(raw: &str) -> String {
    let raw: String = raw
        .chars()
        .filter_map(|c| match c {
            '\r' | '\n' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut longest = 0;
    let mut run = 0;
    for c in raw.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    // A span that starts or ends with a backtick needs a space between it and the fence.
    let pad = if raw.starts_with('`') || raw.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{raw}{pad}{fence}")
}

/// A code span in a table cell: a `|` would end the cell even there, so it is escaped
/// (GitHub takes the backslash off before it reads the span).
fn cell_code(raw: &str) -> String {
    code(raw).replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_markup_and_cell_ends_and_breaks_lines() {
        assert_eq!(text("a | b"), "a \\| b");
        assert_eq!(text("back\\slash|"), "back\\\\slash\\|");
        assert_eq!(
            text("*bold* _it_ `code` <b>x</b> [l](u) # ~s~ &amp;"),
            "\\*bold\\* \\_it\\_ \\`code\\` \\<b\\>x\\</b\\> \\[l\\](u) \\# \\~s\\~ \\&amp;"
        );
        assert_eq!(
            text("one\ntwo\r\nthree\rfour"),
            "one<br>two<br>three<br>four"
        );
        assert_eq!(text("bell\u{7}\u{1b}[31mred"), "bell\\[31mred");
        assert_eq!(text("plain 0.85, ünïcode ✓"), "plain 0.85, ünïcode ✓");
    }

    #[test]
    fn code_fences_past_backticks_and_stays_on_one_line() {
        assert_eq!(code("acme/support"), "`acme/support`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x``"), "``` `x`` ```");
        assert_eq!(code("two\nlines\u{1b}"), "`two lines`");
        assert_eq!(cell_code("a|b"), "`a\\|b`");
        assert_eq!(code("a|b"), "`a|b`", "outside a table a pipe is text");
    }

    #[test]
    fn a_table_has_a_delimiter_row_aligned_per_column() {
        let rows = vec![vec!["`q`".to_owned(), "1".to_owned()]];
        assert_eq!(
            table(&[("Question", false), ("Examples", true)], &rows),
            "| Question | Examples |\n| --- | ---: |\n| `q` | 1 |\n"
        );
    }

    /// The cell boundaries of a table line: the `|` not escaped by a backslash.
    fn boundaries(line: &str) -> usize {
        let mut count = 0;
        let mut escaped = false;
        for c in line.chars() {
            match (c, escaped) {
                ('\\', false) => escaped = true,
                ('|', false) => count += 1,
                _ => escaped = false,
            }
        }
        count
    }

    #[test]
    fn text_from_the_report_cannot_break_the_table_or_colour_it() {
        use crate::wire::align::EvaluationStatus;
        use crate::wire::decision::{Revision, RevisionKind};
        let args = EvalArgs {
            output: None,
            model: "acme/support".into(),
            revision: None,
            baseline: None,
            questions: None,
            min_accuracy: Some(0.5),
            max_ece: None,
            no_regression: false,
            strict: false,
            format: None,
            cancel_on_interrupt: false,
            include_fitted: false,
            allow_unevaluated: false,
            questions_file: None,
            labels: None,
            watch: false,
            gates: None,
            no_gates: false,
        };
        let unmeasured = QuestionEvaluation {
            status: EvaluationStatus::NotEvaluated,
            reason: Some("a | b\nc\u{1b}[31m".into()),
            ..QuestionEvaluation::default()
        };
        let report = EvaluationReport {
            revision: Revision {
                name: "feat|x`y".into(),
                kind: RevisionKind::Branch,
                commit: "0123456789abcdef".into(),
            },
            baseline: None,
            questions: [("intent".to_owned(), unmeasured.clone())]
                .into_iter()
                .collect(),
            overall: unmeasured,
            decided: 0,
            cached: 0,
            working_copy: None,
            question_gates: None,
        };
        let mut judged = crate::wire::align::gates::judge(&report, &args.gate_flags());
        judged.failures = vec![crate::wire::align::gates::Failure {
            question: "intent".into(),
            gate: "not-evaluated",
            message: "not evaluated: a | b\nc".into(),
        }];
        let md = markdown(&args, &report, &judged);
        assert!(!md.contains('\u{1b}'), "{md}");
        let rows: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
        assert_eq!(rows.len(), 4, "header, delimiter, intent, overall: {md}");
        for row in &rows {
            assert_eq!(boundaries(row), COLUMNS.len() + 2, "{row}");
        }
        assert!(
            md.starts_with("### arbiter eval: `acme/support` at ``feat|x`y``\n"),
            "{md}"
        );
        assert!(
            md.contains("\n- `intent` (not-evaluated): not evaluated: a \\| b<br>c\n"),
            "{md}"
        );
        assert!(md.contains("\n- `intent`: a \\| b<br>c\\[31m"), "{md}");
    }

    #[test]
    fn a_change_is_marked_only_when_its_interval_excludes_zero() {
        let e = |value, low, high| Estimate { value, low, high };
        assert_eq!(
            change(&e(0.3, 0.1, 0.5), false),
            "+0.300 [+0.100, +0.500] ▲"
        );
        assert_eq!(change(&e(0.3, 0.1, 0.5), true), "+0.300 [+0.100, +0.500] ▼");
        assert_eq!(
            change(&e(-0.3, -0.5, -0.1), true),
            "-0.300 [-0.500, -0.100] ▲"
        );
        assert_eq!(
            change(&e(-0.3, -0.5, -0.1), false),
            "-0.300 [-0.500, -0.100] ▼"
        );
        assert_eq!(change(&e(0.1, -0.1, 0.3), false), "+0.100 [-0.100, +0.300]");
        assert_eq!(change(&e(0.0, 0.0, 0.0), false), "+0.000 [+0.000, +0.000]");
    }
}
