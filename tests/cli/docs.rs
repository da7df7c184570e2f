//! The README and the guide (`docs/src/`) print what they show: every command block runs
//! here, and every link resolves.
//!
//! A page's command blocks are fenced as `console` (commands after `$ `, each followed
//! by what it prints) or `sh`/`bash` (commands only). Each page runs top to bottom in
//! one `bash`, as a reader would type it: in a fresh home (`HOME` is a temporary
//! directory, so arbiter's home is `~/.local/share/arbiter`), from a directory where
//! `examples/` is the repository's, on a PATH of the home's `~/.local/bin` and the
//! system's directories, without cargo or rustc. The README's installer puts `arbiter`
//! there: the test build, packaged as a release by `dist/package.sh` and served by a
//! fake release host on the loopback interface (`tests/cli/release.rs`), which the
//! release URL (`https://github.com/arbiter-dev/arbiter/releases/…`) reads as, and
//! `ARBITER_DOWNLOAD_URL` names. The guide's pages continue from where the README's
//! tour ends (its home and files, the installed `arbiter` among them), as its readers
//! do. A command's output is compared with what the block shows, line by line and word
//! by word: numbers within a rounding step of the digits shown (another CPU may round
//! the last digit differently; a number shown whole, within 1e-4), and what differs on
//! every run (UUIDs and the IDs cut from them, commits, timestamps, secrets, durations)
//! by its shape only. A line that is only `…` stands for any lines.
//!
//! What a reader sees on a terminal is what is compared: a command whose output would go to
//! the terminal draws its tables (`--table`, at `COLUMNS=100` unless the command sets its
//! own), and one whose output is piped or redirected prints what it prints there. A command
//! that fails must be followed by `$ echo $?`, which shows its exit code; in an `sh` block
//! every command must succeed. A server started in the background (`… 127.0.0.1:8080 &`)
//! listens on a free port here, waited for before the next command; its port reads as 8080
//! in what is compared, and the temporary home as `/home/dana` (the user is `dana`).
//!
//! A block that cannot run here (a benchmark that takes minutes, a build, a package install,
//! a second machine) is fenced `console,no_run` or `sh,no_run`: it is still checked for the
//! files it names. `ARBITER_DOCS=overwrite cargo test --test cli docs::` writes what the
//! commands print into the pages where it differs from what they show (for a block that
//! has no `…`), to review with `git diff`.

use crate::common::{process_dir, repo_root};
use crate::release::{RELEASES_URL, ReleaseServer, on_release_host, release_dir};
use regex::Regex;
use std::collections::{BTreeSet, HashSet};
use std::fmt::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Fence languages whose blocks are commands.
const COMMAND_LANGS: [&str; 3] = ["console", "sh", "bash"];
/// The port the pages' servers are shown listening on.
const SHOWN_PORT: &str = "8080";
/// The home directory the pages show (the session's reads as it).
const SHOWN_HOME: &str = "/home/dana";
/// The most a page's commands may take together.
const PAGE_DEADLINE: Duration = Duration::from_mins(10);

/// A fenced code block.
struct Block {
    /// 1-based line of its opening fence.
    line: usize,
    lang: String,
    no_run: bool,
    /// Its lines, with the fence's indentation taken off.
    lines: Vec<String>,
}

/// The fenced code blocks of a Markdown page.
fn blocks(text: &str) -> Result<Vec<Block>, String> {
    let mut out = Vec::new();
    let mut open: Option<(Block, String, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim_start();
        match &mut open {
            None => {
                if let Some(rest) = trimmed.strip_prefix("```") {
                    let fence = "`".repeat(3 + rest.chars().take_while(|c| *c == '`').count());
                    let info = rest.trim_start_matches('`').trim();
                    let mut words = info.split([',', ' ']).filter(|w| !w.is_empty());
                    let lang = words.next().unwrap_or_default().to_owned();
                    let mut no_run = false;
                    for attr in words {
                        match attr {
                            "no_run" => no_run = true,
                            other => {
                                return Err(format!(
                                    "line {}: unknown fence attribute `{other}`",
                                    i + 1
                                ));
                            }
                        }
                    }
                    let block = Block {
                        line: i + 1,
                        lang,
                        no_run,
                        lines: Vec::new(),
                    };
                    open = Some((block, fence, indent));
                }
            }
            Some((block, fence, fence_indent)) => {
                if trimmed.starts_with(fence.as_str()) && trimmed.trim_end() == fence.as_str() {
                    let (block, _, _) = open.take().expect("open");
                    out.push(block);
                } else {
                    let cut = indent.min(*fence_indent);
                    block.lines.push(line[cut..].to_owned());
                }
            }
        }
    }
    match open {
        Some((block, _, _)) => Err(format!("line {}: a block that never closes", block.line)),
        None => Ok(out),
    }
}

impl Block {
    fn is_command(&self) -> bool {
        COMMAND_LANGS.contains(&self.lang.as_str())
    }
}

