"""The TRL and verl adapters, called the way those trainers call them."""

import rewardbox
from rewardbox import trl as trl_module
from rewardbox.verl import compute_score, verifier_for


def test_trl_reward_scores_plain_strings(scorer):
    reward_fn = rewardbox.trl_reward(verifier="math", reference_column="answer", scorer=scorer)
    rewards = reward_fn(
        prompts=["p1", "p1", "p2"],
        completions=["so $\\boxed{0.5}$", "$\\boxed{1/3}$", "The answer is $\\boxed{7}$"],
        answer=["\\frac{1}{2}", "\\frac{1}{2}", "7"],
    )
    assert rewards == [1.0, 0.0, 1.0]
    assert reward_fn.__name__ == "rewardbox_math"


def test_trl_reward_reads_conversational_completions(scorer):
    reward_fn = rewardbox.trl_reward(verifier="numeric", reference_column="solution", scorer=scorer)
    completions = [
        [{"role": "assistant", "content": "It is 42."}],
        [{"role": "user", "content": "42"}, {"role": "assistant", "content": "I think 41."}],
    ]
    assert reward_fn(prompts=[[], []], completions=completions, solution=["42", "42"]) == [1.0, 0.0]


def test_trl_reward_returns_none_for_masked_results(scorer):
    reward_fn = rewardbox.trl_reward(verifier="numeric", scorer=scorer, limits={"fuel": 10})
    assert reward_fn(prompts=["p"], completions=["1"], answer=["1"]) == [None]


def test_trl_reward_names_a_missing_column(scorer):
    reward_fn = rewardbox.trl_reward(reference_column="answer", scorer=scorer)
    try:
        reward_fn(prompts=["p"], completions=["1"], solution=["1"])
    except ValueError as e:
        assert "answer" in str(e)
    else:
        raise AssertionError("expected ValueError")


def test_verl_compute_score_picks_the_verifier(scorer, monkeypatch):
    monkeypatch.setattr(trl_module, "_DEFAULT_SCORER", scorer)
    gsm8k = compute_score("openai/gsm8k", "The answer is $\\boxed{72}$", "72")
    assert gsm8k["score"] == 1.0 and gsm8k["acc"] == 1.0 and gsm8k["masked"] == 0.0
    wrong = compute_score("lighteval/MATH", "$\\boxed{\\frac{1}{3}}$", "\\frac{1}{2}", {"index": 3, "split": "train"})
    assert wrong["score"] == 0.0 and wrong["acc"] == 0.0
    chosen = compute_score("my_set", "answer: 5.0000001", "5", {"verifier": "numeric", "tolerance": 1e-3})
    assert chosen["score"] == 1.0
    assert verifier_for("openai/gsm8k") == "math"
    assert verifier_for("math_dapo") == "math"
    assert verifier_for("codecontests") == "code"
    assert verifier_for("taco") == "code"
    assert verifier_for("likaixin/TACO-verified") == "code"
    assert verifier_for("apps") == "code"
    assert verifier_for("anything-else") == "math"


def test_verl_code_sources_grade_programs(scorer, monkeypatch):
    monkeypatch.setattr(trl_module, "_DEFAULT_SCORER", scorer)
    gt = '{"inputs": ["1 2\\n", "5 5\\n"], "outputs": ["3\\n", "10\\n"]}'
    right = "```python\na, b = map(int, input().split())\nprint(a + b)\n```"
    wrong = "```python\nprint(3)\n```"
    assert compute_score("codecontests", right, gt)["score"] == 1.0
    assert compute_score("codecontests", wrong, gt)["score"] == 0.5
    calls = '{"fn_name": "double", "inputs": [[2], [5]], "outputs": [[4], [10]]}'
    assert compute_score("apps", "```python\ndef double(x):\n    return 2 * x\n```", calls)["score"] == 1.0
