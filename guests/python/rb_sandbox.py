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


def unavailable(what):
    """Records that the verifier asked for `what` and raises `SandboxUnavailable`."""
    message = "%s is not available in rewardbox's verifier sandbox (no processes, network or host files)" % what
    if _State.unavailable is None:
        _State.unavailable = message
    raise SandboxUnavailable(message)


def reset():
    """Forgets what an earlier verification asked for."""
    _State.unavailable = None


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
    name = _EVENTS.get(event)
    if name is not None:
        unavailable(name)


def install():
    """Installs the audit hook that reports unavailable calls. Called by a verifier's instance
    when it starts (never in the snapshot, so candidates' instances pay nothing for it)."""
    sys.addaudithook(_audit)
