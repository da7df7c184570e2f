//! The README's first decision prints what the README shows: the commands of "A first
//! decision" run here, and their output is compared with the blocks under them, word by
//! word, numbers within a rounding step (another CPU may round the last digit differently).

use crate::common::{TestEnv, repo_root};
use serde_json::Value;

/// The block whose first line is `$ <prefix>…`: its command (without the `$ `) and the
/// lines after it, up to the end of the block.
fn shown(readme: &str, prefix: &str) -> (String, Vec<String>) {
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if let Some(command) = line.strip_prefix("$ ").filter(|c| c.starts_with(prefix)) {
            let output = lines
                .by_ref()
                .take_while(|l| !l.starts_with("```"))
                .map(str::to_owned)
                .collect();
            return (command.to_owned(), output);
        }
    }
    panic!("README has no `$ {prefix}` block");
}

/// Equal word by word, numbers (also in parentheses) within `tolerance`.
fn assert_same_words(shown: &str, printed: &str, tolerance: f64) {
    let words = |text: &str| -> Vec<String> {
        text.split_whitespace()
            .map(|w| w.trim_matches(|c| c == '(' || c == ')').to_owned())
            .collect()
    };
    let (shown_words, printed_words) = (words(shown), words(printed));
    assert_eq!(
        shown_words.len(),
        printed_words.len(),
        "README shows:\n{shown}\nthe tool prints:\n{printed}"
    );
    for (a, b) in shown_words.iter().zip(&printed_words) {
        match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(x), Ok(y)) => assert!(
                (x - y).abs() <= tolerance,
                "{a} vs {b}\nREADME shows:\n{shown}\nthe tool prints:\n{printed}"
            ),
            _ => assert_eq!(a, b, "README shows:\n{shown}\nthe tool prints:\n{printed}"),
        }
    }
}

#[test]
fn the_first_decision_prints_what_the_readme_shows() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let env = TestEnv::new();

    // The table, fitted to the 100 columns it is shown at, and its footer.
    let (command, output) = shown(&readme, "arbiter decide --model jev-latest");
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let printed = env
        .cmd()
        .current_dir(repo_root())
        .env("COLUMNS", "100")
        .arg("--table")
        .args(&args)
        .output()
        .unwrap();
    assert!(printed.status.success(), "{printed:?}");
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&printed.stdout),
        String::from_utf8_lossy(&printed.stderr)
    );
    assert_same_words(&output.join("\n"), &printed, 0.0015);

    // The JSON of the piped decision: `jq -c .answers.intent` of it.
    let state = r#"{"messages":[{"role":"user","content":"my card was charged twice"}]}"#;
    let pipeline = format!(
        "echo '{state}' | arbiter decide --model mo --questions examples/support/questions.yaml --state - | jq -c .answers.intent"
    );
    let (command, output) = shown(&readme, "echo ");
    assert_eq!(
        command, pipeline,
        "the README's command is the one run here"
    );
    let printed = env
        .cmd()
        .current_dir(repo_root())
        .args(["decide", "--model", "mo", "--questions"])
        .arg("examples/support/questions.yaml")
        .args(["--state", "-"])
        .write_stdin(state)
        .output()
        .unwrap();
    assert!(printed.status.success(), "{printed:?}");
    let response: Value = serde_json::from_slice(&printed.stdout).unwrap();
    let shown: Value = serde_json::from_str(&output.join("\n")).unwrap();
    let intent = &response["answers"]["intent"];
    assert_eq!(intent["choice"], shown["choice"], "{intent}");
    let probabilities = shown["probabilities"].as_object().unwrap();
    assert_eq!(
        probabilities.len(),
        intent["probabilities"].as_object().unwrap().len()
    );
    for (option, p) in probabilities {
        let printed = intent["probabilities"][option].as_f64().unwrap();
        assert!(
            (printed - p.as_f64().unwrap()).abs() < 1e-6,
            "{option}: {intent}"
        );
    }
}
