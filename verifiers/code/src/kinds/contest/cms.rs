//! IOI/CMS tasks: a case judged as CMS judges it. A checker of CMS's convention scores the
//! output in [0, 1]; without one, CMS's white diff compares it with the answer. A communication
//! task's manager talks to the submission's processes and scores the case itself; a task whose
//! submission implements functions runs its grader in a sandbox of its own, calling them
//! ([`super::functions`]), and the grader's output is checked.
//!
//! Whose fault decides: a submission process that does not compile, crashes, exits non-zero or
//! meets a limit scores 0 with that verdict before anything the manager says; a manager that
//! fails (or says no score) is the jury's failure, a judge error. A grader, compiled with the
//! submission into one program on a native judge, is part of the submission's run there: its
//! crash, non-zero exit or limit is the submission's verdict here too.

use crate::kinds::contest::case::{CaseRun, checker_files, deadlock, submission_failure};
use crate::kinds::contest::functions::{Plan, without_include};
use crate::kinds::contest::grader::{Graded, JudgeError, Verdict};
use crate::kinds::contest::spec::{Convention, Header, JudgeCase, JudgeSpec, ProblemProgram};
use crate::sandbox::{
    CaseStatus, CheckerOutcome, CommunicationOutcome, GradeError, Outcome, RunStatus, Sandbox,
};

/// CMS's white diff of `output` against `answer`: line by line, each line's runs of white space
/// (space, tab, CR, VT, FF) one space and its ends trimmed; lines of white space at the end of
/// either file ignored. The message names the first line that differs.
pub fn white_diff(output: &[u8], answer: &[u8]) -> Result<(), String> {
    const WHITE: &[u8] = b" \t\n\x0b\x0c\r";
    let canonical = |line: &[u8]| -> Vec<u8> {
        line.split(|b| WHITE.contains(b))
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(&b' ')
    };
    let lines = |text: &[u8]| -> Vec<Vec<u8>> {
        let mut lines: Vec<Vec<u8>> = text
            .split_inclusive(|b| *b == b'\n')
            .map(canonical)
            .collect();
        while lines.last().is_some_and(Vec::is_empty) {
            lines.pop();
        }
        lines
    };
    let (out, ans) = (lines(output), lines(answer));
    let shown = |line: &[u8]| {
        let text = String::from_utf8_lossy(line);
        crate::compare::preview(&text)
    };
    for i in 0..out.len().max(ans.len()) {
        match (out.get(i), ans.get(i)) {
            (Some(o), Some(a)) if o == a => {}
            (Some(o), Some(a)) => {
                return Err(format!(
                    "expected `{}`, found `{}` on line {}",
                    shown(a),
                    shown(o),
                    i + 1
                ));
            }
            (Some(_), None) => return Err("the output is too long".into()),
            (None, Some(_)) => return Err("the output is too short".into()),
            (None, None) => unreachable!("i is below one of the lengths"),
        }
    }
    Ok(())
}

/// A case scored `fraction` in [0, 1]: accepted at 1, wrong at 0, partially correct between.
pub fn scored(fraction: f64, message: String) -> CaseRun {
    let verdict = if fraction >= 1.0 {
        Verdict::Accepted
    } else if fraction <= 0.0 {
        Verdict::WrongAnswer
    } else {
        Verdict::PartiallyCorrect
    };
    CaseRun::Judged {
        graded: Graded {
            verdict,
            score: Some(fraction),
        },
        status: if verdict == Verdict::Accepted {
            CaseStatus::Passed
        } else {
            CaseStatus::Wrong
        },
        detail: message,
    }
}

/// What a CMS checker or manager (`who`) said: it ended 0 with a score in [0, 1] on its stdout's
/// first line; its stderr's first line is the message (`translate:success`, `translate:wrong`,
/// `translate:partial` as CMS shows them). Anything else is the jury's failure.
pub fn cms_verdict(checked: &CheckerOutcome, who: &str) -> Result<CaseRun, JudgeError> {
    let outcome = &checked.outcome;
    if outcome.status != RunStatus::Ok || outcome.exit_code.unwrap_or(0) != 0 {
        return Err(JudgeError(format!(
            "the {who} did not end well: {}",
            crate::sandbox::exit_detail(outcome)
        )));
    }
    let first = outcome.stdout.lines().next().unwrap_or_default().trim();
    let fraction = first
        .parse::<f64>()
        .ok()
        .filter(|f| (0.0..=1.0).contains(f))
        .ok_or_else(|| {
            JudgeError(format!(
                "the {who} wrote {first:?} as its score, which is not a number in [0, 1]"
            ))
        })?;
    let said = outcome.stderr.lines().next().unwrap_or_default().trim();
    let message = match said.strip_prefix("translate:").map(str::trim) {
        Some("success") => "Output is correct".to_string(),
        Some("wrong") => "Output isn't correct".to_string(),
        Some("partial") => "Output is partially correct".to_string(),
        _ if said.is_empty() => format!("the {who} scored {first}"),
        _ => crate::compare::preview(said),
    };
    Ok(scored(fraction, message))
}