/// One command of a page, and what its block shows it printing.
struct Step {
    /// 1-based line of the command.
    line: usize,
    command: String,
    /// `console`: the lines shown under the command, and where they are in the page
    /// (0-based, end exclusive); `sh`: none.
    shown: Option<(Vec<String>, std::ops::Range<usize>)>,
}

/// The commands of a page's blocks, in order (those fenced `no_run` included, marked).
fn commands(blocks: &[Block]) -> Vec<(Step, bool)> {
    let mut steps = Vec::new();
    for block in blocks.iter().filter(|b| b.is_command()) {
        // The block's first line is the one after its fence.
        let first = block.line;
        let mut i = 0;
        while i < block.lines.len() {
            let line = &block.lines[i];
            let console = block.lang == "console";
            let text = if console {
                let Some(text) = line.strip_prefix("$ ") else {
                    i += 1;
                    continue;
                };
                text
            } else {
                let trimmed = line.trim();
                if trimmed.is_empty() || trimmed.starts_with('#') {
                    i += 1;
                    continue;
                }
                line.as_str()
            };
            let start = i;
            let mut command = text.to_owned();
            while command.ends_with('\\') && i + 1 < block.lines.len() {
                i += 1;
                command.push('\n');
                command.push_str(&block.lines[i]);
            }
            i += 1;
            let shown = console.then(|| {
                let from = i;
                while i < block.lines.len() && !block.lines[i].starts_with("$ ") {
                    i += 1;
                }
                (block.lines[from..i].to_vec(), (first + from)..(first + i))
            });
            steps.push((
                Step {
                    line: first + start + 1,
                    command,
                    shown,
                },
                block.no_run,
            ));
        }
    }
    steps
}

/// A page of the README or the guide.
struct Page {
    /// Relative to the repository root.
    path: PathBuf,
    text: String,
}

impl Page {
    fn read(path: &str) -> Self {
        let text = std::fs::read_to_string(repo_root().join(path))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        Self {
            path: PathBuf::from(path),
            text,
        }
    }

    fn blocks(&self) -> Vec<Block> {
        blocks(&self.text).unwrap_or_else(|e| panic!("{}: {e}", self.path.display()))
    }
}

/// Every page: the README, then the guide's pages in a fixed order.
fn pages() -> Vec<Page> {
    let mut paths = vec!["README.md".to_owned()];
    let mut guide = Vec::new();
    collect_markdown(&repo_root().join("docs/src"), &mut guide);
    guide.sort();
    paths.extend(guide.into_iter().map(|p| {
        p.strip_prefix(repo_root())
            .expect("under the root")
            .display()
            .to_string()
    }));
    paths.iter().map(|p| Page::read(p)).collect()
}

fn collect_markdown(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_markdown(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Running a page
// ---------------------------------------------------------------------------------------

/// Where a page runs: a home and a working directory, kept for the pages after the tour.
struct Session {
    dir: PathBuf,
}

impl Session {
    fn home(&self) -> PathBuf {
        self.dir.join("home")
    }

    /// The clone the commands run from, in the home.
    fn work(&self) -> PathBuf {
        self.home().join("arbiter")
    }

    /// A fresh one: an empty home, and a working directory with the repository's
    /// `examples/`.
    fn fresh(dir: PathBuf) -> Self {
        let session = Self { dir };
        std::fs::create_dir_all(session.home()).unwrap();
        std::fs::create_dir_all(session.work()).unwrap();
        std::os::unix::fs::symlink(
            repo_root().join("examples"),
            session.work().join("examples"),
        )
        .unwrap();
        session
    }

    /// A copy of another session's home and files.
    fn copy_of(other: &Session, dir: PathBuf) -> Self {
        let session = Self { dir };
        copy_tree(&other.home(), &session.home());
        session
    }
}

/// A copy of a directory, modes kept (the home's are private, and the pages show them).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    std::fs::set_permissions(to, std::fs::metadata(from).unwrap().permissions()).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&source).unwrap(), &target).unwrap();
        } else if kind.is_dir() {
            copy_tree(&source, &target);
        } else if kind.is_file() {
            // A program (the installed arbiter, 160 MB) is linked, not copied: the pages run
            // it, never write it.
            if entry.metadata().unwrap().permissions().mode() & 0o111 != 0 {
                std::fs::hard_link(&source, &target).unwrap();
            } else {
                std::fs::copy(&source, &target).unwrap();
            }
        }
        // Sockets and FIFOs (a server's, gone with it) are not state.
    }
}

/// What one command printed (stdout and stderr, as a terminal interleaves them) and its
/// exit code.
struct Printed {
    output: String,
    code: i32,
    /// How long it took.
    seconds: f64,
}

