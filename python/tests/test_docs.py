"""The README's and the book's Python examples run as written against the installed package.

Every ```python block of README.md and docs/ that is not marked `ignore` (a client of a server, a
Ray cluster, TRL's trainer) runs in a fresh interpreter, from a scratch directory holding the
repository's `examples/` and `tests/`, with the tests' component cache; it must exit 0.
"""

import os
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^(`{3,})([^`]*)$")


def python_blocks():
    """(place, source) of every runnable python block."""
    found = []
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for document in documents:
        lines = document.read_text().split("\n")
        opened = None
        for number, line in enumerate(lines, 1):
            match = FENCE.match(line.lstrip()) if len(line) - len(line.lstrip()) < 4 else None
            if opened is None and match:
                info = match.group(2).split()
                opened = (len(match.group(1)), info, number, [])
            elif opened is not None and match and not match.group(2).strip() and len(match.group(1)) >= opened[0]:
                ticks, info, start, body = opened
                if info[:1] == ["python"] and "ignore" not in info:
                    found.append((f"{document.relative_to(ROOT)}:{start}", "\n".join(body)))
                opened = None
            elif opened is not None:
                opened[3].append(line)
    return found


BLOCKS = python_blocks()


def test_the_book_has_runnable_python_examples():
    assert len(BLOCKS) >= 3, BLOCKS


@pytest.mark.parametrize("place,source", BLOCKS, ids=[place for place, _ in BLOCKS])
def test_python_example_runs(place, source, tmp_path, cache_dir):
    for name in ("examples", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = dict(os.environ, REWARDBOX_CACHE_DIR=cache_dir)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(source)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"{place}:\n{source}\n{done.stderr}"
