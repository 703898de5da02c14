"""`rewardbox serve` driven by the environment clients trainers use, installed from the registry:
openenv-core's client and `openenv validate` (openenv 0.10.0), DeepGym's own client and models
(deepgym 0.6.2), TRL's `environment_factory` calling convention (reproduced from its source: TRL
needs torch), and NeMo Gym's simple agent's HTTP flow (reproduced from its source)."""

import asyncio
import functools
import inspect
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEEPGYM_ENVS = ROOT / "tests" / "data" / "deepgym"


def _serve(binary, cache_dir, *args):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [str(binary), "serve", "--port", str(port), "--env-dir", str(ROOT / "tests" / "data" / "codegym"),
         "--cache-dir", cache_dir, *args],
        stderr=subprocess.PIPE,
    )
    url = "http://127.0.0.1:%d" % port
    for _ in range(600):
        try:
            urllib.request.urlopen(url + "/healthz", timeout=1)
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    pytest.fail("rewardbox serve did not come up: %s" % proc.stderr.read().decode())


def _warm_cpp(url):
    """Compiles one C++ program through SandboxFusion's `/run_code` with no client deadline: on a
    fresh cache the first C++ compile also builds zig's libc++ for WebAssembly, which takes minutes
    on a busy machine, longer than OpenEnv's client waits for a message (60 s). The tests below are
    about the protocols, not about that one-time cost."""
    body = json.dumps({"code": "#include <iostream>\nint main() { std::cout << 1; }", "language": "cpp",
                       "compile_timeout": 1800, "run_timeout": 10}).encode()
    request = urllib.request.Request(url + "/run_code", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=1800) as response:
        answer = json.loads(response.read())
    assert answer["status"] == "Success", answer


@pytest.fixture(scope="module")
def server(cache_dir, rewardbox_binary):
    proc, url = _serve(rewardbox_binary, cache_dir)
    _warm_cpp(url)
    yield url
    proc.terminate()
    proc.wait(timeout=30)


@pytest.fixture(scope="module")
def root_server(cache_dir, rewardbox_binary):
    """One environment at the root, as OpenEnv deployments serve it, with two sessions at most."""
    proc, url = _serve(rewardbox_binary, cache_dir, "--openenv", "coding", "--max-sessions", "2")
    yield url
    proc.terminate()
    proc.wait(timeout=30)


# ---------------------------------------------------------------------------------------------
# OpenEnv
# ---------------------------------------------------------------------------------------------


def _openenv_cli():
    found = shutil.which("openenv") or str(pathlib.Path(sys.executable).parent / "openenv")
    if not pathlib.Path(found).exists():
        pytest.fail("the openenv CLI is missing: pip install openenv==0.10.0 (scripts/python-test-tools.sh)")
    return found