/// The limits of a manager's or a grader's runs: the problem's, whose output (the calls and
/// returns it writes to the submission count) is 256 MiB unless the problem says otherwise.
fn wire_limits(spec: &JudgeSpec) -> crate::kinds::contest::spec::ValidatorLimits {
    let mut limits = spec.validator_limits;
    limits.output_bytes.get_or_insert(WIRE_OUTPUT_BYTES);
    limits
}

/// The output a manager or a grader may write in all by default ([`wire_limits`]).
const WIRE_OUTPUT_BYTES: u32 = 256 << 20;

/// A compile error the submission's language causes: the task takes other languages (its stubs
/// or grader are written for them). The submission's own choice, so its score.
fn language_refused(takes: &str) -> CaseRun {
    CaseRun::CompileError(Outcome {
        status: RunStatus::CompileError,
        exit_code: None,
        stdout: String::new(),
        stderr: format!("this task's submissions are compiled with its {takes}"),
    })
}

/// The header, then `parts` (each a name and a source whose `#include` of the header is left
/// out), as one translation unit: how a stub and a submission are compiled together here.
fn one_unit(header: Option<&Header>, parts: &[(&str, &str)]) -> String {
    let mut out = String::new();
    if let Some(header) = header {
        out.push_str(&format!("#line 1 \"{}\"\n{}\n", header.name, header.source));
    }
    for (name, source) in parts {
        out.push_str(&format!("#line 1 \"{name}\"\n"));
        out.push_str(&match header {
            Some(header) => without_include(source, &header.name),
            None => source.to_string(),
        });
        out.push('\n');
    }
    out
}

/// The verdict the submission's processes decide before `peer` (the manager, the grader) does:
/// a compile error; a deadlock; the first process that did not end well. A peer that could not
/// be built or run is the task's fault or the host's.
fn processes_verdict(
    talked: &CommunicationOutcome,
    peer: &str,
) -> Result<Option<CaseRun>, GradeError> {
    let ran = &talked.manager.outcome;
    match ran.status {
        RunStatus::Unsupported => return Err(GradeError::Failed(ran.stderr.trim().to_string())),
        RunStatus::CompileError => {
            return Err(GradeError::InvalidTask(format!(
                "\"tests.judge.{peer}\" does not compile: {}",
                crate::sandbox::compile_detail(&ran.stderr)
            )));
        }
        _ => {}
    }
    let mut failures = Vec::new();
    for process in &talked.processes {
        if let Some(run) = submission_failure(process)? {
            if matches!(run, CaseRun::CompileError(_)) {
                return Ok(Some(run));
            }
            failures.push(run);
        }
    }
    if talked.deadlock {
        return Ok(Some(deadlock(peer)));
    }
    Ok(failures.into_iter().next())
}

/// Judges `program` on `case` of a communication task: `manager` with the case's input on its
/// stdin and `processes` instances of the submission (compiled with the stub of its language
/// when the task has stubs) talking to it. With the run, what the submission's processes said
/// to the manager (one process's words; several processes' each after a line `process <i>:`).
pub fn judge_communication(
    spec: &JudgeSpec,
    manager: &ProblemProgram,
    processes: u32,
    language: &str,
    program: &str,
    case: &JudgeCase,
    sandbox: &dyn Sandbox,
) -> Result<(CaseRun, Option<String>), GradeError> {
    let source = if spec.stubs.is_empty() {
        program.to_string()
    } else {
        let canonical = crate::langs::canonical_language(language).unwrap_or_default();
        let Some(stub) = spec.stubs.get(canonical) else {
            let takes: Vec<&str> = spec.stubs.keys().map(String::as_str).collect();
            return Ok((
                language_refused(&format!("stub, in {}", takes.join(" or "))),
                None,
            ));
        };
        one_unit(
            spec.header.as_ref(),
            &[("stub", stub), ("solution", program)],
        )
    };
    let talked = sandbox.communicate(
        language,
        &source,
        processes,
        manager,
        &case.input,
        &[],
        &checker_files(case),
        &wire_limits(spec),
    );
    let said = match talked.processes.as_slice() {
        [one] => one.stdout.clone(),
        several => several
            .iter()
            .enumerate()
            .map(|(i, process)| format!("process {i}:\n{}\n", process.stdout.trim_end()))
            .collect(),
    };
    if let Some(run) = processes_verdict(&talked, "manager")? {
        return Ok((run, Some(said)));
    }
    let run = cms_verdict(&talked.manager, "manager")
        .map_err(|e| GradeError::Failed(format!("judge error: {}", e.0)))?;
    Ok((run, Some(said)))
}

