use crate::common::TestEnv;

#[test]
fn lists_every_base_model_with_its_engine() {
    let env = TestEnv::new();
    let list = env.json(&["models"]);
    let names: Vec<&str> = list["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "mo",
            "mo-reasoning",
            "service/mo",
            "service/mo-reasoning",
            "jev-latest",
            "jev-1.13.0"
        ]
    );
    for model in list["models"].as_array().unwrap() {
        assert_eq!(model["kind"], "base");
        assert!(
            model["engine"].as_str().unwrap().starts_with("built-in"),
            "{model}"
        );
    }
    assert!(
        list["models"][0]["engine"]
            .as_str()
            .unwrap()
            .contains("first")
    );
    assert!(
        list["models"][1]["engine"]
            .as_str()
            .unwrap()
            .contains("whole")
    );
}

/// `models delete-branch` of a name no branch can have (as schemathesis sends over HTTP): not
/// found, exit 4, as a branch that is not there; nothing is deleted.
#[test]
fn deleting_a_branch_no_name_can_be_is_not_found() {
    let env = TestEnv::new();
    let questions = env.write("q.yaml", crate::common::QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    // The last is git's syntax but longer than libgit2 can look up (was a 500 over HTTP).
    let over_long = "\u{911d8}".repeat(300);
    for name in ["\u{7} \u{a0}", "a..b", "nope", &over_long] {
        let (code, problem, stderr) =
            env.problem(&["models", "delete-branch", "acme/support", name]);
        assert_eq!(code, 4, "{name:?}: {stderr}");
        assert_eq!(problem["code"], "revision_not_found", "{name:?}: {problem}");
    }
    let shown = env.json(&["models", "show", "acme/support"]);
    assert_eq!(shown["branches"].as_array().unwrap().len(), 1, "{shown}");
}