/// A free port on the loopback interface, for a page's server.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The script that runs a page's steps in one shell, each one's output and exit code in
/// files of `out`.
fn script(steps: &[&Step], out: &Path, local: &Local) -> String {
    let port = local.port;
    let mut text = String::from(
        "cd \"$DOCS_WORK\" || exit 90\n\
         for t in jq curl git; do command -v $t >/dev/null || { echo \"the pages use $t: install it\" >&2; exit 91; }; done\n\
         # On a terminal arbiter draws tables: a command whose output is the terminal's (the\n\
         # step's file here) gets --table; one that is piped or redirected is left as it is.\n\
         arbiter() {\n  \
           if [[ -n ${__out:-} && /dev/stdout -ef $__out && \" $* \" != *' --json '* ]]; then\n    \
             command arbiter --table \"$@\"\n  \
           else\n    \
             command arbiter \"$@\"\n  \
           fi\n\
         }\n\
         __rc=0\n",
    );
    for (i, step) in steps.iter().enumerate() {
        let command = local.command(&step.command);
        let file = out.join(format!("{i}.out"));
        let _ = write!(
            text,
            "__out='{}'\n__t=$EPOCHREALTIME\n(exit $__rc)\n{{ {command}\n}} >\"$__out\" 2>&1 </dev/null\n__rc=$?\necho $__rc $__t $EPOCHREALTIME >'{}'\n",
            file.display(),
            out.join(format!("{i}.rc")).display()
        );
        if command.trim_end().ends_with('&') && command.contains(&format!(":{port}")) {
            // A server started in the background: wait until it listens (a reader would).
            let _ = writeln!(
                text,
                "for __i in $(seq 600); do (exec 3<>/dev/tcp/127.0.0.1/{port}) 2>/dev/null && break; sleep 0.05; done"
            );
        }
    }
    text.push_str("__out=\nkill $(jobs -p) 2>/dev/null\nwait\n");
    text
}

/// What a page's commands name that is the session's here: the port its server listens on,
/// and the release host (a [`ReleaseServer`] serving the test build).
struct Local {
    port: u16,
    /// What stands for [`RELEASES_URL`].
    releases: String,
}

impl Local {
    /// A command with the page's port 8080 replaced by the session's, and the release host
    /// by the fake one, which speaks plain HTTP on the loopback interface (so a `curl`
    /// restricted to `--proto '=https'` is restricted to `=http` instead).
    fn command(&self, command: &str) -> String {
        let command =
            ["127.0.0.1", "localhost", "0.0.0.0"]
                .iter()
                .fold(command.to_owned(), |text, host| {
                    text.replace(
                        &format!("{host}:{SHOWN_PORT}"),
                        &format!("{host}:{}", self.port),
                    )
                });
        on_release_host(&command, &self.releases)
    }

    /// What a command printed, with the session's port and release host as the page shows
    /// them.
    fn shown(&self, output: &str) -> String {
        output
            .replace(&format!(":{}", self.port), &format!(":{SHOWN_PORT}"))
            .replace(&self.releases, RELEASES_URL)
    }
}

/// The PATH the pages run with: the `arbiter` the README's installer put in the home's
/// `~/.local/bin`, and the system's directories, without Rust's.
fn pages_path(home: &Path) -> std::ffi::OsString {
    let dirs: Vec<PathBuf> = std::iter::once(home.join(".local/bin"))
        .chain(["/usr/local/bin", "/usr/bin", "/bin"].map(PathBuf::from))
        .collect();
    for dir in &dirs {
        for tool in ["cargo", "rustc"] {
            assert!(
                !dir.join(tool).exists(),
                "{tool} is in {}, on the pages' PATH: they must run without Rust",
                dir.display()
            );
        }
    }
    std::env::join_paths(dirs).unwrap()
}

/// Run `steps` in `session`; what each printed.
fn run(session: &Session, page: &Path, steps: &[&Step]) -> Vec<Printed> {
    let out = session.dir.join(format!(
        "out-{}",
        page.display().to_string().replace('/', "-")
    ));
    std::fs::create_dir_all(&out).unwrap();
    let releases = ReleaseServer::start(release_dir());
    let local = Local {
        port: free_port(),
        releases: releases.releases_url(),
    };
    let script_path = out.join("script.sh");
    std::fs::write(&script_path, script(steps, &out, &local)).unwrap();
    let mut child = std::process::Command::new("bash")
        .arg("--noprofile")
        .arg("--norc")
        .arg(&script_path)
        .env_clear()
        .env("PATH", pages_path(&session.home()))
        .env("ARBITER_DOWNLOAD_URL", releases.url())
        .env("HOME", session.home())
        .env("USER", "dana")
        .env("COLUMNS", "100")
        .env("LANG", "C.UTF-8")
        .env("TZ", "UTC")
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "0")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "dana")
        .env("GIT_AUTHOR_EMAIL", "dana@example.com")
        .env("GIT_COMMITTER_NAME", "dana")
        .env("GIT_COMMITTER_EMAIL", "dana@example.com")
        .env("DOCS_WORK", session.work())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("bash");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > PAGE_DEADLINE {
            // SAFETY: kill(2) on the process group this test started; no memory involved.
            unsafe { libc::kill(-(child.id().cast_signed()), libc::SIGKILL) };
            let _ = child.wait();
            panic!(
                "{}: the page's commands took more than {PAGE_DEADLINE:?}",
                page.display()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    end_group(child.id());
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut stderr);
    }
    assert!(
        status.success(),
        "{}: the page's shell ended badly ({status}): {stderr}",
        page.display()
    );
    (0..steps.len())
        .map(|i| {
            let output = std::fs::read_to_string(out.join(format!("{i}.out"))).unwrap_or_default();
            // `<exit code> <start> <end>`, the times in seconds.
            let rc = std::fs::read_to_string(out.join(format!("{i}.rc"))).unwrap_or_default();
            let fields: Vec<&str> = rc.split_whitespace().collect();
            let code = fields.first().and_then(|c| c.parse().ok()).unwrap_or(-1);
            let seconds = match (fields.get(1), fields.get(2)) {
                (Some(a), Some(b)) => {
                    b.parse::<f64>().unwrap_or(0.0) - a.parse::<f64>().unwrap_or(0.0)
                }
                _ => 0.0,
            };
            Printed {
                seconds,
                output: local
                    .shown(&output)
                    .replace(&session.home().display().to_string(), SHOWN_HOME),
                code,
            }
        })
        .collect()
}

