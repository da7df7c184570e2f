use super::*;

/// A head of question `q` (outcomes `true`, `false`) fitted on three tiny states, for tests.
pub(crate) fn test_head() -> Head {
    use super::super::head::fit_path;
    use super::super::words::counts;
    use arbiter_learn::Reading;
    let pooled = [vec![0.6, 0.8], vec![1.0, 0.0], vec![0.0, 1.0]];
    let texts = [
        counts("late parcel"),
        counts("refund please"),
        counts("late"),
    ];
    let prior = [vec![0.5, 0.5], vec![0.4, 0.6], vec![0.5, 0.5]];
    let readings: Vec<Reading<'_>> = (0..3)
        .map(|i| Reading {
            pooled: &pooled[i],
            counts: &texts[i],
            prior: &prior[i],
        })
        .collect();
    let penalty = Penalty {
        embedding: 1.0,
        words: 1.0,
    };
    fit_path(
        (Link::Multinomial, super::super::Prior::ZeroShot),
        2,
        &readings,
        &[0, 1, 0],
        &[penalty],
    )
    .pop()
    .unwrap()
}

/// The learned files of `head` as question `q`, for tests.
pub(crate) fn test_files(head: &Head, version: u64) -> Vec<(String, Vec<u8>)> {
    let bytes = tensors(head);
    let penalty = Penalty {
        embedding: 1.0,
        words: 1.0,
    };
    let outcomes = vec!["true".to_owned(), "false".to_owned()];
    let entry = entry(
        "q",
        head,
        outcomes,
        penalty,
        (1, 3),
        None,
        IndexMap::new(),
        &bytes,
    );
    let manifest = Manifest {
        format: FORMAT.into(),
        version,
        encoder: "e".into(),
        tuned: None,
        questions: [("q".to_owned(), entry)].into_iter().collect(),
    };
    vec![
        (MANIFEST.into(), manifest_yaml(&manifest).into_bytes()),
        (tensors_name("q"), bytes),
    ]
}

use test_files as files;
use test_head as head;

fn outcomes(id: &str) -> Option<Vec<String>> {
    (id == "q").then(|| vec!["true".to_owned(), "false".to_owned()])
}

#[test]
fn a_head_reads_back_exactly() {
    let head = head();
    let read = read(&files(&head, VERSION), &outcomes).unwrap();
    assert_eq!(read.get("q").unwrap().head, head);
}

/// A head fitted before sublinear counts (its manifest names `…-hashed-tfidf`) reads its
/// counts raw, as it was fitted; a new one writes and reads `…-sublinear-tfidf`; words of
/// any other name are a located error.
#[test]
fn each_head_reads_words_weighed_as_it_was_fitted() {
    use super::super::words::{TermWeight, counts};
    let sublinear = head();
    assert_eq!(sublinear.vocabulary.weight, TermWeight::Sublinear);
    let mut raw = head();
    raw.vocabulary.weight = TermWeight::Raw;
    for (head, name) in [
        (&sublinear, "word-1-2-grams-hashed-sublinear-tfidf"),
        (&raw, "word-1-2-grams-hashed-tfidf"),
    ] {
        let files = files(head, VERSION);
        assert!(String::from_utf8_lossy(&files[0].1).contains(name));
        let read = read(&files, &outcomes).unwrap();
        assert_eq!(
            read.get("q").unwrap().head.vocabulary.weight,
            head.vocabulary.weight
        );
        assert_eq!(read.get("q").unwrap().head, *head);
    }
    // The weighing shows in the answers: "late late" counts 2 raw, 1 + ln 2 sublinear.
    let (text, pooled, prior) = (counts("late late parcel"), [0.6f32, 0.8], [0.5, 0.5]);
    let reading = arbiter_learn::Reading {
        pooled: &pooled,
        counts: &text,
        prior: &prior,
    };
    assert_ne!(
        sublinear.probabilities(&reading),
        raw.probabilities(&reading)
    );
    let mut other = files(&sublinear, VERSION);
    let manifest = String::from_utf8(other[0].1.clone()).unwrap();
    other[0].1 = manifest
        .replace("word-1-2-grams-hashed-sublinear-tfidf", "word-3-grams")
        .into_bytes();
    let errors = read(&other, &outcomes).unwrap_err();
    assert!(errors[0].msg.contains("word-3-grams"), "{errors:?}");
}

#[test]
fn a_changed_head_an_unknown_version_and_a_missing_file_are_located() {
    let head = head();
    let mut changed = files(&head, VERSION);
    changed[1].1[100] ^= 1;
    let errors = read(&changed, &outcomes).unwrap_err();
    assert_eq!(errors[0].loc, file_loc("q.safetensors"), "{errors:?}");
    let errors = read(&files(&head, 9), &outcomes).unwrap_err();
    assert_eq!(errors[0].kind, "unsupported_version");
    let mut missing = files(&head, VERSION);
    missing.pop();
    let errors = read(&missing, &outcomes).unwrap_err();
    assert!(errors[0].msg.contains("is missing"), "{errors:?}");
    let errors = read(&files(&head, VERSION)[1..], &outcomes).unwrap_err();
    assert!(errors[0].msg.contains("no manifest.yaml"), "{errors:?}");
}
