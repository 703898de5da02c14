//! HumanEval-X (THUDM/CodeGeeX's multilingual HumanEval: `task_id`, `prompt`, `declaration`,
//! `canonical_solution`, `test`) as rewardbox `code` tasks, graded as the benchmark grades them:
//! the program is the prompt (with its declaration) followed by the completion, and it passes
//! when the benchmark's own test code, as written, runs to its end with no failed assert. The
//! test code runs in a trusted program of its own, calling the live candidate
//! (`tests.asserts` with `tests.declaration`).
//!
//! What differs from CodeGeeX's harness, and why:
//! - C++: the program gets the same standard headers CodeGeeX adds to every program (`<algorithm>`,
//!   `<climits>`, ...), so that a completion using them compiles as it does there.
//! - Rust: the declaration's `use rand::Rng; use regex::Regex; use md5;` stay as written: the
//!   crates are among those rewardbox links Rust programs with (`rand` at 0.7 where CodeGeeX's
//!   harness names 0.4, which has no entropy source on WebAssembly; the API the tests use,
//!   `gen_range(low, high)`, `thread_rng`, `random`, is the same), so the property check that
//!   draws random inputs (Rust/53) and the solutions using `regex` (Rust/91) and `md5`
//!   (Rust/162) run.
//! - Rust/10, 38 and 50's tests call a second function that the declaration does not declare and
//!   the canonical solution defines (`make_palindrome`, `encode_cyclic`, `decode_shift`): the
//!   task forwards it to the candidate too (`tests.forward`, its signature taken from the canonical
//!   solution), so the candidate must define it, as it must natively.
//! - Rust is compiled as `cargo test` compiles it: overflow checks on.
//! - A program gets the harness's time limit, 5 s (`candidate_limits.wall_ms`), as fuel at the
//!   runner's calibrated rate: JavaScript runs in an interpreter (Boa), 20-900 times slower
//!   than Node, and the default limit stops some canonical solutions (JavaScript/75's triple
//!   loop over primes).

use serde_json::{Map, Value, json};

/// The benchmark's languages rewardbox runs the test code of, by `task_id` prefix.
const LANGUAGES: [(&str, &str); 4] = [
    ("CPP", "cpp"),
    ("Rust", "rust"),
    ("JavaScript", "javascript"),
    ("Go", "go"),
];

/// Standard headers CodeGeeX's harness puts in front of every C++ program.
const CPP_HEADERS: [&str; 9] = [
    "stdlib.h",
    "algorithm",
    "math.h",
    "stdio.h",
    "vector",
    "string",
    "climits",
    "cstring",
    "iostream",
];

/// One HumanEval-X problem, ready to grade.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// `CPP/0`.
    pub task_id: String,
    /// rewardbox's language name (`cpp`, `rust`, `javascript`).
    pub language: &'static str,
    /// What the program starts with; the completion follows it.
    pub program_prefix: String,
    /// What follows the completion in the program (MultiPL-E: the `}` closing the function,
    /// which its test code opens with; HumanEval-X: nothing).
    pub program_suffix: String,
    /// The task's `tests` object.
    pub tests: Value,
    /// The benchmark's canonical solution, as a completion.
    pub canonical_solution: String,
    /// The time limit the benchmark's harness gives a program, in milliseconds: the task's
    /// `candidate_limits.wall_ms`, turned into fuel at the runner's calibrated rate.
    pub time_limit_ms: u32,
}

/// CodeGeeX's time limit for a HumanEval-X program (`scripts/evaluate_humaneval_x.sh`: 5 s).
pub const HUMANEVALX_TIME_LIMIT_MS: u32 = 5_000;

/// Why a row is not a problem rewardbox can grade.
#[derive(Debug, Clone, PartialEq)]
pub enum Unconvertible {
    /// A field is missing or not a string.
    Field(String),
    /// The language's test code is not run by rewardbox (Java, Python rows).
    Language(String),
    /// A MultiPL-E row in a language whose test code rewardbox does not run.
    MultiplELanguage(String),
}

