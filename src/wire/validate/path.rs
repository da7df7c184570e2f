//! Where the reader is in a body, kept as steps on the stack and turned into a [`Loc`] (and
//! a name for messages) only when something there is wrong.

use crate::wire::validate::Loc;

/// Where a reader is: the steps from the root, newest first.
#[derive(Clone, Copy)]
pub(super) struct Path<'a> {
    step: Step<'a>,
    parent: Option<&'a Path<'a>>,
}

#[derive(Clone, Copy)]
pub(super) enum Step<'a> {
    /// Where the value being read sits (e.g. `["body"]`), and what to call it.
    Root(&'a Loc, &'a str),
    Key(&'a str),
    Index(usize),
}

impl<'a> Path<'a> {
    pub(super) fn root(loc: &'a Loc, name: &'a str) -> Self {
        Self {
            step: Step::Root(loc, name),
            parent: None,
        }
    }

    pub(super) fn then(&'a self, step: Step<'a>) -> Self {
        Self {
            step,
            parent: Some(self),
        }
    }

    pub(super) fn loc(&self) -> Loc {
        match (self.step, self.parent) {
            (Step::Root(loc, _), _) => loc.clone(),
            (Step::Key(key), Some(parent)) => parent.loc().key(key),
            (Step::Index(index), Some(parent)) => parent.loc().index(index),
            (_, None) => Loc::default(),
        }
    }

    /// What a message calls the value here: its member name, `items[3]` for an element,
    /// the root's name at the root.
    pub(super) fn name(&self) -> String {
        match (self.step, self.parent) {
            (Step::Root(_, name), _) => name.to_owned(),
            (Step::Key(key), _) => key.to_owned(),
            (Step::Index(index), Some(parent)) => format!("{}[{index}]", parent.name()),
            (Step::Index(index), None) => format!("[{index}]"),
        }
    }
}

/// `one of "a", "b"`: the values an enum takes, for a message.
pub(super) fn one_of(variants: &[&str]) -> String {
    let quoted: Vec<String> = variants.iter().map(|v| format!("\"{v}\"")).collect();
    match quoted.as_slice() {
        [one] => one.clone(),
        _ => format!("one of {}", quoted.join(", ")),
    }
}
