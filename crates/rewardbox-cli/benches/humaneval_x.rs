//! HumanEval-X (C++, Rust, JavaScript, Go) graded by its own test code in a trusted program calling the live
//! candidate, beside the workaround a task author has without it: the test pasted into the
//! candidate's program and run as one stdio program (passes when it exits 0 with no output;
//! the candidate then holds the tests and can end the run as passed). Same problems, same
//! samples (each problem's canonical solution and a `return <default>`), same run, 2 cores.
//!
//! Each way is measured twice: cold (a fresh compile cache: every program compiled; the
//! compilers' libraries, zig's libc++ and the Rust crates, are built before the clock starts) and
//! warm (a new scorer on the same cache: programs loaded from disk, turned into native code, run).
//!
//! Run: `cargo bench --bench humaneval_x` (`REWARDBOX_HUMANEVAL_X_PROBLEMS=40` takes the first
//! 40 problems of each language; `REWARDBOX_HUMANEVAL_X_LANGUAGES=js` measures only JavaScript).

use rewardbox_testkit::humaneval_x as humaneval_x_data;

use humaneval_x_data::rows;
use rewardbox::{ComponentCache, Scorer, ScorerOptions, Task, TaskResult};
use rewardbox_import::humanevalx::{Problem, problem};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn default_completion(language: &str, declaration: &str) -> String {
    match language {
        "cpp" => "    return {};\n}\n".into(),
        "javascript" => "  return;\n}\n".into(),
        "go" => humaneval_x_data::go_default_completion(declaration),
        _ => "    return Default::default();\n}\n".into(),
    }
}