impl std::fmt::Display for Unconvertible {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unconvertible::Field(why) => write!(f, "{why}"),
            Unconvertible::Language(prefix) => write!(
                f,
                "{prefix} problems are not graded by their test code here (rewardbox runs \
                 HumanEval-X's C++, Rust, JavaScript and Go)"
            ),
            Unconvertible::MultiplELanguage(language) => write!(
                f,
                "MultiPL-E's \"{language}\" problems are not graded by their test code here \
                 (rewardbox runs MultiPL-E's cpp, rs, js, ts and go_test.go)"
            ),
        }
    }
}

/// Whether a JSON object is a HumanEval-X row: a `task_id` with a language prefix and a
/// `declaration`.
pub fn is_humanevalx(row: &Map<String, Value>) -> bool {
    row.contains_key("declaration")
        && row
            .get("task_id")
            .and_then(Value::as_str)
            .is_some_and(|id| id.contains('/'))
}

/// The problem of one HumanEval-X row.
pub fn problem(row: &Map<String, Value>) -> Result<Problem, Unconvertible> {
    let text = |field: &str| -> Result<&str, Unconvertible> {
        row.get(field)
            .and_then(Value::as_str)
            .ok_or_else(|| Unconvertible::Field(format!("\"{field}\" must be a string")))
    };
    let task_id = text("task_id")?;
    let prefix = task_id.split('/').next().unwrap_or("");
    let language = LANGUAGES
        .iter()
        .find(|(p, _)| *p == prefix)
        .map(|(_, l)| *l)
        .ok_or_else(|| Unconvertible::Language(prefix.to_string()))?;
    let (prompt, declaration, test) = (text("prompt")?, text("declaration")?, text("test")?);
    let (program_prefix, declaration) = match language {
        "cpp" => {
            let headers: String = CPP_HEADERS
                .iter()
                .filter(|h| !prompt.contains(&format!("<{h}>")))
                .map(|h| format!("#include<{h}>\n"))
                .collect();
            (
                format!("{headers}{prompt}"),
                format!("{headers}{declaration}"),
            )
        }
        // CodeGeeX's JavaScript program is the prompt (its helpers and the entry point's
        // opening), the completion and the test.
        "javascript" => (prompt.to_string(), declaration.to_string()),
        // Go's prompt holds the imports and helpers the declaration lacks (Go/32's `Poly`).
        "go" => (prompt.to_string(), prompt.to_string()),
        _ => (format!("{declaration}{prompt}"), declaration.to_string()),
    };
    let canonical_solution = text("canonical_solution")?;
    let forward = match language {
        "rust" => rust_other_functions(declaration.as_str(), canonical_solution, test),
        _ => Vec::new(),
    };
    // Go's test code needs its file's package clause and imports (`test_setup`).
    let test = match language {
        "go" => format!("{}\n{test}", text("test_setup")?),
        _ => test.to_string(),
    };
    let mut tests = json!({"asserts": test, "declaration": declaration});
    if language == "go" {
        // CodeGeeX's harness imports the standard packages a completion uses.
        tests["add_imports"] = json!(true);
    }
    if !forward.is_empty() {
        tests["forward"] = json!(forward);
    }
    Ok(Problem {
        task_id: task_id.to_string(),
        language,
        program_prefix,
        program_suffix: String::new(),
        tests,
        canonical_solution: canonical_solution.to_string(),
        time_limit_ms: HUMANEVALX_TIME_LIMIT_MS,
    })
}

impl Problem {
    /// The rewardbox task grading `completions` (each the text after the prompt).
    pub fn task(&self, completions: &[&str]) -> Value {
        let programs: Vec<String> = completions
            .iter()
            .map(|c| format!("{}{c}{}", self.program_prefix, self.program_suffix))
            .collect();
        json!({
            "id": self.task_id,
            "verifier": "code",
            "language": self.language,
            "extract": "whole",
            "scoring": "all",
            "candidate_limits": {"wall_ms": self.time_limit_ms},
            "tests": self.tests,
            "completions": programs,
        })
    }
}

