//! The hostile corpus (`tests/data/hostile.jsonl`, issue 37): every kind of input an
//! attacker tried, each a raw HTTP request with the answer it must get, sent over a real
//! socket to a real server on SQLite and on PostgreSQL. Every answer is a 4xx (or the 2xx
//! the corpus names), none a 5xx, each costing the server (a process of its own) under
//! 1 s of CPU and answered within 10 s (at its cheapest and fastest of three tries), and
//! both stores answer every case with the same status, problem code and located details.
//!
//! A case is one JSON line: `case` (its name), `method`, `path`, `headers` (`[name, value]`
//! pairs, sent as given), `body` (a JSON value, sent as `application/json` unless a
//! `content-type` header is given) or `raw` (a text sent as it is), `token` (`"admin"`,
//! the default, or `"none"`), and `expect`: `[status, code]` (`code` null for a success),
//! with the `loc` of the first located detail third when the answer has one.
//! So that a case stays one readable line, every text in it (path, header values, `raw`,
//! and the strings and keys of `body`) expands `«TEXT*N»` to TEXT repeated N times; in
//! `body`, an object `{"«N»": V}` becomes N members `"0"`…`"N-1"`, each V, and an array
//! `["«N»", V]` becomes N copies of V. `{model}` in a path is the model's ID.

use crate::common::{Served, TestEnv};
use serde_json::{Map, Value, json};
use std::fmt::Write as _;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// The corpus, as committed.
const CORPUS: &str = include_str!("../data/hostile.jsonl");

/// The most CPU time the server may spend on any case (at its cheapest of three tries,
/// when the first costs more). A quadratic parse costs it every time, however busy the
/// machine; an answer's wall time is stretched by whatever else runs (two tests share
/// CI's 2 cores), which is why the server is a process of its own, measured alone.
const WITHIN: Duration = Duration::from_secs(1);
/// The longest an answer may take on the wall clock (at its fastest of three tries): a
/// wait that costs no CPU (a lock, a timer) shows here.
const WAIT_WITHIN: Duration = Duration::from_secs(10);

/// One case of the corpus, read from its line.
struct Case {
    name: String,
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Option<Vec<u8>>,
    token: bool,
    expect: (u16, Option<String>),
    /// Where the first located detail must point, when the case says.
    loc: Option<Value>,
}

/// What a store answered to one case: its status, problem code and the `loc` and `type`
/// of each located detail.
#[derive(Debug, PartialEq)]
struct Answer {
    status: u16,
    code: Option<String>,
    details: Vec<(Value, Value)>,
}

