"""The owner side of a live candidate: a program running in a sandbox of its own, reached through
the host, with Python proxies that make it look like an imported module.

Calls cross as value JSON (`rb_values`): arguments go in as data, results come back as exact
built-in values, or as `CandidateObject` handles for anything else, which compare equal only to
themselves. Nothing the candidate defines ever runs here.
"""

import ast
import builtins
import functools
import inspect
import linecache
import sys
import types as pytypes

import rb_values
from componentize_py_types import Err
from wit_world.imports import sandbox, types

#: The most value JSON one answer may hold, in bytes; a larger answer is the candidate's failure.
MAX_ANSWER_BYTES = 8 << 20


class CandidateError(Exception):
    """The candidate failed: it raised an exception, handed back something that cannot cross, or
    ended. A built-in exception the candidate raised arrives as that type too (`except
    ValueError` works)."""

    #: Case status for a verdict: the candidate raised.
    status = "exited_nonzero"


class NotPlainData(CandidateError):
    """The candidate handed back a value that cannot cross (nested too deeply, too large)."""

    status = "not_json"


class CandidateEnded(CandidateError):
    """The candidate has ended: it exited, trapped, or crossed a limit. Every later call raises
    this again."""

    def __init__(self, outcome):
        self.outcome = outcome
        self.status = _STATUS[outcome.status]
        self.exit_code = outcome.exit_code
        super().__init__(_ending(outcome))


class CandidateTimeout(CandidateEnded, TimeoutError):
    """The candidate ran out of fuel or time."""


_STATUS = {
    types.RunStatus.OK: "exited_nonzero",
    types.RunStatus.EXITED_NONZERO: "exited_nonzero",
    types.RunStatus.FUEL_EXHAUSTED: "fuel_exhausted",
    types.RunStatus.TIMEOUT: "timeout",
    types.RunStatus.MEMORY_EXCEEDED: "memory_exceeded",
    types.RunStatus.OUTPUT_EXCEEDED: "output_exceeded",
    types.RunStatus.CRASHED: "crashed",
    types.RunStatus.COMPILE_ERROR: "compile_error",
    types.RunStatus.UNSUPPORTED: "crashed",
}


def _ending(outcome):
    if outcome.status in (types.RunStatus.OK, types.RunStatus.EXITED_NONZERO):
        what = "the candidate exited with code %s" % outcome.exit_code
    else:
        what = "the candidate " + _STATUS[outcome.status].replace("_", " ")
    tail = [line for line in outcome.stderr.splitlines() if line.strip()][-1:]
    return what + (": " + tail[0].strip()[:300] if tail else "")


@functools.cache
def _marked(kind):
    """`kind` (a built-in exception class) that is a `CandidateError` too."""
    return type(kind.__name__, (kind, CandidateError), {"__module__": kind.__module__})


def _raised(info):
    """The exception to raise for what the candidate raised."""
    kind = getattr(builtins, info.type_name, None) if info.builtin else None
    if isinstance(kind, type) and issubclass(kind, Exception):
        try:
            error = _marked(kind)(info.message)
            error.candidate_type = info.type_name
            return error
        except Exception:
            pass
    if info.type_name == "NotPlainData":
        return NotPlainData(info.message)
    error = CandidateError("%s: %s" % (info.type_name, info.message))
    error.candidate_type = info.type_name
    return error


def _error(value):
    """The exception for a WIT `call-error`."""
    if isinstance(value, types.CallError_Raised):
        return _raised(value.value)
    if isinstance(value, types.CallError_Ended):
        outcome = value.value
        if outcome.status in (types.RunStatus.FUEL_EXHAUSTED, types.RunStatus.TIMEOUT):
            return CandidateTimeout(outcome)
        return CandidateEnded(outcome)
    return RuntimeError("rewardbox: a malformed request to the candidate: %s" % value.value)


def limits_from(spec):
    """WIT limits from a task's `candidate_limits` object (`fuel`, `wall_ms`, `memory_mb`,
    `output_bytes`); unset ones are the host's defaults."""
    spec = spec or {}
    memory = spec.get("memory_mb")
    return types.Limits(
        fuel=spec.get("fuel"),
        wall_ms=spec.get("wall_ms"),
        memory_bytes=None if memory is None else memory * (1 << 20),
        output_bytes=spec.get("output_bytes"),
    )


