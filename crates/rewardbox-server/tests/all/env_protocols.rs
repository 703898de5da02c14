//! The environment protocols of `rewardbox serve` over loopback, frame by frame and field by field
//! as their clients send and read them: OpenEnv (WebSocket sessions, stateless HTTP, OpenAPI,
//! MCP, capacity and the token), NeMo Gym's resources server, and DeepGym's HTTP API. The real
//! clients (openenv-core, `openenv validate`, deepgym) drive the same server in
//! `python/tests/test_env_protocols.py`.

use crate::server_harness;

use crate::common::repo_root as root;
use serde_json::{Value, json};
use server_harness::Server;
use std::net::TcpStream;
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

fn connect(server: &Server, path: &str, token: Option<&str>) -> Result<Socket, tungstenite::Error> {
    let mut request = format!("ws://{}{path}", server.address)
        .into_client_request()
        .unwrap();
    if let Some(token) = token {
        request
            .headers_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
    }
    tungstenite::connect(request).map(|(socket, _)| socket)
}

/// Sends `frame` and reads the answer.
fn ask(socket: &mut Socket, frame: Value) -> Value {
    socket.send(Message::text(frame.to_string())).unwrap();
    read(socket)
}

fn read(socket: &mut Socket) -> Value {
    loop {
        match socket.read().unwrap() {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("expected a text frame, got {other:?}"),
        }
    }
}

fn step(socket: &mut Socket, action: Value) -> Value {
    let answer = ask(socket, json!({"type": "step", "data": action}));
    assert_eq!(answer["type"], "observation", "{answer}");
    answer["data"].clone()
}

fn error_code(answer: &Value) -> &str {
    assert_eq!(answer["type"], "error", "{answer}");
    answer["data"]["code"].as_str().unwrap()
}

