#!/usr/bin/env bash
# Runs the whole test suite: the runtime's unit and integration tests (hostile guests, CLI,
# built-in verifiers end to end) and the verifiers' own unit tests on the host.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup target add wasm32-wasip2
cargo test --release --locked --workspace
cargo test --release --locked --manifest-path verifiers/Cargo.toml
