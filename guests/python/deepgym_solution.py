"""DeepGym's solution runtime, as rewardbox's verifier sandbox provides it.

DeepGym verifiers import this module to reach the solution without running it in the judge:
`load_solution(solution_path)` gives a module whose functions run in the solution's own sandbox,
`solution_source` reads its text, `run_solution` runs it as a script on standard input. Here the
solution is a live candidate (`rb_proxy`) in a WebAssembly sandbox of its own, with the task's
candidate limits across all its calls.

What the sandbox cannot do (a working directory shared with the solution, environment variables,
command-line arguments, subprocesses, loopback servers) raises `rb_sandbox.SandboxUnavailable`,
which rewardbox reports as a masked `verifier_error` naming the call, never as a score.
"""

import ast
import functools
import os
import subprocess

import rb_proxy
import rb_sandbox

#: Where rewardbox mounts the solution and the judge's files (read-only).
SOLUTION_PATH = "/solution/solution.py"


class SolutionError(Exception):
    """The solution failed: it raised, exited, ran out of a limit, or handed back something that
    cannot cross. A built-in exception it raised keeps its type too (`except ValueError`)."""


class SolutionTimeoutError(SolutionError, TimeoutError):
    """The solution ran out of time (fuel or wall clock): a judged 0. Also a `TimeoutError`."""


class LaunchError(BaseException):
    """The solution could not be started before any of its code ran (never raised here: starting
    a sandbox cannot fail that way)."""


class _State:
    limits = None
    language = "python"


def configure(limits, language):
    """The candidate limits and language of the current task (set by the verifier driver)."""
    _State.limits = limits
    _State.language = language or "python"


def consulted():
    """Whether the solution has been read, loaded or run in this verification."""
    return rb_sandbox.consulted()


@functools.cache
def _as_solution_error(kind):
    """`kind` (an exception class) that is a `SolutionError` too."""
    return type(kind.__name__, (kind, SolutionError), {"__module__": kind.__module__})


@functools.cache
def _as_timeout(kind):
    """`kind` (an exception class) that is a `SolutionTimeoutError` too."""
    return type(kind.__name__, (kind, SolutionTimeoutError), {"__module__": kind.__module__})


def translate(error):
    """DeepGym's exception for a `rb_proxy.CandidateError`."""
    if isinstance(error, rb_proxy.CandidateTimeout):
        return SolutionTimeoutError(str(error))
    for kind in type(error).__mro__:
        if kind.__module__ == "builtins" and issubclass(kind, Exception) and kind is not Exception:
            try:
                return _as_solution_error(kind)(*error.args)
            except Exception:
                break
    return SolutionError(str(error))


class _Solution:
    """The solution module as a DeepGym verifier sees it: calls raise DeepGym's errors."""

    def __init__(self, module):
        object.__setattr__(self, "_module", module)
        object.__setattr__(self, "_callables", {})

    def __getattr__(self, name):
        callables = object.__getattribute__(self, "_callables")
        if name in callables:
            return callables[name]
        try:
            value = getattr(object.__getattribute__(self, "_module"), name)
        except rb_proxy.CandidateError as e:
            raise translate(e) from None
        if callable(value):
            value = callables[name] = _translating(value)
        return value

    def __dir__(self):
        return dir(object.__getattribute__(self, "_module"))


def _translating(function):
    @functools.wraps(function)
    def call(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except rb_proxy.CandidateError as e:
            raise translate(e) from None

    return call


def _read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def open_live(solution_path):
    """The solution at `solution_path` as a live candidate (`rb_proxy.LiveCandidate`)."""
    rb_sandbox.consult()
    return _open(_read(solution_path), os.path.abspath(solution_path), _State.language)


def _open(source, filename, language):
    try:
        return rb_proxy.LiveCandidate(source, language, _State.limits, filename=filename)
    except rb_proxy.CandidateError as e:
        raise translate(e) from None


def open_agent_code(source, filename):
    """The agent's Python `source` (named `filename`), found where a verifier loads it (see
    `rb_agent_code`), as a module whose calls run in a sandbox of its own."""
    return _Solution(_open(source, filename, "python").module())


def load_solution(solution_path):
    """Imports the solution in a sandbox of its own and returns it as a module; every call runs
    there and only plain data crosses back (anything else is an opaque handle)."""
    return _Solution(open_live(solution_path).module())


def solution_namespace(module):
    """Names for exec-style test code: every function and class of the solution as a proxy, and
    its module-level values that can be read."""
    names = {}
    for name in dir(module):
        if name.startswith("_"):
            continue
        try:
            names[name] = getattr(module, name)
        except (SolutionError, AttributeError):
            continue
    return names


def solution_source(solution_path, name=None):
    """The solution's source, or the top-level `def`/`class` called `name` (the whole source when
    there is none by that name)."""
    source = _read(solution_path)
    if name is None:
        return source
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return ast.get_source_segment(source, node) or source
    return source


def run_solution(solution_path, args=(), *, cwd=None, env=None, input=None, timeout=None,
                 allow_subprocess=False, loopback_port=None):
    """Runs the solution as a script with `input` on standard input, in a fresh sandbox with the
    task's candidate limits; returns `subprocess.CompletedProcess`. Raises
    `subprocess.TimeoutExpired` (a `SolutionTimeoutError` too) when it runs out of fuel or time."""
    for given, what in ((args, "run_solution with command-line arguments"),
                        (cwd, "run_solution with a working directory"),
                        (env, "run_solution with environment variables"),
                        (allow_subprocess, "run_solution with allow_subprocess"),
                        (loopback_port, "run_solution with a loopback port")):
        if given:
            rb_sandbox.unavailable(what)
    rb_sandbox.consult()
    from wit_world.imports import sandbox, types

    outcome = sandbox.run(_State.language, _read(solution_path), input or "", _State.limits or rb_proxy.limits_from(None))
    command = ["python", solution_path]
    if outcome.status in (types.RunStatus.FUEL_EXHAUSTED, types.RunStatus.TIMEOUT):
        error = _as_timeout(subprocess.TimeoutExpired)(command, timeout or 0, outcome.stdout, outcome.stderr)
        raise error
    if outcome.status in (types.RunStatus.OK, types.RunStatus.EXITED_NONZERO):
        code = outcome.exit_code if outcome.exit_code is not None else 0
    else:
        code = -9  # ended by a limit or a trap, as a killed process
    return subprocess.CompletedProcess(command, code, outcome.stdout, outcome.stderr)


def load_files(files, entry):
    """Not offered: a solution made of several files."""
    rb_sandbox.unavailable("deepgym_solution.load_files")


def apply_patch(patch, files):
    """Not offered: applying a diff to fixture files."""
    rb_sandbox.unavailable("deepgym_solution.apply_patch")


def read_output(path, root):
    """Not offered: files the solution wrote (it has no file system)."""
    rb_sandbox.unavailable("deepgym_solution.read_output")


def read_output_bytes(path, root, limit=None):
    """Not offered: files the solution wrote (it has no file system)."""
    rb_sandbox.unavailable("deepgym_solution.read_output_bytes")