#[test]
fn the_coding_environment_keeps_python_state_and_runs_every_language() {
    let server = Server::start(|_| {});
    let mut ws = connect(&server, "/openenv/coding/ws", None).unwrap();
    let reset = ask(&mut ws, json!({"type": "reset", "data": {}}));
    assert_eq!(reset["type"], "observation");
    assert_eq!(
        reset["data"]["observation"],
        json!({"stdout": "", "stderr": "", "exit_code": 0, "metadata": {}})
    );
    assert_eq!(reset["data"]["done"], false);
    // coding_env's rewards (OpenEnv's own coding environment's), unless the server is told
    // otherwise.
    assert_eq!(reset["data"]["reward"], 0.0);

    step(&mut ws, json!({"code": "x = 41"}));
    let printed = step(&mut ws, json!({"code": "print(x + 1)"}));
    assert_eq!(printed["observation"]["stdout"], "42\n");
    assert_eq!(printed["observation"]["exit_code"], 0);
    let raised = step(&mut ws, json!({"code": "print('partial')\n1 / 0"}));
    assert_eq!(raised["observation"]["stdout"], "partial\n");
    assert_eq!(raised["observation"]["exit_code"], 1);
    assert!(
        raised["observation"]["stderr"]
            .as_str()
            .unwrap()
            .trim_end()
            .ends_with("ZeroDivisionError: division by zero"),
        "{raised}"
    );
    let with_input = step(
        &mut ws,
        json!({"code": "print(int(input()) * x)", "stdin": "2\n"}),
    );
    assert_eq!(with_input["observation"]["stdout"], "82\n");

    let c = step(
        &mut ws,
        json!({"language": "c", "code": "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 6 * 7); return 3; }"}),
    );
    assert_eq!(
        (
            c["observation"]["stdout"].as_str(),
            c["observation"]["exit_code"].as_i64()
        ),
        (Some("42\n"), Some(3))
    );
    let broken = step(
        &mut ws,
        json!({"language": "rust", "code": "fn main() { let x: i32 = \"no\"; }"}),
    );
    assert_eq!(broken["observation"]["exit_code"], 1);
    assert_eq!(broken["metadata"]["status"], "compile_error");
    // coding_env's rewards: a short program that does not compile is a short syntax error
    // (0.1 - 0.2), the C program above short and safe (0.1).
    assert!(
        (broken["reward"].as_f64().unwrap() + 0.1).abs() < 1e-9,
        "{broken}"
    );
    assert!((c["reward"].as_f64().unwrap() - 0.1).abs() < 1e-9, "{c}");
    let js = step(
        &mut ws,
        json!({"language": "js", "code": "console.log([1, 2, 3].map(v => v * 2).join(','))"}),
    );
    assert_eq!(js["observation"]["stdout"], "2,4,6\n");

    // A loop past its time limit: stopped by fuel (the same verdict on a busy machine), the exit
    // code of a killed process, and the interpreter with it.
    let looped = step(
        &mut ws,
        json!({"code": "while True:\n    pass", "timeout_s": 0.05}),
    );
    assert_eq!(looped["observation"]["exit_code"], 137);
    assert_eq!(looped["metadata"]["status"], "fuel_exhausted");
    let fresh = step(&mut ws, json!({"code": "print(x)"}));
    assert_eq!(fresh["metadata"]["restarted"], true);
    assert_eq!(fresh["observation"]["exit_code"], 1);

    let state = ask(&mut ws, json!({"type": "state"}));
    assert_eq!(state["type"], "state");
    assert_eq!(state["data"]["step_count"], 9);
    assert_eq!(state["data"]["last_exit_code"], 1);
    assert!(
        state["data"]["episode_id"]
            .as_str()
            .is_some_and(|id| id.len() == 32)
    );

    // OpenEnv's error frames, each leaving the session usable.
    ws.send(Message::text("{not json")).unwrap();
    assert_eq!(error_code(&read(&mut ws)), "INVALID_JSON");
    assert_eq!(
        error_code(&ask(&mut ws, json!({"type": "dance"}))),
        "UNKNOWN_TYPE"
    );
    assert_eq!(
        error_code(&ask(&mut ws, json!({"type": "step", "data": {}}))),
        "VALIDATION_ERROR"
    );
    let stranger = ask(
        &mut ws,
        json!({"type": "step", "data": {"code": "1", "cwd": "/"}}),
    );
    assert_eq!(error_code(&stranger), "VALIDATION_ERROR");
    assert!(
        stranger["data"]["message"]
            .as_str()
            .unwrap()
            .contains("cwd")
    );
    let unknown_language = ask(
        &mut ws,
        json!({"type": "step", "data": {"code": "1", "language": "cobol"}}),
    );
    assert_eq!(error_code(&unknown_language), "VALIDATION_ERROR");
    assert_eq!(
        step(&mut ws, json!({"code": "print('still here')"}))["observation"]["stdout"],
        "still here\n"
    );

    // A reset forgets the namespace; close ends the connection.
    ask(
        &mut ws,
        json!({"type": "reset", "data": {"episode_id": "e-7", "language": "python"}}),
    );
    assert_eq!(
        ask(&mut ws, json!({"type": "state"}))["data"]["episode_id"],
        "e-7"
    );
    let forgotten = step(&mut ws, json!({"code": "print('x' in dir())"}));
    assert_eq!(forgotten["observation"]["stdout"], "False\n");
    ws.send(Message::text(json!({"type": "close"}).to_string()))
        .unwrap();
    assert!(matches!(ws.read(), Ok(Message::Close(_)) | Err(_)));

    // The other reward: none at all.
    let unrewarded = Server::start(|o| o.coding_reward = rewardbox_server::CodingReward::None);
    let mut ws = connect(&unrewarded, "/openenv/coding/ws", None).unwrap();
    assert!(ask(&mut ws, json!({"type": "reset", "data": {}}))["data"]["reward"].is_null());
    assert!(step(&mut ws, json!({"code": "import os"}))["reward"].is_null());
}

