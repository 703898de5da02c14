//! `call` tests in C, C++, Rust, Go, JavaScript and TypeScript (typed calls: the arguments cross
//! the wire to the candidate's server, the answers come back typed and are compared on the
//! verifier's side; a JavaScript or TypeScript candidate is called live in its own runner),
//! beside the workaround a task author has without them: a driver `main` pasted after the
//! candidate's function, printing each call's result, graded as one stdio program (the
//! candidate then holds the driver and can print what it likes).
//!
//! Same functions, same calls: each sample is a distinct program (so each compiles), 10 calls
//! each. Measured cold (a fresh compile cache; the compilers' libraries built before the clock
//! starts) and warm (a new scorer on the same cache), 2 threads. JavaScript and TypeScript
//! compile nothing (cold and warm differ only by the runner's first instances), so they take 20
//! times the samples.
//!
//! JavaScript and TypeScript are also measured with the expected values written with a tag of
//! value JSON, which takes the wire that carries values beyond JSON (one run serving every call)
//! instead of the runner's JSON calls.
//!
//! Run: `cargo bench --bench typed_calls` (`REWARDBOX_TYPED_CALLS_SAMPLES=40` per language,
//! default 20; `REWARDBOX_TYPED_CALLS_LANGUAGES=go,typescript` measures only those).

use rewardbox::{ComponentCache, Scorer, ScorerOptions, Task, TaskResult};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One call: a vector and a factor.
type Call = (Vec<i64>, i64);

/// The calls.
fn calls() -> Vec<Call> {
    (0..10)
        .map(|i| ((0..i).map(|j| j * 7 - 20).collect(), i - 4))
        .collect()
}

/// What `scale` returns on `xs`, `k` in sample `sample`.
fn scaled(xs: &[i64], k: i64, sample: i64) -> Vec<i64> {
    xs.iter().map(|x| x * k + sample).collect()
}

struct Language {
    name: &'static str,
    entry: &'static str,
    declaration: &'static str,
    /// The function's body for a sample, closing the function.
    body: fn(i64) -> String,
    /// The driver `main` printing each call's result on a line.
    driver: fn(&[Call]) -> String,
    /// Samples per sample asked for: a script compiles nothing, and 20 of them take a tenth of
    /// a second, too short to time.
    scale: i64,
}

