"""verl's ``custom_reward_function``: ``compute_score(data_source, solution_str, ground_truth, extra_info)``.

In a verl config::

    custom_reward_function:
      path: <site-packages>/rewardbox/verl.py
      name: compute_score

verl loads that file as a module of its own (not as part of the package), so its imports are
absolute; it passes keyword arguments of its own (``reward_router_address``, whatever is in
``custom_reward_function.reward_kwargs``), which are accepted and not used.

With verl's batch reward manager (``reward_model.reward_manager: batch``), name
``compute_score_batch`` instead: the whole batch is scored at once, in parallel, and the responses
of one prompt are scored as one task's completions.
"""

from __future__ import annotations

import json
import warnings
from typing import Any, Dict, List, Optional, Sequence

from rewardbox.trl import default_scorer, score_groups

#: Data sources graded by the ``math`` verifier (verl's usual math sets).
MATH_SOURCES = (
    "openai/gsm8k",
    "gsm8k",
    "lighteval/math",
    "digitallearninggmbh/math-lighteval",
    "hendrycks/math",
    "math_dapo",
    "math",
    "aime",
    "numina",
    "deepscaler",
    "simplerl",
)
#: Data sources graded by the ``code`` verifier, with the tests in ``ground_truth``.
CODE_SOURCES = ("codecontests", "apps", "taco", "code")

#: Fields of ``extra_info`` that verl itself adds and that are not task fields.
_VERL_FIELDS = {"split", "index", "question", "answer", "interaction_kwargs", "tools_kwargs", "need_tools_kwargs"}


def verifier_for(data_source: str) -> str:
    """The verifier a data source is graded with: ``math`` for math sets, ``code`` for program
    sets, ``math`` otherwise."""
    source = (data_source or "").lower()
    if any(source.startswith(c) or f"/{c}" in source for c in CODE_SOURCES):
        return "code"
    return "math"


def code_tests(ground_truth: Any) -> Dict[str, Any]:
    """The code verifier's ``tests`` from a code data set's ``ground_truth``: rewardbox's own form
    (``stdio``/``call``/``asserts``) as is, or the APPS/TACO/CodeContests form
    ``{"inputs": [...], "outputs": [...]}`` (stdio), with ``"fn_name"`` (calls)."""
    tests = json.loads(ground_truth) if isinstance(ground_truth, str) else dict(ground_truth)
    if any(k in tests for k in ("stdio", "call", "asserts")):
        return tests
    inputs, outputs = tests.get("inputs"), tests.get("outputs")
    if not isinstance(inputs, list) or not isinstance(outputs, list) or len(inputs) != len(outputs):
        raise ValueError('ground_truth must hold "stdio", "call" or "asserts", or equal-length "inputs" and "outputs"')
    if tests.get("fn_name"):
        cases = []
        for args, expected in zip(inputs, outputs):
            # APPS wraps a single return value in a list.
            if isinstance(expected, list) and len(expected) == 1:
                expected = expected[0]
            cases.append({"args": args if isinstance(args, list) else [args], "expected": expected})
        return {"call": {"entry_point": tests["fn_name"], "cases": cases}}
    return {"stdio": [{"stdin": i, "stdout": o} for i, o in zip(inputs, outputs)]}


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: Any,
    extra_info: Optional[Dict[str, Any]] = None,
    **_verl_kwargs: Any,
) -> Dict[str, Any]:
    """Scores one response for verl. Returns a dict with ``score`` (what verl trains on) and extra
    fields verl logs: ``acc`` (1.0 when passed), ``masked`` (1.0 when the verifier failed, scored
    0), ``fuel``.

    The verifier is ``extra_info["verifier"]`` when given (its other task fields are read from
    ``extra_info`` too), else chosen from ``data_source`` (see ``verifier_for``).
    """
    return compute_score_batch([data_source], [solution_str], [ground_truth], [extra_info])[0]


def compute_score_batch(
    data_sources: Sequence[str],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Optional[Sequence[Optional[Dict[str, Any]]]] = None,
    **_verl_kwargs: Any,
) -> List[Dict[str, Any]]:
    """Scores a whole batch of responses for verl's batch reward manager
    (``reward_model.reward_manager=batch``, ``custom_reward_function.name: compute_score_batch``),
    which passes these four lists by name: one dict per response, as ``compute_score`` answers.

    The batch is scored at once, on every core, where ``compute_score`` is called once per
    response. And the responses of one prompt (the same ``extra_info["index"]`` and fields) are
    one task's completions: a verifier's failure on one of them is the response's doing (0, not
    masked) where the verifier judges another (docs/guide/scoring.md).
    """
    n = len(solution_strs)
    if extra_infos is None:
        extra_infos = [None] * n
    if not (len(data_sources) == len(ground_truths) == len(extra_infos) == n):
        raise ValueError(
            "data_sources, solution_strs, ground_truths and extra_infos must have one entry per response "
            f"({len(data_sources)}, {n}, {len(ground_truths)}, {len(extra_infos)} given)"
        )
    answers: List[Optional[Dict[str, Any]]] = [None] * n
    tasks, rows = [], []
    for i in range(n):
        task = _task(data_sources[i], solution_strs[i], ground_truths[i], extra_infos[i])
        if isinstance(task, str):
            answers[i] = _unscorable(task)
        else:
            tasks.append(task)
            rows.append(i)
    for i, line in zip(rows, score_groups(default_scorer(), tasks) if tasks else []):
        answers[i] = _answer(line)
    return answers


def _task(data_source: str, solution_str: str, ground_truth: Any, extra_info: Optional[Dict[str, Any]]):
    """The task of one response, or why its ground truth cannot be read."""
    extra = dict(extra_info or {})
    verifier = extra.pop("verifier", None) or verifier_for(data_source)
    task: Dict[str, Any] = {k: v for k, v in extra.items() if k not in _VERL_FIELDS}
    task.update(id=str(extra.get("index", "verl")), verifier=verifier, completions=[solution_str])
    try:
        if verifier == "code" and "tests" not in task:
            task["tests"] = code_tests(ground_truth)
        elif "reference" not in task:
            task["reference"] = ground_truth
    except (ValueError, TypeError) as e:
        return f"its ground_truth cannot be read: {e}"
    return task


def _answer(line: Dict[str, Any]) -> Dict[str, Any]:
    """verl's dict for one scored task line."""
    if line.get("status") or not line.get("results"):
        return _unscorable(str(line.get("detail", line.get("status"))))
    result = line["results"][0]
    return {
        "score": 0.0 if result.get("mask") else float(result["score"]),
        "acc": 1.0 if result["passed"] else 0.0,
        "masked": 1.0 if result.get("mask") else 0.0,
        "fuel": float(result["fuel"]),
    }


def _unscorable(why: str) -> Dict[str, Any]:
    """The answer for a row that cannot be scored: 0, flagged ``masked``, with a warning (verl
    takes a number for every row; one bad row must not stop the training step)."""
    warnings.warn(f"rewardbox: a row cannot be scored, reward 0 (masked): {why}", stacklevel=3)
    return {"score": 0.0, "acc": 0.0, "masked": 1.0, "fuel": 0.0}
