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


def test_trl_reward_scores_a_failure_the_completion_caused_where_the_verifier_judges_its_group(scorer):
    # The verifier raises on text that is not a number: where it judges another completion of the
    # same row fields (a group's sibling), the failure is the completion's doing: 0, trained on.
    # Alone, or beside rows of other fields, nothing shows the verifier working: None (masked).
    code = "def verify(task, completion):\n    return int(completion) == int(task['reference'])\n"
    reward_fn = rewardbox.trl_reward(verifier="python", scorer=scorer, verifier_code=code)
    rewards = reward_fn(prompts=["p1", "p1", "p2"], completions=["5", "four", "four"], answer=["4", "4", "7"])
    assert rewards == [0.0, 0.0, None]
    assert reward_fn(prompts=["p1"], completions=["four"], answer=["4"]) == [None]


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


def _load_like_verl(path):
    """What verl's `get_custom_reward_fn` does with `custom_reward_function.path` and `.name`
    (verl/trainer/ppo/reward.py): the file loaded as a module named `custom_module`, outside its
    package, and the function wrapped to receive `reward_kwargs` as keyword arguments."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("custom_module", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["custom_module"] = module
    spec.loader.exec_module(module)
    raw_fn = getattr(module, "compute_score")
    reward_kwargs = {"flavour": "strict"}

    def wrapped_fn(*args, **kwargs):
        return raw_fn(*args, **kwargs, **reward_kwargs)

    return wrapped_fn


def test_verl_loads_the_adapter_by_path_and_passes_its_keywords(scorer, monkeypatch):
    import rewardbox.verl as verl_module

    monkeypatch.setattr(trl_module, "_DEFAULT_SCORER", scorer)
    compute = _load_like_verl(verl_module.__file__)
    # verl's naive reward manager calls with keywords, newer ones add reward_router_address.
    scored = compute(
        data_source="openai/gsm8k",
        solution_str="The answer is $\\boxed{72}$",
        ground_truth="72",
        extra_info={"index": 0, "split": "train"},
        reward_router_address="127.0.0.1:0",
    )
    assert scored["score"] == 1.0


def test_verl_code_grades_leetcode_class_solution(scorer, monkeypatch):
    monkeypatch.setattr(trl_module, "_DEFAULT_SCORER", scorer)
    gt = '{"fn_name": "twoSum", "inputs": [[[2, 7, 11, 15], 9], [[3, 2, 4], 6]], "outputs": [[0, 1], [1, 2]]}'
    right = (
        "```python\nclass Solution:\n    def twoSum(self, nums, target):\n"
        "        seen = {}\n        for i, n in enumerate(nums):\n"
        "            if target - n in seen:\n                return [seen[target - n], i]\n"
        "            seen[n] = i\n```"
    )
    wrong = "```python\nclass Solution:\n    def twoSum(self, nums, target):\n        return [0, 1]\n```"
    assert compute_score("taco", right, gt)["score"] == 1.0
    assert compute_score("taco", wrong, gt)["score"] == 0.5


def test_verl_a_row_that_cannot_be_read_is_masked_not_fatal(scorer, monkeypatch):
    import warnings

    monkeypatch.setattr(trl_module, "_DEFAULT_SCORER", scorer)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bad = compute_score("codecontests", "```python\nprint(1)\n```", '{"inputs": ["1"]}')
    assert bad == {"score": 0.0, "acc": 0.0, "masked": 1.0, "fuel": 0.0}
    assert any("cannot be scored" in str(w.message) for w in caught)


def test_trl_code_reward_reads_tests_per_row_and_masks_a_bad_row(scorer):
    import warnings

    reward_fn = rewardbox.trl_reward(verifier="code", scorer=scorer)
    add = '{"asserts": "assert add(2, 3) == 5", "entry_point": "add"}'
    twice = {"call": {"entry_point": "twice", "cases": [{"args": [4], "expected": 8}]}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rewards = reward_fn(
            prompts=["p1", "p2", "p3"],
            completions=[
                "```python\ndef add(a, b):\n    return a + b\n```",
                "```python\ndef twice(x):\n    return 2 * x\n```",
                "```python\ndef add(a, b):\n    return a + b\n```",
            ],
            tests=[add, twice, None],
        )
    assert rewards == [1.0, 1.0, None]
    assert any("row 2" in str(w.message) for w in caught)
    # A reference column for the others, with extra fields from columns by name.
    numeric = rewardbox.trl_reward(verifier="numeric", reference_column="solution", field_columns=["tolerance"], scorer=scorer)
    assert numeric(prompts=["p"], completions=["5.01"], solution=["5"], tolerance=[0.1]) == [1.0]


def test_verl_batch_manager_scores_a_batch_as_compute_score_scores_each(scorer, monkeypatch):
    # verl's batch reward manager passes four lists by name (numpy object arrays from its
    # non_tensor_batch) and takes one score dict per response.
    import numpy as np

    from rewardbox.verl import compute_score_batch

    monkeypatch.setattr(trl_module, "_DEFAULT_SCORER", scorer)
    code = "def verify(task, completion):\n    return int(completion) == int(task['reference'])\n"
    rows = [
        ("openai/gsm8k", "The answer is $\\boxed{72}$", "72", {"index": 0, "split": "train"}),
        ("openai/gsm8k", "The answer is $\\boxed{71}$", "72", {"index": 0, "split": "train"}),
        ("apps", "x", "not json", {"index": 1}),
        # One prompt's responses (index 2): the verifier judges "5", so its failure on "four" is
        # the response's doing; index 3 (another ground truth) has no response the verifier
        # judges: masked.
        ("mine", "5", "4", {"index": 2, "verifier": "python", "verifier_code": code}),
        ("mine", "four", "4", {"index": 2, "verifier": "python", "verifier_code": code}),
        ("mine", "four", "7", {"index": 3, "verifier": "python", "verifier_code": code}),
    ]
    columns = [np.array([row[k] for row in rows], dtype=object) for k in range(4)]
    answers = compute_score_batch(
        data_sources=columns[0], solution_strs=list(columns[1]), ground_truths=columns[2], extra_infos=columns[3]
    )
    assert [(a["score"], a["masked"]) for a in answers] == [
        (1.0, 0.0), (0.0, 0.0), (0.0, 1.0), (0.0, 0.0), (0.0, 0.0), (0.0, 1.0)
    ]
    for row, answer in zip(rows[:2], answers[:2]):
        assert compute_score(*row) == answer
    try:
        compute_score_batch(data_sources=["a"], solution_strs=["1", "2"], ground_truths=["1"])
    except ValueError as e:
        assert "one entry per response" in str(e)
    else:
        raise AssertionError("expected ValueError")