#[test]
fn codegym_environments_and_episodes_are_openenv_environments() {
    let server = Server::start(|_| {});
    let mut ws = connect(&server, "/openenv/codegym/Toy_1_I__SumListEnv/ws", None).unwrap();
    let early = ask(
        &mut ws,
        json!({"type": "step", "data": {"name": "Observe"}}),
    );
    assert_eq!(error_code(&early), "VALIDATION_ERROR");
    assert!(
        early["data"]["message"]
            .as_str()
            .unwrap()
            .contains("reset first")
    );
    let reset = ask(
        &mut ws,
        json!({"type": "reset", "data": {"config": {"values": [3, 4, 5]}}}),
    );
    assert!(
        reset["data"]["observation"]["text"]
            .as_str()
            .unwrap()
            .contains("3 integers")
    );
    let observed = step(
        &mut ws,
        json!({"name": "GetValue", "parameters": {"index": 1}}),
    );
    assert_eq!(
        observed["observation"],
        json!({"text": "4", "ok": true, "metadata": {}})
    );
    assert_eq!(
        (observed["reward"].as_f64(), observed["done"].as_bool()),
        (Some(0.0), Some(false))
    );
    // The call as a model writes it: JSON text.
    let wrong = step(
        &mut ws,
        json!({"action": "{\"name\": \"Nope\", \"parameters\": {}}"}),
    );
    assert_eq!(wrong["observation"]["ok"], false);
    let done = step(
        &mut ws,
        json!({"name": "Done", "parameters": {"answer": 12}}),
    );
    assert_eq!(
        (done["reward"].as_f64(), done["done"].as_bool()),
        (Some(1.0), Some(true))
    );
    let state = ask(&mut ws, json!({"type": "state"}))["data"].clone();
    assert_eq!(state["step_count"], 3);
    assert_eq!(
        state["env_str"],
        "Toy_1_I__SumListEnv@SumListEnv@{\"values\":[3,4,5]}"
    );
    // A reset with a config the environment refuses.
    let hostile = connect(
        &server,
        "/openenv/codegym/Hostile_2_I__InitRaisesEnv/ws",
        None,
    );
    let mut hostile = hostile.unwrap();
    assert_eq!(
        error_code(&ask(&mut hostile, json!({"type": "reset", "data": {}}))),
        "EXECUTION_ERROR"
    );

    let mut episode = connect(&server, "/openenv/episode/ws", None).unwrap();
    let spec = json!({
        "task": "Write evens.py defining sum_evens(values).",
        "files": {"notes.txt": "sum the even values"},
        "step_verifier_code": "import os, json\nprint(json.dumps({'score': 0.5 if os.path.exists('evens.py') else 0.0}))\n",
        "final_verifier_code": "import json\nfrom deepgym_solution import load_solution\ns = load_solution('evens.py')\ncases = [([1, 2, 3, 4], 6), ([], 0), ([5], 0)]\nok = sum(s.sum_evens(a) == b for a, b in cases)\nprint(json.dumps({'score': ok / 3, 'passed': ok == 3, 'details': f'{ok}/3'}))\n",
        "max_steps": 5,
    });
    let first = ask(&mut episode, json!({"type": "reset", "data": spec}));
    assert_eq!(
        first["data"]["observation"]["content"],
        "Write evens.py defining sum_evens(values)."
    );
    let read_notes = step(
        &mut episode,
        json!({"action_type": "code", "content": "print(open('notes.txt').read())"}),
    );
    assert_eq!(
        read_notes["observation"]["content"],
        "sum the even values\n"
    );
    assert_eq!(read_notes["reward"], 0.0, "{read_notes}");
    let written = step(
        &mut episode,
        json!({"action_type": "write_file", "path": "evens.py", "content": "def sum_evens(values):\n    return sum(v for v in values if v % 2 == 0)\n"}),
    );
    assert_eq!(
        (
            written["reward"].as_f64(),
            written["observation"]["step"].as_i64()
        ),
        (Some(0.5), Some(2))
    );
    let finished = step(&mut episode, json!({"action_type": "done"}));
    assert_eq!(finished["done"], true);
    assert_eq!(finished["reward"], 1.0);
    assert_eq!(finished["metadata"]["passed"], true);
    assert_eq!(finished["metadata"]["details"], "3/3");
    let after = ask(
        &mut episode,
        json!({"type": "step", "data": {"action_type": "done"}}),
    );
    assert_eq!(error_code(&after), "VALIDATION_ERROR");
    // An episode ends on a line DONE in an action's output, as DeepGym's do. Its final verifier
    // then fails on the missing evens.py after it looked for it: the agent's 0, not a mask.
    ask(&mut episode, json!({"type": "reset", "data": spec}));
    let signalled = step(
        &mut episode,
        json!({"content": "print('work')\nprint('DONE')"}),
    );
    assert_eq!(signalled["done"], true);
    assert_eq!(signalled["reward"], 0.0, "{signalled}");
    assert_eq!(signalled["metadata"]["passed"], false, "{signalled}");
    let unrewarded = ask(
        &mut episode,
        json!({"type": "reset", "data": {"task": "nothing rewards this"}}),
    );
    assert_eq!(error_code(&unrewarded), "VALIDATION_ERROR");
}

