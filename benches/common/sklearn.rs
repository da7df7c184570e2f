//! The learning bench's scikit-learn baselines (`benches/baselines.py`): a virtualenv made
//! once under `target/`, a set's rows and the tasks fitted on them sent in one run of the
//! script, the predictions read back.

use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// The version fitted with: a later one may choose its strengths differently.
const SCIKIT_LEARN: &str = "scikit-learn==1.7.2";

/// A Python with scikit-learn: `LEARNING_PYTHON`, else the bench's own virtualenv, made
/// (and scikit-learn installed into it from `PyPI`) when it is missing.
pub(crate) fn python() -> PathBuf {
    if let Ok(python) = std::env::var("LEARNING_PYTHON") {
        return PathBuf::from(python);
    }
    let venv = PathBuf::from(ROOT).join("target/learning-venv");
    let python = venv.join("bin/python");
    let has = |python: &PathBuf| {
        Command::new(python)
            .args(["-c", "import sklearn"])
            .status()
            .is_ok_and(|s| s.success())
    };
    if !has(&python) {
        eprintln!("making {} with {SCIKIT_LEARN}", venv.display());
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .is_ok_and(|s| s.success());
        assert!(made, "python3 -m venv {} failed", venv.display());
        let installed = Command::new(venv.join("bin/pip"))
            .args([
                "install",
                "--quiet",
                "--disable-pip-version-check",
                SCIKIT_LEARN,
            ])
            .status()
            .is_ok_and(|s| s.success());
        assert!(
            installed && has(&python),
            "installing {SCIKIT_LEARN} failed"
        );
    }
    python
}

/// One fit: train on `train` (row indices, with `labels`), predict `test`.
pub(crate) struct Task {
    pub(crate) train: Vec<usize>,
    pub(crate) labels: Vec<usize>,
    pub(crate) test: Vec<usize>,
    pub(crate) seed: u64,
}

/// Each task's predicted labels per baseline (`tfidf`, `frozen/<encoder>`), in task order.
pub(crate) fn run(
    set: &str,
    texts: &[String],
    embeddings: &[(&str, Vec<Vec<f32>>)],
    tasks: &[Task],
) -> Vec<HashMap<String, Vec<usize>>> {
    let mut input = Vec::new();
    let embeddings: serde_json::Map<String, Value> = embeddings
        .iter()
        .map(|(name, rows)| ((*name).to_owned(), json!(rows)))
        .collect();
    writeln!(
        input,
        "{}",
        json!({"set": set, "texts": texts, "embeddings": embeddings})
    )
    .expect("write");
    for (at, task) in tasks.iter().enumerate() {
        writeln!(
            input,
            "{}",
            json!({"task": at, "set": set, "train": task.train, "labels": task.labels,
                   "test": task.test, "seed": task.seed})
        )
        .expect("write");
    }
    let mut child = Command::new(python())
        .arg(PathBuf::from(ROOT).join("benches/baselines.py"))
        // Thousands of small fits: BLAS threads on them only wait for each other (10× slower
        // on 2 cores). Nothing here is timed.
        .env("OMP_NUM_THREADS", "1")
        .env("OPENBLAS_NUM_THREADS", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run benches/baselines.py");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("baselines.py");
    writer
        .join()
        .expect("writer")
        .expect("write to baselines.py");
    assert!(output.status.success(), "benches/baselines.py failed");
    let mut out = vec![HashMap::new(); tasks.len()];
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let value: Value = serde_json::from_str(line).expect("a line of baselines.py");
        let at = value["task"].as_u64().expect("task") as usize;
        for (name, predicted) in value.as_object().expect("an object") {
            if let Some(predicted) = predicted.as_array() {
                out[at].insert(
                    name.clone(),
                    predicted
                        .iter()
                        .map(|p| p.as_u64().expect("a label") as usize)
                        .collect(),
                );
            }
        }
    }
    out
}
