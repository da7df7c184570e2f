//! One usage-error contract: every command line clap refuses exits 2, and with `--json` it is
//! a problem document on stderr (`code: usage_error`, the argument at `loc`).

use crate::common::TestEnv;
use serde_json::{Value, json};

/// Run `arbiter args…` (no `--json` added) and return the exit code and stderr.
fn run(env: &TestEnv, args: &[&str]) -> (i32, String) {
    let output = env.cmd().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code().expect("exit code"), stderr)
}

/// The one problem document a failed `arbiter args…` printed on stderr (`--json` is in args).
fn problem(env: &TestEnv, args: &[&str]) -> (i32, Value) {
    let (code, stderr) = run(env, args);
    let problem = serde_json::from_str(stderr.trim())
        .unwrap_or_else(|e| panic!("{args:?}: stderr is not one problem document ({e}): {stderr}"));
    (code, problem)
}

#[test]
fn with_json_a_usage_error_is_a_located_problem_document() {
    let env = TestEnv::new();
    // Malformed and out of range alike, and `--json` anywhere on the line.
    for (args, loc) in [
        (
            &["--json", "eval", "acme/m", "--min-accuracy", "abc"][..],
            "--min-accuracy",
        ),
        (
            &["eval", "acme/m", "--min-accuracy", "1.5", "--json"],
            "--min-accuracy",
        ),
        (
            &["models", "--json", "create", "acme/m", "--sample-rate", "2"],
            "--sample-rate",
        ),
        (&["--json", "decide", "--bogus"], "--bogus"),
        (&["--json", "decide", "--state", "s.json"], "--model"),
        (&["--json", "eval"], "model"),
        (&["--json", "decidee"], "command"),
        (&["--json", "examples"], "command"),
    ] {
        let (code, problem) = problem(&env, args);
        assert_eq!(code, 2, "{args:?}: {problem}");
        assert_eq!(problem["code"], "usage_error", "{args:?}");
        assert_eq!(problem["type"], "/problems/usage-error", "{args:?}");
        assert_eq!(
            problem["details"][0]["loc"],
            json!([loc]),
            "{args:?}: {problem}"
        );
        let detail = problem["detail"].as_str().unwrap();
        assert!(!detail.is_empty() && !detail.contains("Usage:"), "{detail}");
    }
    let (_, problem) = problem(&env, &["--json", "eval", "acme/m", "--min-accuracy", "1.5"]);
    assert_eq!(
        problem["detail"],
        "invalid value '1.5' for '--min-accuracy <FRACTION>': `1.5` is not from 0 to 1"
    );
}

#[test]
fn without_json_a_usage_error_is_clap_text() {
    let env = TestEnv::new();
    let (code, stderr) = run(&env, &["eval", "acme/m", "--max-ece=-1"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: invalid value '-1' for '--max-ece <FRACTION>'"),
        "{stderr}"
    );
    assert!(
        stderr.contains("For more information, try '--help'."),
        "{stderr}"
    );
}

#[test]
fn help_and_version_exit_0_even_with_json() {
    let env = TestEnv::new();
    for args in [
        &["--json", "eval", "--help"][..],
        &["--version", "--json"],
        &["help", "eval"],
    ] {
        let output = env.cmd().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert!(
            !output.stdout.is_empty() && output.stderr.is_empty(),
            "{args:?}"
        );
    }
}

/// Every flag with a range refuses a value outside it, and a malformed one, with exit 2,
/// before anything runs (nothing is created, no job is left).
#[test]
fn every_invalid_flag_value_exits_2() {
    let env = TestEnv::new();
    let cases: &[(&[&str], &str, &[&str])] = &[
        (
            &["eval", "a/b"],
            "--min-accuracy",
            &["1.01", "-0.5", "NaN", "x"],
        ),
        (&["eval", "a/b"], "--max-ece", &["2", "inf", ""]),
        (
            &["models", "create", "a/b"],
            "--sample-rate",
            &["1.5", "-1", "half"],
        ),
        (&["models", "log", "a/b"], "--limit", &["0", "-3", "many"]),
        (&["align", "a/b"], "--holdout", &["-0.05", "0.6", "x"]),
        (&["align", "a/b"], "--folds", &["1", "21", "x"]),
        (&["align", "a/b"], "--margin", &["1", "-0.1", "x"]),
        (&["align", "a/b"], "--max-examples", &["9", "0", "x"]),
        (&["align", "a/b"], "--seed", &["-1", "9007199254740992"]),
        (&["examples", "next", "a/b"], "--audit", &["1.5", "x"]),
        (&["examples", "next", "a/b"], "--count", &["0", "1001"]),
        (&["examples", "next", "a/b"], "--pool", &["0", "5001"]),
        (&["examples", "list", "a/b"], "--limit", &["0", "1001"]),
        (&["jobs", "list"], "--limit", &["0", "x"]),
        (
            &["jobs", "poll", "j", "--wait"],
            "--max-failed-items",
            &["-2%", "x%"],
        ),
        (
            &["batch", "a/b"],
            "--max-failed-items",
            &["101%", "-1", "x"],
        ),
        (&["eval", "a/b"], "--format", &["xml"]),
        (&["serve"], "--listen", &["localhost"]),
    ];
    for (command, flag, values) in cases {
        for value in *values {
            // `--flag=value`, so that a value starting with `-` is read as the value.
            let given = format!("{flag}={value}");
            let mut args = command.to_vec();
            args.extend(["--json", &given]);
            let (code, problem) = problem(&env, &args);
            assert_eq!(code, 2, "{args:?}: {problem}");
            assert_eq!(problem["code"], "usage_error", "{args:?}");
            assert_eq!(
                problem["details"][0]["loc"],
                json!([flag]),
                "{args:?}: {problem}"
            );
        }
    }
    // Nothing ran: no model was created.
    assert!(!env.home().join("repos").exists());
}

/// `ARBITER_HOME` supplies the home: the usage line does not list `--home` as required.
#[test]
fn the_usage_line_does_not_show_what_the_environment_supplies() {
    let env = TestEnv::new();
    let (code, stderr) = run(&env, &["eval"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("Usage: arbiter eval <MODEL>"), "{stderr}");
    assert!(!stderr.contains("--home"), "{stderr}");
    let output = env
        .cmd()
        .env("ARBITER_SERVER", "http://127.0.0.1:1")
        .args(["decide", "--state", "s.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("--server"), "{stderr}");
    assert!(stderr.contains("Usage: arbiter decide "), "{stderr}");
}

/// A command line that clap accepts but cannot run as given (a local-only command against a
/// server) follows the same contract.
#[test]
fn a_local_only_command_against_a_server_is_a_usage_problem() {
    let env = TestEnv::new();
    let (code, problem) = problem(
        &env,
        &["--server", "http://127.0.0.1:1", "--json", "tokens", "list"],
    );
    assert_eq!(code, 2);
    assert_eq!(problem["code"], "usage_error");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("runs only on a local home"),
        "{problem}"
    );
}
