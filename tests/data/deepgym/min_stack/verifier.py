"""A class-based task: the stack lives in the solution's sandbox and is driven from here."""

from deepgym_solution import load_solution

OPERATIONS = [("push", 5), ("push", 3), ("get_min", None), ("push", 7), ("top", None),
              ("get_min", None), ("pop", None), ("pop", None), ("get_min", None), ("top", None)]
EXPECTED = [None, None, 3, None, 7, 3, 7, 3, 5, 5]


def verify(solution_path, test_cases_path=None):
    module = load_solution(solution_path)
    stack = module.MinStack()
    good = 0
    for (name, arg), expected in zip(OPERATIONS, EXPECTED):
        method = getattr(stack, name)
        try:
            got = method(arg) if arg is not None else method()
        except Exception:
            continue
        good += got == expected
    return good / len(OPERATIONS)
