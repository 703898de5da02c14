"""Seeded random generators (a `random.Random` stands for numpy's generator)."""

import random


def np_random(seed=None):
    """A generator seeded with `seed`, and the seed."""
    if seed is None:
        seed = random.randrange(2 ** 32)
    return random.Random(seed), seed
