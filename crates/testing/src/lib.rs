//! Support for the project's own tests and benches (the library's and the command line's):
//! real servers and programs they start for themselves (PostgreSQL, a headless Chromium).
//! A dev-dependency: not part of the tool or its release build.

pub mod browser;
pub mod postgres;
