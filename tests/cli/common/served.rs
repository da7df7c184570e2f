//! `arbiter serve` as a real process: start it on a free port, stop it with SIGTERM or
//! kill it with SIGKILL, read its log; and raw HTTP exchanges with it.

use crate::common::TestEnv;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Kills the child if the test fails before it stopped on its own.
pub(crate) struct Running(Option<Child>);

impl Running {
    pub(crate) fn new(child: Child) -> Self {
        Self(Some(child))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0
            && child.try_wait().ok().flatten().is_none()
        {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `arbiter serve --listen 127.0.0.1:0` as a process, its stderr (the log) collected.
pub(crate) struct Served {
    pub(crate) address: String,
    pub(crate) pid: u32,
    running: Running,
    lines: mpsc::Receiver<String>,
    stdout: std::thread::JoinHandle<String>,
    /// The log so far, line by line as it comes.
    log: Arc<Mutex<String>>,
    stderr: std::thread::JoinHandle<()>,
}

/// A home's `arbiter serve` as a process.
impl TestEnv {
    /// `arbiter serve --listen 127.0.0.1:0` on this home, once it says where it listens.
    pub(crate) fn spawn_serve(&self) -> Served {
        self.spawn_serve_with(|_| {})
    }

    /// [`TestEnv::spawn_serve`], with `configure` applied to the command first.
    pub(crate) fn spawn_serve_with(
        &self,
        configure: impl FnOnce(&mut std::process::Command),
    ) -> Served {
        let mut command = self.std_cmd();
        configure(&mut command);
        Served::spawn(command)
    }
}

impl Served {
    fn spawn(mut command: std::process::Command) -> Self {
        let mut child = command
            .args(["serve", "--listen", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn arbiter serve");
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let pid = child.id();
        let running = Running(Some(child));
        let (line_tx, line_rx) = mpsc::channel();
        // Each stdout line is sent on as it comes: the first says where it listens, a
        // second where `/metrics` is served, when it is.
        let stdout = std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut all = String::new();
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    return all;
                }
                all.push_str(&line);
                let _ = line_tx.send(line);
            }
        });
        let log = Arc::new(Mutex::new(String::new()));
        let stderr = {
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                // Byte lines, so that a line that is not UTF-8 is kept (lossily) and the
                // pipe is read to its end whatever the server writes.
                let mut reader = BufReader::new(stderr);
                let mut line = Vec::new();
                while reader.read_until(b'\n', &mut line).unwrap_or(0) > 0 {
                    log.lock()
                        .unwrap()
                        .push_str(&String::from_utf8_lossy(&line));
                    line.clear();
                }
            })
        };
        // The first stdout line says where it listens (the socket is bound before it is
        // printed).
        let line = line_rx
            .recv_timeout(Duration::from_mins(2))
            .expect("a first stdout line within 120 s");
        let address = line
            .trim_end()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("first stdout line: {line:?}"))
            .to_owned();
        assert!(address.starts_with("http://127.0.0.1:"), "{address}");
        assert_ne!(
            address, "http://127.0.0.1:0",
            "port 0 is replaced by the bound port"
        );
        Self {
            address,
            pid,
            running,
            lines: line_rx,
            stdout,
            log,
            stderr,
        }
    }

    /// The next line the server prints on stdout after `listening on …`, within 30 s.
    pub(crate) fn next_line(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(30))
            .expect("a stdout line within 30 s")
    }

    /// Wait until the log has a line containing `text`, within `bound`.
    pub(crate) fn wait_for_log(&self, text: &str, bound: Duration) {
        crate::common::wait_until(bound, Duration::from_millis(50), || {
            let log = self.log.lock().unwrap();
            if log.contains(text) {
                Ok(())
            } else {
                Err(format!("the log has no `{text}` yet: {log}"))
            }
        });
    }

    /// SIGTERM, then a clean exit within a deadline: the exit status and the whole log.
    pub(crate) fn stop(mut self) -> (std::process::ExitStatus, String) {
        let status = std::process::Command::new("kill")
            .args(["-TERM", &self.pid.to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -TERM {}", self.pid);
        let child = self.running.0.as_mut().unwrap();
        let exit =
            crate::common::wait_until(Duration::from_secs(30), Duration::from_millis(50), || {
                child
                    .try_wait()
                    .expect("try_wait")
                    .ok_or_else(|| "arbiter serve has not exited since SIGTERM".to_owned())
            });
        self.running.0 = None;
        (exit, self.whole_log())
    }

    /// CPU time the server process has used so far (user + system).
    pub(crate) fn cpu_time(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid)).unwrap();
        // Fields after the command (in parentheses, which may hold spaces): utime is the
        // 14th field of the line, stime the 15th, in clock ticks (100 per second here).
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = after.split(' ').collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        Duration::from_millis(ticks * 10)
    }
}

impl Served {
    /// `kill -9`: no shutdown, no flush; wait until the process is gone and return its log.
    pub(crate) fn kill_9(mut self) -> String {
        let mut child = self.running.0.take().expect("running");
        child.kill().expect("SIGKILL");
        child.wait().expect("reaped");
        self.whole_log()
    }

    /// The whole log, once the process has exited and its stderr is read to the end.
    fn whole_log(self) -> String {
        let _ = self.stdout.join();
        self.stderr.join().expect("stderr reader");
        std::mem::take(&mut *self.log.lock().unwrap())
    }

    /// A client for this server: no proxy, a generous timeout.
    pub(crate) fn client() -> reqwest::Client {
        reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_mins(2))
            .build()
            .expect("client")
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// `GET path` with `token`: the JSON it answers.
    pub(crate) async fn get_json(&self, path: &str, token: &str) -> serde_json::Value {
        Self::client()
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// The `index` of each result line of the job at `job_path`, as this server streams them.
    pub(crate) async fn result_indexes(&self, token: &str, job_path: &str) -> Vec<u64> {
        let text = Self::client()
            .get(self.url(&format!("{job_path}/results")))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        text.lines()
            .map(|line| {
                serde_json::from_str::<serde_json::Value>(line).unwrap()["index"]
                    .as_u64()
                    .unwrap()
            })
            .collect()
    }
}

/// Send `request` as raw bytes on a new connection and read the answer until the server
/// closes it: (status, lowercased head, body).
pub(crate) fn raw_exchange(address: &str, request: &[u8]) -> (u16, String, String) {
    use std::io::Write as _;
    let host = address.strip_prefix("http://").unwrap();
    let mut stream = std::net::TcpStream::connect(host).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(request).expect("send");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8(answer).expect("a UTF-8 answer");
    let (head, body) = answer
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no head in {answer:?}"));
    let status = head[9..12].parse().expect("a status");
    (status, head.to_ascii_lowercase(), body.to_owned())
}

/// `entries` sentences of varied ticket text: many windows of encoder work on `jev-latest`.
pub(crate) fn long_ticket_text(entries: usize) -> String {
    use std::fmt::Write as _;
    let mut text = String::new();
    for i in 0..entries {
        let _ = write!(
            text,
            "ticket {i} mentions refund number {} and a delay ",
            i * 7919 % 10_007
        );
    }
    text
}

/// `arbiter tokens create --name t --scope decisions --json`, as printed.
pub(crate) fn decisions_token(env: &TestEnv) -> serde_json::Value {
    env.json(&[
        "tokens",
        "create",
        "--name",
        "t",
        "--scope",
        "decisions",
        "--json",
    ])
}
