"""A wheel built from this checkout installs into a fresh venv and scores."""

import pathlib
import subprocess
import sys
import venv

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_wheel_installs_into_a_fresh_venv_and_imports(tmp_path):
    dist = tmp_path / "dist"
    maturin = pathlib.Path(sys.executable).parent / "maturin"
    subprocess.run(
        [str(maturin), "build", "--release", "--locked", "--quiet", "-m", str(ROOT / "python" / "Cargo.toml"), "-o", str(dist)],
        check=True,
    )
    wheels = list(dist.glob("rewardbox-*-abi3-*.whl"))
    assert len(wheels) == 1, wheels
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-index", str(wheels[0])], check=True)
    script = (
        "import rewardbox; s = rewardbox.Scorer(threads=1, no_cache=True);"
        "r = s.score([{'id': 'w', 'verifier': 'exact', 'reference': 'ok', 'completions': ['ok', 'no']}]);"
        "print([c['score'] for c in r[0]['results']])"
    )
    out = subprocess.run([str(python), "-c", script], check=True, capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout.strip() == "[1.0, 0.0]"
