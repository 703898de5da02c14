"""The CPython component of rewardbox (the `python` world of `wit/`).

As a candidate runtime it runs a candidate program, calls its function on JSON arguments, or holds
it as a live candidate (`rb_live`), and hands back data only: an exit status, canonical JSON of
returned values, value JSON. As the trusted runtime of Python verifiers and asserts (`rb_verify`)
it judges a completion, reaching the candidate through the host's `sandbox` interface; the host
gives a candidate's instance no access to that interface.

Built into a WebAssembly component by componentize-py (pre-initialised: this module is imported at
build time). The host instantiates it in a fresh Store with the run's limits every time, wires
stdin/stdout/stderr to its own capped buffers, and never trusts anything a candidate's instance
returns beyond "this is the data the program produced": the tests and expected values are never
in a candidate's instance.
"""

import sys
import traceback
from json import loads as _loads
from json.encoder import encode_basestring as _encode_str

# The standard library a candidate may import is loaded here, at build time, so that it is part of
# the pre-initialised snapshot (the sandbox has no filesystem to import from at run time).
import array, bisect, calendar, cmath, collections, collections.abc, contextlib, copy, dataclasses  # noqa: E401,F401
import datetime, decimal, enum, fractions, functools, hashlib, heapq, itertools, math, numbers  # noqa: E401,F401
import operator, random, re, statistics, string, struct, textwrap, typing, unicodedata  # noqa: E401,F401
import ast, base64, inspect, io, json, linecache, marshal, runpy, types, importlib.util  # noqa: E401,F401


def _preload(names):
    """Imports what it can of `names` (modules that need what WASI lacks, sockets say, fail and
    are left out: a candidate importing them gets ModuleNotFoundError, as without them)."""
    for name in names:
        try:
            __import__(name)
        except Exception:
            pass


_preload([
    "argparse", "binascii", "codecs", "colorsys", "concurrent.futures", "contextvars", "copyreg", "csv",
    "difflib", "doctest", "fnmatch", "glob", "graphlib", "gzip", "html", "html.parser", "keyword", "locale",
    "logging", "numbers", "pathlib", "pickle", "pprint", "queue", "sched", "secrets", "shlex", "shutil",
    "tempfile", "token", "tokenize", "traceback", "unittest", "unittest.mock", "urllib.parse", "uuid",
    "warnings", "xml.etree.ElementTree", "zlib", "zoneinfo", "subprocess", "threading", "time", "os",
])

import wit_world
from componentize_py_types import Err, Ok
from wit_world.imports import types as wit_types

# The live-candidate and verifier runtimes, and the modules Python verifiers import.
import rb_values, rb_live, rb_proxy, rb_asserts, rb_plan, rb_sandbox, rb_fences, rb_verify, rb_agent_code  # noqa: E401,F401
import deepgym_solution, rewardbox  # noqa: E401,F401
# Environments held in sessions, and the small gymnasium their files import.
import gymnasium, gymnasium.spaces, rb_env  # noqa: E401,F401

# The test frameworks, when this is the build that carries them (`frameworks_app`, which loaded
# pytest before this module): the rest of their modules is served from the component too.
import rb_tests  # noqa: E402,F401
_test_frameworks = []
if "pytest" in sys.modules:
    import os as _os
    _test_frameworks = [_os.path.dirname(_os.path.dirname(sys.modules["pytest"].__file__))]

# Everything else of the standard library, compiled now and served on import from the component
# (rb_stdlib): after every import above, so that what is loaded already is not stored twice.
import rb_stdlib  # noqa: E402
rb_stdlib.install(_test_frameworks)

# Candidates may print and return integers of any size (a verifier bounds what it reads).
sys.set_int_max_str_digits(0)

