//! The integration tests of the server (`rewardbox-server`), over loopback: one test binary whose
//! modules are the files beside this one (wasmtime is linked once, not once per file). One file's
//! tests:
//! `cargo test --release -p rewardbox-server --test all -- <file>::`.

use rewardbox_testkit as common;
use rewardbox_testkit::server as server_harness;

mod env_protocols;
mod server;
