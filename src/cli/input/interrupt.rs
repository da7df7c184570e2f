//! The question a Ctrl-C asks about a job that runs on a server: cancel it? The job goes on
//! while the question waits, so an unanswered question cancels it after [`TIMEOUT`] rather
//! than letting it run on unseen. The answer is read from the controlling terminal
//! (`/dev/tty`), not stdin, which may be the job's input.

use std::io::{BufRead, BufReader, Write};
use std::time::Duration;

/// How long the question waits for an answer before the job is cancelled.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(10);

/// The terminal to ask on, when the process has one.
pub(crate) fn terminal() -> Option<std::fs::File> {
    std::fs::File::open("/dev/tty").ok()
}

/// Ask on `tty` whether to cancel job `job_id` on the server: yes unless the answer is no.
/// Enter, `y`, anything but an answer starting with `n`, no answer within [`TIMEOUT`] and a second Ctrl-C all mean yes.
pub(crate) async fn ask_to_cancel(tty: std::fs::File, job_id: &str) -> bool {
    let mut stderr = std::io::stderr();
    let _ = write!(
        stderr,
        "interrupted: cancel job {job_id} on the server? [Y/n] (yes in {} s) ",
        TIMEOUT.as_secs()
    );
    let _ = stderr.flush();
    // A plain thread, not a blocking task: an unanswered read must not hold up the exit.
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        let mut answer = String::new();
        let _ = BufReader::new(tty).read_line(&mut answer);
        let _ = tx.send(answer);
    });
    let answer = tokio::select! {
        answer = rx => answer.unwrap_or_default(),
        () = tokio::time::sleep(TIMEOUT) => {
            let _ = writeln!(stderr, "\nno answer in {} s", TIMEOUT.as_secs());
            return true;
        }
        _ = tokio::signal::ctrl_c() => {
            let _ = writeln!(stderr);
            return true;
        }
    };
    !is_no(&answer)
}

fn is_no(answer: &str) -> bool {
    answer.trim_start().starts_with(['n', 'N'])
}

#[cfg(test)]
mod tests {
    use super::is_no;

    #[test]
    fn only_no_declines() {
        for no in ["n", "N\n", " no ", "NO", "nope"] {
            assert!(is_no(no), "{no:?}");
        }
        for yes in ["", "\n", "y", "yes", "Y\n", "sure"] {
            assert!(!is_no(yes), "{yes:?}");
        }
    }
}