# Bound at build time, so a candidate that rebinds builtins cannot change how values are read.
_type = type
_bool, _int, _float, _str, _list, _tuple, _dict = bool, int, float, str, list, tuple, dict
_int_repr = int.__repr__
_float_repr = float.__repr__
_sorted = sorted
_callable = callable
_isinstance = isinstance
_BaseException = BaseException
_SystemExit = SystemExit
_INF = float("inf")
_MAX_DEPTH = 100


class NotJson(Exception):
    """The value is not made of exact built-in JSON types."""


def canonical(value, depth=0):
    """Canonical JSON of a value made of exact built-in types: None, bool, int, float, str, list,
    tuple, dict with str keys (sorted). A subclass, or any other object, is refused."""
    if depth > _MAX_DEPTH:
        raise NotJson("nested too deeply")
    t = _type(value)
    if value is None:
        return "null"
    if t is _bool:
        return "true" if value else "false"
    if t is _int:
        return _int_repr(value)
    if t is _float:
        if value != value or value == _INF or value == -_INF:
            raise NotJson("a float that is NaN or infinite")
        return _float_repr(value)
    if t is _str:
        return _encode_str(value)
    if t is _list or t is _tuple:
        return "[" + ",".join([canonical(v, depth + 1) for v in value]) + "]"
    if t is _dict:
        for k in value:
            if _type(k) is not _str:
                raise NotJson("a dict key that is not a str")
        return "{" + ",".join([_encode_str(k) + ":" + canonical(value[k], depth + 1) for k in _sorted(value)]) + "}"
    raise NotJson("a " + t.__name__ + " is not a plain JSON value (exact int, float, str, bool, None, list, tuple, dict)")


def _exit_code(e):
    code = e.code
    if code is None:
        return 0
    if _type(code) is _int:
        return code
    try:
        print(code, file=sys.__stderr__)
    except _BaseException:
        pass
    return 1


def _flush():
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except _BaseException:
            pass


def _outcome(code):
    status = wit_types.RunStatus.OK if code == 0 else wit_types.RunStatus.EXITED_NONZERO
    return wit_types.RunOutcome(status=status, exit_code=code, stdout="", stderr="", fuel_used=0)


def _native_argv():
    """Gives the program the command line `python3 main.py` gives it natively: the instance starts
    with none (`argparse`, `sys.argv[0]` and `runpy.run_path` need one). A run given a command line
    sets its own after this (runners/python.rs)."""
    sys.argv = ["main.py"]


class WitWorld(wit_world.WitWorld):
    def run(self, source):
        _native_argv()
        code = 0
        try:
            exec(compile(source, "<candidate>", "exec"), {"__name__": "__main__"})
        except _SystemExit as e:
            code = _exit_code(e)
        except _BaseException:
            try:
                traceback.print_exc(file=sys.__stderr__)
            except _BaseException:
                pass
            code = 1
        _flush()
        return _outcome(code)

    def call(self, source, entry, args_json):
        _native_argv()
        scope = {"__name__": "__candidate__"}
        try:
            exec(compile(source, "<candidate>", "exec"), scope)
        except _SystemExit as e:
            return [Err("the program exited with code %d while loading" % _exit_code(e))] * len(args_json)
        except _BaseException as e:
            return [Err("loading the program failed: %s: %s" % (_type(e).__name__, e))] * len(args_json)
        function = scope.get(entry)
        if not _callable(function):
            # LeetCode's (and TACO's) form: the function is a method of `class Solution`, called
            # on one instance for all the cases, as the APPS/TACO graders verl uses do.
            holder = scope.get("Solution")
            if _isinstance(holder, _type) and _callable(getattr(holder, entry, None)):
                try:
                    function = getattr(holder(), entry)
                except _BaseException as e:
                    return [Err("Solution() failed: %s: %s" % (_type(e).__name__, e))] * len(args_json)
        if not _callable(function):
            return [Err("the program defines no function named %r (nor a method of class Solution)" % entry)] * len(args_json)
        results = []
        for raw in args_json:
            try:
                args = _loads(raw)
                if _type(args) is not _list:
                    raise NotJson("the arguments must be a JSON list")
                value = function(*args)
                results.append(Ok(canonical(value)))
            except NotJson as e:
                results.append(Err("not_json: %s" % e))
            except _SystemExit as e:
                results.append(Err("the function exited with code %d" % _exit_code(e)))
            except RecursionError:
                results.append(Err("RecursionError: maximum recursion depth exceeded"))
            except _BaseException as e:
                try:
                    message = "%s: %s" % (_type(e).__name__, e)
                except _BaseException:
                    message = "an exception whose message cannot be read"
                results.append(Err(message))
        _flush()
        return results

    def load(self, source, filename):
        _native_argv()
        return rb_live.load(source, filename)

    def invoke(self, target, args, kwargs):
        return rb_live.invoke(target, args, kwargs)

    def inspect(self, target):
        return rb_live.inspect(target)

    def prepare(self, mode, source):
        return rb_verify.prepare(mode, source)

    def verify(self, prepared, task, completion):
        _native_argv()
        return rb_verify.verify(prepared, task, completion)

    def plan_asserts(self, mode, source, task):
        kind = {wit_types.PythonMode.ASSERTS: "check", wit_types.PythonMode.ASSERT_LIST: "list"}.get(mode)
        return rb_plan.plan(kind, source, task) if kind else None


