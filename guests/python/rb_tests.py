"""Test modules as datasets ship them, run against a live candidate: pytest and unittest.

A task gives a test module's source (KodCode's `test_solution.py`, an MBPP-style `TestCase`
class), optionally pytest's `conftest.py`, and the name the tests import the candidate as
(`solution`). The test module runs here, in the trusted sandbox, under the framework's own
machinery: pytest 8 itself (collection, fixtures, parametrize, marks, `raises`, `approx`, assertion
rewriting's messages), or the standard library's `unittest` loader and runner. The candidate's
program is never in this sandbox: importing the module name gives a module of live-candidate
proxies (`rb_proxy`), so every call runs in the candidate's own sandbox, and only data crosses.
What the candidate prints during a call is written to this sandbox's stdout and stderr after the
call, so pytest's `capsys` sees it as natively.

Each test id is a case: pytest's node id (`test_solution.py::TestSort::test_empty[3]`), unittest's
`TestCase.id()` (`test_solution.TestSort.test_empty`). A test fails as the framework fails it (a
failed assert, an exception, an error in a fixture's setup or teardown, a strict xfail that
passed, a unittest subtest that failed); a skipped test and an expected failure do not fail, as
the framework counts them (the case passes and its detail says which it was). Whose fault an
error is: before the candidate is first imported, an error collecting or importing the tests is
the task's (`rb_asserts.TaskError`); once it is in play, it is the candidate's.
"""

import contextlib
import io
import json
import marshal
import os
import shutil
import sys
import traceback
import types as pytypes
from importlib.machinery import ModuleSpec

import rb_proxy
# The task's tests are broken (they do not compile, or fail to load before the candidate is in
# play): the task is invalid, as for asserts.
from rb_asserts import TaskError

#: Where the test files are written (the trusted instance's own scratch `/tmp`).
TEST_DIR = "/tmp/rb_tests"

#: How long a failure's text is kept in a case's detail.
_DETAIL = 400

def _preview(text):
    text = str(text).strip()
    return text if len(text) <= _DETAIL else text[: _DETAIL - 1] + "…"


def read_spec(framework, source):
    """The test form from its JSON `source` (`test`, `conftest`, `module`, `file`), checked:
    raises `ValueError` saying which field is wrong, `SyntaxError` when a file does not compile."""
    spec = json.loads(source)
    if not isinstance(spec, dict):
        raise ValueError("the %s test form must be a JSON object" % framework)
    test = spec.get("test")
    if not isinstance(test, str) or not test.strip():
        raise ValueError("\"tests.%s.test\" must be the test module's source" % framework)
    module = spec.get("module") or "solution"
    if not isinstance(module, str) or not all(part.isidentifier() for part in module.split(".")):
        raise ValueError("\"tests.%s.module\" must be a module name (such as \"solution\")" % framework)
    default_file = "test_solution.py" if module == "solution" else "test_%s.py" % module.replace(".", "_")
    file = spec.get("file") or default_file
    if (not isinstance(file, str) or not file.endswith(".py") or "/" in file or "\\" in file
            or not file[:-3].isidentifier()):
        raise ValueError("\"tests.%s.file\" must be a module file name such as \"test_solution.py\"" % framework)
    if file[:-3] in (module.split(".")[0], "conftest"):
        raise ValueError("\"tests.%s.file\" (%s) must not be named as the candidate's module or conftest"
                         % (framework, file))
    conftest = spec.get("conftest")
    if conftest is not None and not isinstance(conftest, str):
        raise ValueError("\"tests.%s.conftest\" must be source" % framework)
    if conftest is not None and framework != "pytest":
        raise ValueError("\"tests.%s.conftest\" is pytest's: unittest reads no conftest" % framework)
    compile(test, file, "exec", dont_inherit=True)
    if conftest:
        compile(conftest, "conftest.py", "exec", dont_inherit=True)
    spec = {"test": test, "conftest": conftest, "module": module, "file": file}
    if framework == "pytest":
        spec["pyc"] = _rewritten(spec)
    return spec


def _test_files(spec):
    """The files the tests are: `(file name, source)` of the test module, and of the conftest
    when there is one."""
    files = [(spec["file"], spec["test"])]
    if spec["conftest"]:
        files.append(("conftest.py", spec["conftest"]))
    return files


#: The modification time the test files are given, which their rewritten code is stamped with.
_MTIME = 1_000_000_000