#[test]
fn stateless_http_openapi_and_mcp() {
    let server = Server::start(|_| {});
    let (status, stepped) = server.json(
        "/openenv/coding/step",
        json!({"action": {"code": "print(2 ** 10)"}, "timeout_s": 2}),
    );
    assert_eq!(status, 200, "{stepped}");
    assert_eq!(stepped["observation"]["stdout"], "1024\n");
    // Stateless: a step never sees another's definitions.
    server.json("/openenv/coding/step", json!({"action": {"code": "y = 1"}}));
    let (_, fresh) = server.json(
        "/openenv/coding/step",
        json!({"action": {"code": "print(y)"}}),
    );
    assert_eq!(fresh["observation"]["exit_code"], 1);
    for bad in [
        json!({}),
        json!({"action": "print(1)"}),
        json!({"action": {"code": 5}}),
    ] {
        let (status, answer) = server.json("/openenv/coding/step", bad.clone());
        assert_eq!(status, 422, "{bad}: {answer}");
        assert!(answer["detail"].is_string(), "{answer}");
    }
    let (status, reset) = server.post("/openenv/coding/reset", "", &[]);
    assert_eq!(status, 200, "{reset}");
    let (status, state) = server.get("/openenv/coding/state");
    assert_eq!(status, 200);
    let state: Value = serde_json::from_str(&state).unwrap();
    assert_eq!(state["step_count"], 0);
    let (status, codegym_step) = server.json(
        "/openenv/codegym/Toy_1_I__SumListEnv/step",
        json!({"action": {"name": "Observe"}}),
    );
    assert_eq!(
        status, 422,
        "a CodeGym environment starts from its reset: {codegym_step}"
    );
    let (status, reset) = server.json(
        "/openenv/codegym/Toy_1_I__SumListEnv/reset",
        json!({"config": {"values": [1]}}),
    );
    assert_eq!(
        (status, reset["observation"]["ok"].as_bool()),
        (200, Some(true))
    );

    let (status, schema) = server.get("/openenv/episode/schema");
    assert_eq!(status, 200);
    let schema: Value = serde_json::from_str(&schema).unwrap();
    for part in ["action", "observation", "state", "reset_observation"] {
        assert!(schema[part].is_object(), "{part}");
    }
    let (_, openapi) = server.get("/openenv/codegym/Toy_1_I__SumListEnv/openapi.json");
    let openapi: Value = serde_json::from_str(&openapi).unwrap();
    assert_eq!(openapi["info"]["version"], "1.0.0");
    assert_eq!(
        openapi["servers"][0]["url"],
        "/openenv/codegym/Toy_1_I__SumListEnv"
    );
    for path in [
        "/reset",
        "/step",
        "/state",
        "/health",
        "/metadata",
        "/schema",
        "/mcp",
    ] {
        assert!(openapi["paths"][path].is_object(), "{path}");
    }
    let (status, missing) = server.get("/openenv/codegym/NoSuchEnv/metadata");
    assert_eq!(status, 404, "{missing}");

    let (status, empty) = server.json("/openenv/coding/mcp", json!({}));
    assert_eq!((status, empty["jsonrpc"].as_str()), (200, Some("2.0")));
    assert_eq!(empty["error"]["code"], -32600);
    let (_, parse) = server.post("/openenv/coding/mcp", "{", &[]);
    assert!(parse.contains("-32700"), "{parse}");
    let (_, tools) = server.json(
        "/openenv/coding/mcp",
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["reset", "step"]);
    let (_, called) = server.json(
        "/openenv/coding/mcp",
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "step", "arguments": {"code": "print(3)"}}}),
    );
    assert_eq!(called["id"], 2);
    assert_eq!(
        called["result"]["structuredContent"]["observation"]["stdout"],
        "3\n"
    );
    let (_, unknown) = server.json(
        "/openenv/coding/mcp",
        json!({"jsonrpc": "2.0", "id": 3, "method": "resources/list"}),
    );
    assert_eq!(unknown["error"]["code"], -32601);
}

