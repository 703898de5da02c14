"""Writes the table `against_cpython.rs` checks: values as value JSON (encoded by the checking
sandbox's own `rb_values`), with what CPython says of them: `repr`, `bool`, and `==` between
every pair. Run by the test with the native python3."""

import json
import sys

sys.path.insert(0, sys.argv[1])
import rb_values  # noqa: E402

nan = float("nan")
scalars = [
    None, True, False, 0, 1, -1, 2, 255, 256, -5, 10**18, -(10**18), 2**53, 2**53 + 1, 2**63, 10**40, -(10**40),
    0.0, -0.0, 1.0, -1.0, 2.0, 0.5, 0.1, 0.30000000000000004, 1e15, 1e16, 1e17, 123456789.125, 1e-4, 1e-5,
    1.5e-5, 1e22, 1e-310, 5e-324, 1.7976931348623157e308, 2.0**53, 2.0**53 + 2, 9007199254740993.0, 1e300,
    float("inf"), float("-inf"), nan, 3.0, 255.0, 10.0**18, 0.25,
    complex(1, 0), complex(0, 0), complex(2, 3), complex(-0.0, 0), complex(1.5, 0), complex(0, 1),
    "", "a", "abc", "it's", 'say "hi"', "both ' and \"", "tab\there", "line\nbreak", "back\\slash", "\x00\x1f\x7f",
    "caf\u00e9", "\u00a0nbsp", "soft\u00adhyphen", "\u00ff\u00a1", "\u4e2d\u6587", "emoji \U0001F600", "\u0085",
    "1", "True", "None",
    b"", b"abc", b"it's", b"\x00\xff\n", b"1",
]
containers = [
    [], [1, 2, 3], [1.0, 2.0, 3.0], [True, 0], [1, [2, [3]]], ["a", "b"], [None], [nan], [[]],
    (), (1,), (1, 2, 3), (1.0, 2, True), ("a", (1, 2)), ((),), (nan,),
    set(), {1}, {1, 2, 3}, {1.0, 2.0, 3.0}, {"a"}, {(1, 2)}, frozenset(), frozenset({1}), frozenset({1, 2, 3}), {nan},
    {frozenset({1, 2})}, {True, 2},
    {}, {1: 2}, {1.0: 2}, {"a": [1, 2]}, {(1, 2): "x", 3: None}, {1: 2, 3: 4}, {3: 4, 1: 2}, {True: "t"},
    {"k": {1: {2: 3}}}, {nan: 1}, {1: nan},
]
values = scalars + containers
texts = [rb_values.encode(v, rb_values.no_handles) for v in values]


def decoded(text):
    """A fresh copy, as the checking sandbox decodes each side apart (a NaN is never the same
    object on both sides)."""
    return rb_values.decode(text, None)


rows = []
for v, text in zip(values, texts):
    mine = decoded(text)
    rows.append({
        "json": text,
        "repr": repr(mine),
        "truth": bool(mine),
        "equal": [i for i, other in enumerate(texts) if mine == decoded(other)],
    })
# Floats from their bits, across every exponent, and at the edges of positional form.
import random
import struct

generator = random.Random(20261126)
floats = [struct.unpack("<d", struct.pack("<Q", generator.getrandbits(64)))[0] for _ in range(3000)]
floats += [10.0 ** e * m for e in range(-8, 20) for m in (1, 1.5, 9.999999999999999, 0.1)]
floats += [float(n) for n in range(-1000, 1000, 7)] + [n / 7 for n in range(-100, 100)]
float_rows = [[struct.unpack("<Q", struct.pack("<d", f))[0], repr(f)] for f in floats]

# Details as `rb_asserts._preview` shows them.
sys.path.insert(0, sys.argv[1])
spaces = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\u200b\u180e"
texts = ["", "a", "  a  b  ", "x" * 159, "x" * 160, "x" * 161, "é" * 170, "a" + spaces + "b", spaces]
texts += ["".join(generator.choice("ab " + spaces) for _ in range(generator.randrange(0, 300))) for _ in range(200)]
# rb_asserts reaches the host through componentize-py's bindings, which exist only in the
# component: stand-ins let its pure helpers be imported here.
import types  # noqa: E402

stub = types.ModuleType("componentize_py_types")
stub.Err = type("Err", (Exception,), {})
sys.modules["componentize_py_types"] = stub
world, imports = types.ModuleType("wit_world"), types.ModuleType("wit_world.imports")
imports.sandbox, imports.types = None, types.SimpleNamespace(RunStatus=types.SimpleNamespace(
    OK=0, EXITED_NONZERO=1, FUEL_EXHAUSTED=2, TIMEOUT=3, MEMORY_EXCEEDED=4, OUTPUT_EXCEEDED=5, CRASHED=6,
    COMPILE_ERROR=7, UNSUPPORTED=8))
sys.modules.update({"wit_world": world, "wit_world.imports": imports})
import rb_asserts  # noqa: E402
previews = [[t, rb_asserts._preview(t)] for t in texts]

ends = "\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029\u2030"
texts += ["a\r\nb", "a\n\rb", "\r\r\n", "x\n", "\n"]
texts += ["".join(generator.choice("ab " + ends + spaces) for _ in range(generator.randrange(0, 60))) for _ in range(300)]
lines = [[t, t.splitlines(), t.strip()] for t in texts]

json.dump({"rows": rows, "floats": float_rows, "previews": previews, "lines": lines}, sys.stdout)
