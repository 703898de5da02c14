//! Answer styles real models write, by kind, each with close wrong answers beside the right ones:
//! the verifier's own labelled tables (not Math-Verify's cases). Every row must agree; the test
//! prints the agreement per kind.
//!
//! Conventions the labels follow: a relation keeps its direction; several different final answers
//! (a hedge) never match one answer; `name = value` answers `value`, but two assignments compare
//! names too (`x = 1` is not `y = 1`); an inequality matches the interval it describes unless the
//! interval is written `(a, b)` with finite ends (which could be a point), as in Math-Verify.

use guest_common::TaskFields;
use serde_json::json;

type Row = (&'static str, &'static str, bool);

fn judge(reference: &str, completion: &str) -> bool {
    let task = json!({"verifier": "math", "reference": reference});
    let task = TaskFields::parse(&task.to_string()).expect("task");
    rewardbox_verifier_math::judge(&task, completion)
        .expect("valid task")
        .passed
}

const RELATIONS: &[Row] = &[
    ("x > 5", "$x < 5$", false),
    ("x > 5", "$x > 5$", true),
    ("x > 5", "$5 < x$", true),
    ("x > 5", "$x \\geq 5$", false),
    ("x \\leq 5", "$x \\geq 5$", false),
    ("x \\leq 5", "$5 \\geq x$", true),
    ("x \\leq 5", "$-x \\geq -5$", true),
    ("x \\leq 5", "$-x \\leq -5$", false),
    ("x < 5", "\\boxed{x > 5}", false),
    ("x < -2", "$x < 2$", false),
    ("2x + 2 \\leq 4", "$x \\leq 1$", true),
    ("2x + 2 \\leq 4", "$x \\geq 1$", false),
    ("x \\neq 3", "$x = 3$", false),
    ("x \\neq 3", "$x \\neq 3$", true),
    ("a < b", "$a > b$", false),
    ("a < b", "$b > a$", true),
    ("1 < x < 3", "$3 > x > 1$", true),
    ("1 < x < 3", "$1 \\le x \\le 3$", false),
    ("1 < x < 3", "$1 < x \\le 3$", false),
    ("y \\geq 2x + 1", "$y \\leq 2x + 1$", false),
    ("y \\geq 2x + 1", "$2x + 1 \\leq y$", true),
    ("y \\geq 2x + 1", "$y - 2x \\geq 1$", true),
    ("x^2 < 4", "$x^2 > 4$", false),
    ("x > 5", "The solution is x > 5.", true),
    ("x > 5", "The solution is x < 5.", false),
    ("x \\geq 5", "So x >= 5", true),
    ("x \\geq 5", "So x <= 5", false),
    ("x \\geq 5", "So x ≥ 5", true),
    ("x \\geq 5", "So x ≤ 5", false),
];

const HEDGES: &[Row] = &[
    ("391", "The answer is 391 or 392", false),
    ("391", "The answer is 392 or 391", false),
    ("391", "It is either 391 or 392.", false),
    ("391", "The answer is $391$ or $392$.", false),
    ("391", "\\boxed{391} or \\boxed{392}", false),
    ("391", "\\boxed{392} or \\boxed{391}", false),
    ("391", "The answer is 391, or possibly 392.", false),
    ("391", "The answer is 391 (or maybe 392).", false),
    ("391", "Answer: 391 and 392", false),
    ("391", "The answer is \\boxed{391 \\text{ or } 392}", false),
    ("391", "So it is 391 or 392 or 393.", false),
    (
        "391",
        "The final answer is 391 or 392. I hope it is correct.",
        false,
    ),
    ("3", "The answers are 3 and 4.", false),
    ("3, 4", "The answers are 3 and 4.", true),
    ("391", "The answer is 391, which is odd.", true),
    ("391", "The answer is 391 and nothing else.", true),
    ("391", "Adding 300 and 91 gives 391.", true),
    ("391", "The answer is 391. Checking: 400 - 9 = 391.", true),
    ("391", "The answer is $391$, and I am confident.", true),
    ("391", "Therefore, the answer is 391.", true),
];