class LiveCandidate:
    """A program opened in a sandbox of its own. `module()` gives it as a module of proxies."""

    def __init__(self, source, language="python", limits=None, filename="solution.py"):
        self.source = source
        self.filename = filename
        self.ended = None
        failure = None
        try:
            self._candidate = sandbox.Candidate.open_named(language, source, filename, limits or limits_from(None))
        except Err as e:
            failure = e.value
        if failure is not None:
            # Raised outside the handler: the host's `Err` (a frozen dataclass) is not its
            # context, which `unittest` would try to write a traceback into.
            raise _error(failure)
        self.members = {m.name: m for m in self._candidate.members()}
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        self._module = None
        self._signatures = None
        self._handle_of = _handle_for(self)
        self._decode = rb_values.decoder(self._object)

    def signature(self, name):
        """The signature of the candidate's top-level function `name`, read from its source."""
        if self._signatures is None:
            self._signatures = _signatures(self.source)
        return self._signatures.get(name)

    def _answer(self, request):
        if self.ended is not None:
            raise self.ended
        failure = None
        try:
            text = request()
        except Err as e:
            failure = e.value
        if failure is not None:
            # Raised outside the handler, with no context (see `__init__`).
            error = _error(failure)
            if isinstance(error, CandidateEnded):
                self.ended = error
            raise error
        if len(text) > MAX_ANSWER_BYTES:
            raise NotPlainData("the candidate handed back %d bytes of data, above the %d-byte limit"
                               % (len(text), MAX_ANSWER_BYTES))
        try:
            return self._decode(text)
        except (ValueError, TypeError) as e:
            raise NotPlainData("the candidate handed back a value that cannot be read: %s" % e) from None

    def _object(self, tag):
        handle = tag.get("$h")
        if type(handle) is not int:
            raise ValueError("a handle must be an integer")
        return CandidateObject(self, handle, str(tag.get("type", "object")))

    def call(self, handle, name, args, kwargs):
        """Calls the module's `name` (handle None), a held object (name ""), or its attribute."""
        arguments = rb_values.encode(list(args), self._handle_of)
        keywords = rb_values.encode(dict(kwargs), self._handle_of) if kwargs else rb_values.NO_KWARGS
        target = types.Target(handle=handle, name=name)
        return self._answer(lambda: self._candidate.call(target, arguments, keywords))

    def get(self, handle, name):
        """Reads the module's `name` (handle None), or an attribute of a held object."""
        target = types.Target(handle=handle, name=name)
        return self._answer(lambda: self._candidate.get(target))

    def output(self):
        """What the candidate printed since this was last asked: `(stdout, stderr)`."""
        out = self._candidate.take_output()
        return out.stdout, out.stderr

    def fuel_used(self):
        """Fuel the candidate has used so far."""
        return self._candidate.fuel_used()

    def module(self, name="solution"):
        """The candidate as a module: functions and classes as proxies (functions with the
        candidate's signatures), values read on access."""
        if self._module is None:
            self._module = CandidateModule(self, name)
            sys.modules.setdefault(name, self._module)
        return self._module

    def function(self, name, signature=False):
        """A proxy for the module-level callable `name` (with its signature, when asked: reading
        it parses the source)."""
        member = self.members.get(name)
        proxy = _function_proxy(self, name, member.line if member else 0, "solution")
        if signature:
            found = self.signature(name)
            if found is not None:
                proxy.__signature__ = found
        return proxy

    def proxies(self):
        """A proxy for each of the candidate's public functions and classes, by name."""
        found = {}
        for name, member in self.members.items():
            if member.kind == types.MemberKind.FUNCTION:
                found[name] = self.function(name)
            elif member.kind == types.MemberKind.CLASS:
                found[name] = _class_proxy(self, name, "solution")
        return found


def _handle_for(live):
    def handle_of(value):
        if isinstance(value, CandidateObject) and value._live is live:
            return {"$h": value._handle}
        return rb_values.no_handles(value)

    return handle_of


def _function_proxy(live, name, line, module_name):
    """A real function that calls the candidate's `name`, whose code points at the candidate's
    source, so that `inspect.getsource` on it returns the candidate's definition."""

    def proxy(*args, **kwargs):
        return live.call(None, name, args, kwargs)

    proxy.__name__ = proxy.__qualname__ = name
    proxy.__module__ = module_name
    proxy.__doc__ = None
    if line:
        proxy.__code__ = proxy.__code__.replace(co_filename=live.filename, co_firstlineno=line, co_name=name,
                                                co_qualname=name)
    return proxy


