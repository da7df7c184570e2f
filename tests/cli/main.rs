//! Integration tests: the real `arbiter` binary in a temporary home.

// A test reads as one story, from its setup to what it asserts; the 80-line bound on
// functions (clippy.toml) is for `src/`.
#![allow(clippy::too_many_lines)]

mod align;
mod align_instructions;
mod align_remote;
mod annotate;
mod background;
mod checkout;
mod ci_examples;
mod client;
mod common;
mod completion;
mod connections;
mod decide;
mod deploy;
mod docs;
mod edges;
mod engines;
mod eval;
mod examples;
mod fake_upstream;
mod faults;
mod generated;
mod hostile;
mod hostile_corpus;
mod http;
mod http_align;
mod http_annotators;
mod http_decisions;
mod http_e2e;
mod http_idempotency;
mod http_jobs;
mod http_model_paths;
mod http_props;
mod jobs;
mod layers;
mod logs;
mod metrics;
mod models;
mod openapi;
mod outputs;

mod registry;
mod release;
mod replicas;
mod repository;
mod shards;
mod shared_store;
mod store_files;
mod tables;
mod terminal;
mod to_annotate;
mod traces;
mod travel;
mod ui;
mod usage;
mod watch;
mod working;
