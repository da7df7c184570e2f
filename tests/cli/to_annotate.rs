//! `arbiter examples next` and `GET …/examples-to-annotate`: unannotated examples ranked by
//! the margin the model really gives them (checked against `arbiter decide`), annotated
//! ones left out, the seeded audit share, the pool's bound, and the route's access rules,
//! query errors and decision slots.

use crate::common::{QUESTIONS, TestEnv, repo_root, score_cell};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::fmt::Write as _;

/// The labelled support set's states `from..to`, without their annotations, as ingest
/// lines with IDs `{prefix}{i:02}`.
pub(crate) fn states(prefix: &str, from: usize, to: usize) -> String {
    let text = std::fs::read_to_string(repo_root().join("examples/support/labelled.jsonl"))
        .expect("the labelled set");
    text.lines()
        .enumerate()
        .skip(from)
        .take(to - from)
        .fold(String::new(), |mut out, (i, line)| {
            let row: Value = serde_json::from_str(line).unwrap();
            let line = json!({"example_id": format!("{prefix}{i:02}"), "state": row["state"]});
            writeln!(out, "{line}").unwrap();
            out
        })
}

/// A model on `mo` with the common questions (intent, urgency, escalate).
fn env() -> TestEnv {
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    env
}

fn next(env: &TestEnv, args: &[&str]) -> Value {
    let mut all = vec!["examples", "next", "acme/support"];
    all.extend_from_slice(args);
    env.json(&all)
}

