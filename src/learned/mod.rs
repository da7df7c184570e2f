//! What alignment learns from annotated examples, per question: a head over the state's
//! pooled encoder embedding and its words, with the zero-shot answer as its prior
//! ([`head`], fitted by [`lbfgs`]: the crate `arbiter-learn`); how a checkpoint keeps it
//! ([`file`]).

pub mod file;

pub use arbiter_learn::{Head, Link, Penalty, Reading, head, lbfgs, words};

/// A question's learned parameters, as read from its checkpoint.
#[derive(Debug)]
pub struct Learned {
    pub question: String,
    pub head: Head,
    /// The encoder whose embeddings the head reads (the manifest's).
    pub encoder: String,
    /// The SHA-256 of the head's tensors: what tells two heads apart.
    pub digest: String,
    /// The manifest's entry: what was fitted, how, and the out-of-fold answers.
    pub entry: file::Entry,
    /// The fine-tuned encoder whose pooled embedding the head reads (none: the base one).
    pub tuned: Option<std::sync::Arc<crate::engine::builtin::tuned::Tuning>>,
}

impl PartialEq for Learned {
    fn eq(&self, other: &Self) -> bool {
        self.digest == other.digest && self.question == other.question
    }
}

impl Learned {
    /// The out-of-fold answer recorded for a fitted example (probabilities per outcome).
    pub fn out_of_fold(&self, example_id: &str) -> Option<&[f64]> {
        self.entry
            .fitted
            .get(example_id)
            .map(|f| f.answer.as_slice())
    }
}
