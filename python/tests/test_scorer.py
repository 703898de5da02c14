"""Scoring through the Python API: schema, groups, errors, and concurrency."""

import threading

import pytest

import rewardbox


def test_score_returns_the_cli_schema(scorer):
    results = scorer.score(
        [
            {"id": "q1", "verifier": "numeric", "reference": "391", "completions": ["17 * 23 = 391", "400"]},
            {"id": "q2", "verifier": "math", "reference": "\\frac{1}{2}", "completions": ["$\\boxed{0.5}$"]},
        ]
    )
    assert [r["id"] for r in results] == ["q1", "q2"]
    first = results[0]["results"]
    assert [c["score"] for c in first] == [1.0, 0.0]
    assert [c["passed"] for c in first] == [True, False]
    assert all(c["status"] == "ok" for c in first)
    assert isinstance(first[0]["fuel"], int) and first[0]["fuel"] > 0
    assert isinstance(first[0]["detail"], str)
    assert results[1]["results"][0]["score"] == 1.0


def test_score_group_scores_each_completion(scorer):
    task = {"id": "g", "verifier": "math", "reference": "2\\sqrt{2}"}
    group = scorer.score_group(task, ["$\\boxed{\\sqrt{8}}$", "$\\boxed{3}$", "$\\boxed{2.8284271}$"])
    assert [r["score"] for r in group] == [1.0, 0.0, 1.0]


def test_masked_results_carry_the_mask(scorer):
    group = scorer.score_group(
        {"id": "m", "verifier": "numeric", "reference": "1", "limits": {"fuel": 10}}, ["1"]
    )
    assert group[0]["mask"] is True
    assert group[0]["status"] == "verifier_error"
    assert "fuel" in group[0]["detail"]


def test_invalid_tasks_raise_value_error_naming_the_field(scorer):
    with pytest.raises(ValueError, match='"completions"'):
        scorer.score([{"id": "a", "verifier": "exact", "reference": "x"}])
    with pytest.raises(ValueError, match=r'task 1 \(id "b"\): .*"reference"'):
        scorer.score(
            [
                {"id": "a", "verifier": "exact", "reference": "x", "completions": ["x"]},
                {"id": "b", "verifier": "math", "reference": "", "completions": ["1"]},
            ]
        )
    with pytest.raises(ValueError, match="unknown verifier|no-such"):
        scorer.score([{"id": "c", "verifier": "no-such", "completions": ["1"]}])
    with pytest.raises(ValueError, match="cannot be passed"):
        scorer.score([{"id": "d", "verifier": "exact", "reference": object(), "completions": ["1"]}])
    with pytest.raises(TypeError):
        scorer.score("not a list")


def test_constructor_validates_arguments():
    with pytest.raises(ValueError, match="threads"):
        rewardbox.Scorer(threads=0)
    assert rewardbox.Scorer(threads=1, no_cache=True).threads == 1
    assert "math" in rewardbox.builtin_verifiers()
    with pytest.raises(ValueError, match="python_engine"):
        rewardbox.Scorer(threads=1, no_cache=True, python_engine="pypy")


def test_python_engine_is_the_default_for_tasks_that_name_none(cache_dir):
    # Monty cannot iterate sys.stdin: the program fails under "monty" alone, and passes under
    # "auto" (CPython behind Monty) and "cpython".
    task = {
        "id": "e",
        "verifier": "code",
        "tests": {"stdio": [{"stdin": "3 4\n", "stdout": "7"}]},
        "completions": ["```python\nimport sys\nfor line in sys.stdin:\n    print(sum(map(int, line.split())))\n```"],
    }
    for engine, passed in [("auto", True), ("cpython", True), ("monty", False)]:
        scorer = rewardbox.Scorer(threads=1, cache_dir=cache_dir, python_engine=engine)
        result = scorer.score([task])[0]["results"][0]
        assert result["passed"] is passed, (engine, result)
        assert result["status"] == "ok", (engine, result)


def test_eight_threads_sharing_one_scorer_match_serial_calls(scorer):
    batches = [
        [
            {
                "id": f"t{t}-{i}",
                "verifier": "math" if i % 2 else "numeric",
                "reference": str(i),
                "completions": [f"$\\boxed{{{i + k % 2}}}$" for k in range(4)],
            }
            for i in range(20)
        ]
        for t in range(8)
    ]
    serial = [scorer.score(b) for b in batches]
    concurrent = [None] * 8
    errors = []

    def work(t):
        try:
            concurrent[t] = scorer.score(batches[t])
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    strip = lambda rs: [[(c["score"], c["status"], c["fuel"]) for c in r["results"]] for r in rs]  # noqa: E731
    assert [strip(c) for c in concurrent] == [strip(s) for s in serial]