class _InProcessCandidate:
    """A stand-in for the host's live candidate that runs the program in this interpreter: only
    for warming up at build time (`_warm_up`), never at run time."""

    def __init__(self, source):
        self._members = rb_live.load(source, "solution.py")

    @classmethod
    def open(cls, language, source, limits):
        return cls(source)

    @classmethod
    def open_named(cls, language, source, filename, limits):
        return cls(source)

    def members(self):
        return self._members

    def call(self, target, args, kwargs):
        return rb_live.invoke(target, args, kwargs)

    def get(self, target):
        return rb_live.inspect(target)

    def take_output(self):
        return wit_types.Output(stdout="", stderr="")

    def fuel_used(self):
        return 0


@contextlib.contextmanager
def warming_up():
    """Build time only: verifiers and live candidates run in this interpreter for the duration
    (`_InProcessCandidate` for the host's candidates, no audit hook, stdout and stderr restored
    after), and everything a warm-up leaves behind is cleared when it ends, so that the snapshot
    holds warm code and no run's state. Used by `_warm_up` and by `frameworks_app`'s."""
    from wit_world.imports import sandbox as _sandbox

    real = _sandbox.Candidate
    _sandbox.Candidate = _InProcessCandidate
    install = rb_sandbox.install
    rb_sandbox.install = lambda: None  # the audit hook is for verifiers' instances only
    saved = sys.stdout, sys.stderr
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
        _sandbox.Candidate = real
        rb_sandbox.install = install
        rb_sandbox.reset()
        deepgym_solution.configure(None, "python")
        rewardbox.configure(None, "python")
        rb_live._State.module = None
        rb_env._Held.session = None
        rb_live._State.handles = {}
        rb_live._State.next_handle = 1
        for name in ("solution", "verifier", "Warm__CountEnv", "test_solution", "conftest"):
            sys.modules.pop(name, None)
        for name in ("solution.py", "Warm__CountEnv.py"):
            linecache.cache.pop(name, None)
        sys.set_int_max_str_digits(0)


