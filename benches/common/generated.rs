//! Generated support tickets for the benches that need more than the labelled set.

/// `count` labelled tickets generated with `seed` by `benches/data/generate.py` (needs
/// python3), written into `dir`; the JSON Lines text.
pub(crate) fn generate(dir: &std::path::Path, count: usize, seed: u64) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/generate.py");
    let path = dir.join(format!("generated-{count}-{seed}.jsonl"));
    let generated = std::process::Command::new("python3")
        .arg(script)
        .args([
            "--count",
            &count.to_string(),
            "--seed",
            &seed.to_string(),
            "--out",
        ])
        .arg(&path)
        .output()
        .expect("python3");
    assert!(
        generated.status.success(),
        "{}",
        String::from_utf8_lossy(&generated.stderr)
    );
    std::fs::read_to_string(&path).expect("generated set")
}
