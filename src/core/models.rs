//! Model discovery.

use super::Context;
use crate::error::Result;
use crate::wire::models::{ModelEntry, ModelList};

/// Base models, with the engine behind each.
pub fn list(ctx: &Context) -> Result<ModelList> {
    let models = ctx
        .engines()
        .list()
        .into_iter()
        .map(|(name, engine)| ModelEntry::base(name, engine.describe()))
        .collect();
    Ok(ModelList { models })
}
