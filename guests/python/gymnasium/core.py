"""`Env`, the base class of environments, and the wrappers."""

import random


class Env:
    """An environment: `reset`, `step`, `render`, `close`, and the spaces and metadata that
    describe it. Subclasses override `step` and `reset`."""

    metadata = {"render_modes": []}
    render_mode = None
    reward_range = (-float("inf"), float("inf"))
    spec = None
    action_space = None
    observation_space = None
    _np_random = None

    def step(self, action):
        """Runs one step of the environment's dynamics."""
        raise NotImplementedError

    def reset(self, *, seed=None, options=None):
        """Resets the environment; `seed` reseeds `np_random`."""
        if seed is not None:
            self._np_random = random.Random(seed)

    def render(self):
        """Renders the environment (nothing, by default)."""
        return None

    def close(self):
        """Frees what the environment holds (nothing, by default)."""

    @property
    def unwrapped(self):
        """The environment without wrappers."""
        return self

    @property
    def np_random(self):
        """The environment's random generator (a `random.Random`, here)."""
        if self._np_random is None:
            self._np_random = random.Random()
        return self._np_random

    @np_random.setter
    def np_random(self, value):
        self._np_random = value

    def get_wrapper_attr(self, name):
        """An attribute of the environment."""
        return getattr(self, name)

    def has_wrapper_attr(self, name):
        """Whether the environment has the attribute."""
        return hasattr(self, name)

    def set_wrapper_attr(self, name, value):
        """Sets an attribute of the environment."""
        setattr(self, name, value)

    def __str__(self):
        return "<%s instance>" % type(self).__name__

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()
        return False


class Wrapper(Env):
    """Wraps an environment, forwarding what it does not override."""

    def __init__(self, env):
        self.env = env

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.env, name)

    def step(self, action):
        return self.env.step(action)

    def reset(self, **kwargs):
        return self.env.reset(**kwargs)

    def render(self):
        return self.env.render()

    def close(self):
        return self.env.close()

    @property
    def unwrapped(self):
        return self.env.unwrapped


class ObservationWrapper(Wrapper):
    """Transforms observations with `observation`."""

    def observation(self, observation):
        return observation


class ActionWrapper(Wrapper):
    """Transforms actions with `action`."""

    def action(self, action):
        return action

    def step(self, action):
        return self.env.step(self.action(action))


class RewardWrapper(Wrapper):
    """Transforms rewards with `reward`."""

    def reward(self, reward):
        return reward