def _rewritten(spec):
    """pytest's assertion rewriting of the test module and conftest, done once per task: the
    cache files (`__pycache__/<name>.<tag>-pytest-<version>.pyc`, the format pytest writes and
    reads) that pytest's import hook then loads instead of rewriting the same source for every
    completion. The code is exactly what the hook would make of the files (same rewriting, same
    file name), stamped with their size and `_MTIME`. Empty when this runtime has no pytest."""
    try:
        import importlib.util
        import ast as _ast
        from pathlib import Path
        from _pytest.assertion import rewrite
    except ImportError:
        return {}
    files = {}
    for name, source in _test_files(spec):
        path = Path(TEST_DIR) / name
        data = source.encode("utf-8")
        tree = _ast.parse(data, filename=str(path))
        rewrite.rewrite_asserts(tree, data, str(path), None)
        code = compile(tree, str(path), "exec", dont_inherit=True)
        header = (importlib.util.MAGIC_NUMBER + b"\x00\x00\x00\x00" + (_MTIME & 0xFFFFFFFF).to_bytes(4, "little")
                  + (len(data) & 0xFFFFFFFF).to_bytes(4, "little"))
        pyc = rewrite.get_cache_dir(path) / (name[:-3] + rewrite.PYC_TAIL)
        files[str(pyc)] = header + marshal.dumps(code)
    return files


class _CandidateImport:
    """A meta-path finder that serves the candidate's module name as the live candidate's module
    of proxies, opening the candidate when the tests first import it."""

    def __init__(self, name, opener):
        self.name = name
        self.top = name.split(".")[0]
        self._opener = opener
        self.live = None
        #: Whether the tests have imported the candidate (its loading failing counts too: what
        #: fails from then on is the candidate's).
        self.in_play = False

    def find_spec(self, fullname, path=None, target=None):
        if fullname == self.name:
            return ModuleSpec(fullname, self, origin="solution.py")
        if fullname == self.top or self.name.startswith(fullname + "."):
            # A package above the module name (`from app.solution import f`): an empty package.
            spec = ModuleSpec(fullname, self, is_package=True)
            spec.submodule_search_locations = []
            return spec
        return None

    def create_module(self, spec):
        if spec.name != self.name:
            return None
        if self.live is None:
            self.in_play = True
            self.live = self._opener()
        module = rb_proxy.CandidateModule(self.live, self.name)
        module.__spec__ = spec
        module.__loader__ = self
        return module

    def exec_module(self, module):
        pass


class _EchoedCandidate(rb_proxy.LiveCandidate):
    """A live candidate whose prints, after each call, are written to this sandbox's streams."""

    def _answer(self, request):
        try:
            return super()._answer(request)
        finally:
            try:
                out, err = self.output()
            except Exception:
                out = err = ""
            if out:
                sys.stdout.write(out)
            if err:
                sys.stderr.write(err)


def _keep_worst(cases, test_id, status, detail):
    """Records a test's outcome in `cases` (test id -> `(status, detail)`, or None while it runs):
    a failure replaces a pass (a teardown that failed after the call passed, a second subtest),
    never the other way round, and the first failure stays."""
    known = cases.get(test_id)
    if known is None or (known[0] == "passed" and status != "passed"):
        cases[test_id] = (status, detail)


def _cases_of(outcomes):
    """`(id, status, detail)` of each test in `outcomes`, in the order they started; one that
    never reported an outcome failed."""
    return [(test_id,) + (outcome or ("wrong", "the test did not finish")) for test_id, outcome in outcomes.items()]


@contextlib.contextmanager
def _framework_output():
    """What the framework prints goes nowhere (the verdict is read from its reports, and the
    sandbox's own output budget is not the framework's); yields it, for a message."""
    sink = io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = sink
    try:
        yield sink
    finally:
        sys.stdout, sys.stderr = saved


