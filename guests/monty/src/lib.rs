//! Floor 1 of rewardbox: a built-in runner component (Python's fast tier).
//!
//! rewardbox's fast Python tier: Monty (pydantic's Rust interpreter of a subset of Python) as a
//! component of the `runner` world. `run` executes a program on stdin/stdout; it starts in
//! microseconds where a fresh CPython instance takes about a millisecond.
//!
//! The host decides what this tier's outcome is worth (`crates/rewardbox/src/runners/python_engine.rs`):
//! under `auto`, only a run that ends normally is kept, anything else runs again in CPython. So
//! this runner reports every way a program can end as CPython would report it (exit code 1 and a
//! traceback for an uncaught exception, `sys.exit`'s code), and what Monty cannot give a program
//! (files, the clock's host calls, futures) ends it with exit code 1 and the reason on stderr,
//! as an uncaught exception would: never a guess, and never `unsupported` (which would mask the
//! candidate's result).
//!
//! A program reads its input through `input()` or `sys.stdin`'s `read`, `readline` and
//! `readlines` ([`stdin`]); any other use of `sys.stdin` fails here and, under `auto`, runs in
//! CPython.


// The bindings wit-bindgen generates for the `runner` world take many arguments.
#![allow(clippy::too_many_arguments)]

mod screen;
mod stdin;

use rewardbox_languages::python_engine::AUTO_MARKER;
use monty::{MontyRun, RunProgress};
use monty_types::{
    AssertMessageAnnotations, CompileOptions, ExcType, MontyException, MontyObject,
    NameLookupResult, PrintWriter, PrintWriterCallback, ResourceLimits, ResourceTracker,
};
use std::borrow::Cow;
use std::io::Write;

wit_bindgen::generate!({ path: "../../wit", world: "runner" });

use rewardbox::core::types::RunStatus;

/// Output kept before it is written: flushed at 64 KiB and at the end.
const FLUSH_BYTES: usize = 64 << 10;

/// The name of the script: its `sys.argv[0]` (and its tracebacks'), as `python3 main.py` has it
/// natively and CPython's runner gives it.
const SCRIPT: &str = "main.py";

/// Where `print` writes: buffered, then written to the instance's stdout and stderr, which the
/// host captures and bounds.
#[derive(Default)]
struct Streams {
    out: Vec<u8>,
    err: Vec<u8>,
}

impl Streams {
    fn flush(&mut self) {
        let _ = std::io::stdout().write_all(&self.out);
        let _ = std::io::stdout().flush();
        self.out.clear();
        let _ = std::io::stderr().write_all(&self.err);
        let _ = std::io::stderr().flush();
        self.err.clear();
    }

    /// Buffers `text` for stderr or stdout, flushing both once they hold [`FLUSH_BYTES`].
    fn append(&mut self, to_stderr: bool, text: &str) {
        let buffer = if to_stderr {
            &mut self.err
        } else {
            &mut self.out
        };
        buffer.extend_from_slice(text.as_bytes());
        if self.out.len() + self.err.len() >= FLUSH_BYTES {
            self.flush();
        }
    }
}

impl PrintWriterCallback for Streams {
    fn stdout_write(&mut self, output: Cow<'_, str>) -> Result<(), MontyException> {
        self.append(false, &output);
        Ok(())
    }

