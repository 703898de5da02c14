"""Environment registration (`register`, `make`)."""

from gymnasium.envs.registration import make, register, registry, spec  # noqa: F401
