#!/usr/bin/env bash
# Installs Debian's Chromium when it is missing and this user may install packages (root with
# apt-get): crates/rewardbox-cli/tests/all/eval.rs renders `rewardbox eval`'s HTML report in it, headless, and checks the
# screenshot. Without it that one test says SKIPPED; the rest of the suite does not need it.
set -uo pipefail

if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "note: no Chromium and no way to install it here (needs root and apt-get);" \
         "the report's browser test will be skipped" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -qq chromium >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1
    apt-get install -y -qq chromium >/dev/null 2>&1 \
        || echo "warning: could not install chromium; the report's browser test will be skipped" >&2
fi
exit 0
