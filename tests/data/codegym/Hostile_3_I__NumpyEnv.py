import gymnasium
import numpy as np


class NumpyEnv(gymnasium.Env):
    @staticmethod
    def from_env_str(env_str):
        return NumpyEnv() if env_str.startswith("NumpyEnv@") else None
