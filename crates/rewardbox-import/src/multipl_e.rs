//! MultiPL-E (`name`, `language`, `prompt`, `tests`, `stop_tokens`, and in its completion files
//! `completions`) as rewardbox `code` tasks, graded as MultiPL-E grades them: the program is the
//! prompt, the completion and the test code, and it passes when the test code's `main` runs to
//! its end with no failed assert. Here the test code runs in a trusted program of its own,
//! calling the live candidate; the candidate's program is the prompt, the completion and the
//! `}` the test code opens with (closing the candidate's function), so a completion is judged
//! on exactly the text MultiPL-E's harness compiles.
//!
//! Completions are taken as MultiPL-E stores them (cut at the row's `stop_tokens` by its
//! generator). The prompt is the task's declaration: its C++ prompts include their headers.

use crate::humanevalx::{Problem, Unconvertible};
use serde_json::{Map, Value, json};

/// MultiPL-E's time limit for a program (`evaluation/src/safe_subprocess`: 15 s).
pub const MULTIPL_E_TIME_LIMIT_MS: u32 = 15_000;

/// MultiPL-E's language names rewardbox runs the test code of, and rewardbox's name for each.
const LANGUAGES: [(&str, &str); 9] = [
    ("cpp", "cpp"),
    ("rs", "rust"),
    ("rust", "rust"),
    ("js", "javascript"),
    ("javascript", "javascript"),
    ("ts", "typescript"),
    ("typescript", "typescript"),
    ("go_test.go", "go"),
    ("go", "go"),
];

/// Whether a JSON object is a MultiPL-E row: `name`, `language`, `prompt` and `tests`, and no
/// HumanEval-X `declaration`.
pub fn is_multipl_e(row: &Map<String, Value>) -> bool {
    ["name", "language", "prompt", "tests"]
        .iter()
        .all(|f| row.get(*f).is_some_and(Value::is_string))
        && !row.contains_key("declaration")
}

/// The problem of one MultiPL-E row (its `canonical_solution` is empty: MultiPL-E has none).
pub fn problem(row: &Map<String, Value>) -> Result<Problem, Unconvertible> {
    let text = |field: &str| -> Result<&str, Unconvertible> {
        row.get(field)
            .and_then(Value::as_str)
            .ok_or_else(|| Unconvertible::Field(format!("\"{field}\" must be a string")))
    };
    let name = text("name")?;
    let given = text("language")?;
    let language = LANGUAGES
        .iter()
        .find(|(l, _)| *l == given)
        .map(|(_, ours)| *ours)
        .ok_or_else(|| Unconvertible::MultiplELanguage(given.to_string()))?;
    let (prompt, tests) = (text("prompt")?, text("tests")?);
    Ok(Problem {
        task_id: name.to_string(),
        language,
        program_prefix: prompt.to_string(),
        program_suffix: closing_brace(tests),
        tests: json!({"asserts": tests, "declaration": prompt}),
        canonical_solution: String::new(),
        time_limit_ms: MULTIPL_E_TIME_LIMIT_MS,
    })
}

/// The completions of a row of MultiPL-E's completion files (`completions`), none when absent.
pub fn completions(row: &Map<String, Value>) -> Result<Vec<String>, Unconvertible> {
    match row.get("completions") {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|c| {
                c.as_str().map(str::to_string).ok_or_else(|| {
                    Unconvertible::Field("\"completions\" must be a list of strings".into())
                })
            })
            .collect(),
        Some(_) => Err(Unconvertible::Field(
            "\"completions\" must be a list of strings".into(),
        )),
    }
}

/// The test code's opening up to and including its first `}` when it opens with one (the brace
/// closing the candidate's function), else nothing.
fn closing_brace(tests: &str) -> String {
    let trimmed = tests.trim_start();
    if trimmed.starts_with('}') {
        format!("{}}}\n", &tests[..tests.len() - trimmed.len()])
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn a_rust_row_closes_the_function_before_its_tests_and_keeps_them_as_written() {
        let r = row(
            r#"{"name": "HumanEval_53_add", "language": "rs", "prompt": "/// Add two numbers\nfn add(x: isize, y: isize) -> isize {\n", "tests": "}\n\nfn main() {\n    let candidate = add;\n    assert_eq!(candidate(0, 1), 1);\n}\n", "stop_tokens": ["\n}"], "completions": ["    x + y", "    x - y"]}"#,
        );
        assert!(is_multipl_e(&r));
        let p = problem(&r).unwrap();
        assert_eq!(p.language, "rust");
        assert_eq!(p.program_suffix, "}\n");
        let completions = completions(&r).unwrap();
        let refs: Vec<&str> = completions.iter().map(String::as_str).collect();
        let task = p.task(&refs);
        assert_eq!(
            task["completions"][0],
            "/// Add two numbers\nfn add(x: isize, y: isize) -> isize {\n    x + y}\n"
        );
        assert_eq!(task["tests"]["asserts"], r["tests"]);
        assert_eq!(task["tests"]["declaration"], r["prompt"]);
        assert_eq!(task["id"], "HumanEval_53_add");
        assert_eq!(task["candidate_limits"]["wall_ms"], 15_000);
    }

    #[test]
    fn other_languages_and_bad_rows_say_why() {
        let lua = row(r#"{"name": "x", "language": "lua", "prompt": "", "tests": ""}"#);
        let why = problem(&lua).unwrap_err().to_string();
        assert!(
            why.contains("\"lua\"") && why.contains("cpp, rs, js, ts and go_test.go"),
            "{why}"
        );
        let bad = row(
            r#"{"name": "x", "language": "cpp", "prompt": "", "tests": "", "completions": [1]}"#,
        );
        assert!(
            completions(&bad)
                .unwrap_err()
                .to_string()
                .contains("completions")
        );
        let humanevalx = row(
            r#"{"task_id": "CPP/0", "declaration": "", "prompt": "", "name": "n", "language": "cpp", "tests": ""}"#,
        );
        assert!(!is_multipl_e(&humanevalx));
        let no_brace = row(
            r#"{"name": "x", "language": "cpp", "prompt": "int f() {\n", "tests": "int main() {}\n"}"#,
        );
        assert_eq!(problem(&no_brace).unwrap().program_suffix, "");
    }
}
