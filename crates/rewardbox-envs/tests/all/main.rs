//! The integration tests of environments and sessions (`rewardbox-envs`): one test binary whose
//! modules are the files beside this one (wasmtime is linked once, not once per file). One file's
//! tests:
//! `cargo test --release -p rewardbox-envs --test all -- <file>::`.

use rewardbox_testkit as common;

mod repl;
mod sessions;
