use super::*;

/// A head of question `q` (outcomes `true`, `false`) fitted on three tiny states, for tests.
pub(crate) fn test_head() -> Head {
    use crate::learned::head::fit_path;
    use crate::learned::words::counts;
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
    fit_path(Link::Multinomial, 2, &readings, &[0, 1, 0], &[penalty])
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
    assert_eq!(read["q"].head, head);
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