fn list(xs: &[i64]) -> String {
    xs.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

fn languages() -> Vec<Language> {
    vec![
        Language {
            name: "c",
            entry: "scale",
            declaration: "#include <stdio.h>\n#include <stdlib.h>\nlong long* scale(long long* xs, int xsSize, long long k, int* returnSize) {\n",
            body: |s| {
                format!(
                    "    for (int i = 0; i < xsSize; i++) xs[i] = xs[i] * k + {s};\n    *returnSize = xsSize;\n    return xs;\n}}\n"
                )
            },
            driver: |calls| {
                let lines: String = calls
                    .iter()
                    .map(|(xs, k)| {
                        // C has no empty initialiser before C23: an empty list is one unused 0.
                        let items = if xs.is_empty() { "0".into() } else { list(xs) };
                        format!(
                            "    {{ long long a[] = {{{items}}}; int n = 0; long long* r = scale(a, {}, {k}, &n); for (int i = 0; i < n; i++) printf(\"%lld \", r[i]); puts(\"\"); }}\n",
                            xs.len()
                        )
                    })
                    .collect();
                format!("int main(void) {{\n{lines}}}\n")
            },
            scale: 1,
        },
        Language {
            name: "cpp",
            entry: "scale",
            declaration: "#include <cstdio>\n#include <vector>\nusing namespace std;\nvector<long long> scale(vector<long long> xs, long long k) {\n",
            body: |s| format!("    for (auto& x : xs) x = x * k + {s};\n    return xs;\n}}\n"),
            driver: |calls| {
                let lines: String = calls
                    .iter()
                    .map(|(xs, k)| {
                        format!(
                            "    {{ auto r = scale({{{}}}, {k}); for (auto v : r) printf(\"%lld \", v); puts(\"\"); }}\n",
                            list(xs)
                        )
                    })
                    .collect();
                format!("int main() {{\n{lines}}}\n")
            },
            scale: 1,
        },
        Language {
            name: "rust",
            entry: "scale",
            declaration: "fn scale(xs: Vec<i64>, k: i64) -> Vec<i64> {\n",
            body: |s| format!("    xs.iter().map(|x| x * k + {s}).collect()\n}}\n"),
            driver: |calls| {
                let lines: String = calls
                    .iter()
                    .map(|(xs, k)| {
                        format!(
                            "    println!(\"{{}}\", scale(vec![{}], {k}).iter().map(|v| v.to_string()).collect::<Vec<_>>().join(\" \"));\n",
                            list(xs)
                        )
                    })
                    .collect();
                format!("fn main() {{\n{lines}}}\n")
            },
            scale: 1,
        },
        Language {
            name: "go",
            entry: "Scale",
            declaration: "package main\n\nimport \"fmt\"\n\nfunc Scale(xs []int, k int) []int {\n",
            body: |s| {
                format!(
                    "\tout := make([]int, len(xs))\n\tfor i, x := range xs {{\n\t\tout[i] = x*k + {s}\n\t}}\n\treturn out\n}}\n"
                )
            },
            driver: |calls| {
                let lines: String = calls
                    .iter()
                    .map(|(xs, k)| {
                        format!(
                            "\tfor _, v := range Scale([]int{{{}}}, {k}) {{\n\t\tfmt.Print(v, \" \")\n\t}}\n\tfmt.Println()\n",
                            list(xs)
                        )
                    })
                    .collect();
                format!("func main() {{\n{lines}}}\n")
            },
            scale: 1,
        },
        Language {
            name: "javascript",
            entry: "scale",
            declaration: "function scale(xs, k) {\n",
            body: |s| format!("    return xs.map(x => x * k + {s});\n}}\n"),
            driver: script_driver,
            scale: 20,
        },
        Language {
            name: "typescript",
            entry: "scale",
            declaration: "function scale(xs: number[], k: number): number[] {\n",
            body: |s| format!("    return xs.map((x: number): number => x * k + {s});\n}}\n"),
            driver: script_driver,
            scale: 20,
        },
    ]
}

/// JavaScript's and TypeScript's driver: a line printing each call's result.
fn script_driver(calls: &[Call]) -> String {
    calls
        .iter()
        .map(|(xs, k)| format!("console.log(scale([{}], {k}).join(\" \"));\n", list(xs)))
        .collect()
}

/// The typed-call task of sample `s`: its program and a wrong one. `tagged`: each expected list
/// written as value JSON's `{"$t": [...]}`, which sends a JavaScript task's calls over the wire
/// that carries values beyond JSON (the same array to JavaScript).
fn call_task(language: &Language, s: i64, tagged: bool) -> Value {
    let program = format!("{}{}", language.declaration, (language.body)(s));
    let wrong = format!("{}{}", language.declaration, (language.body)(s + 1));
    let cases: Vec<Value> = calls()
        .iter()
        .map(|(xs, k)| {
            let expected = json!(scaled(xs, *k, s));
            let expected = if tagged {
                json!({"$t": expected})
            } else {
                expected
            };
            json!({"args": [xs, k], "expected": expected})
        })
        .collect();
    json!({
        "id": format!("{}-{s}", language.name), "verifier": "code", "language": language.name,
        "extract": "whole",
        "tests": {"call": {"entry_point": language.entry, "cases": cases}, "declaration": language.declaration},
        "completions": [program, wrong],
    })
}

/// The stdio-driver task of sample `s`: the same programs with the driver pasted after them.
fn stdio_task(language: &Language, s: i64) -> Value {
    let calls = calls();
    let driver = (language.driver)(&calls);
    let program = format!("{}{}{driver}", language.declaration, (language.body)(s));
    let wrong = format!("{}{}{driver}", language.declaration, (language.body)(s + 1));
    let stdout: String = calls
        .iter()
        .map(|(xs, k)| format!("{}\n", list(&scaled(xs, *k, s)).replace(',', "")))
        .collect();
    json!({
        "id": format!("{}-{s}", language.name), "verifier": "code", "language": language.name,
        "extract": "whole",
        "tests": {"stdio": [{"stdin": "", "stdout": stdout}]},
        "completions": [program, wrong],
    })
}

fn run(cache: &Path, tasks: &[Task]) -> (f64, Vec<TaskResult>) {
    let scorer = Scorer::new(ScorerOptions {
        threads: Some(2),
        cache: ComponentCache::in_dir(cache),
        ..ScorerOptions::default()
    })
    .expect("the scorer builds");
    let started = Instant::now();
    let results = scorer.score_tasks(tasks);
    (started.elapsed().as_secs_f64(), results)
}

/// Passed samples and all samples; panics on a result other than the expected one (the right
/// program passes, the wrong one fails), so that a broken way is never timed as a fast one.
fn check(results: &[TaskResult]) -> usize {
    for r in results {
        assert_eq!(r.results.len(), 2, "{r:?}");
        assert!(r.results[0].passed, "{r:?}");
        assert!(!r.results[1].passed, "{r:?}");
    }
    results.len() * 2
}

fn main() {
    let samples: i64 = std::env::var("REWARDBOX_TYPED_CALLS_SAMPLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let only = std::env::var("REWARDBOX_TYPED_CALLS_LANGUAGES").ok();
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("typed-calls-bench");
    println!("Typed call tests beside the stdio driver (10 calls per sample; samples/s)");
    println!("| language | way | samples | cold s | cold samples/s | warm s | warm samples/s |");
    println!("|---|---|---|---|---|---|---|");
    for language in languages() {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|l| l == language.name))
        {
            continue;
        }
        let samples = samples * language.scale;
        let typed: Vec<Task> = (0..samples / 2)
            .map(|s| Task::from_value(call_task(&language, s, false)).unwrap())
            .collect();
        let stdio: Vec<Task> = (0..samples / 2)
            .map(|s| Task::from_value(stdio_task(&language, s)).unwrap())
            .collect();
        let mut ways = vec![("typed calls", typed), ("stdio driver", stdio)];
        if language.scale > 1 {
            let tagged = (0..samples / 2)
                .map(|s| Task::from_value(call_task(&language, s, true)).unwrap())
                .collect();
            ways.insert(1, ("calls, tagged values", tagged));
        }
        for (way, tasks) in &ways {
            let cache = root.join(format!("{}-{}", language.name, way.len()));
            let _ = std::fs::remove_dir_all(&cache);
            // The compilers' libraries, outside the measure: one program of the language.
            run(&cache, &tasks[..1]);
            let (cold, results) = run(&cache, &tasks[1..]);
            let (warm, _) = run(&cache, &tasks[1..]);
            let n = check(&results);
            println!(
                "| {} | {way} | {n} | {cold:.1} | {:.1} | {warm:.1} | {:.1} |",
                language.name,
                n as f64 / cold,
                n as f64 / warm
            );
        }
    }
}
