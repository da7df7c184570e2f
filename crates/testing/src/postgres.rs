//! A throwaway PostgreSQL server for tests: `initdb` in a temporary directory, started on a
//! free loopback port, one fresh database per caller, and gone when the test process ends
//! (a watchdog shell stops it and removes its directory once the process's pipe closes,
//! even after `kill -9`). A test that takes the database down and up again has a server of
//! its own ([`dedicated`]), gone when it is dropped.
//!
//! The binaries come from `ARBITER_TEST_PG_BIN`, else Debian's `/usr/lib/postgresql/<v>/bin`
//! (package `postgresql`). As root, the server runs as the `postgres` user via `runuser`,
//! since PostgreSQL refuses to run as root. When no PostgreSQL is installed, [`database`]
//! returns `None` and says once how to run these tests, unless `ARBITER_REQUIRE_POSTGRES`
//! is set (as `.ci/run` does): then a missing server is a failure, never a silent skip.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{LazyLock, Mutex, Once};
use std::time::{Duration, Instant};

/// How to get these tests to run, said when they are skipped.
pub const HOW_TO_RUN: &str = "PostgreSQL tests skipped: no PostgreSQL server binaries found. \
     Install Debian's package (`apt-get install postgresql`) or set ARBITER_TEST_PG_BIN to the \
     directory holding `initdb` and `postgres`; `.ci/run` always runs them.";

/// A running server: the shared one lives as long as the test process, a [`dedicated`] one
/// as long as its value.
pub struct Server {
    port: u16,
    /// `pg_ctl`, and how it is run (as `postgres` when we are root).
    pg_ctl: PathBuf,
    root: bool,
    /// The cluster's data directory, and the directory holding it, its socket and its log.
    data: PathBuf,
    dir: PathBuf,
    /// The watchdog: its stdin is the pipe whose closing stops the server.
    _watchdog: Mutex<Child>,
}

impl Server {
    /// The URL of database `name` on this server.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://arbiter@127.0.0.1:{}/{name}", self.port)
    }

    /// A fresh, empty database on this server: its URL.
    ///
    /// # Panics
    /// When the database cannot be created.
    pub fn database(&self) -> String {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "test_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = ::postgres::Client::connect(&self.url("postgres"), ::postgres::NoTls)
            .expect("connecting to the test server");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("creating a test database");
        self.url(&name)
    }

    /// Takes the server down (a fast shutdown: connections are cut, as in an outage) and
    /// waits until it is.
    ///
    /// # Panics
    /// When `pg_ctl stop` fails.
    pub fn stop(&self) {
        let stopped = self
            .pg_ctl(&["-m", "fast", "-w", "stop"])
            .output()
            .expect("running pg_ctl stop");
        assert!(
            stopped.status.success(),
            "pg_ctl stop: {}",
            String::from_utf8_lossy(&stopped.stderr)
        );
    }

    /// Brings a stopped server up again on the same port and data, and waits until it
    /// accepts connections.
    ///
    /// # Panics
    /// When it does not come up.
    pub fn start_again(&self) {
        // Right after a stop, `pg_ctl start` can see the old server's pid file still there
        // and report a failure although its server starts: whether it answers decides.
        let launched = self.launch();
        if let Err(ready) = self.ready() {
            panic!("{}", launched.err().unwrap_or(ready));
        }
    }

    fn pg_ctl(&self, args: &[&str]) -> Command {
        let mut command = as_server_user(&self.pg_ctl, self.root);
        command.arg("-D").arg(&self.data).args(args);
        command
    }

    /// `pg_ctl start`, with the server's settings.
    fn launch(&self) -> Result<(), String> {
        let started = self
            .pg_ctl(&["-w", "-l"])
            .arg(self.dir.join("log"))
            .arg("-o")
            .arg(self.options())
            .arg("start")
            .stdout(Stdio::null())
            .output()
            .map_err(|e| format!("running pg_ctl start: {e}"))?;
        if started.status.success() {
            Ok(())
        } else {
            Err(format!(
                "pg_ctl start failed: {}{}",
                String::from_utf8_lossy(&started.stderr),
                std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
            ))
        }
    }

    fn options(&self) -> String {
        format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            self.port,
            self.dir.display()
        )
    }

    /// Waits (up to 30 s) until the server accepts connections.
    fn ready(&self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match ::postgres::Client::connect(&self.url("postgres"), ::postgres::NoTls) {
                Ok(_) => return Ok(()),
                Err(e) if Instant::now() > deadline => {
                    let log = std::fs::read_to_string(self.dir.join("log")).unwrap_or_default();
                    return Err(format!("not accepting connections after 30 s: {e}\n{log}"));
                }
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }
}

