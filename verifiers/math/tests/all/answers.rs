//! One table per capability of the math verifier: each row is a reference, a completion, and
//! whether they must be judged equivalent. Close wrong answers sit beside the right ones.

use guest_common::TaskFields;
use serde_json::json;

fn judge_with(reference: &str, completion: &str, extra: serde_json::Value) -> bool {
    let mut task = json!({"verifier": "math", "reference": reference});
    for (k, v) in extra.as_object().expect("object") {
        task[k] = v.clone();
    }
    let task = TaskFields::parse(&task.to_string()).expect("task");
    rewardbox_verifier_math::judge(&task, completion)
        .expect("valid task")
        .passed
}

fn check(rows: &[(&str, &str, bool)]) {
    let mut wrong = Vec::new();
    for (reference, completion, expected) in rows {
        let got = judge_with(reference, completion, json!({}));
        if got != *expected {
            wrong.push(format!(
                "reference {reference:?}, completion {completion:?}: expected {expected}, got {got}"
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn extraction() {
    check(&[
        ("\\frac{1}{2}", "so the answer is $\\boxed{0.5}$", true),
        ("\\frac{1}{2}", "... $\\boxed{\\frac{2}{4}}$", true),
        ("\\frac{1}{2}", "... $\\boxed{1/3}$", false),
        ("5", "nested: \\boxed{\\text{{5}}}", true),
        ("7", "\\fbox{7}", true),
        (
            "12",
            "The final answer is $12$. I hope it is correct.",
            true,
        ),
        ("12", "Answer: 12", true),
        ("12", "We get \\(12\\).", true),
        ("12", "We get \\[ 12 \\]", true),
        ("12", "x = 4 so 3x = 12", true),
        ("12", "3 * 4 = 12 is wrong, the answer is 13", false),
        ("3", "first $x=2$ then finally $x = 3$", true),
    ]);
}

#[test]
fn normalisation() {
    check(&[
        ("\\frac{1}{2}", "$\\left(\\dfrac{1}{2}\\right)$", true),
        ("\\frac{1}{2}", "$\\tfrac12$", true),
        ("5", "$5 \\text{ cm}$", true),
        ("5", "$5\\mathrm{ meters}$", true),
        ("90", "$90^\\circ$", true),
        ("90^\\circ", "$90°$", true),
        ("1000000", "$1{,}000{,}000$", true),
        ("1000000", "1,000,000", true),
        ("3.5", "3,5", true),
        ("25\\%", "25%", true),
        ("25\\%", "$0.25$", true),
        ("0.25", "25", false),
        ("3", "$x = 3$", true),
        ("\\pi", "$π$", true),
        ("\\sqrt{2}", "$√2$", true),
        ("-3", "$−3$", true),
    ]);
}

#[test]
fn exact_values() {
    check(&[
        (
            "123456789012345678901234567890",
            "$123456789012345678901234567890$",
            true,
        ),
        (
            "123456789012345678901234567890",
            "$123456789012345678901234567891$",
            false,
        ),
        ("\\frac{1}{2^{99}}", "$\\frac{1}{2^{98}}$", false),
        ("\\frac{1}{2^{99}}", "$2^{-99}$", true),
        ("10^{30}", "$10^{30}+1$", false),
        ("20!", "$2432902008176640000$", true),
        ("20!", "$2432902008176640001$", false),
        ("\\binom{10}{3}", "$120$", true),
        ("0.5", "$\\frac{1}{2}$", true),
        ("1234", "$1243$", false),
        ("1234", "$-1234$", false),
        ("1234", "$12340$", false),
        ("1234", "$123.4$", false),
        ("1234", "$124$", false),
    ]);
}

#[test]
fn radicals_constants_and_complex_numbers() {
    check(&[
        ("2\\sqrt{2}", "$\\sqrt{8}$", true),
        ("2\\sqrt{2}", "$\\sqrt{2}$", false),
        ("\\sqrt[3]{8}", "$2$", true),
        ("\\frac{\\sqrt{3}}{3}", "$\\frac{1}{\\sqrt{3}}$", true),
        ("\\pi", "$3.14$", false),
        ("\\pi", "$\\frac{22}{7}$", false),
        ("2\\pi", "$\\pi \\cdot 2$", true),
        ("e^2", "$e \\cdot e$", true),
        ("3+4i", "$4i+3$", true),
        ("3+4i", "$3-4i$", false),
        ("\\sqrt{-4}", "$2i$", true),
    ]);
}

#[test]
fn expressions_in_variables() {
    check(&[
        ("x^2-1", "$(x-1)(x+1)$", true),
        ("x^2-1", "$(x-1)^2$", false),
        ("\\frac{x^2-1}{x-1}", "$x+1$", true),
        ("2x+y", "$y+2x$", true),
        ("2x+y", "$2y+x$", false),
        ("\\sin^2 x + \\cos^2 x", "$1$", true),
    ]);
}

#[test]
fn collections() {
    check(&[
        ("(1, 2)", "$(1,2)$", true),
        ("(1, 2)", "$(2,1)$", false),
        ("\\{1, 2, 3\\}", "$\\{3, 1, 2\\}$", true),
        ("\\{1, 2, 3\\}", "$\\{1, 2\\}$", false),
        ("1, 2", "$2, 1$", true),
        ("[0, 1)", "$[0,1)$", true),
        ("[0, 1)", "$[0,1]$", false),
        ("[0, 1)", "$(0,1)$", false),
        ("(-\\infty, 3]", "$(-\\infty, 3]$", true),
        ("(-\\infty, 3]", "$(-\\infty, 3)$", false),
        ("(0,1) \\cup (2,3)", "$(2,3) \\cup (0,1)$", true),
        (
            "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
            "$\\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}$",
            true,
        ),
        (
            "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
            "$\\begin{pmatrix}1&3\\\\2&4\\end{pmatrix}$",
            false,
        ),
    ]);
}

#[test]
fn relations_and_equations() {
    check(&[
        ("x < 3", "$3 > x$", true),
        ("x < 3", "$x \\le 3$", false),
        ("x \\geq 2", "$2 \\leq x$", true),
        ("y = 2x + 1", "$y = 1 + 2x$", true),
        ("3x - 2y = 1", "$2y - 3x = -1$", true),
        ("y = 2x + 1", "$y = 2x - 1$", false),
        ("2x + 3y = 6", "$4x + 6y = 12$", true),
    ]);
}

#[test]
fn choices_and_text() {
    check(&[
        ("B", "The answer is $\\boxed{B}$", true),
        ("B", "The answer is $\\boxed{C}$", false),
        ("\\text{Evelyn}", "$\\boxed{\\text{Evelyn}}$", true),
        ("\\text{Evelyn}", "$\\boxed{\\text{Briana}}$", false),
    ]);
}

#[test]
fn several_answers_do_not_match_one() {
    check(&[
        ("3", "$\\boxed{3}, \\boxed{4}$", false),
        (
            "3",
            "the answer is 3 or 4: $\\boxed{3 \\text{ or } 4}$",
            false,
        ),
        ("3", "$\\boxed{\\{3, 4\\}}$", false),
        ("3", "$\\boxed{3, 4}$", false),
        ("3, 4", "$\\boxed{3}, \\boxed{4}$", true),
        ("3", "it is 4 or 3", false),
        ("3", "either 4, 3", false),
        ("7", "3 and 4 make 7", true),
    ]);
}

#[test]
fn float_rounding_and_strictness_knobs() {
    assert!(judge_with(
        "\\frac{1}{3}",
        "$0.33$",
        json!({"float_rounding": 2})
    ));
    assert!(!judge_with("\\frac{1}{3}", "$0.33$", json!({})));
    assert!(!judge_with("f(x)", "$f(y)$", json!({})));
    assert!(judge_with("f(x)", "$f(y)$", json!({"strict": false})));
    assert!(judge_with(
        "(-\\infty, 3)",
        "$x < 3$",
        json!({"allow_set_relation_comp": true})
    ));
    assert!(
        !judge_with("12", "$12$", json!({"extract": ["expr"]}))
            || judge_with("12", "12", json!({"extract": ["expr"]}))
    );
}

#[test]
fn invalid_fields_name_the_field() {
    let task = TaskFields::parse(
        &json!({"verifier": "math", "reference": "1", "float_rounding": -1}).to_string(),
    )
    .unwrap();
    let e = rewardbox_verifier_math::judge(&task, "1").unwrap_err();
    assert!(e.0.contains("\"float_rounding\""), "{e}");
    let task = TaskFields::parse(
        &json!({"verifier": "math", "reference": "1", "extract": ["words"]}).to_string(),
    )
    .unwrap();
    assert!(
        rewardbox_verifier_math::judge(&task, "1")
            .unwrap_err()
            .0
            .contains("\"extract\"")
    );
    let task = TaskFields::parse(&json!({"verifier": "math"}).to_string()).unwrap();
    assert!(
        rewardbox_verifier_math::judge(&task, "1")
            .unwrap_err()
            .0
            .contains("\"reference\"")
    );
}

#[test]
fn hostile_input_gets_a_verdict() {
    let tower = "$\\boxed{9^{9^{9^{9}}}}$";
    assert!(!judge_with("1", tower, json!({})));
    assert!(!judge_with(
        "9^{9^{9^{9}}}",
        "$\\boxed{9^{9^{9^{8}}}}$",
        json!({})
    ));
    let nested = format!(
        "\\boxed{{{}1{}}}",
        "{".repeat(1_000_000),
        "}".repeat(1_000_000)
    );
    assert!(!judge_with("2", &nested, json!({})));
    let digits = format!("\\boxed{{{}}}", "7".repeat(10_000_000));
    assert!(!judge_with("7", &digits, json!({})));
    let dollars = "$$ \\[ \\( \\boxed{ ".repeat(200_000);
    assert!(!judge_with("7", &dollars, json!({})));
    let spaced = "1 + ".repeat(300_000);
    assert!(!judge_with("7", &spaced, json!({})));
    let minus = format!("${}1$", "-".repeat(100_000));
    assert!(!judge_with("7", &minus, json!({})));
    assert!(!judge_with("1", "$\\boxed{nan}$", json!({})));
    assert!(!judge_with("1", "$\\boxed{\\infty}$", json!({})));
    assert!(!judge_with("1e308", "$\\boxed{10^{308}+1}$", json!({})));
}