/// Stop what a page left running in its process group (a server started in the background
/// runs in a subshell of its own), and wait until it is gone, so that its home can be
/// copied whole.
fn end_group(leader: u32) {
    let group = -(leader.cast_signed());
    // SAFETY: kill(2) on the process group this test started; no memory involved.
    let signal = |sig| unsafe { libc::kill(group, sig) } == 0;
    if !signal(libc::SIGTERM) {
        return; // nothing left
    }
    let started = Instant::now();
    while signal(0) {
        if started.elapsed() > Duration::from_secs(10) {
            signal(libc::SIGKILL);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Run a page in `session` and check every command against what the page shows; with
/// `ARBITER_DOCS=overwrite`, write what they print into the page instead.
fn check_page(page: &Page, session: &Session) {
    let steps = commands(&page.blocks());
    let runnable: Vec<&Step> = steps
        .iter()
        .filter(|(_, no_run)| !no_run)
        .map(|(s, _)| s)
        .collect();
    let started = Instant::now();
    let printed = run(session, &page.path, &runnable);
    // What a page costs, and its slow commands: the suite's time is watched.
    let mut report = format!(
        "{}: {} commands in {:.1}s",
        page.path.display(),
        runnable.len(),
        started.elapsed().as_secs_f64()
    );
    for (step, printed) in runnable.iter().zip(&printed) {
        if printed.seconds >= 1.0 {
            let _ = write!(
                report,
                "\n  {:5.1}s  line {}: {}",
                printed.seconds,
                step.line,
                step.command.lines().next().unwrap_or_default()
            );
        }
    }
    // Shown with `--nocapture`, as faults.rs shows its figures.
    #[allow(clippy::print_stderr)]
    {
        eprintln!("{report}");
    }
    let overwrite = std::env::var("ARBITER_DOCS").is_ok_and(|v| v == "overwrite");
    let mut problems = Vec::new();
    let mut lines: Vec<String> = page.text.lines().map(str::to_owned).collect();
    // Replacements from the bottom up keep the ranges above valid.
    let mut replacements = Vec::new();
    for (k, (step, printed)) in runnable.iter().zip(&printed).enumerate() {
        let at = format!("{}:{}", page.path.display(), step.line);
        let next_shows_code = runnable
            .get(k + 1)
            .is_some_and(|next| next.command.trim() == "echo $?");
        match &step.shown {
            None if printed.code != 0 => problems.push(format!(
                "{at}: `{}` exited {}:\n{}",
                step.command, printed.code, printed.output
            )),
            Some(_) if printed.code != 0 && !next_shows_code => problems.push(format!(
                "{at}: `{}` exited {}; a command that fails is followed by `$ echo $?`:\n{}",
                step.command, printed.code, printed.output
            )),
            Some((shown, range)) => {
                let same = same_output(shown, &printed.output);
                if overwrite && same.is_err() && !shown.iter().any(|l| l.trim() == "…") {
                    // Only what differs: what matches keeps the IDs and times it shows.
                    replacements.push((range.clone(), trimmed_lines(&printed.output)));
                } else if let Err(why) = same {
                    problems.push(format!(
                        "{at}: `{}` prints what the page does not show ({why}).\nThe page shows:\n{}\nThe command printed:\n{}",
                        step.command,
                        shown.join("\n"),
                        printed.output.trim_end()
                    ));
                }
            }
            None => {}
        }
    }
    if overwrite && !replacements.is_empty() {
        for (range, new) in replacements.into_iter().rev() {
            lines.splice(range, new);
        }
        let mut text = lines.join("\n");
        text.push('\n');
        std::fs::write(repo_root().join(&page.path), text).unwrap();
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

fn trimmed_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(|l| l.trim_end().to_owned()).collect();
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}

// ---------------------------------------------------------------------------------------
// Comparing what is shown with what is printed
// ---------------------------------------------------------------------------------------

/// Patterns of what differs on every run, each replaced by its shape.
fn volatile() -> &'static [(Regex, &'static str)] {
    static PATTERNS: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        [
            // Timestamps (RFC 3339, and tables' "2026-11-25 09:42:23").
            (
                r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?",
                "‹time›",
            ),
            // UUIDs, whole or cut (job IDs in tables: `c1a228ca-aa4`, `53f9fe08-162…`,
            // `b44e7703-…`), and any hex cut short of them (`b44e77…`).
            (
                r"\b[0-9a-f]{8}-(?:[0-9a-f]{1,4}(?:-[0-9a-f]{1,4}){0,2}(?:-[0-9a-f]{1,12})?)?",
                "‹uuid›",
            ),
            (r"\b[0-9a-f]{3,11}…", "‹uuid›…"),
            // Commits and other hex IDs of 12 characters or more (not a fraction's digits).
            // (Twice: neighbours share the character between them, as in a token's
            // `arb_<id>_<secret>`.)
            (
                r"(^|[^0-9A-Za-z.])[0-9a-f]{12,64}([^0-9A-Za-z]|$)",
                "${1}‹hex›${2}",
            ),
            (
                r"(^|[^0-9A-Za-z.])[0-9a-f]{12,64}([^0-9A-Za-z]|$)",
                "${1}‹hex›${2}",
            ),
            // Durations.
            (r"\b\d+(?:\.\d+)?(?:ms|s)\b", "‹duration›"),
        ]
        .into_iter()
        .map(|(pattern, shape)| (Regex::new(pattern).unwrap(), shape))
        .collect()
    })
}

