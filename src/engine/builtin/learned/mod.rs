//! What alignment learns from annotated examples, per question: a head over the state's
//! pooled encoder embedding and its words, with the zero-shot answer as its prior
//! ([`head`], fitted by [`lbfgs`]: the crate `arbiter-learn`); how a checkpoint keeps it
//! ([`file`](mod@file)).

pub mod file;

pub use arbiter_learn::{Head, Link, Penalty, Prior, Reading, head, lbfgs, words};

use std::collections::BTreeMap;
use std::sync::Arc;

/// A checkpoint's learned heads by question ID ([`file::read`]): what those questions answer
/// with instead of zero-shot. Kept beside the questions, never in them: a question is the
/// contract's (`wire`), a head is what this engine fitted. A request's own question never
/// has one, even under the ID of a checkpoint's question ([`Heads::only`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Heads {
    by_question: BTreeMap<String, Arc<Learned>>,
}

/// No learned head: a base model's, or a request's own questions'.
pub static NONE: Heads = Heads {
    by_question: BTreeMap::new(),
};

impl Heads {
    /// The head of question `id`, if it has one.
    pub fn get(&self, id: &str) -> Option<&Arc<Learned>> {
        self.by_question.get(id)
    }

    /// Each head, by question ID.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Arc<Learned>)> {
        self.by_question.iter()
    }

    /// The fine-tuned encoder the heads read: a checkpoint has at most one.
    pub fn tuning(&self) -> Option<Arc<crate::engine::builtin::tuned::Tuning>> {
        self.by_question.values().find_map(|l| l.tuned.clone())
    }

    /// Only the heads of the questions `keep` says.
    #[must_use]
    pub fn only(mut self, keep: impl Fn(&str) -> bool) -> Self {
        self.by_question.retain(|id, _| keep(id));
        self
    }
}

impl FromIterator<(String, Arc<Learned>)> for Heads {
    fn from_iter<I: IntoIterator<Item = (String, Arc<Learned>)>>(iter: I) -> Self {
        Self {
            by_question: iter.into_iter().collect(),
        }
    }
}

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
    pub tuned: Option<Arc<crate::engine::builtin::tuned::Tuning>>,
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
