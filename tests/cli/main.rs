//! Integration tests: the real `arbiter` binary in a temporary home.

mod align;
mod client;
mod common;
mod completion;
mod decide;
mod docs;
mod edges;
mod engines;
mod examples;
mod fake_upstream;
mod faults;
mod generated;
mod hostile;
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
mod models;
mod openapi;
mod outputs;

mod registry;
mod replicas;
mod repository;
mod served;
mod shared_store;
mod tables;
mod terminal;
mod to_annotate;
mod usage;