/// Judges `program` on `case` of a task whose submission implements the functions `header`
/// declares: `grader` runs in a sandbox of its own with the case's input, calling them in the
/// submission's; its output is then checked as a batch task's.
pub fn judge_with_grader(
    spec: &JudgeSpec,
    grader: &ProblemProgram,
    language: &str,
    program: &str,
    case: &JudgeCase,
    flags: &[String],
    sandbox: &dyn Sandbox,
) -> Result<(CaseRun, Option<String>), GradeError> {
    let header = spec
        .header
        .as_ref()
        .expect("the spec checked that a grader has its header");
    if crate::langs::canonical_language(language).ok() != Some("cpp") {
        return Ok((
            language_refused("grader, which calls C++ functions (cpp)"),
            None,
        ));
    }
    let plan = Plan::new(header, &grader.source)
        .map_err(|e| GradeError::InvalidTask(format!("\"tests.judge.header\": {e}")))?;
    let grading = ProblemProgram {
        language: grader.language.clone(),
        source: plan.grader_program(header, &grader.source),
        convention: Convention::Cms,
    };
    let submission = plan.submission_program(header, program);
    let talked = sandbox.communicate(
        language,
        &submission,
        1,
        &grading,
        &case.input,
        &[],
        &[],
        &wire_limits(spec),
    );
    if let Some(run) = processes_verdict(&talked, "grader")? {
        return Ok((run, None));
    }
    let ran = &talked.manager.outcome;
    // What the submission's program printed natively: the grader's output.
    let output = Some(ran.stdout.clone());
    // The grader's own end is the submission's program's end on a native judge.
    if let Some(run) = submission_failure(ran)? {
        let run = match run {
            CaseRun::Judged {
                graded,
                status,
                detail,
            } => CaseRun::Judged {
                graded,
                status,
                detail: format!("the grader {detail}"),
            },
            other => other,
        };
        return Ok((run, output));
    }
    let run = crate::kinds::contest::case::check_output(spec, case, flags, &ran.stdout, sandbox)?;
    Ok((run, output))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_diff_is_cms_s() {
        let same = [
            ("1 2\n", "1 2\n"),
            ("1   2\t\n", "1 2"),
            ("  1 2  \r\n\n\n", "1 2\n"),
            ("a\n\n", "a"),
            ("a\n \nb\n", "a\n\nb\n"),
        ];
        for (output, answer) in same {
            assert_eq!(
                white_diff(output.as_bytes(), answer.as_bytes()),
                Ok(()),
                "{output:?}"
            );
        }
        let different = [
            (
                "1 2 3\n",
                "1 2\n",
                "expected `1 2`, found `1 2 3` on line 1",
            ),
            ("1\n2\n", "1 2\n", "expected `1 2`, found `1` on line 1"),
            ("a\nb\n", "a\n\nb\n", "expected ``, found `b` on line 2"),
            ("a\nb\n", "a\n", "the output is too long"),
            ("", "a\n", "the output is too short"),
        ];
        for (output, answer, message) in different {
            assert_eq!(
                white_diff(output.as_bytes(), answer.as_bytes()),
                Err(message.to_string()),
                "{output:?}"
            );
        }
    }

    fn said(exit: Option<i32>, stdout: &str, stderr: &str) -> CheckerOutcome {
        CheckerOutcome {
            outcome: Outcome {
                status: RunStatus::Ok,
                exit_code: exit,
                stdout: stdout.into(),
                stderr: stderr.into(),
            },
            feedback: Vec::new(),
        }
    }

    #[test]
    fn a_cms_checker_scores_the_case() {
        let verdict = |stdout: &str, stderr: &str| match cms_verdict(
            &said(Some(0), stdout, stderr),
            "checker",
        ) {
            Ok(CaseRun::Judged { graded, detail, .. }) => {
                Ok((graded.verdict, graded.score, detail))
            }
            Ok(CaseRun::CompileError(_)) => unreachable!(),
            Err(e) => Err(e.0),
        };
        assert_eq!(
            verdict("1.0\n", "translate:success\n"),
            Ok((Verdict::Accepted, Some(1.0), "Output is correct".into()))
        );
        assert_eq!(
            verdict("0\n", "translate:wrong\n"),
            Ok((
                Verdict::WrongAnswer,
                Some(0.0),
                "Output isn't correct".into()
            ))
        );
        assert_eq!(
            verdict("0.25\nignored\n", "used 9 queries\nmore\n"),
            Ok((
                Verdict::PartiallyCorrect,
                Some(0.25),
                "used 9 queries".into()
            ))
        );
        for bad in ["", "x", "1.5", "-0.1", "nan"] {
            assert!(
                verdict(bad, "")
                    .unwrap_err()
                    .contains("not a number in [0, 1]"),
                "{bad:?}"
            );
        }
        let failed = cms_verdict(&said(Some(1), "1\n", ""), "manager").unwrap_err();
        assert!(
            failed.0.starts_with("the manager did not end well"),
            "{}",
            failed.0
        );
    }
}
