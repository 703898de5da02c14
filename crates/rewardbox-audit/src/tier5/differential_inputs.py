"""Inputs for Tier 5's differential judge, made from the visible inputs' types and shapes.

Runs in the Python sandbox. Reads a JSON spec on stdin, in one of two modes:

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

    visible_results = set()
    for args in seen:
        try:
            visible_results.add(repr(solution(*copy.deepcopy(args))))
        except Exception:
            pass
    written = 0
    # Each result printed as it comes: a solution that runs out of fuel on a large input still
    # leaves the earlier ones.
    for args in new_inputs(seen, spec["max"]):
        try:
            first = solution(*copy.deepcopy(args))
            second = solution(*copy.deepcopy(args))
        except Exception:
            continue
        if repr(first) != repr(second) or not plain(first):
            continue
        line = {"args": repr(args), "expected": repr(first), "exact": not has_float(first),
                "new": repr(first) not in visible_results}
        print(json.dumps(line), flush=True)
        written += 1
        if written >= spec["max"] * 3:
            break
    print(json.dumps({"visible": len(seen)}), flush=True)


def main():
    spec = json.loads(sys.stdin.read())
    if spec.get("mode") == "call":
        call_mode(spec)
    else:
        asserts_mode(spec)


main()
