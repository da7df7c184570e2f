//! Taking one claimed job to its end: start it, do its kind's work, record how it ended.

use super::{JobClaim, Origin, Outcome, get, record};
use crate::core::{Context, align, batch, blocking, eval};
use crate::error::{Error, Result};
use crate::wire::jobs::{Job, JobKind, Progress};
use serde_json::Value;

/// Someone watching a job run in this process (the command line's progress bar and output).
pub trait Observer: Send + Sync {
    /// Progress, a few times a second and once at the end.
    fn progress(&self, _progress: Progress) {}
    /// A result line, newline included, as it is written.
    fn line(&self, _line: &[u8]) {}
    /// Whether [`Self::line`] is wanted when the job is followed rather than run here (a
    /// job of another process or of a server): then the lines are read once it ends.
    fn wants_lines(&self) -> bool {
        false
    }
}

/// Nobody watching: a server job, a detached worker.
pub struct NoObserver;

impl Observer for NoObserver {}

/// How a job's work ended, when it did not fail.
pub(crate) enum Ending {
    /// Every item is done; the result summary.
    Completed(Value),
    /// A cancel was asked for; what finished is kept.
    Cancelled,
}

/// Run the job `claim` holds until it ends, resuming from its last finished item when an
/// earlier run died. A finished job is returned as it is. Errors of the work end the job
/// `failed` with a problem; only a failure to record that is an error here. A job that
/// stops being this process's (another replica claimed it after this one's lease lapsed)
/// is left to its new owner: nothing this run would record is written. A job interrupted
/// because the store cannot be reached is no failure of the job: it is left unfinished and
/// let go, for the next sweep to resume once the store is back, and the error is returned.
pub async fn run(ctx: &Context, claim: JobClaim, observer: &dyn Observer) -> Result<Job> {
    let id = *claim.job_id();
    let job_id = id;
    let record = {
        let ctx = ctx.clone();
        blocking(move || record(&ctx, &id)).await?
    };
    if record.state.is_finished() {
        return super::to_wire(record);
    }
    let origin = serde_json::from_value::<Origin>(record.request["origin"].clone())
        .unwrap_or_else(|_| Origin::local(ctx, &job_id));
    let ending = if record.cancel_requested {
        Ok(Some(Ending::Cancelled))
    } else {
        start_and_work(ctx, &record, &origin, observer).await
    };
    let outcome = match ending {
        Ok(None) => None,
        Ok(Some(Ending::Completed(result))) => Some(Outcome::Completed { result }),
        Ok(Some(Ending::Cancelled)) => Some(Outcome::Cancelled),
        Err(error @ Error::StoreUnavailable(_)) => {
            // Even if the store is back by now, the job is not ended `failed` for it.
            tracing::warn!(job = %job_id, %error, "job interrupted; it resumes once the store is back");
            drop(claim);
            return Err(error);
        }
        Err(error) => {
            tracing::warn!(job = %job_id, %error, "job failed");
            Some(Outcome::Failed {
                problem: origin.problem(&error),
            })
        }
    };
    let ctx = ctx.clone();
    blocking(move || {
        if let Some(outcome) = outcome {
            ctx.store()?
                .finish_job(&id, ctx.lease()?.id(), &outcome, None)?;
        }
        // The claim goes only once the ending is recorded, so nobody resumes a finished job.
        drop(claim);
        get(&ctx, &job_id)
    })
    .await
}