const PROGRAMMING_SYNTAX: &[Row] = &[
    (
        "-3920x^3 + 12348x",
        "The answer is -3920*x**3 + 12348*x",
        true,
    ),
    (
        "-3920x^3 + 12348x",
        "The answer is -3920*x**3 + 12346*x",
        false,
    ),
    (
        "\\frac{7x^7}{9} - \\frac{5x^2}{6} + C",
        "7*x**7/9 - 5*x**2/6 + C",
        true,
    ),
    (
        "\\frac{7x^7}{9} - \\frac{5x^2}{6} + C",
        "7*x**7/9 - 5*x**2/7 + C",
        false,
    ),
    ("x^2 + 2x + 1", "The result is (x + 1)**2.", true),
    ("x^2 + 2x + 1", "The result is (x - 1)**2.", false),
    ("\\sqrt{2}", "The answer is sqrt(2)", true),
    ("\\sqrt{2}", "The answer is sqrt(3)", false),
    ("2\\pi", "The answer is 2*pi", true),
    ("2\\pi", "The answer is 2*pi + 1", false),
    ("e^{2x}", "f(x) = exp(2*x)", true),
    ("e^{2x}", "f(x) = exp(3*x)", false),
    ("\\frac{1}{x+1}", "The answer is 1/(x + 1)", true),
    ("\\frac{1}{x+1}", "The answer is 1/x + 1", false),
    ("3x^2", "Answer: 3x^2", true),
    ("3x^2", "Answer: 3*x^3", false),
    ("\\sin(x) + C", "The integral is sin(x) + C.", true),
    ("\\sin(x) + C", "The integral is -cos(x) + C.", false),
    ("\\ln(x)", "The answer is ln(x)", true),
    ("\\frac{x^3}{3}", "x^3/3", true),
    ("\\frac{x^3}{3}", "x^3/4", false),
    ("x^2 - 5x + 6", "(x-2)*(x-3)", true),
    ("x^2 - 5x + 6", "(x+2)*(x+3)", false),
    ("3 + 4i", "3 + 4*I", true),
    ("3 + 4i", "3 - 4*I", false),
    ("5", "The answer is 5 apples.", true),
    ("5", "The answer is 5 a day.", true),
];

const APPROXIMATIONS: &[Row] = &[
    ("3.14", "The answer is approximately 3.14.", true),
    ("3.14", "The answer is about 3.14", true),
    ("3.14", "$\\approx 3.14$", true),
    ("3.14", "The answer is approximately 3.15.", false),
    ("\\pi", "$\\approx 3.14$", false),
    ("0.33", "≈ 0.33", true),
    ("\\frac{1}{3}", "$x = \\frac{1}{3} \\approx 0.333$", true),
    ("\\frac{1}{3}", "$x \\approx 0.333$", false),
    ("2.5", "roughly 2.5", true),
    ("2.5", "roughly 2.4", false),
];

const UNITS: &[Row] = &[
    ("5", "5 cm", true),
    ("5", "$5\\,\\text{cm}$", true),
    ("5", "$5 \\mathrm{~cm}$", true),
    ("5", "5 centimeters", true),
    ("5", "$5\\text{ cm}^2$", true),
    ("5", "5 cm^2", true),
    ("5", "$5 \\text{ square units}$", true),
    ("5", "5 km/h", true),
    ("5", "5 m/s", true),
    ("5", "5 meters per second", true),
    ("5", "$5^{\\circ}$", true),
    ("5", "5 degrees", true),
    ("5", "5°", true),
    ("5", "\\$5", true),
    ("5", "5 dollars", true),
    ("5", "$\\$5.00$", true),
    ("5", "6 cm", false),
    ("5", "$5.5 \\text{ cm}$", false),
    ("12", "12 hours", true),
    ("12", "$12 \\text{ hrs}$", true),
    ("4.5", "4.5 kg", true),
    ("4.5", "$4.5\\, \\mathrm{kg}$", true),
    ("5\\text{ cm}", "5", true),
    ("5\\text{ cm}", "6", false),
    ("30^\\circ", "30", true),
];

