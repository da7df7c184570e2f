//! Support for the project's own tests and benches (the library's and the command line's):
//! real servers they start for themselves. A dev-dependency: not part of the tool or its
//! release build.

pub mod postgres;
