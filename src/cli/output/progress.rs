//! A job's progress on stderr: a bar on a terminal, its counts in words elsewhere.

use crate::cli::output::Printer;
use crate::wire::jobs::{JobKind, Progress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

pub(crate) fn progress_text(progress: Progress) -> String {
    if progress.failed > 0 {
        format!(
            "{}/{} ({} failed)",
            progress.done, progress.total, progress.failed
        )
    } else {
        format!("{}/{}", progress.done, progress.total)
    }
}

/// Items per second to one decimal (`77.4/s`): indicatif's own `{per_sec}` shows four.
fn rate(state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write) {
    let _ = write!(out, "{}", per_second(state.per_sec()));
}

fn per_second(rate: f64) -> String {
    format!("{rate:.1}/s")
}

/// A job's progress bar on stderr (items, items/s, ETA): drawn only on a terminal.
pub(crate) struct JobBar {
    bar: ProgressBar,
}

impl JobBar {
    /// The bar of a job of `kind`: items, their rate and an ETA for a batch or an
    /// evaluation, whose items take about as long as each other; for an alignment, its
    /// steps named and no ETA, since reading a state is quick and fitting a question slow
    /// (an ETA from the states said "3h" of a minute's fit).
    pub(crate) fn new(printer: &Printer, total: u64, kind: JobKind) -> Self {
        let bar = if printer.interactive() {
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        let template = match kind {
            JobKind::Alignment => {
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} steps \
                 (each state read, then each question fitted) {msg}"
            }
            JobKind::Batch | JobKind::Evaluation => {
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} items {msg} {rate} ETA {eta}"
            }
        };
        bar.set_style(ProgressStyle::with_template(template).map_or_else(
            |_| ProgressStyle::default_bar(),
            |style| style.with_key("rate", rate),
        ));
        bar.enable_steady_tick(Duration::from_millis(120));
        Self { bar }
    }

    pub(crate) fn set(&self, progress: Progress) {
        self.bar.set_length(progress.total);
        self.bar.set_position(progress.done);
        if progress.failed > 0 {
            self.bar
                .set_message(format!("({} failed)", progress.failed));
        }
    }

    pub(crate) fn println(&self, text: &str) {
        self.bar.println(text);
    }

    /// Run `f` with the bar cleared (to write on the terminal).
    pub(crate) fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Clear the bar and draw it no more.
    pub(crate) fn hide(&self) {
        self.bar.disable_steady_tick();
        self.bar.finish_and_clear();
        self.bar.set_draw_target(ProgressDrawTarget::hidden());
    }

    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_has_one_decimal() {
        assert_eq!(per_second(77.352_8), "77.4/s");
        assert_eq!(per_second(0.0), "0.0/s");
    }
}
