//! The committed `completions/` and `man/` must match what the binary generates.

use crate::common::{TestEnv, repo_root};

fn assert_same_tree(generated: &std::path::Path, committed: &std::path::Path, command: &str) {
    let mut names: Vec<_> = std::fs::read_dir(generated)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    let mut committed_names: Vec<_> = std::fs::read_dir(committed)
        .unwrap_or_else(|_| panic!("{} is missing; run `{command}`", committed.display()))
        .map(|e| e.unwrap().file_name())
        .collect();
    committed_names.sort();
    assert_eq!(names, committed_names, "file list differs; run `{command}`");
    for name in names {
        let fresh = std::fs::read(generated.join(&name)).unwrap();
        let old = std::fs::read(committed.join(&name)).unwrap();
        assert!(
            fresh == old,
            "{} is stale; run `{command}`",
            committed.join(&name).display()
        );
    }
}

#[test]
fn completions_are_current() {
    let env = TestEnv::new();
    let out = env.path().join("completions");
    env.cmd()
        .args(["completions", "--dir"])
        .arg(&out)
        .assert()
        .success();
    assert_same_tree(
        &out,
        &repo_root().join("completions"),
        "cargo run -- completions --dir completions",
    );
}

#[test]
fn man_pages_are_current() {
    let env = TestEnv::new();
    let out = env.path().join("man");
    env.cmd()
        .args(["man", "--dir"])
        .arg(&out)
        .assert()
        .success();
    assert_same_tree(&out, &repo_root().join("man"), "cargo run -- man --dir man");
}

#[test]
fn completion_script_for_one_shell_goes_to_stdout() {
    let env = TestEnv::new();
    let output = env.cmd().args(["completions", "bash"]).output().unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("_arbiter()"));
}

#[test]
fn openapi_document_is_current() {
    let env = TestEnv::new();
    let out = env.path().join("openapi.json");
    env.cmd()
        .args(["openapi", "--out"])
        .arg(&out)
        .assert()
        .success();
    let fresh = std::fs::read(&out).unwrap();
    let committed = std::fs::read(repo_root().join("openapi.json")).unwrap_or_default();
    assert!(
        fresh == committed,
        "openapi.json is stale; run `cargo run -- openapi --out openapi.json`"
    );
}

/// Every `arbiter-…(1)` a committed man page names is a committed page, and every page has
/// the sections a reader looks for.
#[test]
fn every_man_page_a_page_refers_to_exists() {
    let dir = repo_root().join("man");
    let mut pages = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        // roff escapes `-` as `\-`; a reference is `arbiter\-a\-b(1)`, maybe with font escapes.
        let plain = text
            .replace("\\-", "-")
            .replace("\\fB", "")
            .replace("\\fR", "");
        for (at, _) in plain.match_indices("(1)") {
            let start = plain[..at]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .map_or(0, |i| i + 1);
            let name = &plain[start..at];
            if name.starts_with("arbiter") {
                assert!(
                    dir.join(format!("{name}.1")).exists(),
                    "{} refers to {name}(1), which is not in man/",
                    path.display()
                );
            }
        }
        for section in [".SH \"EXIT STATUS\"", ".SH ENVIRONMENT", ".SH FILES"] {
            assert!(text.contains(section), "{}: no {section}", path.display());
        }
        for variable in [
            "ARBITER_HOME",
            "ARBITER_SERVER",
            "ARBITER_TOKEN",
            "ARBITER_LOG",
            "NO_COLOR",
        ] {
            assert!(text.contains(variable), "{}: no {variable}", path.display());
        }
        pages += 1;
    }
    // One per command at every depth, e.g. the nested ones other pages name.
    for nested in [
        "arbiter-models-create",
        "arbiter-tokens-create",
        "arbiter-jobs-poll",
    ] {
        assert!(dir.join(format!("{nested}.1")).exists(), "{nested}");
    }
    assert!(pages > 30, "{pages} pages");
}

/// The main commands' `--help` ends with examples, and their man pages show the same.
#[test]
fn main_commands_end_their_help_with_examples() {
    let env = TestEnv::new();
    for command in [
        "decide", "batch", "eval", "align", "models", "examples", "serve", "jobs",
    ] {
        let output = env.cmd().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8_lossy(&output.stdout);
        let (_, examples) = help
            .split_once("\nExamples:\n")
            .unwrap_or_else(|| panic!("`arbiter {command} --help` has no examples:\n{help}"));
        let lines: Vec<_> = examples.lines().filter(|l| !l.trim().is_empty()).collect();
        assert!((2..=3).contains(&lines.len()), "{command}: {lines:?}");
        assert!(
            lines.iter().all(|l| l.starts_with("  arbiter ")),
            "{command}: {lines:?}"
        );
        let page =
            std::fs::read_to_string(repo_root().join(format!("man/arbiter-{command}.1"))).unwrap();
        let last = lines[lines.len() - 1].trim().replace('-', "\\-");
        assert!(
            page.contains(".SH EXAMPLES") && page.contains(&last),
            "{command}"
        );
    }
}
