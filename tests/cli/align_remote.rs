//! `arbiter align` on a model whose base is routed to a remote engine: the heads fitted
//! over the engine's answers (asked once per example, through the answer cache), the cost
//! said before it is spent (`--dry-run`, `--budget`), a failure half-way resumed without
//! asking again, and decisions at the new checkpoint that call the engine as often as a
//! zero-shot one.

use crate::align::labelled;
use crate::client::{Act, Proxy};
use crate::common::{TestEnv, repo_root};
use crate::fake_upstream::{FakeReply, FakeUpstream, chat_completion};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// `mo` routed to a chat-logprobs engine named `chat` at `url`, failing at once (no retry).
fn chat_config(url: &str) -> String {
    format!(
        "engines:\n  chat: {{kind: chat-logprobs, url: '{url}', model: fake-chat, \
         top_logprobs: 5, connect_timeout: 1, timeout: 5, retries: 0, backoff: 0.05, \
         max_backoff: 1}}\nmodels:\n  mo: chat\n"
    )
}

/// A chat model that answers every question with the same letter distribution, and counts
/// the prompts it answered; down (500) from its `from`-th request while `down` is set.
struct Chat {
    fake: FakeUpstream,
    down: Arc<AtomicBool>,
    answered: Arc<Mutex<HashMap<String, usize>>>,
}

