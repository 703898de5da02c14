//! LiveCodeBench's code-generation rows (`question_id`, `question_content`, `starter_code`,
//! `public_test_cases`, `private_test_cases`, `metadata`, ...) as rewardbox `code` tasks, graded
//! by the rules of LiveCodeBench's own grader (`lcb_runner`):
//!
//! - **Which kind**: a row whose `metadata` names a `func_name` is functional (LeetCode: the
//!   candidate's `class Solution` method, or a top-level function, called on each test's
//!   arguments); any other is a stdin program. The rows' `testtype` is not what decides, as in
//!   `lcb_runner`.
//! - **Functional tests**: each line of a test's `input` is one argument as JSON, its `output` the
//!   expected value as JSON; the method is called on one `Solution()` for every test and its
//!   result compared with `==` (a returned tuple is its list). A `call` test.
//! - **Stdin tests**: the program's output and the expected one compared line by line, trimmed,
//!   the same number of lines, each line equal as text or as decimal numbers (`1.50` is `1.5`;
//!   `tests.compare: "lines"`).
//! - **The program** gets what `lcb_runner` puts in front of every program: the star imports of
//!   eighteen standard modules (`typing`'s `List`, `math`'s `gcd`, `collections`' `Counter`, ...),
//!   the modules themselves, and a recursion limit of 50,000 (`prelude`). A starter code's
//!   `List[int]` then needs no import, as there.
//! - **Scoring**: all or nothing (LiveCodeBench's pass@1 counts a program that passes every
//!   test).
//! - **Time**: 6 s per test, `lcb_runner`'s limit, as fuel at the Python runner's calibrated rate
//!   (`candidate_limits.wall_ms`; a functional problem's calls run in one sandbox and share 6 s
//!   per test).
//! - **Private tests** as the releases store them: JSON, or base64 of zlib of a pickled JSON
//!   string (read here without unpickling anything else: any other pickle is refused).
//!
//! What differs from `lcb_runner`, and why: a stdin program runs as a script with the real stdin
//! (`lcb_runner` wraps its top-level code in a function, so a `global` statement naming a
//! top-level variable fails there, and it replaces `sys.stdin` by a text buffer, without
//! `sys.stdin.buffer`); an exit with a non-zero status fails the test (`lcb_runner` ignores
//! `SystemExit` and compares what was printed); `True` does not equal an expected `1`; values
//! are compared as JSON after the call (a tuple nested in a list equals a list). See
//! `docs/verifiers/livecodebench.md`.

use serde_json::{Map, Value, json};
use std::io::Read;

/// `lcb_runner`'s time limit per test, in milliseconds.
pub const LCB_TEST_TIME_LIMIT_MS: u64 = 6_000;

/// `lcb_runner`'s recursion limit for every program.
pub const LCB_RECURSION_LIMIT: u32 = 50_000;

/// The standard modules `lcb_runner` star-imports (in this order) in front of every program, then
/// imports by name (all but `builtins` and `typing`).
const PRELUDE_MODULES: [&str; 18] = [
    "string",
    "re",
    "datetime",
    "collections",
    "heapq",
    "bisect",
    "copy",
    "math",
    "random",
    "statistics",
    "itertools",
    "functools",
    "operator",
    "io",
    "sys",
    "json",
    "builtins",
    "typing",
];

/// Why a row was not turned into a task.
#[derive(Debug, Clone, PartialEq)]
pub struct Unreadable {
    /// The row's field at fault (`private_test_cases`, `metadata.func_name`, ...).
    pub field: String,
    /// What is wrong with it.
    pub problem: String,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.problem)
    }
}

fn unreadable(field: &str, problem: impl std::fmt::Display) -> Unreadable {
    Unreadable {
        field: field.to_string(),
        problem: problem.to_string(),
    }
}

/// Whether a JSON object is a LiveCodeBench code-generation row: `question_id`,
/// `question_content` and `public_test_cases`.
pub fn is_livecodebench(row: &Map<String, Value>) -> bool {
    ["question_id", "question_content", "public_test_cases"]
        .iter()
        .all(|f| row.contains_key(*f))
}

/// What every program starts with, as `lcb_runner` grades it.
pub fn prelude() -> String {
    let mut text = String::new();
    for module in PRELUDE_MODULES {
        text.push_str(&format!("from {module} import *\n"));
    }
    for module in PRELUDE_MODULES
        .iter()
        .filter(|m| !matches!(**m, "builtins" | "typing"))
    {
        text.push_str(&format!("import {module}\n"));
    }
    text.push_str(&format!("sys.setrecursionlimit({LCB_RECURSION_LIMIT})\n"));
    text
}

