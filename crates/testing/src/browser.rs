//! A real headless Chromium for tests, driven over the W3C WebDriver protocol (JSON over
//! HTTP): `chromedriver` started on a free loopback port for each [`Browser`], one session
//! in a 1280×800 window, both gone when it is dropped.
//!
//! The driver is `ARBITER_TEST_CHROMEDRIVER`, else `chromedriver` on the `PATH` (Debian's
//! `chromium-driver`, which finds `chromium`). When there is none, [`Browser::start`]
//! returns `None` and says how to run these tests, unless `ARBITER_REQUIRE_BROWSER` is set
//! (as `.ci/run` does): then a missing browser is a failure, never a silent skip.

use base64::Engine as _;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Once;
use std::time::{Duration, Instant};

/// How to get these tests to run, said when they are skipped.
pub const HOW_TO_RUN: &str = "Browser tests skipped: no chromedriver found. Install Debian's \
     packages (`apt-get install chromium chromium-driver`) or set ARBITER_TEST_CHROMEDRIVER to \
     a chromedriver; `.ci/run` always runs them.";

/// The window every page is looked at in (and screenshot at).
pub const WINDOW: (u32, u32) = (1280, 800);

static SAID: Once = Once::new();

/// A headless Chromium, its driver and one session.
pub struct Browser {
    runtime: tokio::runtime::Runtime,
    http: reqwest::Client,
    /// `http://127.0.0.1:<port>/session/<id>`.
    session: String,
    driver: Child,
}

impl Browser {
    /// A fresh browser; `None` (after saying how to run these tests) when no driver is
    /// installed.
    ///
    /// # Panics
    /// When a driver is installed but does not start, or is required and missing.
    pub fn start() -> Option<Self> {
        let Some(driver) = driver_path() else {
            assert!(
                std::env::var_os("ARBITER_REQUIRE_BROWSER").is_none(),
                "ARBITER_REQUIRE_BROWSER is set but {HOW_TO_RUN}"
            );
            #[allow(clippy::print_stderr)] // the test's own output: how to run it
            SAID.call_once(|| eprintln!("{HOW_TO_RUN}"));
            return None;
        };
        let port = free_port();
        let child = Command::new(&driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {}: {e}", driver.display()));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let mut browser = Self {
            runtime,
            http: reqwest::Client::new(),
            session: String::new(),
            driver: child,
        };
        let (width, height) = WINDOW;
        let capabilities = json!({
            "capabilities": {
                "alwaysMatch": {
                    "goog:chromeOptions": {
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu",
                            "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
                            "--hide-scrollbars", format!("--window-size={width},{height}"),
                        ],
                    },
                    "goog:loggingPrefs": { "browser": "ALL" },
                }
            }
        });
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(30);
        let created = loop {
            match browser.request(
                reqwest::Method::POST,
                &format!("{base}/session"),
                Some(&capabilities),
            ) {
                Ok(created) => break created,
                Err(e) if Instant::now() > deadline => {
                    panic!("chromedriver on port {port} gave no session in 30 s: {e}")
                }
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        };
        let id = created["sessionId"].as_str().expect("a session ID");
        browser.session = format!("{base}/session/{id}");
        browser.command(
            reqwest::Method::POST,
            "window/rect",
            Some(&json!({ "width": width, "height": height })),
        );
        Some(browser)
    }

    /// One WebDriver request; its `value`, or the error it answered with.
    fn request(
        &self,
        method: reqwest::Method,
        url: &str,
        body: Option<&Value>,
    ) -> Result<Value, String> {
        self.runtime.block_on(async {
            let mut request = self.http.request(method, url);
            if let Some(body) = body {
                request = request.json(body);
            }
            let response = request.send().await.map_err(|e| e.to_string())?;
            let status = response.status();
            let answer: Value = response.json().await.map_err(|e| e.to_string())?;
            if status.is_success() {
                Ok(answer["value"].clone())
            } else {
                Err(format!("{status}: {}", answer["value"]))
            }
        })
    }

    /// A command of this session (`path` under `/session/<id>/`).
    fn command(&self, method: reqwest::Method, path: &str, body: Option<&Value>) -> Value {
        let url = format!("{}/{path}", self.session);
        self.request(method, &url, body)
            .unwrap_or_else(|e| panic!("webdriver {path}: {e}"))
    }

    /// Open `url` and wait for its document to load.
    pub fn goto(&mut self, url: &str) {
        self.command(reqwest::Method::POST, "url", Some(&json!({ "url": url })));
    }

    /// Run `script` (a function body; `arguments` holds `args`) in the page and return what
    /// it returns. WebDriver's scripts run whatever the page's policy forbids.
    pub fn execute(&mut self, script: &str, args: Vec<Value>) -> Value {
        let body = json!({ "script": script, "args": args });
        self.command(reqwest::Method::POST, "execute/sync", Some(&body))
    }

    /// Type `keys` into whatever has the focus, one key at a time, as a person at the
    /// keyboard would (`\u{E007}` is Enter).
    pub fn keys(&mut self, keys: &str) {
        let actions: Vec<Value> = keys
            .chars()
            .flat_map(|key| {
                [
                    json!({ "type": "keyDown", "value": key.to_string() }),
                    json!({ "type": "keyUp", "value": key.to_string() }),
                ]
            })
            .collect();
        let body = json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] });
        self.command(reqwest::Method::POST, "actions", Some(&body));
    }

    /// The address of the page shown.
    pub fn url(&mut self) -> String {
        self.command(reqwest::Method::GET, "url", None)
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Wait until `script` (a function body) returns something other than `null`, `false`
    /// or nothing, and return it: a page loaded after a form was posted, say.
    ///
    /// # Panics
    /// When it does not within 30 s.
    pub fn wait_for(&mut self, script: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let body = json!({ "script": script, "args": [] });
            let url = format!("{}/execute/sync", self.session);
            // A page being replaced answers with an error for a moment: try again.
            if let Ok(value) = self.request(reqwest::Method::POST, &url, Some(&body))
                && !matches!(value, Value::Null | Value::Bool(false))
            {
                return value;
            }
            assert!(
                Instant::now() < deadline,
                "waited 30 s for the page to show `{script}`"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The page as a PNG, written to `path`.
    pub fn screenshot(&mut self, path: &Path) {
        let encoded = self.command(reqwest::Method::GET, "screenshot", None);
        let png = base64::engine::general_purpose::STANDARD
            .decode(encoded.as_str().expect("a screenshot"))
            .expect("a base64 screenshot");
        std::fs::write(path, png).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
    }

    /// What the page wrote to its console since the last call (Chromium's `browser` log,
    /// which also holds what the page's policy refused): each entry's level and message.
    pub fn console(&mut self) -> Vec<(String, String)> {
        let entries = self.command(
            reqwest::Method::POST,
            "se/log",
            Some(&json!({ "type": "browser" })),
        );
        entries
            .as_array()
            .map(|entries| {
                entries
                    .iter()
                    .map(|e| {
                        let field = |k: &str| e[k].as_str().unwrap_or_default().to_owned();
                        (field("level"), field("message"))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Browser {
    /// What the page logged as an error since the last call (a resource that failed, what
    /// its policy refused): the `SEVERE` entries of [`Browser::console`].
    pub fn errors(&mut self) -> Vec<String> {
        self.console()
            .into_iter()
            .filter(|(level, _)| level == "SEVERE")
            .map(|(_, message)| message)
            .collect()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.request(reqwest::Method::DELETE, &self.session.clone(), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn driver_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("ARBITER_TEST_CHROMEDRIVER") {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromedriver"))
            .find(|path| path.is_file())
    })
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free loopback port")
}