fn tokens(line: &str) -> Vec<String> {
    static TOKEN: OnceLock<Regex> = OnceLock::new();
    let token = TOKEN.get_or_init(|| {
        Regex::new(r"‹[a-z]+›|[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|[\p{L}\p{N}_]+|\S").unwrap()
    });
    let mut line = line.to_owned();
    for (pattern, shape) in volatile() {
        line = pattern.replace_all(&line, *shape).into_owned();
    }
    token
        .find_iter(&line)
        .map(|m| m.as_str().to_owned())
        .collect()
}

/// Equal tokens, or numbers within a rounding step of the digits shown.
fn same_token(shown: &str, printed: &str) -> bool {
    if shown == printed {
        return true;
    }
    let (Ok(a), Ok(b)) = (shown.parse::<f64>(), printed.parse::<f64>()) else {
        return false;
    };
    let Some((_, decimals)) = shown.split_once('.') else {
        return false; // whole numbers are counts: exact
    };
    let digits = decimals.chars().take_while(char::is_ascii_digit).count();
    let step = 10f64.powi(-i32::try_from(digits).unwrap_or(i32::MAX));
    // A number shown whole (a probability's 17 digits) is what one CPU computed: another
    // sums the encoder's products in another order, which a learned head carries on to the
    // 5th decimal (0.2929254… on one machine, 0.2929087… on another, the same binary).
    (a - b).abs() <= (1.5 * step).max(1e-4)
}

fn same_line(shown: &str, printed: &str) -> bool {
    let (a, b) = (tokens(shown), tokens(printed));
    a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| same_token(x, y))
}

/// Whether `printed` is what `shown` shows (a line `…` stands for any lines).
fn same_output(shown: &[String], printed: &str) -> Result<(), String> {
    let shown: Vec<&str> = shown.iter().map(|l| l.trim_end()).collect();
    let mut shown = &shown[..];
    while shown.last().is_some_and(|l| l.is_empty()) {
        shown = &shown[..shown.len() - 1];
    }
    let printed = trimmed_lines(printed);
    let printed: Vec<&str> = printed.iter().map(String::as_str).collect();
    if matches(shown, &printed) {
        Ok(())
    } else {
        let first = shown
            .iter()
            .zip(&printed)
            .position(|(a, b)| *a != "…" && !same_line(a, b));
        Err(match first {
            Some(i) => format!("from line {} of the output on", i + 1),
            None => format!("{} lines shown, {} printed", shown.len(), printed.len()),
        })
    }
}

fn matches(shown: &[&str], printed: &[&str]) -> bool {
    match shown.split_first() {
        None => printed.is_empty(),
        Some((&"…", rest)) => (0..=printed.len()).any(|k| matches(rest, &printed[k..])),
        Some((line, rest)) => printed
            .split_first()
            .is_some_and(|(p, more)| same_line(line, p) && matches(rest, more)),
    }
}

// ---------------------------------------------------------------------------------------
// The tests: the README's tour, then each page of the guide from where the tour ends
// ---------------------------------------------------------------------------------------

/// The directory this run's sessions live in, under cargo's temporary directory for tests
/// (`target/tmp`).
fn sessions_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| process_dir("docs"))
}

