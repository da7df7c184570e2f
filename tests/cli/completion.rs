//! Shell completion through the committed `completions/arbiter.bash`: a real `bash` sources
//! it and calls its completion function the way the shell does on Tab, and the script runs
//! the `arbiter` under test (first on `PATH`).

use crate::common::{QUESTIONS, STATE, TestEnv, repo_root};

/// Complete `line` (the cursor at its end; a trailing space starts a new word) in `bash`
/// with `env` (variable, value) set; the candidates, in order.
pub(crate) fn bash_complete(line: &str, env: &[(&str, &str)]) -> Vec<String> {
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if line.ends_with(' ') {
        words.push("");
    }
    let current = words.len() - 1;
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let script = format!(
        "source '{script}'\n\
         COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}\n\
         COMP_WORDS=({words}); COMP_CWORD={current}\n\
         _clap_complete_arbiter arbiter '{word}' '{previous}'\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script = repo_root().join("completions/arbiter.bash").display(),
        words = quoted.join(" "),
        word = words[current],
        previous = if current > 0 { words[current - 1] } else { "" },
    );
    let bin = assert_cmd::cargo::cargo_bin("arbiter");
    let mut path = std::ffi::OsString::from(bin.parent().unwrap());
    path.push(":/usr/bin:/bin");
    let mut bash = std::process::Command::new("bash");
    bash.env_clear()
        .env("PATH", path)
        .args(["--noprofile", "--norc", "-c", &script]);
    for (name, value) in env {
        bash.env(name, value);
    }
    let output = bash.output().expect("bash runs");
    assert!(
        output.status.success(),
        "bash failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stderr.is_empty(),
        "completion printed on stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A home with `acme/support` (tagged `v1`) and `acme/billing`, and one detached job.
fn home_with_two_models() -> (TestEnv, String) {
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    env.create_model("acme/billing", "mo", &questions);
    env.cmd()
        .args(["models", "tag", "acme/support", "v1"])
        .assert()
        .success();
    let input = env.write("states.jsonl", &format!("{{\"state\":{STATE}}}\n"));
    let output = env
        .cmd()
        .args(["batch", "acme/support", "--detach", "--input"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(output.status.success());
    let job_id = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    (env, job_id)
}

/// The values offered (clap adds the options when the word is empty): those not an option.
pub(crate) fn values(line: &str, env: &[(&str, &str)]) -> Vec<String> {
    let mut values = bash_complete(line, env);
    values.retain(|v| !v.starts_with('-'));
    values
}

#[test]
fn bash_completes_models_revisions_jobs_and_questions_from_the_home() {
    let (env, job_id) = home_with_two_models();
    let home = env.home().display().to_string();
    let at_home = [("ARBITER_HOME", home.as_str())];
    assert!(bash_complete("arbiter models show ", &at_home).contains(&"--help".to_owned()));

    // Repository models where a command takes one: as the argument and after --model.
    assert_eq!(
        values("arbiter models show ", &at_home),
        ["acme/billing", "acme/support"]
    );
    assert_eq!(values("arbiter batch acme/s", &at_home), ["acme/support"]);
    // `decide --model` also takes the base models.
    let decide = values("arbiter decide --model ", &at_home);
    assert!(decide.contains(&"jev-latest".to_owned()), "{decide:?}");
    assert!(decide.contains(&"acme/support".to_owned()), "{decide:?}");

    // Branches and tags of the model on the line.
    assert_eq!(
        values("arbiter eval acme/support --revision ", &at_home),
        ["main", "v1"]
    );
    assert_eq!(
        values("arbiter batch acme/billing --revision ", &at_home),
        ["main"]
    );
    // Job IDs, and question IDs (comma-separated ones too) of the model on the line.
    assert_eq!(values("arbiter jobs poll ", &at_home), [job_id]);
    let questions = values("arbiter examples list acme/support --question ", &at_home);
    assert!(questions.contains(&"intent".to_owned()), "{questions:?}");
    let more = values("arbiter align acme/support --questions intent,", &at_home);
    assert!(more.iter().all(|q| q.starts_with("intent,")), "{more:?}");
    assert_eq!(more.len(), questions.len(), "{more:?}");

    // --home on the line wins over ARBITER_HOME.
    let elsewhere = env.path().join("elsewhere");
    let at_elsewhere = [("ARBITER_HOME", elsewhere.to_str().unwrap())];
    let line = format!("arbiter --home {home} models show ");
    assert_eq!(
        values(&line, &at_elsewhere),
        ["acme/billing", "acme/support"]
    );
    // A home that does not exist offers nothing, says nothing, and is not created.
    assert!(values("arbiter models show ", &at_elsewhere).is_empty());
    assert!(!elsewhere.exists());
    // A model that does not exist has no revisions.
    assert!(values("arbiter batch acme/none --revision ", &at_home).is_empty());
}

#[test]
fn bash_still_completes_subcommands_and_options() {
    let env = TestEnv::new();
    let home = env.home().display().to_string();
    let at_home = [("ARBITER_HOME", home.as_str())];
    let subcommands = bash_complete("arbiter mo", &at_home);
    assert_eq!(subcommands, ["models"]);
    let flags = bash_complete("arbiter jobs poll --w", &at_home);
    assert_eq!(flags, ["--wait"]);
}
