//! Floor 1 of rewardbox: a built-in runner component (JavaScript and TypeScript).
//!
//! rewardbox's JavaScript runner: the Boa engine as a component of the `runner` world. `run`
//! executes a Node.js-style program on stdin (`console.log`, `process.stdout.write`,
//! `require('fs').readFileSync(0)`, `require('readline')`, `process.stdin.on('data')`);
//! `call` executes it once and calls a function on JSON arguments. The host captures stdout and
//! stderr and enforces every limit; a fresh instance serves each run. The host calls
//! `prepare-engine` once and snapshots the instance (`crates/rewardbox/src/runners/prepared.rs`), so a
//! run's instance starts with Boa's context, the prelude and Node's modules already evaluated.


// The bindings wit-bindgen generates for the `js-runner` world take many arguments.
#![allow(clippy::too_many_arguments)]

use boa_engine::error::{EngineError, PanicError};
use boa_engine::{
    Context, JsNativeError, JsResult, JsString, JsValue, NativeFunction, Source, js_string,
};
use std::cell::{Cell, RefCell};
use std::io::{BufRead, Write};

wit_bindgen::generate!({ path: "../../wit", world: "js-runner" });

mod bytes;
mod digest;
mod modules;

use rewardbox::core::types::RunStatus;

/// Node.js's surroundings, in JavaScript.
const PRELUDE: &str = include_str!("prelude.js");

/// The wire between a benchmark's test code and the live candidate (see the file), compiled with
/// the prelude (so into the prepared engine's snapshot) as the body of a hidden global function,
/// `__rb_wire`, which both programs of a test run call before their own code: parsing the wire
/// at each run cost a test run about as much as the rest of a short one.
const WIRE: &str = concat!(
    "Object.defineProperty(globalThis, '__rb_wire', { configurable: true, value: function () {\n",
    include_str!("wire.js"),
    "\n} });\n"
);

use rewardbox_languages::js_test_run::{
    SERVED_PROGRAM as SERVE_MARKER, TEST_FRAMEWORK, TEST_PROGRAM as TEST_MARKER,
};



/// A program as the engine runs it.
struct Program<'s> {
    /// Its JavaScript.
    code: std::borrow::Cow<'s, str>,
    /// Whether it runs as an ES module ([`modules`]), as Node decides.
    es_module: bool,
}

/// The program `source` is, as JavaScript: a program marked as TypeScript with its types
/// stripped, or why it cannot run (Node's `SyntaxError`, printed as Node prints it).
fn javascript(source: &str) -> Result<Program<'_>, String> {
    match rewardbox_languages::typescript::marked(source) {
        None => Ok(Program {
            code: std::borrow::Cow::Borrowed(source),
            es_module: rewardbox_ts_strip::is_es_module(source),
        }),
        Some(typescript) => rewardbox_ts_strip::strip(typescript)
            .map(|stripped| Program {
                code: std::borrow::Cow::Owned(stripped.code),
                es_module: stripped.es_module,
            })
            .map_err(|e| e.to_string()),
    }
}

/// Node's modules, and the npm modules benchmarks' solutions and peers' suites use, in
/// JavaScript: evaluated before the snapshot runs start from (`__rb_prepare` in the prelude), but
/// for the published packages shipped unchanged (`lodash`, `vendor/npm/modules.json`), which a run
/// evaluates when it first requires one.
const NODE_MODULES: [(&str, &str); 10] = [
    ("assert", include_str!("node/assert.js")),
    ("util", include_str!("node/util.js")),
    ("buffer", include_str!("node/buffer.js")),
    ("string_decoder", include_str!("node/string_decoder.js")),
    ("path", include_str!("node/path.js")),
    ("crypto", include_str!("node/crypto.js")),
    ("intl", include_str!("node/intl.js")),
    ("js-md5", include_str!("npm/js-md5.js")),
    ("lodash", include_str!("../vendor/npm/lodash/lodash.min.js")),
    // Jest's globals and `node:test`, for a test file's trusted program (not a module a program
    // can require).
    ("testing", include_str!("testing.js")),
];

