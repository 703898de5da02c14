//! Calls answered by a candidate's program that serves them: every call goes on the program's
//! standard input, its answers come back, in order, on its standard output. A program that ends
//! during a call fails that call, and the calls after it run again in a fresh sandbox, so that
//! each case gets its own status. Typed calls of compiled candidates ([`crate::kinds::typed_calls`]) and
//! JavaScript calls of values beyond JSON ([`crate::kinds::js_calls`]) run this way.

use crate::compare::preview;
use crate::sandbox::{
    CaseResult, CaseStatus, GradeError, RunStatus, Sandbox, compile_detail, exit_detail,
    failure_status, unsupported,
};

/// One call: the wire message asking it, and its arguments as a failed case shows them.
#[derive(Debug, Clone)]
pub struct Call {
    /// The message on the program's standard input.
    pub message: Vec<u8>,
    /// The arguments, shown (`[1, 2], 3`).
    pub shown_args: String,
}

/// How one language's server is run and read.
pub trait Server {
    /// An answer as the wire carries it.
    type Answer;

    /// The answers in `stdout`, in order.
    fn answers(&self, stdout: &[u8]) -> Vec<Self::Answer>;

    /// The verdict on call `index`'s answer.
    fn judge(&self, index: usize, answer: &Self::Answer) -> (CaseStatus, String);
}

/// Runs `source` (the candidate's program with its server, in `language`) on `calls` of
/// `entry`: one result per call (`call 1`, `call 2`, ...).
pub fn run<S: Server>(
    language: &str,
    source: &str,
    entry: &str,
    calls: &[&Call],
    server: &S,
    sandbox: &dyn Sandbox,
) -> Result<Vec<CaseResult>, GradeError> {
    let mut verdicts: Vec<Option<(CaseStatus, String)>> = vec![None; calls.len()];
    let mut next = 0;
    while next < calls.len() {
        let stdin: Vec<u8> = calls[next..]
            .iter()
            .flat_map(|c| c.message.iter().copied())
            .collect();
        // The messages are ASCII but for the strings, which came from JSON: UTF-8 throughout.
        let stdin = String::from_utf8(stdin)
            .map_err(|_| GradeError::Failed("a call message is not UTF-8".into()))?;
        let outcome = sandbox.run(language, source, &stdin);
        match outcome.status {
            RunStatus::Unsupported => return Err(unsupported(&outcome)),
            RunStatus::CompileError => {
                let detail = compile_detail(&outcome.stderr);
                for verdict in verdicts.iter_mut().skip(next) {
                    *verdict = Some((CaseStatus::CompileError, detail.clone()));
                }
                break;
            }
            _ => {}
        }
        let answers = server.answers(outcome.stdout.as_bytes());
        for (offset, answer) in answers.iter().enumerate().take(calls.len() - next) {
            verdicts[next + offset] = Some(server.judge(next + offset, answer));
        }
        next += answers.len().min(calls.len() - next);
        if next < calls.len() {
            let status = failure_status(&outcome);
            let ended = exit_detail(&outcome).replacen(
                "the program ended",
                "the program ended during the call",
                1,
            );
            verdicts[next] = Some((
                status,
                format!("{entry}({}): {ended}", preview(&calls[next].shown_args)),
            ));
            next += 1;
        }
    }
    Ok(verdicts
        .into_iter()
        .enumerate()
        .map(|(i, verdict)| {
            let (status, detail) =
                verdict.unwrap_or((CaseStatus::Crashed, "no result for this case".into()));
            CaseResult {
                id: format!("call {}", i + 1),
                status,
                detail,
            }
        })
        .collect())
}
