"""The CPython runner of rewardbox: runs a candidate program, or calls its function on JSON
arguments, and hands back data only (an exit status, or canonical JSON of the returned values).

Built into a WebAssembly component by componentize-py (pre-initialised: this module is imported at
build time). The host instantiates it in a fresh Store with the candidate's limits for every call,
wires stdin/stdout/stderr to its own capped buffers, and never trusts anything it returns beyond
"this is the data the program produced": the tests and expected values are never in here.
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

import wit_world
from componentize_py_types import Err, Ok
from wit_world.imports import types

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
    status = types.RunStatus.OK if code == 0 else types.RunStatus.EXITED_NONZERO
    return types.RunOutcome(status=status, exit_code=code, stdout="", stderr="", fuel_used=0)


class WitWorld(wit_world.WitWorld):
    def run(self, source):
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
        scope = {"__name__": "__candidate__"}
        try:
            exec(compile(source, "<candidate>", "exec"), scope)
        except _SystemExit as e:
            return [Err("the program exited with code %d while loading" % _exit_code(e))] * len(args_json)
        except _BaseException as e:
            return [Err("loading the program failed: %s: %s" % (_type(e).__name__, e))] * len(args_json)
        function = scope.get(entry)
        if not _callable(function):
            return [Err("the program defines no function named %r" % entry)] * len(args_json)
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


def _snapshot_objects():
    """Every object of the pre-initialised heap that is not immortal yet, kept alive for good, and
    a table of their addresses: `<magic> <count: u32> <address: u32>... <magic>`.

    The build (`crates/guest-build`, `immortalize`) finds the table in the snapshot's data segments
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
