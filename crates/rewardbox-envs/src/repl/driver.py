# The driver of a Python REPL session (rewardbox_envs::Repl): cells run one after another in one
# namespace, as in `python -i` or a notebook kernel. A cell's status is what `python3 cell.py`
# would exit with: 0, 1 after an uncaught exception (its traceback on stderr), or SystemExit's
# code, which ends the cell but not the session.
import io
import sys
import traceback

_namespace = {"__name__": "__main__", "__builtins__": __builtins__}


def _exit_status(code):
    if code is None:
        return 0
    if not isinstance(code, int):
        print(code, file=sys.stderr)
        return 1
    return code & 0xFF


def run(code, stdin):
    sys.stdin = io.StringIO(stdin)
    status = 0
    try:
        try:
            compiled = compile(code, "<cell>", "exec")
        except (SyntaxError, ValueError) as error:
            traceback.print_exception(type(error), error, None)
            return 1
        try:
            exec(compiled, _namespace)
        except SystemExit as exit:
            status = _exit_status(exit.code)
        except BaseException as error:
            # The cell's own frames, without this driver's.
            traceback.print_exception(type(error), error, error.__traceback__.tb_next)
            status = 1
    finally:
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            try:
                stream.flush()
            except Exception:
                pass
    return status
