//! HumanEval-X's files as the benchmark ships them (`tests/data/humaneval-x`), read by the test
//! files that grade them (included with `#[path]`).

use rewardbox_humanevalx::{Problem, problem};
use serde_json::Value;
use std::io::Read;
use std::path::Path;

/// The rows of one language's file (`cpp`, `rust`, `js`, `go`), as JSON.
pub fn rows(file_language: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "../../tests/data/humaneval-x/humaneval_{file_language}.jsonl.gz"
    ));
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The problems of one language's file.
pub fn problems(file_language: &str) -> Vec<Problem> {
    rows(file_language)
        .iter()
        .map(|row| problem(row.as_object().unwrap()).unwrap())
        .collect()
}
