//! The app's HTTP contract, with a plain client: off unless enabled; its headers; a login
//! with a token (and a failed one counted against the address); CSRF on every write; a
//! session that ends; `arbiter ui`'s one-time link.

use crate::common::TestEnv;
use crate::common::TestServer;
use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use std::time::Duration;

/// The client a browser would be, without following redirects (they are checked here).
fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_mins(1))
        .build()
        .unwrap()
}

/// A form post's body, as a browser sends it.
trait FormOf {
    fn form_of<K: AsRef<str>, V: AsRef<str>>(self, pairs: &[(K, V)]) -> Self;
}

impl FormOf for reqwest::RequestBuilder {
    fn form_of<K: AsRef<str>, V: AsRef<str>>(self, pairs: &[(K, V)]) -> Self {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs.iter().map(|(k, v)| (k.as_ref(), v.as_ref())))
            .finish();
        self.header("content-type", "application/x-www-form-urlencoded")
            .body(body)
    }
}

/// The session cookie a login answered with, as the browser sends it back.
fn session_cookie(headers: &HeaderMap) -> String {
    let set = headers["set-cookie"].to_str().unwrap();
    set.split(';').next().unwrap().to_owned()
}

/// Create a job at `collection` (a model's batch-decisions or evaluations) with `body`;
/// its ID.
async fn create_job(
    server: &TestServer,
    token: &str,
    collection: &str,
    body: &serde_json::Value,
) -> String {
    let created = server
        .post_json_with(
            collection,
            Some(token),
            body,
            &[("idempotency-key", collection)],
        )
        .await;
    assert_eq!(created.status, 202, "{}", created.text());
    created.json()["jobId"].as_str().unwrap().to_owned()
}

/// A form's hidden `csrf` value in a page.
fn csrf_of(page: &str) -> String {
    let at = page.find(r#"name="csrf" value=""#).expect("a form token") + 19;
    page[at..at + 64].to_owned()
}

async fn log_in(server: &TestServer, token: &str) -> String {
    let reply = client()
        .post(server.url("/ui/login"))
        .form_of(&[("token", token), ("next", "/ui/jobs")])
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::SEE_OTHER);
    assert_eq!(reply.headers()["location"], "/ui/jobs");
    session_cookie(reply.headers())
}