/// The README's tour, run once: its session, or why it failed.
fn tour() -> Result<&'static Session, String> {
    static TOUR: OnceLock<Result<Session, String>> = OnceLock::new();
    TOUR.get_or_init(|| {
        let page = Page::read("README.md");
        let session = Session::fresh(sessions_dir().join("tour"));
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_page(&page, &session)))
            .map(|()| session)
            .map_err(|panic| {
                panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default()
            })
    })
    .as_ref()
    .map_err(Clone::clone)
}

#[test]
fn the_readme_tour_prints_what_it_shows() {
    if let Err(why) = tour() {
        panic!("{why}");
    }
}

/// Run a page of the guide from where the tour ends.
fn guide_page(path: &str) {
    let tour = tour().unwrap_or_else(|_| panic!("the README's tour failed (see its test)"));
    let name = path.replace('/', "-");
    let session = Session::copy_of(tour, sessions_dir().join(name));
    check_page(&Page::read(path), &session);
    let _ = std::fs::remove_dir_all(&session.dir);
}

/// A test per page of the guide; `every_page_of_the_guide_is_run` keeps the list whole.
macro_rules! guide_pages {
    ($($test:ident => $path:literal,)*) => {
        $(
            #[test]
            fn $test() {
                guide_page($path);
            }
        )*
        const GUIDE_PAGES: &[&str] = &[$($path),*];
    };
}

guide_pages! {
    guide_introduction => "docs/src/introduction.md",
    guide_command_line => "docs/src/command-line.md",
    guide_questions => "docs/src/questions.md",
    guide_engines => "docs/src/engines.md",
    guide_repository_models => "docs/src/repository-models.md",
    guide_examples_and_annotation => "docs/src/examples-and-annotation.md",
    guide_jobs => "docs/src/jobs.md",
    guide_alignment_and_ci => "docs/src/alignment-and-ci.md",
    guide_web_app => "docs/src/web-app.md",
    guide_server_and_auth => "docs/src/server-and-auth.md",
    guide_client_mode => "docs/src/client-mode.md",
    guide_several_replicas => "docs/src/several-replicas.md",
    guide_reliability => "docs/src/reliability.md",
    guide_operations => "docs/src/operations.md",
    guide_performance => "docs/src/performance.md",
    guide_quality_and_coherence => "docs/src/quality-and-coherence.md",
    guide_limits => "docs/src/limits.md",
    guide_development => "docs/src/development.md",
}

#[test]
fn every_page_of_the_guide_is_run() {
    let listed: BTreeSet<String> = GUIDE_PAGES.iter().map(|p| (*p).to_owned()).collect();
    let found: BTreeSet<String> = pages()
        .iter()
        .skip(1)
        .map(|p| p.path.display().to_string())
        .filter(|p| p != "docs/src/SUMMARY.md")
        .collect();
    assert_eq!(
        found, listed,
        "add each page of docs/src/ to guide_pages! in tests/cli/docs.rs"
    );
    // And each is in the book.
    let summary = Page::read("docs/src/SUMMARY.md");
    let linked: BTreeSet<String> = links(&summary.text)
        .into_iter()
        .map(|(_, target)| format!("docs/src/{target}"))
        .collect();
    assert_eq!(linked, listed, "docs/src/SUMMARY.md lists every page once");
}

// ---------------------------------------------------------------------------------------
// What the blocks name, and how they are fenced
// ---------------------------------------------------------------------------------------

