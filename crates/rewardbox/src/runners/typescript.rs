//! TypeScript, as Node.js runs a `.ts` file: the JavaScript runner strips the program's types
//! in its sandbox (`crates/rewardbox-ts-strip`), then runs it as JavaScript. This runtime only marks the
//! program ([`rewardbox_languages::typescript`]); the runner, its limits and its refusals are JavaScript's.

use crate::runners::bindings::types::RunOutcome;
use crate::runners::javascript::JavaScriptRunner;
use crate::runners::runtime::Runtime;
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::limits::Limits;
use std::sync::Arc;
use wasmtime::Engine;

/// The TypeScript runtime: the JavaScript runner, given programs marked as TypeScript.
pub struct TypeScriptRunner {
    javascript: Arc<JavaScriptRunner>,
}

impl TypeScriptRunner {
    /// TypeScript on `javascript`.
    pub fn new(javascript: Arc<JavaScriptRunner>) -> TypeScriptRunner {
        TypeScriptRunner { javascript }
    }
}

impl Runtime for TypeScriptRunner {
    /// Standard input only, as JavaScript (a test run's programs talk through the pipe).
    fn run_with(
        &self,
        engine: &Engine,
        source: &str,
        io: JobIo<'_>,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        let marked = rewardbox_languages::typescript::mark(source);
        self.javascript.run_with(engine, &marked, io, limits, seed)
    }

    /// A program whose types cannot be stripped fails every call with Node's `SyntaxError`.
    fn call(
        &self,
        engine: &Engine,
        source: &str,
        entry: &str,
        args_json: &[String],
        limits: &Limits,
        seed: u64,
    ) -> Vec<Result<String, RunOutcome>> {
        let marked = rewardbox_languages::typescript::mark(source);
        self.javascript
            .call(engine, &marked, entry, args_json, limits, seed)
    }
}
