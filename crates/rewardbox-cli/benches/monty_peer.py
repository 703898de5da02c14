"""The peer side of `cargo bench --bench python_vs_monty`: pydantic-monty (Monty, a Rust interpreter
of a subset of Python run in a pool of worker processes) on the same work as rewardbox, each run in
a fresh Monty session, as many workers as argv says. Prints one JSON object per mode.

    monty_peer.py trivial <runs> <workers>          print(i) in a fresh session per run
    monty_peer.py humaneval <problems.jsonl> <samples.jsonl> <workers>
                                                    prompt + completion + test + check(entry)
    monty_peer.py loop <program.py>                 one run of a compute-bound program
"""

import json
import sys
import threading
import time

import pydantic_monty as monty


def in_threads(pool, jobs, workers, run_one):
    """Runs `run_one(session, job)` for every job, each in a fresh session, `workers` at a time;
    returns the results in job order."""
    results = [None] * len(jobs)

    def worker(k):
        for i in range(k, len(jobs), workers):
            with pool.checkout() as session:
                results[i] = run_one(session, jobs[i])

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def trivial(runs, workers):
    def run_one(session, i):
        out = monty.CollectString()
        session.feed_run(f"print({i})", print_callback=out)
        return out.output == f"{i}\n"

    with monty.Monty(min_processes=workers, max_processes=workers) as pool:
        started = time.perf_counter()
        ok = in_threads(pool, list(range(runs)), workers, run_one)
        seconds = time.perf_counter() - started
    print(json.dumps({"runs": runs, "correct": sum(ok), "seconds": seconds}))


def humaneval(problems_path, samples_path, workers):
    problems = {}
    for line in open(problems_path):
        if line.strip():
            p = json.loads(line)
            problems[p["task_id"]] = p
    jobs = []
    for line in open(samples_path):
        if line.strip():
            s = json.loads(line)
            p = problems[s["task_id"]]
            jobs.append(
                p["prompt"] + s["completion"] + "\n" + p["test"] + "\n" + f"check({p['entry_point']})\n"
            )

    def run_one(session, program):
        try:
            session.feed_run(program, print_callback=monty.CollectString())
            return "passed"
        except monty.MontyRuntimeError as e:
            return "failed" if "AssertionError" in str(e) else "error"
        except monty.MontyError:
            return "error"

    with monty.Monty(min_processes=workers, max_processes=workers) as pool:
        started = time.perf_counter()
        outcomes = in_threads(pool, jobs, workers, run_one)
        seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "samples": len(jobs),
                "passed": outcomes.count("passed"),
                "failed": outcomes.count("failed"),
                "error": outcomes.count("error"),
                "seconds": seconds,
            }
        )
    )


def loop(program_path):
    program = open(program_path).read()
    with monty.Monty(min_processes=1, max_processes=1) as pool:
        with pool.checkout() as session:
            out = monty.CollectString()
            started = time.perf_counter()
            session.feed_run(program, print_callback=out)
            seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "stdout": out.output}))


if __name__ == "__main__":
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "trivial":
        trivial(int(args[0]), int(args[1]))
    elif mode == "humaneval":
        humaneval(args[0], args[1], int(args[2]))
    elif mode == "loop":
        loop(args[0])
    else:
        sys.exit(f"unknown mode {mode!r}: trivial, humaneval or loop")
