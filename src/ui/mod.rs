//! HTML: the evaluation report of `eval --format html`, rendered from the contract's types
//! with maud, which escapes every value it is given: a state, a question, an outcome or a
//! reason is text wherever it is shown, never markup. It knows the contract and nothing of
//! the program: the command line renders through it, and so can the server.

pub mod app;
pub mod chart;
pub mod document;
pub mod evaluation;
pub mod pages;
pub mod state;

#[cfg(test)]
mod tests;