#[test]
fn sessions_are_capped_the_token_holds_and_one_environment_serves_at_the_root() {
    let server = Server::start(|o| {
        o.token = Some("s3cret".into());
        o.max_sessions = 1;
        o.openenv = Some("coding".into());
    });
    assert!(
        connect(&server, "/openenv/coding/ws", None).is_err(),
        "no token, no session"
    );
    assert!(connect(&server, "/ws", Some("wrong")).is_err());
    let mut first = connect(&server, "/ws", Some("s3cret")).unwrap();
    assert_eq!(
        step(&mut first, json!({"code": "print(1)"}))["observation"]["stdout"],
        "1\n"
    );
    let mut second = connect(&server, "/openenv/coding/ws", Some("s3cret")).unwrap();
    let refused = read(&mut second);
    assert_eq!(error_code(&refused), "CAPACITY_REACHED");
    assert_eq!(refused["data"]["max_sessions"], 1);
    drop(first);
    // The place comes back when the first connection's session is gone.
    let came_back = server_harness::eventually(200, std::time::Duration::from_millis(50), || {
        let Ok(mut third) = connect(&server, "/ws", Some("s3cret")) else {
            return false;
        };
        let answer = ask(&mut third, json!({"type": "reset", "data": {}}));
        answer["type"] == "observation"
    });
    assert!(came_back);
    // Health answers without the token; the root's /reset is OpenEnv's, CodeGym's /start is not served.
    assert_eq!(server.get("/health").0, 200);
    let auth = [
        ("authorization", "Bearer s3cret"),
        ("content-type", "application/json"),
    ];
    let (status, reset) = server.post("/reset", "{}", &auth);
    assert_eq!(status, 200, "{reset}");
    assert!(reset.contains("\"exit_code\":0"), "{reset}");
    assert_eq!(server.post("/start", "{}", &auth).0, 404);
    assert_eq!(server.post("/reset", "{}", &[]).0, 401);
}

fn nemo_request(answer: &str, task: Value) -> Value {
    json!({
        "responses_create_params": {"input": [{"role": "user", "content": "What is 6 * 7?"}]},
        "response": {
            "id": "resp_1", "object": "response", "created_at": 0, "model": "policy",
            "output": [
                {"type": "reasoning", "id": "r1", "summary": []},
                {"type": "message", "id": "m1", "role": "assistant", "status": "completed",
                 "content": [{"type": "output_text", "text": answer, "annotations": []}]},
            ],
        },
        "verifier_metadata": task,
        "task_index": 3,
    })
}

