import gymnasium


class RewardRaisesEnv(gymnasium.Env):
    finished = False

    @staticmethod
    def from_env_str(env_str):
        return RewardRaisesEnv() if env_str.startswith("RewardRaisesEnv@") else None

    @property
    def reward(self):
        raise KeyError("no reward yet")

    def step(self, action):
        return True, "ok"

    def solve(self):
        return "solved?"
