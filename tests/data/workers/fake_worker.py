"""A stand-in for `rewardbox worker`, to test the parent's side of the protocol without wasm.

Reads `piece<TAB>line<TAB>task` lines and answers `piece<TAB>result`: each completion scores
1.0 when it is the string "right", else 0.0. A completion "die" kills this process before it
answers (as a crash would); "die-once" does so only the first time any worker sees it (the file
named by FAKE_WORKER_MARK records that). A task that is not JSON is answered `invalid_task`.
"""
import json
import os
import sys

for raw in sys.stdin:
    piece, line, text = raw.rstrip("\n").split("\t", 2)
    try:
        task = json.loads(text)
    except ValueError:
        result = {"id": None, "line": int(line), "status": "invalid_task",
                  "detail": f"line {line}: not JSON", "results": []}
    else:
        completions = task["completions"]
        if "die" in completions:
            os._exit(9)
        mark = os.environ.get("FAKE_WORKER_MARK")
        if "die-once" in completions and mark and not os.path.exists(mark):
            open(mark, "w").close()
            os._exit(9)
        result = {"id": task["id"], "results": [
            {"score": float(c == "right"), "passed": c == "right", "status": "ok",
             "detail": f"pid {os.getpid()}", "fuel": len(c), "wall_us": 1}
            for c in completions]}
    sys.stdout.write(f"{piece}\t{json.dumps(result)}\n")
    sys.stdout.flush()
