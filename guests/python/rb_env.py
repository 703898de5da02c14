"""A CodeGym-style environment held in a session: one instance of the CPython component that
persists across steps. The host opens a live candidate whose program is `PROGRAM`, which exposes
this module's functions: `load(stem, source)` executes the environment's file as module `stem`,
then `start`, `step`, `reset`, `reward`, `done`, `get_attribute` and `observation` act on the
environment. The host calls one per step, with a fresh fuel and wall-clock budget each.

An environment file defines a `gymnasium.Env` subclass with `from_env_str(env_str)` (None unless
`env_str` starts with its prefix), `step(action) -> (bool, str)`, `reset(options)`, properties
`finished` and `reward`, and usually `get_ref_answer()` and `solve()`.
"""

import base64
import linecache
import marshal
import sys
import types

import gymnasium
import rb_values


class StartError(Exception):
    """The environment could not be started: no class accepts the environment string."""


#: The program of a session's live candidate (`load` and the others, imported from here).
PROGRAM = "from rb_env import load, start, step, reset, reward, done, get_attribute, observation\n"


def _text(value):
    if isinstance(value, str):
        return value
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        value = value[0]  # gymnasium's (observation, info)
    return "" if value is None else str(value)


def _plain(value):
    """`value` if it can cross as data, else its text."""
    try:
        rb_values.to_data(value, rb_values.no_handles)
        return value
    except (TypeError, rb_values.NotPlainData):
        return repr(value)


class Session:
    """The environment module, and the environment once started."""

    def __init__(self, stem, source, code=None):
        filename = stem + ".py"
        module = types.ModuleType(stem)
        module.__file__ = filename
        sys.modules[stem] = module
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        self.code = code if code is not None else compile(source, filename, "exec")
        exec(self.code, module.__dict__)
        self.module = module
        self.env = None

    def _classes(self):
        found = []
        for obj in list(vars(self.module).values()):
            if (isinstance(obj, type) and issubclass(obj, gymnasium.Env) and obj is not gymnasium.Env
                    and callable(getattr(obj, "from_env_str", None)) and obj.__module__ == self.module.__name__):
                found.append(obj)
        return found

    def start(self, env_str):
        """Creates the environment from `env_str` (`Prefix@<config>`); returns the first observation."""
        classes = self._classes()
        if not classes:
            raise StartError("%s.py defines no gymnasium.Env subclass with from_env_str" % self.module.__name__)
        for cls in classes:
            env = cls.from_env_str(env_str)
            if env is not None:
                self.env = env
                return self.observation()
        raise StartError("no environment class of %s.py (%s) accepts %r" % (
            self.module.__name__, ", ".join(c.__name__ for c in classes), env_str[:120]))

    def _env(self):
        if self.env is None:
            raise StartError("the environment has not been started")
        return self.env

    def observation(self):
        """The environment's observation (`get_obs()` or `_get_obs()`), else empty."""
        env = self._env()
        for name in ("get_obs", "_get_obs"):
            method = getattr(env, name, None)
            if callable(method):
                return _text(method())
        return ""

    def step(self, action):
        """One action (a JSON string `{"name", "parameters"}`): `[ok, observation]`."""
        result = self._env().step(action)
        if isinstance(result, tuple) and len(result) == 2:
            return [bool(result[0]), _text(result[1])]
        if isinstance(result, tuple) and len(result) == 5:  # gymnasium's 5-tuple
            return [True, _text(result[0])]
        return [True, _text(result)]

    def reset(self, options=None):
        """Resets the environment (with `options`); returns its message."""
        env = self._env()
        return _text(env.reset(options) if options is not None else env.reset())

    def reward(self):
        """The environment's `reward` property, as a float."""
        return float(self._env().reward)

    def done(self):
        """The environment's `finished` property."""
        env = self._env()
        finished = getattr(env, "finished", None)
        if finished is None:
            finished = getattr(env, "done", False)
        return bool(finished)

    def get_attribute(self, name):
        """An attribute of the environment; a callable one is called (so `solve` runs the
        environment's own solution), as CodeGym's server does."""
        value = getattr(self._env(), name)
        if callable(value):
            value = value()
        return _plain(value)


class _Held:
    session = None


def _session():
    if _Held.session is None:
        raise StartError("no environment is loaded")
    return _Held.session


def load(stem, source, code=None):
    """Executes the environment file `stem`.py (its text `source`) in this instance; `code` is
    what an earlier `load` returned for the same file (its compiled code, base64), to skip
    compiling. Returns the compiled code, for the host to pass next time."""
    compiled = marshal.loads(base64.b64decode(code)) if code is not None else None
    _Held.session = Session(stem, source, compiled)
    return code if code is not None else base64.b64encode(marshal.dumps(_Held.session.code)).decode("ascii")


def start(env_str):
    """Creates the environment from `env_str`; returns the first observation."""
    return _session().start(env_str)


def step(action):
    """One action: `[ok, observation]`."""
    return _session().step(action)


def reset(options=None):
    """Resets the environment."""
    return _session().reset(options)


def reward():
    """The environment's reward."""
    return _session().reward()


def done():
    """Whether the episode is over."""
    return _session().done()


def get_attribute(name):
    """An attribute of the environment, called when callable."""
    return _session().get_attribute(name)


def observation():
    """The environment's current observation."""
    return _session().observation()
