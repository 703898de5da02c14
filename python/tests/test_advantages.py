"""Advantages against values computed by hand."""

import math

import pytest

from rewardbox import advantages


def close(a, b):
    return all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12) for x, y in zip(a, b)) and len(a) == len(b)


def test_grpo_is_mean_centred_and_divided_by_the_sample_std():
    # mean 0.5, sample std sqrt(((.5^2)*4)/3) = sqrt(1/3)
    std = math.sqrt(1 / 3)
    adv = advantages([1.0, 0.0, 1.0, 0.0], method="grpo", epsilon=0.0)
    assert close(adv, [0.5 / std, -0.5 / std, 0.5 / std, -0.5 / std])
    assert adv.zero_variance is False
    eps = advantages([1.0, 0.0], method="grpo")  # std = sqrt(0.5), epsilon 1e-4
    assert close(eps, [0.5 / (math.sqrt(0.5) + 1e-4), -0.5 / (math.sqrt(0.5) + 1e-4)])


def test_dr_grpo_is_only_mean_centred():
    assert close(advantages([1.0, 0.0, 0.0, 0.0], method="dr_grpo"), [0.75, -0.25, -0.25, -0.25])


def test_rloo_subtracts_the_mean_of_the_others():
    # r_i - mean(others): 1 - 0 = 1, 0 - 1/3, ...
    assert close(advantages([1.0, 0.0, 0.0, 0.0], method="rloo"), [1.0, -1 / 3, -1 / 3, -1 / 3])
    assert close(advantages([3.0, 1.0, 2.0], method="rloo"), [1.5, -1.5, 0.0])


def test_all_equal_groups_are_zero_variance():
    adv = advantages([1.0, 1.0, 1.0], method="grpo")
    assert list(adv) == [0.0, 0.0, 0.0] and adv.zero_variance
    assert advantages([0.5], method="rloo").zero_variance


def test_masked_results_are_excluded_and_get_zero():
    results = [
        {"score": 1.0, "mask": False},
        {"score": 0.0, "mask": True},
        {"score": 0.0},
        None,
    ]
    adv = advantages(results, method="dr_grpo")
    assert close(adv, [0.5, 0.0, -0.5, 0.0])
    assert adv.masked == [False, True, False, True]
    only_one_live = advantages([1.0, None, None], method="grpo")
    assert only_one_live.zero_variance and list(only_one_live) == [0.0, 0.0, 0.0]
    # Equal once the masked one is excluded.
    assert advantages([1.0, {"score": 0.0, "mask": True}, 1.0]).zero_variance


def test_bad_input_raises():
    with pytest.raises(ValueError, match="method"):
        advantages([1.0, 0.0], method="ppo")
    with pytest.raises(ValueError, match="number"):
        advantages(["1", 0.0])
    with pytest.raises(ValueError, match="NaN"):
        advantages([float("nan"), 0.0])
