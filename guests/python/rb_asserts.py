"""Asserts run against a live candidate, in a trusted sandbox of their own.

HumanEval-style checks (`def check(candidate): assert ...`, or asserts at the top level) and
MBPP-style lists of assert statements. The check's `candidate` and the entry point's name are
proxies into the live candidate (`rb_proxy`); the candidate's other functions and classes are
proxies too, so asserts that call helpers by name work. Trusted `setup` code (HumanEval's prompt,
which defines helpers such as `poly`, or a reference solution) runs first, so a helper the check
relies on is the task's own, never the candidate's.

Every assert statement is a case: it passes when each time it ran it held. An assert that never
ran is left out, unless the check stopped early, in which case it fails with the reason.
"""

import ast
import builtins
import json
import re

import rb_proxy

#: How long a failing assert's source and values are shown in a case's detail.
_PREVIEW = 160


class TaskError(Exception):
    """The task's own check code is broken (its setup raised): the task is invalid."""


def _preview(text):
    text = " ".join(str(text).split())
    return text if len(text) <= _PREVIEW else text[: _PREVIEW - 1] + "…"


def _is_trivial(test):
    """`assert True` and the like: a constant that holds tests nothing (`assert False`, which
    marks code that must not be reached, is kept)."""
    return isinstance(test, ast.Constant) and bool(test.value)


#: A line of source with its end, split as the compiler splits lines (`\r\n`, `\r`, `\n`).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class _Instrument(ast.NodeTransformer):
    """Wraps every non-constant assert so that its outcome is recorded and the check goes on."""

    def __init__(self, source):
        # Split once: `ast.get_source_segment` splits the whole source again for each node it is
        # asked for, which made a check of 400 asserts run out of fuel compiling.
        self.lines = _LINE.findall(source)
        self.asserts = []

    def segment(self, node):
        """The source text of `node`, as `ast.get_source_segment` gives it (columns are UTF-8
        byte offsets); None without positions."""
        end_line, end_col = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
        if end_line is None or end_col is None or end_line > len(self.lines):
            return None
        first, col = node.lineno - 1, node.col_offset
        if first == end_line - 1:
            return self.lines[first].encode()[col:end_col].decode()
        return "".join([self.lines[first].encode()[col:].decode(), *self.lines[first + 1:end_line - 1],
                        self.lines[end_line - 1].encode()[:end_col].decode()])

    def visit_Assert(self, node):
        if _is_trivial(node.test):
            return node
        index = len(self.asserts)
        text = self.segment(node) or "assert ..."
        self.asserts.append((node.lineno, text))
        body = []
        test = node.test
        compared = (isinstance(test, ast.Compare) and len(test.ops) == 1
                    and isinstance(test.ops[0], (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)))
        if compared:
            # Evaluate both sides once, in order, so a failure can show them.
            left, right = "__rb_l%d" % index, "__rb_r%d" % index
            body.append(ast.Assign(targets=[ast.Name(left, ast.Store())], value=test.left))
            body.append(ast.Assign(targets=[ast.Name(right, ast.Store())], value=test.comparators[0]))
            check = ast.Compare(left=ast.Name(left, ast.Load()), ops=test.ops, comparators=[ast.Name(right, ast.Load())])
            body.append(ast.Assert(test=check, msg=node.msg))
            shown = ast.Tuple([ast.Name(left, ast.Load()), ast.Name(right, ast.Load())], ast.Load())
        else:
            body.append(ast.Assert(test=test, msg=node.msg))
            shown = ast.Constant(None)
        failed = ast.Call(ast.Name("__rb_failed__", ast.Load()),
                          [ast.Constant(index), ast.Name("__rb_error", ast.Load()),
                           shown if not compared else ast.Call(ast.Name("locals", ast.Load()), [], [])], [])
        handler = ast.ExceptHandler(type=ast.Name("BaseException", ast.Load()), name="__rb_error",
                                    body=[ast.Expr(failed)])
        passed = ast.Expr(ast.Call(ast.Name("__rb_passed__", ast.Load()), [ast.Constant(index)], []))
        wrapped = ast.Try(body=body, handlers=[handler], orelse=[passed], finalbody=[])
        return ast.copy_location(wrapped, node)


def prepare_check(source):
    """Compiles a check with every assert instrumented: `(code, asserts, defines_check)`."""
    tree = ast.parse(source, "<asserts>")
    instrument = _Instrument(source)
    tree = ast.fix_missing_locations(instrument.visit(tree))
    defines_check = any(isinstance(n, ast.FunctionDef) and n.name == "check" for n in tree.body)
    return compile(tree, "<asserts>", "exec"), instrument.asserts, defines_check


def prepare_list(statements):
    """Compiles each statement of an MBPP-style list, instrumented like a check:
    `[(code, text, asserts)]`; each statement is a case."""
    compiled = []
    for i, text in enumerate(statements):
        tree = ast.parse(text, "<assert %d>" % (i + 1))
        instrument = _Instrument(text)
        tree = ast.fix_missing_locations(instrument.visit(tree))
        compiled.append((compile(tree, "<assert %d>" % (i + 1), "exec"), text, len(instrument.asserts)))
    return compiled


