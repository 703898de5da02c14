#!/usr/bin/env bash
# Runs the whole test suite: the runtime's unit and integration tests (hostile guests, CLI,
# built-in verifiers end to end), the verifiers' own unit tests on the host, and the Python
# package's pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup target add wasm32-wasip2
./scripts/python-tools.sh   # componentize-py builds the CPython runner that the build embeds
cargo test --release --locked --workspace
cargo test --release --locked --manifest-path verifiers/Cargo.toml

# The Python package: built into .venv from this checkout, then its pytest suite (adapters,
# advantages, concurrency, errors, and a wheel installed into a fresh venv).
./scripts/python-env.sh
.venv/bin/python -m pytest -q python/tests
