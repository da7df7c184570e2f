//! Feedback on a long decision at a terminal: a spinner with the windows read while the
//! engine reads a long state, and, once it is done, how many tokens it read and how long
//! it took. Nothing is drawn on a pipe or with `--quiet`.

use crate::cli::output::Printer;
use crate::core::service::Service;
use crate::engine::progress::{ReadProgress, ReadSnapshot, watch};
use crate::wire::{DecisionRequest, DecisionResponse};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The spinner shows once the state is known to take more windows than this...
const FEW_WINDOWS: usize = 3;
/// ...or once the decision has taken this long (an engine that does not read in windows,
/// the server in client mode).
const LONG: Duration = Duration::from_secs(1);
/// How often the spinner looks at the meter.
const TICK: Duration = Duration::from_millis(100);

/// `service.decide(request)`, with the spinner on a terminal.
pub(crate) async fn decide(
    service: &dyn Service,
    request: &DecisionRequest,
    printer: &Printer,
) -> crate::error::Result<DecisionResponse> {
    if !printer.interactive() {
        return service.decide(request).await;
    }
    let progress = Arc::new(ReadProgress::default());
    let started = Instant::now();
    let spinner = Spinner::start(progress.clone(), started);
    let decided = watch(progress.clone(), service.decide(request)).await;
    let shown = spinner.stop();
    if let (true, Ok(response)) = (shown, &decided) {
        printer.status(&summary(
            response.usage.input_tokens,
            started.elapsed(),
            progress.snapshot(),
        ));
    }
    decided
}

/// A spinner drawn from a timer task, hidden until the decision proves long.
struct Spinner {
    bar: ProgressBar,
    ticker: tokio::task::JoinHandle<()>,
    /// Set once the decision proved long: known here, as a terminal indicatif will not
    /// draw on (`TERM=dumb`) still gets the summary.
    long: Arc<AtomicBool>,
}

impl Spinner {
    fn start(progress: Arc<ReadProgress>, started: Instant) -> Self {
        let bar = ProgressBar::hidden();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        let (drawn, proved_long) = (bar.clone(), Arc::new(AtomicBool::new(false)));
        let shown = proved_long.clone();
        let ticker = tokio::spawn(async move {
            loop {
                tokio::time::sleep(TICK).await;
                let seen = progress.snapshot();
                if !shown.load(Ordering::Relaxed) && long(seen, started.elapsed()) {
                    drawn.set_draw_target(ProgressDrawTarget::stderr());
                    shown.store(true, Ordering::Relaxed);
                }
                if shown.load(Ordering::Relaxed) {
                    drawn.set_message(reading(seen));
                    drawn.tick();
                }
            }
        });
        Self {
            bar,
            ticker,
            long: proved_long,
        }
    }

    /// Stop and clear it; whether the decision proved long.
    fn stop(self) -> bool {
        self.ticker.abort();
        self.bar.finish_and_clear();
        self.long.load(Ordering::Relaxed)
    }
}

/// Whether a decision is long enough to show the spinner: its state takes more than a few
/// windows, or it has taken a while already.
fn long(seen: ReadSnapshot, elapsed: Duration) -> bool {
    seen.windows > FEW_WINDOWS || elapsed >= LONG
}

/// The spinner's message: the windows read, when the engine reads in windows.
fn reading(seen: ReadSnapshot) -> String {
    if seen.windows == 0 {
        "waiting for the answer".to_owned()
    } else {
        format!("reading the state: {}/{} windows", seen.read, seen.windows)
    }
}

/// What a long decision says when it is done: the input tokens of its usage (the state's
/// overlapping windows and the outcomes compared with them), the time, and the windows
/// when known.
fn summary(input_tokens: u64, took: Duration, seen: ReadSnapshot) -> String {
    let mut line = format!(
        "read {input_tokens} input tokens in {:.1}s",
        took.as_secs_f64()
    );
    match seen.windows {
        0 => {}
        1 => line.push_str(" (1 window of the state)"),
        n => {
            let _ = write!(line, " ({n} windows of the state)");
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_is_long_past_a_few_windows_or_a_second() {
        let windows = |windows| ReadSnapshot { windows, read: 0 };
        let soon = Duration::from_millis(200);
        assert!(!long(windows(0), soon));
        assert!(!long(windows(3), soon));
        assert!(long(windows(4), Duration::ZERO));
        assert!(long(windows(0), LONG));
        assert!(long(windows(1), LONG));
    }

    #[test]
    fn the_messages_name_the_windows_only_when_there_are_some() {
        let windowed = ReadSnapshot {
            windows: 14,
            read: 5,
        };
        assert_eq!(reading(windowed), "reading the state: 5/14 windows");
        assert_eq!(reading(ReadSnapshot::default()), "waiting for the answer");
        let done = ReadSnapshot {
            read: 14,
            ..windowed
        };
        assert_eq!(
            summary(1750, Duration::from_millis(12_340), done),
            "read 1750 input tokens in 12.3s (14 windows of the state)"
        );
        assert_eq!(
            summary(1750, Duration::from_millis(2_050), ReadSnapshot::default()),
            "read 1750 input tokens in 2.0s"
        );
        let one = ReadSnapshot {
            windows: 1,
            read: 1,
        };
        assert_eq!(
            summary(90, Duration::from_millis(1_200), one),
            "read 90 input tokens in 1.2s (1 window of the state)"
        );
    }
}