/// Mark the job running and do its work; `None` when it may not start (cancelled while
/// queued).
async fn start_and_work(
    ctx: &Context,
    record: &crate::store::JobRecord,
    origin: &Origin,
    observer: &dyn Observer,
) -> Result<Option<Ending>> {
    let kind = record.kind;
    let started = {
        let (ctx, id, total) = (ctx.clone(), record.job_id, record.total);
        blocking(move || {
            super::legacy::import(&ctx, &id)?;
            Ok(ctx.store()?.start_job(&id, ctx.lease()?.id(), total)?)
        })
        .await?
    };
    if !started {
        return Ok(None);
    }
    let ending = match kind {
        JobKind::Batch => batch::execute(ctx, record, origin, observer).await?,
        JobKind::Alignment => align::execute(ctx, record, observer).await?,
        JobKind::Evaluation => eval::execute(ctx, record, origin, observer).await?,
    };
    Ok(Some(ending))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::batch::{NewBatch, Source};
    use crate::core::models::{CreateModel, create};
    use crate::store::JobPart;
    use serde_json::json;

    /// A new home with the model `acme/support` (one noul question, capture on).
    fn home_with_model() -> (tempfile::TempDir, Context) {
        let home = tempfile::tempdir().unwrap();
        let settings = crate::config::Settings::resolve(Some(home.path().to_owned())).unwrap();
        let ctx = Context::new(settings).unwrap();
        create(
            &ctx,
            &CreateModel {
                path: "acme/support".into(),
                base: "mo".into(),
                questions_yaml: Some(
                    "refund:\n  type: noul\n  instructions: The customer asks for a refund.\n"
                        .into(),
                ),
                capture: crate::core::checkpoint::CapturePolicy::default(),
                message: None,
            },
        )
        .unwrap();
        (home, ctx)
    }

    /// A batch of `items` on `acme/support`, recorded and claimed, not yet run.
    fn batch_of(
        ctx: &Context,
        items: Vec<serde_json::Value>,
        capture: bool,
    ) -> (Job, super::JobClaim) {
        crate::core::batch::create(
            ctx,
            NewBatch {
                model: "acme/support",
                revision: None,
                questions: None,
                capture,
                source: Source::Inline(items),
            },
            None,
        )
        .unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_job_whose_staged_input_is_gone_fails_saying_so() {
        let (_home, ctx) = home_with_model();
        let items = vec![
            json!({"state": "a"}),
            json!({"state": "b"}),
            json!({"state": "c"}),
        ];
        let (job, claim) = batch_of(&ctx, items, false);
        ctx.store().unwrap().delete_job_lines(&job.job_id).unwrap();
        let ended = run(&ctx, claim, &NoObserver).await.unwrap();
        assert_eq!(ended.status.as_str(), "failed", "{ended:?}");
        let detail = ended.error.unwrap().detail;
        assert!(detail.contains("0 of its 3 staged input lines"), "{detail}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_captured_job_whose_captures_fail_stops_instead_of_answering_unrecorded() {
        let (home, ctx) = home_with_model();
        // A real fault of the real store: every capture is refused, results are not.
        let store = ctx.store().unwrap();
        rusqlite::Connection::open(home.path().join("arbiter.db"))
            .unwrap()
            .execute_batch(
                "CREATE TRIGGER refuse_captures BEFORE INSERT ON decisions
                 BEGIN SELECT RAISE(ABORT, 'injected capture fault'); END;",
            )
            .unwrap();
        let items = vec![json!({"state": "a"}), json!({"state": "b"})];
        let (job, claim) = batch_of(&ctx, items, true);
        let ended = run(&ctx, claim, &NoObserver).await.unwrap();
        // Not `completed` with its items answered unrecorded: a captured job's item is
        // captured, or the job stops where it could not be.
        assert_eq!(ended.status.as_str(), "failed", "{ended:?}");
        let detail = ended.error.unwrap().detail;
        assert!(detail.contains("injected capture fault"), "{detail}");
        assert_eq!(ended.progress.done, 0, "{:?}", ended.progress);
        assert!(
            store
                .job_lines(&job.job_id, JobPart::Results, 0, 10)
                .unwrap()
                .is_empty()
        );
        let recorded: (i64, i64) = rusqlite::Connection::open(home.path().join("arbiter.db"))
            .unwrap()
            .query_row(
                "SELECT (SELECT count(*) FROM examples), (SELECT count(*) FROM decisions)",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        assert_eq!(recorded, (0, 0), "nothing of a refused capture is written");
    }
}