/// Output kept before it is written: flushed at 64 KiB, at the end and at exit.
const FLUSH_BYTES: usize = 64 << 10;

thread_local! {
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static ERR: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The code `process.exit` asked for, once it has been called.
    static EXIT: Cell<Option<i32>> = const { Cell::new(None) };
    /// Whether promise jobs are running (where the engine cannot carry an uncatchable error).
    static IN_JOBS: Cell<bool> = const { Cell::new(false) };
    /// Whether the program is a live candidate answering calls: its stdout is the wire, so what
    /// it prints goes to stderr.
    static SERVING: Cell<bool> = const { Cell::new(false) };
    /// The engine `prepare-engine` set up (in the host's snapshot), for the one program this
    /// instance runs.
    static PREPARED: RefCell<Option<Context>> = const { RefCell::new(None) };
}

fn exited() -> bool {
    EXIT.with(Cell::get).is_some()
}

/// The error that ends the program after `process.exit`: an engine error, which the program
/// cannot catch.
fn exit_error() -> boa_engine::JsError {
    EngineError::from(PanicError::new("process.exit")).into()
}

/// Runs the promise jobs; a `process.exit` in one of them ends the program once they return.
fn run_jobs(context: &mut Context) -> JsResult<()> {
    IN_JOBS.with(|j| j.set(true));
    let result = context.run_jobs();
    IN_JOBS.with(|j| j.set(false));
    if exited() {
        return Err(exit_error());
    }
    result
}

fn flush() {
    OUT.with(|b| {
        let _ = std::io::stdout().write_all(&b.borrow());
        b.borrow_mut().clear();
    });
    ERR.with(|b| {
        let _ = std::io::stderr().write_all(&b.borrow());
        b.borrow_mut().clear();
    });
    let _ = std::io::stdout().flush();
}

fn text(value: &JsValue, context: &mut Context) -> JsResult<String> {
    Ok(value.to_string(context)?.to_std_string_escaped())
}

/// `__rb_write(fd, text)`: fd 2 is stderr, anything else stdout; nothing after `process.exit`.
fn write(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    if exited() {
        return Ok(JsValue::undefined());
    }
    let fd = args.first().and_then(JsValue::as_number).unwrap_or(1.0);
    let text = match args.get(1) {
        Some(v) => text(v, context)?,
        None => String::new(),
    };
    let buffer = if fd == 2.0 || SERVING.with(Cell::get) {
        &ERR
    } else {
        &OUT
    };
    let full = buffer.with(|b| {
        let mut b = b.borrow_mut();
        b.extend_from_slice(text.as_bytes());
        b.len() >= FLUSH_BYTES
    });
    if full {
        flush();
    }
    Ok(JsValue::undefined())
}

/// `__rb_stdin()`: the whole of standard input as text (bad UTF-8 as U+FFFD), kept in UTF-16
/// ([`bytes::utf16_string`]).
fn stdin(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    Ok(JsValue::from(bytes::utf16_string(
        &String::from_utf8_lossy(&bytes::stdin()),
    )))
}

/// `__rb_read_line()`: the next line of standard input without its newline, or `null` at its
/// end. Blocks until the line is complete (the wire of a test run).
fn read_line(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let mut bytes = Vec::new();
    match std::io::stdin().lock().read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => return Ok(JsValue::null()),
        Ok(_) => {}
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    }
    Ok(JsValue::from(JsString::from(
        String::from_utf8_lossy(&bytes).as_ref(),
    )))
}

/// `__rb_send(fd, text)`: writes `text` to stderr (fd 2) or stdout at once, after what was
/// buffered: a message of the wire, or a line of a test run's report.
fn send(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let fd = args.first().and_then(JsValue::as_number).unwrap_or(1.0);
    let text = match args.get(1) {
        Some(v) => text(v, context)?,
        None => String::new(),
    };
    flush();
    if fd == 2.0 {
        let mut err = std::io::stderr();
        let _ = err.write_all(text.as_bytes());
        let _ = err.flush();
    } else {
        let mut out = std::io::stdout();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }
    Ok(JsValue::undefined())
}