/// Signatures of the functions the test calls that the declaration does not declare and the
/// canonical solution defines at its top level (it starts inside the entry point's body).
fn rust_other_functions(declaration: &str, canonical: &str, test: &str) -> Vec<String> {
    let code = rust_code_only(canonical);
    let (declaration, test) = (rust_code_only(declaration), rust_code_only(test));
    let mut found = Vec::new();
    let mut depth = 1usize;
    let mut item_start = 0;
    let bytes = code.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'{' if depth == 0 => {
                let item = code[item_start..i].trim();
                if let Some(signature) = item.strip_prefix("pub ").or(Some(item))
                    && let Some(rest) = signature.strip_prefix("fn ")
                {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    let declared = |code: &str| code.contains(&format!("fn {name}"));
                    let called = test.match_indices(name.as_str()).any(|(at, _)| {
                        let before = test[..at].chars().next_back();
                        let after = test[at + name.len()..].trim_start().starts_with('(');
                        after && !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                    });
                    if !name.is_empty() && called && !declared(&declaration) && !declared(&test) {
                        found.push(canonical[item_start..i].trim().to_string());
                    }
                }
                depth += 1;
            }
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    item_start = i + 1;
                }
            }
            b';' if depth == 0 => item_start = i + 1,
            _ => {}
        }
    }
    found
}

