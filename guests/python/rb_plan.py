"""Planning asserts once per task, so that the host can run them without a checking sandbox.

A HumanEval-style check or an MBPP-style list whose every assert compares one call of the entry
point on literal arguments with a literal value (`assert candidate(2, 3) == 5`, `assert not
candidate([])`, `assert candidate("a") is True`) needs nothing of Python at grading time but the
call itself and Python's `==` on plain values. `plan` reads such a check, in a trusted instance,
into the calls to make and what each result must be; the host makes the calls in the candidate's
sandbox and compares the results itself, giving the verdict `rb_asserts.run` would give. Any check
outside that shape has no plan and runs live, as before.

The plan is JSON:

    {"cases": [[line, text], ...],             # every assert that is a case, in source order
     "steps": [{"case": i, "args": "<value JSON>", "kwargs": "<value JSON>",
                "test": {...}}, ...],          # the calls, in the order the check makes them
     "missing": "<why a call fails when the program lacks the entry point>",
     "raised": {"KeyError": "repr", ...}}     # how str() shows each built-in exception's message

A test is `{"kind": "compare", "op": "==" | "!=" | "is" | "is not", "call_left": bool,
"value": "<value JSON>", "repr": "<repr of the literal>", "again": null | {"args", "kwargs"}}`
(`again`: the call a failing assert's message makes, HumanEval's `"..." + str(candidate(...))`)
or `{"kind": "truth", "negate": bool, "message": null | "<str of the assert's message>"}`.
"""

import ast
import builtins
import json
import sys

import rb_asserts
import rb_proxy
import rb_values
import rb_verify

#: Comparison operators a planned assert may use, by their source form.
_OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not"}


class _NoPlan(Exception):
    """The check is outside what a plan can hold: it runs live."""


def plan(mode, source, task_json):
    """The plan of `source` (read as `mode`, "check" or "list") for the task, as JSON text, or
    None when the check must run live."""
    # The checking sandbox reads and writes ints under this limit: a literal past it (which it
    # could not send) has no plan.
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(rb_verify.MAX_INT_DIGITS)
    try:
        return _plan(mode, source, task_json)
    finally:
        sys.set_int_max_str_digits(limit)


def _plan(mode, source, task_json):
    try:
        task = json.loads(task_json)
        entry = task.get("entry_point") if isinstance(task, dict) else None
        if not isinstance(entry, str) or not entry.isidentifier() or entry == "check":
            return None
        _setup_is_plain(task.get("setup"))
        if mode == "check":
            cases, steps = _plan_check(source, entry)
        else:
            cases, steps = _plan_list(rb_asserts.statements(source), entry)
    except (_NoPlan, SyntaxError, ValueError, TypeError, AttributeError, RecursionError):
        return None
    if not steps:
        return None
    return json.dumps({
        "cases": cases,
        "steps": steps,
        "missing": str(rb_proxy.CandidateError("the program defines no function named %r" % entry)),
        "raised": _builtin_messages(),
    }, ensure_ascii=False)


def _setup_is_plain(setup):
    """The setup runs here as it would before the asserts: a setup that raises (the live run
    reports it as the task's fault) or redefines `str` has no plan."""
    if not setup:
        return
    if not isinstance(setup, str):
        raise _NoPlan("setup")
    namespace = {"__name__": "__check__", "__builtins__": builtins}
    try:
        exec(compile(setup, "<setup>", "exec"), namespace)
    except Exception:
        raise _NoPlan("the setup raises") from None
    if "str" in namespace:
        raise _NoPlan("the setup redefines str, which messages call")


def _plan_check(source, entry):
    tree = ast.parse(source, "<asserts>")
    labels = rb_asserts.prepare_check(source)[1]
    cases = [[line, text] for line, text in labels]
    checks = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "check"]
    if len(checks) > 1:
        raise _NoPlan("more than one check")
    callees = {"candidate", entry}
    top_steps, later = [], []
    counter = [0]
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            if node.name != "check":
                raise _NoPlan("a function besides check")
            param = _check_parameter(node)
            for inner in node.body:
                later.extend(_statement(inner, callees | {param}, counter))
        elif isinstance(node, ast.Assign):
            _literal_assignment(node, callees)
        else:
            top_steps.extend(_statement(node, callees, counter))
    if counter[0] != len(cases):
        raise _NoPlan("an assert the plan does not reach")
    return cases, top_steps + later


def _plan_list(statements, entry):
    cases, steps = [], []
    for index, text in enumerate(statements):
        tree = ast.parse(text, "<assert %d>" % (index + 1))
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Assert) or rb_asserts._is_trivial(tree.body[0].test):
            raise _NoPlan("a list item that is not one assert")
        counter = [index]
        step = _statement(tree.body[0], {"candidate", entry}, counter)
        cases.append([0, text])
        steps.extend(step)
    return cases, steps


def _check_parameter(node):
    """The one parameter of `def check(candidate)`, which the candidate is bound to."""
    a = node.args
    if node.decorator_list or a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults or len(a.args) != 1:
        raise _NoPlan("check's signature")
    if node.returns is not None or a.args[0].annotation is not None:
        raise _NoPlan("annotations")
    return a.args[0].arg


