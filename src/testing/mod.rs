//! Support for the project's own tests (the library's and the command line's): real
//! servers they start for themselves. Not part of the tool.

pub mod postgres;