#[test]
fn commands_are_in_command_blocks_and_outputs_follow_commands() {
    let mut problems = Vec::new();
    for page in pages() {
        for block in page.blocks() {
            let at = format!("{}:{}", page.path.display(), block.line);
            let prompts = block.lines.iter().any(|l| l.starts_with("$ "));
            if block.lang == "console" && !block.lines.first().is_some_and(|l| l.starts_with("$ "))
            {
                problems.push(format!("{at}: a console block starts with a `$ ` command"));
            }
            if !block.is_command() && prompts {
                problems.push(format!(
                    "{at}: a `{}` block holds `$ ` commands: fence it `console`",
                    block.lang
                ));
            }
            if block.lang.is_empty() {
                problems.push(format!("{at}: a block without a language"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The paths a command names: an `examples/…` path, or a file name with an extension.
fn named_paths(command: &str) -> Vec<(String, bool)> {
    static PATH: OnceLock<Regex> = OnceLock::new();
    // Where a path is written, not read.
    static OUTPUT: OnceLock<Regex> = OnceLock::new();
    let path = PATH.get_or_init(|| {
        Regex::new(
            r#"(?:^|[\s=@'"(<>])((?:~/|\./)?[\w.~/-]*[\w-]\.(?:jsonl|json|yaml|yml|xml|csv|log|fish|bash|zsh))\b"#,
        )
        .unwrap()
    });
    let output = OUTPUT
        .get_or_init(|| Regex::new(r"(?:>>?|--output|--out|--dir|\btee|\bcp\s+\S+)\s*$").unwrap());
    path.captures_iter(command)
        .map(|c| {
            let m = c.get(1).unwrap();
            let before = command[..m.start()].trim_end_matches(['\'', '"', '=', ' ']);
            (m.as_str().to_owned(), output.is_match(before))
        })
        .collect()
}

#[test]
fn every_file_a_block_names_exists_in_examples_or_is_made_before() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let mut made: HashSet<String> = HashSet::new();
        for (step, no_run) in commands(&page.blocks()) {
            for (path, written) in named_paths(&step.command) {
                checked += 1;
                if written {
                    made.insert(path);
                    continue;
                }
                // A block that runs has only examples/ of the repository; one that does not
                // (a reader's, in a clone) may name any of its files.
                let exists = if path.starts_with("examples/") || no_run {
                    repo_root().join(&path).is_file() || made.contains(&path)
                } else {
                    made.contains(&path)
                };
                if !exists {
                    problems.push(format!(
                        "{}:{}: `{path}` is neither a file of examples/ (or of the repository, in a block not run) nor made by an earlier command",
                        page.path.display(),
                        step.line
                    ));
                }
            }
        }
    }
    assert!(checked > 10, "the paths were found ({checked})");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------
// Links
// ---------------------------------------------------------------------------------------

/// The inline links of a page outside code: (line, target).
fn links(text: &str) -> Vec<(usize, String)> {
    static LINK: OnceLock<Regex> = OnceLock::new();
    static CODE: OnceLock<Regex> = OnceLock::new();
    let link = LINK.get_or_init(|| Regex::new(r"\]\(([^()\s]+)\)").unwrap());
    let code = CODE.get_or_init(|| Regex::new(r"`[^`]*`").unwrap());
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(open) = &fence {
            if trimmed.trim_end() == open {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") {
            fence = Some(trimmed.chars().take_while(|c| *c == '`').collect());
            continue;
        }
        let prose = code.replace_all(line, "");
        for c in link.captures_iter(&prose) {
            out.push((i + 1, c[1].to_owned()));
        }
    }
    out
}

/// A heading's anchor as mdBook makes it (`mdbook-html`'s `id_from_content`): its text,
/// lower case, letters, digits, `_` and `-` kept, spaces as `-`; repeats get `-1`, `-2`….
fn anchors(text: &str) -> HashSet<String> {
    static MARKUP: OnceLock<Regex> = OnceLock::new();
    let markup = MARKUP.get_or_init(|| Regex::new(r"\[([^\]]*)\]\([^)]*\)|[`*]").unwrap());
    let mut used = HashSet::new();
    let mut fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
            continue;
        }
        let Some(heading) = line
            .strip_prefix('#')
            .map(|rest| rest.trim_start_matches('#'))
            .filter(|rest| rest.starts_with(' '))
        else {
            continue;
        };
        if fence {
            continue;
        }
        let content = markup.replace_all(heading.trim(), "$1");
        let id: String = content
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' {
                    Some(c)
                } else if c.is_whitespace() {
                    Some('-')
                } else {
                    None
                }
            })
            .collect();
        let mut unique = id.clone();
        let mut n = 0;
        while !used.insert(unique.clone()) {
            n += 1;
            unique = format!("{id}-{n}");
        }
    }
    used
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut problems = Vec::new();
    let mut checked = 0;
    let book = repo_root().join("docs/src");
    for page in pages() {
        let here = repo_root().join(&page.path);
        let dir = here.parent().unwrap().to_path_buf();
        for (line, target) in links(&page.text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let at = format!("{}:{line}: `{target}`", page.path.display());
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                here.clone()
            } else {
                normalize(&dir.join(file))
            };
            if !path.exists() {
                problems.push(format!("{at}: no such file"));
                continue;
            }
            // A page of the book links inside the book: the rest is not in the site.
            if page.path.starts_with("docs/src") && !path.starts_with(&book) {
                problems.push(format!(
                    "{at}: outside docs/src, so not in the built book (name it in `code`)"
                ));
                continue;
            }
            if let Some(anchor) = anchor {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                if !anchors(&text).contains(anchor) {
                    problems.push(format!("{at}: no heading has the anchor #{anchor}"));
                }
            }
        }
    }
    assert!(checked > 20, "the links were found ({checked})");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `a/b/../c` as `a/c`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn the_readme_is_a_front_door() {
    let readme = Page::read("README.md");
    let lines = readme.text.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines; the guide is docs/"
    );
}

// ---------------------------------------------------------------------------------------
// The machinery's own checks
// ---------------------------------------------------------------------------------------

