#!/usr/bin/env bash
# Fetches testlib (0.9.44, MIT) as a registry package carries it: rbx.cp 2.3.3's wheel from PyPI
# (its hash pinned) ships testlib.h and testlib's standard checkers (wcmp, ncmp, dcmp, yesno).
# The Polygon tests put them in their packages' files/ as Polygon packages carry them, and build
# the same checkers natively with g++ (crates/rewardbox-cli/tests/all/polygon.rs). Prints the
# directory holding testlib.h and checkers/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/target/testlib"
wheel="rbx_cp-2.3.3-py3-none-any.whl"
sha256="630f573fa97b5911f9217a43f92a33768c623e1a71c8a20e601c1d12013f49fa"
if [ ! -f "$dir/testlib.h" ]; then
  mkdir -p "$dir/download"
  if [ ! -f "$dir/download/$wheel" ] || ! echo "$sha256  $dir/download/$wheel" | sha256sum -c --quiet 2>/dev/null; then
    "$root/.venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
      "rbx.cp==2.3.3" --only-binary=:all: -d "$dir/download" >&2
  fi
  echo "$sha256  $dir/download/$wheel" | sha256sum -c --quiet
  "$root/.venv/bin/python" - "$dir/download/$wheel" "$dir" <<'PY'
import sys, zipfile, os
wheel, out = sys.argv[1], sys.argv[2]
prefix = "rbx/resources/predownloaded/"
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        rest = name[len(prefix):]
        if name.startswith(prefix) and (rest == "testlib.h" or rest.startswith("checkers/")):
            os.makedirs(os.path.dirname(os.path.join(out, rest)) or out, exist_ok=True)
            with open(os.path.join(out, rest), "wb") as f:
                f.write(z.read(name))
PY
fi
echo "$dir"
