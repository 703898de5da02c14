//! The integration tests of the command line (`rewardbox-cli`), which drive the built binary:
//! one test binary whose modules are the files beside this one (wasmtime is linked once, not
//! once per file). One file's tests:
//! `cargo test --release -p rewardbox-cli --test all -- <file>::`.

use rewardbox_testkit as common;
use rewardbox_testkit::humaneval_x as humaneval_x_data;
#[path = "../../benches/support/cms_tasks.rs"]
mod cms_tasks;
#[path = "../../benches/support/polygon_packages.rs"]
mod polygon_packages;
#[path = "../../benches/support/served.rs"]
mod served;

mod cli;
mod cms;
mod docs;
mod eval;
mod humaneval_x;
mod humaneval_x_calls;
mod humaneval_x_go;
mod humaneval_x_js;
mod kattis;
mod livecodebench;
mod memory;
mod polygon;
mod trust_boundaries;
mod worker_lifetime;
