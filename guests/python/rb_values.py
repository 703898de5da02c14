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

#: Exact types whose values are their own JSON (a float only when finite).
_PLAIN_SCALARS = frozenset({_int, _str, _bool, type(None)})


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
        if _all_plain(value):
            return value
        return [to_data(v, handle_of, depth + 1) for v in value]
    if t is _tuple:
        if _all_plain(value):
            return {"$t": value}
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


def _all_plain(items):
    """Whether every item is an exact int, str, bool or None (the common case: no walk needed)."""
    plain = _PLAIN_SCALARS
    for v in items:
        if _type(v) not in plain:
            return False
    return True


def encode(value, handle_of):
    """Value JSON text of `value` (see `to_data`)."""
    return _dumps(to_data(value, handle_of))


class _Tags:
    """`object_hook` of the JSON decoder: rebuilds each tagged object as the value it stands for,
    innermost first, while the C decoder builds the lists and scalars."""

    __slots__ = ("resolve",)

    def __init__(self, resolve):
        self.resolve = resolve

    def __call__(self, obj):
        if "$h" in obj and (_len(obj) == 1 or (_len(obj) == 2 and "type" in obj)):
            return self.resolve(obj)
        if _len(obj) == 1:
            (tag, body), = obj.items()
            rebuild = _REBUILD.get(tag)
            if rebuild is not None:
                return rebuild(body)
        raise ValueError("not value JSON: an object with keys %s" % _repr(sorted(obj))[:80])


def _listed(body, tag):
    if _type(body) is not _list:
        raise ValueError("%s must hold a list" % tag)
    return body


def _pairs(body):
    out = {}
    for pair in _listed(body, "$d"):
        if _type(pair) is not _list or _len(pair) != 2:
            raise ValueError("a $d entry must be a [key, value] pair")
        out[pair[0]] = pair[1]
    return out


def _bytes_of(body):
    if _type(body) is not _str:
        raise ValueError("$b must hold base64 text")
    return _b64decode(body, validate=True)


def _float_of(body):
    if body not in ("inf", "-inf", "nan"):
        raise ValueError("$f must be inf, -inf or nan")
    return _float(body)


def _complex_of(body):
    parts = _listed(body, "$c")
    if _len(parts) != 2 or any(_type(p) not in (_int, _float) for p in parts):
        raise ValueError("$c must be [real, imag] numbers")
    return _complex(parts[0], parts[1])


_REBUILD = {
    "$t": lambda body: _tuple(_listed(body, "$t")),
    "$s": lambda body: _set(_listed(body, "$s")),
    "$fs": lambda body: _frozenset(_listed(body, "$fs")),
    "$d": _pairs,
    "$b": _bytes_of,
    "$f": _float_of,
    "$c": _complex_of,
}


#: Value JSON of no keyword arguments (sent as is, and read back without decoding).
NO_KWARGS = '{"$d":[]}'


def decoder(resolve):
    """A function from value JSON text to exact built-in values; `resolve(tag)` turns a handle tag
    into an object. It raises `ValueError` for anything that is not value JSON (`TypeError` for an
    unhashable set member or dict key)."""
    decode_json = _json.JSONDecoder(object_hook=_Tags(resolve)).decode

    def decode(text):
        try:
            return decode_json(text)
        except RecursionError:
            raise ValueError("value JSON nested too deeply") from None

    return decode


def decode(text, resolve):
    """Exact built-in values from value JSON text (see `decoder`)."""
    return decoder(resolve)(text)


def no_handles(value):
    """`handle_of` where only built-in data may cross."""
    raise TypeError("a %s cannot cross the sandbox boundary: use plain data (None, bool, int, float, "
                    "str, bytes, list, tuple, set, frozenset, dict)" % _type(value).__name__)