@pytest.mark.parametrize("base", ["/openenv/coding", "/openenv/episode", "/openenv/codegym/Toy_1_I__SumListEnv"])
def test_openenv_validate_passes_every_environment(server, base):
    done = subprocess.run([_openenv_cli(), "validate", server + base, "--json"], capture_output=True, text=True,
                          timeout=120)
    report = json.loads(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    assert report["passed"] is True
    assert report["standard_profile"] == "openenv-http/1.x"
    assert report["mode"] == "simulation"
    assert {c["id"] for c in report["criteria"] if c["passed"]} >= {
        "openapi_version_available", "health_endpoint", "metadata_endpoint", "schema_endpoint", "mcp_endpoint",
        "mode_endpoint_consistency"}


def test_openenv_validate_passes_the_root_environment(root_server):
    done = subprocess.run([_openenv_cli(), "validate", root_server], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Verdict: PASS" in done.stdout


def test_openenv_generic_client_drives_a_python_repl_and_compiled_languages(server):
    from openenv.core.generic_client import GenericEnvClient

    with GenericEnvClient(base_url=server + "/openenv/coding").sync() as env:
        first = env.reset()
        assert first.observation["exit_code"] == 0 and first.reward == 0.0 and first.done is False
        env.step({"code": "import math\nradius = 2"})
        area = env.step({"code": "print(round(math.pi * radius ** 2, 3))"})
        assert area.observation["stdout"] == "12.566\n"
        cpp = env.step({"language": "cpp", "code": "#include <iostream>\nint main() { std::cout << 7 * 6 << std::endl; }"})
        assert (cpp.observation["stdout"], cpp.observation["exit_code"]) == ("42\n", 0)
        state = env.state()
        assert state["step_count"] == 3 and len(state["episode_id"]) == 32
        # The server's error frames become the client's errors, with OpenEnv's codes.
        with pytest.raises(RuntimeError, match="VALIDATION_ERROR"):
            env.step({"source": "print(1)"})
        assert env.step({"code": "print(radius)"}).observation["stdout"] == "2\n"


def test_openenv_session_answers_keepalive_pings_during_a_long_step(server):
    """A step that runs longer than the client's keepalive (websockets pings every 20 s and drops a
    connection whose pong is late; a first C++ or Rust compile can take that long) must not cost the
    session: the server reads the socket, and so answers pings, while the step runs."""
    from websockets.sync.client import connect

    ws_url = server.replace("http://", "ws://") + "/openenv/coding/ws"
    with connect(ws_url, ping_interval=0.1, ping_timeout=0.5) as ws:
        ws.send(json.dumps({"type": "reset", "data": {}}))
        assert json.loads(ws.recv(timeout=60))["type"] == "observation"
        # Some seconds of work (time.sleep in the sandbox advances a virtual clock, not the wall's).
        busy = "n = 0\nfor i in range(10_000_000):\n    n += i\nprint('slept')"
        ws.send(json.dumps({"type": "step", "data": {"code": busy}}))
        # A frame sent while the step runs is answered after it, in order.
        ws.send(json.dumps({"type": "state"}))
        slept = json.loads(ws.recv(timeout=60))
        assert slept["type"] == "observation", slept
        assert slept["data"]["observation"]["stdout"] == "slept\n"
        state = json.loads(ws.recv(timeout=60))
        assert state["type"] == "state" and state["data"]["step_count"] == 1


def _typed_coding_client():
    """OpenEnv coding_env's typed client (`CodingEnv`, `CodeAction`, `CodeObservation`), as its
    `client.py` and `models.py` define it on openenv-core's `EnvClient` (coding_env itself is not
    on PyPI): pydantic models that forbid unknown fields."""
    from openenv.core.client_types import StepResult
    from openenv.core.env_client import EnvClient
    from openenv.core.env_server.types import Action, Observation, State

    class CodeAction(Action):
        code: str

    class CodeObservation(Observation):
        stdout: str = ""
        stderr: str = ""
        exit_code: int = 0

    class CodeState(State):
        last_exit_code: int = 0

    class CodingEnv(EnvClient):
        def _step_payload(self, action):
            return {"code": action.code}

        def _parse_result(self, payload):
            return StepResult(observation=CodeObservation(**payload["observation"]), reward=payload.get("reward"),
                              done=bool(payload.get("done", False)))

        def _parse_state(self, payload):
            return CodeState(episode_id=payload.get("episode_id"), step_count=payload.get("step_count", 0),
                             last_exit_code=payload.get("last_exit_code", 0))

    return CodingEnv, CodeAction, CodeObservation


def test_openenv_typed_coding_client_reads_the_observation_it_expects(server):
    """OpenEnv's own CodingEnv client parses `CodeObservation(**payload["observation"])` with
    pydantic models that forbid unknown fields: the observation must hold exactly its fields."""
    CodingEnv, CodeAction, CodeObservation = _typed_coding_client()

    with CodingEnv(base_url=server + "/openenv/coding").sync() as env:
        env.reset()
        result = env.step(CodeAction(code="import sys\nprint('out')\nsys.exit(3)"))
        assert isinstance(result.observation, CodeObservation)
        assert (result.observation.stdout, result.observation.exit_code) == ("out\n", 3)
        assert result.observation.metadata["status"] == "exited_nonzero"
        assert env.state().last_exit_code == 3


def test_openenv_coding_env_semantics_at_the_root(root_server):
    """What OpenEnv's own coding_env integration tests assert of its server, asserted of
    `rewardbox serve --openenv coding` through openenv's client: exit codes, output, state, a
    REPL's persistence and reset, and coding_env's rewards (its safety and quality transforms:
    0.1 for short safe code, 0.0 for long, -1.0 more for `import os`, `eval(`, `exec(`, `open(`,
    `__import__`, -0.2 more for a syntax error)."""
    CodingEnv, CodeAction, CodeObservation = _typed_coding_client()

    with CodingEnv(base_url=root_server).sync() as env:
        reset = env.reset()
        assert (reset.observation.exit_code, reset.observation.stderr, reset.reward) == (0, "", 0.0)
        hello = env.step(CodeAction(code="print('Hello, World!')"))
        assert hello.observation.exit_code == 0 and "Hello, World!" in hello.observation.stdout
        assert hello.reward == pytest.approx(0.1)
        assert "Result: 8" in env.step(CodeAction(code="x = 5 + 3\nprint(f'Result: {x}')")).observation.stdout
        assert "Pi: 3.1416" in env.step(CodeAction(code="import math\nprint(f'Pi: {math.pi:.4f}')")).observation.stdout
        squares = env.step(CodeAction(code="\nfor i in range(1, 4):\n    print(f'{i} squared is {i**2}')\n"))
        assert all(f"{i} squared is {i * i}" in squares.observation.stdout for i in (1, 2, 3))
        divided = env.step(CodeAction(code="x = 1 / 0"))
        assert divided.observation.exit_code == 1 and "ZeroDivisionError" in divided.observation.stderr
        assert env.step(CodeAction(code="print(undefined_variable)")).observation.exit_code == 1
        syntax = env.step(CodeAction(code="print('Hello'"))
        assert syntax.observation.exit_code == 1 and syntax.reward == pytest.approx(-0.1)
        long_code = "total = 0\n" + "".join(f"total += {i}  # step {i}\n" for i in range(8))
        assert env.step(CodeAction(code=long_code)).reward == pytest.approx(0.0)
        assert env.step(CodeAction(code=long_code + "print(")).reward == pytest.approx(-0.2)
        for dangerous in ["import os", "print(eval('1'))", "exec('y = 1')", "m = __import__('math')"]:
            result = env.step(CodeAction(code=dangerous))
            assert result.reward == pytest.approx(-0.9), dangerous
        assert env.step(CodeAction(code="x = 5")).reward >= 0

        env.reset()
        state = env.state()
        assert state.episode_id is not None and state.step_count == 0
        env.step(CodeAction(code="my_var = 42"))
        assert env.state().step_count == 1
        assert "42" in env.step(CodeAction(code="print(my_var)")).observation.stdout
        assert env.state().step_count == 2
        env.reset()
        assert env.step(CodeAction(code="print(my_var)")).observation.exit_code == 1


def test_openenv_sessions_are_isolated_and_concurrent(server):
    from openenv.core.generic_client import GenericEnvClient

    async def one(i):
        async with GenericEnvClient(base_url=server + "/openenv/coding") as env:
            await env.reset()
            await env.step({"code": f"mine = {i}"})
            result = await env.step({"code": "print(mine, 'others' in dir())"})
            return result.observation["stdout"]

    async def many():
        return await asyncio.gather(*(one(i) for i in range(16)))

    assert asyncio.run(many()) == [f"{i} False\n" for i in range(16)]


def test_openenv_codegym_and_episode_environments(server):
    from openenv.core.generic_client import GenericEnvClient

    with GenericEnvClient(base_url=server + "/openenv/codegym/Toy_2_I__ReverseWordsEnv").sync() as env:
        schema = json.load(urllib.request.urlopen(server + "/openenv/codegym/Toy_2_I__ReverseWordsEnv/schema"))
        assert schema["action"]["properties"]["name"]["type"] == "string"
        first = env.reset(config={"sentence": "hello big world"})
        assert first.observation["ok"] is True
    spec = {
        "task": "Write answer.txt holding 42.",
        "final_verifier_code": "import json\nok = open('answer.txt').read().strip() == '42'\n"
                               "print(json.dumps({'score': float(ok), 'passed': ok}))\n",
        "max_steps": 3,
    }
    with GenericEnvClient(base_url=server + "/openenv/episode").sync() as env:
        assert env.reset(**spec).observation["content"] == "Write answer.txt holding 42."
        env.step({"action_type": "write_file", "path": "answer.txt", "content": "42\n"})
        end = env.step({"action_type": "done"})
        assert (end.done, end.reward, end.observation["metadata"]["passed"]) == (True, 1.0, True)


def test_openenv_capacity_refusal_reaches_the_client(root_server):
    from openenv.core.generic_client import GenericEnvClient

    held = [GenericEnvClient(base_url=root_server).sync() for _ in range(2)]
    try:
        for env in held:
            env.reset()
        with pytest.raises(Exception, match="CAPACITY_REACHED"):
            with GenericEnvClient(base_url=root_server).sync() as third:
                third.reset()
    finally:
        for env in held:
            env.close()


def test_trl_environment_factory_drives_the_example_environments(server):
    """What TRL's GRPOTrainer does with an `environment_factory` (trl/trainer/grpo_trainer.py):
    `factory()` per rollout, public methods but `reset`/`get_reward` as tools (their docstrings
    documented with Args), `reset(**row)` whose string is appended to the prompt, the tools called
    with the model's arguments, and `get_reward()` at the end."""
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import openenv_trl
    finally:
        sys.path.pop(0)

    def tools_of(instance):
        methods = inspect.getmembers(instance, predicate=inspect.ismethod)
        return {name: m for name, m in methods if name not in ("reset", "get_reward") and not name.startswith("_")}

    codegym = functools.partial(openenv_trl.CodeGymTools, base_url=server)
    env = codegym()
    tools = tools_of(env)
    assert set(tools) == {"call"}, "the model sees only the environment's own calls"
    assert "Args:" in inspect.getdoc(tools["call"])
    row = {"prompt": [{"role": "user", "content": "Sum the list."}], "env": "Toy_1_I__SumListEnv",
           "config": json.dumps({"values": [3, 4, 5]})}
    shown = env.reset(**row)
    assert "3 integers" in shown
    assert tools["call"]("GetValue", json.dumps({"index": 2})) == "5"
    assert env.get_reward() == 0.0
    assert "reward=1" in tools["call"]("Done", json.dumps({"answer": 12}))
    assert env.get_reward() == 1.0
    env.reset(**{**row, "config": json.dumps({"values": [1]})})
    assert env.get_reward() == 0.0, "a reset starts the reward over"
    del env

    coding = functools.partial(openenv_trl.CodingTools, base_url=server)()
    assert set(tools_of(coding)) == {"run_python", "run_program"}
    assert coding.reset(**row) is None
    assert "stdout:\n10\n" in coding.run_python("total = sum([1, 2, 3, 4])\nprint(total)")
    assert "exit code: 0" in coding.run_program("fn main() { println!(\"{}\", 2 + 2); }", "rust")


# ---------------------------------------------------------------------------------------------
# DeepGym
# ---------------------------------------------------------------------------------------------


def _deepgym_env(name):
    from deepgym.registry import load_environment_dir

    env = load_environment_dir(DEEPGYM_ENVS / name)
    cases = DEEPGYM_ENVS / name / "test_cases.json"
    if cases.exists():
        # DeepGym's HTTP client sends the environment without its folder: the cases go inline.
        env = env.model_copy(update={"test_cases": json.loads(cases.read_text())})
    return env


def test_deepgym_client_runs_and_batches(server):
    from deepgym.async_core import AsyncDeepGym

    dg = AsyncDeepGym(api_url=server)
    sums = _deepgym_env("running_sum")
    reference = (DEEPGYM_ENVS / "running_sum" / "reference_solution.py").read_text()

    async def scenario():
        single = await dg.run(sums, reference)
        batch = await dg.run_batch(sums, [reference, "def running_sum(v):\n    return v\n",
                                          "import os\nos._exit(0)\n"], max_parallel=3)
        broken = sums.model_copy(update={"verifier_path": None,
                                         "verifier_code": "def verify(solution_path, test_cases_path=None):\n"
                                                          "    raise RuntimeError('bug')\n"})
        masked = await dg.run(broken, reference)
        return single, batch, masked

    single, batch, masked = asyncio.run(scenario())
    assert (single.score, single.passed, single.exit_code, single.has_verdict) == (1.0, True, 0, True)
    assert [c.passed for c in single.cases] == [True] * 5
    assert [r.score for r in batch.results] == [1.0, 0.4, 0.0]
    assert (batch.passed, batch.total, batch.no_verdict_count) == (1, 3, 0)
    assert masked.has_verdict is False and masked.exit_code == 2 and masked.score == 0.0
    for name in ("shout", "word_lengths", "min_stack"):
        env = _deepgym_env(name)
        result = asyncio.run(dg.run(env, (DEEPGYM_ENVS / name / "reference_solution.py").read_text()))
        assert (name, result.score, result.has_verdict) == (name, 1.0, True)


def test_every_environment_deepgyms_package_ships(server):
    """Every environment in the registry of DeepGym's own package, run with its reference solution
    through DeepGym's client: each one whose verifier needs only what a sandbox gives is solved
    (1.0, with a verdict); each that needs a process, a working directory shared with the
    solution's process or a socket is masked, saying what it lacked, never a 0 verdict."""
    import deepgym
    from deepgym.async_core import AsyncDeepGym
    from deepgym.registry import load_environment_dir

    envs = pathlib.Path(deepgym.__file__).parent / "envs"
    registry = json.loads((envs / "registry.json").read_text())["environments"]
    dirs = {p.parent.relative_to(envs).as_posix(): p.parent for p in envs.rglob("verifier.py")}
    dg = AsyncDeepGym(api_url=server)
    solved, masked, without_reference = [], {}, []
    for entry in registry:
        found = [d for name, d in dirs.items() if name == entry["path"] or name.endswith("/" + entry["path"])]
        assert len(found) == 1, entry
        reference = found[0] / "reference_solution.py"
        if not reference.exists():
            without_reference.append(entry["path"])
            continue
        result = asyncio.run(dg.run(load_environment_dir(found[0]), reference.read_text()))
        if result.has_verdict:
            assert result.score == 1.0, (entry["path"], result)
            solved.append(entry["path"])
        else:
            assert result.score == 0.0 and "not available in rewardbox's verifier sandbox" in result.stderr, \
                (entry["path"], result)
            masked[entry["path"]] = result.stderr.strip().splitlines()[-1]
    assert len(solved) == 22, solved
    assert sorted(masked) == ["api_request", "cli_task", "data_pipeline", "file_organizer"], masked
    assert len(without_reference) == 5, without_reference


def test_deepgym_api_key_is_the_token(cache_dir, rewardbox_binary):
    from deepgym.async_core import AsyncDeepGym

    proc, url = _serve(rewardbox_binary, cache_dir, "--token", "dg-key")
    try:
        sums = _deepgym_env("running_sum")
        reference = (DEEPGYM_ENVS / "running_sum" / "reference_solution.py").read_text()
        assert asyncio.run(AsyncDeepGym(api_url=url, api_key="dg-key").run(sums, reference)).passed
        with pytest.raises(Exception, match="401"):
            asyncio.run(AsyncDeepGym(api_url=url).run(sums, reference))
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_deepgym_sessions_and_audit_with_deepgyms_models(server):
    import httpx
    from deepgym.api.schemas import APIEnvironment, CreateSessionRequest, SessionResponse, StepResponse, \
        VerifierAuditRequest
    from deepgym.models import Action, MultiTurnEnvironment, RunResult
    from deepgym.reward_qa import VerifierAuditReport

    environment = MultiTurnEnvironment(
        task="Make answer.txt hold 42.",
        files={"answer.txt": "41\n"},
        setup_code="print(open('answer.txt').read())",
        step_verifier_code="import json\nprint(json.dumps({'score': 0.5}))\n",
        final_verifier_code="import json\nok = open('answer.txt').read().strip() == '42'\n"
                            "print(json.dumps({'score': float(ok), 'passed': ok, 'details': 'checked'}))\n",
        max_steps=5,
    )
    with httpx.Client(base_url=server, timeout=60) as http:
        created = http.post("/v1/sessions", json=CreateSessionRequest(environment=environment).model_dump(mode="json"))
        assert created.status_code == 201, created.text
        session = SessionResponse.model_validate(created.json())
        assert session.observation.content == "41\n\n"
        step = StepResponse.model_validate(http.post(
            f"/v1/sessions/{session.session_id}/step",
            json=Action(action_type="write_file", path="answer.txt", content="42\n").model_dump(mode="json")).json())
        assert (step.reward, step.done, step.observation.step) == (0.5, False, 1)
        # DeepGym's default allowed actions include bash: rewardbox runs no shell, and says so.
        shell = http.post(f"/v1/sessions/{session.session_id}/step",
                          json=Action(action_type="bash", content="ls").model_dump(mode="json"))
        assert shell.status_code == 409 and "no processes" in shell.text
        result = RunResult.model_validate(http.post(f"/v1/sessions/{session.session_id}/score").json())
        assert (result.score, result.passed, result.has_verdict, result.output) == (1.0, True, True, "checked")
        assert http.delete(f"/v1/sessions/{session.session_id}").status_code == 204

        weak = APIEnvironment(
            task="Write `is_even(n)`.",
            verifier_code="from deepgym_solution import load_solution\n"
                          "def verify(solution_path, test_cases_path=None):\n"
                          "    s = load_solution(solution_path)\n"
                          "    return {'score': 1.0 if callable(getattr(s, 'is_even', None)) else 0.0}\n",
        )
        audited = http.post("/v1/audit/verifier",
                            json=VerifierAuditRequest(environment=weak, verifier_id="is-even").model_dump(mode="json"))
        assert audited.status_code == 200, audited.text
        report = VerifierAuditReport.model_validate(audited.json())
        assert report.status == "exploitable" and report.exploitable and report.risk_level in ("medium", "high", "critical")
        assert any(r.exploited and r.strategy == "always-equal-object" for r in report.report.results)
        assert report.attacks_run == report.report.attacks_run == len(report.report.results)


# ---------------------------------------------------------------------------------------------
# NeMo Gym
# ---------------------------------------------------------------------------------------------


def test_nemo_gym_simple_agent_flow(server):
    """NeMo Gym's simple agent (responses_api_agents/simple_agent): POST /seed_session with the run
    request and its cookies, the model's turns, then POST /verify with the run request plus the
    response and the seed's cookies, reading `reward` back from the verify response."""
    import requests

    run_request = {
        "responses_create_params": {"input": [{"role": "user", "content": "What is 6 * 7? Answer in \\boxed{}."}]},
        "verifier_metadata": {"verifier": "math", "reference": "42"},
        "task_index": 0,
    }
    http = requests.Session()
    seeded = http.post(server + "/seed_session", json=run_request)
    seeded.raise_for_status()
    assert seeded.json() == {} and seeded.cookies
    response = {
        "id": "resp_0", "object": "response", "created_at": 0.0, "model": "policy", "parallel_tool_calls": True,
        "tool_choice": "auto", "tools": [],
        "output": [
            {"type": "function_call", "id": "fc_0", "call_id": "c0", "name": "calculator", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c0", "output": "42"},
            {"type": "message", "id": "msg_0", "role": "assistant", "status": "completed",
             "content": [{"type": "output_text", "text": "It is \\boxed{42}.", "annotations": []}]},
        ],
    }
    verified = http.post(server + "/verify", json={**run_request, "response": response}, cookies=seeded.cookies)
    verified.raise_for_status()
    body = verified.json()
    assert body["reward"] == 1.0 and body["task_index"] == 0 and body["response"]["id"] == "resp_0"
    wrong = dict(response, output=[dict(response["output"][2], content=[
        {"type": "output_text", "text": "\\boxed{41}", "annotations": []}])])
    assert http.post(server + "/verify", json={**run_request, "response": wrong}).json()["reward"] == 0.0
