"""Distinct C programs scored from inside a trainer-sized process.

A trainer that embeds `rewardbox.Scorer` holds GiB of its own memory (the policy's weights on the
host, tensors, a dataloader's buffers). Each distinct program is compiled by a confined compiler
that the scorer starts from that process. This bench touches `GIB` GiB of memory in the Python
process (as a trainer's would be: written, so resident), then scores distinct C a+b programs one at
a time, and prints the time per program for each size:

    .venv/bin/python crates/rewardbox/benches/compile_in_a_trainer.py 0 4 8

Every program is new code to every run (it compares its input with a constant made of a nonce and
its index: a nonce in a comment alone would compile to the same module, whose native code the
compiled-component cache holds), so no cache answers it; one program is scored first to warm the
compiler's own caches. Each result must pass, or the bench fails.
"""

import random
import sys
import time

import rewardbox

PROGRAMS = 24


def task(nonce, i):
    source = (
        "#include <stdio.h>\n"
        "int main(void) { long long a, b; if (scanf(\"%lld %lld\", &a, &b) != 2) return 1;\n"
        f"  if (a == {nonce * 1000 + i + 1}LL) return 3;\n"
        "  printf(\"%lld\\n\", a + b); return 0; }\n"
    )
    return {
        "id": f"c-{i}",
        "verifier": "code",
        "language": "c",
        "tests": {"stdio": [{"stdin": "3 4\n", "stdout": "7\n"}]},
        "completions": ["```c\n" + source + "```"],
    }


def per_program(gib):
    ballast = bytearray(int(gib * (1 << 30)))
    for at in range(0, len(ballast), 4096):
        ballast[at] = 1
    scorer = rewardbox.Scorer(threads=1)
    nonce = random.randrange(1 << 48)
    scorer.score([task(nonce, -1)])
    started = time.perf_counter()
    for i in range(PROGRAMS):
        result = scorer.score([task(nonce, i)])[0]["results"][0]
        if not result["passed"]:
            raise SystemExit(f"program {i} did not pass: {result}")
    return (time.perf_counter() - started) / PROGRAMS


def main(sizes):
    print("| memory touched in the process | per distinct C program |")
    print("|---|---|")
    for gib in sizes:
        print(f"| {gib:g} GiB | {per_program(gib) * 1000:.0f} ms |", flush=True)


if __name__ == "__main__":
    main([float(a) for a in sys.argv[1:]] or [0.0, 4.0])
