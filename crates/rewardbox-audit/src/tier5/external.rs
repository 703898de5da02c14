//! `--policy-cmd`: an external policy (a language model under training, say) in the loop, over a
//! line protocol on its standard input and output. Each line rewardbox writes is a JSON object:
//!
//! - `{"type": "task", "task": {...}, "group_size": G, "steps": S}` first (the task's fields,
//!   without its `solution` and `holdout`);
//! - `{"type": "generate", "step": k, "n": G}`: the policy answers with one line, a JSON list of
//!   `G` completions (or `{"completions": [...]}`);
//! - `{"type": "rewards", "step": k, "rewards": [r | null, ...], "advantages": [...]}`: the
//!   group's rewards (null: masked) and rewardbox's GRPO advantages; no answer;
//! - `{"type": "done"}` last; the policy then exits.
//!
//! What the policy converged to is the completion its last group wrote most often (the better
//! rewarded of equals).

use crate::tier5::train::Proposer;
use serde_json::{Map, Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout};

/// A running external policy.
pub struct External {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl External {
    /// Starts `cmd` with `sh -c` and tells it the task.
    pub fn start(
        cmd: &str,
        task: &Map<String, Value>,
        group: usize,
        steps: usize,
    ) -> Result<External, String> {
        // It ends with the audit that started it, whatever it is doing.
        let mut child = rewardbox_lifeline::spawn_shell(cmd)?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut external = External {
            child,
            stdin,
            stdout,
        };
        external
            .send(&json!({"type": "task", "task": task, "group_size": group, "steps": steps}))?;
        Ok(external)
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        writeln!(self.stdin, "{message}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("the policy stopped reading: {e}"))
    }
}

impl Proposer for External {
    fn propose(&mut self, step: usize, n: usize) -> Result<Vec<String>, String> {
        self.send(&json!({"type": "generate", "step": step, "n": n}))?;
        let mut line = String::new();
        let read = self
            .stdout
            .read_line(&mut line)
            .map_err(|e| format!("reading its completions: {e}"))?;
        if read == 0 {
            return Err("it ended without answering".into());
        }
        let value: Value = serde_json::from_str(line.trim())
            .map_err(|e| format!("its answer is not JSON: {e}"))?;
        let list = match &value {
            Value::Array(items) => items,
            Value::Object(o) => o
                .get("completions")
                .and_then(Value::as_array)
                .ok_or("its answer has no \"completions\" list")?,
            _ => return Err("its answer must be a list of completions".into()),
        };
        let completions: Option<Vec<String>> = list
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect();
        let completions = completions.ok_or("every completion must be a string")?;
        if completions.len() != n {
            return Err(format!(
                "it wrote {} completions, not {n}",
                completions.len()
            ));
        }
        Ok(completions)
    }

    fn learn(
        &mut self,
        step: usize,
        rewards: &[Option<f64>],
        advantages: &[f64],
    ) -> Result<(), String> {
        self.send(
            &json!({"type": "rewards", "step": step, "rewards": rewards, "advantages": advantages}),
        )
    }

    fn converged(
        &self,
        last_group: &[String],
        rewards: &[Option<f64>],
    ) -> (String, Option<String>) {
        let mut best: Option<(&String, usize, f64)> = None;
        for (c, r) in last_group.iter().zip(rewards) {
            let count = last_group.iter().filter(|o| *o == c).count();
            let reward = r.unwrap_or(0.0);
            if best.is_none_or(|(_, n, br)| count > n || (count == n && reward > br)) {
                best = Some((c, count, reward));
            }
        }
        (best.map(|(c, _, _)| c.clone()).unwrap_or_default(), None)
    }

    fn is_converged(&self) -> bool {
        false
    }
}

impl Drop for External {
    /// Says `done`, gives the policy 10 s to exit, then kills it.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "{}", json!({"type": "done"}));
        let _ = self.stdin.flush();
        for _ in 0..1000 {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
