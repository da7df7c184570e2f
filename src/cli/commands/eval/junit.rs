//! An evaluation report as `JUnit` XML, for CI systems.

use super::report::NOT_EVALUATED;
use super::{reason, unevaluated};
use crate::wire::align::gates::Judged;
use crate::wire::align::{EvaluationReport, Metrics, QuestionEvaluation};
use crate::wire::jobs::Job;
use std::fmt::Write as _;

/// `JUnit` XML: one test case per question, failed by the gates it fails; the figures in
/// `system-out` (what CI systems show beside a test).
pub(super) fn junit(model: &str, job: &Job, report: &EvaluationReport, judged: &Judged) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let cases = report.questions.len();
    // A question not evaluated is a skipped case (with why); the others fail by their gates.
    let skipped = unevaluated(report).count();
    let failed_cases = report
        .questions
        .iter()
        .filter(|(_, e)| e.metrics.is_some())
        .filter(|(id, _)| judged.failures_of(id).next().is_some())
        .count();
    let suite = format!("{model}@{}", report.revision.name);
    let _ = writeln!(
        out,
        "<testsuites name=\"arbiter eval\" tests=\"{cases}\" failures=\"{failed_cases}\" skipped=\"{skipped}\">"
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{cases}\" failures=\"{failed_cases}\" errors=\"0\" skipped=\"{skipped}\" timestamp=\"{}\">",
        xml(&suite),
        xml(&job.finished_at.unwrap_or(job.created_at).to_string())
    );
    let _ = writeln!(
        out,
        "    <properties><property name=\"job\" value=\"{}\"/><property name=\"commit\" value=\"{}\"/>{}</properties>",
        xml(&job.job_id.to_string()),
        xml(&report.revision.commit),
        report.baseline.as_ref().map_or(String::new(), |b| format!(
            "<property name=\"baseline\" value=\"{}\"/>",
            xml(&b.commit)
        ))
    );
    for (id, evaluation) in &report.questions {
        let _ = writeln!(
            out,
            "    <testcase classname=\"{}\" name=\"{}\">",
            xml(&suite),
            xml(id)
        );
        let Some(m) = &evaluation.metrics else {
            // The gate's verdict on it, if any, is in the message (and the exit code).
            let verdict = judged.failures_of(id).next().map_or_else(
                || format!("{NOT_EVALUATED}: {}", reason(evaluation)),
                |f| f.message.clone(),
            );
            let _ = writeln!(out, "      <skipped message=\"{}\"/>", xml(&verdict));
            let _ = writeln!(out, "    </testcase>");
            continue;
        };
        for failure in judged.failures_of(id) {
            let _ = writeln!(
                out,
                "      <failure type=\"{}\" message=\"{}\"/>",
                failure.gate,
                xml(&failure.message)
            );
        }
        let figures = system_out(m, evaluation);
        let _ = writeln!(out, "      <system-out>{}</system-out>", xml(&figures));
        let _ = writeln!(out, "    </testcase>");
    }
    out.push_str("  </testsuite>\n</testsuites>");
    out
}

/// A measured question's figures, as its `system-out` shows them.
fn system_out(m: &Metrics, evaluation: &QuestionEvaluation) -> String {
    let mut figures = format!(
        "examples={} {}={:.4} accuracy={:.4} macro_f1={:.4} kappa={:.4} brier={:.4} ece={:.4}",
        m.examples, m.metric, m.loss, m.accuracy, m.macro_f1, m.kappa, m.brier, m.ece
    );
    if let Some(iv) = &m.intervals {
        let _ = write!(
            figures,
            "\n95%: accuracy=[{:.4}, {:.4}] {}=[{:.4}, {:.4}]",
            iv.accuracy.low, iv.accuracy.high, m.metric, iv.loss.low, iv.loss.high
        );
    }
    if let Some(base) = &evaluation.baseline {
        let _ = write!(
            figures,
            "\nbaseline: {}={:.4} accuracy={:.4} ece={:.4}",
            base.metric, base.loss, base.accuracy, base.ece
        );
    }
    if let Some(delta) = &evaluation.delta {
        let _ = write!(
            figures,
            "\nchange (95%): accuracy={:+.4} [{:+.4}, {:+.4}] {}={:+.4} [{:+.4}, {:+.4}]",
            delta.accuracy.value,
            delta.accuracy.low,
            delta.accuracy.high,
            m.metric,
            delta.loss.value,
            delta.loss.low,
            delta.loss.high
        );
    }
    figures
}

/// Text escaped for XML attributes and content; characters XML 1.0 cannot hold are dropped.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes_markup_and_drops_control_characters() {
        assert_eq!(
            xml("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
        assert_eq!(xml("bell\u{7}\ttab"), "bell\ttab");
    }
}