#[test]
fn nemo_gym_seeds_sessions_and_verifies_any_task() {
    let server = Server::start(|_| {});
    let mut seeded = Server::agent()
        .post(&server.url("/seed_session"))
        .header("content-type", "application/json")
        .send(json!({"responses_create_params": {"input": "hi"}}).to_string())
        .unwrap();
    assert_eq!(seeded.status().as_u16(), 200);
    let cookie = seeded
        .headers()
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(cookie.starts_with("rewardbox_nemo_session="), "{cookie}");
    assert_eq!(seeded.body_mut().read_to_string().unwrap(), "{}");

    let math = json!({"verifier": "math", "reference": "42"});
    let (status, right) = server.json("/verify", nemo_request("6 * 7 = \\boxed{42}", math.clone()));
    assert_eq!(status, 200, "{right}");
    assert_eq!(right["reward"], 1.0);
    assert_eq!(
        right["reward_components"],
        json!({"score": 1.0, "passed": 1.0})
    );
    assert_eq!(right["task_index"], 3, "the request's fields come back");
    assert!(right["_ng_failure_class"].is_null());
    let (_, wrong) = server.json("/verify", nemo_request("\\boxed{41}", math));
    assert_eq!(wrong["reward"], 0.0);
    assert!(
        wrong["_ng_failure_class"].is_null(),
        "a wrong answer is a verdict"
    );
    let code =
        json!({"verifier": "code", "tests": {"asserts": ["assert f(2) == 4", "assert f(3) == 9"]}});
    let (_, half) = server.json(
        "/verify",
        nemo_request("```python\ndef f(x):\n    return 4\n```", code),
    );
    assert_eq!(half["reward_components"]["cases_passed"], 0.5);
    let broken = json!({"verifier": "python", "verifier_code": "def verify(task, completion):\n    raise RuntimeError('verifier bug')\n"});
    let (_, masked) = server.json("/verify", nemo_request("anything", broken));
    assert_eq!(masked["reward"], 0.0);
    assert_eq!(masked["_ng_failure_class"], "verifier_error");
    assert_eq!(masked["rewardbox"]["mask"], true);
    let mut missing = nemo_request("x", json!({}));
    missing.as_object_mut().unwrap().remove("verifier_metadata");
    let (status, refused) = server.json("/verify", missing);
    assert_eq!(
        (status, refused["field"].as_str()),
        (400, Some("verifier_metadata"))
    );
    let (status, refused) = server.json("/verify", nemo_request("x", json!({"reference": "1"})));
    assert_eq!(status, 400, "a task without a verifier: {refused}");
}

fn deepgym_environment(name: &str) -> Value {
    let dir = root().join("tests/data/deepgym").join(name);
    let read = |file: &str| std::fs::read_to_string(dir.join(file)).ok();
    let mut environment = json!({
        "name": name,
        "task": read("task.md").unwrap(),
        "verifier_code": read("verifier.py").unwrap(),
        "type": "coding", "language": "python", "timeout": 30, "case_timeout": 10,
        "verifier_mode": "auto", "support_files": {}, "difficulty": "medium", "domain": "coding",
        "tags": [], "test_cases": null, "snapshot": null, "image": null, "env_vars": null,
    });
    if let Some(cases) = read("test_cases.json") {
        environment["test_cases"] = serde_json::from_str(&cases).unwrap();
    }
    environment
}

fn reference(name: &str) -> String {
    std::fs::read_to_string(
        root()
            .join("tests/data/deepgym")
            .join(name)
            .join("reference_solution.py"),
    )
    .unwrap()
}

