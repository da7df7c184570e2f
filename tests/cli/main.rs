//! Integration tests: the real `arbiter` binary in a temporary home.

mod common;
mod decide;
mod generated;
mod models;
