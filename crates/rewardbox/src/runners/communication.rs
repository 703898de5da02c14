//! Communication runs: a manager and one or more candidate processes at once, as CMS runs a
//! communication task. Candidate process `i`'s standard input and output are one pipe; the
//! manager opens it as two files, `/fifo/m_to_u<i>` (written) and `/fifo/u<i>_to_m` (read)
//! ([`rewardbox_sandbox::channels`]), whose paths follow its own arguments on its command line,
//! as CMS passes its FIFOs. The manager's standard input is the test's input; its standard
//! output is its verdict.
//!
//! Every program is compiled first. The manager runs on a thread of its own, each candidate
//! process on another; when the manager ends, the candidates' pipes close (a process still
//! reading sees the end of its input). A process that ends closes its pipe, and the manager sees
//! the end of that file.

use crate::runners::Runners;
use crate::runners::bindings::types::{Communication, Invocation, InvocationOutcome, RunOutcome};
use crate::runners::checker::{CheckerFiles, command_line};
use crate::runners::interactive::{Party, not_run};
use crate::runners::outcome::unsupported;
use rewardbox_sandbox::channels::{CHANNEL_DIR, Channel};
use rewardbox_sandbox::engine::THREAD_STACK_BYTES;
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::pipe::duplex;

/// The most candidate processes one run may have.
pub const MAX_PROCESSES: u32 = 16;

/// The manager's file of candidate process `i`'s output.
fn from_process(i: usize) -> String {
    format!("u{i}_to_m")
}

/// The manager's file of candidate process `i`'s input.
fn to_process(i: usize) -> String {
    format!("m_to_u{i}")
}

/// Runs `processes` instances of `candidate` and `manager` (given `invocation`'s command line and
/// files, as a checker is, with `stdin` on its standard input), seeded with `seed`.
pub fn communicate(
    runners: &Runners,
    candidate: Party<'_>,
    processes: u32,
    manager: Party<'_>,
    invocation: &Invocation,
    stdin: &str,
    seed: u64,
) -> Communication {
    let refused = |manager: RunOutcome, candidate: RunOutcome| Communication {
        manager: InvocationOutcome {
            outcome: manager,
            feedback: Vec::new(),
        },
        candidates: vec![candidate],
        deadlock: false,
    };
    if processes == 0 || processes > MAX_PROCESSES {
        let why = format!(
            "a communication run has 1 to {MAX_PROCESSES} candidate processes, not {processes}"
        );
        return refused(unsupported(why.clone()), not_run(&why));
    }
    if let Err(outcome) = runners.prepare(manager.language, manager.source) {
        return refused(outcome, not_run("the manager could not be started"));
    }
    if let Err(outcome) = runners.prepare(candidate.language, candidate.source) {
        return refused(not_run("the candidate could not be started"), outcome);
    }
    let files = match CheckerFiles::new(&invocation.files) {
        Ok(files) => files,
        Err(message) => {
            return refused(
                unsupported(message),
                not_run("the manager could not be started"),
            );
        }
    };
    let count = processes as usize;
    let pipes: Vec<_> = (0..count).map(|_| duplex()).collect();
    let names: Vec<(String, String)> = (0..count)
        .map(|i| (from_process(i), to_process(i)))
        .collect();
    let channels: Vec<Channel<'_>> = pipes
        .iter()
        .zip(&names)
        .map(|((_, manager_end), (reads, writes))| Channel {
            reads,
            writes,
            end: manager_end,
        })
        .collect();
    let mut args = command_line(invocation);
    for (reads, writes) in &names {
        args.push(format!("{CHANNEL_DIR}/{reads}"));
        args.push(format!("{CHANNEL_DIR}/{writes}"));
    }
    let process_args: Vec<Vec<String>> = (0..count)
        .map(|i| match count {
            1 => Vec::new(),
            _ => vec!["solution".to_string(), i.to_string()],
        })
        .collect();
    let cancel = rewardbox_sandbox::cancel::current();
    let (manager_outcome, candidates) = std::thread::scope(|scope| {
        let workers: Vec<_> = pipes
            .iter()
            .zip(&process_args)
            .enumerate()
            .map(|(i, ((candidate_end, _), args))| {
                let cancel = cancel.clone();
                std::thread::Builder::new()
                    .name(format!("rewardbox-process-{i}"))
                    .stack_size(THREAD_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut outcome = rewardbox_sandbox::cancel::with_cancel(cancel, || {
                            let io = JobIo {
                                args,
                                pipe: Some(candidate_end),
                                ..JobIo::default()
                            };
                            runners.run_with(
                                candidate.language,
                                candidate.source,
                                io,
                                candidate.limits,
                                seed.wrapping_add(i as u64),
                            )
                        });
                        candidate_end.close();
                        // What it said to the manager: its stdout went there, and a judge may
                        // record it.
                        outcome.stdout =
                            String::from_utf8_lossy(&candidate_end.written()).into_owned();
                        outcome
                    })
                    .expect("starting a candidate process's thread")
            })
            .collect();
        let mounts = files.mounts();
        let io = JobIo {
            args: &args,
            mounts: &mounts,
            channels: &channels,
            ..JobIo::stdin(stdin.as_bytes())
        };
        let outcome = runners.run_with(manager.language, manager.source, io, manager.limits, seed);
        // A process still reading sees the end of its input; one still computing runs on to
        // its own end or limit, as CMS waits for every process.
        for (_, manager_end) in &pipes {
            manager_end.close();
        }
        let candidates: Vec<RunOutcome> = workers
            .into_iter()
            .map(|worker| {
                worker.join().unwrap_or_else(|_| {
                    crate::runners::outcome::crashed("a candidate process's thread panicked")
                })
            })
            .collect();
        (outcome, candidates)
    });
    Communication {
        manager: InvocationOutcome {
            outcome: manager_outcome,
            feedback: files.feedback(),
        },
        candidates,
        deadlock: pipes.iter().any(|(end, _)| end.deadlocked()),
    }
}
