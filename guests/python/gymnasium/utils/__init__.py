"""gymnasium's utilities: `seeding`."""

from gymnasium.utils import seeding  # noqa: F401