const PERCENT: &[Row] = &[
    ("25\\%", "25 percent", true),
    ("25\\%", "25 per cent", true),
    ("25\\%", "$25\\%$", true),
    ("25\\%", "25%", true),
    ("25", "25 percent", true),
    ("25\\%", "0.25", true),
    ("25\\%", "26 percent", false),
    ("25\\%", "26 per cent", false),
    ("12.5\\%", "12.5 percent", true),
];

const EQUATIONS_AND_CURVES: &[Row] = &[
    ("y = 2x + 1", "$2x - y + 1 = 0$", true),
    ("y = 2x + 1", "$y - 1 = 2x$", true),
    ("y = 2x + 1", "$y = 2x - 1$", false),
    ("y = 2x + 1", "$2x + 1$", true),
    ("y = -2x + 3", "$2x + y = 3$", true),
    ("y = -2x + 3", "$2x + y = 2$", false),
    ("x^2 + y^2 = 4", "$x^2 + y^2 - 4 = 0$", true),
    ("x^2 + y^2 = 4", "$x^2 + y^2 = 2$", false),
    ("y = 3", "$y - 3 = 0$", true),
    ("x = 2", "$x = 2$", true),
    ("x = 2", "$y = 2$", false),
    ("2", "$x = 2$", true),
    ("x = 2", "2", true),
    ("7 = 11a + c", "$11a + c$", false),
    ("5", "x = 5", true),
    ("-\\frac{2}{3}", "x = -2/3", true),
    ("y = 2x + 1", "The line is y = 2x + 1.", true),
    ("y = 2x + 1", "The line is y = 2x - 1.", false),
];

const INTERVALS: &[Row] = &[
    ("x > 3", "$(3, \\infty)$", true),
    ("x > 3", "$[3, \\infty)$", false),
    ("x \\geq 3", "$[3, \\infty)$", true),
    ("(3, \\infty)", "$x > 3$", true),
    ("[3, \\infty)", "$x > 3$", false),
    ("(-\\infty, 2]", "$x \\leq 2$", true),
    ("(-\\infty, 2]", "$x < 2$", false),
    ("x \\neq 1", "$(-\\infty, 1) \\cup (1, \\infty)$", true),
    ("x \\neq 1", "$(-\\infty, 1) \\cup (2, \\infty)$", false),
    ("-1 \\le x < 4", "$[-1, 4)$", true),
    ("[-1, 4)", "$-1 \\le x < 4$", true),
    ("[-1, 4)", "$-1 < x < 4$", false),
    ("(1, 2)", "$1 < x < 2$", false),
    // Two rays joined by "or" are the union of the two.
    (
        "x < 0 \\text{ or } x > 1",
        "$(-\\infty, 0) \\cup (1, \\infty)$",
        true,
    ),
    (
        "x < 0 \\text{ or } x > 1",
        "$(-\\infty, 0] \\cup (1, \\infty)$",
        false,
    ),
    (
        "x < 0 \\text{ or } x > 1",
        "$(-\\infty, 0) \\cup (2, \\infty)$",
        false,
    ),
    (
        "(-\\infty, 0) \\cup (1, \\infty)",
        "$x < 0$ or $x > 1$",
        true,
    ),
    (
        "(-\\infty, 0) \\cup (1, \\infty)",
        "$x<0 \\text{ or } x>1$",
        true,
    ),
    (
        "(-\\infty, -2) \\cup (3, \\infty)",
        "$x > 3$ or $x < -2$",
        true,
    ),
    (
        "(-\\infty, -2) \\cup [3, \\infty)",
        "$x < -2$ or $x > 3$",
        false,
    ),
    (
        "(-\\infty, 0) \\cup (1, \\infty)",
        "$x < 0$ or $y > 1$",
        false,
    ),
    ("(-\\infty, 0) \\cup (1, \\infty)", "$x < 0$", false),
    ("x < 0", "$x < 0$ or $x > 1$", false),
    ("(-\\infty, 0)", "$x < 0$ or $x > 1$", false),
    (
        "x \\le -1 \\text{ or } 2 \\le x \\le 5",
        "$(-\\infty, -1] \\cup [2, 5]$",
        true,
    ),
    (
        "x \\le -1 \\text{ or } 2 \\le x \\le 5",
        "$(-\\infty, -1] \\cup [2, 5)$",
        false,
    ),
];