#[test]
fn deepgym_runs_batches_and_masks_what_it_cannot_judge() {
    let server = Server::start(|o| o.token = Some("k".into()));
    let key = [("x-api-key", "k"), ("content-type", "application/json")];
    let run = |environment: &Value, output: &str| -> (u16, Value) {
        let body = json!({"environment": environment, "model_output": output});
        let (status, text) = server.post("/v1/run", &body.to_string(), &key);
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    };
    let sums = deepgym_environment("running_sum");
    let (status, passed) = run(&sums, &reference("running_sum"));
    assert_eq!(status, 200, "{passed}");
    assert_eq!(
        (
            passed["score"].as_f64(),
            passed["passed"].as_bool(),
            passed["exit_code"].as_i64()
        ),
        (Some(1.0), Some(true), Some(0))
    );
    assert_eq!(passed["cases"].as_array().unwrap().len(), 5);
    let (_, partial) = run(&sums, "def running_sum(values):\n    return values\n");
    assert_eq!(
        (partial["score"].as_f64(), partial["exit_code"].as_i64()),
        (Some(0.4), Some(1))
    );
    assert!(partial["error_type"].is_null());
    let (_, exits) = run(&sums, "import sys\nsys.exit(0)\n");
    assert_eq!(
        (exits["score"].as_f64(), exits["exit_code"].as_i64()),
        (Some(0.0), Some(1))
    );
    // A verifier that fails before it reads the solution: DeepGym's "no verdict".
    let mut broken = sums.clone();
    broken["verifier_code"] =
        json!("def verify(solution_path, test_cases_path=None):\n    raise RuntimeError('bug')\n");
    let (_, masked) = run(&broken, &reference("running_sum"));
    assert_eq!(
        (masked["exit_code"].as_i64(), masked["error_type"].as_str()),
        (Some(2), Some("verifier_error"))
    );
    assert_eq!(masked["passed"], false);
    let (status, _) = server.post(
        "/v1/run",
        &json!({"environment": sums, "model_output": "x"}).to_string(),
        &[],
    );
    assert_eq!(status, 401, "the token, as X-API-Key");
    let mut no_task = sums.clone();
    no_task.as_object_mut().unwrap().remove("task");
    let (status, refused) = run(&no_task, "x");
    assert_eq!(
        (status, refused["field"].as_str()),
        (422, Some("environment.task"))
    );

    let body = json!({"environment": sums, "outputs": [reference("running_sum"), "def running_sum(v):\n    return v\n", ""], "max_parallel": 4});
    let (status, batch) = server.post("/v1/run/batch", &body.to_string(), &key);
    assert_eq!(status, 200, "{batch}");
    let batch: Value = serde_json::from_str(&batch).unwrap();
    assert_eq!(
        (
            batch["total"].as_u64(),
            batch["passed"].as_u64(),
            batch["failed"].as_u64()
        ),
        (Some(3), Some(1), Some(2))
    );
    assert!(
        (batch["avg_score"].as_f64().unwrap() - 1.4 / 3.0).abs() < 1e-9,
        "{batch}"
    );
    assert_eq!(
        (
            batch["judged_count"].as_u64(),
            batch["no_verdict_count"].as_u64()
        ),
        (Some(3), Some(0))
    );
    let body = json!({"environment": broken, "outputs": ["a", "b"]});
    let (_, unjudged) = server.post("/v1/run/batch", &body.to_string(), &key);
    let unjudged: Value = serde_json::from_str(&unjudged).unwrap();
    assert_eq!(
        (
            unjudged["no_verdict_count"].as_u64(),
            unjudged["judged_count"].as_u64()
        ),
        (Some(2), Some(0))
    );
}