/// `__rb_exit(code)`: ends the program with `code` (0-255, as a process's status), by an error
/// the program cannot catch; `run` reports the code. (WASI's own exit carries only success or
/// failure.)
fn exit(_: &JsValue, args: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let code = args.first().and_then(JsValue::as_number).unwrap_or(0.0);
    let code = if code.is_finite() { code as i64 } else { 0 };
    if !exited() {
        EXIT.with(|exit| exit.set(Some(code.rem_euclid(256) as i32)));
    }
    if IN_JOBS.with(Cell::get) {
        // A promise job turns any error into a rejection: what runs after it in the same
        // round of jobs can no longer write (see `write`), and `run_jobs` ends the program.
        return Err(JsNativeError::error().with_message("process.exit").into());
    }
    Err(exit_error())
}

/// `__rb_sleep(ms)`: waits `ms` milliseconds (for a candidate the host only advances its clocks
/// and charges the time as fuel).
fn sleep(_: &JsValue, args: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let ms = args.first().and_then(JsValue::as_number).unwrap_or(0.0);
    if ms.is_finite() && ms > 0.0 {
        std::thread::sleep(std::time::Duration::from_secs_f64(ms / 1000.0));
    }
    Ok(JsValue::undefined())
}

/// `__rb_now()`: milliseconds on the monotonic clock since the runner started.
fn now(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    thread_local! {
        static START: std::time::Instant = std::time::Instant::now();
    }
    Ok(JsValue::from(
        START.with(|start| start.elapsed().as_secs_f64() * 1000.0),
    ))
}

/// `__rb_source(name)`: the JavaScript source of one of Node's modules (src/node/).
fn source(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let name = match args.first() {
        Some(v) => text(v, context)?,
        None => String::new(),
    };
    Ok(NODE_MODULES
        .iter()
        .find(|(module, _)| *module == name)
        .map(|(_, code)| JsValue::from(JsString::from(*code)))
        .unwrap_or_default())
}

/// The context `prepare-engine` made ready, else a new one.
fn context() -> Result<Context, String> {
    match PREPARED.with(|prepared| prepared.borrow_mut().take()) {
        Some(context) => Ok(context),
        None => new_context(),
    }
}

/// A context with Node.js's surroundings. Evaluating the prelude is most of a short program's
/// time (Boa parses about 5 KB/ms), hence [`Runner::prepare_engine`]: it must not read stdin,
/// clocks or randomness, which the snapshot would freeze.
fn new_context() -> Result<Context, String> {
    let mut context = Context::builder()
        .module_loader(std::rc::Rc::new(modules::NodeModules::default()))
        .build()
        .map_err(|e| format!("rewardbox: setting up the JavaScript runner: {e}"))?;
    let natives: [(JsString, usize, NativeFunction); 13] = [
        (
            js_string!("__rb_read_line"),
            0,
            NativeFunction::from_fn_ptr(read_line),
        ),
        (
            js_string!("__rb_send"),
            2,
            NativeFunction::from_fn_ptr(send),
        ),
        (
            js_string!("__rb_write"),
            2,
            NativeFunction::from_fn_ptr(write),
        ),
        (
            js_string!("__rb_stdin"),
            0,
            NativeFunction::from_fn_ptr(stdin),
        ),
        (
            js_string!("__rb_exit"),
            1,
            NativeFunction::from_fn_ptr(exit),
        ),
        (
            js_string!("__rb_sleep"),
            1,
            NativeFunction::from_fn_ptr(sleep),
        ),
        (js_string!("__rb_now"), 0, NativeFunction::from_fn_ptr(now)),
        (
            js_string!("__rb_source"),
            1,
            NativeFunction::from_fn_ptr(source),
        ),
        (
            js_string!("__rb_digest"),
            2,
            NativeFunction::from_fn_ptr(digest::digest),
        ),
        (
            js_string!("__rb_stdin_bytes"),
            0,
            NativeFunction::from_fn_ptr(bytes::stdin_bytes),
        ),
        (
            js_string!("__rb_utf8_decode"),
            3,
            NativeFunction::from_fn_ptr(bytes::utf8_decode),
        ),
        (
            js_string!("__rb_utf8_encode"),
            1,
            NativeFunction::from_fn_ptr(bytes::utf8_encode),
        ),
        (
            js_string!("__rb_utf16"),
            1,
            NativeFunction::from_fn_ptr(bytes::utf16),
        ),
    ];
    for (name, length, function) in natives {
        context
            .register_global_builtin_callable(name, length, function)
            .map_err(|e| format!("rewardbox: setting up the JavaScript runner: {e}"))?;
    }
    context
        .eval(Source::from_bytes(PRELUDE))
        .map_err(|e| format!("rewardbox: the JavaScript prelude failed: {e}"))?;
    context
        .eval(Source::from_bytes(WIRE))
        .map_err(|e| format!("rewardbox: the JavaScript wire failed: {e}"))?;
    Ok(context)
}

