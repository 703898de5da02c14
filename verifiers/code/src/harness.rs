//! Python programs the verifier runs in sandboxes of their own (never the candidate's): one that
//! turns HumanEval-style asserts into call cases with the reference solution, and one that tells
//! whether a text compiles as Python.

/// Reads `{"check", "reference", "entry_point"}` on stdin, runs `check(candidate)` with a recorder
/// in place of the candidate that records each argument list and returns the reference's value,
/// and prints `{"cases": [{"args", "expected"}], "skipped": n}`.
pub const CASE_RECORDER: &str = r#"
import copy, json, sys

spec = json.loads(sys.stdin.read())
scope = {"__name__": "__reference__"}
exec(compile(spec["reference"], "<reference>", "exec"), scope)
reference = scope.get(spec["entry_point"])
if not callable(reference):
    print("the reference defines no function named %r" % spec["entry_point"], file=sys.stderr)
    sys.exit(3)

INF = float("inf")

class NotJson(Exception):
    pass

def plain(v, depth=0):
    if depth > 100:
        raise NotJson()
    t = type(v)
    if v is None or t is bool or t is int or t is str:
        return v
    if t is float:
        if v != v or v in (INF, -INF):
            raise NotJson()
        return v
    if t is list or t is tuple:
        return [plain(x, depth + 1) for x in v]
    if t is dict and all(type(k) is str for k in v):
        return {k: plain(x, depth + 1) for k, x in v.items()}
    raise NotJson()

cases = []
skipped = [0]

def candidate(*args, **kwargs):
    if kwargs:
        raise TypeError("rewardbox: keyword arguments in asserts are not supported")
    try:
        recorded = plain(copy.deepcopy(list(args)))
    except NotJson:
        recorded = None
    result = reference(*args)
    try:
        if recorded is None:
            raise NotJson()
        cases.append({"args": recorded, "expected": plain(result)})
    except NotJson:
        skipped[0] += 1
    return result

exec(compile(spec["check"], "<asserts>", "exec"), scope)
check = scope.get("check")
if not callable(check):
    print("the asserts define no check(candidate) function", file=sys.stderr)
    sys.exit(3)
try:
    check(candidate)
except AssertionError:
    import traceback
    traceback.print_exc()
    print("the reference solution fails its own asserts", file=sys.stderr)
    sys.exit(4)
sys.stdout.write(json.dumps({"cases": cases, "skipped": skipped[0]}))
"#;

/// `ok(text)` returns True when `text` compiles as Python (it is never run).
pub const SYNTAX_CHECK: &str = r#"
def ok(text):
    try:
        compile(text, "<completion>", "exec")
    except (SyntaxError, ValueError):
        return False
    return True
"#;
