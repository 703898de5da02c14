"""An older style of DeepGym verifier: it imports the solution file itself, and reads its source
with inspect to forbid a module."""

import importlib.util
import inspect


def verify(solution_path, test_cases_path=None):
    spec = importlib.util.spec_from_file_location("solution", solution_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    source = inspect.getsource(module.word_lengths)
    if "collections" in source or "Counter" in source:
        return {"score": 0.0, "passed": False, "details": "uses collections"}
    cases = [("a bb ccc", {"a": 1, "bb": 2, "ccc": 3}), ("", {}), ("x x x", {"x": 1}),
             ("hello   world", {"hello": 5, "world": 5})]
    passed = sum(1 for text, expected in cases if module.word_lengths(text) == expected)
    return passed / len(cases)
