"""The trusted side of the CPython component: Python verifiers and asserts, run in a sandbox of
their own that opens the candidate as a live candidate.

`prepare` compiles a source once per process (the host keeps the result); `verify` judges one
completion. Two verifier signatures are told apart by their parameters: rewardbox's
`verify(task, completion)` and DeepGym's `verify(solution_path, test_cases_path=None)`, for which
the host mounts the solution at `/solution/solution.py` and the task's `test_cases` at
`/judge/test_cases.json` (with its `support_files` beside it), read-only.
"""

import ast
import json
import marshal
import math
import os
import sys
import traceback
import types as pytypes

import deepgym_solution
import rb_agent_code
import rb_asserts
import rb_tests
import rb_proxy
import rb_sandbox
import rewardbox
from componentize_py_types import Err
from wit_world.imports import types

JUDGE_DIR = "/judge"
TEST_CASES_PATH = JUDGE_DIR + "/test_cases.json"
SOLUTION_DIR = "/solution"
SOLUTION_PATH = deepgym_solution.SOLUTION_PATH

#: First parameter names that mark DeepGym's signature.
_DEEPGYM_FIRST = {"solution_path", "solution", "solution_file", "solution_dir", "path", "code_path"}

#: Case statuses a verifier may report (the WIT `case-status`).
_CASE_STATUS = {
    "passed": types.CaseStatus.PASSED,
    "wrong": types.CaseStatus.WRONG,
    "fuel_exhausted": types.CaseStatus.FUEL_EXHAUSTED,
    "timeout": types.CaseStatus.TIMEOUT,
    "memory_exceeded": types.CaseStatus.MEMORY_EXCEEDED,
    "output_exceeded": types.CaseStatus.OUTPUT_EXCEEDED,
    "crashed": types.CaseStatus.CRASHED,
    "exited_nonzero": types.CaseStatus.EXITED_NONZERO,
    "no_code_found": types.CaseStatus.NO_CODE_FOUND,
    "not_json": types.CaseStatus.NOT_JSON,
    "compile_error": types.CaseStatus.COMPILE_ERROR,
}

#: The largest integer, in decimal digits, a verifier reads from a candidate (and parses or
#: prints): bounds the work a huge number can force on the trusted side.
MAX_INT_DIGITS = 50_000


class VerifierFailed(Exception):
    """The verifier itself failed: reported as a masked `verifier_error`."""


# ---------------------------------------------------------------------------------------------
# prepare
# ---------------------------------------------------------------------------------------------


def _signature_kind(function):
    """`rewardbox` or `deepgym`, from `verify`'s parameters."""
    a = function.args
    names = [p.arg for p in a.posonlyargs + a.args]
    defaults = len(a.defaults)
    if names[:2] == ["task", "completion"]:
        return "rewardbox"
    if names and names[0] in _DEEPGYM_FIRST:
        return "deepgym"
    if len(names) == 1 or (len(names) == 2 and defaults >= 1):
        return "deepgym"
    if len(names) == 2:
        return "rewardbox"
    raise SyntaxError("verify must take (task, completion) or (solution_path, test_cases_path=None); "
                      "this one takes (%s)" % ", ".join(names))


def _prepare_verifier(source):
    tree = ast.parse(source, "verifier.py")
    verify = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "verify"]
    if verify:
        kind = _signature_kind(verify[-1])
    elif any(isinstance(n, ast.Return) for n in tree.body):
        # DeepGym's "body" form: the body of verify(solution_path, test_cases_path).
        wrapped = ast.parse("def verify(solution_path, test_cases_path=None):\n    pass\n")
        wrapped.body[0].body = tree.body
        tree = ast.fix_missing_locations(wrapped)
        kind = "deepgym"
    else:
        raise SyntaxError("the verifier defines no function verify(task, completion) "
                          "or verify(solution_path, test_cases_path=None)")
    return kind, compile(tree, "verifier.py", "exec")