/// `«TEXT*N»` expanded to TEXT repeated N times, everywhere in `text`.
fn expand(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('«') {
        out.push_str(&rest[..start]);
        let tail = &rest[start + '«'.len_utf8()..];
        let end = tail.find('»').expect("a «…» is closed");
        let (unit, count) = tail[..end].rsplit_once('*').expect("«TEXT*N»");
        out.push_str(&unit.repeat(count.parse().expect("«TEXT*N»: N is a count")));
        rest = &tail[end + '»'.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// `«N»` as a count, if `text` is exactly that.
fn count(text: &str) -> Option<usize> {
    text.strip_prefix('«')?.strip_suffix('»')?.parse().ok()
}

/// A body's value with its texts expanded and its `«N»` members and items multiplied.
fn build(value: &Value) -> Value {
    match value {
        Value::String(text) => Value::String(expand(text)),
        Value::Array(items) => match items.as_slice() {
            [Value::String(n), item] if count(n).is_some() => {
                Value::Array(vec![build(item); count(n).unwrap()])
            }
            _ => Value::Array(items.iter().map(build).collect()),
        },
        Value::Object(members) => {
            if let Some((n, item)) = members.iter().next().filter(|_| members.len() == 1)
                && let Some(n) = count(n)
            {
                let item = build(item);
                return Value::Object((0..n).map(|i| (i.to_string(), item.clone())).collect());
            }
            Value::Object(
                members
                    .iter()
                    .map(|(key, item)| (expand(key), build(item)))
                    .collect::<Map<_, _>>(),
            )
        }
        other => other.clone(),
    }
}

fn parse(line: &str) -> Case {
    let case: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    let text = |key: &str| case[key].as_str().map(ToOwned::to_owned);
    let name = text("case").expect("a case has a name");
    let mut headers: Vec<(String, String)> = case["headers"]
        .as_array()
        .map(|pairs| {
            pairs
                .iter()
                .map(|pair| {
                    let pair: (String, String) = serde_json::from_value(pair.clone())
                        .unwrap_or_else(|e| panic!("{name}: a header is [name, value]: {e}"));
                    (pair.0, expand(&pair.1))
                })
                .collect()
        })
        .unwrap_or_default();
    let body = match (&case["body"], text("raw")) {
        (Value::Null, None) => None,
        (Value::Null, Some(raw)) => Some(expand(&raw).into_bytes()),
        (body, None) => {
            if !headers
                .iter()
                .any(|(h, _)| h.eq_ignore_ascii_case("content-type"))
            {
                headers.push(("content-type".into(), "application/json".into()));
            }
            Some(serde_json::to_vec(&build(body)).unwrap())
        }
        (_, Some(_)) => panic!("{name}: body or raw, not both"),
    };
    let expect = case["expect"].as_array().expect("expect: [status, code]");
    Case {
        method: text("method").unwrap_or_else(|| "GET".into()),
        path: expand(&text("path").expect("a path")),
        headers,
        body,
        token: text("token").as_deref() != Some("none"),
        expect: (
            u16::try_from(expect[0].as_u64().expect("a status")).unwrap(),
            expect[1].as_str().map(ToOwned::to_owned),
        ),
        loc: expect.get(2).map(build),
        name,
    }
}

/// The corpus's cases, each line that is not blank.
fn corpus() -> Vec<Case> {
    CORPUS
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(parse)
        .collect()
}

/// The raw request of `case`, as bytes on the wire.
fn request(case: &Case, model: &str, token: &str) -> Vec<u8> {
    let path = case.path.replace("{model}", model);
    let mut head = format!("{} {path} HTTP/1.1\r\nhost: x\r\n", case.method);
    if case.token {
        let _ = write!(head, "authorization: Bearer {token}\r\n");
    }
    for (name, value) in &case.headers {
        let _ = write!(head, "{name}: {value}\r\n");
    }
    let declared = case
        .headers
        .iter()
        .any(|(h, _)| h.eq_ignore_ascii_case("content-length"));
    if let (Some(body), false) = (&case.body, declared) {
        let _ = write!(head, "content-length: {}\r\n", body.len());
    }
    head.push_str("connection: close\r\n\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend(case.body.iter().flatten());
    bytes
}

/// One answer read off `stream`: its status and body (de-chunked), as far as its head
/// says; `None` when the server closed before a whole answer.
async fn read_answer(stream: &mut (impl tokio::io::AsyncRead + Unpin)) -> Option<(u16, Vec<u8>)> {
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 16 * 1024];
    loop {
        if let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&bytes[..end]).to_ascii_lowercase();
            let status = head.get(9..12)?.parse().ok()?;
            let body = &bytes[end + 4..];
            let header = |name: &str| {
                head.lines()
                    .find_map(|line| line.strip_prefix(name).map(|v| v.trim().to_owned()))
            };
            if header("transfer-encoding:").is_some_and(|v| v == "chunked") {
                if let Some(body) = dechunk(body) {
                    return Some((status, body));
                }
            } else {
                let length = header("content-length:").map_or(0, |n| n.parse().unwrap_or(0));
                if body.len() >= length {
                    return Some((status, body[..length].to_vec()));
                }
            }
        }
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
        }
    }
}

/// A chunked body, once its last chunk has arrived.
fn dechunk(mut bytes: &[u8]) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line = bytes.windows(2).position(|w| w == b"\r\n")?;
        let size =
            usize::from_str_radix(std::str::from_utf8(&bytes[..line]).ok()?.trim(), 16).ok()?;
        if size == 0 {
            return Some(body);
        }
        let data = bytes.get(line + 2..line + 2 + size)?;
        body.extend_from_slice(data);
        bytes = bytes.get(line + 4 + size..)?;
    }
}

/// Send `bytes` over a fresh connection; the answer and how long it took. The request is
/// written while the answer is read, since the server may answer early (a 413, a 431) and
/// stop reading: what it answered is what counts.
async fn send(addr: std::net::SocketAddr, bytes: Vec<u8>) -> (Option<(u16, Vec<u8>)>, Duration) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let started = Instant::now();
    let (mut reader, mut writer) = stream.split();
    let writing = async {
        let _ = writer.write_all(&bytes).await;
        std::future::pending::<()>().await;
    };
    let answer = tokio::select! {
        () = writing => unreachable!(),
        answer = tokio::time::timeout(Duration::from_secs(30), read_answer(&mut reader)) => {
            answer.unwrap_or(None)
        }
    };
    (answer, started.elapsed())
}

/// `arbiter serve` on `home`, with an example to annotate and each built-in encoder
/// loaded before any case is timed; where it listens.
async fn serve_warm(home: &TestEnv, token: &str) -> (Served, std::net::SocketAddr) {
    // Blocks until the process says where it listens; nothing else runs on this runtime yet.
    let served = home.spawn_serve();
    let addr = served.address["http://".len()..].parse().unwrap();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let decision = json!({"model": "acme/support", "state": "hi", "example_id": "e1"});
    let warm = ["mo", "jev-latest"].map(crate::common::base_request);
    for body in std::iter::once(&decision).chain(&warm) {
        client
            .post(format!("{}/v1/decision", served.address))
            .bearer_auth(token)
            .json(body)
            .send()
            .await
            .ok();
    }
    (served, addr)
}

