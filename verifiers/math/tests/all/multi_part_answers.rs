//! Answers written in several parts, with units in text commands, approximately, or stated in
//! prose: the verifier's own tables by kind, each with close wrong answers beside the right ones.
//!
//! Conventions the labels follow (besides `answer_styles.rs`'): boxes joined by a few words that
//! only label or join the parts (`for part (a) and`, `red and`, `; (b)`) are one answer with
//! several parts, and boxes separated by words that start a new thought (`is wrong, the answer
//! is`) are not; a variable given several values (`x = 1, x = 2`) answers those values, and the
//! same names given again and again (`a = 3, b = 1; a = 11, b = 1`) answer tuples in the names'
//! alphabetical order; `y \approx 4.5` answers 4.5. No loosening: several parts never answer a
//! single reference, and a hedge still fails.

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

const SEPARATE_BOXES: &[Row] = &[
    (
        "(2, 5), (4, 4)",
        "\\boxed{(2, 5)} \\text{ for part (a) and } \\boxed{(4, 4)} \\text{ for part (b)}",
        true,
    ),
    (
        "(2, 5), (4, 4)",
        "\\boxed{(2, 5)} \\text{ for part (a) and } \\boxed{(4, 5)}",
        false,
    ),
    (
        "3, 7",
        "There are \\boxed{3} red and \\boxed{7} blue marbles.",
        true,
    ),
    (
        "3, 7",
        "There are \\boxed{3} red and \\boxed{8} blue marbles.",
        false,
    ),
    ("\\boxed{3} red and \\boxed{7} blue", "\\boxed{3, 7}", true),
    ("\\boxed{3} red and \\boxed{7} blue", "\\boxed{3, 8}", false),
    (
        "12 cm, 9",
        "(a) \\boxed{12 \\text{ cm}}; (b) \\boxed{9}",
        true,
    ),
    ("\\boxed{12 cm} ; \\boxed{9}", "{12 cm, 9}", true),
    ("\\boxed{12 cm} ; \\boxed{9}", "\\boxed{12}", false),
    ("5, 10", "\\boxed{5} apples and \\boxed{10} pears", true),
    (
        "\\frac{1}{2}, \\frac{3}{4}",
        "\\boxed{\\frac{1}{2}} for the first and \\boxed{\\frac{3}{4}} for the second",
        true,
    ),
    ("4", "\\boxed{3} is wrong, the answer is \\boxed{4}", true),
    ("4", "We get \\boxed{3} and then \\boxed{4}", true),
    ("4", "\\boxed{3} so the final answer is \\boxed{4}", true),
];

const STILL_NO_SINGLE_ANSWER: &[Row] = &[
    ("391", "\\boxed{391} or \\boxed{392}", false),
    ("391", "\\boxed{391} red and \\boxed{392} blue", false),
    ("7", "\\boxed{3} red and \\boxed{7} blue", false),
    (
        "3",
        "\\boxed{3} for part (a) and \\boxed{7} for part (b)",
        false,
    ),
    ("x = 2", "\\boxed{x = 2, x = 3}", false),
    ("(3, 1)", "\\boxed{a=3,b=1; a=11,b=1}", false),
];

const EQUATION_LISTS: &[Row] = &[
    (
        "x = \\frac{1}{3}, x = \\frac{-2 \\pm \\sqrt{7}}{5}",
        "\\boxed{x = \\frac{1}{3}, x = \\frac{-2 \\pm \\sqrt{7}}{5}}",
        true,
    ),
    (
        "x = \\frac{1}{3}, x = \\frac{-2 \\pm \\sqrt{7}}{5}",
        "\\boxed{x = \\frac{-2 \\pm \\sqrt{7}}{5}, x = \\frac{1}{3}}",
        true,
    ),
    (
        "x = \\frac{1}{3}, x = \\frac{-2 \\pm \\sqrt{7}}{5}",
        "\\boxed{x = \\frac{1}{3}, x = \\frac{-2 + \\sqrt{7}}{5}}",
        false,
    ),
    (
        "\\boxed{x = \\frac{1}{3}, x = \\frac{-2 \\pm \\sqrt{7}}{5}}",
        "x = \\frac{1}{3}, x = \\frac{-2 \\pm \\sqrt{7}}{5}",
        true,
    ),
    ("x = 2, x = -3", "\\boxed{x = -3, x = 2}", true),
    ("x = 2, x = -3", "\\boxed{x = 2, x = 3}", false),
    ("2, -3", "\\boxed{x = 2, x = -3}", true),
    ("x = 1, y = 2", "\\boxed{y = 2, x = 1}", true),
    ("x = 1, y = 2", "\\boxed{x = 2, y = 1}", false),
    (
        "1 \\pm \\sqrt{2}",
        "\\boxed{1 + \\sqrt{2}, 1 - \\sqrt{2}}",
        true,
    ),
    (
        "\\frac{1 \\pm \\sqrt{5}}{2}",
        "\\boxed{\\frac{1+\\sqrt5}{2}, \\frac{1-\\sqrt5}{2}}",
        true,
    ),
    (
        "\\frac{1 \\pm \\sqrt{5}}{2}",
        "\\boxed{\\frac{1+\\sqrt5}{2}}",
        false,
    ),
];