def prepare(mode, source):
    """Compiles `source` as `mode`; raises `Err(message)` when it does not compile."""
    try:
        if mode == types.PythonMode.VERIFIER:
            kind, code = _prepare_verifier(source)
            payload = ("verifier", kind, code)
        elif mode == types.PythonMode.ASSERTS:
            prepared = rb_asserts.prepare_check(source)
            if not prepared[1]:
                raise SyntaxError("the asserts hold no assert statement that tests anything")
            payload = ("check", prepared)
        elif mode in (types.PythonMode.PYTEST, types.PythonMode.UNITTEST):
            framework = "pytest" if mode == types.PythonMode.PYTEST else "unittest"
            payload = ("tests", framework, rb_tests.read_spec(framework, source))
        else:
            payload = ("list", rb_asserts.prepare_list(rb_asserts.statements(source)))
    except SyntaxError as e:
        where = "line %s: " % e.lineno if e.lineno else ""
        raise Err("%s%s" % (where, e.msg if e.msg else e))
    except (ValueError, TypeError) as e:
        raise Err(str(e))
    kind = payload[1] if payload[0] == "verifier" else None
    return types.Prepared(mode=mode, code=marshal.dumps(payload), wants_files=kind == "deepgym")


# ---------------------------------------------------------------------------------------------
# verify
# ---------------------------------------------------------------------------------------------


def _number(value, what):
    if type(value) is bool or not isinstance(value, (int, float)):
        raise VerifierFailed("%s is a %s, not a number" % (what, type(value).__name__))
    value = float(value)
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise VerifierFailed("%s is %r, outside [0, 1]" % (what, value))
    return value


def _text(value):
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, default=str)[:2000]


def _case(index, case):
    """A WIT case verdict from one of a verifier's `cases` (a dict)."""
    if not isinstance(case, dict):
        raise VerifierFailed("case %d is a %s, not a dict" % (index, type(case).__name__))
    case_id = str(case.get("id", "case %d" % (index + 1)))
    passed = case.get("passed")
    if passed is not None and type(passed) is not bool:
        raise VerifierFailed("case %r: passed must be True or False" % case_id)
    score = _number(case["score"], "case %r's score" % case_id) if "score" in case else None
    if passed is None:
        passed = score == 1.0 if score is not None else False
    if score is None:
        score = 1.0 if passed else 0.0
    status = case.get("status")
    if status is None:
        status = "passed" if passed else "wrong"
    if status not in _CASE_STATUS:
        raise VerifierFailed("case %r: unknown status %r (one of %s)" % (case_id, status, ", ".join(_CASE_STATUS)))
    detail = case.get("detail", case.get("error", case.get("details", "")))
    return types.CaseVerdict(id=case_id, status=_CASE_STATUS[status], score=score, detail=_text(detail)[:2000])


def normalize(result, kind):
    """The WIT verdict of what a verifier returned: a bool, a number in [0, 1], or a dict with
    `score`, `passed`, `details`/`detail` and `cases`."""
    if type(result) is bool:
        return types.Verdict(score=float(result), passed=result, detail="", cases=[])
    if isinstance(result, (int, float)) and not isinstance(result, bool):
        score = _number(result, "the score")
        passed = score >= 0.5 if kind == "deepgym" else score == 1.0
        return types.Verdict(score=score, passed=passed, detail="", cases=[])
    if isinstance(result, dict):
        passed = result.get("passed")
        if passed is not None and type(passed) is not bool:
            raise VerifierFailed("passed must be True or False, not %r" % (passed,))
        if "score" in result:
            score = _number(result["score"], "the score")
        elif passed is not None:
            score = float(passed)
        else:
            raise VerifierFailed("the result dict has neither score nor passed")
        if passed is None:
            passed = score >= 0.5 if kind == "deepgym" else score == 1.0
        cases = result.get("cases") or []
        if not isinstance(cases, list):
            raise VerifierFailed("cases must be a list of dicts")
        detail = result.get("details", result.get("detail"))
        return types.Verdict(score=score, passed=passed, detail=_text(detail)[:4000],
                             cases=[_case(i, c) for i, c in enumerate(cases)])
    raise VerifierFailed("the verifier returned a %s; expected a bool, a number in [0, 1] or a dict"
                         % type(result).__name__)


def _run_verifier(kind, code, task, completion):
    module = pytypes.ModuleType("verifier")
    module.__file__ = JUDGE_DIR + "/verifier.py"
    sys.modules["verifier"] = module
    if kind == "deepgym":
        if JUDGE_DIR not in sys.path:
            sys.path.insert(0, JUDGE_DIR)
        # The solution is the agent's: however the verifier loads it, it runs as a live
        # candidate (rb_agent_code), never in this sandbox.
        rb_agent_code.install([SOLUTION_DIR], deepgym_solution.open_agent_code, on_load=rb_sandbox.consult)
        try:
            os.chdir(JUDGE_DIR)
        except OSError:
            pass
    exec(code, module.__dict__)
    verify = module.__dict__.get("verify")
    if not callable(verify):
        raise VerifierFailed("the verifier defines no verify function")
    if kind == "deepgym":
        if "test_cases" in task:
            result = verify(SOLUTION_PATH, TEST_CASES_PATH)
        else:
            result = verify(SOLUTION_PATH)
    else:
        result = verify(task, completion)
    return normalize(result, kind)