/// Rust source with comments and string literals blanked (same length in bytes, so offsets hold).
fn rust_code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        let next = chars.peek().map(|(_, n)| *n);
        let (close, escapes): (&str, bool) = match (c, next) {
            ('/', Some('/')) => ("\n", false),
            ('/', Some('*')) => ("*/", false),
            ('"', _) => ("\"", true),
            _ => {
                out.push(c);
                continue;
            }
        };
        out.push(' ');
        let mut tail = String::new();
        while let Some((_, d)) = chars.next() {
            tail.push(d);
            if escapes && d == '\\' {
                if let Some((_, e)) = chars.next() {
                    tail.push(e);
                }
                continue;
            }
            if tail.len() > 1 && tail.ends_with(close) || close.len() == 1 && tail.ends_with(close)
            {
                break;
            }
        }
        // Each character blanked by as many bytes as it takes, so byte offsets hold.
        for d in tail.chars() {
            if d == '\n' {
                out.push('\n');
            } else {
                out.extend(std::iter::repeat_n(' ', d.len_utf8()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn a_cpp_row_gets_codegeex_headers_once_and_its_declaration_as_the_tests() {
        let problem = problem(&row(r##"{"task_id": "CPP/3", "prompt": "/* doc */\n#include<stdio.h>\n#include<vector>\nusing namespace std;\nbool f(vector<int> v){\n", "declaration": "#include<stdio.h>\n#include<vector>\nusing namespace std;\n#include<algorithm>\nbool f(vector<int> v){\n", "canonical_solution": "    return v.empty();\n}\n", "test": "int main(){ assert(f({})); }"}"##)).unwrap();
        assert_eq!(problem.language, "cpp");
        assert_eq!(
            problem.program_prefix.matches("#include<vector>").count(),
            1
        );
        assert!(
            problem
                .program_prefix
                .starts_with("#include<stdlib.h>\n#include<algorithm>\n")
        );
        assert!(problem.program_prefix.ends_with("bool f(vector<int> v){\n"));
        assert_eq!(problem.tests["asserts"], "int main(){ assert(f({})); }");
        let task = problem.task(&[problem.canonical_solution.as_str()]);
        assert_eq!(task["language"], "cpp");
        assert!(
            task["completions"][0]
                .as_str()
                .unwrap()
                .ends_with("    return v.empty();\n}\n")
        );
    }

    #[test]
    fn a_rust_row_keeps_its_declaration_as_written() {
        let problem = problem(&row(r##"{"task_id": "Rust/0", "prompt": "\n/* doc */\n", "declaration": "\nuse std::collections::HashMap;\nuse rand::Rng;\nuse regex::Regex;\nuse md5;\n\nfn f(x: i32) -> i32{\n", "canonical_solution": "x\n}\n", "test": "#[cfg(test)]\nmod tests {}"}"##)).unwrap();
        assert_eq!(problem.language, "rust");
        let declaration = problem.tests["declaration"].as_str().unwrap();
        assert_eq!(
            declaration,
            "\nuse std::collections::HashMap;\nuse rand::Rng;\nuse regex::Regex;\nuse md5;\n\nfn f(x: i32) -> i32{\n"
        );
        assert!(problem.program_prefix.starts_with(declaration));
    }

    #[test]
    fn a_function_the_test_calls_that_only_the_solution_defines_is_forwarded() {
        let canonical = "    // the encode_cyclic(s) inverse — «é»\n    let t = \"fn fake(\";\n    if s.len() > 1 { return String::new(); }\n    s.to_string()\n}\n\npub fn encode_cyclic(s: &str) -> String {\n    s.to_string()\n}\nfn unused_helper(x: i32) -> i32 { x }\n";
        let test = "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() { assert_eq!(decode_cyclic(&encode_cyclic(\"abc\")), \"abc\"); }\n}\n";
        let cyclic = json!({"task_id": "Rust/38", "prompt": "/* doc */\n",
            "declaration": "use std::cmp;\nfn decode_cyclic(s: &str) -> String {\n",
            "canonical_solution": canonical, "test": test});
        let problem = problem(cyclic.as_object().unwrap()).unwrap();
        assert_eq!(
            problem.tests["forward"],
            json!(["pub fn encode_cyclic(s: &str) -> String"])
        );
        let plain = json!({"task_id": "Rust/1", "prompt": "", "declaration": "fn f(x: i32) -> i32 {\n",
            "canonical_solution": "    x\n}\n", "test": "fn t() { f(1); }"});
        assert!(
            self::problem(plain.as_object().unwrap())
                .unwrap()
                .tests
                .get("forward")
                .is_none()
        );
    }

    #[test]
    fn a_javascript_row_is_its_prompt_then_the_completion() {
        let problem = problem(&row(r##"{"task_id": "JavaScript/38", "prompt": "/* doc */\nconst encodeCyclic = (s) => {\n  return s;\n}\n/* doc */\nconst decodeCyclic = (s) => {\n", "declaration": "const encodeCyclic = (s) => {\n  return s;\n}\n\nconst decodeCyclic = (s) => {\n", "canonical_solution": "  return s;\n}\n", "test": "console.assert(decodeCyclic('a') === 'a')\n"}"##)).unwrap();
        assert_eq!(problem.language, "javascript");
        assert!(
            problem
                .program_prefix
                .starts_with("/* doc */\nconst encodeCyclic")
        );
        assert!(
            problem.tests["declaration"]
                .as_str()
                .unwrap()
                .starts_with("const encodeCyclic")
        );
        assert!(problem.tests.get("forward").is_none());
        let task = problem.task(&["  return s;\n}\n"]);
        assert_eq!(task["language"], "javascript");
        assert_eq!(task["candidate_limits"]["wall_ms"], 5_000);
        assert!(
            task["completions"][0]
                .as_str()
                .unwrap()
                .ends_with("=> {\n  return s;\n}\n")
        );
    }

    #[test]
    fn other_languages_and_bad_rows_say_why() {
        let java = problem(&row(
            r##"{"task_id": "Java/0", "prompt": "", "declaration": "", "canonical_solution": "", "test": ""}"##,
        ));
        assert_eq!(java, Err(Unconvertible::Language("Java".into())));
        let go = problem(&row(
            r##"{"task_id": "Go/0", "prompt": "", "declaration": "", "canonical_solution": "", "test": ""}"##,
        ))
        .unwrap_err();
        assert!(go.to_string().contains("\"test_setup\""), "{go}");
        let missing = problem(&row(r##"{"task_id": "CPP/0", "prompt": ""}"##)).unwrap_err();
        assert!(missing.to_string().contains("\"declaration\""), "{missing}");
        assert!(is_humanevalx(&row(
            r##"{"task_id": "CPP/0", "declaration": ""}"##
        )));
        assert!(!is_humanevalx(&row(
            r##"{"task_id": "HumanEval/0", "prompt": ""}"##
        )));
    }
}
