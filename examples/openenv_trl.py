"""TRL's GRPOTrainer on rewardbox's OpenEnv environments, through `environment_factory`.

Start the server, then train (this script is not run in CI: TRL needs torch and a GPU):

    rewardbox serve --env-dir codegym_envs            # or --openenv coding for a single environment
    REWARDBOX_URL=http://127.0.0.1:8080 python examples/openenv_trl.py --model Qwen/Qwen3-0.6B

TRL makes one instance per rollout with `factory()`, calls `reset(**row)` with the dataset row,
exposes every public method but `reset` and `get_reward` as a tool (its docstring is the tool's
description), and, when the class has `get_reward`, uses it as a reward. Each instance holds one
OpenEnv WebSocket session: one sandbox on the server, kept across the rollout's turns.

- `CodingTools`: a Python interpreter whose variables persist between calls (C, C++, Rust and
  JavaScript too), for agents that compute or test as they reason. It has no reward of its own:
  pair it with a reward function (rewardbox's `Scorer` on the final answer, say).
- `CodeGymTools`: a CodeGym environment of the server's `--env-dir`; the row's `env` names its
  file, `config` its instance; the environment's reward is the rollout's.
"""

import json
import os

from openenv.core.generic_client import GenericEnvClient

DEFAULT_URL = "http://127.0.0.1:8080"


def _url():
    return os.environ.get("REWARDBOX_URL", DEFAULT_URL).rstrip("/")


class CodingTools:
    """Code execution in rewardbox's sandbox, Python persistent like a REPL."""

    def __init__(self, base_url=None, token=None):
        headers = {"Authorization": f"Bearer {token}"} if token else None
        self._client = GenericEnvClient(base_url=f"{base_url or _url()}/openenv/coding", headers=headers).sync()

    def reset(self, **row):
        self._client.reset()
        return None

    def run_python(self, code: str) -> str:
        """Run Python code in a sandbox; variables and functions persist between calls.

        Args:
            code: The Python code to run.

        Returns:
            Its exit code, what it printed and its errors.
        """
        return self._run({"code": code})

    def run_program(self, code: str, language: str) -> str:
        """Compile and run a whole program in a sandbox.

        Args:
            code: The program's source.
            language: One of c, cpp, rust, javascript.

        Returns:
            Its exit code, what it printed and its errors (a compile error's message included).
        """
        return self._run({"code": code, "language": language})

    def _run(self, action):
        observation = self._client.step(action).observation
        return "exit code: {}\nstdout:\n{}\nstderr:\n{}".format(
            observation["exit_code"], observation["stdout"], observation["stderr"]
        )

    def __del__(self):
        # Not a tool: TRL exposes every public method to the model. The session ends with the
        # instance (the server also closes sessions idle for its --session-ttl-s).
        try:
            self._client.close()
        except Exception:
            pass


class CodeGymTools:
    """A CodeGym environment served by rewardbox: its reward is the rollout's."""

    def __init__(self, base_url=None, token=None):
        self._base = base_url or _url()
        self._headers = {"Authorization": f"Bearer {token}"} if token else None
        self._client = None
        self._reward = 0.0

    def reset(self, env, config, **row):
        if self._client is not None:
            self._client.close()
        self._client = GenericEnvClient(
            base_url=f"{self._base}/openenv/codegym/{env}", headers=self._headers
        ).sync()
        self._reward = 0.0
        result = self._client.reset(config=config if isinstance(config, dict) else json.loads(config))
        return result.observation["text"]

    def call(self, name: str, parameters: str) -> str:
        """Call one of the environment's functions.

        Args:
            name: The function's name, as the task describes it.
            parameters: Its parameters, a JSON object such as {"index": 1}.

        Returns:
            What the environment answered.
        """
        result = self._client.step({"name": name, "parameters": json.loads(parameters or "{}")})
        if result.reward is not None:
            self._reward = result.reward
        return result.observation["text"]

    def get_reward(self) -> float:
        return self._reward

    def __del__(self):
        try:
            if self._client is not None:
                self._client.close()
        except Exception:
            pass


def main():
    import argparse

    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="Qwen/Qwen3-0.6B")
    parser.add_argument("--env", default="Toy_1_I__SumListEnv", help="a CodeGym file stem of the server's --env-dir")
    args = parser.parse_args()
    configs = [{"values": [3, 4, 5]}, {"values": [10, -2]}, {"values": [7]}]
    dataset = Dataset.from_list(
        [
            {
                "prompt": [{"role": "user", "content": "Sum the hidden list with the tools, then call Done."}],
                "env": args.env,
                "config": json.dumps(config),
            }
            for config in configs
        ]
    )
    trainer = GRPOTrainer(
        model=args.model,
        train_dataset=dataset,
        args=GRPOConfig(chat_template_kwargs={"enable_thinking": False}, logging_steps=1),
        environment_factory=CodeGymTools,
    )
    trainer.train()


if __name__ == "__main__":
    main()
