#!/usr/bin/env bash
# Creates the project's Python environment (.venv) with the pinned tools and installs the
# `rewardbox` Python package into it from this checkout (a release build sharing target/ with
# the Rust build, so wasmtime is compiled once). Used by setup.sh, test.sh and the benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."

MATURIN="maturin==1.16.0"
PYTEST="pytest==8.4.2"

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check "$MATURIN" "$PYTEST"
VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH" \
    .venv/bin/maturin develop --release --locked --quiet -m python/Cargo.toml
