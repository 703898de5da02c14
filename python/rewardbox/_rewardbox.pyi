"""Typed stubs of the Rust extension module."""

from os import PathLike
from typing import Any, Dict, List, Optional, Union

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
    ) -> None:
        """``threads``: scoring threads (None: every core). ``cache_dir``/``no_cache``: the compiled
        verifier cache. ``fuel``, ``wall_ms``, ``memory_mb``, ``output_bytes``: default limits of
        every verifier run. ``seed``: the guests' random source."""
    @property
    def threads(self) -> int:
        """The number of scoring threads."""
    def score(self, tasks: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Scores task dicts (the CLI's JSONL schema); one result dict per task, in order.
        Raises ``ValueError`` naming the task and the field when a task is invalid."""
    def score_group(self, task: Dict[str, Any], completions: List[str]) -> List[Dict[str, Any]]:
        """Scores ``completions`` for one task; one result dict per completion."""
