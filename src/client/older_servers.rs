//! What the client does for a server older than itself: a request member the server does
//! not know yet is refused there (its request types deny unknown members), so a member that
//! is only a hint is asked for once, and left out from then on if refused.
//!
//! - `warm_states` on an evaluation (`eval --watch`'s first run reads every state into the
//!   engine's state cache): without it the run is the same evaluation, only its first save
//!   decides again what an older server did not keep.

use super::Remote;
use crate::core::service::{Created, JobRequest};
use crate::error::{Error, Result};
use crate::wire::ProblemCode;
use crate::wire::align::{EvaluationRequest, WARM_STATES};
use crate::wire::validate::Loc;
use crate::wire::validate::UNKNOWN_MEMBER;
use std::sync::atomic::Ordering;

impl Remote {
    /// Create a job as `request` asks, or, when the server refuses an evaluation's
    /// `warm_states` as a member it does not know, once more without it; the member is not
    /// sent again to this server.
    pub(super) async fn create_job_for_server(
        &self,
        model: &str,
        mut request: JobRequest,
    ) -> Result<Created> {
        let JobRequest::Evaluation(evaluation) = &mut request else {
            return self.create_job_as_asked(model, request).await;
        };
        if !self.sends_warm_states.load(Ordering::Relaxed) {
            evaluation.warm_states = false;
        }
        if !evaluation.warm_states {
            return self.create_job_as_asked(model, request).await;
        }
        let without = EvaluationRequest {
            warm_states: false,
            ..evaluation.clone()
        };
        match self.create_job_as_asked(model, request).await {
            Err(error) if refuses_warm_states(&error) => {
                tracing::debug!(
                    server = self.url(),
                    "the server does not know `{WARM_STATES}` (it is older than this client): \
                     evaluating without it"
                );
                self.sends_warm_states.store(false, Ordering::Relaxed);
                self.create_job_as_asked(model, JobRequest::Evaluation(without))
                    .await
            }
            created => created,
        }
    }
}

/// Whether `error` is a server's refusal of `warm_states` as a member it does not know: what
/// a server from before the member answers (`422 validation_error`, a detail at
/// `body.warm_states` of type `unknown_member`). Any other problem with it is not.
fn refuses_warm_states(error: &Error) -> bool {
    let Error::Remote(problem) = error else {
        return false;
    };
    let at = Loc::body().key(WARM_STATES);
    problem.status == 422
        && problem.code == ProblemCode::ValidationError.as_str()
        && problem
            .details
            .iter()
            .any(|detail| detail.loc == at && detail.kind == UNKNOWN_MEMBER)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::validate::FieldError;

    fn answered(status: u16, details: Vec<FieldError>) -> Error {
        let sent = Error::Validation(details).to_problem("http://old/problems", "r-1");
        Error::Remote(Box::new(crate::wire::problem::Problem { status, ..sent }))
    }

    #[test]
    fn only_an_unknown_warm_states_is_the_refusal_of_an_older_server() {
        let unknown = |member: &str| {
            FieldError::new(
                Loc::body().key(member),
                format!("unknown member `{member}` (known: revision, baseline)"),
                UNKNOWN_MEMBER,
            )
        };
        assert!(refuses_warm_states(&answered(
            422,
            vec![unknown(WARM_STATES)]
        )));
        // Among other problems too: asked again, the others are reported.
        let other = FieldError::new(Loc::body().key("questions"), "empty", "empty");
        assert!(refuses_warm_states(&answered(
            422,
            vec![other.clone(), unknown(WARM_STATES)]
        )));
        assert!(!refuses_warm_states(&answered(422, vec![unknown("warm")])));
        assert!(!refuses_warm_states(&answered(
            400,
            vec![unknown(WARM_STATES)]
        )));
        assert!(!refuses_warm_states(&answered(422, vec![other])));
        let mistyped = FieldError::new(
            Loc::body().key(WARM_STATES),
            "warm_states must be a boolean",
            "invalid_type",
        );
        assert!(!refuses_warm_states(&answered(422, vec![mistyped])));
        assert!(!refuses_warm_states(&Error::Validation(vec![unknown(
            WARM_STATES
        )])));
    }

    #[test]
    fn the_member_is_named_as_a_body_names_it() {
        let body = serde_json::to_value(EvaluationRequest {
            warm_states: true,
            ..EvaluationRequest::default()
        })
        .unwrap();
        assert_eq!(body[WARM_STATES], true, "{body}");
    }
}