/// Said once per process when the tests are skipped.
static SAID: Once = Once::new();

static SERVER: LazyLock<Result<Server, String>> = LazyLock::new(start);

/// The shared test server, started on first use; `None` (after saying how to run these
/// tests) when PostgreSQL is not installed.
///
/// # Panics
/// When PostgreSQL is installed but does not start, or is required and missing.
pub fn server() -> Option<&'static Server> {
    match &*SERVER {
        Ok(server) => Some(server),
        Err(missing) if missing.is_empty() => {
            assert!(
                std::env::var_os("ARBITER_REQUIRE_POSTGRES").is_none(),
                "ARBITER_REQUIRE_POSTGRES is set but {HOW_TO_RUN}"
            );
            #[allow(clippy::print_stderr)] // the test's own output: how to run it
            SAID.call_once(|| eprintln!("{HOW_TO_RUN}"));
            None
        }
        Err(failure) => panic!("the test PostgreSQL server did not start: {failure}"),
    }
}

/// A fresh, empty database on the shared test server: its URL.
///
/// # Panics
/// As [`server`], and when the database cannot be created.
pub fn database() -> Option<String> {
    Some(server()?.database())
}

/// A server of the caller's own, to stop and start again ([`Server::stop`],
/// [`Server::start_again`]) without disturbing other tests; stopped and removed when
/// dropped. `None` as for [`server`].
///
/// # Panics
/// As [`server`].
pub fn dedicated() -> Option<Server> {
    match start() {
        Ok(server) => Some(server),
        Err(missing) if missing.is_empty() => {
            server();
            None
        }
        Err(failure) => panic!("a test PostgreSQL server did not start: {failure}"),
    }
}

/// The directory of `initdb` and `postgres`, if PostgreSQL is installed.
fn binaries() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("ARBITER_TEST_PG_BIN") {
        return Some(PathBuf::from(dir));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// A command run as the server's user: `runuser -u postgres --` when we are root.
fn as_server_user(program: &Path, root: bool) -> Command {
    if root {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| e.to_string())
}

/// Starts a server; `Err("")` when PostgreSQL is not installed.
fn start() -> Result<Server, String> {
    let Some(bin) = binaries() else {
        return Err(String::new());
    };
    let root = is_root();
    let dir = std::env::temp_dir().join(format!(
        "arbiter-pg-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::create_dir(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let data = dir.join("data");
    if root {
        let chown = Command::new("chown")
            .args(["-R", "postgres"])
            .arg(&dir)
            .status()
            .map_err(|e| format!("chown: {e}"))?;
        if !chown.success() {
            return Err(format!("chown postgres {} failed", dir.display()));
        }
    }
    let initdb = as_server_user(&bin.join("initdb"), root)
        .arg("-D")
        .arg(&data)
        .args(["-U", "arbiter", "--auth=trust", "-E", "UTF8", "--no-sync"])
        .stdout(Stdio::null())
        .output()
        .map_err(|e| format!("running initdb: {e}"))?;
    if !initdb.status.success() {
        return Err(format!(
            "initdb failed: {}",
            String::from_utf8_lossy(&initdb.stderr)
        ));
    }
    let port = free_port()?;
    // The watchdog waits on its stdin: when this process ends (by any means) or the server
    // is dropped, the pipe closes, and the server, however often it was stopped and started
    // again, is stopped and its directory removed.
    let script = format!(
        "read _; '{pg_ctl}' -D '{data}' -m immediate -w stop >/dev/null 2>&1; rm -rf '{dir}'",
        pg_ctl = bin.join("pg_ctl").display(),
        data = data.display(),
        dir = dir.display(),
    );
    let watchdog = as_server_user(Path::new("sh"), root)
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("starting the watchdog: {e}"))?;
    let server = Server {
        port,
        pg_ctl: bin.join("pg_ctl"),
        root,
        data,
        dir,
        _watchdog: Mutex::new(watchdog),
    };
    server.launch()?;
    server.ready()?;
    Ok(server)
}
