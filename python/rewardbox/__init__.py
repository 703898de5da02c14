"""rewardbox: sandboxed, in-process reward verifiers for RL on language models.

Verifiers run as WebAssembly components under wasmtime, each completion in a fresh sandbox with
fuel, memory, wall-clock and output limits, in parallel, without Docker. Results use the same
schema as the ``rewardbox score`` CLI.

    import rewardbox
    scorer = rewardbox.Scorer()
    results = scorer.score([{"id": "q1", "verifier": "math", "reference": "1/2",
                             "completions": ["$\\\\boxed{0.5}$"]}])
    adv = rewardbox.advantages([r["score"] for r in results[0]["results"]], method="grpo")

    envs = rewardbox.Environments("codegym_envs")        # multi-turn environments (CodeGym format)
    with envs.start("codegym_v1@Leetcode_1_I__HouseRobberEnv@{...}") as session:
        ok, observation = session.step({"name": "Observe", "parameters": {}})
        print(session.done, session.reward)
"""

from ._rewardbox import SessionError, Environments, Scorer, Session, __version__, builtin_verifiers
from .advantages import Advantages, advantages
from .trl import trl_reward

__all__ = [
    "Scorer",
    "Environments",
    "Session",
    "SessionError",
    "Advantages",
    "advantages",
    "trl_reward",
    "builtin_verifiers",
    "__version__",
]
