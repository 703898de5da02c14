"""Shared fixtures: one scorer for the whole session (compiling verifiers once)."""

import os
import pathlib

import pytest

import rewardbox

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cache_dir() -> str:
    """Where the tests cache compiled components."""
    return os.environ.get("REWARDBOX_CACHE_DIR") or str(ROOT / "target" / "python-test-cache")


@pytest.fixture(scope="session")
def scorer(cache_dir) -> rewardbox.Scorer:
    return rewardbox.Scorer(threads=2, cache_dir=cache_dir)


@pytest.fixture(scope="session")
def rewardbox_binary() -> pathlib.Path:
    """The `rewardbox` CLI of this checkout (built by `cargo test --release` before pytest runs)."""
    target = os.environ.get("CARGO_TARGET_DIR") or str(ROOT / "target")
    path = pathlib.Path(target) / "release" / "rewardbox"
    if not path.exists():
        pytest.fail(f"{path} is missing: build the CLI first (cargo build --release -p rewardbox-cli)")
    return path
