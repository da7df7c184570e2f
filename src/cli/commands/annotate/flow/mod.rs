//! The annotation flow as a state machine, with no terminal and no store: keys in, the
//! effects to carry out (write an answer, delete one, fetch the next example, quit) out.
//! The driver ([`super`]) carries each effect out and reports back with [`Flow::done`] or
//! [`Flow::failed`]; only a carried-out effect moves the flow on, so an answer the store
//! refused is shown with its reason and asked again, never taken as given.

use crate::ids::ExampleId;
use crate::wire::answer::Answer;
use crate::wire::claims::{ClaimedExample, NextToAnnotate};
use crate::wire::to_annotate::{Learning, Why};
use indexmap::IndexMap;
use serde_json::Value;
use std::sync::Arc;

/// A key, as both the screen and line mode give them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    Char(char),
    Enter,
    Esc,
    Backspace,
    Up,
    Down,
    PageUp,
    PageDown,
    /// Ctrl-C.
    Interrupt,
}

/// What the driver is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Effect {
    /// Write one answer.
    Write {
        example_id: ExampleId,
        question: String,
        answer: Value,
        reasoning: Option<String>,
    },
    /// Delete one answer written in this flow (an undo), first releasing `release`'s claim
    /// when the undo goes back to another example.
    Undo {
        example_id: ExampleId,
        question: String,
        release: Option<ExampleId>,
    },
    /// Release `release`'s claim (the example is done with) and claim the next example.
    Next { release: Option<ExampleId> },
    /// Release `release`'s claim and leave.
    Quit { release: Option<ExampleId> },
}

/// What a carried-out effect brought back.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// An answer written, with what to say of it.
    Written(String),
    /// An answer deleted.
    Undone,
    /// The next example (or none left).
    Next(Box<NextToAnnotate>),
    /// Left.
    Quit,
}

/// A line to show under the question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Message {
    Info(String),
    Error(String),
}

/// One question of one example.
#[derive(Debug, Clone)]
pub(crate) struct At {
    pub(crate) example: Arc<ClaimedExample>,
    pub(crate) index: usize,
}

impl At {
    /// The question asked and the model's answer to it.
    pub(crate) fn question(&self) -> (&str, &Answer) {
        let (id, answer) = self
            .example
            .answers
            .get_index(self.index)
            .expect("an index within the example's open questions");
        (id.as_str(), answer)
    }
}

/// How far along the model is, as the last claim said.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Progress {
    /// Examples still missing an answer to a question considered.
    pub(crate) left: u64,
    /// Examples other annotators hold now.
    pub(crate) claimed_by_others: u64,
    /// The learning curves recorded at the revision (`align --curve`).
    pub(crate) learning: IndexMap<String, Learning>,
}

/// The flow: where it is, what it wrote (to undo), and what it shows.
#[derive(Debug, Default)]
pub(crate) struct Flow {
    pub(crate) current: Option<At>,
    /// Every answer written here, oldest first: what `u` deletes, last first.
    written: Vec<At>,
    /// Examples left behind (answered or skipped): not offered again in this flow.
    pub(crate) seen: Vec<ExampleId>,
    /// A reason kept for the next answer (`r`).
    pub(crate) reason: Option<String>,
    /// A reason being typed.
    pub(crate) typing: Option<String>,
    pub(crate) message: Option<Message>,
    /// Lines of the state scrolled past.
    pub(crate) scroll: u16,
    /// Answers written (less those undone) and questions skipped.
    pub(crate) answered: u64,
    pub(crate) skipped: u64,
    pub(crate) progress: Progress,
    /// The last claim found nothing left.
    pub(crate) exhausted: bool,
    pub(crate) finished: bool,
}

/// What the keys do, as the screen's last line shows them.
pub(crate) const KEYS: &str =
    "Enter/a accept · 0-9 y/n · s skip · S skip example · u undo · r reason · q quit";

impl Flow {
    /// The first effect: claim an example.
    pub(crate) fn start() -> (Self, Effect) {
        (Self::default(), Effect::Next { release: None })
    }

    /// The example shown now, to release when leaving it.
    fn current_id(&self) -> Option<ExampleId> {
        self.current
            .as_ref()
            .map(|at| at.example.example_id.clone())
    }

