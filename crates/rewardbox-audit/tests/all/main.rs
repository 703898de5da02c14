//! The integration tests of the verifier auditor (`rewardbox-audit`): one test binary whose
//! modules are the files beside this one (wasmtime is linked once, not once per file). One file's
//! tests:
//! `cargo test --release -p rewardbox-audit --test all -- <file>::`.

use rewardbox_testkit as common;

mod audit;
mod tier5;