/// One test of a row: its `input` and `output` text.
#[derive(Debug, Clone, PartialEq)]
pub struct Test {
    /// The test's input (stdin, or one JSON argument per line).
    pub input: String,
    /// The expected output (stdout, or the expected value as JSON).
    pub output: String,
}

/// The row as a rewardbox task (no completions: a trainer's completions are scored against it).
pub fn task(row: &Map<String, Value>) -> Result<Value, Unreadable> {
    if !is_livecodebench(row) {
        return Err(unreadable(
            "row",
            "is not a LiveCodeBench code-generation row (it needs question_id, \
             question_content and public_test_cases)",
        ));
    }
    let text = |field: &str| -> Result<&str, Unreadable> {
        row.get(field)
            .and_then(Value::as_str)
            .ok_or_else(|| unreadable(field, "must be a string"))
    };
    let id = match row.get("question_id") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => return Err(unreadable("question_id", "must be a string or a number")),
    };
    let content = text("question_content")?;
    let starter = row
        .get("starter_code")
        .and_then(Value::as_str)
        .unwrap_or("");
    let metadata = match row.get("metadata") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(Value::String(s)) if s.trim().is_empty() => Map::new(),
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(m)) => m,
            _ => {
                return Err(unreadable(
                    "metadata",
                    "must be a JSON object (or its text)",
                ));
            }
        },
        Some(_) => {
            return Err(unreadable(
                "metadata",
                "must be a JSON object (or its text)",
            ));
        }
    };
    let function = match metadata.get("func_name") {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) if is_identifier(name) => Some(name.clone()),
        Some(_) => {
            return Err(unreadable(
                "metadata.func_name",
                "must be a Python identifier (the method the tests call)",
            ));
        }
    };
    let mut tests = tests_of(row.get("public_test_cases"), "public_test_cases")?;
    tests.extend(tests_of(
        row.get("private_test_cases"),
        "private_test_cases",
    )?);
    if tests.is_empty() {
        return Err(unreadable(
            "public_test_cases",
            "holds no test, and neither does private_test_cases",
        ));
    }
    let count = tests.len() as u64;
    let (tests, wall_ms) = match &function {
        Some(name) => {
            let cases = tests
                .iter()
                .enumerate()
                .map(|(i, t)| call_case(t, i))
                .collect::<Result<Vec<_>, _>>()?;
            (
                json!({"call": {"entry_point": name, "cases": cases}}),
                LCB_TEST_TIME_LIMIT_MS * count,
            )
        }
        None => {
            let cases: Vec<Value> = tests
                .iter()
                .map(|t| json!({"stdin": t.input, "stdout": t.output}))
                .collect();
            (
                json!({"stdio": cases, "compare": "lines"}),
                LCB_TEST_TIME_LIMIT_MS,
            )
        }
    };
    let mut prompt = content.to_string();
    if !starter.trim().is_empty() {
        prompt.push_str(&format!(
            "\n\nYou will use the following starter code to write the solution to the problem \
             and enclose your code within delimiters.\n```python\n{starter}\n```\n"
        ));
    } else {
        prompt.push_str(
            "\n\nRead the inputs from stdin, solve the problem and write the answer to stdout. \
             Enclose your code within delimiters as follows.\n```python\n# YOUR CODE HERE\n```\n",
        );
    }
    let mut task = json!({
        "id": id,
        "verifier": "code",
        "language": "python",
        "prompt": prompt,
        "prelude": prelude(),
        "scoring": "all",
        "candidate_limits": {"wall_ms": wall_ms},
        "tests": tests,
    });
    let mut source = Map::new();
    for field in [
        "question_title",
        "platform",
        "contest_id",
        "contest_date",
        "difficulty",
    ] {
        if let Some(v) = row.get(field).filter(|v| !v.is_null()) {
            source.insert(field.to_string(), v.clone());
        }
    }
    if !source.is_empty() {
        task["livecodebench"] = Value::Object(source);
    }
    Ok(task)
}