/// An uncaught exception as Node.js prints it: `Uncaught TypeError: ...`.
fn uncaught(error: boa_engine::JsError, context: &mut Context) -> String {
    // process.exit's error (and the engine's runtime limits) have no JavaScript value to show.
    if let Some(engine) = error.as_engine() {
        return match engine {
            EngineError::Panic(panic) => panic.message().to_string(),
            other => other.to_string(),
        };
    }
    let shown = error.to_string();
    let value = match error.into_opaque(context) {
        Ok(value) => value,
        Err(error) => return error.to_string(),
    };
    if let Some(object) = value.as_object() {
        let stack = object
            .get(js_string!("stack"), context)
            .ok()
            .filter(|s| s.is_string())
            .and_then(|s| text(&s, context).ok());
        let shown = value
            .to_string(context)
            .ok()
            .map(|s| s.to_std_string_escaped());
        if let Some(shown) = shown.or(stack) {
            return shown;
        }
    }
    text(&value, context).unwrap_or(shown)
}

/// Runs the program, then what it waits for as Node's event loop would: immediates and timers
/// due at once, stdin events, then timers that need time to pass; promise jobs after each.
/// An ES module ends the same way, its evaluation's error uncaught; one whose top-level `await`
/// is never settled ends with Node's warning and exit code 13.
fn execute(program: &Program, context: &mut Context) -> Result<(), String> {
    let steps = |context: &mut Context| -> JsResult<()> {
        let module = if program.es_module {
            Some(modules::Running::start(&program.code, context)?)
        } else {
            context.eval(Source::from_bytes(program.code.as_bytes()))?;
            None
        };
        // After each task: a module whose evaluation threw ends the program there.
        let settled = |context: &mut Context| -> JsResult<()> {
            settle(context)?;
            module.as_ref().map_or(Ok(()), modules::Running::failed)
        };
        settled(context)?;
        drain(context, "__rb_next_due()", &settled)?;
        context.eval(Source::from_bytes("__rb_stdin_events()"))?;
        settled(context)?;
        drain(context, "__rb_next_task(Infinity)", &settled)?;
        if module.as_ref().is_some_and(modules::Running::unsettled) {
            ERR.with(|b| {
                b.borrow_mut()
                    .extend_from_slice(b"Warning: Detected unsettled top-level await\n")
            });
            EXIT.with(|exit| exit.set(Some(13)));
            return Ok(());
        }
        context
            .eval(Source::from_bytes("__rb_finish()"))
            .map(|_| ())
    };
    steps(context).map_err(|e| uncaught(e, context))
}

/// Sets up the wire of a test run ([`WIRE`]) in a fresh context, before the program's own code
/// (which could change what it captures: `JSON`, `Object`, `eval`).
fn with_wire(context: &mut Context) -> Result<(), String> {
    context
        .eval(Source::from_bytes("__rb_wire()"))
        .map(|_| ())
        .map_err(|e| format!("rewardbox: the JavaScript wire failed: {e}"))
}

