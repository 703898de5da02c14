import gymnasium


class InitRaisesEnv(gymnasium.Env):
    def __init__(self):
        raise ValueError("broken constructor")

    @staticmethod
    def from_env_str(env_str):
        return InitRaisesEnv() if env_str.startswith("InitRaisesEnv@") else None
