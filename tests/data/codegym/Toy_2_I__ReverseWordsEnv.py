import gymnasium
from gymnasium import spaces
import json
import random


class ReverseWordsEnv(gymnasium.Env):
    """Reverse the order of the words of a sentence, reading it one word at a time."""

    def __init__(self, sentence="", seed=None):
        super().__init__()
        self.action_space = spaces.Text(max_length=200)
        self.words = sentence.split()
        self.rng = random.Random(seed)
        self._reward = 0.0
        self._done = False

    @property
    def finished(self):
        return self._done

    @property
    def reward(self):
        return self._reward

    @staticmethod
    def from_env_str(env_str):
        prefix = "ReverseWordsEnv@"
        if not env_str.startswith(prefix):
            return None
        config = json.loads(env_str[len(prefix):])
        return ReverseWordsEnv(config["sentence"], config.get("seed"))

    def reset(self, options=None):
        if options and "sentence" in options:
            self.words = options["sentence"].split()
        self._reward, self._done = 0.0, False
        return "reset"

    def get_obs(self):
        return "The sentence has %d words." % len(self.words)

    def get_ref_answer(self):
        return " ".join(reversed(self.words))

    def step(self, action):
        call = json.loads(action)
        name, params = call["name"], call["parameters"]
        if name == "Count":
            return True, str(len(self.words))
        if name == "Word":
            return True, self.words[params["index"]]
        if name == "Done":
            self._done = True
            self._reward = 1.0 if params["answer"] == self.get_ref_answer() else 0.0
            return True, "reward=%s" % self._reward
        return False, "unknown action"

    def solve(self):
        n = int(self.step(json.dumps({"name": "Count", "parameters": {}}))[1])
        words = [self.step(json.dumps({"name": "Word", "parameters": {"index": i}}))[1] for i in range(n)]
        return self.step(json.dumps({"name": "Done", "parameters": {"answer": " ".join(words[::-1])}}))[1]
