"""The candidate side of a live candidate: the program is executed once as module `solution`, then
its owner (the host, or a trusted checking sandbox through the host) calls into it many times.

Nothing here is trusted by the owner: whatever this instance hands back is data (value JSON) that
the owner rebuilds as exact built-in values, or a handle that only this instance can act on.
"""

import builtins as _builtins
import linecache as _linecache
import os as _os
import sys as _sys
import types as _types

import rb_values
from componentize_py_types import Err
from wit_world.imports import types

_type = type
_issubclass = issubclass
_callable = callable
_getattr = getattr
_BaseException = BaseException
_SystemExit = SystemExit
_ModuleType = _types.ModuleType
_CodeType = _types.CodeType
_builtin_names = frozenset(dir(_builtins))

#: Built-in operations an owner may apply to an object it holds a handle to (`@len`, ...).
_OPERATIONS = {
    "@bool": bool,
    "@len": len,
    "@iter": iter,
    "@next": next,
    "@repr": repr,
    "@str": str,
    "@hash": hash,
    "@contains": lambda obj, item: item in obj,
    "@getitem": lambda obj, key: obj[key],
}


class _State:
    module = None
    handles = {}
    next_handle = 1


def _handle_of(obj):
    n = _State.next_handle
    _State.next_handle = n + 1
    _State.handles[n] = obj
    return {"$h": n, "type": _type(obj).__name__}


def _resolve_handle(tag):
    n = tag.get("$h")
    if _type(n) is not int or n not in _State.handles:
        raise ValueError("unknown handle %r" % (n,))
    return _State.handles[n]


def raised(error):
    """The WIT `raised` record of an exception."""
    t = _type(error)
    name = t.__name__
    try:
        message = str(error)
    except _BaseException:
        message = "(an exception whose message cannot be read)"
    builtin = name in _builtin_names and _getattr(_builtins, name, None) is t
    return types.CallError_Raised(types.Raised(type_name=name, message=message[:4000], builtin=builtin))


def exit_code(exit):
    """The process exit code a `SystemExit` stands for."""
    code = exit.code
    if code is None:
        return 0
    if _type(code) is int:
        return code
    try:
        print(code, file=_sys.__stderr__)
    except _BaseException:
        pass
    return 1


def ended(code):
    """The WIT `ended` error of an exit with `code` (the host fills in output and fuel)."""
    status = types.RunStatus.OK if code == 0 else types.RunStatus.EXITED_NONZERO
    return types.CallError_Ended(types.RunOutcome(status=status, exit_code=code, stdout="", stderr="", fuel_used=0))


def flush():
    for stream in (_sys.stdout, _sys.stderr, _sys.__stdout__, _sys.__stderr__):
        try:
            stream.flush()
        except _BaseException:
            pass


def load(source, filename):
    """Executes `source` as module `solution` and lists its public names. When `filename` is an
    absolute path in a directory this sandbox sees (an episode's workspace), the program runs
    there, as natively: that directory is its working directory and the first place it imports
    from."""
    directory = _os.path.dirname(filename)
    if _os.path.isabs(filename) and _os.path.isdir(directory):
        _os.chdir(directory)
        _sys.path.insert(0, directory)
    module = _ModuleType("solution")
    module.__file__ = filename
    _sys.modules["solution"] = module
    _linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    _State.module = module
    try:
        exec(compile(source, filename, "exec"), module.__dict__)
    except _SystemExit as e:
        flush()
        raise Err(ended(exit_code(e)))
    except _BaseException as e:
        flush()
        raise Err(raised(e))
    members = []
    for name, obj in list(module.__dict__.items()):
        if name.startswith("_") or _type(obj) is _ModuleType:
            continue
        if _issubclass(_type(obj), type):
            kind = types.MemberKind.CLASS
        elif _callable(obj):
            kind = types.MemberKind.FUNCTION
        else:
            kind = types.MemberKind.VALUE
        code = _getattr(obj, "__code__", None) if kind == types.MemberKind.FUNCTION else None
        line = code.co_firstlineno if _type(code) is _CodeType and code.co_filename == filename else 0
        members.append(types.Member(name=name, kind=kind, line=line))
    flush()
    return members


def _target(target):
    """The object `target` names."""
    if target.handle is None:
        if _State.module is None:
            raise Err(types.CallError_Invalid("no program is loaded"))
        namespace = _State.module.__dict__
        if target.name not in namespace:
            raise AttributeError("the program defines no name %r" % target.name)
        return namespace[target.name]
    if target.handle not in _State.handles:
        raise Err(types.CallError_Invalid("unknown handle %d" % target.handle))
    obj = _State.handles[target.handle]
    if not target.name or target.name in _OPERATIONS:
        return obj
    return _getattr(obj, target.name)


_decode = rb_values.decoder(_resolve_handle)


def _arguments(args, kwargs):
    try:
        positional = _decode(args)
        keywords = {} if kwargs == rb_values.NO_KWARGS else _decode(kwargs)
    except (ValueError, TypeError) as e:
        raise Err(types.CallError_Invalid("arguments are not value JSON: %s" % e))
    if _type(positional) is not list or _type(keywords) is not dict:
        raise Err(types.CallError_Invalid("arguments must be a list and keyword arguments a dict"))
    if any(_type(k) is not str for k in keywords):
        raise Err(types.CallError_Invalid("keyword argument names must be strings"))
    return positional, keywords


def _answer(compute):
    """Runs `compute()` and hands back value JSON, or the way it failed."""
    try:
        value = compute()
        text = rb_values.encode(value, _handle_of)
    except Err:
        flush()
        raise
    except _SystemExit as e:
        flush()
        raise Err(ended(exit_code(e)))
    except rb_values.NotPlainData as e:
        flush()
        raise Err(types.CallError_Raised(types.Raised(type_name="NotPlainData", message=str(e), builtin=False)))
    except _BaseException as e:
        flush()
        raise Err(raised(e))
    flush()
    return text


def invoke(target, args, kwargs):
    """Calls `target` with value JSON arguments."""
    positional, keywords = _arguments(args, kwargs)

    def compute():
        obj = _target(target)
        operation = _OPERATIONS.get(target.name) if target.handle is not None else None
        if operation is not None:
            return operation(obj, *positional, **keywords)
        return obj(*positional, **keywords)

    return _answer(compute)


def inspect(target):
    """Reads `target`."""
    return _answer(lambda: _target(target))
