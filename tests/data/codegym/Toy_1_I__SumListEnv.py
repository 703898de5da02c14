import gymnasium
import json
import ast


class SumListEnv(gymnasium.Env):
    """Sum a hidden list with tools: Observe the length, read values one by one, add, submit."""

    def __init__(self, env_str: str = None):
        super().__init__()
        self.actions = {"Observe": self.Observe, "GetValue": self.GetValue, "Add": self.Add, "Done": self.Done}
        self.reset(ast.literal_eval(env_str.split("@", 1)[1]) if env_str else {})

    @property
    def finished(self) -> bool:
        return self._done

    @property
    def reward(self):
        return float(self._reward)

    @staticmethod
    def from_env_str(env_str: str):
        if not env_str.startswith("SumListEnv@"):
            return None
        return SumListEnv(env_str=env_str)

    def reset(self, options={}):
        self.values = list(options.get("values", []))
        self._reward = 0
        self._done = False
        self.step_count = 0
        return "Environment has been reset."

    def get_ref_answer(self):
        return sum(self.values)

    def _get_obs(self):
        return "A hidden list of %d integers. Tools: Observe, GetValue(index), Add(a, b), Done(answer)." % len(self.values)

    def step(self, action: str):
        self.step_count += 1
        try:
            call = json.loads(action)
            name, params = call["name"], call.get("parameters", {})
            if name not in self.actions:
                return False, "Error: unknown action %r" % name
            return True, self.actions[name](**params)
        except Exception as e:
            return False, "Error: %s" % e

    def Observe(self):
        return str(len(self.values))

    def GetValue(self, index):
        if 0 <= index < len(self.values):
            return str(self.values[index])
        return "Error: index out of range"

    def Add(self, a, b):
        return str(a + b)

    def Done(self, answer):
        ref = self.get_ref_answer()
        self._reward = 1 if answer == ref else 0
        self._done = True
        return "Your answer: %s, Reference answer: %s, reward=%d" % (answer, ref, self._reward)

    def solve(self):
        n = int(self.step(json.dumps({"name": "Observe", "parameters": {}}))[1])
        total = 0
        for i in range(n):
            value = int(self.step(json.dumps({"name": "GetValue", "parameters": {"index": i}}))[1])
            total = int(self.step(json.dumps({"name": "Add", "parameters": {"a": total, "b": value}}))[1])
        return self.step(json.dumps({"name": "Done", "parameters": {"answer": total}}))[1]
