"""`rewardbox serve` with the clients trainers already use: SandboxFusion's own client (what
verl's sandbox_fusion_url path calls), and plain HTTP for OpenRLHF's remote reward."""

import json
import pathlib
import socket
import subprocess
import time
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(cache_dir, rewardbox_binary):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [str(rewardbox_binary), "serve", "--port", str(port), "--env-dir", str(ROOT / "tests" / "data" / "codegym"),
         "--cache-dir", cache_dir],
        stderr=subprocess.PIPE,
    )
    url = "http://127.0.0.1:%d" % port
    for _ in range(600):
        try:
            urllib.request.urlopen(url + "/healthz", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("rewardbox serve did not come up: %s" % proc.stderr.read().decode())
    yield url
    proc.terminate()
    proc.wait(timeout=30)


def test_sandbox_fusion_client(server):
    sandbox_fusion = pytest.importorskip("sandbox_fusion")
    from sandbox_fusion import RunCodeRequest, RunStatus, run_code

    ok = run_code(RunCodeRequest(code="print(int(input()) * 2)", language="python", stdin="21"), endpoint=server)
    assert ok.status == RunStatus.Success
    assert ok.run_result.stdout == "42\n"
    assert ok.run_result.return_code == 0
    failed = run_code(RunCodeRequest(code="raise SystemExit(4)", language="python"), endpoint=server)
    assert failed.status == RunStatus.Failed and failed.run_result.return_code == 4
    timed_out = run_code(RunCodeRequest(code="while True:\n    pass", language="python", run_timeout=1), endpoint=server)
    assert timed_out.run_result.status.value == "TimeLimitExceeded"
    from sandbox_fusion.client import summary_run_code_result
    from sandbox_fusion.models import SummaryMapping

    assert summary_run_code_result(ok, SummaryMapping()) == "Success"
    cpp = run_code(RunCodeRequest(code="#include <cstdio>\nint main(){int a;scanf(\"%d\",&a);printf(\"%d\\n\",a*2);}",
                                  language="cpp", stdin="21"), endpoint=server)
    assert cpp.status == RunStatus.Success and cpp.run_result.stdout == "42\n"
    assert cpp.compile_result.return_code == 0
    broken = run_code(RunCodeRequest(code="int main(){ return nope; }", language="cpp"), endpoint=server)
    assert broken.status == RunStatus.Failed and broken.run_result is None
    assert "error" in broken.compile_result.stderr
    go = run_code(RunCodeRequest(code="package main\nimport \"fmt\"\nfunc main() { var a int; fmt.Scan(&a); fmt.Println(a * 2) }\n",
                                 language="go", stdin="21"), endpoint=server)
    assert go.status == RunStatus.Success and go.run_result.stdout == "42\n", go
    assert go.compile_result.return_code == 0
    # SandboxFusion's `typescript`: run as Node runs a .ts file, types stripped.
    ts = run_code(RunCodeRequest(code="const n: number = Number(require('fs').readFileSync(0, 'utf8'));\nconsole.log(n * 2 as number);\n",
                                 language="typescript", stdin="21"), endpoint=server)
    assert ts.status == RunStatus.Success and ts.run_result.stdout == "42\n", ts
    refused = run_code(RunCodeRequest(code="enum E { A }\nconsole.log(E.A);\n", language="typescript"), endpoint=server)
    assert refused.status == RunStatus.Failed and refused.run_result.return_code == 1, refused
    assert "TypeScript enum is not supported in strip-only mode" in refused.run_result.stderr
    with pytest.raises(Exception, match="not supported"):
        run_code(RunCodeRequest(code="1", language="java"), endpoint=server, max_attempts=1)
    assert sandbox_fusion is not None


def test_sandbox_fusion_client_sees_native_endings(server):
    """What SandboxFusion's client reads of programs that end in every way, as their native
    processes end: exact exit codes, crashes with the shell's status, compile and run times apart,
    asserts of each language, the standard library, files that are not there."""
    pytest.importorskip("sandbox_fusion")
    from sandbox_fusion import RunCodeRequest, RunStatus, run_code

    def run(code, language, **fields):
        return run_code(RunCodeRequest(code=code, language=language, **fields), endpoint=server, max_attempts=1)

    for code, language, status in [
        ("#include <stdlib.h>\nint main(void) { exit(3); }", "cpp", 3),
        ("int main(void) { return 200; }", "cpp", 200),
        ("#include <stdlib.h>\nint main(void) { abort(); }", "cpp", 134),
        ("#include <cassert>\nint main() { int x = 1; assert(x == 2); }", "cpp", 134),
        ("int main(void) { volatile int z = 0; return 5 / z; }", "cpp", 136),
        ("fn main() { let v: Vec<u8> = Vec::new(); println!(\"{}\", v[std::hint::black_box(1)]); }", "rust", 101),
        ("process.exit(5);", "nodejs", 5),
        ("require('node:assert').deepEqual([1, 2], [2, 1]);", "nodejs", 1),
        ("console.assert(false); console.log('on');", "nodejs", 0),
        ("import sys\nsys.exit(9)", "python", 9),
    ]:
        result = run(code, language)
        assert result.run_result.status.value == "Finished", (code, result)
        assert result.run_result.return_code == status, (code, result)
        assert (result.status == RunStatus.Success) == (status == 0), (code, result)
    asserted = run("require('assert').strictEqual(1, 2);", "nodejs")
    assert "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal" in asserted.run_result.stderr

    compiled = run("#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }", "cpp")
    assert compiled.status == RunStatus.Success and compiled.run_result.stdout == "hi\n"
    assert isinstance(compiled.compile_result.execution_time, float)
    assert isinstance(compiled.run_result.execution_time, float)

    stdlib = run("import email, zipfile, tarfile, configparser, tomllib, sqlite3\n"
                 "from datetime import datetime\n"
                 "print(datetime.strptime('2024-03-05', '%Y-%m-%d').year)", "python")
    assert stdlib.status == RunStatus.Success and stdlib.run_result.stdout == "2024\n", stdlib

    fetched = run("open('out.txt', 'w').write('x')", "python", fetch_files=["out.txt", "missing.txt"])
    assert fetched.status == RunStatus.Success
    assert set(fetched.files) == {"out.txt"}


def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def test_openrlhf_remote_reward(server):
    answer = post(server + "/get_reward", {"query": ["Q A: \\boxed{12}", "Q A: 13"], "prompts": ["Q A:", "Q A:"],
                                           "labels": ["12", "12"]})
    assert answer["rewards"] == [1.0, 0.0]


def test_codegym_client_flow(server):
    started = post(server + "/start", {"env_str": 'Toy_2_I__ReverseWordsEnv@{"sentence": "a b c"}', "env_name": "codegym_v1"})
    sid = started["session_id"]
    assert post(server + "/step", {"session_id": sid, "action": '{"name": "Count", "parameters": {}}'}) == {"status": True, "observation": "3"}
    with urllib.request.urlopen(server + "/get_attribute?session_id=%s&attribute_name=solve" % sid) as r:
        assert "reward=1.0" in json.loads(r.read())["attribute_value"]
    assert post(server + "/stop", {"session_id": sid}) == {"message": "Session stopped."}