/// Sets up the test framework a trusted program's first line names ([`TEST_FRAMEWORK`]), before
/// its test file runs: its globals, and the modules the file imports (the candidate's module of
/// stubs, `node:test`, `@jest/globals`).
fn with_test_framework(program: &Program, context: &mut Context) -> Result<(), String> {
    let Some(rest) = program.code.strip_prefix(TEST_FRAMEWORK) else {
        return Ok(());
    };
    let form = rest.lines().next().unwrap_or("{}");
    let setup = format!(
        "__rb_test_framework(JSON.parse({}), {}, {{ require: globalThis.require, send: __rb_send, \
         remote: __rb_remote, remoteStatic: __rb_static, remoteExports: __rb_exported, isRemote: __rb_is_remote, resolveModules: __rb_resolve_modules, wireHooks: __rb_wire_hooks }})",
        literal(form),
        literal(&program.code),
    );
    context
        .eval(Source::from_bytes(&setup))
        .map(|_| ())
        .map_err(|e| format!("rewardbox: the JavaScript test framework failed: {e}"))
}

/// Evaluates a program whose functions are then called, and what its evaluation queued. An ES
/// module's functions are found in its scope (`__rb_module_scope(name)`, a line after the
/// program's own that looks a name up there) or among its exports (`__rb_exports`).
fn evaluate_for_calls(program: &Program, context: &mut Context) -> JsResult<()> {
    if !program.es_module {
        context.eval(Source::from_bytes(program.code.as_bytes()))?;
        return settle(context);
    }
    let code = format!(
        "{}\n;globalThis.__rb_module_scope = (__rb_name) => eval(__rb_name);\n",
        program.code
    );
    let module = modules::Running::start(&code, context)?;
    settle(context)?;
    module.failed()?;
    let exports = module.namespace(context);
    context.register_global_property(
        js_string!("__rb_exports"),
        exports,
        boa_engine::property::Attribute::all(),
    )
}

/// Runs a live candidate's program, then answers the test program's calls until they end.
fn serve(program: &Program, context: &mut Context) -> Result<(), String> {
    let steps = |context: &mut Context| -> JsResult<()> {
        evaluate_for_calls(program, context)?;
        context.eval(Source::from_bytes("__rb_serve()"))?;
        Ok(())
    };
    steps(context).map_err(|e| uncaught(e, context))
}

/// Evaluates `next` (one task of the event loop, true if it ran one) and what it queued, until
/// it runs none.
fn drain(
    context: &mut Context,
    next: &str,
    settled: &dyn Fn(&mut Context) -> JsResult<()>,
) -> JsResult<()> {
    loop {
        let ran = context.eval(Source::from_bytes(next))?;
        settled(context)?;
        if !ran.to_boolean() {
            return Ok(());
        }
    }
}

/// Runs what a task left behind, as Node does: `process.nextTick` callbacks, then promise jobs,
/// again until neither queue holds anything.
fn settle(context: &mut Context) -> JsResult<()> {
    loop {
        let ticked = context
            .eval(Source::from_bytes("__rb_ticks()"))?
            .to_boolean();
        run_jobs(context)?;
        if !ticked
            && !context
                .eval(Source::from_bytes("__rb_ticks_pending()"))?
                .to_boolean()
        {
            return Ok(());
        }
    }
}

/// How a run ended: `process.exit`'s code if the program called it, else 0, or 1 after an
/// uncaught exception (printed as Node prints it).
fn outcome(result: Result<(), String>) -> RunOutcome {
    let code = match (EXIT.with(Cell::get), result) {
        (Some(code), _) => code,
        (None, Ok(())) => 0,
        (None, Err(message)) => {
            ERR.with(|b| {
                b.borrow_mut()
                    .extend_from_slice(format!("Uncaught {message}\n").as_bytes())
            });
            1
        }
    };
    RunOutcome {
        status: if code == 0 {
            RunStatus::Ok
        } else {
            RunStatus::ExitedNonzero
        },
        exit_code: Some(code),
        stdout: String::new(),
        stderr: String::new(),
        fuel_used: 0,
    }
}

/// A program that never started: Node's `SyntaxError` on stderr, exit code 1.
fn refused(syntax_error: String) -> RunOutcome {
    ERR.with(|b| {
        b.borrow_mut()
            .extend_from_slice(format!("{syntax_error}\n").as_bytes())
    });
    flush();
    RunOutcome {
        status: RunStatus::ExitedNonzero,
        exit_code: Some(1),
        stdout: String::new(),
        stderr: String::new(),
        fuel_used: 0,
    }
}

