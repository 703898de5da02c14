//! The `math` verifier through the real scoring path (the compiled component in its sandbox):
//! Math-Verify's labelled cases, the issue's example, and hostile answers that must end in a
//! verdict, not a sandbox error.

use crate::common;

use common::scorer;
use rewardbox::{Status, Task};
use serde_json::{Value, json};

const DATA: &str = include_str!("../../../../tests/data/math-equivalence-dev.jsonl");

#[test]
fn agrees_with_math_verify_labels_in_the_sandbox() {
    let s = scorer();
    let (mut agreed, mut total) = (0, 0);
    let mut disagreements = Vec::new();
    for line in DATA.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap();
        let task = Task::from_value(json!({
            "id": case["id"].to_string(), "verifier": "math", "reference": case["gold"],
            "extract": case["match_types"], "float_rounding": case["float_rounding"],
            "strict": case["strict"], "allow_set_relation_comp": case["allow_set_relation_comp"],
            "completions": [case["prediction"]],
        }))
        .unwrap();
        let result = s.score_task(&task);
        assert_eq!(
            result.status, None,
            "case {}: {:?}",
            case["id"], result.detail
        );
        let r = &result.results[0];
        assert_eq!(r.status, Status::Ok, "case {}: {:?}", case["id"], r.detail);
        total += 1;
        if r.passed == case["expected"].as_bool().unwrap() {
            agreed += 1;
        } else {
            disagreements.push(case["id"].clone());
        }
    }
    assert_eq!(total, 131);
    assert!(
        agreed >= 129,
        "{agreed}/131 agree; disagreements: {disagreements:?}"
    );
}

#[test]
fn the_issue_example_scores_as_expected() {
    let s = scorer();
    let task = Task::from_value(json!({
        "id": "m1", "verifier": "math", "reference": "\\frac{1}{2}",
        "completions": ["... so the answer is $\\boxed{0.5}$", "... $\\boxed{\\frac{2}{4}}$", "... $\\boxed{1/3}$"],
    }))
    .unwrap();
    let result = s.score_task(&task);
    let scores: Vec<f64> = result.results.iter().map(|r| r.score).collect();
    assert_eq!(scores, vec![1.0, 1.0, 0.0]);
    assert!(result.results[2].detail.contains("1/3"));
}

#[test]
fn hostile_answers_get_a_verdict_within_the_default_limits() {
    let s = scorer();
    let completions = vec![
        "$\\boxed{9^{9^{9^{9}}}}$".to_string(),
        format!(
            "\\boxed{{{}1{}}}",
            "{".repeat(1_000_000),
            "}".repeat(1_000_000)
        ),
        format!("\\boxed{{{}}}", "7".repeat(10_000_000)),
        "$$ \\[ \\( \\boxed{ ".repeat(200_000),
        format!("${}1$", "-".repeat(100_000)),
        "1 + ".repeat(300_000),
        "\\frac{".repeat(200_000),
        "(".repeat(300_000),
        format!("{}2{}", "\\sqrt{".repeat(100_000), "}".repeat(100_000)),
    ];
    let task = Task::from_value(json!({
        "id": "hostile", "verifier": "math", "reference": "7",
        "completions": completions,
    }))
    .unwrap();
    let result = s.score_task(&task);
    for (i, r) in result.results.iter().enumerate() {
        assert_eq!(r.status, Status::Ok, "completion {i}: {:?}", r.detail);
        assert_eq!(r.score, 0.0, "completion {i}");
    }
}

#[test]
fn an_unreadable_reference_is_an_invalid_task_naming_the_field() {
    let s = scorer();
    let task = Task::from_value(json!({
        "id": "bad", "verifier": "math", "reference": "", "completions": ["1"],
    }))
    .unwrap();
    let result = s.score_task(&task);
    assert_eq!(result.status, Some(Status::InvalidTask));
    assert!(
        result
            .detail
            .as_deref()
            .unwrap_or("")
            .contains("\"reference\""),
        "{:?}",
        result.detail
    );
}