/// The corpus against a server on `database` (`None`: SQLite): each case's answer, and
/// every way an answer broke the rules (a 5xx, costlier than [`WITHIN`] or slower than
/// [`WAIT_WITHIN`], not what the corpus expects, a refusal that is not a problem
/// document).
async fn run(store: &str, database: Option<String>) -> (Vec<Answer>, Vec<String>) {
    // As fast as the corpus sends: the rate limits would only add 429s.
    let config = "server:\n  rate_limit: {per_second: 100000, burst: 100000}\n  \
                  auth_failures: {per_second: 100000, burst: 100000}\n";
    let (home, token, model) = crate::hostile::home_with_model(config.to_owned(), database).await;
    let (served, addr) = serve_warm(&home, &token).await;
    // The case's answer, how long it took, and the server's CPU time for it.
    let timed = |case: &Case| {
        let bytes = request(case, &model, &token);
        let served = &served;
        async move {
            let before = served.cpu_time();
            let (answer, took) = send(addr, bytes).await;
            (answer, took, served.cpu_time().saturating_sub(before))
        }
    };
    let mut answers = Vec::new();
    let mut broken = Vec::new();
    for case in corpus() {
        let (answer, took, cost) = timed(&case).await;
        let name = format!("{store}, {}", case.name);
        let Some((status, body)) = answer else {
            broken.push(format!(
                "{name}: no answer (the connection closed) after {took:?}"
            ));
            answers.push(Answer {
                status: 0,
                code: None,
                details: Vec::new(),
            });
            continue;
        };
        let problem: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let text = String::from_utf8_lossy(&body);
        let answer = Answer {
            status,
            code: problem["code"].as_str().map(ToOwned::to_owned),
            details: problem["details"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|d| (d["loc"].clone(), d["type"].clone()))
                .collect(),
        };
        let shown = || text.chars().take(300).collect::<String>();
        if status >= 500 {
            broken.push(format!("{name}: {status}: {}", shown()));
        }
        // A costly or slow answer is timed again (twice at most): a quadratic parse or a
        // hang is so every time.
        let (mut cheapest, mut fastest) = (cost, took);
        for _ in 0..2 {
            if cheapest < WITHIN && fastest < WAIT_WITHIN {
                break;
            }
            let (_, took, cost) = timed(&case).await;
            (cheapest, fastest) = (cheapest.min(cost), fastest.min(took));
        }
        if cheapest >= WITHIN {
            broken.push(format!(
                "{name}: cost the server {cost:?} of CPU, then {cheapest:?} at best"
            ));
        }
        if fastest >= WAIT_WITHIN {
            broken.push(format!(
                "{name}: answered after {took:?}, then {fastest:?} at best"
            ));
        }
        if (answer.status, answer.code.clone()) != case.expect
            || (status >= 400) != answer.code.is_some()
        {
            broken.push(format!(
                "{name}: expected {:?}, got {status}: {}",
                case.expect,
                shown()
            ));
        }
        if let Some(loc) = &case.loc
            && answer.details.first().map(|(at, _)| at) != Some(loc)
        {
            broken.push(format!(
                "{name}: expected the first detail at {loc}, got {}",
                shown()
            ));
        }
        answers.push(answer);
    }
    tokio::task::spawn_blocking(move || served.stop())
        .await
        .unwrap();
    (answers, broken)
}

/// The corpus on SQLite and on PostgreSQL (the test starts its own; without one installed
/// only SQLite runs, and `ARBITER_REQUIRE_POSTGRES=1` makes that a failure): 0 5xx, every
/// answer within 1 s of the server's CPU (and 10 s on the wall clock), the answer each case expects, and the same status, problem code and
/// located details from both stores.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hostile_corpus_is_answered_alike_on_both_stores_without_a_5xx() {
    let cases = corpus();
    assert!(cases.len() >= 100, "{} cases", cases.len());
    let postgresql = tokio::task::spawn_blocking(arbiter_testing::postgres::database)
        .await
        .unwrap();
    let (sqlite, mut broken) = run("sqlite", None).await;
    if let Some(url) = postgresql {
        let (postgres, also) = run("postgresql", Some(url)).await;
        broken.extend(also);
        for ((case, on_sqlite), on_postgres) in cases.iter().zip(&sqlite).zip(&postgres) {
            if on_sqlite != on_postgres {
                broken.push(format!(
                    "{}: SQLite answered {on_sqlite:?}, PostgreSQL {on_postgres:?}",
                    case.name
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} broken:\n{}",
        broken.len(),
        broken.join("\n")
    );
}