def _status_of(error):
    """The case status of a test that failed with `error`."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, rb_proxy.CandidateError):
            return error.status
        error = error.__cause__ or error.__context__
    return "wrong"


def _write_files(spec):
    """The test module and conftest in `TEST_DIR` (stamped `_MTIME`), with their rewritten code
    where pytest looks for it."""
    shutil.rmtree(TEST_DIR, ignore_errors=True)
    os.makedirs(TEST_DIR)
    for name, source in _test_files(spec):
        path = os.path.join(TEST_DIR, name)
        with open(path, "wb") as f:
            f.write(source.encode("utf-8"))
        try:
            os.utime(path, (_MTIME, _MTIME))
        except OSError:
            pass  # then pytest rewrites the file itself
    for path, data in spec.get("pyc", {}).items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def run(framework, spec, task, program):
    """Runs the tests of `spec` (from `read_spec`) against `program`: the cases, each `(id,
    status, detail)`. Raises `TaskError` when the tests fail to load before the candidate is in
    play."""
    language = task.get("language") or "python"
    limits = rb_proxy.limits_from(task.get("candidate_limits"))
    loading = {}

    def open_candidate():
        try:
            return _EchoedCandidate(program, language, limits)
        except rb_proxy.CandidateError as error:
            loading["error"] = error
            raise

    finder = _CandidateImport(spec["module"], open_candidate)
    _write_files(spec)
    sys.meta_path.insert(0, finder)
    saved_path = list(sys.path)
    saved_modules = set(sys.modules)
    sys.dont_write_bytecode = True
    # The tests' working directory, as natively where they are run from (the sandbox has no `/`).
    os.chdir(TEST_DIR)
    try:
        if framework == "pytest":
            cases = _run_pytest(spec, finder)
        else:
            cases = _run_unittest(spec, finder)
    finally:
        sys.meta_path.remove(finder)
        sys.path[:] = saved_path
        for name in set(sys.modules) - saved_modules:
            del sys.modules[name]
    if "error" in loading:
        # The program failed to load: every test that imports it failed with that.
        error = loading["error"]
        return [("program", error.status, "loading the program failed: " + _preview(error))]
    return cases


# ---------------------------------------------------------------------------------------------
# pytest
# ---------------------------------------------------------------------------------------------


class _PytestCases:
    """A pytest plugin keeping each test's outcome, worst phase first, in the order they ran."""

    def __init__(self, finder):
        self.finder = finder
        self.cases = {}
        self.collect_errors = []
        self._error = None
        self.internal_error = None

    def _set(self, nodeid, status, detail):
        _keep_worst(self.cases, nodeid, status, detail)

    def pytest_runtest_makereport(self, item, call):
        # Keep the exception itself, whose cause says whether the candidate raised it; the report
        # of the same phase is logged next.
        self._error = call.excinfo.value if call.excinfo is not None else None

    def pytest_internalerror(self, excrepr, excinfo):
        self.internal_error = excinfo.value if excinfo is not None else RuntimeError(str(excrepr))

    def pytest_collectreport(self, report):
        if report.failed:
            self.collect_errors.append((report.nodeid or "<collection>", _longrepr(report), self.finder.in_play))

    def pytest_runtest_logreport(self, report):
        nodeid = report.nodeid
        self.cases.setdefault(nodeid, None)
        error, self._error = self._error, None
        xfail = getattr(report, "wasxfail", None)
        if report.passed:
            if report.when == "call":
                if xfail is not None:
                    self._set(nodeid, "passed", _preview("xpassed" + (": " + xfail if xfail else "")))
                else:
                    self._set(nodeid, "passed", "passed")
            return
        if report.skipped:
            if xfail is not None:
                self._set(nodeid, "passed", _preview("xfailed" + (": " + xfail if xfail else "")))
            else:
                reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
                reason = reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason
                self._set(nodeid, "passed", _preview("skipped" + (": " + reason if reason else "")))
            return
        status = _status_of(error) if error is not None else "wrong"
        prefix = "" if report.when == "call" else "error at %s: " % report.when
        self._set(nodeid, status, _preview(prefix + _longrepr(report)))


def _longrepr(report):
    """pytest's one-line reason for a failed report (what its short summary shows), else its
    full failure text."""
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None and getattr(crash, "message", None):
        return crash.message
    text = getattr(report, "longreprtext", "") or str(report.longrepr or "")
    lines = [line for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("E ")]
    return (errors[-1][1:].strip() if errors else (lines[-1] if lines else "failed"))


def log_file():
    """Where pytest's logging plugin writes (nothing, unless a test sets it up): beside the tests."""
    return os.path.join(os.path.dirname(TEST_DIR), "rb_pytest.log")


