# Runs an episode's verifier (VERIFIER) and tells the host whether it consulted the agent's work:
# the first time it opens, lists or stats a path in the workspace, or loads or runs the agent's
# files through deepgym_solution, it prints MARK on a line of its own (a fresh random mark per
# run, which the agent cannot know). A verifier that fails after that failed on the agent's work,
# as DeepGym judges it; one that fails before it has no verdict.
#
# The agent's code never runs here: however the verifier loads a workspace file (import, importlib,
# runpy, exec of its text), it runs as a live candidate in a sandbox of its own (rb_agent_code),
# except the files the environment itself put there and the agent left as they were (TRUSTED: their
# SHA-256 by path).


def _rb_guard(mark, workspace, trusted):
    import builtins
    import io
    import os
    import sys

    import deepgym_solution
    import rb_agent_code
    import rb_sandbox

    told = []
    fspath, join, normpath, getcwd = os.fspath, os.path.join, os.path.normpath, os.getcwd

    def consulted():
        if not told and not rb_sandbox.quiet():
            told.append(True)
            sys.stdout.write("\n" + mark + "\n")
            sys.stdout.flush()

    def in_workspace(args, kwargs):
        path = args[0] if args else kwargs.get("file", kwargs.get("path", "."))
        if isinstance(path, int):
            return False
        try:
            path = fspath(path)
        except TypeError:
            return False
        if isinstance(path, bytes):
            path = path.decode("utf-8", "replace")
        full = normpath(join(getcwd(), path))
        return full == workspace or full.startswith(workspace + "/")

    def hook(owner, name, always):
        original = getattr(owner, name, None)
        if original is None:
            return

        def hooked(*args, **kwargs):
            if always or in_workspace(args, kwargs):
                consulted()
            return original(*args, **kwargs)

        try:
            setattr(owner, name, hooked)
        except (AttributeError, TypeError):
            pass

    for owner, names in (
        (builtins, ("open",)),
        (io, ("open",)),
        (os, ("open", "stat", "lstat", "listdir", "scandir", "walk")),
    ):
        for name in names:
            hook(owner, name, False)
    for name in ("load_solution", "run_solution", "solution_source", "solution_namespace"):
        hook(deepgym_solution, name, True)
    rb_agent_code.install([workspace], deepgym_solution.open_agent_code, trusted=trusted, on_load=consulted)
    return rb_agent_code.original_compile, rb_agent_code.original_exec


_rb_compile, _rb_exec = _rb_guard(MARK, WORKSPACE, TRUSTED)
del _rb_guard
_rb_exec(_rb_compile(VERIFIER, "<verifier>", "exec"), {"__name__": "__main__"})