#[test]
fn outputs_compare_by_words_numbers_within_a_rounding_step_and_ids_by_shape() {
    let shown = |s: &str| s.lines().map(str::to_owned).collect::<Vec<_>>();
    assert!(same_output(&shown("a 0.514 b"), "a 0.5144 b").is_ok());
    assert!(same_output(&shown("a 0.514 b"), "a 0.517 b").is_err());
    assert!(same_output(&shown("35 decisions"), "36 decisions").is_err());
    assert!(
        same_output(
            &shown("job c1a228ca-aa4 at 28497ef38b96, 2026-11-25 09:42:23"),
            "job 0b6f3c1e-5d7 at 14f78d9eaacb, 2026-12-01 10:00:00"
        )
        .is_ok()
    );
    assert!(same_output(&shown("took 6.4s"), "took 12.1s").is_ok());
    assert!(same_output(&shown("alignments/b44e7703-…"), "alignments/96028911-…").is_ok());
    assert!(
        same_output(
            &shown(
                "arb_f155bfead247_213dbae5264f4f178ecdfb64a668d3f666bc5915f01e43d3b26089da3a7ef44e"
            ),
            "arb_0b6f3c1e5d7a_f6e8ea4c6a1a4a5f8e1b9b3a2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d"
        )
        .is_ok()
    );
    assert!(same_output(&shown("alignments/b44e77…"), "alignments/960289…").is_ok());
    assert!(same_output(&shown("one\n…\nfour"), "one\ntwo\nthree\nfour").is_ok());
    assert!(same_output(&shown("one\n…\nfour"), "one\ntwo").is_err());
    assert!(same_output(&shown("one  \n"), "one\n\n").is_ok());
    // A fraction's digits are a number, not an ID.
    assert!(same_output(&shown("0.580517384708514"), "0.680517384708514").is_err());
    // Shown whole, within what another CPU computes; not beyond.
    assert!(same_output(&shown("0.12264256783896826"), "0.12263759094982743").is_ok());
    assert!(same_output(&shown("0.29292541190883126"), "0.2929086783514505").is_ok());
    assert!(same_output(&shown("0.12264256783896826"), "0.12244256783896826").is_err());
}

#[test]
fn commands_are_read_with_their_continuations_and_outputs() {
    let page =
        "x\n```console\n$ a \\\n  b\nout 1\n$ c\n```\n```sh\n# note\nd --x \\\n  e\n\nf\n```\n";
    let steps = commands(&blocks(page).unwrap());
    let seen: Vec<(usize, &str, Option<Vec<String>>)> = steps
        .iter()
        .map(|(s, _)| (s.line, s.command.as_str(), s.shown.clone().map(|(l, _)| l)))
        .collect();
    assert_eq!(
        seen,
        [
            (3, "a \\\n  b", Some(vec!["out 1".to_owned()])),
            (6, "c", Some(vec![])),
            (10, "d --x \\\n  e", None),
            (13, "f", None),
        ]
    );
    assert_eq!(
        named_paths("arbiter batch m --input examples/a.jsonl > out.jsonl; cat out.jsonl"),
        [
            ("examples/a.jsonl".to_owned(), false),
            ("out.jsonl".to_owned(), true),
            ("out.jsonl".to_owned(), false)
        ]
    );
    let ids = anchors("# A B\n## `systemone`\n## A B\n```sh\n# not a heading\n```\n");
    assert_eq!(
        ids,
        ["a-b", "systemone", "a-b-1"]
            .into_iter()
            .map(str::to_owned)
            .collect()
    );
}

/// The README's tour names one alignment and one aligned commit from step to step (the
/// tests mask IDs, so only this keeps a reader following along from seeing `align` echo
/// one job and `eval` another): the job `align` prints is the branch `eval` compares and the
/// job `promote`'s checkpoint names; the commit `eval` says the branch is, is the one
/// `promote` moves `main` to and the one `decide` then answers with.
#[test]
fn the_readme_tour_names_one_alignment_and_one_commit() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let uuid = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    let all = |pattern: &str| -> BTreeSet<String> {
        Regex::new(pattern)
            .unwrap()
            .captures_iter(&readme)
            .map(|c| c[1].to_owned())
            .collect()
    };
    let jobs = all(&format!(r"alignments/({uuid})"));
    let promoted_jobs = all(&format!(r"\(job ({uuid})\)"));
    assert_eq!(jobs.len(), 1, "the tour names several alignments: {jobs:?}");
    assert_eq!(promoted_jobs, jobs);
    let job = jobs.first().unwrap();
    for cut in all(r"alignments/([0-9a-f]{8})-…") {
        assert!(
            job.starts_with(&cut),
            "a table names alignments/{cut}-…, not {job}"
        );
    }
    let aligned = all(r"is branch ([0-9a-f]{12}); baseline");
    let promoted = all(r"\n ([0-9a-f]{12})   \S+ \S+   Align escalate");
    let answered_after = all(r"@ main \(([0-9a-f]{12})\) · 467 input tokens");
    assert_eq!(aligned.len(), 1, "{aligned:?}");
    assert_eq!(
        promoted, aligned,
        "promote moves main to another commit than eval compared"
    );
    assert_eq!(
        answered_after, aligned,
        "decide after promote answers at another commit"
    );
    let created = all(r"created acme/support \([^)]*\) at ([0-9a-f]{12})");
    let baseline = all(r"baseline main is branch ([0-9a-f]{12})");
    assert_eq!(
        baseline, created,
        "eval's baseline main is not the commit the tour made"
    );
}