impl Chat {
    fn start(from: usize) -> Self {
        let down = Arc::new(AtomicBool::new(false));
        let answered: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
        let fake = {
            let (down, answered) = (down.clone(), answered.clone());
            FakeUpstream::start(move |index, body| {
                if index >= from && down.load(Ordering::SeqCst) {
                    return FakeReply::text(500, "the GPU is on fire");
                }
                let prompt = body["messages"][1]["content"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                *answered.lock().unwrap().entry(prompt).or_default() += 1;
                FakeReply::ok(&chat_completion(&[(
                    "A",
                    &[("A", 0.3), ("B", 0.25), ("C", 0.2), ("D", 0.15), ("E", 0.1)],
                )]))
            })
        };
        Self {
            fake,
            down,
            answered,
        }
    }
}

fn env_on(config: &str, annotated: usize) -> TestEnv {
    let env = TestEnv::new();
    std::fs::write(env.home().join("config.yaml"), config).unwrap();
    let questions = repo_root().join("examples/support/questions.yaml");
    env.create_model("acme/support", "mo", &questions);
    env.ingest("acme/support", &labelled(annotated, &["intent"]));
    env
}

fn branches(env: &TestEnv) -> Vec<String> {
    env.git_in(
        &env.home().join("repos/acme/support.git"),
        &["branch", "--format=%(refname:short)"],
    )
    .lines()
    .map(str::to_owned)
    .collect()
}

const ALIGN: [&str; 4] = ["align", "acme/support", "-q", "intent"];

/// Run `arbiter --json args…`, an alignment expected to fail: its job's problem.
fn failed(env: &TestEnv, args: &[&str]) -> Value {
    let output = env.cmd().arg("--json").args(args).output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let job: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(job["status"], "failed", "{job}");
    job["error"].clone()
}

// One scenario in order (plan, budget, failure, resume, decisions, re-routing): each step
// starts from what the one before left.
#[allow(clippy::too_many_lines)]
#[test]
fn an_alignment_over_a_chat_engine_says_its_cost_survives_a_failure_and_asks_each_example_once() {
    let chat = Chat::start(20);
    let env = env_on(&chat_config(chat.fake.url()), 40);

    // The cost, before anything is spent.
    let plan = env.json(&[&ALIGN[..], &["--dry-run"]].concat());
    assert_eq!(
        plan["engineCalls"],
        json!({"engine": "chat", "answers": 40, "cached": 0, "calls": 40}),
        "{plan}"
    );
    let output = env
        .cmd()
        .args([
            "--table",
            "align",
            "acme/support",
            "-q",
            "intent",
            "--dry-run",
        ])
        .output()
        .unwrap();
    let words = String::from_utf8_lossy(&output.stdout);
    assert!(
        words.contains("would make 40 calls to engine `chat` (0 of 40 answers cached)"),
        "{words}"
    );
    assert_eq!(chat.fake.count(), 0, "a dry run asks nothing");

    // A budget too small: it stops there, commits nothing, and says how far it got.
    let problem = failed(&env, &[&ALIGN[..], &["--budget", "10"]].concat());
    let detail = problem["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("the budget of 10 engine calls is spent: 10 of the 40 annotated examples"),
        "{problem}"
    );
    assert!(detail.contains("a budget of 30 or more"), "{detail}");
    assert_eq!(chat.fake.count(), 10);
    assert_eq!(branches(&env), ["main"]);

    // The engine fails half-way: the alignment fails, saying after how many calls.
    chat.down.store(true, Ordering::SeqCst);
    let problem = failed(&env, &ALIGN);
    assert_eq!(problem["code"], "upstream_failed", "{problem}");
    let detail = problem["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("of 30 engine calls"), "{detail}");
    assert!(
        detail.contains("the same alignment asks only the rest"),
        "{detail}"
    );
    assert_eq!(branches(&env), ["main"]);
    let cached = env.json(&[&ALIGN[..], &["--dry-run"]].concat())["engineCalls"]["cached"]
        .as_u64()
        .unwrap();
    assert!((20..40).contains(&cached), "{cached} cached");

    // Back up: the same alignment asks only what it never got, and commits.
    chat.down.store(false, Ordering::SeqCst);
    let job = env.json(&ALIGN);
    assert_eq!(job["status"], "completed", "{job}");
    // The progress counts the calls, then the states read here and the question.
    let steps = (40 - cached) + 40 + 1;
    assert_eq!(
        job["progress"],
        json!({"total": steps, "done": steps, "failed": 0}),
        "{job}"
    );
    let result = &job["result"];
    assert_eq!(
        result["engineCalls"],
        json!({"engine": "chat", "answers": 40, "cached": cached, "calls": 40 - cached}),
        "{result}"
    );
    assert_eq!(result["improved"], true, "{result}");
    let intent = &result["questions"]["intent"];
    assert_eq!(intent["chosen"], "head", "{intent}");
    assert!(
        intent["after"]["accuracy"].as_f64() > intent["before"]["accuracy"].as_f64(),
        "{intent}"
    );
    assert_eq!(result["tuning"]["used"], false);
    assert!(
        result["tuning"]["reason"]
            .as_str()
            .unwrap()
            .contains("remote engine `chat`"),
        "{result}"
    );
    {
        let answered = chat.answered.lock().unwrap();
        assert_eq!(answered.len(), 40, "every example asked");
        assert!(
            answered.values().all(|n| *n == 1),
            "an example was answered twice: {answered:?}"
        );
    }
    let branch = result["branch"].as_str().unwrap().to_owned();
    let manifest = env.git_in(
        &env.home().join("repos/acme/support.git"),
        &["show", &format!("{branch}:learned/manifest.yaml")],
    );
    assert!(manifest.contains("prior: chat"), "{manifest}");

    // A decision at the new checkpoint asks the engine what a zero-shot one asks (one
    // request per question for a chat model), and its head moves the engine's answer.
    let state = env.write(
        "state.json",
        r#"{"message": "I was charged twice for my subscription this month, please refund me"}"#,
    );
    let state = state.display().to_string();
    let before = chat.fake.count();
    let zero_shot = env.json(&["decide", "--model", "acme/support", "--state", &state]);
    let per_decision = chat.fake.count() - before;
    assert_eq!(per_decision, 3, "one request per question");
    let at_branch = [
        "decide",
        "--model",
        "acme/support",
        "--revision",
        &branch,
        "--state",
        &state,
    ];
    let before = chat.fake.count();
    let aligned = env.json(&at_branch);
    assert_eq!(
        chat.fake.count() - before,
        per_decision,
        "no call for the head"
    );
    assert_ne!(
        aligned["answers"]["intent"]["probabilities"],
        zero_shot["answers"]["intent"]["probabilities"]
    );
    assert_eq!(
        aligned["answers"]["urgency"], zero_shot["answers"]["urgency"],
        "a question without a head keeps the engine's answer"
    );

    // Routed back to the built-in engine, the head is refused where it says so.
    std::fs::write(env.home().join("config.yaml"), "{}\n").unwrap();
    let (code, problem, _) = env.problem(&at_branch);
    assert_eq!(code, 1);
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["learned/manifest.yaml", "questions", "intent", "prior"]),
        "{problem}"
    );
    assert!(
        problem["details"][0]["msg"]
            .as_str()
            .unwrap()
            .contains("fitted over the answers of engine `chat`"),
        "{problem}"
    );
}

