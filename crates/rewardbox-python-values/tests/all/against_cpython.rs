//! This crate against CPython itself: for a table of values (written by `tests/values.py` with
//! the native `python3`, encoded by the checking sandbox's own `rb_values`), `==` between every
//! pair, `bool` and `repr` must be CPython's, wherever this crate gives an answer at all.

use rewardbox_python_values::{Value, float_repr, parse, preview, splitlines, strip};
use std::path::Path;
use std::process::Command;

#[derive(serde::Deserialize)]
struct Row {
    json: String,
    repr: String,
    truth: bool,
    equal: Vec<usize>,
}

#[derive(serde::Deserialize)]
struct Table {
    rows: Vec<Row>,
    /// A float's bits and its repr.
    floats: Vec<(u64, String)>,
    /// A text and its preview.
    previews: Vec<(String, String)>,
    /// A text, its `splitlines()` and its `strip()`.
    lines: Vec<(String, Vec<String>, String)>,
}

fn table() -> Table {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guests = here.join("../../guests/python");
    let output = Command::new("python3")
        .arg(here.join("tests/values.py"))
        .arg(&guests)
        .output()
        .expect("python3 runs (the test venv provides it)");
    assert!(
        output.status.success(),
        "values.py failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("values.py writes JSON")
}

#[test]
fn equality_truth_and_repr_are_cpythons() {
    let rows = table().rows;
    let values: Vec<Value> = rows
        .iter()
        .map(|row| parse(&row.json).unwrap_or_else(|e| panic!("{}: {e:?}", row.json)))
        .collect();
    for (i, (row, value)) in rows.iter().zip(&values).enumerate() {
        assert_eq!(value.truth(), Some(row.truth), "bool({})", row.repr);
        match value.repr() {
            Some(repr) => assert_eq!(repr, row.repr, "repr of {}", row.json),
            None => assert!(declines_repr(value), "no repr given for {}", row.json),
        }
        for (j, other) in values.iter().enumerate() {
            let expected = row.equal.contains(&j);
            assert_eq!(
                value.python_eq(other),
                expected,
                "{} == {} (rows {i} and {j})",
                row.repr,
                rows[j].repr
            );
        }
    }
}

/// The values whose repr the crate leaves to CPython on purpose: a complex, a set of more than
/// one element, a string with a character past Latin-1; or anything holding one.
fn declines_repr(value: &Value) -> bool {
    match value {
        Value::Complex(..) => true,
        Value::Set { items, .. } => items.len() > 1 || items.iter().any(declines_repr),
        Value::Str(s) => s.chars().any(|c| c > '\u{ff}'),
        Value::List(items) | Value::Tuple(items) => items.iter().any(declines_repr),
        Value::Dict(entries) => entries
            .iter()
            .any(|(k, v)| declines_repr(k) || declines_repr(v)),
        _ => false,
    }
}

#[test]
fn float_repr_is_cpythons_across_every_exponent() {
    let floats = table().floats;
    assert!(floats.len() > 3000);
    for (bits, repr) in floats {
        assert_eq!(float_repr(f64::from_bits(bits)), repr, "bits {bits:#x}");
    }
}

#[test]
fn preview_is_the_checking_sandboxs() {
    for (text, shown) in table().previews {
        assert_eq!(preview(&text), shown, "{text:?}");
    }
}

#[test]
fn lines_and_strip_are_cpythons() {
    for (text, lines, stripped) in table().lines {
        assert_eq!(splitlines(&text), lines, "{text:?}");
        assert_eq!(strip(&text), stripped, "{text:?}");
    }
}