def _run_pytest(spec, finder):
    try:
        import pytest
    except ImportError:
        raise TaskError("this build of rewardbox has no pytest: run scripts/python-tools.sh and rebuild "
                        "(the build puts pytest in a Python runtime of its own for `tests.pytest`)") from None
    plugin = _PytestCases(finder)
    # No plugins from installed distributions (there are none in the sandbox to find).
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    args = [
        os.path.join(TEST_DIR, spec["file"]),
        "--rootdir", TEST_DIR,
        "-p", "no:cacheprovider",
        "-p", "no:stepwise",
        "-p", "no:faulthandler",
        "-p", "no:pastebin",
        "-p", "no:junitxml",
        # These two collect the garbage five times over at the end of every session to find
        # exceptions raised where Python cannot raise them (`__del__`), which pytest reports as
        # warnings: a warning decides no verdict, and the walks cost more than the tests.
        "-p", "no:unraisableexception",
        "-p", "no:threadexception",
        "--capture=sys",
        "-q",
        "--color=no",
        # The logging plugin opens its file handler at start (natively on /dev/null, which the
        # sandbox does not have): a file of the scratch directory instead.
        "--log-file=" + log_file(),
    ]
    with _framework_output() as sink:
        code = pytest.main(args, plugins=[plugin])
    if plugin.internal_error is not None:
        error = plugin.internal_error
        if _status_of(error) == "wrong":
            # pytest itself or this plugin failed: the verifier's fault, never the candidate's.
            raise RuntimeError("pytest stopped with an internal error: %s: %s"
                               % (type(error).__name__, _preview(error)))
    cases = _cases_of(plugin.cases)
    for nodeid, text, in_play in plugin.collect_errors:
        if not in_play:
            raise TaskError("pytest could not collect the tests (%s): %s" % (nodeid, _preview(text)))
        cases.append((nodeid, "wrong", _preview("error collecting: " + text)))
    if not cases:
        if int(code) == 5:
            raise TaskError("pytest collected no tests from %s" % spec["file"])
        raise TaskError("pytest ran no test (exit status %d): %s"
                        % (int(code), _preview(sink.getvalue().strip().splitlines()[-1:] or "")))
    return cases


# ---------------------------------------------------------------------------------------------
# unittest
# ---------------------------------------------------------------------------------------------


def _exception_line(err):
    kind, value, _ = err
    return "".join(traceback.format_exception_only(kind, value)).strip()


def _unittest_result_class():
    import unittest

    class Result(unittest.TestResult):
        def __init__(self):
            super().__init__()
            self.cases = {}

        def _set(self, test, status, detail):
            _keep_worst(self.cases, test.id(), status, _preview(detail))

        def startTest(self, test):
            super().startTest(test)
            self.cases.setdefault(test.id(), None)

        def addSuccess(self, test):
            super().addSuccess(test)
            self._set(test, "passed", "ok")

        def addFailure(self, test, err):
            super().addFailure(test, err)
            self._set(test, _status_of(err[1]), _exception_line(err))

        def addError(self, test, err):
            super().addError(test, err)
            self._set(test, _status_of(err[1]), _exception_line(err))

        def addSkip(self, test, reason):
            super().addSkip(test, reason)
            self._set(test, "passed", "skipped" + (": " + reason if reason else ""))

        def addExpectedFailure(self, test, err):
            super().addExpectedFailure(test, err)
            self._set(test, "passed", "expected failure")

        def addUnexpectedSuccess(self, test):
            super().addUnexpectedSuccess(test)
            self._set(test, "wrong", "unexpected success (the test is marked expectedFailure)")

        def addSubTest(self, test, subtest, err):
            super().addSubTest(test, subtest, err)
            if err is not None:
                self._set(test, _status_of(err[1]), "%s: %s" % (subtest._subDescription(), _exception_line(err)))

    return Result


def _run_unittest(spec, finder):
    import unittest
    import warnings

    name = spec["file"][:-3]
    path = os.path.join(TEST_DIR, spec["file"])
    module = pytypes.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    sys.path.insert(0, TEST_DIR)
    try:
        exec(compile(spec["test"], path, "exec", dont_inherit=True), module.__dict__)
    except BaseException as error:
        if not finder.in_play:
            raise TaskError("the test module raised %s while loading: %s"
                            % (type(error).__name__, _preview(error))) from None
        return [(name, _status_of(error), _preview("loading the tests failed: " + _exception_line(
            (type(error), error, None))))]
    loader = unittest.TestLoader()
    suite = loader.loadTestsFromModule(module)
    if loader.errors and not finder.in_play:
        raise TaskError("unittest could not load the tests: " + _preview(loader.errors[0]))
    result = _unittest_result_class()()
    with _framework_output(), warnings.catch_warnings():
        warnings.simplefilter("default")
        result.startTestRun()
        suite.run(result)
        result.stopTestRun()
    cases = _cases_of(result.cases)
    if not cases:
        raise TaskError("unittest found no test in %s" % spec["file"])
    return cases
