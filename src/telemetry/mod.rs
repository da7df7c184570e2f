//! What a running program tells its operators: metrics in the Prometheus format
//! ([`metrics`]), its log lines ([`logs`]) and, when asked, its traces ([`traces`]).
//!
//! A leaf: nothing here imports the rest of the crate, so every layer that has something
//! to count (the store, the repositories, the engines, the jobs, the server) records into
//! it without an import cycle. The words it is told are its own (`&'static str` labels,
//! small enums), never another layer's types.

pub mod logs;
pub mod metrics;
pub mod traces;
