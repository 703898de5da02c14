#!/usr/bin/env bash
# Installs the `rewardbox` Python package into .venv from this checkout (a release build sharing
# target/ with the Rust build, so wasmtime is compiled once). Used by setup.sh, test.sh and the
# benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/python-tools.sh
VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH" \
    .venv/bin/maturin develop --release --locked --quiet -m python/Cargo.toml