def _warm_up():
    """Runs the verifier and candidate paths at build time, so that the snapshot holds them warm:
    CPython rewrites a function's bytecode caches as it warms up, and in a fresh instance every
    such write would copy a page of the snapshot."""
    import io

    world = WitWorld()
    program = "def add(a, b):\n    return a + b\n\nclass Box:\n    def __init__(self, v):\n        self.v = v\n"
    check = ("def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(2, 2) == 4\n"
             "    assert candidate((1,), (2,)) == (1, 2)\n    assert candidate({1: 2}, None) is not None or True\n")
    verifier = ("import rewardbox\n\ndef verify(task, completion):\n    m = rewardbox.open_candidate(completion)\n"
                "    return {'score': float(m.add(2, 3) == 5), 'cases': [{'id': 'a', 'passed': True}]}\n")
    env = ("import gymnasium, json\n\nclass CountEnv(gymnasium.Env):\n    def __init__(self, n):\n"
           "        self.n, self.finished, self.reward = n, False, 0.0\n"
           "    @staticmethod\n    def from_env_str(s):\n"
           "        return CountEnv(json.loads(s.split('@', 1)[1])['n']) if s.startswith('CountEnv@') else None\n"
           "    def step(self, action):\n        a = json.loads(action)\n"
           "        if a['name'] == 'Done':\n            self.finished = True\n"
           "            self.reward = float(a['parameters']['answer'] == self.n)\n        return True, str(self.n)\n")
    with warming_up():
        for _ in range(32):
            sys.stdout = sys.stderr = io.StringIO()
            world.run("print(1)")
            world.call(program, "add", ['[1, 2]', '[[1], [2]]'])
            prepared = world.prepare(wit_types.PythonMode.ASSERTS, check)
            world.verify(prepared, '{"entry_point": "add"}', program)
            listed = world.prepare(wit_types.PythonMode.ASSERT_LIST, '["assert add(1, 2) == 3"]')
            world.verify(listed, '{}', program)
            mine = world.prepare(wit_types.PythonMode.VERIFIER, verifier)
            world.verify(mine, '{"candidate_limits": {"fuel": 1000}}', program)
            session = _InProcessCandidate(rb_env.PROGRAM)
            session.call(wit_types.Target(handle=None, name="load"), rb_values.encode(["Warm__CountEnv", env], None),
                         rb_values.NO_KWARGS)
            target = wit_types.Target(handle=None, name="start")
            session.call(target, '["CountEnv@{\\"n\\": 3}"]', rb_values.NO_KWARGS)
            step = wit_types.Target(handle=None, name="step")
            session.call(step, '["{\\"name\\": \\"Done\\", \\"parameters\\": {\\"answer\\": 3}}"]', rb_values.NO_KWARGS)
            for name in ("reward", "done"):
                session.call(wit_types.Target(handle=None, name=name), "[]", rb_values.NO_KWARGS)


_warm_up()


def _snapshot_objects():
    """Every object of the pre-initialised heap that is not immortal yet, kept alive for good, and
    a table of their addresses: `<magic> <count: u32> <address: u32>... <magic>`.

    The build (`crates/build/guest-build`, `immortalize`) finds the table in the snapshot's data segments
    and sets the reference count of each listed object to CPython's immortal value, so that a run
    never writes to these objects' pages to count references (CPython >= 3.12 skips immortal
    objects). Those writes were most of the copy-on-write page faults of a fresh instance. The
    objects are kept alive here so that none is freed, and its memory reused, before the snapshot.
    """
    import array as _array
    import struct as _struct

    keep = []
    seen = set()
    stack = gc.get_objects()
    stack.append(sys.modules)
    is_immortal = sys._is_immortal
    while stack:
        obj = stack.pop()
        key = id(obj)
        if key in seen:
            continue
        seen.add(key)
        if is_immortal(obj):
            continue
        keep.append(obj)
        stack.extend(gc.get_referents(obj))
    magic = bytes.fromhex("8006252816b9fef1b49bb358791488f9")
    addresses = _array.array("I", [id(obj) for obj in keep])
    return keep, magic + _struct.pack("<I", len(addresses)) + addresses.tobytes() + magic


# Make the pre-initialised heap immortal (see `_snapshot_objects`), then move it to the garbage
# collector's permanent generation: a collection during a run then never walks, and so never writes
# to, the pre-initialised heap, whose pages stay shared copy-on-write with the image.
import gc  # noqa: E402

gc.collect()
_SNAPSHOT_OBJECTS, _SNAPSHOT_TABLE = _snapshot_objects()
gc.freeze()
