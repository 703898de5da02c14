"""Checks running_sum on the cases in test_cases.json, through deepgym_solution."""

import json

from deepgym_solution import load_solution


def verify(solution_path, test_cases_path=None):
    try:
        solution = load_solution(solution_path)
    except Exception as e:
        return {"score": 0.0, "passed": False, "details": f"import failed: {type(e).__name__}: {e}"}
    if "running_sum" not in dir(solution):
        return {"score": 0.0, "passed": False, "details": "no running_sum"}
    with open(test_cases_path) as handle:
        cases = json.load(handle)
    results = []
    for i, case in enumerate(cases):
        try:
            got = solution.running_sum(list(case["input"]))
            ok = got == case["expected"]
            error = None if ok else f"expected {case['expected']}, got {got!r}"
        except Exception as e:
            ok, error = False, f"{type(e).__name__}: {e}"
        results.append({"id": f"case_{i}", "passed": ok, "score": 1.0 if ok else 0.0, "error": error})
    passed = sum(r["passed"] for r in results)
    return {"score": passed / len(results), "passed": passed == len(results),
            "details": f"{passed}/{len(results)} passed", "cases": results}
