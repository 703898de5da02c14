#!/usr/bin/env bash
# Sets up everything rewardbox needs, builds it, and scores the bundled examples.
# Needs only rustup's toolchain and Python 3 with pip; installs the wasm32-wasip2 and wasip1 targets and the
# Python tools (into .venv) itself.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/disk-space.sh      # a build from scratch writes about 15 GB: warns when there is less
rustup target add wasm32-wasip2 wasm32-wasip1
./scripts/python-tools.sh   # componentize-py builds the CPython runner that the build embeds
cargo build --release --locked

rewardbox="${CARGO_TARGET_DIR:-target}/release/rewardbox"
"$rewardbox" score examples/tasks.jsonl -o examples/results.jsonl
echo "rewardbox: wrote examples/results.jsonl; the CLI is at $rewardbox"

./scripts/python-env.sh
echo "rewardbox: the Python package is installed in .venv (try: .venv/bin/python -c 'import rewardbox')"