class _Cases:
    """Outcome of each assert: None (never ran), True (held every time), or (status, detail)."""

    def __init__(self, labels):
        self.labels = labels
        self.results = [None] * len(labels)

    def passed(self, index):
        if self.results[index] is None:
            self.results[index] = True

    def failed(self, index, error, shown=None):
        if self.results[index] is None or self.results[index] is True:
            self.results[index] = _failure(error, self.labels[index][1], shown, index)

    def verdict_cases(self, stopped):
        """`(id, status, detail)` of each assert that ran, and of every other one when the check
        stopped early, plus a failing `check` case for the stop itself (the check as a whole
        failed, whatever the asserts before the stop said)."""
        cases = []
        for index, ((line, text), result) in enumerate(zip(self.labels, self.results)):
            case_id = "assert %d (line %d)" % (index + 1, line) if line else "assert %d" % (index + 1)
            if result is True:
                cases.append((case_id, "passed", "held"))
            elif result is not None:
                cases.append((case_id,) + result)
            elif stopped is not None:
                cases.append((case_id, stopped[0], "not reached: " + stopped[1]))
        if stopped is not None:
            cases.append(("check", stopped[0], "the check stopped: " + stopped[1]))
        return cases


def _failure(error, text, shown, index):
    """(status, detail) of an assert that failed with `error`."""
    if isinstance(error, rb_proxy.CandidateError):
        return error.status, _preview("%s: %s" % (text, error))
    if isinstance(error, AssertionError):
        detail = text
        if isinstance(shown, dict):
            left = shown.get("__rb_l%d" % index)
            right = shown.get("__rb_r%d" % index)
            detail = "%s (left: %s, right: %s)" % (text, _safe_repr(left), _safe_repr(right))
        elif error.args:
            detail = "%s (%s)" % (text, error)
        return "wrong", _preview(detail)
    return "wrong", _preview("%s raised %s: %s" % (text, type(error).__name__, error))


def _safe_repr(value):
    try:
        return repr(value)
    except Exception:
        return "<unprintable>"


def _stop_reason(error):
    if isinstance(error, rb_proxy.CandidateError):
        return error.status, _preview(str(error))
    return "wrong", _preview("the check raised %s: %s" % (type(error).__name__, error))


def run(kind, compiled, task, program):
    """Runs the asserts (`kind` "check" or "list", compiled by `prepare_check`/`prepare_list`)
    against `program`; returns the cases, each `(id, status, detail)`."""
    entry = task.get("entry_point")
    language = task.get("language") or "python"
    limits = rb_proxy.limits_from(task.get("candidate_limits"))
    try:
        live = rb_proxy.LiveCandidate(program, language, limits)
    except rb_proxy.CandidateError as error:
        status, detail = _stop_reason(error)
        return [("program", status, "loading the program failed: " + detail)]

    namespace = {"__name__": "__check__", "__builtins__": builtins}
    namespace.update(live.proxies())
    setup = task.get("setup")
    if setup:
        try:
            exec(compile(setup, "<setup>", "exec"), namespace)
        except Exception as error:
            raise TaskError("\"tests.setup\" (or the reference that stands for it) raised %s: %s"
                            % (type(error).__name__, _preview(error))) from None
    if entry:
        if entry in live.members:
            proxy = live.function(entry)
        else:
            proxy = _missing(entry)
        namespace[entry] = namespace["candidate"] = proxy

    if kind == "list":
        cases = _Cases([(0, text) for _, text, _ in compiled])
        for index, (code, text, asserts) in enumerate(compiled):
            inner = _Cases([(0, text)] * asserts)
            namespace["__rb_passed__"] = inner.passed
            namespace["__rb_failed__"] = inner.failed
            try:
                exec(code, namespace)
            except BaseException as error:
                cases.failed(index, error)
                continue
            failure = next((r for r in inner.results if r not in (None, True)), None)
            if failure is not None:
                cases.results[index] = failure
            else:
                cases.passed(index)
        return cases.verdict_cases(None)

    code, labels, defines_check = compiled
    cases = _Cases(labels)
    namespace["__rb_passed__"] = cases.passed
    namespace["__rb_failed__"] = cases.failed
    stopped = None
    try:
        exec(code, namespace)
        check = namespace.get("check")
        if defines_check and callable(check):
            check(namespace.get("candidate") or _missing(entry or "candidate"))
    except BaseException as error:
        stopped = _stop_reason(error)
    return cases.verdict_cases(stopped)


def _missing(name):
    def missing(*args, **kwargs):
        raise rb_proxy.CandidateError("the program defines no function named %r" % name)

    missing.__name__ = name
    return missing


def statements(source):
    """The list of an `assert-list` source (JSON)."""
    items = json.loads(source)
    if not isinstance(items, list) or not all(isinstance(s, str) for s in items):
        raise ValueError("an assert list must be a JSON list of strings")
    return items
