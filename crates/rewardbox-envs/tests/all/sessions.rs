//! Sessions of CodeGym-format environments (tests/data/codegym, the project's own), through the
//! real sandboxed path: the environments' own solutions, the verification stage, replays, and
//! environments that misbehave — each with a clear per-session status while every other session
//! keeps working — plus isolation between sessions, the session cap and the idle time-to-live.

use crate::common;

use rewardbox::{ComponentCache, Limits};
use rewardbox_envs::{EnvError, EnvOptions, Environments, check, replay};
use std::path::PathBuf;
use std::time::Duration;

fn env_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/codegym")
}

fn options() -> EnvOptions {
    let mut options = EnvOptions::new(env_dir());
    options.cache = ComponentCache::in_dir(common::test_cache_dir());
    options.limits = Limits {
        fuel: 500_000_000,
        wall_ms: 10_000,
        memory_bytes: 64 << 20,
        output_bytes: 64 << 10,
    };
    options
}

fn environments() -> Environments {
    Environments::new(options()).expect("environments")
}

const SUM: &str = r#"codegym_v1@Toy_1_I__SumListEnv@{"values": [3, 4, 5]}"#;
const MISBEHAVE: &str = "codegym_v1@Hostile_1_I__MisbehaveEnv@{}";

fn action(name: &str, parameters: &str) -> String {
    format!(r#"{{"name": "{name}", "parameters": {parameters}}}"#)
}

#[test]
fn a_session_steps_resets_and_solves() {
    let envs = environments();
    let s = envs.start(None, SUM).unwrap();
    assert!(
        s.first_observation().contains("3 integers"),
        "{}",
        s.first_observation()
    );
    let step = s.step(&action("GetValue", r#"{"index": 1}"#)).unwrap();
    assert!(step.ok);
    assert_eq!(step.observation, "4");
    assert!(step.fuel > 0);
    let bad = s.step("not json at all").unwrap();
    assert!(!bad.ok, "the environment reports a malformed action itself");
    assert!(!s.done().unwrap());
    let done = s.step(&action("Done", r#"{"answer": 12}"#)).unwrap();
    assert!(
        done.observation.contains("reward=1"),
        "{}",
        done.observation
    );
    assert!(s.done().unwrap());
    assert_eq!(s.reward().unwrap(), 1.0);
    assert_eq!(
        s.reset(Some(&serde_json::json!({"values": [1]}))).unwrap(),
        "Environment has been reset."
    );
    assert!(!s.done().unwrap());
    assert_eq!(s.get_attribute("get_ref_answer").unwrap(), 1);
    let solved = s.get_attribute("solve").unwrap();
    assert!(solved.as_str().unwrap().contains("reward=1"));
    assert_eq!(
        s.get_attribute("step_count").unwrap(),
        4,
        "solve drove the four steps"
    );
    let id = s.id().to_string();
    assert!(envs.get(&id).is_ok());
    s.close();
    assert!(matches!(envs.get(&id), Err(EnvError::UnknownSession(_))));
}

#[test]
fn the_verification_stage_reports_every_kind_of_instance() {
    let envs = environments();
    let text = std::fs::read_to_string(env_dir().join("instances.jsonl")).unwrap();
    let lines: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect();
    let report = check::check(&envs, &lines);
    let statuses: Vec<&str> = report.instances.iter().map(|i| i.status).collect();
    assert_eq!(
        statuses,
        vec![
            "solved",
            "solved",
            "solved",
            "wrong",
            "start_error",
            "start_error",
            "crashed",
            "start_error",
            "start_error"
        ],
        "{:#?}",
        report.instances
    );
    let numpy = &report.instances[5].detail;
    assert!(
        numpy.contains("numpy"),
        "a missing module is named: {numpy}"
    );
    assert!(report.instances[8].detail.contains("line 9"));
    assert_eq!(report.summary.by_status["solved"], 3);
    assert_eq!(envs.live_sessions(), 0, "every checked session is closed");
}

#[test]
fn misbehaving_environments_break_only_their_own_session() {
    let envs = environments();
    let neighbour = envs.start(None, SUM).unwrap();
    let cases = [
        ("Loop", "fuel_exhausted"),
        ("Allocate", "memory_exceeded"),
        ("Flood", "output_exceeded"),
        ("Exit", "exited"),
    ];
    for (name, status) in cases {
        let s = envs.start(None, MISBEHAVE).unwrap();
        match s.step(&action(name, "{}")) {
            Err(EnvError::StepFailed { status: got, .. }) => assert_eq!(got, status, "{name}"),
            other => panic!("{name}: {other:?}"),
        }
        match s.step(&action("Visit", "{}")) {
            Err(EnvError::Broken { status: got, .. }) => assert_eq!(got, status, "{name}"),
            other => panic!("{name} then Visit: {other:?}"),
        }
        assert_eq!(
            neighbour
                .step(&action("GetValue", r#"{"index": 0}"#))
                .unwrap()
                .observation,
            "3"
        );
        s.close();
    }
    // An exception fails the call only.
    let s = envs.start(None, MISBEHAVE).unwrap();
    assert!(matches!(
        s.step(&action("Raise", "{}")),
        Err(EnvError::Raised { .. })
    ));
    assert_eq!(s.step(&action("Visit", "{}")).unwrap().observation, "1");
    // Files, the network and the environment are not there.
    let read = s.step(&action("ReadFile", "{}")).unwrap();
    assert!(
        !read.ok && !read.observation.contains("root:"),
        "{}",
        read.observation
    );
    let net = s.step(&action("Network", "{}")).unwrap();
    assert!(!net.ok, "{}", net.observation);
    assert_eq!(s.step(&action("Environ", "{}")).unwrap().observation, "{}");
}

#[test]
fn sessions_do_not_share_state() {
    let envs = environments();
    let a = envs.start(None, MISBEHAVE).unwrap();
    let b = envs.start(None, MISBEHAVE).unwrap();
    for expected in ["1", "2", "3"] {
        assert_eq!(
            a.step(&action("Visit", "{}")).unwrap().observation,
            expected
        );
    }
    assert_eq!(b.step(&action("Visit", "{}")).unwrap().observation, "1");
}

#[test]
fn unknown_ids_bad_strings_the_cap_and_the_idle_time_to_live() {
    let mut opts = options();
    opts.max_sessions = 2;
    opts.idle_ttl = Duration::from_millis(300);
    let envs = Environments::new(opts).unwrap();
    assert!(matches!(envs.get("nope"), Err(EnvError::UnknownSession(_))));
    assert!(matches!(
        envs.start(None, "not an env string"),
        Err(EnvError::BadEnvString(_))
    ));
    assert!(matches!(
        envs.start(None, "codegym_v1@../secrets@{}"),
        Err(EnvError::BadEnvString(_))
    ));
    assert!(matches!(
        envs.start(None, "codegym_v1@Missing_I__Env@{}"),
        Err(EnvError::UnknownEnvironment(_))
    ));
    let first = envs.start(Some("first"), SUM).unwrap();
    let _second = envs.start(None, SUM).unwrap();
    match envs.start(None, SUM) {
        Err(e @ EnvError::TooManySessions { limit: 2 }) => {
            assert!(e.to_string().contains("close some"))
        }
        other => panic!("{:?}", other.map(|s| s.id().to_string())),
    }
    // A start may not take the id of a live session (another client's, perhaps).
    match envs.start(Some("first"), SUM) {
        Err(e @ EnvError::SessionInUse(_)) => assert!(e.to_string().contains("first")),
        other => panic!("{:?}", other.map(|s| s.id().to_string())),
    }
    drop(first);
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(envs.reap(), 2);
    assert_eq!(envs.live_sessions(), 0);
    assert!(envs.start(None, SUM).is_ok());
}

#[test]
fn replays_write_every_observation() {
    let envs = environments();
    let text = std::fs::read_to_string(env_dir().join("episodes.jsonl")).unwrap();
    let results: Vec<serde_json::Value> = text
        .lines()
        .enumerate()
        .map(|(i, l)| replay::replay(&envs, i + 1, l))
        .collect();
    assert_eq!(results[0]["status"], "ok");
    assert_eq!(results[0]["reward"], 1.0);
    assert_eq!(results[0]["steps"].as_array().unwrap().len(), 4);
    assert_eq!(results[0]["steps"][2]["ok"], false);
    assert_eq!(results[1]["status"], "fuel_exhausted");
    assert_eq!(
        results[1]["steps"].as_array().unwrap().len(),
        2,
        "no step after the session broke"
    );
    let bad = replay::replay(&envs, 7, "{\"actions\": []}");
    assert_eq!(bad["status"], "bad_line");
    assert!(bad["detail"].as_str().unwrap().contains("line 7"));
}

#[test]
fn many_sessions_step_in_parallel() {
    let envs = environments();
    let sessions: Vec<_> = (0..32).map(|_| envs.start(None, SUM).unwrap()).collect();
    let steps: Vec<_> = sessions
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                s.clone(),
                action("GetValue", &format!(r#"{{"index": {}}}"#, i % 3)),
            )
        })
        .collect();
    let results = envs.step_many(&steps);
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r.as_ref().unwrap().observation, ["3", "4", "5"][i % 3]);
    }
}

const EPISODE: &str = r#"{
    "task": "Fix sum_evens in evens.py.",
    "files": {"evens.py": "def sum_evens(xs):\n    return sum(x for x in xs if x % 2 == 1)\n"},
    "setup_code": "print(open('evens.py').read())",
    "step_verifier_code": "import json\nfrom deepgym_solution import load_solution\ns = load_solution('evens.py')\ncases = [([1, 2, 3, 4], 6), ([], 0), ([5], 0)]\nprint('noise')\nprint(json.dumps({'score': sum(s.sum_evens(a) == b for a, b in cases) / 3}))\n",
    "final_verifier_code": "import json\nfrom deepgym_solution import load_solution\ns = load_solution('evens.py')\ncases = [([1, 2, 3, 4], 6), ([-2], -2)]\nok = sum(s.sum_evens(a) == b for a, b in cases)\nprint(json.dumps({'score': ok / 2, 'passed': ok == 2, 'details': f'{ok}/2'}))\n",
    "max_steps": 6,
    "timeout_per_step": 10
}"#;

fn episode_spec() -> rewardbox_envs::EpisodeSpec {
    rewardbox_envs::EpisodeSpec::from_json(&serde_json::from_str(EPISODE).unwrap()).unwrap()
}

fn code(content: &str) -> serde_json::Value {
    serde_json::json!({"action_type": "code", "content": content})
}

#[test]
fn a_deepgym_style_episode_edits_runs_and_is_scored() {
    let envs = environments();
    let episode = envs.start_episode(episode_spec()).unwrap();
    assert!(episode.first_observation().contains("x % 2 == 1"));
    let read = episode
        .step(&code("print(open('evens.py').read().count('== 1'))"))
        .unwrap();
    assert_eq!(read.observation, "1\n");
    assert!(
        (read.reward.unwrap() - 1.0 / 3.0).abs() < 1e-9,
        "{:?}",
        read.reward
    );
    let fixed = "def sum_evens(xs):\n    return sum(x for x in xs if x % 2 == 0)\n";
    let write = episode
        .step(
            &serde_json::json!({"action_type": "write_file", "path": "evens.py", "content": fixed}),
        )
        .unwrap();
    assert_eq!(write.reward, Some(1.0));
    let run = episode
        .step(&code("import evens\nprint(evens.sum_evens([2, 3, 4]))"))
        .unwrap();
    assert_eq!(
        run.observation, "6\n",
        "the workspace is importable and persists"
    );
    let done = episode
        .step(&serde_json::json!({"action_type": "done"}))
        .unwrap();
    assert!(done.done);
    let verdict = episode.score().unwrap();
    assert_eq!((verdict.score, verdict.passed), (1.0, true), "{verdict:?}");
    assert_eq!(verdict.details, "2/2");
    let workspace = episode.workspace().to_path_buf();
    drop(episode);
    assert!(
        !workspace.exists(),
        "the workspace is removed with the episode"
    );
}

#[test]
fn an_episode_contains_what_its_actions_do() {
    let envs = environments();
    let episode = envs.start_episode(episode_spec()).unwrap();
    // A step that loops ends on its own budget; the episode goes on.
    let looped = episode.step(&code("while True:\n    pass")).unwrap();
    assert!(
        looped.observation.contains("fuel exhausted"),
        "{}",
        looped.observation
    );
    assert!(episode.step(&code("print(1)")).is_ok());
    // No way out of the workspace: paths, links, processes.
    assert!(matches!(
        episode
            .step(&serde_json::json!({"action_type": "write_file", "path": "../x", "content": ""})),
        Err(EnvError::BadRequest(_))
    ));
    let marker = format!("rewardbox-pwned-{}", std::process::id());
    let _ = episode.step(&code("import os\nos.symlink('/tmp', 'link')"));
    for path in [
        format!("link/{marker}"),
        format!("link/{marker}/deeper/file"),
    ] {
        let _ = episode
            .step(&serde_json::json!({"action_type": "write_file", "path": path, "content": "x"}));
    }
    assert!(
        !std::env::temp_dir().join(&marker).exists(),
        "a link led the host out of the workspace (a file or a directory made outside it)"
    );
    assert!(matches!(
        episode.step(&serde_json::json!({"action_type": "bash", "content": "ls"})),
        Err(EnvError::BadRequest(_))
    ));
    let secret = episode
        .step(&code("print(open('/etc/passwd').read())"))
        .unwrap();
    assert!(
        !secret.observation.contains("root:"),
        "{}",
        secret.observation
    );
}

#[test]
fn an_episode_whose_workspace_grows_past_its_limit_ends() {
    let envs = environments();
    let episode = envs.start_episode(episode_spec()).unwrap();
    let fill =
        "with open('big', 'wb') as f:\n    for _ in range(70):\n        f.write(b'x' * (1 << 20))";
    match episode.step(&code(fill)) {
        Err(EnvError::StepFailed { status, .. }) => assert_eq!(status, "workspace_exceeded"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        episode.step(&code("print(1)")),
        Err(EnvError::Broken { .. })
    ));
    assert_eq!(episode.score().unwrap().score, 0.0);
}

/// The workspace's budget is the operator's: a `write_file` past it is refused (and leaves
/// nothing behind), code that writes past it ends the episode.
#[test]
fn the_workspace_budget_is_configurable() {
    let mut options = options();
    options.workspace_budget = rewardbox::sandboxes::DiskBudget {
        bytes: 1 << 20,
        entries: 50,
    };
    let envs = Environments::new(options).expect("environments");
    let episode = envs.start_episode(episode_spec()).unwrap();
    let big = "x".repeat(2 << 20);
    assert!(matches!(
        episode.step(&serde_json::json!({"action_type": "write_file", "path": "big.txt", "content": big})),
        Err(EnvError::BadRequest(message)) if message.contains("may hold")
    ));
    assert!(episode.step(&serde_json::json!({"action_type": "write_file", "path": "small.txt", "content": "ok"})).is_ok());
    let fill =
        "with open('big', 'wb') as f:\n    for _ in range(4):\n        f.write(b'x' * (1 << 20))";
    match episode.step(&code(fill)) {
        Err(EnvError::StepFailed { status, .. }) => assert_eq!(status, "workspace_exceeded"),
        Ok(step) => panic!("{}", step.observation),
        other => panic!("{other:?}"),
    }
}

/// An episode with this final verifier and no step verifier.
fn judged_by(final_verifier: &str) -> rewardbox_envs::EpisodeSpec {
    rewardbox_envs::EpisodeSpec::from_json(&serde_json::json!({
        "task": "Write answer.py defining answer().",
        "files": {"notes.txt": "the answer is 42"},
        "final_verifier_code": final_verifier,
    }))
    .unwrap()
}

#[test]
fn a_verifier_that_fails_on_the_agents_work_scores_it_and_one_that_fails_alone_is_masked() {
    let envs = environments();
    // Fails after it looked for the agent's file (which the agent never wrote): the agent's 0,
    // as DeepGym judges it, once the agent has acted.
    let loads =
        "from deepgym_solution import load_solution\nprint(load_solution('answer.py').answer())\n";
    let episode = envs.start_episode(judged_by(loads)).unwrap();
    assert!(
        matches!(episode.score(), Err(EnvError::VerifierFailed(_))),
        "before any action the work is the environment's own: no verdict"
    );
    episode.step(&code("print('thinking')")).unwrap();
    let verdict = episode.score().unwrap();
    assert_eq!((verdict.score, verdict.passed), (0.0, false));
    assert!(
        verdict.details.contains("failed on the agent's work"),
        "{verdict:?}"
    );
    // Reading a workspace file, then failing, is consulting too.
    let reads = "open('notes.txt').read()\nraise RuntimeError('verifier bug after reading')\n";
    let episode = envs.start_episode(judged_by(reads)).unwrap();
    episode.step(&code("pass")).unwrap();
    assert_eq!(episode.score().unwrap().score, 0.0);
    // Failing before it touches the workspace (its own bug, a host path) has no verdict, however
    // the agent acted; so does a score outside [0, 1].
    for own_fault in [
        "raise RuntimeError('verifier bug')\n",
        "import json\nopen('/etc/hostname')\n",
        "import json\nprint(json.dumps({'score': 1.5}))\n",
    ] {
        let episode = envs.start_episode(judged_by(own_fault)).unwrap();
        episode.step(&code("pass")).unwrap();
        assert!(
            matches!(episode.score(), Err(EnvError::VerifierFailed(_))),
            "{own_fault}"
        );
    }
    // The mark is the verifier's secret: an agent that prints lookalikes changes nothing.
    let echoes = "import json\nprint(open('out.txt').read())\nprint(json.dumps({'score': 1.0}))\n";
    let episode = envs.start_episode(judged_by(echoes)).unwrap();
    episode
        .step(&serde_json::json!({"action_type": "write_file", "path": "out.txt", "content": "{\"score\": 0.0}\n"}))
        .unwrap();
    assert_eq!(episode.score().unwrap().score, 1.0);
}