def _literal_assignment(node, callees):
    """`METADATA = {...}`: a literal bound to a name no planned assert reads."""
    for target in node.targets:
        if not isinstance(target, ast.Name) or target.id in callees or target.id in ("check", "str"):
            raise _NoPlan("an assignment")
    _literal(node.value)


def _statement(node, callees, counter):
    """The steps of one statement of the check: a docstring or `pass` has none, an assert one."""
    if isinstance(node, ast.Pass) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
        return []
    if not isinstance(node, ast.Assert):
        raise _NoPlan("a statement other than an assert")
    if rb_asserts._is_trivial(node.test):
        return []
    case = counter[0]
    counter[0] += 1
    return [_assert_step(node, case, callees)]


def _assert_step(node, case, callees):
    test = node.test
    again = _message_call(node.msg, callees)
    # A failing assert evaluates its message: a literal cannot raise there.
    message = None if node.msg is None or again is not None else str(_literal(node.msg))
    if isinstance(test, ast.Compare):
        if len(test.ops) != 1 or type(test.ops[0]) not in _OPS:
            raise _NoPlan("a comparison the plan does not hold")
        op = _OPS[type(test.ops[0])]
        left, right = test.left, test.comparators[0]
        call_left = _is_call(left, callees)
        call, other = (left, right) if call_left else (right, left)
        if not _is_call(call, callees) or _is_call(other, callees):
            raise _NoPlan("a comparison of other than one call and a literal")
        value = _literal(other)
        if op in ("is", "is not") and not (value is None or value is True or value is False):
            raise _NoPlan("`is` against other than None, True or False")
        tested = {"kind": "compare", "op": op, "call_left": call_left,
                  "value": _encode(value), "repr": rb_asserts._safe_repr(value)}
        if again is not None:
            # The check shows the two sides, not the message: only the call it makes matters.
            tested["again"] = _call_of(again)
    else:
        if again is not None:
            raise _NoPlan("a message that shows a call's result")
        negate = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        call = test.operand if negate else test
        if not _is_call(call, callees):
            raise _NoPlan("an assert of other than a call")
        tested = {"kind": "truth", "negate": negate, "message": message}
    return dict(_call_of(call), case=case, test=tested)


def _call_of(call):
    """The arguments of a planned call, as the proxy would send them."""
    args = [_literal(a) for a in call.args]
    kwargs = {k.arg: _literal(k.value) for k in call.keywords}
    return {"args": _encode(args), "kwargs": _encode(kwargs) if kwargs else rb_values.NO_KWARGS}


def _message_call(msg, callees):
    """The call in a message of HumanEval's form `"First test error: " + str(candidate(...))`,
    which a failing assert makes again to show its result, or None."""
    if (isinstance(msg, ast.BinOp) and isinstance(msg.op, ast.Add) and isinstance(msg.left, ast.Constant)
            and isinstance(msg.left.value, str) and isinstance(msg.right, ast.Call)
            and isinstance(msg.right.func, ast.Name) and msg.right.func.id == "str" and "str" not in callees
            and len(msg.right.args) == 1 and not msg.right.keywords and _is_call(msg.right.args[0], callees)):
        return msg.right.args[0]
    return None


def _is_call(node, callees):
    """`candidate(literals...)`: a call of the candidate by a name bound to it, no unpacking."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in callees
            and not any(isinstance(a, ast.Starred) for a in node.args)
            and all(k.arg is not None for k in node.keywords))


#: Nodes of an expression that names nothing: its value is the same whenever it is evaluated.
_CONSTANT_NODES = (ast.Constant, ast.BinOp, ast.UnaryOp, ast.Tuple, ast.List, ast.Set, ast.Dict, ast.operator,
                   ast.unaryop, ast.Load)


def _literal(node):
    """The value of a literal, or of arithmetic on literals (`3 * 19`, `'ab' + 'c'`), which the
    check would compute the same at every run."""
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if not all(isinstance(n, _CONSTANT_NODES) for n in ast.walk(node)):
        raise _NoPlan("not a literal")
    try:
        return eval(compile(ast.Expression(node), "<literal>", "eval"), {"__builtins__": {}})
    except Exception:
        raise _NoPlan("a constant expression that raises") from None


def _encode(value):
    try:
        return rb_values.encode(value, rb_values.no_handles)
    except (TypeError, ValueError, rb_values.NotPlainData):
        raise _NoPlan("a literal that cannot cross") from None


def _builtin_messages():
    """How the checking sandbox shows an exception the candidate raised, by built-in type name:
    "message" (str() is the message), "repr" (KeyError: its repr), "named" (the type cannot be
    made from a message: "Type: message")."""
    probe = "rb probe"
    shown = {}
    for name in dir(builtins):
        kind = getattr(builtins, name)
        if not (isinstance(kind, type) and issubclass(kind, Exception)):
            continue
        try:
            text = str(rb_proxy._marked(kind)(probe))
        except Exception:
            shown[name] = "named"
            continue
        if text == probe:
            shown[name] = "message"
        elif text == repr(probe):
            shown[name] = "repr"
    return shown
