//! `capture.retain_days`: unannotated examples are kept that many days after they were
//! recorded, then deleted with all that is recorded of them ([`super::delete`]'s store
//! operation), and the deletion is one event of the model's history. The sweep runs after
//! a capture, at most once an hour per model in a process (a command line's process is
//! one capture), so a model that keeps capturing keeps forgetting; an annotated example is
//! ground truth and is kept.

use crate::core::Context;
use crate::error::Result;
use crate::ids::ModelId;
use crate::store::NewRegistryEvent;
use crate::wire::registry::RegistryAction;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How often a process sweeps one model.
const EVERY: Duration = Duration::from_hours(1);

/// Examples deleted in one transaction.
const BATCH: usize = 500;

/// When each model was last swept by this process.
static SWEPT: Mutex<Option<HashMap<ModelId, Instant>>> = Mutex::new(None);

/// Sweep `model_id` if it keeps examples `days` days and was not swept in the last hour;
/// how many examples were deleted.
pub fn after_capture(ctx: &Context, model_id: &ModelId, days: u32) -> Result<u64> {
    {
        let mut swept = SWEPT.lock().unwrap_or_else(PoisonError::into_inner);
        let swept = swept.get_or_insert_with(HashMap::new);
        if swept.get(model_id).is_some_and(|at| at.elapsed() < EVERY) {
            return Ok(0);
        }
        swept.insert(*model_id, Instant::now());
    }
    sweep(ctx, model_id, days)
}

/// Delete every unannotated example of `model_id` older than `days` days; how many.
pub fn sweep(ctx: &Context, model_id: &ModelId, days: u32) -> Result<u64> {
    let store = ctx.store()?;
    let mut deleted = 0;
    loop {
        let expired = store.expired_examples(model_id, days, BATCH)?;
        if expired.is_empty() {
            break;
        }
        if let Some(missing) = store.delete_examples(model_id, &expired)? {
            // Deleted by someone else in between: the next round finds the rest.
            tracing::debug!(%missing, "an expired example went before the sweep took it");
            continue;
        }
        deleted += expired.len() as u64;
        if expired.len() < BATCH {
            break;
        }
    }
    if deleted > 0 {
        let ref_name = format!("examples: {deleted} unannotated, older than {days} days");
        crate::core::registry::record(
            ctx,
            model_id,
            &NewRegistryEvent {
                action: RegistryAction::Delete,
                ref_name: &ref_name,
                from: None,
                to: "",
                actor: "capture.retain_days",
                evaluation: None,
            },
        )?;
    }
    Ok(deleted)
}
