//! Arbiter: decision models ("System One" models) from the command line and over HTTP.
//!
//! Data flows one way: [`cli`] or [`server`] → [`core`] (one function per operation) →
//! [`engine`] / [`repo`] / [`store`]. The contract types shared by all of them live in
//! [`wire`]; errors are typed once in [`error`]. In client mode the command line runs the
//! same operations on a shared server through [`client`], an implementation of
//! [`core::service::Service`].

// Every binary built on this crate allocates with mimalloc (the `arbiter` binary, the tests'
// in-process servers, the benches): it keeps the pages it frees for the next allocation of
// their size, where the system allocator handed each large tensor's pages back and faulted
// them in again, a fifth of an alignment's CPU (in the kernel, zeroing pages). The server
// returns what it keeps once idle (`server::memory`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod cli;
pub mod client;
pub mod config;
pub mod core;
pub mod engine;
pub mod error;
pub mod ids;
pub mod limits;
pub mod parallel;
pub mod repo;
pub mod retry;
pub mod runtime;
pub mod server;
pub mod store;
pub mod telemetry;
pub mod ui;
#[doc(hidden)]
pub mod wire;
