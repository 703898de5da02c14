//! The integration tests of the runtime (the `rewardbox` library crate): one test binary whose
//! modules are the files beside this one (wasmtime is linked once, not once per file). One file's
//! tests:
//! `cargo test --release -p rewardbox --test all -- <file>::`.

use rewardbox_testkit as common;

mod builtin_verifiers;
mod c_calls;
mod code_verifier;
mod gnu_compat;
mod go;
mod hostile_verifiers;
mod isolation;
mod javascript_node;
mod js_calls;
mod js_test_classes;
mod js_test_files;
mod languages;
mod layers;
mod live_asserts;
mod math_verifier;
mod native_exit_status;
mod output_sizes;
mod planned_asserts;
mod python_engines;
mod python_stdlib;
mod python_verifiers;
mod test_frameworks;
mod typed_calls;
mod typescript_node;
mod whose_failure;
mod workers;