/// `text` as a JavaScript string literal.
fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

struct Runner;

impl Guest for Runner {
    fn run(source: String) -> RunOutcome {
        let (program, test_run) = if let Some(program) = source.strip_prefix(SERVE_MARKER) {
            (program, Some(true))
        } else if let Some(program) = source.strip_prefix(TEST_MARKER) {
            (program, Some(false))
        } else {
            (source.as_str(), None)
        };
        let program = match javascript(program) {
            Ok(program) => program,
            Err(syntax_error) => return refused(syntax_error),
        };
        let result = context().and_then(|mut c| match test_run {
            Some(serving) => {
                with_wire(&mut c)?;
                SERVING.with(|s| s.set(serving));
                if serving {
                    serve(&program, &mut c)
                } else {
                    with_test_framework(&program, &mut c)?;
                    execute(&program, &mut c)
                }
            }
            None => execute(&program, &mut c),
        });
        let outcome = outcome(result);
        flush();
        outcome
    }

    fn call(source: String, entry: String, args_json: Vec<String>) -> Vec<Result<String, String>> {
        let failed = |message: String| vec![Err(message); args_json.len()];
        if !is_identifier(&entry) {
            return failed(format!(
                "the entry point {entry:?} is not a JavaScript identifier"
            ));
        }
        let program = match javascript(&source) {
            Ok(program) => program,
            Err(syntax_error) => return failed(syntax_error),
        };
        let mut context = match context() {
            Ok(context) => context,
            Err(message) => return failed(message),
        };
        let evaluated = evaluate_for_calls(&program, &mut context);
        if let Err(message) = evaluated.map_err(|e| uncaught(e, &mut context)) {
            flush();
            return match EXIT.with(Cell::get) {
                Some(code) => failed(format!("the program exited with code {code}")),
                None => failed(format!("Uncaught {message}")),
            };
        }
        // A function declared at the top level, or exported through `module.exports`; an ES
        // module's export, or a function declared in its scope.
        let lookup = if program.es_module {
            format!(
                "(__rb_exports[{0}] !== undefined ? __rb_exports[{0}] : (() => {{ try {{ return __rb_module_scope({0}); }} catch (e) {{ return undefined; }} }})())",
                literal(&entry)
            )
        } else {
            format!(
                "(typeof {entry} !== 'undefined') ? {entry} : (typeof module.exports === 'function' ? module.exports : module.exports[{}])",
                literal(&entry)
            )
        };
        let results = args_json
            .iter()
            .map(|args| {
                let call = format!("__rb_call(({lookup}), {})", literal(args));
                let result = context
                    .eval(Source::from_bytes(&call))
                    .and_then(|v| text(&v, &mut context).map(Some))
                    .map_err(|e| uncaught(e, &mut context));
                match result {
                    Ok(Some(json)) => Ok(json),
                    Ok(None) => Err("no result".to_string()),
                    Err(message) => match message.find("not_json:") {
                        Some(at) => Err(message[at..].to_string()),
                        None => Err(message),
                    },
                }
            })
            .collect();
        flush();
        results
    }

    fn prepare_engine() {
        // A prelude that fails is reported by the first run, which then sets up its own.
        let Ok(mut context) = new_context() else {
            return;
        };
        // Node's modules too (the prelude's `__rb_prepare`): a run without them loads each when
        // first required.
        if context.eval(Source::from_bytes("__rb_prepare()")).is_ok() {
            PREPARED.with(|prepared| *prepared.borrow_mut() = Some(context));
        }
    }

    fn load(_: String, _: String) -> Result<Vec<Member>, CallError> {
        Err(CallError::Invalid(
            "a JavaScript candidate cannot be held live: only Python candidates can".to_string(),
        ))
    }

    fn invoke(_: Target, _: String, _: String) -> Result<String, CallError> {
        Err(CallError::Invalid(
            "no live JavaScript candidate".to_string(),
        ))
    }

    fn inspect(_: Target) -> Result<String, CallError> {
        Err(CallError::Invalid(
            "no live JavaScript candidate".to_string(),
        ))
    }
}

export!(Runner);
