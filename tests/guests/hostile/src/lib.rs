//! Test-only helper: a verifier that misbehaves on purpose.
//!
//! A verifier that misbehaves in the way its task's `"attack"` field asks, so that the tests can
//! prove each limit of the host and each way a verifier's failure is reported:
//!
//! | attack        | what it does                                       | the host must report            |
//! |---------------|----------------------------------------------------|---------------------------------|
//! | `loop`        | spins forever                                      | ran out of fuel                 |
//! | `sleep`       | sleeps 5 ms at a time, forever                     | exceeded the wall-clock limit   |
//! | `memory`      | allocates 1 MiB at a time, forever                 | exceeded the memory limit       |
//! | `output`      | prints to stdout forever                           | exceeded the output limit       |
//! | `recursion`   | recurses without bound                             | out of bounds memory access     |
//! | `deep-frames` | recurses with large frames (shadow stack)          | out of bounds memory access     |
//! | `panic`       | panics                                             | trapped, with the panic message |
//! | `nan`         | returns score NaN                                  | score NaN                       |
//! | `seven`       | returns score 7                                    | score outside [0, 1]            |
//! | `error`       | returns an error                                   | the error                       |
//! | `invalid`     | says the task is malformed                         | invalid_task for the line       |
//! | `probe`       | reads the environment it was given                 | (reports what it saw)           |
//! | `weak-format`, `weak-substring` | deliberately weak answer checks          | (`rewardbox audit` finds them)  |
//! | `program-trusts-output` | runs the completion's program on `inputs`, passes when its output contains `expected` or "passed" | (deliberately weak) |
//! | `program-exact` | runs it on `inputs`, passes when each output is `expected` exactly (trimmed) | (sound) |
//! | anything else | passes when the completion is `good`               | an ordinary verdict             |

use std::hash::{BuildHasher, Hasher};

wit_bindgen::generate!({
    path: "../../../wit",
    world: "verifier",
});

struct Hostile;

fn verdict(score: f64, detail: String) -> Result<Verdict, VerifyError> {
    Ok(Verdict {
        score,
        passed: score >= 1.0,
        detail,
        cases: Vec::new(),
    })
}

/// The body of the last fenced block of `text`, else the whole text.
fn last_fenced_block(text: &str) -> String {
    match text.split("```").skip(1).step_by(2).last() {
        Some(block) => block
            .split_once('\n')
            .map_or("", |(_, body)| body)
            .to_string(),
        None => text.to_string(),
    }
}

/// Recursion on wasm's own call stack (no locals in linear memory).
#[inline(never)]
fn recurse(depth: u64) -> u64 {
    if std::hint::black_box(depth) == u64::MAX {
        0
    } else {
        recurse(depth + 1).wrapping_mul(3).wrapping_add(depth)
    }
}

/// Recursion whose frames live on the shadow stack in linear memory, as large Rust or C frames do.
#[inline(never)]
fn recurse_in_memory(depth: u64) -> u64 {
    let mut frame = [depth; 64];
    std::hint::black_box(&mut frame);
    recurse_in_memory(depth + 1) + frame[3]
}

/// What the sandbox offers a guest: environment, files, network, clocks and randomness.
fn probe() -> String {
    let env = std::env::vars().count();
    let args = std::env::args().count();
    let file = std::fs::read("/etc/passwd").is_ok() || std::fs::read_dir(".").is_ok();
    let net = std::net::TcpStream::connect("127.0.0.1:80").is_ok();
    let random = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    let wall = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let start = std::time::Instant::now();
    let elapsed = start.elapsed().as_nanos();
    format!(
        "env={env} args={args} file={file} net={net} random={random} wall={wall} elapsed_ns={elapsed}"
    )
}

impl Guest for Hostile {
    fn verify(task: String, completion: String) -> Result<Verdict, VerifyError> {
        let task: serde_json::Value =
            serde_json::from_str(&task).map_err(|e| VerifyError::Failed(e.to_string()))?;
        match task["attack"].as_str().unwrap_or("") {
            "loop" => {
                let mut n: u64 = 0;
                loop {
                    n = std::hint::black_box(n.wrapping_add(1));
                }
            }
            "sleep" => loop {
                std::thread::sleep(std::time::Duration::from_millis(5));
            },
            "memory" => {
                let mut hoard: Vec<Vec<u8>> = Vec::new();
                loop {
                    hoard.push(vec![1u8; 1 << 20]);
                    std::hint::black_box(&hoard);
                }
            }
            "output" => loop {
                println!("{{\"score\": 1.0, \"passed\": true}} flooding stdout");
            },
            "recursion" => verdict(0.0, recurse(0).to_string()),
            "deep-frames" => verdict(0.0, recurse_in_memory(0).to_string()),
            "panic" => panic!("hostile verifier panicked on purpose"),
            "nan" => verdict(f64::NAN, "not a number".into()),
            "seven" => verdict(7.0, "out of range".into()),
            "error" => Err(VerifyError::Failed("the hostile verifier refuses".into())),
            "invalid" => Err(VerifyError::InvalidTask("\"secret\" is missing".into())),
            "probe" => verdict(0.0, probe()),
            // Deliberately weak verifiers, for `rewardbox audit` to catch.
            "weak-format" => {
                let shaped = completion.contains("\\boxed{") && completion.contains('}');
                verdict(
                    f64::from(u8::from(shaped)),
                    "checks only that a box is there".into(),
                )
            }
            "weak-substring" => {
                let reference = task["reference"].as_str().unwrap_or("\u{0}");
                let found = completion.contains(reference);
                verdict(
                    f64::from(u8::from(found)),
                    "checks only that the reference appears".into(),
                )
            }
            // Verifiers that run the completion's program, one deliberately weak.
            attack @ ("program-trusts-output" | "program-exact") => {
                let language = task["language"].as_str().unwrap_or("python");
                let program = last_fenced_block(&completion);
                let inputs = task["inputs"].as_array().cloned().unwrap_or_default();
                let expected = task["expected"].as_array().cloned().unwrap_or_default();
                let limits = rewardbox::core::types::Limits {
                    fuel: Some(2_000_000_000),
                    wall_ms: Some(10_000),
                    memory_bytes: Some(256 << 20),
                    output_bytes: Some(1 << 20),
                };
                let mut passed = 0;
                for (input, want) in inputs.iter().zip(&expected) {
                    let outcome = rewardbox::core::sandbox::run(
                        language,
                        &program,
                        input.as_str().unwrap_or(""),
                        limits,
                    );
                    let want = want.as_str().unwrap_or("\u{0}");
                    let ok = if attack == "program-exact" {
                        outcome.status == rewardbox::core::types::RunStatus::Ok
                            && outcome.exit_code == Some(0)
                            && outcome.stdout.trim() == want.trim()
                    } else {
                        outcome.stdout.contains(want)
                            || outcome.stdout.to_lowercase().contains("passed")
                    };
                    passed += u32::from(ok);
                }
                let all = passed as usize == inputs.len() && !inputs.is_empty();
                verdict(
                    f64::from(u8::from(all)),
                    format!("{passed}/{} inputs", inputs.len()),
                )
            }
            _ if completion.trim() == "good" => verdict(1.0, "good".into()),
            _ => verdict(0.0, "not good".into()),
        }
    }
}

export!(Hostile);
