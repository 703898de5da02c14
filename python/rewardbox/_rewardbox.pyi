"""Typed stubs of the Rust extension module."""

from os import PathLike
from typing import Any, Dict, List, Optional, Tuple, Union

__version__: str

def builtin_verifiers() -> List[str]:
    """The names of the built-in verifiers."""

class Scorer:
    """Scores completions with sandboxed WebAssembly verifiers, in parallel, in-process."""

    def __init__(
        self,
        threads: Optional[int] = None,
        *,
        cache_dir: Optional[Union[str, PathLike[str]]] = None,
        no_cache: bool = False,
        fuel: Optional[int] = None,
        wall_ms: Optional[int] = None,
        memory_mb: Optional[int] = None,
        output_bytes: Optional[int] = None,
        seed: int = 0,
        python_engine: str = "auto",
    ) -> None:
        """``threads``: scoring threads (None: every core). ``cache_dir``/``no_cache``: the compiled
        verifier cache. ``fuel``, ``wall_ms``, ``memory_mb``, ``output_bytes``: default limits of
        every verifier run. ``seed``: the guests' random source. ``python_engine``: ``"auto"``
        (Monty, CPython behind it), ``"cpython"`` or ``"monty"``, for Python programs run on
        stdin/stdout whose task names none."""
    @property
    def threads(self) -> int:
        """The number of scoring threads."""
    def score(self, tasks: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Scores task dicts (the CLI's JSONL schema); one result dict per task, in order.
        Raises ``ValueError`` naming the task and the field when a task is invalid."""
    def score_group(self, task: Dict[str, Any], completions: List[str]) -> List[Dict[str, Any]]:
        """Scores ``completions`` for one task; one result dict per completion."""

class SessionError(Exception):
    """A session or environment failed. ``kind``: ``bad_env_str``, ``unknown_environment``,
    ``start_error``, ``too_many_sessions``, ``unknown_session``, ``broken``, ``step_failed``,
    ``raised`` or ``bad_request``."""

    kind: str

class Session:
    """One environment in a persistent sandbox. A context manager: closed on exit."""

    @property
    def id(self) -> str:
        """The session's id."""
    @property
    def observation(self) -> str:
        """The first observation (``get_obs()``/``_get_obs()``, else empty)."""
    def step(self, action: Union[str, Dict[str, Any]]) -> Tuple[bool, str]:
        """Applies an action (a JSON string ``{"name", "parameters"}``, or such a dict): ``(ok,
        observation)``. Raises ``SessionError`` when the step crossed a limit (the session is
        then broken), the environment raised, or the session is unknown."""
    @property
    def done(self) -> bool:
        """Whether the episode is over (the environment's ``finished``)."""
    @property
    def reward(self) -> float:
        """The environment's reward."""
    def reset(self, options: Optional[Dict[str, Any]] = None) -> str:
        """Resets the environment; returns its message."""
    def get_attribute(self, name: str) -> Any:
        """An attribute of the environment; a callable one is called (``"solve"`` runs the
        environment's own solution)."""
    def close(self) -> None:
        """Ends the session and frees its sandbox."""
    def __enter__(self) -> "Session": ...
    def __exit__(self, *args: Any) -> bool: ...

class Environments:
    """The environment files of a directory (``<FileStem>.py``, CodeGym format) and their sessions."""

    def __init__(
        self,
        env_dir: Union[str, PathLike[str]],
        *,
        fuel: Optional[int] = None,
        wall_ms: Optional[int] = None,
        memory_mb: Optional[int] = None,
        output_bytes: Optional[int] = None,
        idle_ttl_s: Optional[float] = None,
        max_sessions: Optional[int] = None,
        cache_dir: Optional[Union[str, PathLike[str]]] = None,
        no_cache: bool = False,
        seed: int = 0,
    ) -> None:
        """``fuel``, ``wall_ms``, ``output_bytes``: budget of every call into a session (default
        2e9 fuel, 10 s, 1 MiB); ``memory_mb``: per session (256); ``idle_ttl_s``: idle sessions
        are closed after it (600); ``max_sessions``: at most this many alive (4096)."""
    def start(self, env_str: str, session_id: Optional[str] = None) -> Session:
        """Starts a session from ``codegym_v1@<FileStem>@<json config>``."""
    def get(self, session_id: str) -> Session:
        """The live session ``session_id``."""
    def step_many(self, steps: List[Tuple[Session, str]]) -> List[Union[Tuple[bool, str], SessionError]]:
        """Steps many sessions in parallel with the GIL released; per step ``(ok, observation)``
        or the error."""
    @property
    def live_sessions(self) -> int:
        """How many sessions are alive."""
    def reap(self) -> int:
        """Closes sessions idle past the time-to-live; returns how many."""

def advantages(rewards: list[float | None], method: str, epsilon: float) -> tuple[list[float], bool]:
    """The advantages of one group's rewards (None: masked) and whether the group is zero-variance."""