def _signatures(source):
    """The signature of each top-level `def` in `source`, defaults read as literals."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    return {
        node.name: _signature_of(node.args)
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }


def _signature_of(a):
    P = inspect.Parameter

    def default(node):
        try:
            return ast.literal_eval(node)
        except (ValueError, SyntaxError, TypeError):
            return ...

    params = []
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for i, (arg, d) in enumerate(zip(positional, defaults)):
        kind = P.POSITIONAL_ONLY if i < len(a.posonlyargs) else P.POSITIONAL_OR_KEYWORD
        params.append(P(arg.arg, kind, default=P.empty if d is None else default(d)))
    if a.vararg:
        params.append(P(a.vararg.arg, P.VAR_POSITIONAL))
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        params.append(P(arg.arg, P.KEYWORD_ONLY, default=P.empty if d is None else default(d)))
    if a.kwarg:
        params.append(P(a.kwarg.arg, P.VAR_KEYWORD))
    try:
        return inspect.Signature(params)
    except ValueError:
        return None


class _ProxyClassType(type):
    """Metaclass of class proxies: calling one creates the object in the candidate."""

    def __call__(cls, *args, **kwargs):
        return cls._live.call(None, cls.__name__, args, kwargs)

    def __instancecheck__(cls, obj):
        return isinstance(obj, CandidateObject) and obj._live is cls._live and obj._type_name == cls.__name__

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return cls._live.get(None, cls.__name__)._get(name)


def _class_proxy(live, name, module_name):
    return _ProxyClassType(name, (), {"_live": live, "__module__": module_name, "__qualname__": name})


class CandidateModule(pytypes.ModuleType):
    """The candidate's module as its owner sees it: every public function and class is a proxy;
    a value is read from the candidate when it is looked up."""

    def __init__(self, live, name):
        super().__init__(name)
        object.__setattr__(self, "_live", live)
        self.__file__ = live.filename
        for member_name, member in live.members.items():
            if member.kind == types.MemberKind.FUNCTION:
                setattr(self, member_name, live.function(member_name, signature=True))
            elif member.kind == types.MemberKind.CLASS:
                setattr(self, member_name, _class_proxy(live, member_name, name))

    def __getattr__(self, name):
        live = object.__getattribute__(self, "_live")
        member = live.members.get(name)
        if member is None or member.kind != types.MemberKind.VALUE:
            raise _marked(AttributeError)("the solution has no attribute %r" % name)
        return live.get(None, name)

    def __dir__(self):
        live = object.__getattribute__(self, "_live")
        return sorted(set(live.members) | set(super().__dir__()))


class CandidateObject:
    """An object that lives in the candidate. Attributes and calls run there; it equals only
    itself, so an object whose `__eq__` says yes to everything cannot pass a check."""

    __slots__ = ("_live", "_handle", "_type_name")

    def __init__(self, live, handle, type_name):
        object.__setattr__(self, "_live", live)
        object.__setattr__(self, "_handle", handle)
        object.__setattr__(self, "_type_name", type_name)

    def _get(self, name):
        return self._live.get(self._handle, name)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self._live.get(self._handle, name)

    def __setattr__(self, name, value):
        raise AttributeError("attributes of a candidate's object cannot be set from the outside")

    def __call__(self, *args, **kwargs):
        return self._live.call(self._handle, "", args, kwargs)

    def _op(self, operation, *args):
        return self._live.call(self._handle, operation, args, {})

    def __len__(self):
        value = self._op("@len")
        if type(value) is not int:
            raise TypeError("len() of a candidate's object must be an int")
        return value

    def __iter__(self):
        iterator = self._op("@iter")
        if not isinstance(iterator, CandidateObject):
            return iter(iterator)
        return _RemoteIterator(iterator)

    def __getitem__(self, key):
        return self._op("@getitem", key)

    def __contains__(self, item):
        return self._op("@contains", item) is True

    def __bool__(self):
        value = self._op("@bool")
        if type(value) is not bool:
            raise TypeError("bool() of a candidate's object must be a bool")
        return value

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def __hash__(self):
        return hash((id(self._live), self._handle))

    def __repr__(self):
        return "<candidate %s object #%d>" % (self._type_name, self._handle)


class _RemoteIterator:
    __slots__ = ("_it",)

    def __init__(self, it):
        self._it = it

    def __iter__(self):
        return self

    def __next__(self):
        return self._it._op("@next")
