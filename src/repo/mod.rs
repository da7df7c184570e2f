//! Model repositories: one bare git repository per decision model at
//! `<root>/<owner>/<model>.git`, each commit ("checkpoint") holding
//! `model.yaml` and `questions.yaml` at the tree root.
//!
//! The module owns the on-disk layout, revision resolution, reading
//! checkpoints and writing new ones with compare-and-swap ref updates.
//! Users may also clone, commit and push with plain git; only committed
//! trees are ever read. Models are named by [`ModelPath`] and [`crate::ids::ModelId`]. No `git2` type appears in the public API: commit
//! ids are 40-hex strings. A model also travels to and from a git repository elsewhere, its
//! upstream (`travel`: import, push, pull).

mod checkout;
mod commit;
mod error;
mod model;
mod read;
mod ref_name;
mod remote;
#[cfg(test)]
mod remote_tests;
mod repos;
mod revision;
mod staging;
#[cfg(test)]
mod test_support;
mod travel;

pub use crate::ids::ModelPath;
pub use checkout::{Checkout, Staged, WORKING_TREE, Wanted};
pub use commit::FileChange;
pub use error::RepoError;
pub use model::ModelRepo;
pub use read::{ALIGNED_DIR, Checkpoint, Files, LEARNED_DIR, LearnedFiles};
pub use remote::RemoteHealth;
pub use repos::Repos;
pub use revision::{Resolved, RevisionKind};
pub use travel::{Incoming, Pull, upstream_url};
