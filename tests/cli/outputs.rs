//! A path the user names for an output is theirs: a new file or directory gets exactly the
//! mode the user's umask gives, an existing one keeps its mode and owner, and a path that is
//! not a regular file (`/dev/null`, a FIFO) is written as it is. These run as root in CI,
//! where a chmod of `/dev/null` succeeds and breaks every other user of the machine.

use crate::common::{QUESTIONS, TestEnv};
use std::os::unix::fs::{FileTypeExt as _, PermissionsExt as _};
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::Output;

fn env_with_model() -> TestEnv {
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    env.write(
        "states.jsonl",
        "{\"state\":\"my card was charged twice\"}\n{\"state\":\"where is my parcel?\"}\n",
    );
    env
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o7777
}

/// `arbiter args…` started under `umask`, as a user's shell would start it.
fn run_under_umask(env: &TestEnv, umask: u32, args: &[&str]) -> Output {
    let mut cmd = env.std_cmd();
    cmd.args(args);
    // SAFETY: umask is async-signal-safe and touches nothing but the child's mask.
    unsafe {
        cmd.pre_exec(move || {
            libc::umask(umask as libc::mode_t);
            Ok(())
        });
    }
    let output = cmd.output().unwrap();
    assert!(
        output.status.success(),
        "arbiter {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn batch_to(env: &TestEnv, umask: u32, out: &Path) -> Output {
    run_under_umask(
        env,
        umask,
        &[
            "batch",
            "acme/support",
            "--input",
            "states.jsonl",
            "--output",
            out.to_str().unwrap(),
        ],
    )
}

#[test]
fn dev_null_as_the_output_keeps_its_mode() {
    let env = env_with_model();
    let dev_null = Path::new("/dev/null");
    let before = mode(dev_null);
    // Stored examples, as a user runs it, and an input file: both write through --output.
    env.cmd()
        .args([
            "batch",
            "acme/support",
            "--input",
            "states.jsonl",
            "--capture",
        ])
        .assert()
        .success();
    let runs = [
        &[
            "batch",
            "acme/support",
            "--examples",
            "all",
            "--output",
            "/dev/null",
        ][..],
        &[
            "batch",
            "acme/support",
            "--input",
            "states.jsonl",
            "--output",
            "/dev/null",
        ],
    ];
    for args in runs {
        let output = run_under_umask(&env, 0o022, args);
        let after = mode(dev_null);
        if after != before {
            // Put the machine back before failing: every other process needs /dev/null.
            let _ = std::fs::set_permissions(dev_null, std::fs::Permissions::from_mode(before));
            panic!("arbiter {args:?} changed /dev/null from {before:o} to {after:o}");
        }
        // stdout has the job's summary; its result lines went to /dev/null.
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("\"completed\""), "{stdout}");
        assert!(!stdout.contains("\"answers\""), "{stdout}");
    }
    assert!(
        std::fs::metadata(dev_null)
            .unwrap()
            .file_type()
            .is_char_device()
    );
}

#[test]
fn a_new_output_gets_exactly_the_mode_the_umask_gives() {
    let env = env_with_model();
    for umask in [0o022, 0o027, 0o002, 0o077] {
        let out = env.path().join(format!("answers-{umask:o}.jsonl"));
        batch_to(&env, umask, &out);
        assert_eq!(mode(&out), 0o666 & !umask, "--output under umask {umask:o}");
        assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 2);

        // Directories arbiter creates, parents included, and the files in them.
        let dir = env.path().join(format!("share-{umask:o}/completions"));
        run_under_umask(
            &env,
            umask,
            &["completions", "--dir", dir.to_str().unwrap()],
        );
        for made in [dir.parent().unwrap(), &dir] {
            assert_eq!(mode(made), 0o777 & !umask, "{}", made.display());
        }
        assert_eq!(mode(&dir.join("arbiter.bash")), 0o666 & !umask);

        let man = env.path().join(format!("man-{umask:o}"));
        run_under_umask(&env, umask, &["man", "--dir", man.to_str().unwrap()]);
        assert_eq!(mode(&man), 0o777 & !umask);
        assert_eq!(mode(&man.join("arbiter.1")), 0o666 & !umask);

        let document = env.path().join(format!("openapi-{umask:o}.json"));
        run_under_umask(
            &env,
            umask,
            &["openapi", "--out", document.to_str().unwrap()],
        );
        assert_eq!(mode(&document), 0o666 & !umask);
    }
}

#[test]
fn an_existing_output_keeps_its_mode_and_gets_only_the_new_contents() {
    let env = env_with_model();
    let out = env.path().join("private.jsonl");
    std::fs::write(&out, "x".repeat(100_000)).unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o600)).unwrap();
    batch_to(&env, 0o022, &out);
    assert_eq!(mode(&out), 0o600);
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 2, "the old contents are gone: {text}");

    // An existing directory (here a private one) keeps its mode; the files in it are new.
    let dir = env.path().join("mine");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    run_under_umask(&env, 0o022, &["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&dir.join("arbiter.1")), 0o644);
}

#[test]
fn a_symlink_is_written_through_and_stays_a_symlink() {
    let env = env_with_model();
    let target = env.path().join("target.jsonl");
    std::fs::write(&target, "old\n").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = env.path().join("link.jsonl");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    batch_to(&env, 0o022, &link);
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(mode(&target), 0o640);
    assert_eq!(std::fs::read_to_string(&target).unwrap().lines().count(), 2);
}

#[test]
fn a_fifo_is_written_as_it_is() {
    let env = env_with_model();
    let fifo = env.path().join("answers.fifo");
    let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a plain mkfifo(3) on a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    batch_to(&env, 0o022, &fifo);
    let read = reader.join().unwrap();
    assert_eq!(read.lines().count(), 2, "{read}");
    let meta = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(
        meta.file_type().is_fifo(),
        "still the FIFO, not a file put in its place"
    );
    assert_eq!(mode(&fifo), 0o600);
}
