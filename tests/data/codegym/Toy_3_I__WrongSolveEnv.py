import gymnasium
import json


class WrongSolveEnv(gymnasium.Env):
    """An environment whose own solution is wrong: the verification stage must say so."""

    def __init__(self, n):
        self.n = n
        self.finished = False
        self.reward = 0.0

    @staticmethod
    def from_env_str(env_str):
        if not env_str.startswith("WrongSolveEnv@"):
            return None
        return WrongSolveEnv(json.loads(env_str.split("@", 1)[1])["n"])

    def step(self, action):
        answer = json.loads(action)["parameters"]["answer"]
        self.finished = True
        self.reward = 1.0 if answer == self.n * 2 else 0.0
        return True, "done"

    def solve(self):
        return self.step(json.dumps({"name": "Done", "parameters": {"answer": self.n * 3}}))[1]
