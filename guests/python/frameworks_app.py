"""The CPython component with the test frameworks: the trusted runtime of `tests.pytest`.

The same component as `app` (the `python` world's exports are `app`'s), built with pytest and its
packages on the path (crates/rewardbox-builtins/build.rs) and loaded here first, so that they are
in the pre-initialised snapshot and a run does not pay for importing them; the rest of them is
served from the component like the standard library's (`rb_stdlib`, installed by `app`).

Candidates never run in this component: they run in `app`'s, whose heap does not carry pytest
(eight mebibytes of a candidate's memory limit).
"""

import pytest  # noqa: F401
import _pytest.config

for _name in ["_pytest." + name for name in _pytest.config.default_plugins] + [
    "_pytest.python_api", "_pytest.recwarn", "_pytest.raises", "_pytest.assertion.rewrite",
    "pluggy", "iniconfig", "packaging.version", "py",
]:
    try:
        __import__(_name)
    except Exception:
        # A plugin that needs what the build's environment lacks is served on import instead.
        pass

from app import WitWorld  # noqa: E402,F401  (the world's exports)


def _warm_up():
    """Runs pytest on a small test module at build time (as `app` warms its own paths), so that
    the snapshot holds pytest's code warm: in a fresh instance, CPython specialising pytest's
    bytecode would copy page after page of the snapshot. Returns why it could not, or None."""
    import io
    import json
    import os
    import shutil
    import sys

    import app
    import rb_tests
    from wit_world.imports import types as wit_types

    test = (
        "import pytest\nfrom solution import add, Box\n\n\n@pytest.fixture\ndef box():\n    yield Box(2)\n\n\n"
        "@pytest.mark.parametrize('a, b, total', [(1, 2, 3), (2, 2, 4)])\ndef test_add(a, b, total):\n"
        "    assert add(a, b) == total\n\n\ndef test_wrong():\n    assert add(1, 1) == 3\n\n\n"
        "def test_raises():\n    with pytest.raises(TypeError):\n        add(1, 'x')\n\n\n"
        "def test_approx(box):\n    assert add(0.1, 0.2) == pytest.approx(0.3)\n\n\n"
        "@pytest.mark.skip(reason='warm')\ndef test_skip():\n    pass\n\n\n"
        "@pytest.mark.xfail\ndef test_xfail():\n    assert add(1, 1) == 3\n\n\n"
        "class TestBox:\n    def test_value(self, box):\n        assert box.v == 2\n"
    )
    conftest = "import pytest\n\n\n@pytest.fixture\ndef base():\n    return 1\n"
    program = "def add(a, b):\n    return a + b\n\nclass Box:\n    def __init__(self, v):\n        self.v = v\n"
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = None
    # The build's file system has no /tmp: the tests go beside pytest's own files (the build's
    # copy of them), and are removed after.
    test_dir = rb_tests.TEST_DIR
    rb_tests.TEST_DIR = os.path.join(os.path.dirname(os.path.dirname(pytest.__file__)), "rb_warm_up")
    world = app.WitWorld()
    try:
        with app.warming_up():
            prepared = world.prepare(wit_types.PythonMode.PYTEST, json.dumps({"test": test, "conftest": conftest}))
            for _ in range(8):
                sys.stdout = sys.stderr = io.StringIO()
                verdict = world.verify(prepared, "{}", program)
                if len(verdict.cases) != 8:
                    return "pytest ran %d tests of 8: %s" % (len(verdict.cases), verdict.detail)
        return None
    except BaseException as error:  # the build's file system may have no /tmp: then no warm-up
        return "%s: %s" % (type(error).__name__, error)
    finally:
        shutil.rmtree(rb_tests.TEST_DIR, ignore_errors=True)
        try:
            os.remove(rb_tests.log_file())
        except OSError:
            pass
        rb_tests.TEST_DIR = test_dir
        if cwd is not None:
            try:
                os.chdir(cwd)
            except OSError:
                pass


#: Why the build could not warm pytest up (None: it did).
WARM_UP_FAILURE = _warm_up()