def _asserts_verdict(cases, held="asserts held"):
    passed = sum(1 for _, status, _ in cases if status == "passed")
    verdict_cases = [
        types.CaseVerdict(id=case_id, status=_CASE_STATUS[status], score=1.0 if status == "passed" else 0.0,
                          detail=detail)
        for case_id, status, detail in cases
    ]
    first = next(((i, s, d) for i, s, d in cases if s != "passed"), None)
    detail = "%d/%d %s" % (passed, len(cases), held)
    if first is not None:
        detail += "; %s: %s" % (first[0], first[2])
    return types.Verdict(score=passed / len(cases) if cases else 0.0, passed=first is None and bool(cases),
                         detail=detail, cases=verdict_cases)


def _failed(message):
    return Err(types.VerifyError_Failed(message))


def _where(error):
    """The verifier's own frame where `error` was raised, for the message."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.endswith("verifier.py")]
    return " (verifier.py line %d)" % frames[-1].lineno if frames else ""


def verify(prepared, task_json, completion):
    """Judges `completion` with the prepared verifier; raises `Err(verify-error)` when it cannot."""
    rb_sandbox.install()
    rb_sandbox.reset()
    sys.set_int_max_str_digits(MAX_INT_DIGITS)
    payload = marshal.loads(prepared.code)
    task = json.loads(task_json)
    if not isinstance(task, dict):
        raise Err(types.VerifyError_InvalidTask("the task must be a JSON object"))
    try:
        limits = rb_proxy.limits_from(task.get("candidate_limits"))
    except (AttributeError, TypeError) as e:
        raise Err(types.VerifyError_InvalidTask("\"candidate_limits\" must be an object of positive integers (%s)" % e))
    language = task.get("language") or "python"
    deepgym_solution.configure(limits, language)
    rewardbox.configure(limits, language)
    try:
        if payload[0] == "verifier":
            verdict = _run_verifier(payload[1], payload[2], task, completion)
        elif payload[0] == "tests":
            cases = rb_tests.run(payload[1], payload[2], task, completion)
            verdict = _asserts_verdict(cases, "tests passed")
        else:
            cases = rb_asserts.run(payload[0], payload[1], task, completion)
            verdict = _asserts_verdict(cases)
    except rb_sandbox.SandboxUnavailable as e:
        raise _failed(str(e))
    except rb_asserts.TaskError as e:
        raise Err(types.VerifyError_InvalidTask(str(e)))
    except (rb_proxy.CandidateError, deepgym_solution.SolutionError) as e:
        if rb_sandbox.asked_for():
            raise _failed(rb_sandbox.asked_for())
        status = getattr(e, "status", "exited_nonzero")
        return types.Verdict(score=0.0, passed=False, detail="the solution failed: %s" % str(e)[:2000],
                             cases=[types.CaseVerdict(id="solution", status=_CASE_STATUS.get(status, types.CaseStatus.EXITED_NONZERO),
                                                      score=0.0, detail=str(e)[:2000])])
    except VerifierFailed as e:
        raise _failed(str(e))
    except BaseException as e:
        if rb_sandbox.asked_for():
            raise _failed(rb_sandbox.asked_for())
        what = "%s: %s%s" % (type(e).__name__, str(e)[:1000], _where(e))
        if payload[0] == "verifier" and payload[1] == "deepgym" and rb_sandbox.consulted():
            # DeepGym's rule: once the solution is in play, a crash handling it is its failure.
            return types.Verdict(score=0.0, passed=False,
                                 detail="the verifier failed handling the solution: " + what,
                                 cases=[types.CaseVerdict(id="solution", status=types.CaseStatus.WRONG,
                                                          score=0.0, detail=what)])
        raise _failed("the verifier raised " + what)
    if rb_sandbox.asked_for():
        raise _failed(rb_sandbox.asked_for())
    return verdict
