"""The peer side of `cargo bench --bench math_vs_math_verify`: Math-Verify 0.9.0 over the labelled
cases, single process, with the settings each case was written for (as Math-Verify's own test
helper `compare_strings` sets them). Prints one JSON object: cases, seconds, agreed."""

import json
import sys
import time

from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify


def targets(match_types):
    out = []
    for t in match_types:
        if t == "latex":
            out.append(LatexExtractionConfig(boxed_match_priority=0))
        elif t == "expr":
            out.append(ExprExtractionConfig())
    return out


def main(path):
    cases = [json.loads(line) for line in open(path) if line.strip()]
    agreed = 0
    started = time.perf_counter()
    for c in cases:
        config = targets(c["match_types"])
        gold = parse(c["gold"], config)
        pred = parse(c["prediction"], config)
        got = verify(
            gold,
            pred,
            float_rounding=c["float_rounding"],
            strict=c["strict"],
            allow_set_relation_comp=c["allow_set_relation_comp"],
        )
        agreed += bool(got) == c["expected"]
    seconds = time.perf_counter() - started
    print(json.dumps({"cases": len(cases), "seconds": seconds, "agreed": agreed}))


if __name__ == "__main__":
    main(sys.argv[1])
