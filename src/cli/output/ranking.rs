//! Progress while the examples to annotate are ranked (each candidate decided, seconds to
//! minutes on a large pool): on a terminal, once it proves long, a line on stderr with the
//! candidates decided so far. Nothing is drawn on a pipe or with `--quiet`.

use crate::cli::output::Printer;
use crate::core::to_annotate::progress::{RankProgress, RankSnapshot, watch};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The line shows once the ranking has taken this long.
const LONG: Duration = Duration::from_secs(1);
/// How often the line looks at the meter.
const TICK: Duration = Duration::from_millis(100);

/// `ranking`, with its progress on stderr on a terminal.
pub(crate) async fn ranking<F: Future>(printer: &Printer, ranking: F) -> F::Output {
    if !printer.interactive() {
        return ranking.await;
    }
    let progress = Arc::new(RankProgress::default());
    let bar = ProgressBar::hidden();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let (drawn, meter, started) = (bar.clone(), progress.clone(), Instant::now());
    let ticker = tokio::spawn(async move {
        let mut shown = false;
        loop {
            tokio::time::sleep(TICK).await;
            if !shown && started.elapsed() >= LONG {
                drawn.set_draw_target(ProgressDrawTarget::stderr());
                shown = true;
            }
            if shown {
                drawn.set_message(message(meter.snapshot()));
                drawn.tick();
            }
        }
    });
    let done = watch(progress, ranking).await;
    ticker.abort();
    bar.finish_and_clear();
    done
}

/// What the line says: the candidates decided of how many, once they are known (a
/// server ranks them out of sight).
fn message(seen: RankSnapshot) -> String {
    if seen.candidates == 0 {
        "ranking the examples to annotate".to_owned()
    } else {
        format!(
            "ranking the examples to annotate: {}/{} candidates decided",
            seen.decided, seen.candidates
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_counts_the_candidates_once_they_are_known() {
        assert_eq!(
            message(RankSnapshot::default()),
            "ranking the examples to annotate"
        );
        assert_eq!(
            message(RankSnapshot {
                candidates: 1000,
                decided: 37
            }),
            "ranking the examples to annotate: 37/1000 candidates decided"
        );
    }
}