/// A functional test as a call case: one argument per line of its input, the expected value
/// its output, each JSON.
fn call_case(test: &Test, index: usize) -> Result<Value, Unreadable> {
    let field = format!("tests[{index}]");
    let args = test
        .input
        .split('\n')
        .map(|line| exact_json(line, &format!("{field}.input")))
        .collect::<Result<Vec<_>, _>>()?;
    let expected = exact_json(&test.output, &format!("{field}.output"))?;
    Ok(json!({"args": args, "expected": expected}))
}

/// `text` as JSON, refused when rewardbox would not carry it exactly: an integer beyond 64 bits
/// (Python's `json` reads it exactly; here it would become a float) or `NaN`/`Infinity`.
fn exact_json(text: &str, field: &str) -> Result<Value, Unreadable> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        unreadable(
            field,
            format!("is not JSON rewardbox reads ({e}): {}", preview(text)),
        )
    })?;
    if let Some(big) = wide_integer(text) {
        return Err(unreadable(
            field,
            format!(
                "holds the integer {big}, beyond 64 bits: call tests carry 64-bit integers, and \
                 this one would be compared as a float"
            ),
        ));
    }
    Ok(value)
}

/// The first integer literal of JSON `text` (outside strings) that no 64-bit integer holds.
fn wide_integer(text: &str) -> Option<String> {
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c == '"' {
            let mut escaped = false;
            for (_, c) in chars.by_ref() {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, '\\') => escaped = true,
                    (false, '"') => break,
                    _ => {}
                }
            }
        } else if c == '-' || c.is_ascii_digit() {
            let mut end = at + c.len_utf8();
            while let Some(&(i, d)) = chars.peek() {
                if d.is_ascii_digit() || matches!(d, '.' | 'e' | 'E' | '+' | '-') {
                    end = i + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let literal = &text[at..end];
            let integer = !literal.contains(['.', 'e', 'E']);
            if integer && literal.parse::<i64>().is_err() && literal.parse::<u64>().is_err() {
                return Some(literal.to_string());
            }
        }
    }
    None
}

fn preview(text: &str) -> String {
    let short: String = text.chars().take(80).collect();
    if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

/// The tests of `value` (a list of `{input, output, testtype}`, its JSON text, or base64 of
/// zlib of a pickled JSON text).
pub fn tests_of(value: Option<&Value>, field: &str) -> Result<Vec<Test>, Unreadable> {
    let list = match value {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items.clone(),
        Some(Value::String(text)) if text.trim().is_empty() => return Ok(Vec::new()),
        Some(Value::String(text)) => {
            let decoded = match serde_json::from_str::<Value>(text) {
                Ok(value) => value,
                Err(_) => {
                    let json = compressed_json(text).map_err(|why| unreadable(field, why))?;
                    serde_json::from_str(&json).map_err(|e| {
                        unreadable(field, format!("its unpacked text is not JSON: {e}"))
                    })?
                }
            };
            match decoded {
                Value::Array(items) => items,
                _ => return Err(unreadable(field, "must hold a list of tests")),
            }
        }
        Some(_) => return Err(unreadable(field, "must be a list of tests or its text")),
    };
    list.iter()
        .enumerate()
        .map(|(i, item)| {
            let at = format!("{field}[{i}]");
            let part = |name: &str| -> Result<String, Unreadable> {
                item.get(name)
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| unreadable(&format!("{at}.{name}"), "must be a string"))
            };
            Ok(Test {
                input: part("input")?,
                output: part("output")?,
            })
        })
        .collect()
}

/// The JSON text packed as LiveCodeBench packs private tests: base64, then zlib, then a pickled
/// `str`.
fn compressed_json(text: &str) -> Result<String, String> {
    use base64::Engine;
    let packed = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| format!("is neither JSON nor base64 ({e})"))?;
    let mut pickled = Vec::new();
    flate2::read::ZlibDecoder::new(packed.as_slice())
        .read_to_end(&mut pickled)
        .map_err(|e| format!("is base64 but not zlib data ({e})"))?;
    pickled_string(&pickled)
}

