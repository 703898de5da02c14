"""Spaces of actions and observations, on the standard library (`Box` holds lists)."""

import random
import string


class Space:
    """A set of values: `sample()` draws one, `contains(x)` (or `x in space`) tests one."""

    def __init__(self, shape=None, dtype=None, seed=None):
        self.shape = shape
        self.dtype = dtype
        self._rng = random.Random(seed)

    def seed(self, seed=None):
        self._rng = random.Random(seed)
        return [seed]

    @property
    def np_random(self):
        return self._rng

    def sample(self, mask=None):
        raise NotImplementedError

    def contains(self, x):
        raise NotImplementedError

    def __contains__(self, x):
        return self.contains(x)


class Discrete(Space):
    """The integers `start`, ..., `start + n - 1`."""

    def __init__(self, n, seed=None, start=0):
        super().__init__((), int, seed)
        self.n = int(n)
        self.start = int(start)

    def sample(self, mask=None):
        return self.start + self._rng.randrange(self.n)

    def contains(self, x):
        return isinstance(x, int) and self.start <= x < self.start + self.n

    def __repr__(self):
        return "Discrete(%d)" % self.n if not self.start else "Discrete(%d, start=%d)" % (self.n, self.start)

    def __eq__(self, other):
        return isinstance(other, Discrete) and (self.n, self.start) == (other.n, other.start)


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _nest(flat, shape):
    if len(shape) <= 1:
        return list(flat)
    step = _size(shape[1:])
    return [_nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


class Box(Space):
    """Numbers between `low` and `high`, in nested lists of `shape`."""

    def __init__(self, low, high, shape=None, dtype=float, seed=None):
        if shape is None:
            shape = (len(low),) if isinstance(low, (list, tuple)) else ()
        super().__init__(tuple(shape), dtype, seed)
        self.low = low
        self.high = high

    def _bounds(self, i):
        low = self.low[i] if isinstance(self.low, (list, tuple)) else self.low
        high = self.high[i] if isinstance(self.high, (list, tuple)) else self.high
        return low, high

    def sample(self, mask=None):
        values = []
        for i in range(_size(self.shape)):
            low, high = self._bounds(i)
            low = -1e9 if low == -float("inf") else low
            high = 1e9 if high == float("inf") else high
            values.append(self._rng.randint(int(low), int(high)) if self.dtype is int else self._rng.uniform(low, high))
        return _nest(values, self.shape) if self.shape else values[0]

    def contains(self, x):
        flat = []

        def walk(v):
            if isinstance(v, (list, tuple)):
                for item in v:
                    walk(item)
            else:
                flat.append(v)

        walk(x)
        if len(flat) != _size(self.shape):
            return False
        return all(self._bounds(i)[0] <= v <= self._bounds(i)[1] for i, v in enumerate(flat))

    def __repr__(self):
        return "Box(%r, %r, %r)" % (self.low, self.high, self.shape)


class MultiBinary(Space):
    """Lists of 0s and 1s of length `n`."""

    def __init__(self, n, seed=None):
        super().__init__((n,) if isinstance(n, int) else tuple(n), int, seed)
        self.n = n

    def sample(self, mask=None):
        return [self._rng.randrange(2) for _ in range(_size(self.shape))]

    def contains(self, x):
        return isinstance(x, (list, tuple)) and len(x) == _size(self.shape) and all(v in (0, 1) for v in x)


class MultiDiscrete(Space):
    """Lists whose item `i` is in `range(nvec[i])`."""

    def __init__(self, nvec, seed=None, start=None):
        super().__init__((len(nvec),), int, seed)
        self.nvec = list(nvec)
        self.start = list(start) if start is not None else [0] * len(self.nvec)

    def sample(self, mask=None):
        return [s + self._rng.randrange(n) for n, s in zip(self.nvec, self.start)]

    def contains(self, x):
        return (isinstance(x, (list, tuple)) and len(x) == len(self.nvec)
                and all(isinstance(v, int) and s <= v < s + n for v, n, s in zip(x, self.nvec, self.start)))


class Text(Space):
    """Strings of `min_length` to `max_length` characters from `charset`."""

    def __init__(self, max_length, *, min_length=1, charset=string.ascii_letters + string.digits, seed=None):
        super().__init__((), str, seed)
        self.max_length = max_length
        self.min_length = min_length
        self.character_set = frozenset(charset)
        self._chars = "".join(sorted(self.character_set))

    def sample(self, mask=None):
        n = self._rng.randint(self.min_length, self.max_length)
        return "".join(self._rng.choice(self._chars) for _ in range(n))

    def contains(self, x):
        return (isinstance(x, str) and self.min_length <= len(x) <= self.max_length
                and all(c in self.character_set for c in x))


class Tuple(Space):
    """Tuples whose item `i` is in `spaces[i]`."""

    def __init__(self, spaces, seed=None):
        super().__init__(None, None, seed)
        self.spaces = tuple(spaces)

    def sample(self, mask=None):
        return tuple(s.sample() for s in self.spaces)

    def contains(self, x):
        return isinstance(x, (tuple, list)) and len(x) == len(self.spaces) and all(s.contains(v) for s, v in zip(self.spaces, x))

    def __getitem__(self, i):
        return self.spaces[i]

    def __len__(self):
        return len(self.spaces)


class Dict(Space):
    """Dicts whose value at `key` is in `spaces[key]`."""

    def __init__(self, spaces=None, seed=None, **kwargs):
        super().__init__(None, None, seed)
        self.spaces = dict(spaces or {}, **kwargs)

    def sample(self, mask=None):
        return {k: s.sample() for k, s in self.spaces.items()}

    def contains(self, x):
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(s.contains(x[k]) for k, s in self.spaces.items())

    def __getitem__(self, key):
        return self.spaces[key]

    def keys(self):
        return self.spaces.keys()


class Sequence(Space):
    """Lists of any length whose items are in `space`."""

    def __init__(self, space, seed=None):
        super().__init__(None, None, seed)
        self.feature_space = space

    def sample(self, mask=None):
        return [self.feature_space.sample() for _ in range(self._rng.randint(0, 5))]

    def contains(self, x):
        return isinstance(x, (list, tuple)) and all(self.feature_space.contains(v) for v in x)