const NAMED_TUPLES: &[Row] = &[
    ("(3,1),(11,1)", "a=3,b=1; a=11,b=1", true),
    ("(3,1),(11,1)", "\\boxed{a=3,b=1; a=11,b=1}", true),
    ("(3,1),(11,1)", "\\boxed{a=11,b=1; a=3,b=1}", true),
    ("(3,1),(11,1)", "\\boxed{a=3,b=1; a=11,b=2}", false),
    ("(3,1),(11,1)", "\\boxed{a=3,b=1}", false),
    ("(1, 2), (2, 1)", "\\boxed{x=1, y=2; x=2, y=1}", true),
    (
        "(1, -1, 2), (0, 0, 0)",
        "\\boxed{x=1,y=-1,z=2; x=0,y=0,z=0}",
        true,
    ),
    (
        "(1, -1, 2), (0, 0, 0)",
        "\\boxed{x=1,y=-1,z=2; x=0,y=0,z=1}",
        false,
    ),
];

const UNITS_IN_TEXT: &[Row] = &[
    ("48", "\\boxed{48\\textnormal{ km}}", true),
    ("48", "\\boxed{49\\textnormal{ km}}", false),
    ("48", "\\boxed{48\\textup{ km}}", true),
    ("2.5", "\\boxed{2.5\\textnormal{ hours}}", true),
    ("48\\textnormal{ km}", "48", true),
    ("48\\textnormal{ km}", "\\boxed{48 \\mathrm{km}}", true),
    ("48\\textnormal{ km}", "\\boxed{50 \\mathrm{km}}", false),
    ("35\\%", "35 percentage", true),
    ("35\\%", "\\boxed{35 percentage}", true),
    ("35\\%", "\\boxed{36 percentage}", false),
    ("35\\%", "\\boxed{35\\textnormal{ percent}}", true),
];

const APPROXIMATELY: &[Row] = &[
    ("4.5", "$y \\approx 4.5$", true),
    ("4.5", "\\boxed{y \\approx 4.5}", true),
    ("4.5", "$y \\approx 4.6$", false),
    ("2.24", "$x_1 \\approx 2.24$", true),
    ("0.52", "$\\theta \\approx 0.52$", true),
    ("0.52", "$\\theta \\approx 0.25$", false),
    ("\\frac{1}{3}", "$x \\approx 0.333$", false),
    ("\\frac{1}{3}", "$x = \\frac{1}{3} \\approx 0.333$", true),
];

const PROSE_FINAL_ANSWERS: &[Row] = &[
    (
        "14",
        "The store sold 6 books on Monday and 2 more than that on Tuesday, so 8 on Tuesday. \
         Adding them, 6 + 8 = 14. Therefore, the store sold 14 books on the two days.",
        true,
    ),
    (
        "14",
        "The store sold 6 books on Monday and 2 more than that on Tuesday, so 8 on Tuesday. \
         Adding them, 6 + 9 = 15. Therefore, the store sold 15 books on the two days.",
        false,
    ),
    (
        "3",
        "Let the number of cats be c. Then 4c + 2(10 - c) = 26, so 2c = 6 and c = 3. Hence \
         there are 3 cats.",
        true,
    ),
    (
        "3",
        "Let the number of cats be c. Then 4c + 2(10 - c) = 28, so 2c = 8 and c = 4. Hence \
         there are 4 cats.",
        false,
    ),
];

#[test]
fn every_multi_part_style_is_judged_as_labelled() {
    let tables: &[(&str, &[Row])] = &[
        ("separate boxes joined by words", SEPARATE_BOXES),
        (
            "several parts never answer one reference",
            STILL_NO_SINGLE_ANSWER,
        ),
        ("lists of equations", EQUATION_LISTS),
        ("named tuples", NAMED_TUPLES),
        ("units in text commands and unit words", UNITS_IN_TEXT),
        ("approximately, with a variable", APPROXIMATELY),
        ("final answers stated in prose", PROSE_FINAL_ANSWERS),
    ];
    let mut wrong = Vec::new();
    for (kind, rows) in tables {
        let agreed = rows
            .iter()
            .filter(|(reference, completion, want)| {
                let got = judge(reference, completion);
                if got != *want {
                    wrong.push(format!(
                        "{kind}: reference {reference:?}, completion {completion:?}: expected {want}, got {got}"
                    ));
                }
                got == *want
            })
            .count();
        println!("{kind}: {agreed}/{}", rows.len());
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
