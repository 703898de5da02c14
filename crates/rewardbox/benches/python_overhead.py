"""The Python side of `cargo bench --bench python_overhead`: times `Scorer.score` on the batch in
argv[1] (a JSON list of task dicts), argv[2] times after one warm-up; prints the median seconds."""

import json
import statistics
import sys
import time

import rewardbox


def main(path, reps, cache_dir):
    tasks = json.load(open(path))
    scorer = rewardbox.Scorer(cache_dir=cache_dir)
    scorer.score(tasks)
    times = []
    for _ in range(reps):
        started = time.perf_counter()
        scorer.score(tasks)
        times.append(time.perf_counter() - started)
    print(json.dumps({"median_seconds": statistics.median(times), "threads": scorer.threads}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
