"""Runs the solution as a script on standard input."""

from deepgym_solution import SolutionError, run_solution


def verify(solution_path, test_cases_path=None):
    inputs = ["hello\nworld\n", "MiXeD case\n", ""]
    good = 0
    for text in inputs:
        try:
            proc = run_solution(solution_path, input=text)
        except SolutionError:
            continue
        if proc.returncode == 0 and proc.stdout == text.upper():
            good += 1
    return {"score": good / len(inputs), "passed": good == len(inputs)}
