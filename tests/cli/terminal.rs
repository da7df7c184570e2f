//! A pseudo-terminal for a child's stderr, for what the CLI shows only at a terminal
//! (prompts, progress).

use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A pseudo-terminal: the child's stderr and controlling terminal (`/dev/tty`), with what
/// is written on it collected, and a way to type on it.
pub(crate) struct Terminal {
    master: std::fs::File,
    seen: Arc<Mutex<String>>,
    reader: std::thread::JoinHandle<()>,
}

impl Terminal {
    /// Open a terminal and make it `cmd`'s stderr and controlling terminal.
    pub(crate) fn attach(cmd: &mut std::process::Command) -> Self {
        use std::os::fd::FromRawFd;
        use std::os::unix::process::CommandExt;
        let (mut master, mut slave) = (0, 0);
        // SAFETY: openpty writes two new descriptors into the two integers.
        let opened = unsafe {
            libc::openpty(
                &raw mut master,
                &raw mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(opened, 0, "openpty");
        // SAFETY: both descriptors were just opened and are owned here alone.
        let (master, slave) = unsafe {
            (
                std::fs::File::from_raw_fd(master),
                std::fs::File::from_raw_fd(slave),
            )
        };
        cmd.stderr(slave);
        // SAFETY: setsid and ioctl are async-signal-safe; fd 2 is the terminal by now.
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(2, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let seen = Arc::new(Mutex::new(String::new()));
        let mut reader = master.try_clone().unwrap();
        let collected = Arc::clone(&seen);
        let reader = std::thread::spawn(move || {
            use std::io::Read;
            let mut buf = [0u8; 4096];
            // Ends with EIO when the child, the last holder of the terminal, exits.
            while let Ok(n @ 1..) = reader.read(&mut buf) {
                collected
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Self {
            master,
            seen,
            reader,
        }
    }

    pub(crate) fn seen(&self) -> String {
        self.seen.lock().unwrap().clone()
    }

    /// Everything the child wrote, once it has exited and the terminal is read to its
    /// end (within 30 s). The command it was attached to must be dropped first: it holds
    /// the terminal open too.
    pub(crate) fn seen_to_the_end(self) -> String {
        crate::common::wait_until(Duration::from_secs(30), Duration::from_millis(20), || {
            if self.reader.is_finished() {
                Ok(())
            } else {
                Err("the terminal is still open".to_owned())
            }
        });
        self.reader.join().expect("terminal reader");
        self.seen.lock().unwrap().clone()
    }

    /// Wait until `text` appears on the terminal.
    pub(crate) fn wait_for(&self, text: &str) {
        crate::common::wait_until(Duration::from_secs(30), Duration::from_millis(20), || {
            let seen = self.seen();
            if seen.contains(text) {
                Ok(())
            } else {
                Err(format!("`{text}` has not appeared: {seen}"))
            }
        });
    }

    pub(crate) fn type_line(&self, line: &str) {
        use std::io::Write;
        writeln!(&self.master, "{line}").unwrap();
    }
}