async fn get(server: &TestServer, path: &str, cookie: Option<&str>) -> reqwest::Response {
    let mut request = client().get(server.url(path));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    request.send().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_is_off_unless_the_server_settings_turn_it_on() {
    let server = TestEnv::new().serve().await;
    let reply = get(&server, "/ui/", None).await;
    assert_eq!(reply.status(), StatusCode::NOT_FOUND);
    assert_eq!(reply.headers()["content-type"], "application/problem+json");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_policy_and_a_page_asks_for_a_login_first() {
    let server = TestEnv::with_config("server:\n  ui: true\n").serve().await;
    for path in [
        "/ui/",
        "/ui/jobs",
        "/ui/login",
        "/ui/assets/app.js",
        "/ui/nowhere",
    ] {
        let reply = get(&server, path, None).await;
        let headers = reply.headers();
        assert_eq!(
            headers["content-security-policy"],
            arbiter::ui::app::POLICY,
            "{path}"
        );
        for (name, value) in [
            ("x-content-type-options", "nosniff"),
            ("x-frame-options", "DENY"),
            ("referrer-policy", "no-referrer"),
            ("cache-control", "no-store"),
        ] {
            assert_eq!(headers[name], value, "{path} {name}");
        }
    }
    let reply = get(&server, "/ui/jobs?x=1", None).await;
    assert_eq!(reply.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        reply.headers()["location"],
        "/ui/login?next=%2Fui%2Fjobs%3Fx%3D1"
    );
    let script = get(&server, "/ui/assets/app.js", None).await;
    assert_eq!(
        script.headers()["content-type"],
        "text/javascript; charset=utf-8"
    );
    let missing = get(&server, "/ui/nowhere", None).await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert!(missing.text().await.unwrap().contains("no page here"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_opens_a_strict_session_and_a_wrong_token_counts_against_the_address() {
    let env = TestEnv::with_config(
        "server:\n  ui: true\n  auth_failures:\n    burst: 3\n    per_second: 0.001\n",
    );
    let token = env.token("ana", &["models:read"], &["acme/*=reader"]);
    let server = env.serve().await;
    let reply = client()
        .post(server.url("/ui/login"))
        .form_of(&[("token", token.as_str()), ("next", "https://evil.example/")])
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::SEE_OTHER);
    assert_eq!(reply.headers()["location"], "/ui/", "never another site");
    let set = reply.headers()["set-cookie"].to_str().unwrap().to_owned();
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/ui", "Max-Age=43200"] {
        assert!(set.contains(attribute), "{set}");
    }
    assert!(!set.contains(&token), "the cookie is not the token: {set}");
    let cookie = session_cookie(reply.headers());
    let page = get(&server, "/ui/", Some(&cookie)).await;
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains(">ana<"));

    // Three wrong tokens are refused with the login page; the fourth try is 429, even
    // with the right token.
    for _ in 0..3 {
        let reply = client()
            .post(server.url("/ui/login"))
            .form_of(&[("token", "arb_nope_nope")])
            .send()
            .await
            .unwrap();
        assert_eq!(reply.status(), StatusCode::UNAUTHORIZED);
        assert!(reply.text().await.unwrap().contains("not valid"));
    }
    let reply = client()
        .post(server.url("/ui/login"))
        .form_of(&[("token", token.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_needs_the_sessions_form_token_from_a_page_of_this_origin() {
    let env = TestEnv::with_config("server:\n  ui: true\n");
    let model_id = env.model("acme/support");
    env.ingest(
        "acme/support",
        r#"{"example_id": "t-1", "state": {"text": "hello"}}"#,
    );
    let token = env.token(
        "ana",
        &["examples:read", "examples:write", "decisions"],
        &["acme/*=writer"],
    );
    let server = env.serve().await;
    let cookie = log_in(&server, &token).await;
    let page = get(
        &server,
        &format!("/ui/models/{model_id}/annotate"),
        Some(&cookie),
    )
    .await;
    assert_eq!(page.status(), StatusCode::OK);
    let csrf = csrf_of(&page.text().await.unwrap());
    let answer = |csrf: String, site: &'static str| {
        let cookie = cookie.clone();
        let url = server.url(&format!("/ui/models/{model_id}/annotate/answer"));
        async move {
            client()
                .post(url)
                .header("cookie", cookie)
                .header("sec-fetch-site", site)
                .form_of(&[
                    ("csrf", csrf.as_str()),
                    ("example", "t-1"),
                    ("question", "escalate"),
                    ("answer", "true"),
                ])
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    assert_eq!(
        answer(String::new(), "same-origin").await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        answer("0".repeat(64), "same-origin").await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        answer(csrf.clone(), "cross-site").await,
        StatusCode::FORBIDDEN
    );
    let shown = || {
        server
            .home()
            .json(&["examples", "show", "acme/support", "t-1"])
    };
    assert_eq!(
        shown()["annotations"],
        serde_json::json!({}),
        "nothing written"
    );
    assert_eq!(answer(csrf, "same-origin").await, StatusCode::SEE_OTHER);
    assert_eq!(shown()["annotations"]["escalate"]["answer"], true);
    assert_eq!(shown()["annotations"]["escalate"]["annotator"], "ana");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_ends_at_its_expiry_however_busy() {
    let env = TestEnv::with_config("server:\n  ui: true\n  ui_session_ttl: 1\n");
    let token = env.token("ana", &["models:read"], &["acme/*=reader"]);
    let server = env.serve().await;
    let cookie = log_in(&server, &token).await;
    assert_eq!(
        get(&server, "/ui/", Some(&cookie)).await.status(),
        StatusCode::OK
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        get(&server, "/ui/", Some(&cookie)).await.status(),
        StatusCode::OK
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let reply = get(&server, "/ui/", Some(&cookie)).await;
    assert_eq!(reply.status(), StatusCode::SEE_OTHER, "expired");
    assert_eq!(reply.headers()["location"], "/ui/login?next=%2Fui%2F");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logout_or_a_revoked_token_ends_a_session() {
    let env = TestEnv::with_config("server:\n  ui: true\n");
    let token = env.token("ana", &["models:read"], &["acme/*=reader"]);
    let other = env.token("bo", &["models:read"], &["acme/*=reader"]);
    let server = env.serve().await;
    let cookie = log_in(&server, &token).await;
    let page = get(&server, "/ui/", Some(&cookie))
        .await
        .text()
        .await
        .unwrap();
    let reply = client()
        .post(server.url("/ui/logout"))
        .header("cookie", &cookie)
        .form_of(&[("csrf", csrf_of(&page))])
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::SEE_OTHER);
    assert!(
        reply.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    assert_eq!(
        get(&server, "/ui/", Some(&cookie)).await.status(),
        StatusCode::SEE_OTHER
    );

    let cookie = log_in(&server, &other).await;
    assert_eq!(
        get(&server, "/ui/", Some(&cookie)).await.status(),
        StatusCode::OK
    );
    server.home().revoke("bo");
    assert_eq!(
        get(&server, "/ui/", Some(&cookie)).await.status(),
        StatusCode::SEE_OTHER
    );
}

/// `arbiter ui --port 0` as a process, and the login link it printed.
fn spawn_home_ui(env: &TestEnv) -> (crate::common::Running, String) {
    use std::io::BufRead as _;
    let mut child = env
        .std_cmd()
        .args(["ui", "--port", "0", "--no-browser"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut printed = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut printed)
        .unwrap();
    let link = printed
        .strip_prefix("open ")
        .and_then(|rest| rest.strip_suffix(" to log in (the link works once)\n"))
        .unwrap_or_else(|| panic!("{printed:?}"))
        .to_owned();
    (crate::common::Running::new(child), link)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arbiter_ui_serves_the_owner_on_loopback_after_a_one_time_link() {
    let env = TestEnv::new();
    env.model("acme/support");
    let (_running, link) = spawn_home_ui(&env);
    assert!(link.starts_with("http://127.0.0.1:"), "{link}");
    let base = link.split("/ui/").next().unwrap().to_owned();
    let wrong = client()
        .get(format!("{base}/ui/login?code=0123"))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let reply = client().get(&link).send().await.unwrap();
    assert_eq!(reply.status(), StatusCode::SEE_OTHER);
    assert_eq!(reply.headers()["location"], "/ui/");
    let cookie = session_cookie(reply.headers());
    assert!(cookie.starts_with("arbiter_home_session="), "{cookie}");
    let again = client().get(&link).send().await.unwrap();
    assert_eq!(
        again.status(),
        StatusCode::UNAUTHORIZED,
        "the link works once"
    );
    let page = client()
        .get(format!("{base}/ui/"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains("acme/support"));

    // The owner's session stands for nobody on `arbiter serve` over the same home.
    let secret = cookie.split_once('=').unwrap().1.to_owned();
    std::fs::write(env.home().join("config.yaml"), "server:\n  ui: true\n").unwrap();
    let served = env.spawn_serve();
    let reply = client()
        .get(format!("{}/ui/", served.address))
        .header("cookie", format!("arbiter_session={secret}"))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::SEE_OTHER);
    assert_eq!(reply.headers()["location"], "/ui/login?next=%2Fui%2F");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_examples_the_model_disagrees_with_are_those_its_answer_misses() {
    let env = TestEnv::with_config("server:\n  ui: true\n");
    let model_id = env.model("acme/support");
    let texts = [
        "my card was charged twice for the same order, I want one of them refunded",
        "the app crashes with error 500 whenever I open settings",
        "where is my parcel? it was due on Monday",
        "I was billed for a plan I cancelled last month",
    ];
    let lines: Vec<String> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            serde_json::json!({"example_id": format!("t-{i}"), "state": {"text": text},
                "annotations": {"intent": {"answer": "shipping"}}})
            .to_string()
        })
        .collect();
    env.ingest("acme/support", &lines.join("\n"));
    let token = env.admin_token("lead");
    let server = env.serve().await;
    // What the model answers each state at the default branch, asked as a decision.
    let mut missed = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let body = serde_json::json!({"model": "acme/support", "state": {"text": text}});
        let decision = server
            .post_json("/v1/decision", Some(&token), &body)
            .await
            .ok();
        if decision["answers"]["intent"]["choice"] != "shipping" {
            missed.push(format!("t-{i}"));
        }
    }
    // A refund is no shipping; a parcel is.
    assert!(missed.contains(&"t-0".to_owned()), "{missed:?}");
    assert!(!missed.contains(&"t-2".to_owned()), "{missed:?}");
    let cookie = log_in(&server, &token).await;
    let page = get(
        &server,
        &format!("/ui/models/{model_id}/examples?question=intent&disagree=on"),
        Some(&cookie),
    )
    .await;
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    let listed: Vec<String> = (0..texts.len())
        .map(|i| format!("t-{i}"))
        .filter(|id| page.contains(&format!("<code>{id}</code>")))
        .collect();
    assert_eq!(listed, missed, "{page}");
    // Without a question, a disagreement has nothing to be with.
    let refused = get(
        &server,
        &format!("/ui/models/{model_id}/examples?disagree=on"),
        Some(&cookie),
    )
    .await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // A NUL in a filter is refused where it is, as the API refuses it.
    let nul = get(
        &server,
        &format!("/ui/models/{model_id}/examples?text=a%00b"),
        Some(&cookie),
    )
    .await;
    assert_eq!(nul.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(nul.text().await.unwrap().contains("query.text"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_job_is_cancelled_from_the_jobs_page() {
    let env = TestEnv::with_config("server:\n  ui: true\n");
    let model_id = env.model("acme/support");
    let lines: Vec<String> = (0..300)
        .map(|i| {
            serde_json::json!({"example_id": format!("t-{i}"), "state": {"text": format!("ticket {i}: my order has not arrived")}})
                .to_string()
        })
        .collect();
    env.ingest("acme/support", &lines.join("\n"));
    let token = env.admin_token("lead");
    let server = env.serve().await;
    let job_id = create_job(
        &server,
        &token,
        &format!("/v1/models/{model_id}/batch-decisions"),
        &serde_json::json!({"examples": "all"}),
    )
    .await;
    let cookie = log_in(&server, &token).await;
    let page = get(&server, "/ui/jobs", Some(&cookie))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        page.contains(&format!("/ui/jobs/{job_id}/cancel")),
        "{page}"
    );
    let reply = client()
        .post(server.url(&format!("/ui/jobs/{job_id}/cancel")))
        .header("cookie", &cookie)
        .form_of(&[("csrf", csrf_of(&page))])
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::SEE_OTHER);
    assert_eq!(reply.headers()["location"], format!("/ui/jobs/{job_id}"));
    let job = server
        .get(&format!("/v1/jobs/{job_id}"), Some(&token))
        .await
        .ok();
    assert!(
        job["cancelRequested"] == true || job["status"] == "cancelled",
        "{job}"
    );
    let page = get(&server, &format!("/ui/jobs/{job_id}"), Some(&cookie)).await;
    assert_eq!(page.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_evaluation_page_judges_the_gates_of_the_revision() {
    let env = TestEnv::with_config("server:\n  ui: true\n");
    let request = arbiter::core::models::CreateModel {
        path: "acme/support".parse().unwrap(),
        base: "mo".to_owned(),
        questions_yaml: Some(crate::common::QUESTIONS.to_owned()),
        gates_yaml: Some("intent: {accuracy: 0.99}\n".to_owned()),
        capture: arbiter::core::model_files::CapturePolicy::default(),
        message: None,
    };
    let model_id = arbiter::core::models::create(env.ctx(), &request)
        .unwrap()
        .model_id
        .to_string();
    let lines: Vec<String> = [
        ("where is my parcel? it was due on Monday", "shipping"),
        ("the app crashes with error 500", "shipping"),
        ("I want my money back for order 12", "refund"),
    ]
    .iter()
    .enumerate()
    .map(|(i, (text, intent))| {
        serde_json::json!({"example_id": format!("t-{i}"), "state": {"text": text},
            "annotations": {"intent": {"answer": intent}}})
        .to_string()
    })
    .collect();
    env.ingest("acme/support", &lines.join("\n"));
    let token = env.admin_token("lead");
    let server = env.serve().await;
    let job_id = create_job(
        &server,
        &token,
        &format!("/v1/models/{model_id}/evaluations"),
        &serde_json::json!({}),
    )
    .await;
    let job = crate::common::wait_until_async(
        Duration::from_mins(1),
        Duration::from_millis(100),
        || async {
            let job = server
                .get(&format!("/v1/jobs/{job_id}"), Some(&token))
                .await
                .ok();
            if crate::common::job_finished(&job) {
                Ok(job)
            } else {
                Err(format!("the evaluation is {job}"))
            }
        },
    )
    .await;
    assert_eq!(job["status"], "completed", "{job}");
    let accuracy = job["result"]["questions"]["intent"]["metrics"]["accuracy"]
        .as_f64()
        .unwrap();
    assert!(accuracy < 0.99, "{job}");
    let cookie = log_in(&server, &token).await;
    let page = get(&server, &format!("/ui/jobs/{job_id}"), Some(&cookie)).await;
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    assert!(page.contains("Gates failed."), "{page}");
    assert!(page.contains("accuracy ≥ 0.99 (gates.yaml)"), "{page}");
    assert!(
        page.contains(&format!(
            "accuracy {accuracy:.4} is below 0.99 (gates.yaml)"
        )),
        "{page}"
    );
}
