#!/usr/bin/env bash
# Fetches every npm module the JavaScript runner ships (guests/js/vendor/npm/modules.json) from the
# registry again with `npm pack`, checks the tarball against the recorded integrity, and the file
# taken from it against the vendored copy and its sha256. A maintainer's check (needs npm and the
# registry); the suite checks the vendored files' hashes and licences offline.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
vendor="$root/guests/js/vendor/npm"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$vendor" "$work" <<'PY'
import base64, hashlib, json, os, subprocess, sys, tarfile
vendor, work = sys.argv[1], sys.argv[2]
manifest = json.load(open(os.path.join(vendor, "modules.json")))
for m in manifest["modules"]:
    spec = f"{m['name']}@{m['version']}"
    out = subprocess.run(["npm", "pack", spec, "--silent"], cwd=work, check=True, capture_output=True, text=True)
    tgz = os.path.join(work, out.stdout.strip().splitlines()[-1])
    data = open(tgz, "rb").read()
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    assert integrity == m["integrity"], f"{spec}: the registry's tarball is not the one pinned"
    with tarfile.open(tgz) as t:
        member = t.extractfile(m["from"]).read()
        meta = json.load(t.extractfile("package/package.json"))
    assert meta["license"] == m["licence"], f"{spec}: licence {meta['license']}, recorded {m['licence']}"
    assert hashlib.sha256(member).hexdigest() == m["sha256"], f"{spec}: {m['from']} differs from the pin"
    assert open(os.path.join(vendor, m["file"]), "rb").read() == member, f"{spec}: the vendored copy differs"
    print(f"{spec}: {m['licence']}, integrity and file as pinned")
PY
