#!/usr/bin/env bash
# Warns, before a long build starts, when the disk holding this checkout has less room than a
# build from scratch writes (target/, the venv, the caches): without it the build fails midway,
# at a link, with "No space left on device". An incremental build needs far less, so this warns
# and goes on.
set -euo pipefail
cd "$(dirname "$0")/.."

# A fresh clone's `scripts/test.sh` wrote 12 GB here (2026-11-26, with both cores pinned).
NEEDED_GB=15
free_kb="$(df -Pk . | awk 'NR == 2 { print $4 }')"
if [ -n "$free_kb" ] && [ "$free_kb" -lt $((NEEDED_GB * 1024 * 1024)) ]; then
  echo "rewardbox: warning: $((free_kb / 1024 / 1024)) GB free on the disk holding $PWD; a build" \
       "from scratch writes about ${NEEDED_GB} GB (target/, .venv, caches) and fails with" \
       "'No space left on device' without it. Free some space (cargo clean, old target/" \
       "directories) if this is a fresh checkout." >&2
fi
