"""Inputs for Tier 5's differential judge, made from the visible inputs' types and shapes.

Runs in the Python sandbox. Reads a JSON spec on stdin, in one of three modes:

- {"mode": "call", "visible": [[arg, ...], ...], "max": N}: a call task's visible argument lists
  (JSON values); prints up to N new argument lists, one JSON line {"args": [...]} each. The host
  runs the task's solution on them through the call path the verifier uses.
- {"mode": "asserts", "solution", "entry_point", "asserts", "setup", "max"}: a task judged by
  asserts (HumanEval's `check(candidate)`, MBPP's list). Runs the asserts against the solution
  while recording every call's arguments (the visible inputs), then the solution on new inputs,
  and prints {"args", "expected", "exact", "new"} lines: the Python source of the argument
  tuple and of the solution's result, for the inputs where the solution returns a plain value
  (one `ast.literal_eval` reads back equal), the same twice, without raising; `new` when that
  result is none of the visible calls' results. The last line is {"visible": n}.
- {"mode": "test_module", "solution", "module", "test", "conftest", "framework", "prompt",
  "max"}: a task judged by a pytest or unittest module. Installs the solution as the module the tests import,
  its top-level functions recording the arguments the tests call them with, runs the tests
  (unittest's own loader; pytest's test functions and classes with their parametrize rows and
  the module's and conftest's fixtures, pytest itself stood in for by the little it takes to
  run them: nothing here judges), then the solution on new inputs, and prints the asserts-mode
  lines with the function's name added ({"function", "args", "expected", "exact", "new"}). The
  module's classes record, for each instance the tests make, its constructor's arguments, the
  methods called on it and the other attributes read from it, then a read of each value of it
  (not a method) that the task's prompt names, which the tests may never read; replays of those
  traces with arguments made from the tests' own print {"class", "init", "steps", "new"} lines
  (see `print_class_results`).

New inputs come in rounds, each varying one argument of a visible input at a time, then all of
them together:
1. small moves that keep type, sign, alphabet and distinct items distinct (numbers by one,
   strings and lists reversed, halved, grown);
2. shapes: the smallest values of the type (0 and 1; the empty and the one-item string or list;
   a list with a repeated item), then values drawn within the visible ones' range (the sign kept,
   magnitudes up to twice the largest seen), strings over the visible alphabet, lists of the
   visible item type with duplicates, of lengths up to three past the longest seen; dicts the
   same way (the empty and a one-item dict; an item dropped, one added under a new key; drawn
   keys and values of the visible ones' shapes).
Draws are seeded by the visible inputs: the same task gets the same inputs every time.
"""

import ast
import copy
import json
import sys


class Draw:
    """A small deterministic generator (64-bit LCG), seeded by the text of the visible inputs."""

    def __init__(self, text):
        self.state = 1469598103934665603
        for ch in text:
            self.state = ((self.state ^ ord(ch)) * 1099511628211) & 0xFFFFFFFFFFFFFFFF

    def below(self, n):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return (self.state >> 33) % max(n, 1)

    def between(self, low, high):
        return low + self.below(high - low + 1)


def plain(value):
    """Whether `value` is written back exactly by its repr."""
    try:
        return ast.literal_eval(repr(value)) == value
    except Exception:
        return False


def has_float(value):
    if isinstance(value, float):
        return True
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(has_float(v) for v in value)
    if isinstance(value, dict):
        return any(has_float(k) or has_float(v) for k, v in value.items())
    return False


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def fresh(items):
    """An item not in `items`, of its items' type: a grown list keeps distinct values distinct
    (tasks often promise no duplicates)."""
    if items and all(is_int(v) for v in items):
        return max(items) + 1
    if items and all(isinstance(v, float) for v in items):
        return max(items) + 0.5
    if items and all(isinstance(v, str) for v in items):
        grown = items[-1] + (items[-1][:1] or "a")
        return grown if grown not in items else None
    return None


