"""What a trusted verifier sandbox does not offer, reported as such.

A verifier that starts a process or opens a network connection cannot get a verdict here. That is
the sandbox's limit, not the candidate's fault, so it must never become a score of 0: the call
raises `SandboxUnavailable` (a `BaseException`, so `except Exception` in the verifier cannot turn
it into a score), and the verification is reported as a masked `verifier_error` naming the call,
even when the verifier catches it.
"""

import sys


class SandboxUnavailable(BaseException):
    """The verifier asked for something the sandbox does not offer."""


class _State:
    unavailable = None
    consulted = False
    quiet = 0


#: Where the host mounts the solution a DeepGym verifier reads.
SOLUTION_DIR = "/solution/"


def unavailable(what):
    """Records that the verifier asked for `what` and raises `SandboxUnavailable`."""
    message = "%s is not available in rewardbox's verifier sandbox (no processes, network or host files)" % what
    if _State.unavailable is None:
        _State.unavailable = message
    raise SandboxUnavailable(message)


def reset():
    """Forgets what an earlier verification asked for and read."""
    _State.unavailable = None
    _State.consulted = False


def consult():
    """Records that the verifier has read or run the solution: from now on, its failures are the
    solution's doing (DeepGym's rule)."""
    _State.consulted = True


class quietly:
    """Within it, what rewardbox itself reads (looking for the agent's text) is not the verifier
    consulting the solution."""

    def __enter__(self):
        _State.quiet += 1

    def __exit__(self, *exc):
        _State.quiet -= 1
        return False


def quiet():
    """Whether rewardbox itself is reading (see `quietly`)."""
    return _State.quiet > 0


def consulted():
    """Whether the verifier has read or run the solution in this verification."""
    return _State.consulted


def asked_for():
    """The first unavailable thing asked for in this verification, or None."""
    return _State.unavailable


#: Audit events of things the sandbox cannot do, and how to name them.
_EVENTS = {
    "subprocess.Popen": "subprocess.Popen",
    "os.system": "os.system",
    "os.exec": "os.exec*",
    "os.posix_spawn": "os.posix_spawn",
    "os.spawn": "os.spawn*",
    "os.fork": "os.fork",
    "os.forkpty": "os.forkpty",
    "socket.connect": "socket.connect",
    "socket.bind": "socket.bind",
    "socket.getaddrinfo": "socket.getaddrinfo",
    "socket.gethostbyname": "socket.gethostbyname",
    "urllib.Request": "urllib.request",
    "ctypes.dlopen": "ctypes",
}


def _audit(event, args):
    if event == "open":
        if _State.quiet:
            return
        path = args[0] if args else None
        if isinstance(path, str) and path.startswith(SOLUTION_DIR):
            _State.consulted = True
        return
    name = _EVENTS.get(event)
    if name is not None:
        unavailable(name)


def _refusing(what):
    def refuse(*args, **kwargs):
        unavailable(what)

    refuse.__name__ = what.rsplit(".", 1)[-1]
    return refuse


def install():
    """Makes what the sandbox cannot do report itself: an audit hook for sockets and the like,
    and stand-ins for the process functions (WASI's CPython fails those with a bare OSError
    before any audit event). Called by a verifier's instance when it starts (never in the
    snapshot, so candidates' instances pay nothing for it)."""
    import os
    import subprocess

    sys.addaudithook(_audit)
    for name in ("Popen", "run", "call", "check_call", "check_output", "getoutput", "getstatusoutput"):
        setattr(subprocess, name, _refusing("subprocess." + name))
    for name in ("system", "popen", "fork", "execv", "execve", "execvp", "execl", "spawnv", "posix_spawn"):
        if hasattr(os, name):
            setattr(os, name, _refusing("os." + name))
    try:
        import socket
    except ImportError:
        return
    for name in ("socket", "create_connection", "create_server", "getaddrinfo", "gethostbyname",
                 "socketpair", "fromfd"):
        if hasattr(socket, name):
            setattr(socket, name, _refusing("socket." + name))