#[test]
fn deepgym_sessions_and_verifier_audits() {
    let server = Server::start(|o| o.max_sessions = 2);
    let environment = json!({
        "task": "Write evens.py defining sum_evens(values).",
        "files": {"notes.txt": "sum the even values"},
        "setup_code": "print('workspace ready')",
        "final_verifier_code": "import json\nfrom deepgym_solution import load_solution\ns = load_solution('evens.py')\ncases = [([1, 2, 3, 4], 6), ([], 0), ([5], 0)]\nok = sum(s.sum_evens(a) == b for a, b in cases)\nprint(json.dumps({'score': ok / 3, 'passed': ok == 3, 'details': f'{ok}/3'}))\n",
        "max_steps": 4,
        "allowed_actions": ["code", "write_file", "done"],
    });
    let (status, created) = server.json(
        "/v1/sessions",
        json!({"environment": environment, "variant": 0}),
    );
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["observation"]["content"], "workspace ready\n");
    assert_eq!(created["observation"]["step"], 0);
    let id = created["session_id"].as_str().unwrap().to_string();
    let step = |action: Value| server.json(&format!("/v1/sessions/{id}/step"), action);
    let (status, ran) =
        step(json!({"action_type": "code", "content": "print(open('notes.txt').read())"}));
    assert_eq!(status, 200, "{ran}");
    assert_eq!(
        ran,
        json!({"observation": {"content": "sum the even values\n", "step": 1, "done": false, "screenshot": null, "metadata": null}, "reward": 0.0, "done": false})
    );
    let (status, _) = step(json!({"action_type": "bash", "content": "ls"}));
    assert_eq!(status, 409, "an action the environment does not allow");
    let (status, _) = step(
        json!({"action_type": "write_file", "path": "evens.py", "content": "def sum_evens(values):\n    return sum(v for v in values if v % 2 == 0)\n"}),
    );
    assert_eq!(status, 200);
    let (status, scored) = server.json(&format!("/v1/sessions/{id}/score"), json!({}));
    assert_eq!(status, 200, "{scored}");
    assert_eq!(
        (
            scored["score"].as_f64(),
            scored["passed"].as_bool(),
            scored["exit_code"].as_i64()
        ),
        (Some(1.0), Some(true), Some(0)),
        "{scored}"
    );
    assert_eq!(scored["output"], "3/3");

    // The cap: two sessions alive at most (this one and a second), a third is refused.
    let (status, second) = server.json("/v1/sessions", json!({"environment": environment}));
    assert_eq!(status, 201, "{second}");
    let (status, _) = server.json("/v1/sessions", json!({"environment": environment}));
    assert_eq!(status, 429);
    let closed = ureq_delete(&server, &format!("/v1/sessions/{id}"));
    assert_eq!(closed, 204);
    assert_eq!(ureq_delete(&server, &format!("/v1/sessions/{id}")), 404);
    assert_eq!(
        server.json(&format!("/v1/sessions/{id}/step"), json!({})).0,
        404
    );
    let (status, _) = server.json("/v1/sessions", json!({"environment": environment}));
    assert_eq!(status, 201, "the closed session's place came back");
    let (status, refused) = server.json("/v1/sessions", json!({"environment": "signup_form"}));
    assert_eq!(status, 404, "{refused}");
    let mut shell = environment.clone();
    shell["setup_script"] = json!("pip install x");
    assert_eq!(
        server.json("/v1/sessions", json!({"environment": shell})).0,
        400
    );
    let mut imaged = environment.clone();
    imaged["image"] = json!("python:3.12");
    assert_eq!(
        server
            .json("/v1/sessions", json!({"environment": imaged}))
            .0,
        422
    );

    // Audits: a verifier that only checks the function exists is exploitable; the real one holds.
    let mut weak = deepgym_environment("running_sum");
    weak["verifier_code"] = json!(
        "from deepgym_solution import load_solution\ndef verify(solution_path, test_cases_path=None):\n    s = load_solution(solution_path)\n    return {'score': 1.0 if 'running_sum' in dir(s) else 0.0}\n"
    );
    let (status, report) = server.json(
        "/v1/audit/verifier",
        json!({"environment": weak, "verifier_id": "weak"}),
    );
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        (report["status"].as_str(), report["exploitable"].as_bool()),
        (Some("exploitable"), Some(true))
    );
    assert!(report["exploits_found"].as_u64().unwrap() > 0);
    assert!(report["risk_score"].as_f64().unwrap() >= 0.55);
    assert_eq!(report["verifier_id"], "weak");
    let exploited: Vec<&str> = report["report"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["exploited"] == true)
        .map(|r| r["strategy"].as_str().unwrap())
        .collect();
    assert!(exploited.contains(&"always-equal-object"), "{exploited:?}");
    // An early exit ends the solution's own sandbox, not the verifier: even this verifier scores it 0.
    assert!(!exploited.contains(&"exit-sys-exit"), "{exploited:?}");
    let (_, sound) = server.json(
        "/v1/audit/verifier",
        json!({"environment": deepgym_environment("running_sum")}),
    );
    assert_eq!(sound["exploits_found"], 0, "{sound}");
    assert_eq!(sound["status"], "robust", "{sound}");
    assert_eq!(sound["risk_level"], "low");
    let (status, _) = server.json(
        "/v1/audit/verifier",
        json!({"environment": weak, "strategies": ["magic"]}),
    );
    assert_eq!(status, 422);
}

fn ureq_delete(server: &Server, path: &str) -> u16 {
    match Server::agent().delete(&server.url(path)).call() {
        Ok(r) => r.status().as_u16(),
        Err(e) => panic!("{e}"),
    }
}
