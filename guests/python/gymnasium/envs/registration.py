"""`register` an environment under an id and `make` it again."""

import importlib

from gymnasium import error


class EnvSpec:
    """What `register` recorded: the id, where the class is, and its keyword arguments."""

    def __init__(self, id, entry_point=None, max_episode_steps=None, kwargs=None, **rest):
        self.id = id
        self.entry_point = entry_point
        self.max_episode_steps = max_episode_steps
        self.kwargs = dict(kwargs or {})

    def __repr__(self):
        return "EnvSpec(%r)" % self.id


#: Every registered environment, by id.
registry = {}


def register(id, entry_point=None, **kwargs):
    """Records how to make the environment `id`."""
    registry[id] = EnvSpec(id, entry_point, **kwargs)


def spec(id):
    """The `EnvSpec` of `id`."""
    if id not in registry:
        raise error.NameNotFound("no environment registered as %r" % id)
    return registry[id]


def make(id, **kwargs):
    """A new instance of the environment registered as `id` (or of a class given directly)."""
    if isinstance(id, type):
        return id(**kwargs)
    found = spec(id)
    entry = found.entry_point
    if isinstance(entry, str):
        module, _, name = entry.partition(":")
        entry = getattr(importlib.import_module(module), name)
    env = entry(**dict(found.kwargs, **kwargs))
    env.spec = found
    return env


def pprint_registry(*args, **kwargs):
    """Prints the registered ids."""
    for id in sorted(registry):
        print(id)
