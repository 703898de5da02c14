import gymnasium
import json
import os

#: Module state: shared by everything in one session's instance, never across sessions.
VISITS = []


class MisbehaveEnv(gymnasium.Env):
    """Does what its action names: loops, allocates, floods output, raises, reaches for files,
    the network and the environment, or counts how many times this module was visited."""

    def __init__(self):
        self.finished = False
        self.reward = 0.0

    @staticmethod
    def from_env_str(env_str):
        return MisbehaveEnv() if env_str.startswith("MisbehaveEnv@") else None

    def step(self, action):
        name = json.loads(action)["name"]
        if name == "Loop":
            while True:
                pass
        if name == "Allocate":
            hog = []
            while True:
                hog.append(bytearray(1 << 20))
        if name == "Flood":
            while True:
                print("x" * 10000)
        if name == "Raise":
            raise RuntimeError("asked to raise")
        if name == "ReadFile":
            try:
                return True, open("/etc/passwd").read()
            except OSError as e:
                return False, "denied: %s" % type(e).__name__
        if name == "Network":
            try:
                import socket
                socket.create_connection(("example.com", 80), timeout=1)
                return True, "connected"
            except Exception as e:
                return False, "denied: %s" % type(e).__name__
        if name == "Environ":
            return True, json.dumps(dict(os.environ))
        if name == "Exit":
            os._exit(3)
        if name == "Visit":
            VISITS.append(1)
            return True, str(len(VISITS))
        return False, "unknown action"

    def solve(self):
        return "nothing to solve"
