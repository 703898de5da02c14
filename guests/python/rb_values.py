"""Value JSON: how values cross between a live candidate and its owner.

`None`, `bool`, `int`, `float` (finite), `str` and `list` are plain JSON. Every other value is an
object with one tag: `{"$t": [...]}` tuple, `{"$s": [...]}` set, `{"$fs": [...]}` frozenset,
`{"$d": [[key, value], ...]}` dict (any keys, in order), `{"$b": "<base64>"}` bytes,
`{"$f": "inf" | "-inf" | "nan"}` a float that is not finite, `{"$c": [real, imag]}` complex, and
`{"$h": n, "type": "<class name>"}` a handle to an object that stays where it was made.

A subclass of a built-in type crosses as the built-in value it holds, read with the built-in
type's own methods, so neither its `__eq__` nor any other method of the sender ever runs on the
receiving side. Only exact built-in values are rebuilt there.
"""

import base64 as _base64
import json as _json

_type = type
_issubclass = issubclass
_len = len
_repr = repr
_list, _tuple, _dict, _set, _frozenset = list, tuple, dict, set, frozenset
_int, _float, _str, _bytes, _bool, _complex = int, float, str, bytes, bool, complex
_float_repr = float.__repr__
_int_index = int.__index__
_float_float = float.__float__
_str_str = str.__str__
_bytes_from = bytes.__bytes__
_list_copy = list.copy
_tuple_iter = tuple.__iter__
_dict_items = dict.items
_set_iter = set.__iter__
_frozenset_iter = frozenset.__iter__
_complex_complex = complex.__complex__
_b64encode = _base64.b64encode
_b64decode = _base64.b64decode
_dumps = _json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode
_loads = _json.loads
_INF = float("inf")

#: Values nested deeper than this are refused (a value that contains itself is one).
MAX_DEPTH = 100

#: Tags of value JSON objects.
TAGS = frozenset({"$t", "$s", "$fs", "$d", "$b", "$f", "$c", "$h"})


class NotPlainData(Exception):
    """A value that cannot cross: nested too deeply, or refers to itself."""


def _finite(value):
    if value != value or value == _INF or value == -_INF:
        return {"$f": _float_repr(value)}
    return value


def to_data(value, handle_of, depth=0):
    """The JSON-able form of `value`. `handle_of(obj)` gives the handle dict of an object that
    is not built-in data (or raises `TypeError` where handles are not allowed)."""
    if depth > MAX_DEPTH:
        raise NotPlainData("the value is nested more than %d levels deep (or contains itself)" % MAX_DEPTH)
    t = _type(value)
    if value is None or t is _bool or t is _str or t is _int:
        return value
    if t is _float:
        return _finite(value)
    if t is _list:
        return [to_data(v, handle_of, depth + 1) for v in value]
    if t is _tuple:
        return {"$t": [to_data(v, handle_of, depth + 1) for v in value]}
    if t is _dict:
        return {"$d": [[to_data(k, handle_of, depth + 1), to_data(v, handle_of, depth + 1)] for k, v in _dict_items(value)]}
    if t is _set or t is _frozenset:
        tag = "$s" if t is _set else "$fs"
        return {tag: [to_data(v, handle_of, depth + 1) for v in value]}
    if t is _bytes:
        return {"$b": _b64encode(value).decode("ascii")}
    if t is _complex:
        return {"$c": [_finite(value.real), _finite(value.imag)]}
    # Subclasses of built-in types: the built-in value they hold, read by the base type.
    if _issubclass(t, _int):
        return _int_index(value)
    if _issubclass(t, _float):
        return _finite(_float_float(value))
    if _issubclass(t, _str):
        return _str_str(value)
    if _issubclass(t, _bytes):
        return {"$b": _b64encode(_bytes_from(value)).decode("ascii")}
    if _issubclass(t, _list):
        return to_data(_list_copy(value), handle_of, depth)
    if _issubclass(t, _tuple):
        return {"$t": [to_data(v, handle_of, depth + 1) for v in _tuple_iter(value)]}
    if _issubclass(t, _dict):
        return {"$d": [[to_data(k, handle_of, depth + 1), to_data(v, handle_of, depth + 1)] for k, v in _dict_items(value)]}
    if _issubclass(t, _frozenset):
        return {"$fs": [to_data(v, handle_of, depth + 1) for v in _frozenset_iter(value)]}
    if _issubclass(t, _set):
        return {"$s": [to_data(v, handle_of, depth + 1) for v in _set_iter(value)]}
    if _issubclass(t, _complex):
        c = _complex_complex(value)
        return {"$c": [_finite(c.real), _finite(c.imag)]}
    return handle_of(value)


def encode(value, handle_of):
    """Value JSON text of `value` (see `to_data`)."""
    return _dumps(to_data(value, handle_of))


def from_data(data, resolve, depth=0):
    """Rebuilds exact built-in values from the JSON-able form; `resolve(tag)` turns a handle tag
    into an object. Raises `ValueError` for anything that is not value JSON."""
    if depth > MAX_DEPTH + 2:
        raise ValueError("value JSON nested too deeply")
    t = _type(data)
    if data is None or t is _bool or t is _str or t is _int or t is _float:
        return data
    if t is _list:
        return [from_data(v, resolve, depth + 1) for v in data]
    if t is not _dict or _len(data) not in (1, 2):
        raise ValueError("not value JSON: %s" % _repr(data)[:80])
    if "$h" in data:
        return resolve(data)
    if _len(data) != 1:
        raise ValueError("not value JSON: %s" % _repr(data)[:80])
    (tag, body), = data.items()
    if tag == "$t":
        return _tuple(from_data(v, resolve, depth + 1) for v in _items(body, tag))
    if tag == "$d":
        out = {}
        for pair in _items(body, tag):
            if _type(pair) is not _list or _len(pair) != 2:
                raise ValueError("a $d entry must be a [key, value] pair")
            out[from_data(pair[0], resolve, depth + 1)] = from_data(pair[1], resolve, depth + 1)
        return out
    if tag == "$s":
        return {from_data(v, resolve, depth + 1) for v in _items(body, tag)}
    if tag == "$fs":
        return _frozenset(from_data(v, resolve, depth + 1) for v in _items(body, tag))
    if tag == "$b":
        if _type(body) is not _str:
            raise ValueError("$b must hold base64 text")
        return _b64decode(body, validate=True)
    if tag == "$f":
        if body not in ("inf", "-inf", "nan"):
            raise ValueError("$f must be inf, -inf or nan")
        return _float(body)
    if tag == "$c":
        parts = _items(body, tag)
        if _len(parts) != 2:
            raise ValueError("$c must be [real, imag]")
        real, imag = (from_data(p, resolve, depth + 1) for p in parts)
        if _type(real) not in (_int, _float) or _type(imag) not in (_int, _float):
            raise ValueError("$c parts must be numbers")
        return _complex(real, imag)
    raise ValueError("unknown value tag %s" % _repr(tag)[:40])


def _items(body, tag):
    if _type(body) is not _list:
        raise ValueError("%s must hold a list" % tag)
    return body


def decode(text, resolve):
    """Exact built-in values from value JSON text (see `from_data`)."""
    return from_data(_loads(text), resolve)


def no_handles(value):
    """`handle_of` where only built-in data may cross."""
    raise TypeError("a %s cannot cross the sandbox boundary: use plain data (None, bool, int, float, "
                    "str, bytes, list, tuple, set, frozenset, dict)" % _type(value).__name__)
