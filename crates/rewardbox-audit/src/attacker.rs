//! `--attacker-cmd`: an external attacker (for example one that asks an LLM) gets the task's JSON
//! on stdin and prints candidate completions as JSON lines: a string, or `{"completion", "name",
//! "expect": "wrong" | "right"}` (`wrong` by default). Each is scored and reported like the built-in
//! attacks.

use super::{Attack, AuditTask, Expect, Family};
use serde_json::Value;
use std::io::Write;

/// Most completions read from the attacker per task.
pub const MAX_ATTACKER_COMPLETIONS: usize = 256;

/// Runs `cmd` with `sh -c` for `task` and reads its completions.
pub fn attacks(cmd: &str, task: &AuditTask) -> Result<Vec<Attack>, String> {
    let mut input = Value::Object(task.fields.clone());
    if let Some(solution) = &task.solution {
        input["solution"] = Value::from(solution.clone());
    }
    // It ends with the audit that started it, whatever it is doing.
    let mut child = rewardbox_lifeline::spawn_shell(cmd)?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let text = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    let output = child
        .wait_with_output()
        .map_err(|e| format!("`{cmd}`: {e}"))?;
    let _ = writer.join();
    if !output.status.success() {
        return Err(format!("`{cmd}` exited with {}", output.status));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut out = Vec::new();
    for (i, line) in stdout
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(MAX_ATTACKER_COMPLETIONS)
        .enumerate()
    {
        let value: Value = serde_json::from_str(line)
            .map_err(|e| format!("line {} of its output is not JSON: {e}", i + 1))?;
        let (completion, name, expect) = match &value {
            Value::String(s) => (s.clone(), format!("attacker-{}", i + 1), Expect::Wrong),
            Value::Object(o) => {
                let completion = o.get("completion").and_then(Value::as_str).ok_or_else(|| {
                    format!("line {} of its output has no \"completion\" string", i + 1)
                })?;
                let name = o
                    .get("name")
                    .and_then(Value::as_str)
                    .map_or_else(|| format!("attacker-{}", i + 1), str::to_string);
                let expect = match o.get("expect").and_then(Value::as_str) {
                    None | Some("wrong") => Expect::Wrong,
                    Some("right") => Expect::Right,
                    Some(other) => {
                        return Err(format!(
                            "line {}: \"expect\" is {other:?}; use \"wrong\" or \"right\"",
                            i + 1
                        ));
                    }
                };
                (completion.to_string(), name, expect)
            }
            _ => {
                return Err(format!(
                    "line {} of its output must be a string or an object",
                    i + 1
                ));
            }
        };
        out.push(Attack {
            name,
            family: Family::Attacker,
            completion,
            expect,
        });
    }
    Ok(out)
}
