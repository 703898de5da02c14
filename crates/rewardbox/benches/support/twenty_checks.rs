//! What the test-form benches share (`test_modules`, `js_test_files`): the 20 checks of a
//! sort-distinct function, and the range of a form's timings.

/// The 20 checks: arguments and expected values, as list literals (Python and JavaScript alike).
pub fn checks() -> Vec<(String, String)> {
    (0..20)
        .map(|i| {
            let xs: Vec<i64> = (0..(i % 7 + 1)).map(|k| (k * 7 + i * 3) % 11 - 5).collect();
            let mut expected = xs.clone();
            expected.sort();
            expected.dedup();
            (format!("{xs:?}"), format!("{expected:?}"))
        })
        .collect()
}

/// The lowest and highest of `seconds`.
pub fn range(seconds: &[f64]) -> (f64, f64) {
    (
        seconds.iter().cloned().fold(f64::MAX, f64::min),
        seconds.iter().cloned().fold(0.0, f64::max),
    )
}