    /// A key pressed: what to carry out, if anything.
    pub(crate) fn key(&mut self, key: Key) -> Option<Effect> {
        if key == Key::Interrupt {
            return Some(Effect::Quit {
                release: self.current_id(),
            });
        }
        if let Some(text) = &mut self.typing {
            match key {
                Key::Enter => {
                    let text = text.trim().to_owned();
                    self.typing = None;
                    if text.is_empty() {
                        self.reason = None;
                        self.message = Some(Message::Info("no reason".to_owned()));
                    } else {
                        self.reason = Some(text);
                        self.message = Some(Message::Info(
                            "the reason goes with the next answer".to_owned(),
                        ));
                    }
                }
                Key::Esc => self.typing = None,
                Key::Backspace => {
                    text.pop();
                }
                Key::Char(c) => text.push(c),
                _ => {}
            }
            return None;
        }
        match key {
            Key::Up | Key::Char('k') => self.scroll = self.scroll.saturating_sub(1),
            Key::Down | Key::Char('j') => self.scroll = self.scroll.saturating_add(1),
            Key::PageUp => self.scroll = self.scroll.saturating_sub(10),
            Key::PageDown => self.scroll = self.scroll.saturating_add(10),
            Key::Char('q') => {
                return Some(Effect::Quit {
                    release: self.current_id(),
                });
            }
            Key::Char('u') => return self.undo(),
            Key::Char('r') => self.typing = Some(self.reason.clone().unwrap_or_default()),
            _ => return self.answer_key(key),
        }
        None
    }

    fn undo(&mut self) -> Option<Effect> {
        let Some(last) = self.written.last() else {
            self.message = Some(Message::Error("nothing to undo".to_owned()));
            return None;
        };
        let example_id = last.example.example_id.clone();
        let question = last.question().0.to_owned();
        let release = self.current_id().filter(|id| *id != example_id);
        Some(Effect::Undo {
            example_id,
            question,
            release,
        })
    }

    /// A key that answers or skips the current question.
    fn answer_key(&mut self, key: Key) -> Option<Effect> {
        let Some(at) = &self.current else {
            if matches!(key, Key::Enter | Key::Char('a')) {
                return Some(Effect::Next { release: None });
            }
            self.message = Some(Message::Error(
                "nothing to annotate here: Enter looks again, u undoes, q quits".to_owned(),
            ));
            return None;
        };
        let (question, answer) = at.question();
        let example_id = at.example.example_id.clone();
        let question = question.to_owned();
        let value = match key {
            Key::Char('s') => {
                self.skipped += 1;
                self.message = Some(Message::Info(format!("skipped {question}")));
                return self.advance();
            }
            Key::Char('S') => return self.skip_example(),
            Key::Enter | Key::Char('a') => Ok(answer.guess()),
            Key::Char(c @ ('y' | 'n')) => yes_no(answer, c == 'y'),
            Key::Char(c) if c.is_ascii_digit() => pick(answer, c.to_digit(10).unwrap_or(0)),
            Key::Char(c) => Err(format!("`{c}` does nothing here: {KEYS}")),
            _ => return None,
        };
        match value {
            Ok(value) => Some(Effect::Write {
                example_id,
                question,
                answer: value,
                reasoning: self.reason.clone(),
            }),
            Err(reason) => {
                self.message = Some(Message::Error(reason));
                None
            }
        }
    }

    /// `S`: the example's questions left unasked (each counted as skipped), on to the next
    /// example. What was answered of it stays (`u` undoes it).
    fn skip_example(&mut self) -> Option<Effect> {
        let at = self.current.as_mut()?;
        let left = at.example.answers.len().saturating_sub(at.index);
        self.skipped += left as u64;
        self.message = Some(Message::Info(format!(
            "skipped example {} ({left} question{} unasked)",
            at.example.example_id,
            if left == 1 { "" } else { "s" }
        )));
        at.index = at.example.answers.len().saturating_sub(1);
        self.advance()
    }

    /// On to the next question, else (the example done with) the next example.
    fn advance(&mut self) -> Option<Effect> {
        let at = self.current.as_mut()?;
        at.index += 1;
        if at.index < at.example.answers.len() {
            return None;
        }
        let id = at.example.example_id.clone();
        self.current = None;
        self.scroll = 0;
        if !self.seen.contains(&id) {
            self.seen.push(id.clone());
        }
        Some(Effect::Next { release: Some(id) })
    }

