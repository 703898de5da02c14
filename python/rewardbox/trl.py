"""A reward function for TRL's ``GRPOTrainer`` (and any trainer with the same calling convention)."""

from __future__ import annotations

import json
import warnings
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from ._rewardbox import Scorer

#: A completion as TRL passes it: a string, or a conversation (a list of ``{"role", "content"}``).
Completion = Union[str, Sequence[dict]]

_DEFAULT_SCORER: Optional[Scorer] = None


def default_scorer() -> Scorer:
    """The process-wide scorer the adapters use when none is given (all cores, default cache)."""
    global _DEFAULT_SCORER
    if _DEFAULT_SCORER is None:
        _DEFAULT_SCORER = Scorer()
    return _DEFAULT_SCORER


def completion_text(completion: Completion) -> str:
    """The text to score: the string itself, or the last assistant message of a conversation."""
    if isinstance(completion, str):
        return completion
    messages = list(completion)
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role", "assistant") == "assistant":
            content = message.get("content", "")
            if isinstance(content, list):  # multi-part content: keep the text parts
                return "".join(p.get("text", "") for p in content if isinstance(p, dict))
            return str(content)
    raise ValueError("a conversational completion has no assistant message")


#: The dataset columns a verifier reads per row by default: (reference column, task fields from
#: columns). The ``code`` verifier takes its tests from a ``tests`` column; the others compare
#: with a reference in ``answer``.
_DEFAULT_COLUMNS = {"code": (None, {"tests": "tests"})}


def trl_reward(
    verifier: str = "math",
    reference_column: Optional[str] = "",
    scorer: Optional[Scorer] = None,
    field_columns: Optional[Union[Mapping[str, str], Sequence[str]]] = None,
    **task_fields: Any,
) -> Callable[..., List[Optional[float]]]:
    """A TRL reward function scoring each completion with ``verifier``.

    Each row's task takes its ``reference`` from the dataset column ``reference_column`` (``None``:
    no reference) and any other task field from a column named in ``field_columns`` (a mapping
    task field -> column, or a list of columns that are fields of the same name); a column whose
    value is a JSON string for a field that needs an object (``tests``) is read as JSON. By default
    the ``code`` verifier reads ``tests`` from a ``tests`` column and no reference; the others read
    the reference from ``answer``.

    TRL calls it as ``reward_fn(prompts=..., completions=..., **dataset_columns)`` with one entry per
    completion in every list; it returns ``list[float]``, with ``None`` for a result that must not
    train: a masked one (a verifier that crashed or ran out of a limit) or a row that cannot be
    scored (its reference or tests missing or malformed), which is also reported as a warning. TRL
    leaves ``None`` out. ``task_fields`` are added to every task (for example
    ``float_rounding=2`` or ``limits={"fuel": 10**8}``). A column that is missing altogether is a
    configuration error: ``ValueError`` naming it.
    """
    default_reference, default_fields = _DEFAULT_COLUMNS.get(verifier, ("answer", {}))
    if reference_column == "":  # not given: the verifier's default
        reference_column = default_reference
    if field_columns is None:
        fields: Dict[str, str] = dict(default_fields)
    elif isinstance(field_columns, Mapping):
        fields = dict(field_columns)
    else:
        fields = {column: column for column in field_columns}

    def reward_fn(prompts: Optional[list] = None, completions: Optional[list] = None, **columns: Any):
        if completions is None:
            raise ValueError("TRL passes `completions`; none were given")
        wanted = ([reference_column] if reference_column else []) + list(fields.values())
        for column in wanted:
            if column not in columns:
                raise ValueError(
                    f"the dataset column {column!r} is missing; columns given: {sorted(columns)}"
                )
            if len(columns[column]) != len(completions):
                raise ValueError(f"{len(completions)} completions but {len(columns[column])} rows of {column!r}")
        tasks = []
        for i, completion in enumerate(completions):
            task = dict(task_fields, id=str(i), verifier=verifier, completions=[completion_text(completion)])
            if reference_column:
                task["reference"] = columns[reference_column][i]
            for field, column in fields.items():
                task[field] = _field_value(columns[column][i])
            tasks.append(task)
        results = score_groups(scorer or default_scorer(), tasks)
        out: List[Optional[float]] = []
        for i, r in enumerate(results):
            rows = r.get("results") or []
            if r.get("status") or not rows:
                warnings.warn(
                    f"rewardbox: row {i} cannot be scored, its reward is None: {r.get('detail', r.get('status'))}",
                    stacklevel=2,
                )
                out.append(None)
                continue
            c = rows[0]
            out.append(None if c.get("mask") else float(c["score"]))
        return out

    reward_fn.__name__ = f"rewardbox_{verifier}"
    reward_fn.__qualname__ = reward_fn.__name__
    return reward_fn


def score_groups(scorer: Scorer, tasks: List[dict]) -> List[dict]:
    """Scores `tasks`, one row each (a trainer's batch, a completion per row), in one batch: rows
    whose task fields but ``id`` are the same, the completions of one prompt, are scored as one
    task's completions (the first row's id), so that a verifier's failure on one of them is the
    completion's doing (0, not masked) where the verifier judges another (docs/guide/scoring.md,
    "whose doing a verifier's failure is"). Returns one result line per row, in order, with the
    row's own id and results; a row of an invalid task gets the task's ``invalid_task`` line."""
    index: Dict[str, int] = {}
    groups: List[dict] = []
    where = []
    for i, task in enumerate(tasks):
        try:
            key: Optional[str] = json.dumps(
                {k: v for k, v in task.items() if k not in ("id", "completions")}, sort_keys=True
            )
        except (TypeError, ValueError):
            key = None  # not JSON: scored alone, and refused there
        g = index.get(key) if key is not None else None
        if g is None:
            g = len(groups)
            groups.append(dict(task, completions=[]))
            if key is not None:
                index[key] = g
        start = len(groups[g]["completions"])
        groups[g]["completions"].extend(task.get("completions") or [])
        where.append((g, start, len(groups[g]["completions"]) - start))
    lines = score_rows(scorer, groups)
    out = []
    for task, (g, start, n) in zip(tasks, where):
        line = lines[g]
        if line.get("status") or not line.get("results"):
            out.append(line)
        else:
            out.append(dict(line, id=task.get("id"), results=line["results"][start : start + n]))
    return out


def score_rows(scorer: Scorer, tasks: List[dict]) -> List[dict]:
    """Scores `tasks` in one batch; when one of them is not a valid task (the batch is refused
    whole), each is scored alone and an invalid one answers ``{"status": "invalid_task",
    "detail": ...}``, so that one bad row costs only itself."""
    try:
        return scorer.score(tasks)
    except ValueError:
        out = []
        for task in tasks:
            try:
                out.append(scorer.score([task])[0])
            except ValueError as e:
                out.append({"status": "invalid_task", "detail": str(e), "results": []})
        return out


def _field_value(value: Any) -> Any:
    """A dataset cell as a task field: a JSON object or list written as a string is read."""
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value
