use super::*;

#[test]
fn an_internal_error_keeps_what_failed_it() {
    use std::error::Error as _;
    let io = std::io::Error::new(std::io::ErrorKind::StorageFull, "disk full");
    let error = Error::internal("writing the output", io);
    assert_eq!(error.to_string(), "writing the output: disk full");
    let source = error.source().expect("the io error is kept");
    assert_eq!(source.to_string(), "disk full");
    assert!(Error::bug("a draft recorded twice").source().is_none());
}
use crate::wire::validate::Loc;

// Long: one row per error, kept together as the table the spec's statuses are.
#[test]
#[allow(clippy::too_many_lines)]
fn each_code_maps_to_the_specified_status() {
    let cases = [
        (
            Error::invalid(Loc::body(), "x", "t"),
            422,
            "validation_error",
            1,
        ),
        (Error::ModelNotFound("m".into()), 404, "model_not_found", 4),
        (
            Error::RevisionNotFound {
                model: "a/b".into(),
                revision: "v".into(),
                reason: "r".into(),
            },
            404,
            "revision_not_found",
            4,
        ),
        (
            Error::idempotency_key_reused(),
            409,
            "idempotency_key_reused",
            1,
        ),
        (
            Error::decision_in_progress(),
            409,
            "decision_in_progress",
            1,
        ),
        (
            Error::UpstreamUnavailable("x".into()),
            503,
            "upstream_unavailable",
            1,
        ),
        (Error::UpstreamFailed("x".into()), 502, "upstream_failed", 1),
        (
            Error::from(RepoError::RemoteUnavailable {
                url: "file:///r".into(),
                reason: "gone".into(),
            }),
            503,
            "remote_unavailable",
            1,
        ),
        (
            Error::from(crate::store::StoreError::Unavailable {
                context: "record decision".into(),
                message: "connection refused".into(),
            }),
            503,
            "store_unavailable",
            1,
        ),
        (
            Error::from(RepoError::RemoteRejected {
                model: "a/b".into(),
                reference: "tag v1".into(),
                reason: "moved".into(),
            }),
            409,
            "not_fast_forward",
            1,
        ),
        (
            Error::ProviderResponse {
                engine: "e".into(),
                details: vec![],
            },
            422,
            "validation_error",
            1,
        ),
        (Error::bug("x"), 500, "internal", 1),
    ];
    for (error, status, code, exit) in cases {
        assert_eq!(error.status(), status, "{error}");
        assert_eq!(error.code(), code);
        assert_eq!(error.exit_code(), exit);
    }
}

#[test]
fn every_conflict_code_answers_409_as_a_conflict() {
    for code in [
        ConflictCode::IdempotencyKeyReused,
        ConflictCode::DecisionInProgress,
        ConflictCode::AlreadyExists,
        ConflictCode::NotFastForward,
        ConflictCode::NothingToCommit,
        ConflictCode::Conflict,
    ] {
        let error = Error::Conflict {
            code,
            detail: "d".into(),
        };
        assert_eq!(error.status(), 409, "{code:?}");
        assert_eq!(error.kind(), ErrorKind::Conflict, "{code:?}");
        assert_eq!(error.code(), ProblemCode::from(code).as_str());
    }
}

#[test]
fn a_remote_problem_keeps_its_code_and_maps_to_the_local_exit_code() {
    let remote = |status: u16, code: &str| {
        Error::Remote(Box::new(Problem {
            kind: format!("http://h/problems/{}", code.replace('_', "-")),
            title: crate::wire::problem::status_title(status).to_owned(),
            status,
            detail: format!("{code} happened"),
            code: code.to_owned(),
            request_id: "rid-1".to_owned(),
            details: vec![],
        }))
    };
    for (status, code, exit) in [
        (404, "model_not_found", 4),
        (404, "revision_not_found", 4),
        (404, "job_not_found", 4),
        (422, "validation_error", 1),
        (401, "unauthorized", 1),
        (409, "idempotency_key_reused", 1),
        (503, "upstream_unavailable", 1),
        (500, "internal", 1),
    ] {
        let error = remote(status, code);
        assert_eq!(error.code(), code);
        assert_eq!(error.status(), status);
        assert_eq!(error.exit_code(), exit, "{code}");
        assert_eq!(error.to_string(), format!("{code} happened"));
        assert_eq!(error.request_id(), Some("rid-1"));
    }
    assert_eq!(Error::bug("x").request_id(), None);
}

#[test]
fn problem_type_is_kebab_case_code() {
    let error = Error::invalid(crate::wire::Loc::body(), "bad", "x");
    let problem = error.to_problem("http://h/problems", "rid");
    assert_eq!(problem.kind, "http://h/problems/validation-error");
    assert_eq!(problem.title, "Unprocessable Content");
    assert_eq!(problem.status, 422);
}
