//! Generated problems (arithmetic, fractions, linear equations, complex numbers, polynomials,
//! integrals, inequalities) whose true answer is rendered in the styles models write: LaTeX and
//! plain, boxed or in a sentence, code syntax, with words around it; each beside wrong answers
//! that are close (a sign, a neighbour, a swapped part, the other direction, a hedge). Seeded, so
//! every run checks the same cases; the generator, not a list, makes them.

use guest_common::TaskFields;
use serde_json::json;

/// A small deterministic generator (64-bit LCG, high bits).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: i64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as i64
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below(hi - lo + 1)
    }
    fn nonzero(&mut self, lo: i64, hi: i64) -> i64 {
        loop {
            let v = self.range(lo, hi);
            if v != 0 {
                return v;
            }
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

/// Sentences a model puts around an answer `a` written in LaTeX (`l`) or plain (`p`).
fn around(latex: &str, plain: &str) -> Vec<String> {
    vec![
        format!("\\boxed{{{latex}}}"),
        format!("The answer is ${latex}$."),
        format!("Therefore, the final answer is $\\boxed{{{latex}}}$."),
        format!("The final answer is ${latex}$. I hope it is correct."),
        format!("**Answer:** {plain}"),
        format!("So the answer is {plain}."),
        format!("After simplifying, we get \\[ {latex} \\]"),
        format!("Working through the steps (2 + 3 = 5, then 5 * 2 = 10) gives {plain}."),
    ]
}

struct Case {
    kind: &'static str,
    reference: String,
    completion: String,
    expected: bool,
}

fn push(
    cases: &mut Vec<Case>,
    kind: &'static str,
    reference: &str,
    completions: Vec<String>,
    expected: bool,
) {
    for completion in completions {
        cases.push(Case {
            kind,
            reference: reference.to_string(),
            completion,
            expected,
        });
    }
}

fn generate() -> Vec<Case> {
    let mut rng = Rng(20261122);
    let mut cases = Vec::new();
    for _ in 0..6 {
        // Arithmetic: an integer.
        let n = rng.range(-500, 5000);
        let r = n.to_string();
        push(&mut cases, "integers", &r, around(&r, &r), true);
        let wrong = (n + rng.nonzero(-3, 3)).to_string();
        push(&mut cases, "integers", &r, around(&wrong, &wrong), false);
        push(
            &mut cases,
            "integers",
            &r,
            vec![
                format!("The answer is {n} or {wrong}."),
                format!("It is either {wrong} or {n}."),
                format!("\\boxed{{{n}}} or \\boxed{{{wrong}}}"),
            ],
            false,
        );

        // Fractions in lowest terms.
        let (mut p, mut q) = (rng.nonzero(-40, 40), rng.range(2, 30));
        let g = gcd(p, q);
        p /= g;
        q /= g;
        if q == 1 {
            q = 7;
        }
        let latex = if p < 0 {
            format!("-\\frac{{{}}}{{{q}}}", -p)
        } else {
            format!("\\frac{{{p}}}{{{q}}}")
        };
        let plain = format!("{p}/{q}");
        push(
            &mut cases,
            "fractions",
            &latex,
            around(&latex, &plain),
            true,
        );
        push(
            &mut cases,
            "fractions",
            &latex,
            around(
                &format!("\\frac{{{}}}{{{}}}", 2 * p, 2 * q),
                &format!("{}/{}", 3 * p, 3 * q),
            ),
            true,
        );
        let wrong_latex = format!("\\frac{{{p}}}{{{}}}", q + 1);
        push(
            &mut cases,
            "fractions",
            &latex,
            around(&wrong_latex, &format!("{p}/{}", q + 1)),
            false,
        );
        push(
            &mut cases,
            "fractions",
            &latex,
            around(&format!("\\frac{{{}}}{{{q}}}", -p), &format!("{}/{q}", -p)),
            false,
        );

        // Linear equations: x = v.
        let v = rng.range(-30, 30);
        let r = format!("x = {v}");
        push(
            &mut cases,
            "linear equations",
            &v.to_string(),
            around(&format!("x = {v}"), &format!("x = {v}")),
            true,
        );
        push(
            &mut cases,
            "linear equations",
            &r,
            around(&v.to_string(), &v.to_string()),
            true,
        );
        push(
            &mut cases,
            "linear equations",
            &r,
            around(&format!("x = {}", v + 1), &format!("x = {}", v + 1)),
            false,
        );

        // Complex numbers a + bi.
        let (a, b) = (rng.nonzero(-9, 9), rng.nonzero(-9, 9));
        let sign = |b: i64| {
            if b < 0 {
                format!("- {}", -b)
            } else {
                format!("+ {b}")
            }
        };
        let r = format!("{a} {}i", sign(b));
        push(
            &mut cases,
            "complex numbers",
            &r,
            around(&r, &format!("{a} {}*I", sign(b))),
            true,
        );
        push(
            &mut cases,
            "complex numbers",
            &r,
            around(
                &format!("{b}i + {a}").replace("+ -", "- "),
                &format!("{a} {}i", sign(b)),
            ),
            true,
        );
        push(
            &mut cases,
            "complex numbers",
            &r,
            around(
                &format!("{a} {}i", sign(-b)),
                &format!("{a} {}*I", sign(-b)),
            ),
            false,
        );
        if a != b {
            push(
                &mut cases,
                "complex numbers",
                &r,
                around(&format!("{b} {}i", sign(a)), &format!("{b} {}i", sign(a))),
                false,
            );
        }

        // Polynomials: (x + a)(x + b) expanded.
        let (a, b) = (rng.nonzero(-9, 9), rng.nonzero(-9, 9));
        let (s, m) = (a + b, a * b);
        let latex = format!("x^2 {}x {}", sign(s), sign(m))
            .replace("+ 0x ", "")
            .replace("- 0x ", "");
        let code = format!("x**2 {}*x {}", sign(s), sign(m));
        push(
            &mut cases,
            "polynomials",
            &latex,
            around(&latex, &code),
            true,
        );
        push(
            &mut cases,
            "polynomials",
            &latex,
            around(
                &format!("(x {})(x {})", sign(a), sign(b)),
                &format!("(x {})*(x {})", sign(a), sign(b)),
            ),
            true,
        );
        push(
            &mut cases,
            "polynomials",
            &latex,
            around(
                &format!("(x {})(x {})", sign(-a), sign(b)),
                &format!("(x {})*(x {})", sign(-a), sign(b)),
            ),
            false,
        );

        // Integrals of c x^k.
        let (c, k) = (rng.range(1, 9), rng.range(1, 6));
        let latex = format!("\\frac{{{c}x^{{{}}}}}{{{}}} + C", k + 1, k + 1);
        let code = format!("{c}*x**{}/{} + C", k + 1, k + 1);
        push(&mut cases, "integrals", &latex, around(&latex, &code), true);
        push(
            &mut cases,
            "integrals",
            &latex,
            around(
                &format!("\\frac{{{c}x^{{{}}}}}{{{}}} + C", k + 1, k + 2),
                &format!("{c}*x**{}/{} + C", k + 1, k + 2),
            ),
            false,
        );
        push(
            &mut cases,
            "integrals",
            &latex,
            around(
                &format!("{}x^{{{}}} + C", c * k, k - 1),
                &format!("{}*x**{} + C", c * k, k - 1),
            ),
            false,
        );

        // Inequalities: x > v (and the other directions).
        let v = rng.range(-20, 20);
        let r = format!("x > {v}");
        push(
            &mut cases,
            "inequalities",
            &r,
            around(&format!("x > {v}"), &format!("x > {v}")),
            true,
        );
        push(
            &mut cases,
            "inequalities",
            &r,
            around(&format!("({v}, \\infty)"), &format!("x > {v}")),
            true,
        );
        push(
            &mut cases,
            "inequalities",
            &r,
            around(&format!("x < {v}"), &format!("x < {v}")),
            false,
        );
        push(
            &mut cases,
            "inequalities",
            &r,
            around(&format!("x \\geq {v}"), &format!("x >= {v}")),
            false,
        );
        push(
            &mut cases,
            "inequalities",
            &r,
            around(&format!("(-\\infty, {v})"), &format!("x <= {v}")),
            false,
        );
    }
    cases
}

#[test]
fn generated_answers_are_judged_as_labelled() {
    let cases = generate();
    let mut by_kind: Vec<(&str, usize, usize)> = Vec::new();
    let mut wrong = Vec::new();
    for case in &cases {
        let task = TaskFields::parse(
            &json!({"verifier": "math", "reference": case.reference}).to_string(),
        )
        .expect("task");
        let got = rewardbox_verifier_math::judge(&task, &case.completion)
            .expect("valid task")
            .passed;
        let entry = match by_kind.iter().position(|(k, _, _)| *k == case.kind) {
            Some(i) => i,
            None => {
                by_kind.push((case.kind, 0, 0));
                by_kind.len() - 1
            }
        };
        by_kind[entry].2 += 1;
        if got == case.expected {
            by_kind[entry].1 += 1;
        } else {
            wrong.push(format!(
                "{}: reference {:?}, completion {:?}: expected {}, got {got}",
                case.kind, case.reference, case.completion, case.expected
            ));
        }
    }
    for (kind, agreed, total) in &by_kind {
        eprintln!("{kind}: {agreed}/{total}");
    }
    eprintln!("generated: {}/{}", cases.len() - wrong.len(), cases.len());
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
