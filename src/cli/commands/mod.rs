//! One module per subcommand: its clap arguments (`XxxArgs`, `XxxCommand`) and its `run`,
//! which calls `core` through the [`Service`](crate::core::service::Service) and prints
//! through the [`Printer`](super::output::Printer).

pub(super) mod align;
pub(super) mod annotate;
pub(super) mod batch;
pub(super) mod decide;
pub(super) mod engines;
pub(super) mod eval;
pub(super) mod examples;
pub(super) mod generate;
pub(super) mod jobs;
pub(super) mod models;
pub(super) mod serve;
pub(super) mod tokens;
pub(super) mod ui;
