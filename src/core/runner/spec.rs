//! What a job runs from, by kind, as read back from its record.

use crate::core::align::AlignmentSpec;
use crate::core::batch::BatchSpec;
use crate::core::eval::EvaluationSpec;
use crate::core::jobs::{Origin, Spec};
use crate::error::{Error, Result};
use crate::store::JobRecord;
use crate::wire::jobs::JobKind;

/// A job's request, typed by its kind.
pub(crate) enum JobSpec {
    Batch(BatchSpec),
    Evaluation(EvaluationSpec),
    Alignment(AlignmentSpec),
}

impl JobSpec {
    /// The request `record` was stored with, read as its kind's.
    pub(crate) fn read(record: &JobRecord) -> Result<Self> {
        fn typed<S: Spec>(record: &JobRecord) -> Result<S> {
            serde_json::from_value(record.request.clone()).map_err(|e| {
                Error::internal(&format!("job {} has a corrupt request", record.job_id), e)
            })
        }
        Ok(match record.kind {
            JobKind::Batch => Self::Batch(typed(record)?),
            JobKind::Evaluation => Self::Evaluation(typed(record)?),
            JobKind::Alignment => Self::Alignment(typed(record)?),
        })
    }

    /// Where the job was asked for.
    pub(crate) fn origin(&self) -> &Origin {
        match self {
            Self::Batch(spec) => spec.origin(),
            Self::Evaluation(spec) => spec.origin(),
            Self::Alignment(spec) => spec.origin(),
        }
    }
}
