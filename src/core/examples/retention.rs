//! `capture.retain_days`: unannotated examples are kept that many days after they were
//! recorded, then deleted with all that is recorded of them ([`super::delete`]'s store
//! operation), and the deletion is one event of the model's history. The sweep starts after
//! a capture, at most once an hour per model in a process (its [`Context`]'s [`Sweeps`];
//! a command line's process is one capture) and never while the model's last sweep is
//! still running, so a model that keeps capturing keeps forgetting; an annotated example is ground truth and is kept. It
//! runs in the background ([`Context::background`]): the capture's answer does not wait
//! for what may be thousands of deletions, and a one-command process waits for it before
//! it exits.

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

/// A model's last sweep in this process: when it started, and whether it still runs.
#[derive(Debug, Clone, Copy)]
struct Swept {
    at: Instant,
    running: bool,
}

/// Each model's last sweep by one [`Context`] (a process has one), kept on it.
#[derive(Debug, Default)]
pub struct Sweeps(Mutex<HashMap<ModelId, Swept>>);

impl Sweeps {
    fn with<T>(&self, f: impl FnOnce(&mut HashMap<ModelId, Swept>) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// A model's sweep, marked running from its start until dropped.
struct Running {
    ctx: Context,
    model_id: ModelId,
}

impl Running {
    /// `model_id`'s sweep, if one is due: none started in the last hour, none running.
    fn start(ctx: &Context, model_id: &ModelId) -> Option<Self> {
        ctx.retention_sweeps().with(|swept| {
            if swept
                .get(model_id)
                .is_some_and(|last| last.running || last.at.elapsed() < EVERY)
            {
                return None;
            }
            let at = Instant::now();
            swept.insert(*model_id, Swept { at, running: true });
            Some(Self {
                ctx: ctx.clone(),
                model_id: *model_id,
            })
        })
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.ctx.retention_sweeps().with(|swept| {
            if let Some(last) = swept.get_mut(&self.model_id) {
                last.running = false;
            }
        });
    }
}

/// After a capture at `model_id`, which keeps examples `days` days: start its sweep in the
/// background if one is due (see the module documentation); a failure is logged. Must be
/// called within the async runtime.
pub fn after_capture(ctx: &Context, model_id: &ModelId, days: u32) {
    let Some(running) = Running::start(ctx, model_id) else {
        return;
    };
    let (task_ctx, model_id) = (ctx.clone(), *model_id);
    ctx.background().spawn_blocking(move || {
        let _running = running;
        match sweep(&task_ctx, &model_id, days) {
            Ok(0) => {}
            Ok(deleted) => {
                tracing::debug!(%model_id, deleted, "capture.retain_days deleted expired examples");
            }
            Err(error) => {
                tracing::warn!(%error, %model_id, "the capture.retain_days sweep failed");
            }
        }
    });
}

/// Delete every unannotated example of `model_id` older than `days` days; how many.
pub fn sweep(ctx: &Context, model_id: &ModelId, days: u32) -> Result<u64> {
    #[cfg(test)]
    let _held = hold::enter(model_id);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_is_due_once_an_hour_and_never_while_one_runs() {
        let (_home, ctx) = crate::core::test_support::home();
        let model_id: ModelId = "0e7d7c1e-8f2a-4d59-9a55-5b0a2a6f9d12".parse().unwrap();
        let first = Running::start(&ctx, &model_id).expect("never swept: due");
        assert!(Running::start(&ctx, &model_id).is_none(), "one runs");
        drop(first);
        assert!(
            Running::start(&ctx, &model_id).is_none(),
            "swept in the last hour"
        );
        // Started over an hour ago: due again, unless it still runs.
        let long_ago = Instant::now().checked_sub(EVERY * 2).unwrap();
        let swept = |f: &dyn Fn(&mut Swept)| {
            ctx.retention_sweeps()
                .with(|swept| f(swept.get_mut(&model_id).unwrap()));
        };
        swept(&|last| last.at = long_ago);
        swept(&|last| last.running = true);
        assert!(Running::start(&ctx, &model_id).is_none(), "still running");
        swept(&|last| last.running = false);
        assert!(Running::start(&ctx, &model_id).is_some());
        // Swept just now here; another context (another process's) keeps its own record.
        assert!(Running::start(&ctx, &model_id).is_none());
        let (_other_home, other) = crate::core::test_support::home();
        assert!(Running::start(&other, &model_id).is_some());
    }
}

/// For tests: hold a model's sweep at its start until released, to see what waits for it.
#[cfg(test)]
pub(crate) mod hold {
    use crate::ids::ModelId;
    use std::collections::{HashMap, HashSet};
    use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
    use std::time::Duration;

    /// Where a model's sweep is.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(crate) enum Sweep {
        /// Started, and waiting while it is held.
        Held,
        /// Ended.
        Ended,
    }

    #[derive(Default)]
    struct State {
        held: HashSet<ModelId>,
        sweeps: HashMap<ModelId, Sweep>,
    }

    static STATE: Mutex<Option<State>> = Mutex::new(None);
    static CHANGED: Condvar = Condvar::new();

    fn state() -> MutexGuard<'static, Option<State>> {
        let mut state = STATE.lock().unwrap_or_else(PoisonError::into_inner);
        state.get_or_insert_with(State::default);
        state
    }

    /// Hold `model_id`'s sweeps at their start until what is returned is dropped (by a
    /// test that fails too, so its runtime, which waits for a held sweep, can end).
    pub(crate) fn hold(model_id: &ModelId) -> Held {
        state().as_mut().unwrap().held.insert(*model_id);
        Held(*model_id)
    }

    /// `model_id`'s sweeps held; let go when dropped.
    pub(crate) struct Held(ModelId);

    impl Drop for Held {
        fn drop(&mut self) {
            state().as_mut().unwrap().held.remove(&self.0);
            CHANGED.notify_all();
        }
    }

    /// Wait, up to `patience`, until `model_id`'s sweep is where `wanted` says.
    pub(crate) fn reached(model_id: &ModelId, wanted: Sweep, patience: Duration) -> bool {
        let (state, _) = CHANGED
            .wait_timeout_while(state(), patience, |state| {
                state.as_ref().unwrap().sweeps.get(model_id) != Some(&wanted)
            })
            .unwrap_or_else(PoisonError::into_inner);
        state.as_ref().unwrap().sweeps.get(model_id) == Some(&wanted)
    }

    /// A sweep of `model_id` starts: waits while it is held; ends when dropped.
    pub(super) fn enter(model_id: &ModelId) -> Entered {
        let mut state = state();
        state
            .as_mut()
            .unwrap()
            .sweeps
            .insert(*model_id, Sweep::Held);
        CHANGED.notify_all();
        let _state = CHANGED
            .wait_while(state, |state| {
                state.as_ref().unwrap().held.contains(model_id)
            })
            .unwrap_or_else(PoisonError::into_inner);
        Entered(*model_id)
    }

    pub(super) struct Entered(ModelId);

    impl Drop for Entered {
        fn drop(&mut self) {
            state()
                .as_mut()
                .unwrap()
                .sweeps
                .insert(self.0, Sweep::Ended);
            CHANGED.notify_all();
        }
    }
}
