//! rewardbox's JavaScript runner: the Boa engine as a component of the `runner` world. `run`
//! executes a Node.js-style program on stdin (`console.log`, `process.stdout.write`,
//! `require('fs').readFileSync(0)`, `require('readline')`, `process.stdin.on('data')`);
//! `call` executes it once and calls a function on JSON arguments. The host captures stdout and
//! stderr and enforces every limit; a fresh instance serves each run.

// The bindings wit-bindgen generates for the `runner` world take many arguments.
#![allow(clippy::too_many_arguments)]

use boa_engine::{Context, JsResult, JsString, JsValue, NativeFunction, Source, js_string};
use std::cell::RefCell;
use std::io::{Read, Write};

wit_bindgen::generate!({ path: "../../wit", world: "runner" });

use rewardbox::core::types::RunStatus;

/// Node.js's surroundings, in JavaScript.
const PRELUDE: &str = include_str!("prelude.js");

/// Output kept before it is written: flushed at 64 KiB, at the end and at exit.
const FLUSH_BYTES: usize = 64 << 10;

thread_local! {
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static ERR: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
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

/// `__rb_write(fd, text)`: fd 2 is stderr, anything else stdout.
fn write(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let fd = args.first().and_then(JsValue::as_number).unwrap_or(1.0);
    let text = match args.get(1) {
        Some(v) => text(v, context)?,
        None => String::new(),
    };
    let buffer = if fd == 2.0 { &ERR } else { &OUT };
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

/// `__rb_stdin()`: the whole of standard input.
fn stdin(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let mut bytes = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut bytes);
    Ok(JsValue::from(JsString::from(
        String::from_utf8_lossy(&bytes).as_ref(),
    )))
}

/// `__rb_exit(code)`: ends the program with `code`.
fn exit(_: &JsValue, args: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let code = args.first().and_then(JsValue::as_number).unwrap_or(0.0) as i32;
    flush();
    std::process::exit(code)
}

/// A context with Node.js's surroundings.
fn context() -> Result<Context, String> {
    let mut context = Context::default();
    let natives: [(JsString, usize, NativeFunction); 3] = [
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
    ];
    for (name, length, function) in natives {
        context
            .register_global_builtin_callable(name, length, function)
            .map_err(|e| format!("rewardbox: setting up the JavaScript runner: {e}"))?;
    }
    context
        .eval(Source::from_bytes(PRELUDE))
        .map_err(|e| format!("rewardbox: the JavaScript prelude failed: {e}"))?;
    Ok(context)
}

/// An uncaught exception as Node.js prints it: `Uncaught TypeError: ...`.
fn uncaught(error: boa_engine::JsError, context: &mut Context) -> String {
    let value = error.to_opaque(context);
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
    text(&value, context).unwrap_or_else(|_| error.to_string())
}

/// Runs the program, then what it waits for (timers, stdin events, promises).
fn execute(source: &str, context: &mut Context) -> Result<(), String> {
    let steps = |context: &mut Context| -> JsResult<()> {
        context.eval(Source::from_bytes(source))?;
        context.run_jobs()?;
        context.eval(Source::from_bytes("__rb_after_main()"))?;
        context.run_jobs()?;
        Ok(())
    };
    steps(context).map_err(|e| uncaught(e, context))
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
        let outcome = match context().and_then(|mut c| execute(&source, &mut c)) {
            Ok(()) => RunOutcome {
                status: RunStatus::Ok,
                exit_code: Some(0),
                stdout: String::new(),
                stderr: String::new(),
                fuel_used: 0,
            },
            Err(message) => {
                ERR.with(|b| {
                    b.borrow_mut()
                        .extend_from_slice(format!("Uncaught {message}\n").as_bytes())
                });
                RunOutcome {
                    status: RunStatus::ExitedNonzero,
                    exit_code: Some(1),
                    stdout: String::new(),
                    stderr: String::new(),
                    fuel_used: 0,
                }
            }
        };
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
        let mut context = match context() {
            Ok(context) => context,
            Err(message) => return failed(message),
        };
        if let Err(message) = context
            .eval(Source::from_bytes(&source))
            .and_then(|_| context.run_jobs())
            .map_err(|e| uncaught(e, &mut context))
        {
            flush();
            return failed(format!("Uncaught {message}"));
        }
        // A function declared at the top level, or exported through `module.exports`.
        let lookup = format!(
            "(typeof {entry} !== 'undefined') ? {entry} : (typeof module.exports === 'function' ? module.exports : module.exports[{}])",
            literal(&entry)
        );
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
