#!/usr/bin/env bash
# Installs Debian's testify (golang-github-stretchr-testify-dev, with go-spew, go-difflib and
# yaml.v3, under /usr/share/gocode) when it is missing and this user may install packages (root
# with apt-get): crates/rewardbox-cli/tests/all/humaneval_x_go.rs runs HumanEval-X's Go tests natively with `go test` and
# the real testify, and compares each verdict with rewardbox's. Without it that test fails saying
# so; the rest of the suite does not need it.
set -uo pipefail

if [ -d /usr/share/gocode/src/github.com/stretchr/testify/assert ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "note: no testify and no way to install it here (needs root and apt-get);" \
         "crates/rewardbox-cli/tests/all/humaneval_x_go.rs's native comparison will fail" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -qq golang-github-stretchr-testify-dev >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1
    apt-get install -y -qq golang-github-stretchr-testify-dev >/dev/null 2>&1 \
        || echo "warning: could not install golang-github-stretchr-testify-dev" >&2
fi
exit 0
