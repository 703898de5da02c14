"""A candidate's sleep against its time limit, runner by runner, beside the native run.

A program that sleeps S seconds and then prints runs under a 1 s limit in rewardbox (`rewardbox
score`, `candidate_limits.wall_ms = 1000`) and natively under `timeout 1` (python3, gcc -O2,
g++ -O2, rustc -O, go, node); each cell is "rewardbox / native". Run from the repository after
`scripts/setup.sh` (Go and Node as scripts/test.sh installs them):

    REWARDBOX_NODE=/path/to/node python3 crates/rewardbox-cli/benches/sleep_vs_timeout.py

`RB` names another rewardbox binary (an older build, to compare).
"""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
RB = os.environ.get("RB", str(ROOT / "target" / "release" / "rewardbox"))
VENV_GO = ROOT / ".venv" / "bin" / "go"
GO = str(VENV_GO) if VENV_GO.exists() else shutil.which("go")
NODE = os.environ.get("REWARDBOX_NODE") or shutil.which("node")
LENGTHS = [0.2, 0.5, 0.9, 1.5, 3.0]


def programs(seconds):
    """The program sleeping `seconds` in each language: (file name, source)."""
    ms = int(seconds * 1000)
    return {
        "python": ("main.py", f"import time\ntime.sleep({seconds})\nprint('woke')\n"),
        "c": ("main.c", "#define _POSIX_C_SOURCE 200809L\n#include <stdio.h>\n#include <time.h>\n"
              f"int main(void) {{ struct timespec t = {{{ms // 1000}, {(ms % 1000) * 1000000}L}};"
              " nanosleep(&t, 0); puts(\"woke\"); return 0; }\n"),
        "cpp": ("main.cpp", "#include <bits/stdc++.h>\n#include <thread>\n"
                f"int main() {{ std::this_thread::sleep_for(std::chrono::milliseconds({ms}));"
                " std::cout << \"woke\\n\"; }\n"),
        "rust": ("main.rs", f"fn main() {{ std::thread::sleep(std::time::Duration::from_millis({ms}));"
                 " println!(\"woke\"); }\n"),
        "go": ("main.go", "package main\nimport (\"fmt\"; \"time\")\n"
               f"func main() {{ time.Sleep({ms} * time.Millisecond); fmt.Println(\"woke\") }}\n"),
        "javascript": ("main.js", f"setTimeout(() => console.log('woke'), {ms});\n"),
    }


def native(language, file, source, work):
    """The native verdict under `timeout 1`: OK, TLE (124) or the exit status."""
    path = os.path.join(work, file)
    with open(path, "w") as f:
        f.write(source)
    binary = os.path.join(work, "main")
    if language == "python":
        command = ["python3", path]
    elif language == "javascript":
        command = [NODE, path]
    elif language == "go":
        env = dict(os.environ, GOCACHE=os.path.join(work, "gocache"), HOME=work)
        subprocess.run([GO, "build", "-o", binary, path], check=True, cwd=work, env=env)
        command = [binary]
    else:
        compiler = {"c": ["gcc", "-O2"], "cpp": ["g++", "-O2"], "rust": ["rustc", "-O"]}[language]
        subprocess.run(compiler + [path, "-o", binary], check=True, capture_output=True)
        command = [binary]
    done = subprocess.run(["timeout", "1"] + command, capture_output=True, text=True)
    if done.returncode == 124:
        return "TLE (124)"
    return "OK" if done.stdout.strip() == "woke" else f"exit {done.returncode}"


def main():
    cells = {}
    tasks = []
    for seconds in LENGTHS:
        for language, (file, source) in programs(seconds).items():
            with tempfile.TemporaryDirectory() as work:
                cells[(language, seconds)] = [native(language, file, source, work)]
            tasks.append({"id": f"{language}/{seconds}", "verifier": "code", "language": language,
                          "tests": {"stdio": [{"stdin": "", "stdout": "woke"}]},
                          "candidate_limits": {"wall_ms": 1000},
                          "completions": ["```\n" + source + "```"]})
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for task in tasks:
            f.write(json.dumps(task) + "\n")
    scored = subprocess.run([RB, "score", f.name, "--quiet"], capture_output=True, text=True, check=True)
    os.unlink(f.name)
    for line in scored.stdout.splitlines():
        result = json.loads(line)
        completion = result["results"][0]
        language, seconds = result["id"].split("/")
        if completion["score"] == 1.0:
            verdict = "OK"
        elif "fuel" in completion["detail"]:
            verdict = "TLE (fuel)"
        else:
            verdict = completion["detail"][:60]
        cells[(language, float(seconds))].insert(0, verdict)
    print("| runner | " + " | ".join(f"sleep {s} s" for s in LENGTHS) + " |")
    print("|---|" + "---|" * len(LENGTHS))
    for language in programs(1):
        row = " | ".join(" / ".join(cells[(language, s)]) for s in LENGTHS)
        print(f"| {language} | {row} |")


if __name__ == "__main__":
    main()
