//! The numerical part of Arbiter's learned heads, in a crate of its own so that it is
//! compiled optimized even in a debug build (the tests align real models): the state's
//! words ([`words`]), the head and its objective ([`head`]), and the optimizer
//! ([`lbfgs`]). How a checkpoint keeps a head is `arbiter::engine::builtin::learned::file`.

pub mod head;
pub mod lbfgs;
pub mod words;

pub use head::{Head, Link, Penalty, Prior, Reading};