/// The quoted import paths of a Go import declaration.
fn go_import_paths(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// Go test code as one stdio program, as a task author would write it without testify in the
/// sandbox: `assert.New(t)` becomes a value whose `Equal` prints on a mismatch (`reflect.DeepEqual`,
/// testify's comparison), and `main` calls each test function.
fn go_test_as_main(row: &Value, completion: &str) -> String {
    let field = |name: &str| row[name].as_str().unwrap_or("");
    let mut paths: Vec<String> = go_import_paths(field("test_setup"))
        .into_iter()
        .chain(go_import_paths(field("import")))
        .filter(|p| p != "testing" && !p.contains("testify"))
        .chain(["reflect".to_string(), "fmt".to_string()])
        .collect();
    paths.sort();
    paths.dedup();
    let imports: String = paths.iter().map(|p| format!("\t\"{p}\"\n")).collect();
    let test = field("test")
        .replace("*testing.T", "*rewardboxT")
        .replace("assert.New(t)", "rewardboxAssert{}");
    let tests: String = test
        .lines()
        .filter_map(|l| l.strip_prefix("func Test"))
        .map(|l| {
            format!(
                "\tTest{}(&rewardboxT{{}})\n",
                l.split('(').next().unwrap_or("")
            )
        })
        .collect();
    format!(
        "package main\n\nimport (\n{imports})\n\ntype rewardboxT struct{{}}\ntype rewardboxAssert struct{{}}\n\nfunc (rewardboxAssert) Equal(expected, actual interface{{}}, _ ...interface{{}}) bool {{\n\tif !reflect.DeepEqual(expected, actual) {{\n\t\tfmt.Println(\"not equal\")\n\t\treturn false\n\t}}\n\treturn true\n}}\n\n{}{completion}\n{test}\nfunc main() {{\n{tests}}}\n",
        field("prompt").replace(field("import"), "")
    )
}

/// Rust test code as one program's `main`: `#[cfg(test)]` dropped, the test functions public
/// and called in order.
fn rust_test_as_main(test: &str) -> String {
    let mut names = Vec::new();
    let mut rest = test;
    while let Some(at) = rest.find("#[test]") {
        rest = &rest[at + 7..];
        if let Some(fn_at) = rest.find("fn ") {
            let name: String = rest[fn_at + 3..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            names.push(name);
        }
    }
    let calls: String = names.iter().map(|n| format!("tests::{n}(); ")).collect();
    format!(
        "{}\nfn main() {{ {calls}}}\n",
        test.replace("#[cfg(test)]", "").replace("#[test]", "pub")
    )
}

/// The stdio-driver task: the test in the candidate's program, one run per sample.
fn stdio_task(problem: &Problem, row: &Value, completions: &[&str]) -> Value {
    let test = row["test"].as_str().unwrap();
    if problem.language == "go" {
        let programs: Vec<String> = completions
            .iter()
            .map(|c| go_test_as_main(row, c))
            .collect();
        return json!({
            "id": problem.task_id, "verifier": "code", "language": "go",
            "extract": "whole", "scoring": "all",
            "candidate_limits": {"wall_ms": problem.time_limit_ms},
            "tests": {"stdio": [{"stdin": "", "stdout": ""}]},
            "completions": programs,
        });
    }
    let driver = match problem.language {
        "cpp" => test.to_string(),
        // Node prints a failed console.assert to stderr, which stdio tests do not read: the
        // workaround makes it print to stdout.
        "javascript" => format!(
            "console.assert = (ok) => {{ if (!ok) console.log('Assertion failed'); }};\n{test}"
        ),
        _ => rust_test_as_main(test),
    };
    let programs: Vec<String> = completions
        .iter()
        .map(|c| format!("{}{c}\n{driver}", problem.program_prefix))
        .collect();
    json!({
        "id": problem.task_id, "verifier": "code", "language": problem.language,
        "extract": "whole", "scoring": "all",
        "candidate_limits": {"wall_ms": problem.time_limit_ms},
        "tests": {"stdio": [{"stdin": "", "stdout": ""}]},
        "completions": programs,
    })
}

fn scorer(cache: &Path) -> Scorer {
    Scorer::new(ScorerOptions {
        threads: Some(2),
        cache: ComponentCache::in_dir(cache),
        ..ScorerOptions::default()
    })
    .expect("the scorer builds")
}

fn run(cache: &Path, tasks: &[Task]) -> (f64, Vec<TaskResult>) {
    let scorer = scorer(cache);
    let started = Instant::now();
    let results = scorer.score_tasks(tasks);
    (started.elapsed().as_secs_f64(), results)
}

/// Builds the language's libraries into `cache` (one program of its own, outside the measure).
fn build_libraries(cache: &Path, language: &str) {
    let program = match language {
        "cpp" => "#include <bits/stdc++.h>\nint main(){std::cout<<1;}\n",
        "javascript" => "console.log(1)\n",
        "go" => "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Print(1) }\n",
        _ => {
            "use rand::Rng;\nfn main(){ let x: u8 = rand::thread_rng().gen(); print!(\"{}\", x / 255); }\n"
        }
    };
    let task = json!({
        "id": "libraries", "verifier": "code", "language": language, "extract": "whole",
        "tests": {"stdio": [{"stdin": "", "stdout": "1"}]}, "completions": [program],
    });
    run(cache, &[Task::from_value(task).unwrap()]);
}

fn passed(results: &[TaskResult]) -> (usize, usize) {
    let all: Vec<bool> = results
        .iter()
        .filter(|r| r.status.is_none())
        .flat_map(|r| r.results.iter().map(|c| c.passed))
        .collect();
    (all.iter().filter(|p| **p).count(), all.len())
}

fn main() {
    let limit: usize = std::env::var("REWARDBOX_HUMANEVAL_X_PROBLEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(164);
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("humaneval-x-bench");
    println!(
        "HumanEval-X: the benchmark's test code against the live candidate, beside the stdio driver"
    );
    println!(
        "| language | way | samples | passed | cold s | cold samples/s | warm s | warm samples/s |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    // `REWARDBOX_HUMANEVAL_X_LANGUAGES=js` (or `cpp,rust`) measures only those files.
    let only = std::env::var("REWARDBOX_HUMANEVAL_X_LANGUAGES").ok();
    for (file, language) in [
        ("cpp", "cpp"),
        ("rust", "rust"),
        ("js", "javascript"),
        ("go", "go"),
    ] {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|l| l == file))
        {
            continue;
        }
        let raw = rows(file);
        let mut test_code = Vec::new();
        let mut stdio = Vec::new();
        for row in raw.iter().take(limit) {
            let Ok(p) = problem(row.as_object().unwrap()) else {
                continue;
            };
            let default = default_completion(language, row["declaration"].as_str().unwrap());
            let completions = [p.canonical_solution.as_str(), default.as_str()];
            test_code.push(Task::from_value(p.task(&completions)).unwrap());
            stdio.push(Task::from_value(stdio_task(&p, row, &completions)).unwrap());
        }
        for (way, tasks) in [
            ("test code, live candidate", &test_code),
            ("stdio driver", &stdio),
        ] {
            let cache = root.join(format!("{language}-{}", way.len()));
            let _ = std::fs::remove_dir_all(&cache);
            build_libraries(&cache, language);
            let (cold, results) = run(&cache, tasks);
            let (warm, _) = run(&cache, tasks);
            let (ok, samples) = passed(&results);
            println!(
                "| {language} | {way} | {samples} | {ok} | {cold:.1} | {:.1} | {warm:.1} | {:.1} |",
                samples as f64 / cold,
                samples as f64 / warm
            );
        }
    }
}