const SEVERAL_ANSWERS: &[Row] = &[
    ("3, 4", "\\boxed{3}, \\boxed{4}", true),
    ("3, 4", "\\boxed{3, 4}", true),
    ("3, 4", "$\\{3, 4\\}$", true),
    ("3, 4", "$x = 3$ or $x = 4$", true),
    ("3, 4", "The solutions are 3 and 4.", true),
    ("3, 4", "\\boxed{3}", false),
    ("3, 4", "\\boxed{3, 5}", false),
    ("(1, 2)", "$x = 1, y = 2$", true),
    ("(1, 2)", "$x = 1$ and $y = 2$", true),
    ("(1, 2)", "$x = 2, y = 1$", false),
    ("(1, 2)", "\\boxed{(2, 1)}", false),
    ("x = 1, y = 2", "$(1, 2)$", true),
];

const DERIVATIONS: &[Row] = &[
    (
        "14",
        "We have 3 + 4 = 7 apples, and doubling gives 7 \\times 2 = 14. So the answer is 14.",
        true,
    ),
    (
        "14",
        "First 12 - 5 = 7, then 7 * 2 = 14, so there are 14 apples in total.",
        true,
    ),
    (
        "14",
        "Step 1: 2 + 3 = 5. Step 2: 5 * 3 = 15. The answer is 15.",
        false,
    ),
    (
        "14",
        "The answer is 14. (Check: 14 = 2 \\times 7, and 7 > 5.)",
        true,
    ),
    ("14", "Let $a = 3$ and $b = 11$. Then $a + b = 14$.", true),
];

const NUMBERS: &[Row] = &[
    ("3 + 4i", "$4i + 3$", true),
    ("3 + 4i", "$3 - 4i$", false),
    (
        "\\frac{1}{2} + \\frac{\\sqrt{3}}{2}i",
        "0.5 + 0.866025i",
        true,
    ),
    ("\\frac{3}{4}", "3/4", true),
    ("\\frac{3}{4}", "0.75", true),
    ("\\frac{3}{4}", "\\frac{6}{8}", true),
    ("\\frac{3}{4}", "3/5", false),
    ("-\\frac{3}{4}", "-3/4", true),
    ("-\\frac{3}{4}", "\\frac{-3}{4}", true),
    ("-\\frac{3}{4}", "3/4", false),
    ("1\\frac{1}{2}", "1.5", true),
    ("\\frac{x^3}{3} + C", "x**3/3 + C", true),
];

#[test]
fn every_answer_style_is_judged_as_labelled() {
    let tables: &[(&str, &[Row])] = &[
        ("relations keep their direction", RELATIONS),
        ("hedges never pass", HEDGES),
        ("programming syntax", PROGRAMMING_SYNTAX),
        ("approximations", APPROXIMATIONS),
        ("units and unit words", UNITS),
        ("percent written out", PERCENT),
        (
            "equations and curves in different forms",
            EQUATIONS_AND_CURVES,
        ),
        ("inequalities and intervals", INTERVALS),
        ("several answers grouped differently", SEVERAL_ANSWERS),
        ("a final answer after a derivation", DERIVATIONS),
        ("numbers", NUMBERS),
    ];
    let mut wrong = Vec::new();
    let (mut agreed, mut total) = (0, 0);
    for (kind, rows) in tables {
        let mut here = 0;
        for (reference, completion, expected) in *rows {
            let got = judge(reference, completion);
            if got == *expected {
                here += 1;
            } else {
                wrong.push(format!(
                    "{kind}: reference {reference:?}, completion {completion:?}: expected {expected}, got {got}"
                ));
            }
        }
        eprintln!("{kind}: {here}/{}", rows.len());
        agreed += here;
        total += rows.len();
    }
    eprintln!("answer styles: {agreed}/{total}");
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}
