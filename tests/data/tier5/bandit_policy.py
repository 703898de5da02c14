"""A policy for `rewardbox audit --policy-cmd`: a softmax over a few candidate answers, trained by
the advantages rewardbox sends (REINFORCE). It speaks Tier 5's line protocol on stdin and stdout:
a `task` line, then `generate` (answered with a JSON list of completions) and `rewards` lines,
then `done`. Seeded: the same run every time."""

import json
import math
import random
import sys


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    candidates, logits, last = [], [], []
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "task":
            reference = str(message["task"].get("reference", "1"))
            try:
                n = int(reference)
                guesses = [n - 2, n + 1, n, n + 7]
            except ValueError:
                guesses = [reference + "0", reference]
            candidates = [f"The answer is {g}." for g in guesses] + ["I do not know."]
            logits = [0.0] * len(candidates)
        elif kind == "generate":
            top = max(logits)
            weights = [math.exp(l - top) for l in logits]
            last = rng.choices(range(len(candidates)), weights=weights, k=message["n"])
            print(json.dumps([candidates[i] for i in last]), flush=True)
        elif kind == "rewards":
            for i, advantage in zip(last, message["advantages"]):
                logits[i] += 0.5 * advantage
        elif kind == "done":
            return


main()
