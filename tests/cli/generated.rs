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