    /// `effect` was carried out and brought `outcome`: the flow moves on (perhaps with
    /// another effect to carry out).
    pub(crate) fn done(&mut self, effect: &Effect, outcome: Outcome) -> Option<Effect> {
        match (effect, outcome) {
            (Effect::Write { .. }, Outcome::Written(said)) => {
                if let Some(at) = &self.current {
                    self.written.push(at.clone());
                }
                self.answered += 1;
                self.reason = None;
                self.message = Some(Message::Info(said));
                self.advance()
            }
            (Effect::Undo { question, .. }, Outcome::Undone) => {
                let at = self.written.pop()?;
                self.answered = self.answered.saturating_sub(1);
                let changed = self
                    .current
                    .as_ref()
                    .is_none_or(|now| now.example.example_id != at.example.example_id);
                if changed {
                    self.scroll = 0;
                }
                self.message = Some(Message::Info(format!(
                    "undid {question} of {}",
                    at.example.example_id
                )));
                self.current = Some(at);
                None
            }
            (Effect::Next { .. }, Outcome::Next(next)) => {
                let NextToAnnotate {
                    unannotated,
                    claimed_by_others,
                    learning,
                    example,
                    ..
                } = *next;
                self.progress = Progress {
                    left: unannotated,
                    claimed_by_others,
                    learning,
                };
                self.scroll = 0;
                match example {
                    Some(example) if example.answers.is_empty() => {
                        // Nothing open on it after all: pass it by.
                        self.seen.push(example.example_id.clone());
                        Some(Effect::Next {
                            release: Some(example.example_id),
                        })
                    }
                    Some(example) => {
                        self.exhausted = false;
                        self.current = Some(At {
                            example: Arc::new(example),
                            index: 0,
                        });
                        None
                    }
                    None => {
                        self.exhausted = true;
                        self.current = None;
                        self.message = Some(Message::Info(
                            "nothing left to annotate for you: q quits (u undoes)".to_owned(),
                        ));
                        None
                    }
                }
            }
            (Effect::Quit { .. }, _) => {
                self.finished = true;
                None
            }
            _ => None,
        }
    }

    /// `effect` could not be carried out: the reason is shown and nothing moves on.
    pub(crate) fn failed(&mut self, effect: &Effect, reason: &str) {
        let what = match effect {
            Effect::Write { question, .. } => format!("{question}: not written: "),
            Effect::Undo { question, .. } => format!("{question}: not undone: "),
            Effect::Next { .. } => "no next example: ".to_owned(),
            Effect::Quit { .. } => {
                // Leaving goes on: a claim not released lapses by itself.
                self.finished = true;
                "claim not released (it lapses by itself): ".to_owned()
            }
        };
        self.message = Some(Message::Error(format!("{what}{reason}")));
    }
}

/// `y`/`n` for a noul.
fn yes_no(answer: &Answer, yes: bool) -> Result<Value, String> {
    match answer {
        Answer::Noul { .. } => Ok(Value::Bool(yes)),
        _ => Err("y and n answer a yes-or-no question; pick a number".to_owned()),
    }
}

/// A number key: a choice's option (from 1, in order) or a score's level (from 0).
fn pick(answer: &Answer, digit: u32) -> Result<Value, String> {
    let digit = digit as usize;
    match answer {
        Answer::Noul { .. } => Err("a yes-or-no question: y or n".to_owned()),
        Answer::Choice { probabilities, .. } => match digit
            .checked_sub(1)
            .and_then(|i| probabilities.get_index(i))
        {
            Some((key, _)) => Ok(Value::String(key.clone())),
            None => Err(format!(
                "no option {digit}: pick 1 to {}",
                probabilities.len().min(9)
            )),
        },
        Answer::Score { probabilities, .. } => {
            if digit < probabilities.len() {
                Ok(Value::from(digit))
            } else {
                Err(format!(
                    "no level {digit}: pick 0 to {}",
                    (probabilities.len().max(1) - 1).min(9)
                ))
            }
        }
    }
}

/// An answer's type, as the questions file names it.
pub(crate) fn kind(answer: &Answer) -> &'static str {
    match answer {
        Answer::Noul { .. } => "noul",
        Answer::Choice { .. } => "choice",
        Answer::Score { .. } => "score",
    }
}

/// What the learning curves say, in a few words: whether more labels will pay.
pub(crate) fn curve_verdict(learning: &IndexMap<String, Learning>) -> String {
    if learning.is_empty() {
        return "last align --curve: none recorded yet".to_owned();
    }
    let rising: Vec<&str> = learning
        .iter()
        .filter(|(_, l)| l.rising)
        .map(|(q, _)| q.as_str())
        .collect();
    if rising.is_empty() {
        "last align --curve: flat, more labels gain little".to_owned()
    } else {
        format!(
            "last align --curve: more labels pay ({})",
            rising.join(", ")
        )
    }
}

/// Why the example was picked, in a word.
pub(crate) fn why(example: &ClaimedExample) -> &'static str {
    match example.why {
        Why::Uncertain => "uncertain",
        Why::Audit => "audit (agreement)",
    }
}

#[cfg(test)]
mod tests;
