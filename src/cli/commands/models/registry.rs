//! `arbiter models diff` and `arbiter models history`: a model registry's record of what
//! changed between revisions, and who promoted or tagged what, when, on what evidence.

use crate::cli::commands::eval::{evaluate, table as evaluation_table};
use crate::cli::commands::models::{ModelsDiffArgs, ModelsHistoryArgs, short};
use crate::cli::output::table::{Column, Table};
use crate::cli::output::{Printer, prob};
use crate::core::service::Service;
use crate::wire::align::{EvaluationReport, EvaluationRequest};
use crate::wire::registry::{Change, DiffStatus, FileDiff, ModelDiff, RegistryEvent};
use anyhow::Result;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Longest value shown whole in a diff line; longer ones end in `…` (JSON has them whole).
const SHOWN_CHARS: usize = 40;

/// What `models diff --json` prints: the diff, and with `--eval` the evaluation's report.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DiffOutput<'a> {
    #[serde(flatten)]
    diff: &'a ModelDiff,
    #[serde(skip_serializing_if = "Option::is_none")]
    evaluation: Option<EvaluationOutput<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EvaluationOutput<'a> {
    job_id: &'a crate::ids::JobId,
    #[serde(flatten)]
    report: &'a EvaluationReport,
}

pub(super) async fn diff(
    service: &dyn Service,
    args: &ModelsDiffArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let model = service.model_named(&args.model).await?;
    let diff = service
        .model(&model)
        .await?
        .diff(&args.from, &args.to)
        .await?;
    let evaluated = if args.eval {
        // `to` scored against the baseline `from`, as `eval` scores by default (a head's fitted
        // examples by their out-of-fold answers).
        let request = EvaluationRequest {
            revision: Some(args.to.clone()),
            baseline: Some(args.from.clone()),
            questions: None,
            include_fitted: false,
            warm_states: false,
            working_questions: None,
            // A diff judges no gate: the revision's gates.yaml is not read.
            gates: Some(crate::wire::gates::Gates::default()),
        };
        match evaluate(
            service,
            &args.model,
            request,
            args.cancel_on_interrupt,
            printer,
        )
        .await?
        {
            Ok(done) => Some(done),
            Err(code) => return Ok(code),
        }
    } else {
        None
    };
    if printer.wants_json() {
        printer.json(&DiffOutput {
            diff: &diff,
            evaluation: evaluated.as_ref().map(|(job, report)| EvaluationOutput {
                job_id: &job.job_id,
                report,
            }),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    printer.line(render_diff(&diff).trim_end())?;
    if let Some((_, report)) = &evaluated {
        printer.line("")?;
        printer.line(&evaluation_table(report, printer))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The diff as text: a heading, then each file's changes, one line each.
fn render_diff(diff: &ModelDiff) -> String {
    let mut out = format!(
        "{}: {} ({}) -> {} ({})\n",
        diff.model,
        diff.from.name,
        short(&diff.from.commit),
        diff.to.name,
        short(&diff.to.commit)
    );
    if diff.is_empty() {
        out.push_str("no changes\n");
        return out;
    }
    if !diff.model_yaml.is_empty() {
        out.push_str("model.yaml\n");
        for change in &diff.model_yaml {
            let _ = writeln!(out, "  {}", change_line(change));
        }
    }
    for (heading, files) in [
        ("questions.yaml", &diff.questions),
        ("learned (aligned/<id>.yaml)", &diff.learned),
        ("learned heads (learned/)", &diff.heads),
    ] {
        if files.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{heading}");
        for file in files {
            render_file(&mut out, file);
        }
    }
    if !diff.encoder.is_empty() {
        out.push_str("fine-tuned encoder (learned/encoder.safetensors)\n");
        for change in &diff.encoder {
            let _ = writeln!(out, "  {}", change_line(change));
        }
    }
    out
}

fn render_file(out: &mut String, file: &FileDiff) {
    match file.status {
        DiffStatus::Added => {
            let summary = file
                .changes
                .first()
                .and_then(|c| c.to.as_ref())
                .and_then(head_summary)
                .map(|s| format!("  {s}"))
                .unwrap_or_default();
            let _ = writeln!(out, "  + {}{summary}", file.id);
        }
        DiffStatus::Removed => {
            let _ = writeln!(out, "  - {}", file.id);
        }
        DiffStatus::Changed => {
            let _ = writeln!(out, "  ~ {}", file.id);
            for change in &file.changes {
                let _ = writeln!(out, "      {}", change_line(change));
            }
        }
    }
}

/// `path: from -> to`, with `(none)` for a side that is absent.
/// A learned head in a few words: what was chosen, of which learner, on how many examples,
/// and its out-of-fold accuracy against zero-shot's (`None` for what is not a head).
fn head_summary(head: &Value) -> Option<String> {
    let chosen = head.get("chosen")?.as_str()?;
    let learner = head.get("learner")?.as_str()?;
    let examples = head.get("examples")?.as_u64()?;
    let mut line = format!("{chosen} ({learner}), fitted on {examples} examples");
    let accuracy = |candidate: &str| {
        head.get("outOfFold")?
            .get(candidate)?
            .get("accuracy")?
            .as_f64()
    };
    if let (Some(before), Some(after)) = (accuracy("zero_shot"), accuracy(chosen)) {
        let _ = write!(
            line,
            "; out-of-fold accuracy {before:.3} zero-shot -> {after:.3}"
        );
    }
    Some(line)
}

fn change_line(change: &Change) -> String {
    let side = |value: &Option<Value>| value.as_ref().map_or("(none)".to_owned(), shown);
    let path = if change.path.is_empty() {
        "(whole)".to_owned()
    } else {
        change.path.join(".")
    };
    format!("{path}: {} -> {}", side(&change.from), side(&change.to))
}

/// A value in a line: lists and mappings by their size, long text cut with `…`.
fn shown(value: &Value) -> String {
    let text = match value {
        Value::Array(items) => return format!("[{} items]", items.len()),
        Value::Object(map) => return format!("{{{} keys}}", map.len()),
        other => other.to_string(),
    };
    if text.chars().count() > SHOWN_CHARS {
        let cut: String = text.chars().take(SHOWN_CHARS - 1).collect();
        format!("{cut}…")
    } else {
        text
    }
}

pub(super) async fn history(
    service: &dyn Service,
    args: &ModelsHistoryArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let model = service.model_named(&args.model).await?;
    let events = service.model(&model).await?.history(args.limit).await?;
    if printer.wants_json() {
        printer.json(&events)?;
        return Ok(ExitCode::SUCCESS);
    }
    if events.is_empty() {
        printer.status("no promotions or tag moves recorded");
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = Table::new(vec![
        Column::time("When").always(),
        Column::whole("Action").always(),
        Column::whole("Ref").always(),
        Column::whole("From").priority(2),
        Column::whole("To").always(),
        Column::text("Actor").priority(3),
        Column::number("Accuracy").priority(4),
    ]);
    for event in &events {
        table.row(history_row(event));
    }
    printer.table(&table)?;
    Ok(ExitCode::SUCCESS)
}

/// One event as a table row: the time to the second, commits as 12-digit prefixes, and the
/// overall accuracy of the evaluation relied on (`-` for none).
fn history_row(event: &RegistryEvent) -> Vec<String> {
    vec![
        crate::cli::output::table::timestamp(event.at),
        event.action.to_string(),
        event.ref_name.clone(),
        event.from.as_deref().map_or("-", short).to_owned(),
        short(&event.to).to_owned(),
        event.actor.clone(),
        event
            .evaluation
            .as_ref()
            .map_or("-".to_owned(), |e| prob(e.overall.accuracy)),
    ]
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::wire::decision::{Revision, RevisionKind};

    fn revision(name: &str, commit: char) -> Revision {
        Revision {
            name: name.into(),
            kind: RevisionKind::Branch,
            commit: commit.to_string().repeat(40),
        }
    }

    #[test]
    fn a_diff_reads_as_lines_per_change() {
        let diff = ModelDiff {
            model: "acme/support".into(),
            from: revision("main", 'a'),
            to: revision("draft", 'b'),
            model_yaml: vec![Change {
                path: vec!["base".into()],
                from: Some(json!("mo")),
                to: Some(json!("jev-latest")),
            }],
            questions: vec![FileDiff {
                id: "intent".into(),
                status: DiffStatus::Changed,
                changes: vec![Change {
                    path: vec!["instruction".into()],
                    from: Some(json!("x".repeat(60))),
                    to: None,
                }],
            }],
            learned: vec![FileDiff {
                id: "urgency".into(),
                status: DiffStatus::Added,
                changes: Vec::new(),
            }],
            heads: vec![FileDiff {
                id: "escalate".into(),
                status: DiffStatus::Added,
                changes: vec![Change {
                    path: Vec::new(),
                    from: None,
                    to: Some(json!({
                        "chosen": "head", "learner": "multinomial", "features": "pooled",
                        "examples": 60, "sha256": "0",
                        "outOfFold": {"zero_shot": {"accuracy": 0.55, "logLoss": 0.7},
                                      "head": {"accuracy": 0.8, "logLoss": 0.4}},
                    })),
                }],
            }],
            encoder: Vec::new(),
        };
        let text = render_diff(&diff);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "acme/support: main (aaaaaaaaaaaa) -> draft (bbbbbbbbbbbb)",
                "model.yaml",
                "  base: \"mo\" -> \"jev-latest\"",
                "questions.yaml",
                "  ~ intent",
                &format!("      instruction: \"{}… -> (none)", "x".repeat(38)),
                "learned (aligned/<id>.yaml)",
                "  + urgency",
                "learned heads (learned/)",
                "  + escalate  head (multinomial), fitted on 60 examples; out-of-fold accuracy \
                 0.550 zero-shot -> 0.800",
            ]
        );
    }

    #[test]
    fn a_history_row_is_short() {
        let event = RegistryEvent {
            action: crate::wire::registry::RegistryAction::Tag,
            ref_name: "stable".into(),
            from: None,
            to: "c".repeat(40),
            actor: "dana".into(),
            at: "2026-11-25T08:40:12.345Z".parse().unwrap(),
            evaluation: None,
        };
        let row = history_row(&event);
        // The When column writes it as every table's timestamps.
        assert_eq!(
            row,
            [
                "2026-11-25 08:40:12",
                "tag",
                "stable",
                "-",
                "cccccccccccc",
                "dana",
                "-"
            ]
        );
    }

    #[test]
    fn lists_and_mappings_show_their_size() {
        assert_eq!(shown(&json!([1, 2, 3])), "[3 items]");
        assert_eq!(shown(&json!({"a": 1})), "{1 keys}");
        assert_eq!(shown(&json!(0.5)), "0.5");
    }
}
