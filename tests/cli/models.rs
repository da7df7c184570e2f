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