    fn stdout_push(&mut self, end: char) -> Result<(), MontyException> {
        self.append(false, end.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn stderr_write(&mut self, output: Cow<'_, str>) -> Result<(), MontyException> {
        self.append(true, &output);
        Ok(())
    }

    fn stderr_push(&mut self, end: char) -> Result<(), MontyException> {
        self.append(true, end.encode_utf8(&mut [0; 4]));
        Ok(())
    }
}

/// How a run ended, before it becomes an outcome.
enum Ending {
    /// Ran to its end, or `sys.exit` with this code.
    Exited(i32),
    /// The program needs what Monty cannot give it (or, under `auto`, what the screen leaves to
    /// CPython): says what.
    Outside(String),
}

/// Runs `source` to its end, printing into `streams`; first, when `screened` (under `auto`),
/// hands CPython what [`screen`] says Monty would run differently. The program is parsed once,
/// for the screen and for [`stdin::rewrite`] (Monty parses what it runs itself).
fn execute(source: &str, screened: bool, streams: &mut Streams) -> Ending {
    let parsed = ruff_python_parser::parse_module(source).ok();
    let suite = parsed.as_ref().map(|p| p.suite());
    if screened && let Some(why) = suite.and_then(|suite| screen::pinned_to_cpython(suite)) {
        return Ending::Outside(format!("left to CPython: the program uses {why}"));
    }
    let Some(mut stdin) = stdin::Lines::read() else {
        return Ending::Outside("standard input is not UTF-8".to_string());
    };
    let options = CompileOptions {
        // CPython's bare `AssertionError`, not pytest's introspected message.
        assert_message_annotations: AssertMessageAnnotations::Off,
        ..CompileOptions::default()
    };
    // A program that does not parse goes to Monty as it is: Monty reports the syntax error.
    let source = match suite {
        Some(suite) => stdin::rewrite(source, suite),
        None => source.to_string(),
    };
    let names = stdin::FUNCTIONS.map(|(name, _)| name.to_string()).to_vec();
    let runner = match MontyRun::new(source, SCRIPT, names, options) {
        Ok(runner) => runner,
        Err(error) => return uncaught(&error, streams),
    };
    let limits = ResourceLimits {
        // `input()` suspends the interpreter once per line: no cap on suspensions. Fuel and
        // memory are the host's limits, enforced on the whole instance.
        max_suspensions: usize::MAX,
        ..ResourceLimits::default()
    };
    let functions = stdin::FUNCTIONS
        .map(|(name, _)| MontyObject::function(name.to_string(), None))
        .to_vec();
    let mut progress = runner.start(
        functions,
        ResourceTracker::new(limits),
        PrintWriter::Callback(streams),
    );
    loop {
        let step = match progress {
            Err(error) => return uncaught(&error, streams),
            Ok(step) => step,
        };
        progress = match step {
            RunProgress::Complete(_) => return Ending::Exited(0),
            RunProgress::FunctionCall(call) => {
                let Some((_, method)) = stdin::FUNCTIONS
                    .iter()
                    .find(|(name, _)| *name == call.function_name)
                else {
                    return Ending::Outside(format!(
                        "the program called {}(), which the Monty tier does not provide",
                        call.function_name
                    ));
                };
                if *method == stdin::Method::Input {
                    if let Some(prompt) = call.args.arg(0) {
                        // CPython writes `str(prompt)`; a prompt other than a string is left
                        // to it.
                        let Some(text) = prompt.as_str() else {
                            return Ending::Outside(
                                "input() with a prompt that is not a string".into(),
                            );
                        };
                        streams.out.extend_from_slice(text.as_bytes());
                    }
                } else if call.args.arg(0).is_some() {
                    // `read(n)` and `readline(n)` read a part: left to CPython.
                    return Ending::Outside(
                        "sys.stdin's methods with a size are left to CPython".into(),
                    );
                }
                let Some(answer) = stdin.answer(*method) else {
                    return Ending::Outside(
                        "input() at the end of standard input (EOFError in CPython)".to_string(),
                    );
                };
                call.resume(answer, PrintWriter::Callback(streams))
            }
            RunProgress::NameLookup(lookup) => {
                lookup.resume(NameLookupResult::Undefined, PrintWriter::Callback(streams))
            }
            RunProgress::OsCall(call) => {
                return Ending::Outside(format!(
                    "the program asked the operating system for {:?}, which the Monty tier \
                     does not provide",
                    call.function_call
                ));
            }
            RunProgress::ResolveFutures(_) => {
                return Ending::Outside(
                    "the program awaits host futures, which the Monty tier does not provide"
                        .to_string(),
                );
            }
        };
    }
}

/// An uncaught exception: its traceback on stderr and exit code 1, as CPython ends; `SystemExit`
/// exits with its code.
fn uncaught(error: &MontyException, streams: &mut Streams) -> Ending {
    if error.exc_type() == ExcType::SystemExit {
        return match error.message().map(str::trim) {
            None | Some("") | Some("None") => Ending::Exited(0),
            Some(code) => match code.parse::<i32>() {
                Ok(code) => Ending::Exited(code),
                // `sys.exit("message")` prints the message and exits 1.
                Err(_) => {
                    streams.err.extend_from_slice(code.as_bytes());
                    streams.err.push(b'\n');
                    Ending::Exited(1)
                }
            },
        };
    }
    let traceback = error.to_string();
    streams.append(true, &traceback);
    if !traceback.ends_with('\n') {
        streams.append(true, "\n");
    }
    Ending::Exited(1)
}

struct MontyRunner;

impl Guest for MontyRunner {
    fn run(source: String) -> RunOutcome {
        let mut streams = Streams::default();
        let ending = match source.strip_prefix(AUTO_MARKER) {
            Some(program) => execute(program, true, &mut streams),
            None => execute(&source, false, &mut streams),
        };
        let outcome = match ending {
            Ending::Exited(code) => RunOutcome {
                status: if code == 0 {
                    RunStatus::Ok
                } else {
                    RunStatus::ExitedNonzero
                },
                exit_code: Some(code),
                stdout: String::new(),
                stderr: String::new(),
                fuel_used: 0,
            },
            Ending::Outside(why) => {
                // The program's failure under Monty, as an uncaught exception would be: under
                // `auto` it then runs in CPython; under `monty` alone it is the candidate's score,
                // never a masked result.
                streams
                    .err
                    .extend_from_slice(format!("rewardbox: {why}\n").as_bytes());
                RunOutcome {
                    status: RunStatus::ExitedNonzero,
                    exit_code: Some(1),
                    stdout: String::new(),
                    stderr: String::new(),
                    fuel_used: 0,
                }
            }
        };
        streams.flush();
        outcome
    }

    fn call(_: String, _: String, args_json: Vec<String>) -> Vec<Result<String, String>> {
        vec![Err(NOT_CALLABLE.to_string()); args_json.len()]
    }

    fn load(_: String, _: String) -> Result<Vec<Member>, CallError> {
        Err(CallError::Invalid(NOT_CALLABLE.to_string()))
    }

    fn invoke(_: Target, _: String, _: String) -> Result<String, CallError> {
        Err(CallError::Invalid(NOT_CALLABLE.to_string()))
    }

    fn inspect(_: Target) -> Result<String, CallError> {
        Err(CallError::Invalid(NOT_CALLABLE.to_string()))
    }
}

/// The Monty tier runs programs; functions are called in CPython.
const NOT_CALLABLE: &str = "the Monty tier runs programs on stdin/stdout only: functions are \
                            called in CPython";

export!(MontyRunner);