#[test]
fn a_correction_without_annotations_is_refused_on_a_remote_engine() {
    let chat = Chat::start(usize::MAX);
    let env = env_on(&chat_config(chat.fake.url()), 12);
    let (code, problem, _) = env.problem(&["align", "acme/support", "--unsupervised"]);
    assert_eq!(code, 1);
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["body", "unsupervised"]),
        "{problem}"
    );
    assert_eq!(chat.fake.count(), 0);
}

#[test]
fn a_budget_of_zero_is_a_usage_error() {
    let env = TestEnv::new();
    let output = env
        .cmd()
        .args(["align", "acme/support", "--budget", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let plan = env
        .cmd()
        .args(["align", "acme/support", "--dry-run", "--detach"])
        .output()
        .unwrap();
    assert_eq!(
        plan.status.code(),
        Some(2),
        "--dry-run runs nothing to detach"
    );
}

/// A real `arbiter serve` as the remote System One engine: its built-in engine behind
/// HTTP, counted by a forwarding proxy.
#[test]
fn an_alignment_over_a_real_arbiter_serve_learns_and_its_decisions_call_it_once() {
    let upstream = TestEnv::new();
    let token = upstream.admin_token("aligner");
    let served = upstream.serve_on_thread();
    let proxy = Proxy::start(served.url(), |_, _, _| Act::Pass);
    let calls = || {
        proxy
            .seen()
            .iter()
            .filter(|seen| seen.path == "/v1/systemone")
            .count()
    };
    let config = format!(
        "engines:\n  upstream: {{kind: systemone, url: '{}', model: mo, api_key_env: \
         UPSTREAM_TOKEN, timeout: 30, retries: 1}}\nmodels:\n  mo: upstream\n",
        proxy.url()
    );
    let env = env_on(&config, 40);
    let run = |args: &[&str]| {
        let output = env
            .cmd()
            .env("UPSTREAM_TOKEN", &token)
            .args(args)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice::<Value>(&output.stdout).unwrap()
    };

    let job = run(&["align", "acme/support", "-q", "intent"]);
    assert_eq!(job["status"], "completed", "{job}");
    let result = &job["result"];
    assert_eq!(result["engineCalls"]["calls"], 40, "{result}");
    assert_eq!(calls(), 40, "one call per annotated example");
    assert_eq!(result["improved"], true, "{result}");
    let branch = result["branch"].as_str().unwrap().to_owned();

    // Each decision at the new checkpoint is one call, as at the base.
    let state = env
        .write("state.json", crate::common::STATE)
        .display()
        .to_string();
    for revision in ["main", branch.as_str()] {
        let before = calls();
        let answer = run(&[
            "decide",
            "--model",
            "acme/support",
            "--revision",
            revision,
            "--state",
            &state,
        ]);
        assert_eq!(calls() - before, 1, "{revision}: {answer}");
    }

    // The checkpoint evaluates as any aligned one: its fitted examples by their
    // out-of-fold answers, which are the alignment's figures.
    let evaluation = run(&[
        "eval",
        "acme/support",
        "--revision",
        &branch,
        "-q",
        "intent",
    ]);
    let intent = &evaluation["questions"]["intent"];
    assert_eq!(intent["status"], "evaluated", "{evaluation}");
    assert_eq!(
        intent["outOfFold"]["accuracy"], result["questions"]["intent"]["after"]["accuracy"],
        "{evaluation}"
    );

    // Aligning again asks nothing: every answer is cached.
    let plan = run(&["align", "acme/support", "-q", "intent", "--dry-run"]);
    assert_eq!(
        plan["engineCalls"],
        json!({"engine": "upstream", "answers": 40, "cached": 40, "calls": 0}),
        "{plan}"
    );

    // The plan over HTTP, in client mode, is the same.
    let admin = env.admin_token("admin");
    // A plan calls no engine: the home's server needs no key for it.
    let downstream = env.serve_on_thread();
    let remote = env
        .cmd()
        .env("ARBITER_TOKEN", &admin)
        .args(["--server", downstream.url()])
        .args(["align", "acme/support", "-q", "intent", "--dry-run"])
        .output()
        .unwrap();
    assert!(
        remote.status.success(),
        "{}",
        String::from_utf8_lossy(&remote.stderr)
    );
    let remote: Value = serde_json::from_slice(&remote.stdout).unwrap();
    assert_eq!(remote, plan);
}

/// `--instructions` on a chat engine: every candidate is scored by the engine itself, one
/// request per answer read, the demonstrations in its prompt, counted as the plan said.
#[test]
fn instructions_on_a_chat_engine_are_scored_by_it_one_call_per_answer() {
    let chat = Chat::start(usize::MAX);
    let env = env_on(&chat_config(chat.fake.url()), 24);
    let args = [&ALIGN[..], &["--instructions"]].concat();
    let plan = env.json(&[&args[..], &["--dry-run"]].concat());
    let calls = plan["engineCalls"]["calls"].as_u64().unwrap();
    assert_eq!(plan["engineCalls"]["engine"], "chat", "{plan}");
    assert_eq!(chat.fake.count(), 0);
    let job = env.json(&args);
    assert_eq!(job["status"], "completed", "{job}");
    assert_eq!(job["result"]["engineCalls"]["calls"], calls, "{job}");
    assert_eq!(
        chat.fake.count() as u64,
        calls,
        "one request per answer read"
    );
    let prompts: Vec<String> = chat
        .fake
        .seen()
        .iter()
        .map(|seen| seen.body["messages"][1]["content"].to_string())
        .collect();
    assert!(
        prompts.iter().any(|p| p.contains("demonstrations")),
        "the candidates reach the engine in its prompt"
    );
    // The chat model answers every prompt alike: no set of demonstrations can gain.
    let intent = &job["result"]["questions"]["intent"];
    assert_eq!(intent["improved"], false, "{intent}");
    assert!(
        intent["reason"]
            .as_str()
            .unwrap()
            .starts_with("no set of demonstrations scored better"),
        "{intent}"
    );
}

/// An engine that answers a question with another type fails the alignment as its invalid
/// response, naming the engine and located at the question's answer; nothing is committed.
#[test]
fn an_answer_of_the_wrong_type_fails_the_alignment_naming_the_engine_and_the_question() {
    let fake = FakeUpstream::start(|_, body| {
        let mut answers = crate::fake_upstream::systemone_answers(body);
        answers["answers"]["intent"] = json!({"type": "noul", "noul": 0.5});
        FakeReply::ok(&answers)
    });
    let config = format!(
        "engines:\n  odd: {{kind: systemone, url: '{}', model: mo, retries: 0}}\nmodels:\n  mo: odd\n",
        fake.url()
    );
    let env = env_on(&config, 12);
    let problem = failed(&env, &ALIGN);
    let detail = problem["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("engine `odd`"), "{problem}");
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["provider_response", "answers", "intent", "type"]),
        "{problem}"
    );
    assert_eq!(branches(&env), ["main"]);
}
