"""Differential inputs for a task judged by asserts (HumanEval's `check(candidate)`, MBPP's list).

Runs in the Python sandbox, on the task's own solution: reads {"solution", "entry_point",
"asserts", "setup", "max"} as JSON on stdin, runs the asserts against the solution while recording
every call's arguments, moves each argument a little (numbers by one, strings and lists grown,
reversed, halved, booleans flipped; see `moved`), and prints JSON lines {"args", "expected", "exact"}: the
Python source of the argument tuple and of the solution's result, for the inputs where the solution
returns a plain value (one `ast.literal_eval` reads back equal), the same twice, without raising.
"""

import ast
import copy
import json
import sys


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


def fresh(items):
    """An item not in `items`, of its items' type: a grown list keeps distinct values distinct
    (tasks often promise no duplicates)."""
    if items and all(isinstance(v, int) and not isinstance(v, bool) for v in items):
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
    if isinstance(value, int):
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
    return []


def main():
    spec = json.loads(sys.stdin.read())
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

    known = [repr(args) for args in seen]
    written = 0
    # Round by round (every input's first move, then every second move...), each result printed
    # as it comes: a solution that runs out of fuel on a large move still leaves the earlier ones.
    for round in range(4):
        for args in seen:
            if not plain(args):
                continue
            for i, arg in enumerate(args):
                variants = moved(arg)
                if round >= len(variants):
                    continue
                candidate_args = args[:i] + (variants[round],) + args[i + 1:]
                text = repr(candidate_args)
                if text in known:
                    continue
                known.append(text)
                try:
                    first = solution(*copy.deepcopy(candidate_args))
                    second = solution(*copy.deepcopy(candidate_args))
                except Exception:
                    continue
                if repr(first) != repr(second) or not plain(first):
                    continue
                line = {"args": text, "expected": repr(first), "exact": not has_float(first)}
                print(json.dumps(line), flush=True)
                written += 1
                if written >= spec["max"]:
                    return


main()
