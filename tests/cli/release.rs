//! Releases: the archive `dist/package.sh` makes holds exactly what it should and its
//! checksum verifies.

use crate::common::{process_dir, repo_root};
use sha2::{Digest as _, Sha256};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Where the project's releases are published (Cargo.toml's `repository`, and
/// `/releases`).
pub(crate) const RELEASES_URL: &str = "https://github.com/arbiter-dev/arbiter/releases";
/// The tag the test build would be released under.
pub(crate) const RELEASE_TAG: &str = concat!("v", env!("CARGO_PKG_VERSION"));

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

/// The assets of a release of the test build for this machine: `arbiter-<target>.tar.gz`
/// (from `dist/package.sh`) and its `.sha256`. Packaged once per test process.
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
        dir
    })
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

/// `cargo binstall` finds the archive and the binary in it from Cargo.toml's
/// `[package.metadata.binstall]`, as cargo reads it.
#[test]
fn binstall_metadata_names_the_archive_and_its_binary() {
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
    let package = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "arbiter")
        .unwrap();
    let repository = package["repository"].as_str().unwrap();
    assert_eq!(format!("{repository}/releases"), RELEASES_URL);
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