/// The `str` a pickle holds, read without unpickling: the opcodes that `pickle.dumps` of one
/// string writes (protocols 1 to 5) and nothing else, so no object is ever built from the data.
pub fn pickled_string(data: &[u8]) -> Result<String, String> {
    let refuse = |why: &str| Err(format!("is not a pickled string ({why})"));
    let mut at = 0;
    let mut value: Option<String> = None;
    let take = |at: &mut usize, n: usize| -> Option<&[u8]> {
        let bytes = data.get(*at..at.checked_add(n)?)?;
        *at += n;
        Some(bytes)
    };
    let length = |bytes: &[u8]| -> usize {
        bytes.iter().rev().fold(0usize, |n, b| {
            n.saturating_mul(256).saturating_add(usize::from(*b))
        })
    };
    loop {
        let Some(op) = take(&mut at, 1).map(|b| b[0]) else {
            return refuse("it ends before its STOP");
        };
        match op {
            // PROTO n
            0x80 => {
                if take(&mut at, 1).is_none() {
                    return refuse("a cut PROTO");
                }
            }
            // FRAME: an 8-byte length, then the frame's opcodes
            0x95 => {
                if take(&mut at, 8).is_none() {
                    return refuse("a cut FRAME");
                }
            }
            // SHORT_BINUNICODE (1-byte length), BINUNICODE (4), BINUNICODE8 (8)
            0x8c | b'X' | 0x8d => {
                let width = match op {
                    0x8c => 1,
                    b'X' => 4,
                    _ => 8,
                };
                let Some(n) = take(&mut at, width).map(length) else {
                    return refuse("a cut string length");
                };
                let Some(bytes) = take(&mut at, n) else {
                    return refuse("a cut string");
                };
                if value.is_some() {
                    return refuse("more than one string");
                }
                match std::str::from_utf8(bytes) {
                    Ok(s) => value = Some(s.to_string()),
                    Err(_) => return refuse("a string that is not UTF-8"),
                }
            }
            // MEMOIZE; BINPUT n; LONG_BINPUT n (a string kept in the memo: nothing to do)
            0x94 => {}
            b'q' => {
                if take(&mut at, 1).is_none() {
                    return refuse("a cut BINPUT");
                }
            }
            b'r' => {
                if take(&mut at, 4).is_none() {
                    return refuse("a cut LONG_BINPUT");
                }
            }
            // STOP
            b'.' => {
                return match value {
                    Some(s) if at == data.len() => Ok(s),
                    Some(_) => refuse("bytes after its STOP"),
                    None => refuse("no string before its STOP"),
                };
            }
            other => {
                return refuse(&format!(
                    "opcode 0x{other:02x}: only a single pickled str is read"
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pickle.dumps("[1]")` at each protocol from 2 to 5, as CPython 3.11 writes it.
    const PICKLES: [&[u8]; 4] = [
        b"\x80\x02X\x03\x00\x00\x00[1]q\x00.",
        b"\x80\x03X\x03\x00\x00\x00[1]q\x00.",
        b"\x80\x04\x95\x07\x00\x00\x00\x00\x00\x00\x00\x8c\x03[1]\x94.",
        b"\x80\x05\x95\x07\x00\x00\x00\x00\x00\x00\x00\x8c\x03[1]\x94.",
    ];

    #[test]
    fn a_pickled_string_is_read_and_anything_else_refused() {
        for pickle in PICKLES {
            assert_eq!(pickled_string(pickle).as_deref(), Ok("[1]"), "{pickle:?}");
        }
        // A long string: BINUNICODE8's 8-byte length.
        let mut long = b"\x80\x04\x8d".to_vec();
        long.extend_from_slice(&3u64.to_le_bytes());
        long.extend_from_slice(b"abc.");
        assert_eq!(pickled_string(&long).as_deref(), Ok("abc"));
        // `pickle.dumps([1])` (a list), `pickle.dumps(os.system)` (a global), a cut string, two
        // strings, bytes after STOP.
        for bad in [
            &b"\x80\x04\x95\x07\x00\x00\x00\x00\x00\x00\x00]\x94K\x01a."[..],
            b"\x80\x04\x8c\x05posix\x8c\x06system\x93.",
            b"\x80\x04\x8c\x09[1]",
            b"\x80\x04\x8c\x01a\x8c\x01b.",
            b"\x80\x04\x8c\x01a.x",
        ] {
            assert!(pickled_string(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn private_tests_are_read_packed_or_plain() {
        use base64::Engine;
        use std::io::Write;
        let json = r#"[{"input": "1\n2", "output": "3", "testtype": "stdin"}]"#;
        let mut pickle = b"\x80\x04\x8c".to_vec();
        pickle.push(json.len() as u8);
        pickle.extend_from_slice(json.as_bytes());
        pickle.push(b'.');
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&pickle).unwrap();
        let packed = base64::engine::general_purpose::STANDARD.encode(z.finish().unwrap());
        let expected = vec![Test {
            input: "1\n2".into(),
            output: "3".into(),
        }];
        for value in [
            json!(packed),
            json!(json),
            serde_json::from_str(json).unwrap(),
        ] {
            assert_eq!(
                tests_of(Some(&value), "private_test_cases"),
                Ok(expected.clone())
            );
        }
        let wrong = tests_of(Some(&json!("not json, not base64!")), "private_test_cases");
        assert!(
            wrong
                .unwrap_err()
                .problem
                .contains("neither JSON nor base64")
        );
    }

    fn row(metadata: &str, tests: &str) -> Map<String, Value> {
        json!({
            "question_id": "3000",
            "question_title": "t",
            "question_content": "Add.",
            "platform": "leetcode",
            "starter_code": "class Solution:\n    def add(self, a: int, b: List[int]) -> int:\n        ",
            "public_test_cases": tests,
            "private_test_cases": "[]",
            "metadata": metadata,
        })
        .as_object()
        .unwrap()
        .clone()
    }

    #[test]
    fn functional_rows_become_call_tests_and_stdin_rows_line_compared_stdio() {
        let functional = task(&row(
            r#"{"func_name": "add"}"#,
            r#"[{"input": "1\n[2, 3]", "output": "6", "testtype": "functional"}]"#,
        ))
        .unwrap();
        assert_eq!(
            functional["tests"],
            json!({"call": {"entry_point": "add", "cases": [{"args": [1, [2, 3]], "expected": 6}]}})
        );
        assert_eq!(functional["scoring"], "all");
        assert_eq!(functional["candidate_limits"]["wall_ms"], 6_000);
        assert!(
            functional["prelude"]
                .as_str()
                .unwrap()
                .contains("from typing import *\n")
        );
        assert!(
            functional["prompt"]
                .as_str()
                .unwrap()
                .contains("class Solution:")
        );
        // No func_name: stdin, whatever the testtype says.
        let stdin = task(&row(
            "{}",
            r#"[{"input": "1 2\n", "output": "3\n", "testtype": "functional"}, {"input": "2 2\n", "output": "4\n", "testtype": "stdin"}]"#,
        ))
        .unwrap();
        assert_eq!(stdin["tests"]["compare"], "lines");
        assert_eq!(
            stdin["tests"]["stdio"][1],
            json!({"stdin": "2 2\n", "stdout": "4\n"})
        );
        assert_eq!(stdin["candidate_limits"]["wall_ms"], 6_000);
    }

    #[test]
    fn what_cannot_be_carried_exactly_is_refused_by_name() {
        let cases = [
            (
                r#"[{"input": "123456789012345678901", "output": "1"}]"#,
                "tests[0].input",
                "beyond 64 bits",
            ),
            (
                r#"[{"input": "NaN", "output": "1"}]"#,
                "tests[0].input",
                "not JSON",
            ),
            (
                r#"[{"input": "1"}]"#,
                "public_test_cases[0].output",
                "must be a string",
            ),
            ("[]", "public_test_cases", "holds no test"),
        ];
        for (tests, field, problem) in cases {
            let err = task(&row(r#"{"func_name": "f"}"#, tests)).unwrap_err();
            assert_eq!(err.field, field, "{tests}");
            assert!(err.problem.contains(problem), "{tests}: {err}");
        }
        // Big integers inside strings, and 64-bit ones, are carried.
        let fine = task(&row(
            r#"{"func_name": "f"}"#,
            r#"[{"input": "\"123456789012345678901\"\n-9223372036854775808", "output": "18446744073709551615"}]"#,
        ));
        assert!(fine.is_ok(), "{fine:?}");
        let bad_name = task(&row(r#"{"func_name": "a b"}"#, "[]")).unwrap_err();
        assert_eq!(bad_name.field, "metadata.func_name");
    }

    #[test]
    fn the_prelude_imports_what_lcb_runner_gives_every_program() {
        let prelude = prelude();
        assert!(prelude.starts_with("from string import *\nfrom re import *\n"));
        assert!(prelude.contains("from typing import *\nimport string\n"));
        assert!(!prelude.contains("import typing\n") && !prelude.contains("import builtins\n"));
        assert!(prelude.ends_with("import json\nsys.setrecursionlimit(50000)\n"));
    }
}