def moved(value):
    """Small moves of one argument that keep its type, its sign, its alphabet and distinct items
    distinct, so that they stay within what a task's docstring promises as far as can be."""
    if isinstance(value, bool):
        return [not value]
    if is_int(value):
        out = [value + 1, value * 2 + 3] if value >= 0 else [value - 1, value * 2 - 3]
        if value > 1 or value < -1:
            out.insert(1, value - 1 if value > 0 else value + 1)
        return out
    if isinstance(value, float):
        return [value + 0.5, value * 2 + 1] if value >= 0 else [value - 0.5, value * 2 - 1]
    if isinstance(value, str):
        out = [value[::-1], value[: len(value) // 2]]
        if value:
            out.append(value + value[0])
        return out
    if isinstance(value, (list, tuple)):
        kind = type(value)
        out = [kind(reversed(value)), kind(value[: len(value) // 2])]
        extra = fresh(list(value))
        if extra is not None:
            out.append(kind(list(value) + [extra]))
        return out
    if isinstance(value, dict):
        items = list(value.items())
        out = [dict(reversed(items)), dict(items[: len(items) // 2])]
        key = fresh(list(value))
        if key is not None and items:
            out.append(dict(items + [(key, items[0][1])]))
        return out
    return []


class Shape:
    """What the visible values of one argument position have in common."""

    def __init__(self, values):
        self.values = values
        self.ints = [v for v in values if is_int(v)]
        self.floats = [v for v in values if isinstance(v, float)]
        self.strings = [v for v in values if isinstance(v, str)]
        self.lists = [v for v in values if isinstance(v, (list, tuple))]
        self.dicts = [v for v in values if isinstance(v, dict)]
        self.kind = None
        if values and all(isinstance(v, bool) for v in values):
            self.kind = "bool"
        elif values and len(self.ints) == len(values):
            self.kind = "int"
        elif values and len(self.ints) + len(self.floats) == len(values):
            self.kind = "float"
        elif values and len(self.strings) == len(values):
            self.kind = "str"
        elif values and len(self.lists) == len(values):
            self.kind = "list"
            self.items = Shape([x for v in self.lists for x in v])
            self.container = type(self.lists[0])
            self.distinct = all(len(set(map(repr, v))) == len(v) for v in self.lists)
        elif values and len(self.dicts) == len(values):
            self.kind = "dict"
            self.keys = Shape([k for d in self.dicts for k in d])
            self.entries = Shape([v for d in self.dicts for v in d.values()])

    def smallest(self):
        """The smallest values of the type, within the sign seen."""
        if self.kind == "bool":
            return [False, True]
        if self.kind == "int":
            floor = self.floor()
            return [v for v in (0, 1, 2, -1) if v >= floor]
        if self.kind == "float":
            low = min(self.ints + self.floats)
            return [v for v in (0.0, 1.0, 0.5, -1.5) if low < 0 or v >= 0]
        if self.kind == "str":
            alphabet = self.alphabet()
            return ["", alphabet[0], alphabet[0] * 2]
        if self.kind == "list":
            out = [self.container([])]
            one = self.items.draw(Draw("one"), 0) if self.items.kind else 1
            out.append(self.container([one]))
            if not self.distinct:
                out.append(self.container([one, one]))
            return out
        if self.kind == "dict":
            out = [{}]
            first = next((d for d in self.dicts if d), None)
            if first:
                key = next(iter(first))
                out.append({key: first[key]})
            return out
        return []

    def floor(self):
        """The least integer the sign seen allows: 1 when every value seen is positive, 0 when
        none is negative, else no bound (a large negative number)."""
        low = min(self.ints)
        return 1 if low >= 1 else 0 if low >= 0 else -(1 << 62)

    def alphabet(self):
        chars = sorted(set("".join(self.strings)))
        return "".join(chars) or "ab"

    def draw(self, rng, depth):
        """A value of the shape, drawn within the range seen."""
        if self.kind == "bool":
            return rng.below(2) == 1
        if self.kind == "int":
            reach = max(max(abs(v) for v in self.ints), 5) * 2
            floor = self.floor()
            return rng.between(-reach if floor < 0 else floor, reach if max(self.ints) > 0 else 0)
        if self.kind == "float":
            seen = self.ints + self.floats
            reach = max(max(abs(v) for v in seen), 2.0) * 2
            value = rng.below(int(reach * 8) + 1) / 4.0
            return -value if min(seen) < 0 and rng.below(2) else value
        if self.kind == "str":
            alphabet = self.alphabet()
            longest = max(len(s) for s in self.strings)
            return "".join(alphabet[rng.below(len(alphabet))]
                           for _ in range(rng.between(1, longest + 3)))
        if self.kind == "list" and depth < 3:
            longest = max(len(v) for v in self.lists)
            length = rng.between(2, longest + 3)
            if not self.items.kind:
                return None
            if self.distinct:
                out = []
                for _ in range(length * 4):
                    item = self.items.draw(rng, depth + 1)
                    if item is not None and item not in out:
                        out.append(item)
                    if len(out) == length:
                        break
            else:
                out = [self.items.draw(rng, depth + 1) for _ in range(length)]
                if None in out:
                    return None
                if length >= 2:
                    out[rng.below(length)] = out[rng.below(length)]
            return self.container(out)
        if self.kind == "dict" and depth < 3 and self.keys.kind and self.entries.kind:
            longest = max(len(d) for d in self.dicts)
            out = {}
            for _ in range(rng.between(1, longest + 2) * 4):
                key = self.keys.draw(rng, depth + 1)
                value = self.entries.draw(rng, depth + 1)
                if key is None or value is None:
                    return None
                out.setdefault(key, value)
                if len(out) > longest + 1:
                    break
            return out
        return None


def new_inputs(visible, limit):
    """New argument tuples from the visible ones, round by round (see the module's text)."""
    known = set(repr(tuple(args)) for args in visible)
    out = []

    def offer(args):
        text = repr(tuple(args))
        if text not in known and plain(tuple(args)):
            known.add(text)
            out.append(tuple(args))

    visible = [tuple(args) for args in visible if plain(tuple(args))]
    if not visible:
        return out
    width = max(len(args) for args in visible)
    if width == 0:
        return out
    shapes = [Shape([args[i] for args in visible if len(args) > i]) for i in range(width)]
    rng = Draw(repr(visible))
    for round in range(4):
        for args in visible:
            for i, arg in enumerate(args):
                variants = moved(arg)
                if round < len(variants):
                    offer(args[:i] + (variants[round],) + args[i + 1:])
    for args in visible:
        for i in range(len(args)):
            for value in shapes[i].smallest():
                offer(args[:i] + (value,) + args[i + 1:])
    for _ in range(limit * 2):
        if len(out) >= limit * 3:
            break
        base = visible[rng.below(len(visible))]
        args = list(base)
        positions = range(len(args)) if rng.below(3) == 0 else [rng.below(len(args))]
        for i in positions:
            value = shapes[i].draw(rng, 0)
            if value is not None:
                args[i] = value
        offer(args)
    return out


def print_results(solution, seen, limit, most, extra=None):
    """Prints the solution's results on new inputs made from the argument tuples `seen`, at most
    `most` lines of {"args", "expected", "exact", "new"} (and `extra`'s fields): the inputs where
    it returns a plain value, the same twice, without raising. Each line is printed as it comes: a
    solution that runs out of fuel on a large input still leaves the earlier ones."""
    visible_results = set()
    for args in seen:
        try:
            visible_results.add(repr(solution(*copy.deepcopy(args))))
        except Exception:
            pass
    written = 0
    for args in new_inputs(seen, limit):
        try:
            first = solution(*copy.deepcopy(args))
            second = solution(*copy.deepcopy(args))
        except Exception:
            continue
        if repr(first) != repr(second) or not plain(first):
            continue
        line = dict(extra or {})
        line.update({"args": repr(args), "expected": repr(first), "exact": not has_float(first),
                     "new": repr(first) not in visible_results})
        print(json.dumps(line), flush=True)
        written += 1
        if written >= most:
            break


def call_mode(spec):
    for args in new_inputs(spec["visible"], spec["max"])[: spec["max"] * 3]:
        try:
            print(json.dumps({"args": list(args)}), flush=True)
        except (TypeError, ValueError):
            continue


def asserts_mode(spec):
    entry = spec["entry_point"]
    space = {"__name__": "__main__"}
    if spec.get("setup"):
        exec(spec["setup"], space)
    exec(spec["solution"], space)
    solution = space[entry]
    seen = []

    def recorder(*args, **kwargs):
        if not kwargs:
            try:
                seen.append(copy.deepcopy(args))
            except Exception:
                pass
        return solution(*args, **kwargs)

    checks = dict(space)
    checks[entry] = recorder
    asserts = spec["asserts"]
    for statement in asserts if isinstance(asserts, list) else [asserts]:
        try:
            exec(statement, checks)
        except Exception:
            pass
    if not isinstance(asserts, list) and callable(checks.get("check")):
        try:
            checks["check"](recorder)
        except Exception:
            pass

    print_results(solution, seen, spec["max"], spec["max"] * 3)
    print(json.dumps({"visible": len(seen)}), flush=True)


def solution_module(spec):
    """The solution as the module the tests import, its top-level functions recording the
    argument tuples each is called with from outside the module; the recordings by name."""
    import types

    module = types.ModuleType(spec["module"])
    module.__file__ = spec["module"] + ".py"
    sys.modules[spec["module"]] = module
    exec(compile(spec["solution"], module.__file__, "exec"), module.__dict__)
    seen = {}
    inside = [0]

    def recording(name, function):
        def recorder(*args, **kwargs):
            if not kwargs and not inside[0]:
                try:
                    seen.setdefault(name, []).append(copy.deepcopy(args))
                except Exception:
                    pass
            inside[0] += 1
            try:
                return function(*args, **kwargs)
            finally:
                inside[0] -= 1

        return recorder

    originals = {}
    for name, value in list(module.__dict__.items()):
        if isinstance(value, types.FunctionType) and value.__module__ == spec["module"]:
            originals[name] = value
            module.__dict__[name] = recording(name, value)
    traces = {}
    for name, value in list(module.__dict__.items()):
        if isinstance(value, type) and value.__module__ == spec["module"]:
            record_class(name, value, traces, inside)
    return originals, seen, traces, inside


def read_named_values(traces, prompt, inside):
    """Ends each trace with a read of each public value of its instance (a property, a plain
    attribute: not a method) that `prompt` names as a word, in the order the prompt names them:
    what the task asks of its objects is judged even where the tests never read it (a `count`
    beside the `total` they check)."""
    import re

    words = list(dict.fromkeys(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", prompt or "")))
    for trace in traces.values():
        instance = trace["instance"]
        inside[0] += 1
        try:
            for attribute in words:
                if attribute.startswith("_"):
                    continue
                try:
                    value = getattr(instance, attribute)
                except Exception:
                    continue
                if not callable(value):
                    trace["steps"].append((attribute, None, value))
        finally:
            inside[0] -= 1


def record_class(name, cls, traces, inside):
    """Makes `cls` record, for each instance the tests make (their own calls, not the module's),
    its constructor's arguments, each method call on it with its arguments and result, and each
    read of a value that is not a method (a property, a plain attribute) with arguments None: a
    trace {"class", "init", "steps": [(attribute, args, result)], "instance"}, kept by the
    instance's id in `traces`."""
    original_init = cls.__init__

    def init(self, *args, **kwargs):
        if not kwargs and not inside[0]:
            try:
                traces[id(self)] = {"class": name, "init": copy.deepcopy(args), "steps": [],
                                    "instance": self}
            except Exception:
                pass
        inside[0] += 1
        try:
            original_init(self, *args, **kwargs)
        finally:
            inside[0] -= 1

    def method(attribute, function):
        def recorder(self, *args, **kwargs):
            trace = traces.get(id(self)) if not kwargs and not inside[0] else None
            if trace is not None and trace["instance"] is not self:
                trace = None
            try:
                arguments = copy.deepcopy(args) if trace is not None else None
            except Exception:
                arguments, trace = None, None
            inside[0] += 1
            try:
                result = function(self, *args, **kwargs)
            finally:
                inside[0] -= 1
            if trace is not None:
                trace["steps"].append((attribute, arguments, result))
            return result

        return recorder

    original_getattribute = cls.__getattribute__

    def getattribute(self, attribute):
        # A read from outside the class of a value that is not a method (a property, a plain
        # attribute): a step without arguments. Reads made while getting it are the class's own.
        outside = not inside[0]
        inside[0] += 1
        try:
            value = original_getattribute(self, attribute)
        finally:
            inside[0] -= 1
        if outside and not attribute.startswith("_") and not callable(value):
            trace = traces.get(id(self))
            if trace is not None and trace["instance"] is self:
                trace["steps"].append((attribute, None, value))
        return value

    try:
        cls.__init__ = init
        cls.__getattribute__ = getattribute
        for attribute, value in list(vars(cls).items()):
            if callable(value) and not attribute.startswith("_") and not isinstance(value, (staticmethod, classmethod, type)):
                setattr(cls, attribute, method(attribute, value))
    except (TypeError, AttributeError):
        pass


def run_trace(cls, init, steps):
    """The results of replaying a trace on a fresh instance of `cls`: each step's result (a read
    when its arguments are None, else a call); raises what a step raises."""
    instance = cls(*copy.deepcopy(init))
    return [getattr(instance, attribute) if args is None
            else getattr(instance, attribute)(*copy.deepcopy(args))
            for attribute, args in steps]


def as_tuple(args):
    """A step's arguments as a tuple, None (a read) kept."""
    return None if args is None else tuple(args)


def print_class_results(cls, name, traces, limit, most):
    """Prints replays of the recorded traces of class `name` with one argument list changed at a
    time (a method's, or the constructor's) to one made from the arguments the tests gave it,
    with a step done twice or left out, two traces on one instance, then several arguments
    changed at once: {"class", "init", "steps": [[attribute, args or null, result or null]],
    "new"} (Python sources; args null: the attribute read, not called; a step whose result is
    None or not a plain value, or differs between two replays, is done and not checked), for the replays that end without raising with at least one
    result checked."""
    traces = [t for t in traces if t["steps"] and plain(tuple(t["init"]))
              and all(args is None or plain(tuple(args)) for _, args, _ in t["steps"])]
    if not traces:
        return
    by_method = {}
    for trace in traces:
        for attribute, args, _ in trace["steps"]:
            if args is not None:
                by_method.setdefault(attribute, []).append(tuple(args))
    made = {attribute: new_inputs(seen, limit) for attribute, seen in by_method.items()}
    inits = new_inputs([tuple(t["init"]) for t in traces], limit)
    visible = set()
    for trace in traces:
        try:
            visible.add(repr([r for r in run_trace(cls, trace["init"], [(a, g) for a, g, _ in trace["steps"]])
                              if r is not None and plain(r)]))
        except Exception:
            pass
    candidates = []
    for trace in traces:
        steps = [(a, as_tuple(g)) for a, g, _ in trace["steps"]]
        for i, (attribute, called) in enumerate(steps):
            for args in made.get(attribute, [])[:4] if called is not None else []:
                candidates.append((trace["init"], steps[:i] + [(attribute, args)] + steps[i + 1:]))
        for init in inits[:4]:
            candidates.append((init, steps))
        # The sequence's own shape: a step done twice, a step left out.
        for i in range(len(steps)):
            candidates.append((trace["init"], steps[:i + 1] + steps[i:]))
            if len(steps) > 1:
                candidates.append((trace["init"], steps[:i] + steps[i + 1:]))
    # Two traces' steps on one instance.
    for first in traces:
        for then in traces:
            if first is not then:
                candidates.append((first["init"], [(a, as_tuple(g)) for a, g, _ in first["steps"] + then["steps"]]))
    rng = Draw(repr([(t["init"], [(a, g) for a, g, _ in t["steps"]]) for t in traces]))
    for _ in range(limit * 2):
        trace = traces[rng.below(len(traces))]
        steps = []
        for attribute, args, _ in trace["steps"]:
            if args is None:
                steps.append((attribute, None))
                continue
            options = made.get(attribute) or [tuple(args)]
            steps.append((attribute, options[rng.below(len(options))] if rng.below(2) else tuple(args)))
        candidates.append((trace["init"], steps))
    written, known = 0, set()
    for init, steps in candidates:
        key = repr((init, steps))
        if key in known:
            continue
        known.add(key)
        try:
            first = run_trace(cls, init, steps)
            second = run_trace(cls, init, steps)
        except Exception:
            continue
        # A method that returns nothing (a procedure: `push`) is called and not checked: a
        # right program may return something there (itself, for chaining).
        checked = [a is not None and plain(a) and repr(a) == repr(b) for a, b in zip(first, second)]
        if not any(checked):
            continue
        results = [r for r, c in zip(first, checked) if c]
        line = {"class": name, "init": repr(tuple(init)),
                "steps": [[attribute, None if args is None else repr(tuple(args)), repr(r) if c else None]
                          for (attribute, args), r, c in zip(steps, first, checked)],
                "new": repr(results) not in visible}
        print(json.dumps(line), flush=True)
        written += 1
        if written >= most:
            break


class _Approx:
    def __init__(self, expected, rel=None, abs=None, **_):
        self.expected = expected

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False


class _Raises:
    def __init__(self, *_, **__):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True


class _Mark:
    def __getattr__(self, name):
        def mark(*args, **kwargs):
            if name == "parametrize":
                def decorate(function):
                    function.__dict__.setdefault("_rb_params", []).insert(0, (args[0], args[1]))
                    return function
                return decorate
            if len(args) == 1 and callable(args[0]) and not kwargs:
                return args[0]
            return lambda function: function

        return mark


def _fixture(*args, **kwargs):
    def mark(function):
        function._rb_fixture = kwargs.get("name") or function.__name__
        return function

    if len(args) == 1 and callable(args[0]):
        return mark(args[0])
    return mark


def pytest_stand_in():
    """What running a test module's tests without pytest takes: nothing in it judges (`approx`
    equals anything, `raises` swallows), since only the calls the tests make are wanted."""
    import types

    stand_in = types.ModuleType("pytest")
    stand_in.approx = _Approx
    stand_in.raises = _Raises
    stand_in.warns = _Raises
    stand_in.mark = _Mark()
    stand_in.fixture = _fixture
    stand_in.param = lambda *values, **_: values
    stand_in.skip = lambda *a, **k: None
    stand_in.fail = lambda *a, **k: None
    # Anything else pytest offers (`importorskip`, `xfail`, ...) does nothing.
    stand_in.__getattr__ = lambda name: (lambda *a, **k: None)
    sys.modules["pytest"] = stand_in


def parameter_rows(function):
    """Each combination of a test function's parametrize rows, as name -> value."""
    rows = [{}]
    for names, values in getattr(function, "_rb_params", []):
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        expanded = []
        for value in values:
            value = value if len(names) > 1 else (value,)
            try:
                expanded.append(dict(zip(names, value)))
            except TypeError:
                continue
        rows = [dict(row, **more) for row in rows for more in expanded]
    return rows


def call_test(function, row, fixtures, bound=None):
    import inspect

    try:
        parameters = list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return
    if bound is not None and parameters:
        parameters = parameters[1:]
    arguments = {}
    for name in parameters:
        if name in row:
            arguments[name] = row[name]
        elif name in fixtures:
            value = fixture_value(fixtures[name], fixtures, set())
            if value is _MISSING:
                return
            arguments[name] = value
        else:
            return
    try:
        if bound is not None:
            function(bound, **arguments)
        else:
            function(**arguments)
    except BaseException:
        pass


_MISSING = object()


def fixture_value(fixture, fixtures, resolving):
    import inspect

    if fixture in resolving:
        return _MISSING
    arguments = {}
    for name in inspect.signature(fixture).parameters:
        if name not in fixtures:
            return _MISSING
        value = fixture_value(fixtures[name], fixtures, resolving | {fixture})
        if value is _MISSING:
            return _MISSING
        arguments[name] = value
    try:
        value = fixture(**arguments)
        if inspect.isgenerator(value):
            value = next(value)
        return value
    except BaseException:
        return _MISSING


def run_pytest_module(spec):
    pytest_stand_in()
    fixtures = {}
    for source in (spec.get("conftest") or "", spec["test"]):
        space = {"__name__": "test_rewardbox"}
        try:
            exec(compile(source, "test_module.py", "exec"), space)
        except BaseException:
            continue
        for value in space.values():
            name = getattr(value, "_rb_fixture", None)
            if name:
                fixtures[name] = value
    for name, value in list(space.items()):
        if name.startswith("test") and callable(value) and not isinstance(value, type):
            for row in parameter_rows(value):
                call_test(value, row, fixtures)
        elif name.startswith("Test") and isinstance(value, type):
            try:
                instance = value.__new__(value)
            except Exception:
                continue
            for attribute in dir(value):
                method = getattr(value, attribute, None)
                if attribute.startswith("test") and callable(method):
                    for row in parameter_rows(method):
                        call_test(method, row, fixtures, bound=instance)


def run_unittest_module(spec):
    import io
    import types
    import unittest

    tests = types.ModuleType("test_rewardbox")
    try:
        exec(compile(spec["test"], "test_module.py", "exec"), tests.__dict__)
        suite = unittest.defaultTestLoader.loadTestsFromModule(tests)
        unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
    except BaseException:
        pass


def test_module_mode(spec):
    originals, seen, traces, inside = solution_module(spec)
    if spec.get("framework") == "unittest":
        run_unittest_module(spec)
    else:
        run_pytest_module(spec)
    read_named_values(traces, spec.get("prompt"), inside)
    limit = spec["max"]
    by_class = {}
    for trace in traces.values():
        by_class.setdefault(trace["class"], []).append(trace)
    each = max(limit, limit * 3 // max(len(seen) + len(by_class), 1))
    for name, calls in seen.items():
        print_results(originals[name], calls, limit, each, {"function": name})
    module = sys.modules[spec["module"]]
    for name, class_traces in by_class.items():
        print_class_results(module.__dict__[name], name, class_traces, limit, each)


def main():
    spec = json.loads(sys.stdin.read())
    if spec.get("mode") == "call":
        call_mode(spec)
    elif spec.get("mode") == "test_module":
        test_module_mode(spec)
    else:
        asserts_mode(spec)


main()