fn ids(picked: &Value) -> Vec<String> {
    picked["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["exampleId"].as_str().unwrap().to_owned())
        .collect()
}

fn margins(picked: &Value) -> Vec<f64> {
    picked["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["margin"].as_f64().unwrap())
        .collect()
}

/// Top probability minus the second, computed here from an answer as `decide` prints it.
fn margin_of(answer: &Value) -> f64 {
    let mut ps: Vec<f64> = match answer["type"].as_str().unwrap() {
        "noul" => {
            let p = answer["noul"].as_f64().unwrap();
            vec![p, 1.0 - p]
        }
        _ => answer["probabilities"]
            .as_object()
            .unwrap()
            .values()
            .map(|p| p.as_f64().unwrap())
            .collect(),
    };
    ps.sort_by(|a, b| b.total_cmp(a));
    ps[0] - ps[1]
}

#[test]
fn examples_next_ranks_unannotated_examples_by_the_margin_decide_gives_them() {
    let env = env();
    env.ingest("acme/support", &states("e-", 0, 16));
    // e-00..e-03 are annotated for every question: never candidates. e-04 and e-05 for
    // intent only: candidates for the other two.
    let mut annotations = String::new();
    for i in 0..4 {
        for (question, answer) in [
            ("intent", json!("refund")),
            ("urgency", json!(2)),
            ("escalate", json!(false)),
        ] {
            let line =
                json!({"example_id": format!("e-{i:02}"), "question": question, "answer": answer});
            writeln!(annotations, "{line}").unwrap();
        }
    }
    for i in [4, 5] {
        let line =
            json!({"example_id": format!("e-{i:02}"), "question": "intent", "answer": "shipping"});
        writeln!(annotations, "{line}").unwrap();
    }
    let file = env.write("annotations.jsonl", &annotations);
    env.cmd()
        .args(["examples", "annotate", "acme/support", "--file"])
        .arg(&file)
        .assert()
        .success();

    let picked = next(&env, &["-n", "100", "--audit", "0"]);
    assert_eq!(
        picked["questions"],
        json!(["intent", "urgency", "escalate"])
    );
    assert_eq!(picked["unannotated"], 12, "{picked}");
    assert_eq!(picked["scored"], 12);
    assert_eq!(picked["cached"], 0, "the first ask decides every candidate");
    let picked_ids: HashSet<String> = ids(&picked).into_iter().collect();
    let expected: HashSet<String> = (4..16).map(|i| format!("e-{i:02}")).collect();
    assert_eq!(picked_ids, expected, "annotated examples are left out");
    let ranked = margins(&picked);
    assert!(
        ranked.windows(2).all(|w| w[0] <= w[1]),
        "margins ascending: {ranked:?}"
    );
    assert!(ranked[0] < ranked[11], "the margins differ: {ranked:?}");

    // Each margin is what an independent `arbiter decide` of the state gives: the lowest
    // of the example's unannotated questions, which the item names.
    for item in picked["examples"].as_array().unwrap() {
        assert_eq!(item["why"], "uncertain");
        let id = item["exampleId"].as_str().unwrap();
        let state = env.write(&format!("{id}.json"), &item["state"].to_string());
        let decided = env.json(&[
            "decide",
            "--model",
            "acme/support",
            "--state",
            state.to_str().unwrap(),
            "--no-capture",
        ]);
        let open: Vec<&str> = if matches!(id, "e-04" | "e-05") {
            vec!["urgency", "escalate"]
        } else {
            vec!["intent", "urgency", "escalate"]
        };
        let (least, lowest) = open
            .iter()
            .map(|q| (*q, margin_of(&decided["answers"][q])))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        assert_eq!(item["question"], least, "{id}");
        let margin = item["margin"].as_f64().unwrap();
        assert!((margin - lowest).abs() < 1e-9, "{id}: {margin} vs {lowest}");
        assert_eq!(item["answer"], decided["answers"][least], "{id}");
    }

    // Asking again costs no engine call.
    let again = next(&env, &["-n", "100", "--audit", "0"]);
    assert_eq!(again["cached"], 12, "{again}");
    assert_eq!(again["examples"], picked["examples"]);

    // One question: e-04 and e-05 are annotated for it, so out; every item asks it.
    let intent = next(&env, &["--question", "intent", "-n", "100", "--audit", "0"]);
    assert_eq!(intent["questions"], json!(["intent"]));
    assert_eq!(intent["unannotated"], 10);
    let intent_ids: HashSet<String> = ids(&intent).into_iter().collect();
    assert!(!intent_ids.contains("e-04") && !intent_ids.contains("e-05"));
    assert_eq!(intent_ids.len(), 10);
    assert!(
        intent["examples"]
            .as_array()
            .unwrap()
            .iter()
            .all(|item| item["question"] == "intent")
    );
    let ranked = margins(&intent);
    assert!(ranked.windows(2).all(|w| w[0] <= w[1]), "{ranked:?}");

    // Annotating the least certain takes it out of the next ask.
    let top = ids(&intent)[0].clone();
    env.cmd()
        .args(["examples", "annotate", "acme/support", &top])
        .args(["--question", "intent", "--answer", "technical"])
        .assert()
        .success();
    let after = next(&env, &["--question", "intent", "-n", "100", "--audit", "0"]);
    assert_eq!(after["unannotated"], 9);
    assert!(!ids(&after).contains(&top), "{top} was annotated");
}

/// The table's guess is the answer as `decide`'s table reads it: a score's most likely
/// level with its probability, beside its expected level; a choice's option.
#[test]
fn the_table_guesses_a_score_as_decide_reads_it() {
    let env = env();
    env.ingest("acme/support", &states("e-", 0, 8));
    for question in ["urgency", "intent"] {
        let args = [
            "examples",
            "next",
            "acme/support",
            "--question",
            question,
            "-n",
            "100",
            "--audit",
            "0",
        ];
        let picked = env.json(&args);
        let output = env.cmd().arg("--table").args(args).output().unwrap();
        assert!(output.status.success(), "{output:?}");
        let table = String::from_utf8_lossy(&output.stdout);
        let items = picked["examples"].as_array().unwrap();
        assert_eq!(items.len(), 8, "{picked}");
        for item in items {
            let answer = &item["answer"];
            let guess = if question == "urgency" {
                score_cell(answer)
            } else {
                answer["choice"].as_str().unwrap().to_owned()
            };
            let id = item["exampleId"].as_str().unwrap();
            let row = table
                .lines()
                .find(|line| line.trim_start().starts_with(&format!("{id} ")))
                .unwrap_or_else(|| panic!("no row for {id}:\n{table}"));
            assert!(
                row.trim_end().ends_with(&format!("   {guess}")),
                "{guess:?} in {row:?}"
            );
        }
    }
}

#[test]
fn the_audit_share_is_seeded_and_the_pool_is_the_newest_candidates() {
    let env = env();
    env.ingest("acme/support", &states("e-", 0, 24));
    // A later ingest: these six are the most recently created.
    env.ingest("acme/support", &states("n-", 24, 30));
    let full = next(&env, &["-n", "1000", "--audit", "0"]);
    assert_eq!(full["scored"], 30);
    let ranking = ids(&full);
    assert_eq!(ranking.len(), 30, "n past the pool: every candidate once");

    let picked = next(&env, &["-n", "10", "--audit", "0.3", "--seed", "5"]);
    assert_eq!(picked["cached"], 30, "decided already: {picked}");
    let items = picked["examples"].as_array().unwrap();
    assert_eq!(items.len(), 10);
    // round(10 × 0.3) = 3 drawn, spread evenly: the 4th, 7th and 10th.
    let whys: Vec<&str> = items.iter().map(|i| i["why"].as_str().unwrap()).collect();
    let mut expected = vec!["uncertain"; 10];
    for k in [3, 6, 9] {
        expected[k] = "audit";
    }
    assert_eq!(whys, expected);
    // The uncertain ones are the 7 lowest margins, in order; the audit ones come from
    // the rest.
    let picked_ids = ids(&picked);
    let uncertain: Vec<&String> = picked_ids
        .iter()
        .zip(&whys)
        .filter(|(_, why)| **why == "uncertain")
        .map(|(id, _)| id)
        .collect();
    assert_eq!(uncertain, ranking[..7].iter().collect::<Vec<_>>());
    let audit = |picked: &Value| -> HashSet<String> {
        picked["examples"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["why"] == "audit")
            .map(|i| i["exampleId"].as_str().unwrap().to_owned())
            .collect()
    };
    let drawn = audit(&picked);
    assert_eq!(drawn.len(), 3);
    assert!(
        drawn.iter().all(|id| ranking[7..].contains(id)),
        "{drawn:?}"
    );

    // The same seed draws the same; another seed other examples.
    let same = next(&env, &["-n", "10", "--audit", "0.3", "--seed", "5"]);
    assert_eq!(same["examples"], picked["examples"]);
    let other = next(&env, &["-n", "10", "--audit", "0.3", "--seed", "6"]);
    assert_ne!(audit(&other), drawn);
    assert_eq!(ids(&other)[..3], picked_ids[..3]);

    // The pool: the most recently created unannotated examples (ties: greater ID first).
    let pooled = next(&env, &["--pool", "4", "-n", "20", "--audit", "0.5"]);
    assert_eq!(pooled["unannotated"], 30);
    assert_eq!(pooled["scored"], 4);
    let pooled_ids: HashSet<String> = ids(&pooled).into_iter().collect();
    let newest: HashSet<String> = (26..30).map(|i| format!("n-{i:02}")).collect();
    assert_eq!(pooled_ids, newest);
    assert_eq!(audit(&pooled).len(), 2);

    // Out of range is a usage error, never clamped.
    for bad in [
        &["-n", "0"][..],
        &["-n", "1001"],
        &["--audit", "1.5"],
        &["--audit", "NaN"],
        &["--pool", "0"],
        &["--pool", "5001"],
    ] {
        let mut args = vec!["examples", "next", "acme/support"];
        args.extend_from_slice(bad);
        env.cmd().args(&args).assert().code(2);
    }
    let (code, problem, _) =
        env.problem(&["examples", "next", "acme/support", "--question", "nope"]);
    assert_eq!(code, 1);
    assert_eq!(problem["details"][0]["loc"], json!(["query", "question"]));
    let (code, problem, _) =
        env.problem(&["examples", "next", "acme/support", "--revision", "nope"]);
    assert_eq!(code, 4);
    assert_eq!(problem["code"], "revision_not_found");
}

/// The route: readers with `examples:read` and `decisions`; every bad parameter located;
/// an invisible model not found; each engine call takes a decision slot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_route_authorizes_validates_and_takes_decision_slots() {
    let held = crate::common::HeldEngine::start();
    let home = TestEnv::with_config(
        &held.config("server:\n  max_concurrent_decisions: 1\n  decision_queue: 0\n"),
    );
    home.model("acme/support");
    let reader = home.token("r", &["examples:read", "decisions"], &["acme/*=reader"]);
    let no_decisions = home.token("e", &["examples:read"], &["acme/*=reader"]);
    let elsewhere = home.token("o", &["examples:read", "decisions"], &["other/*=admin"]);
    let deciding = home.token("d", &["decisions"], &[]);
    let server = std::sync::Arc::new(home.serve().await);
    let lines = states("e-", 0, 6);
    let admin = server.home().admin_token("admin");
    server
        .post_lines("/v1/models/acme%2Fsupport/examples", Some(&admin), lines)
        .await
        .ok();
    let path = "/v1/models/acme%2Fsupport/examples-to-annotate";

    let forbidden = server.get(path, Some(&no_decisions)).await;
    assert_eq!(forbidden.status, 403, "{}", forbidden.text());
    // Not visible: not found, whatever the query.
    let hidden = server.get(&format!("{path}?n=0"), Some(&elsewhere)).await;
    assert_eq!(hidden.status, 404, "{}", hidden.text());
    assert_eq!(hidden.json()["code"], "model_not_found");
    let bad = server
        .get(
            &format!("{path}?n=0&audit=x&seed=-1&pool=9999&n=2"),
            Some(&reader),
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.text());
    let locs: Vec<Value> = bad.json()["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["loc"].clone())
        .collect();
    assert_eq!(
        locs,
        [
            json!(["query", "n"]),
            json!(["query", "audit"]),
            json!(["query", "seed"]),
            json!(["query", "pool"]),
            json!(["query", "n"]),
        ]
    );

    // The one slot held by a long decision: deciding a candidate is refused at once.
    let first = held.hold_a_decision_slot(&server, &deciding).await;
    let refused = server.get(&format!("{path}?n=3"), Some(&reader)).await;
    assert_eq!(refused.status, 503, "{}", refused.text());
    assert_eq!(refused.json()["code"], "overloaded");
    assert_eq!(refused.header("retry-after"), Some("1"));
    held.release();
    first.await.unwrap().ok();

    let picked = server
        .get(&format!("{path}?n=3&seed=2"), Some(&reader))
        .await
        .ok();
    assert_eq!(picked["scored"], 6);
    assert_eq!(picked["examples"].as_array().unwrap().len(), 3);
    // A reader decides nothing into the record.
    let listed = server
        .get("/v1/models/acme%2Fsupport/examples/e-00", Some(&reader))
        .await
        .ok();
    assert_eq!(listed["decisions"], json!([]));
}

/// A candidate a remote engine refuses is left out and counted; when it refuses every
/// one, the command fails with the engine's error.
#[test]
fn a_candidate_the_engine_refuses_is_left_out_and_counted() {
    use crate::fake_upstream::{FakeReply, FakeUpstream, systemone_answers};
    let refusing = std::sync::atomic::AtomicBool::new(false);
    let refusing = std::sync::Arc::new(refusing);
    let fake = {
        let refusing = refusing.clone();
        FakeUpstream::start(move |_, body| {
            let poisoned = body["state"].to_string().contains("poison");
            if poisoned || refusing.load(std::sync::atomic::Ordering::SeqCst) {
                FakeReply::text(400, "content refused")
            } else {
                FakeReply::ok(&systemone_answers(body))
            }
        })
    };
    let env = TestEnv::new();
    let config = format!(
        "engines:\n  remote: {{kind: systemone, url: '{}', model: m, retries: 0}}\nmodels:\n  mo: remote\n",
        fake.url()
    );
    std::fs::write(env.home().join("config.yaml"), config).unwrap();
    let questions = env.write("questions.yaml", QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    env.ingest(
        "acme/support",
        concat!(
            "{\"example_id\": \"a\", \"state\": \"refund my order\"}\n",
            "{\"example_id\": \"b\", \"state\": \"poison\"}\n",
            "{\"example_id\": \"c\", \"state\": \"where is my parcel\"}\n",
        ),
    );
    let picked = next(&env, &[]);
    assert_eq!(picked["scored"], 2, "{picked}");
    assert_eq!(picked["failed"], 1);
    let mut picked_ids = ids(&picked);
    picked_ids.sort();
    assert_eq!(picked_ids, ["a", "c"]);
    // Refusing every candidate: the engine's error, not an empty list. (The two it
    // answered come from the cache: the pool is the newest example alone.)
    env.ingest(
        "acme/support",
        "{\"example_id\": \"d\", \"state\": \"my card was charged twice\"}\n",
    );
    refusing.store(true, std::sync::atomic::Ordering::SeqCst);
    let (code, problem, _) = env.problem(&["examples", "next", "acme/support", "--pool", "1"]);
    assert_eq!(code, 1);
    assert_eq!(problem["code"], "upstream_failed", "{problem}");
}
