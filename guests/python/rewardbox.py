"""Helpers for Python verifiers run by rewardbox, `verify(task, completion)`.

    import rewardbox

    def verify(task, completion):
        program = rewardbox.extract_code(completion)
        if program is None:
            return 0.0
        solution = rewardbox.open_candidate(program)    # a module; calls run in the candidate's sandbox
        cases = [solution.add(a, b) == a + b for a, b in task["pairs"]]
        return sum(cases) / len(cases)

The candidate runs in a sandbox of its own with the task's `candidate_limits`; only plain data
comes back (anything else is a handle that equals only itself). An exception it raises arrives
as the same built-in type, and a `CandidateError` too; when it exits or crosses a limit, that call
and every later one raise `CandidateEnded` (`CandidateTimeout` for fuel and time). Left uncaught,
a `CandidateError` scores the completion 0.
"""

import rb_fences
import rb_proxy
from rb_proxy import CandidateEnded, CandidateError, CandidateObject, CandidateTimeout, NotPlainData

__all__ = [
    "CandidateEnded",
    "CandidateError",
    "CandidateObject",
    "CandidateTimeout",
    "NotPlainData",
    "Outcome",
    "extract_code",
    "open_candidate",
    "run_program",
]


class _Task:
    limits = None
    language = "python"


def configure(limits, language):
    """The candidate limits and language of the current task (set by the verifier driver)."""
    _Task.limits = limits
    _Task.language = language or "python"


def extract_code(completion, language=None):
    """The program in a completion: the last fenced block in the language, else the last fenced
    block, else the whole text; None when there is nothing."""
    return rb_fences.extract_code(completion, language or _Task.language)


def open_candidate(source, *, language=None, limits=None):
    """Starts `source` in a sandbox of its own and returns it as a module of proxies.

    `limits` is a dict like a task's `candidate_limits` (`fuel`, `wall_ms`, `memory_mb`,
    `output_bytes`); by default the task's."""
    live = rb_proxy.LiveCandidate(source, language or _Task.language,
                                  rb_proxy.limits_from(limits) if limits is not None else _Task.limits)
    return live.module()


class Outcome:
    """How a program run on standard input ended."""

    def __init__(self, outcome):
        #: `ok`, `exited_nonzero`, `fuel_exhausted`, `timeout`, `memory_exceeded`,
        #: `output_exceeded`, `crashed` or `compile_error` (stderr holds the compiler's message).
        self.status = outcome.status.name.lower()
        if self.status == "unsupported":
            # The host cannot run the language: the verifier's failure, never the candidate's.
            raise RuntimeError(outcome.stderr)
        self.exit_code = outcome.exit_code
        self.stdout = outcome.stdout
        self.stderr = outcome.stderr
        self.fuel = outcome.fuel_used

    @property
    def ok(self):
        """It ended normally with exit code 0."""
        return self.status == "ok" and (self.exit_code or 0) == 0

    def __repr__(self):
        return "Outcome(status=%r, exit_code=%r, stdout=%r)" % (self.status, self.exit_code, self.stdout[:80])


def run_program(source, stdin="", *, language=None, limits=None):
    """Runs `source` as a program reading `stdin`, in a fresh sandbox; returns an `Outcome`.
    `language` is `python` (the task's language by default), `c`, `cpp` or `rust`; a compiled
    program is compiled first, and a compile error is status `compile_error`."""
    from wit_world.imports import sandbox

    wit_limits = rb_proxy.limits_from(limits) if limits is not None else (_Task.limits or rb_proxy.limits_from(None))
    return Outcome(sandbox.run(language or _Task.language, source, stdin, wit_limits))
