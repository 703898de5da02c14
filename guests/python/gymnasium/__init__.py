"""A small `gymnasium` for rewardbox's sandbox, which has no numpy: what environment files written
for `gymnasium.Env` touch (the `Env` and `Wrapper` classes, `spaces`, `make`/`register`,
`utils.seeding`), implemented on the standard library. Spaces sample with `random.Random`;
`Box` holds Python lists instead of arrays."""

from gymnasium import error, spaces, utils
from gymnasium.core import ActionWrapper, Env, ObservationWrapper, RewardWrapper, Wrapper
from gymnasium.envs.registration import make, pprint_registry, register, registry, spec

__version__ = "1.4.0+rewardbox"

__all__ = [
    "ActionWrapper",
    "Env",
    "ObservationWrapper",
    "RewardWrapper",
    "Wrapper",
    "error",
    "make",
    "pprint_registry",
    "register",
    "registry",
    "spaces",
    "spec",
    "utils",
]
