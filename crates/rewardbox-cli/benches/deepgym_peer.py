"""The peer side of `cargo bench --bench deepgym`: DeepGym 0.6.2's own local runner (a judge
process per run, the solution in a bubblewrap sandbox) scoring each bundled single-turn coding
environment's reference solution `copies` times, two runs at a time (this machine's cores).

argv: copies, then environment names. Prints one JSON object: runs, seconds, mean score, the
environments' folder, and the names that could not be loaded."""

import json
import pathlib
import sys
import time

import deepgym
from deepgym import DeepGym, load_environment


def main(copies, names):
    envs_dir = pathlib.Path(deepgym.__file__).parent / "envs"
    dg = DeepGym(mode="local")
    jobs, skipped = [], []
    for name in names:
        try:
            env = load_environment(name)
            solution = (envs_dir / name / "reference_solution.py").read_text()
        except Exception as e:  # an environment this version cannot load locally
            skipped.append(f"{name}: {e}")
            continue
        jobs.append((env, solution))
    started = time.perf_counter()
    scores = []
    for env, solution in jobs:
        batch = dg.run_batch(env, [solution] * copies, max_parallel=2)
        scores += [r.score for r in batch.results]
    seconds = time.perf_counter() - started
    print(json.dumps({"runs": len(scores), "seconds": seconds, "mean_score": sum(scores) / max(len(scores), 1),
                      "skipped": skipped, "envs_dir": str(envs_dir)}))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2:])
