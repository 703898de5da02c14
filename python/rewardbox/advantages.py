"""Group-relative advantages for GRPO-style training, computed from a group's rewards (by the
Rust runtime's one definition, which `rewardbox audit --tier5` trains with too)."""

from __future__ import annotations

import math
from typing import Iterable, Mapping, Optional, Sequence, Union

from . import _rewardbox

#: A reward: a float, ``None`` for a masked result, or a result dict from ``Scorer``.
Reward = Union[float, int, None, Mapping[str, object]]

METHODS = ("grpo", "dr_grpo", "rloo")


class Advantages(list):
    """The advantages of one group, a ``list[float]`` in the group's order.

    ``zero_variance`` is true when the group's unmasked rewards are all equal (or fewer than two):
    every advantage is then 0 and the group carries no learning signal, so a trainer may drop it.
    ``masked`` lists, per position, whether the reward was excluded.
    """

    zero_variance: bool
    masked: list

    def __init__(self, values: Iterable[float], zero_variance: bool, masked: Sequence[bool]):
        super().__init__(values)
        self.zero_variance = zero_variance
        self.masked = list(masked)

    def __repr__(self) -> str:
        return f"Advantages({list.__repr__(self)}, zero_variance={self.zero_variance})"


def _reward(r: Reward) -> Optional[float]:
    if r is None:
        return None
    if isinstance(r, Mapping):
        if r.get("mask"):
            return None
        score = r.get("score")
        if not isinstance(score, (int, float)):
            raise ValueError(f"a result dict needs a numeric \"score\", got {score!r}")
        return float(score)
    if isinstance(r, bool) or not isinstance(r, (int, float)):
        raise ValueError(f"a reward must be a number, None or a result dict, got {r!r}")
    if math.isnan(r):
        raise ValueError("a reward is NaN")
    return float(r)


def advantages(rewards: Sequence[Reward], method: str = "grpo", epsilon: float = 1e-4) -> Advantages:
    """Advantages of one group of completions of the same prompt.

    ``rewards``: floats, ``None`` for masked results, or the result dicts of ``Scorer.score_group``
    (a result with ``"mask": true`` is masked). Masked entries are left out of the group's
    statistics and get advantage 0.

    ``method``:
      * ``"grpo"``: ``(r - mean) / (std + epsilon)``, with the sample standard deviation (n - 1), as
        TRL computes it;
      * ``"dr_grpo"``: ``r - mean`` (Dr. GRPO: no division by the standard deviation);
      * ``"rloo"``: ``r - mean of the others`` (REINFORCE leave-one-out).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    values = [_reward(r) for r in rewards]
    computed, zero_variance = _rewardbox.advantages(values, method, float(epsilon))
    return Advantages(computed, zero_variance, [v is None for v in values])
