"""A reward function for TRL's ``GRPOTrainer`` (and any trainer with the same calling convention)."""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Union

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


def trl_reward(
    verifier: str = "math",
    reference_column: str = "answer",
    scorer: Optional[Scorer] = None,
    **task_fields: Any,
) -> Callable[..., List[Optional[float]]]:
    """A TRL reward function scoring each completion with ``verifier`` against the dataset column
    ``reference_column``.

    TRL calls it as ``reward_fn(prompts=..., completions=..., **dataset_columns)`` with one entry per
    completion in every list; it returns ``list[float]``, with ``None`` for masked results (a
    verifier that crashed or ran out of a limit), which TRL leaves out. ``task_fields`` are added to
    every task (for example ``float_rounding=2`` or ``limits={"fuel": 10**8}``).
    """

    def reward_fn(prompts: Optional[list] = None, completions: Optional[list] = None, **columns: Any):
        if completions is None:
            raise ValueError("TRL passes `completions`; none were given")
        if reference_column not in columns:
            raise ValueError(
                f"the dataset column {reference_column!r} (reference_column) is missing; "
                f"columns given: {sorted(columns)}"
            )
        references = columns[reference_column]
        if len(references) != len(completions):
            raise ValueError(f"{len(completions)} completions but {len(references)} references")
        tasks = [
            dict(task_fields, id=str(i), verifier=verifier, reference=ref, completions=[completion_text(c)])
            for i, (c, ref) in enumerate(zip(completions, references))
        ]
        results = (scorer or default_scorer()).score(tasks)
        out: List[Optional[float]] = []
        for r in results:
            c = r["results"][0]
            out.append(None if c.get("mask") else float(c["score"]))
        return out

    reward_fn.__name__ = f"rewardbox_{verifier}"
    reward_fn.__qualname__ = reward_fn.__name__
    return reward_fn
