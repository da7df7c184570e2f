//! `arbiter annotate` in a real terminal (tmux at 80×24: `send-keys` to type,
//! `capture-pane` to read the screen) and in line mode (stdout not a terminal): the
//! answers in the store afterwards are exactly the keys pressed (accept, pick, undo, skip,
//! quit), a `kill -9` midway loses nothing already answered, and two annotators against
//! one `arbiter serve` are never shown the same example at once. The state reads as text
//! (its line breaks kept), on the screen and in line mode alike, `S` skips a whole example, and `--ids`/`--exclude` choose which
//! examples are shown.

use crate::common::{QUESTIONS, TestEnv, wait_until};
use crate::to_annotate::states;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// How long a screen may take to show what is waited for (the first example is decided by
/// the built-in engine in a debug build).
const PATIENCE: Duration = Duration::from_mins(1);

/// A model on `mo` with the common questions (intent, urgency, escalate) and `n` states.
fn env(n: usize) -> TestEnv {
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    env.ingest("acme/support", &states("e-", 0, n));
    env
}

/// A tmux server of its own (a unique socket, so tests run in parallel), killed when
/// dropped, running one command in a session of 80×24.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// `arbiter args…` in the test's environment, in a new tmux session; after it ends the
    /// pane says `exited CODE` and stays.
    fn start(env: &TestEnv, args: &[&str]) -> Self {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let socket = format!(
            "arbiter-annotate-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        let bin = assert_cmd::cargo::cargo_bin("arbiter");
        let dir = env.path();
        let command = format!(
            "env -i PATH={path} HOME={home} ARBITER_HOME={arbiter_home} USER=ann TERM=xterm-256color \
             NO_COLOR=1 RUST_BACKTRACE=0 {bin} {args}; code=$?; stty sane; printf '\\033[?1049l'; \
             echo \"exited $code\"; sleep 600",
            path = shell_quote(&std::env::var("PATH").unwrap_or_default()),
            home = shell_quote(&dir.display().to_string()),
            arbiter_home = shell_quote(&env.home().display().to_string()),
            bin = shell_quote(&bin.display().to_string()),
            args = args
                .iter()
                .map(|a| shell_quote(a))
                .collect::<Vec<_>>()
                .join(" "),
        );
        let tmux = Self { socket };
        tmux.run(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "24",
            "-c",
            &dir.display().to_string(),
            &command,
        ]);
        tmux
    }

    fn run(&self, args: &[&str]) -> String {
        let output = std::process::Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux (apt-get install tmux)");
        assert!(
            output.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Type keys, tmux's names (`Enter`, `C-c`) or text.
    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "0"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "0"])
    }

    /// The screen once `seen` says yes to it and it has settled: the same on two
    /// captures in a row. A capture can land while a frame is half drawn (the
    /// header is there, the key line below the box not yet), and a test that
    /// then reads the rest of the frame would fail on a race, not on the tool.
    fn wait(&self, what: &str, seen: impl Fn(&str) -> bool) -> String {
        let mut last = String::new();
        wait_until(PATIENCE, Duration::from_millis(25), || {
            let screen = self.screen();
            if seen(&screen) && last == screen {
                return Ok(screen);
            }
            let shown = format!("{what}:\n{screen}");
            last = screen;
            Err(shown)
        })
    }

    fn wait_for(&self, text: &str) -> String {
        self.wait(&format!("`{text}` on screen"), |screen| {
            screen.contains(text)
        })
    }

    /// The process the pane runs (`sh -c …`) and its child, `arbiter`.
    fn arbiter_pid(&self) -> i32 {
        let shell = self.run(&["display-message", "-p", "-t", "0", "#{pane_pid}"]);
        let shell = shell.trim();
        let children = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children"))
            .expect("the pane's children");
        children
            .split_whitespace()
            .next()
            .expect("arbiter runs")
            .parse()
            .unwrap()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = std::process::Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// What the header shows: the example and `question i/n`.
fn header(screen: &str) -> (String, String) {
    let line = screen
        .lines()
        .find(|l| l.starts_with("annotate acme/support · "))
        .unwrap_or_else(|| panic!("no header:\n{screen}"));
    let parts: Vec<&str> = line.split(" · ").collect();
    (parts[1].to_owned(), parts[3].trim().to_owned())
}

/// The label of the outcome marked as the guess (`▸ 1 refund 0.535 ███`).
fn guess(screen: &str) -> String {
    let line = screen
        .lines()
        .find_map(|l| l.split_once("│▸ ").map(|(_, rest)| rest.to_owned()))
        .unwrap_or_else(|| panic!("no guess:\n{screen}"));
    line.split_whitespace().nth(1).unwrap().to_owned()
}

/// Each question's answers by annotator, of one example.
fn answers(env: &TestEnv, id: &str) -> Value {
    let shown = env.json(&["examples", "show", "acme/support", id]);
    let annotations = shown["annotations"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    annotations
        .into_iter()
        .map(|(question, a)| {
            let votes: Vec<Value> = a["votes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| json!([v["annotator"], v["answer"], v["reasoning"]]))
                .collect();
            (question, Value::from(votes))
        })
        .collect()
}

/// The examples with any annotation.
fn annotated(env: &TestEnv) -> Vec<String> {
    let page = env.json(&["examples", "list", "acme/support", "--annotated"]);
    page["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["exampleId"].as_str().unwrap().to_owned())
        .collect()
}

/// Whether tmux runs here, for the tests on a real terminal: without it they say how to
/// install it and pass, unless `ARBITER_REQUIRE_TMUX` is set (`.ci/run` installs tmux and
/// sets it), as the PostgreSQL tests do.
#[allow(clippy::print_stderr)] // the test's own output: why it was skipped
fn tmux_runs() -> bool {
    let outcome = std::process::Command::new("tmux").arg("-V").output();
    if outcome.as_ref().is_ok_and(|o| o.status.success()) {
        return true;
    }
    assert!(
        std::env::var_os("ARBITER_REQUIRE_TMUX").is_none(),
        "ARBITER_REQUIRE_TMUX is set but tmux does not run ({outcome:?}): apt-get install tmux"
    );
    eprintln!("skipped: tmux does not run here ({outcome:?}): apt-get install tmux");
    false
}

#[test]
fn accept_pick_undo_skip_and_quit_write_exactly_the_keys_pressed() {
    if !tmux_runs() {
        return;
    }
    let env = env(3);
    let tmux = Tmux::start(&env, &["annotate", "acme/support", "--audit", "0"]);
    let screen = tmux.wait_for("question 1/3");
    let (first, _) = header(&screen);
    assert!(screen.contains(" intent · choice "), "{screen}");
    assert!(screen.contains("done 0 · left 3"), "{screen}");
    assert!(
        screen.contains("last align --curve: none recorded yet"),
        "{screen}"
    );
    assert!(
        screen.contains("subject: "),
        "the state is shown as text:\n{screen}"
    );
    let intent = guess(&screen);
    // NO_COLOR: bold stays, no colour is drawn.
    let drawn = tmux.run(&["capture-pane", "-p", "-e", "-t", "0"]);
    assert!(drawn.contains("\u{1b}[1m"), "{drawn:?}");
    let colour = regex::Regex::new(r"\x1b\[(3[0-7]|38;|4[0-7]|48;|9[0-7])").unwrap();
    assert!(!colour.is_match(&drawn), "{drawn:?}");

    // Accept intent's guess; pick level 3 of urgency, undo it, pick 1 with a reason.
    tmux.keys(&["Enter"]);
    tmux.wait_for("question 2/3");
    tmux.keys(&["3"]);
    tmux.wait_for("question 3/3");
    tmux.keys(&["u"]);
    let screen = tmux.wait_for("undid urgency");
    assert_eq!(header(&screen), (first.clone(), "question 2/3".to_owned()));
    tmux.keys(&["r"]);
    tmux.keys(&["-l", "two users"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("reason: two users");
    tmux.keys(&["1"]);
    tmux.wait_for("question 3/3");
    // A key that fits no answer is refused on the spot.
    tmux.keys(&["7"]);
    tmux.wait_for("a yes-or-no question: y or n");
    // Skip escalate: the next example.
    tmux.keys(&["s"]);
    let screen = tmux.wait("the next example", |s| {
        s.contains("question 1/3") && !s.contains(&format!("· {first} ·"))
    });
    // The first example still waits for escalate: three left.
    assert!(screen.contains("done 2 · left 3"), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait_for("exited 0");

    assert_eq!(annotated(&env), std::slice::from_ref(&first));
    assert_eq!(
        answers(&env, &first),
        json!({
            "intent": [["ann", intent, null]],
            "urgency": [["ann", 1, "two users"]],
        })
    );
}

#[test]
fn kill_9_midway_loses_nothing_answered_and_ctrl_c_quits() {
    if !tmux_runs() {
        return;
    }
    let env = env(1);
    let tmux = Tmux::start(&env, &["annotate", "acme/support", "--audit", "0"]);
    let screen = tmux.wait_for("question 1/3");
    let (first, _) = header(&screen);
    tmux.keys(&["y"]);
    tmux.wait_for("y and n answer a yes-or-no question");
    tmux.keys(&["2"]);
    tmux.wait_for("question 2/3");
    tmux.keys(&["0"]);
    tmux.wait_for("question 3/3");
    let pid = tmux.arbiter_pid();
    // SAFETY: a signal to the process this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
    tmux.wait_for("exited 137");
    let answered = answers(&env, &first);
    assert_eq!(answered["urgency"], json!([["ann", 0, null]]), "{answered}");
    assert_eq!(answered["intent"][0][0], "ann", "{answered}");
    assert_eq!(answered.as_object().unwrap().len(), 2, "{answered}");

    // Back again: the same example (its claim is the annotator's own), its one question
    // left; Ctrl-C leaves.
    let again = Tmux::start(&env, &["annotate", "acme/support", "--audit", "0"]);
    let screen = again.wait_for("question 1/1");
    assert_eq!(header(&screen).0, first);
    assert!(screen.contains(" escalate · noul "), "{screen}");
    again.keys(&["C-c"]);
    again.wait_for("exited 0");
    assert_eq!(answers(&env, &first).as_object().unwrap().len(), 2);
}

/// `arbiter args…` in line mode, its stdin and stdout piped.
struct Lines {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    /// Stderr when piped and taken ([`line_mode`]).
    stderr: Option<std::process::ChildStderr>,
    seen: Vec<String>,
}

impl Lines {
    fn start(cmd: &mut std::process::Command) -> Self {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self {
            child,
            stdin,
            stdout,
            stderr: None,
            seen: Vec::new(),
        }
    }

    /// Lines up to the first that starts with `prefix`, which is returned.
    fn until(&mut self, prefix: &str) -> String {
        loop {
            let mut line = String::new();
            let read = self.stdout.read_line(&mut line).unwrap();
            assert!(read > 0, "ended before `{prefix}`: {:?}", self.seen);
            let line = line.trim_end().to_owned();
            self.seen.push(line.clone());
            if line.starts_with(prefix) {
                return line;
            }
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin.as_mut().unwrap(), "{line}").unwrap();
    }

    /// The example a header line names (`example e-01 (uncertain) · …`).
    fn example(header: &str) -> String {
        header.split_whitespace().nth(1).unwrap().to_owned()
    }

    /// As [`Lines::finish`], with what was said on stderr.
    fn finish_with_stderr(mut self) -> (bool, Vec<String>, String) {
        let mut stderr = String::new();
        if let Some(mut pipe) = self.stderr.take() {
            drop(self.stdin.take());
            std::io::Read::read_to_string(&mut pipe, &mut stderr).unwrap();
        }
        let (ok, seen) = self.finish();
        (ok, seen, stderr)
    }

    fn finish(mut self) -> (bool, Vec<String>) {
        drop(self.stdin.take());
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        self.seen.extend(rest.lines().map(str::to_owned));
        (self.child.wait().unwrap().success(), self.seen)
    }
}

#[test]
fn line_mode_reads_one_key_a_line_and_refuses_a_bad_one_on_the_spot() {
    let env = env(2);
    let mut cmd = env.std_cmd();
    cmd.env("USER", "ann").args([
        "examples",
        "annotate",
        "acme/support",
        "--interactive",
        "--question",
        "urgency",
    ]);
    let mut lines = Lines::start(cmd.stderr(Stdio::inherit()));
    let first = Lines::example(&lines.until("example "));
    assert_eq!(lines.until("state:"), "state:");
    let row = lines.until("");
    assert!(row.starts_with("  subject: "), "the state as text: {row}");
    let question = lines.until("urgency (score): ");
    assert!(
        question.contains("0 A question with no time pressure."),
        "{question}"
    );
    lines.send("9");
    assert_eq!(lines.until("error: "), "error: no level 9: pick 0 to 4");
    lines.send("r blocks a team");
    lines.send("3");
    let said = lines.until("annotated ");
    assert_eq!(said, format!("annotated {first}: urgency = 3 by ann"));
    let second = Lines::example(&lines.until("example "));
    assert_ne!(first, second);
    lines.send("q");
    let (ok, seen) = lines.finish();
    assert!(ok, "{seen:?}");
    assert_eq!(
        seen.last().unwrap(),
        "answered 1, skipped 0; 1 examples left to annotate"
    );
    assert_eq!(
        answers(&env, &first),
        json!({"urgency": [["ann", 3, "blocks a team"]]})
    );
    assert_eq!(annotated(&env), [first]);
}

#[test]
fn two_annotators_against_one_server_never_get_the_same_example() {
    let env = env(4);
    let token = |name: &str| {
        let created = env.json(&[
            "tokens",
            "create",
            "--name",
            name,
            "--scope",
            "examples:read",
            "--scope",
            "examples:write",
            "--scope",
            "decisions",
            "--role",
            "acme/*=writer",
            "--json",
        ]);
        created["token"].as_str().unwrap().to_owned()
    };
    let (alice, bob) = (token("alice"), token("bob"));
    let server = env.spawn_serve();
    let client = |token: &str| {
        let mut cmd = env.std_cmd();
        cmd.env_remove("ARBITER_HOME")
            .env("ARBITER_SERVER", &server.address)
            .env("ARBITER_TOKEN", token)
            .args(["annotate", "acme/support", "--audit", "0"]);
        Lines::start(cmd.stderr(Stdio::inherit()))
    };
    // Alice holds her first example while Bob walks through every one left to him.
    let mut a = client(&alice);
    let held = Lines::example(&a.until("example "));
    let walk = |mut b: Lines| {
        let mut shown = Vec::new();
        loop {
            let line = b.until("");
            if line.starts_with("example ") {
                shown.push(Lines::example(&line));
                for _ in 0..3 {
                    b.send("s");
                }
            } else if line.starts_with("nothing left") {
                break;
            }
        }
        let (ok, seen) = b.finish();
        assert!(ok, "{seen:?}");
        shown
    };
    let bobs = walk(client(&bob));
    assert!(
        !bobs.contains(&held),
        "bob was shown {held}, alice's: {bobs:?}"
    );
    assert_eq!(bobs.len(), 3, "{bobs:?}");
    // Alice answers one question of hers, by her token's name, undoes it (her own answer
    // deleted on the server), answers it again and leaves: released, her example is Bob's
    // to be shown too.
    a.send("a");
    let first = a.until("annotated ");
    assert!(first.ends_with("by alice"), "{first}");
    a.send("u");
    assert!(a.until("undid ").ends_with(&format!(" of {held}")));
    assert_eq!(answers(&env, &held), json!({}), "undone on the server");
    a.send("a");
    a.send("q");
    let (ok, seen) = a.finish();
    assert!(ok, "{seen:?}");
    let answered = answers(&env, &held);
    assert_eq!(answered.as_object().unwrap().len(), 1, "{answered}");
    let mut bobs = walk(client(&bob));
    bobs.sort();
    assert_eq!(bobs, ["e-00", "e-01", "e-02", "e-03"]);
}

#[test]
fn a_multi_line_state_shows_on_several_rows_with_no_escapes_and_shift_s_skips_the_example() {
    if !tmux_runs() {
        return;
    }
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    let content = "The export fails every night:\n```\nError: disk full\n    at write (fs.js:12)\n```\n\u{1b}]0;HIJACK\u{7}Please help.";
    let lines = [
        json!({"example_id": "trace", "state": {"messages": [
            {"role": "user", "content": content},
            {"role": "assistant", "content": "Which disk?"},
        ]}}),
        json!({"example_id": "other", "state": {"subject": "Refund", "body": "Please refund me."}}),
    ];
    let lines: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    env.ingest("acme/support", &lines);
    let tmux = Tmux::start(
        &env,
        &["annotate", "acme/support", "--audit", "0", "--ids", "trace"],
    );
    let screen = tmux.wait_for("question 1/3");
    assert_eq!(header(&screen).0, "trace");
    let rows: Vec<&str> = screen.lines().collect();
    let row = |text: &str| {
        rows.iter()
            .position(|r| r.contains(text))
            .unwrap_or_else(|| panic!("no row with `{text}`:\n{screen}"))
    };
    // Each line of the message on a row of its own, in order, under its role.
    let order = [
        row("user:"),
        row("The export fails every night:"),
        row("Error: disk full"),
        row("at write (fs.js:12)"),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}\n{screen}");
    assert!(
        rows[row("at write (fs.js:12)")].contains("│        at write"),
        "{screen}"
    );
    assert!(!screen.contains("\\n"), "no escaped line break:\n{screen}");
    assert!(!screen.contains("\\\""), "no escaped quote:\n{screen}");
    // The terminal escape is shown, not obeyed.
    assert!(
        screen.contains(r"\u{1b}]0;HIJACK\u{7}Please help."),
        "{screen}"
    );
    assert!(screen.contains("S skip example"), "{screen}");
    // Below the box, what is not shown yet is counted; scrolling down shows the rest.
    let screen = if screen.contains("more lines") {
        tmux.keys(&["PageDown"]);
        tmux.wait_for("Which disk?")
    } else {
        screen
    };
    assert!(screen.contains("assistant:"), "{screen}");

    // S: the whole example skipped in one key; only `trace` was chosen, so nothing is left.
    tmux.keys(&["S"]);
    tmux.wait_for("Nothing left to annotate for you.");
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("exited 0");
    assert!(
        // (The shell's `exited 0` may overwrite the line's start.)
        screen.contains("skipped 3; 1 examples left to annotate"),
        "{screen}"
    );
    assert!(annotated(&env).is_empty());
}

#[test]
fn line_mode_prints_a_state_as_text_lines_not_json() {
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    let examples = [
        json!({"example_id": "trace", "state":
            "Error: disk full\n    at write (fs.js:12)\r\n\tcaused by: quota\n\u{1b}[2Jdone"}),
        json!({"example_id": "chat", "state": {"messages": [
            {"role": "user", "content": "Where is my parcel?\nIt was due on Monday."},
            {"role": "assistant", "content": "Which order?"},
        ]}}),
    ];
    let examples: String = examples.iter().map(|l| l.to_string() + "\n").collect();
    env.ingest("acme/support", &examples);

    let mut lines = line_mode(&env, &["--ids", "trace,chat", "--question", "intent"]);
    let mut states = std::collections::BTreeMap::<String, Vec<String>>::new();
    let mut example = String::new();
    let mut in_state = false;
    loop {
        let line = lines.until("");
        if line.starts_with("example ") {
            example = Lines::example(&line);
        } else if line.starts_with("state:") {
            assert_eq!(line, "state:", "the state under its own line");
            in_state = true;
        } else if in_state && line.starts_with("  ") {
            states.entry(example.clone()).or_default().push(line);
        } else if line.starts_with("intent (choice): ") {
            // The question: the state has ended; pass the example by.
            in_state = false;
            lines.send("S");
        } else if line.starts_with("nothing left") {
            break;
        }
    }
    let (ok, seen, stderr) = lines.finish_with_stderr();
    assert!(ok, "{seen:?}\n{stderr}");
    assert_eq!(
        states["trace"],
        [
            "  Error: disk full",
            "      at write (fs.js:12)",
            "      caused by: quota",
            r"  \u{1b}[2Jdone",
        ],
        "a string's lines, each a line; a tab as spaces, an escape shown: {seen:?}"
    );
    assert_eq!(
        states["chat"],
        [
            "  messages:",
            "    user:",
            "      Where is my parcel?",
            "      It was due on Monday.",
            "    assistant:",
            "      Which order?",
        ],
        "messages as role blocks: {seen:?}"
    );
    assert!(
        !seen
            .iter()
            .any(|line| line.contains(r"\n") || line.contains("{\"")),
        "no JSON: {seen:?}"
    );
}

/// `arbiter annotate acme/support --audit 0 args…` in line mode, its stderr kept.
fn line_mode(env: &TestEnv, args: &[&str]) -> Lines {
    let mut cmd = env.std_cmd();
    cmd.env("USER", "ann")
        .args(["annotate", "acme/support", "--audit", "0"])
        .args(args);
    let mut lines = Lines::start(cmd.stderr(Stdio::piped()));
    lines.stderr = lines.child.stderr.take();
    lines
}

#[test]
fn ids_show_only_those_exclude_never_those_and_an_unknown_id_is_refused() {
    let env = env(4);
    // --ids: only e-01 and e-03; S passes each by, then nothing is left.
    let mut lines = line_mode(&env, &["--ids", "e-03", "--ids", "e-01"]);
    let mut shown = Vec::new();
    loop {
        let line = lines.until("");
        if line.starts_with("example ") {
            assert!(line.contains("left 2"), "{line}");
            shown.push(Lines::example(&line));
            lines.send("S");
        } else if line.starts_with("nothing left") {
            break;
        }
    }
    shown.sort();
    assert_eq!(shown, ["e-01", "e-03"]);
    let (ok, seen, stderr) = lines.finish_with_stderr();
    assert!(ok, "{seen:?}");
    assert_eq!(
        seen.last().unwrap(),
        "answered 0, skipped 6; 2 examples left to annotate"
    );
    // Not a terminal: no progress line.
    assert!(!stderr.contains("ranking"), "{stderr}");

    // --exclude: a held-out file; its unknown IDs are ignored, blank lines skipped.
    let held_out = env.write("held-out.txt", "e-00\n\n  e-02  \ngone\n");
    let mut lines = line_mode(
        &env,
        &[
            "--exclude",
            held_out.to_str().unwrap(),
            "--question",
            "intent",
        ],
    );
    let mut shown = Vec::new();
    loop {
        let line = lines.until("");
        if line.starts_with("example ") {
            let left = if shown.is_empty() { "left 2" } else { "left 1" };
            assert!(line.contains(left), "{line}");
            shown.push(Lines::example(&line));
            lines.send("a");
        } else if line.starts_with("nothing left") {
            break;
        }
    }
    shown.sort();
    assert_eq!(shown, ["e-01", "e-03"]);
    let (ok, seen, _) = lines.finish_with_stderr();
    assert!(ok, "{seen:?}");
    let mut done = annotated(&env);
    done.sort();
    assert_eq!(done, ["e-01", "e-03"], "the held-out set is untouched");

    // An ID that names no example: said with where it is, before anything is shown.
    let output = env
        .cmd()
        .env("USER", "ann")
        .args(["annotate", "acme/support", "--ids", "e-01,nope,e-02,nah"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(output.stdout.is_empty(), "{stderr}");
    for said in [
        "ids[1]: `nope` names no example of acme/support",
        "ids[3]: `nah` names no example of acme/support",
    ] {
        assert!(stderr.contains(said), "{stderr}");
    }
    // Chosen examples are for the interactive flow only.
    let output = env
        .cmd()
        .args([
            "examples",
            "annotate",
            "acme/support",
            "e-01",
            "--question",
            "intent",
        ])
        .args(["--answer", "refund", "--ids", "e-01"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}
