//! The Kattis default output validator of the code verifier against the real one: problemtools'
//! `default_validator` binary (from the `problemtools` wheel that `scripts/python-test-tools.sh`
//! installs; `scripts/test.sh` names it in `REWARDBOX_KATTIS_VALIDATOR`), judging the same answer,
//! output and flags. The cases are generated, seeded, from the kinds of tokens contest answers and
//! programs print and the ways an output differs from its answer.

use rewardbox_verifier_code::kinds::contest::default_validator::{Flags, Judgement, judge};
use std::path::PathBuf;
use std::process::Command;

/// The real validator, or `None` (with a note) when this run has none and does not require it.
fn real_validator() -> Option<PathBuf> {
    match std::env::var_os("REWARDBOX_KATTIS_VALIDATOR") {
        Some(path) => Some(PathBuf::from(path)),
        None if std::env::var_os("REWARDBOX_REQUIRE_PROBLEMTOOLS").is_some() => {
            panic!(
                "REWARDBOX_KATTIS_VALIDATOR is not set: run scripts/test.sh, which installs problemtools"
            )
        }
        None => {
            eprintln!("skipped: set REWARDBOX_KATTIS_VALIDATOR to problemtools' default_validator");
            None
        }
    }
}

/// A small seeded generator (xorshift64*), so the cases are the same in every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// A token as a contest answer has it.
fn answer_token(rng: &mut Rng) -> String {
    match rng.below(9) {
        0 => format!("{}", rng.next() % 2000),
        1 => format!("-{}", rng.next() % 1_000_000_007),
        2 => format!("{}", rng.next() % 10_000_000_000),
        3 => format!(
            "{:.prec$}",
            (rng.next() % 100_000) as f64 / 997.0,
            prec = rng.below(10)
        ),
        4 => format!("{:e}", (rng.next() % 100_000) as f64 * 1e-7),
        5 => rng
            .pick(&[
                "YES",
                "NO",
                "Yes",
                "no",
                "IMPOSSIBLE",
                "possible",
                "Alice",
                "é",
                "x",
            ])
            .to_string(),
        6 => rng
            .pick(&[
                "0", "-0", "0.0", "1e", "1e+", "0x10", "0x1.8p1", "0x", "0x.", ".5", "1.", "inf",
                "nan", "1e400", "00012", "+3", "1,5", "1..2", "1e5x", ".", "-",
            ])
            .to_string(),
        7 => format!("{:.6}", -((rng.next() % 1_000_000) as f64) / 3.0),
        _ => format!("{}", (rng.next() % 100) as f64 / 8.0),
    }
}

/// An output token derived from an answer token: equal, reformatted, or off by a little or a lot.
fn output_token(rng: &mut Rng, answer: &str) -> String {
    let value: Option<f64> = answer.parse().ok().filter(|v: &f64| v.is_finite());
    match (rng.below(10), value) {
        (0..=3, _) => answer.to_string(),
        (4, _) => {
            if rng.chance(50) {
                answer.to_ascii_lowercase()
            } else {
                answer.to_ascii_uppercase()
            }
        }
        (5, Some(v)) => format!("{v:e}"),
        (6, Some(v)) => {
            let scale = [1e-12, 1e-9, 5e-7, 1e-6, 2e-6, 1e-4, 1e-2, 1.0][rng.below(8)];
            let delta = if rng.chance(50) {
                scale
            } else {
                scale * v.abs()
            };
            format!("{:.12}", v + if rng.chance(50) { delta } else { -delta })
        }
        (7, Some(v)) => format!("{:.prec$}", v, prec = rng.below(12)),
        (8, Some(v)) if v.fract() == 0.0 && v.abs() < 1e15 => {
            format!("{}", v as i64 + if rng.chance(50) { 1 } else { -1 })
        }
        _ => answer_token(rng),
    }
}

/// White space between tokens: usually one space or a newline, sometimes more or other kinds.
fn space(rng: &mut Rng) -> &'static str {
    rng.pick(&[
        " ", " ", "\n", "\n", "  ", "\t", "\r\n", " \n", "\x0b", "\x0c",
    ])
}

fn flags(rng: &mut Rng) -> Vec<String> {
    let mut flags = Vec::new();
    if rng.chance(30) {
        flags.push("case_sensitive".to_string());
    }
    if rng.chance(25) {
        flags.push("space_change_sensitive".to_string());
    }
    let tolerance = |rng: &mut Rng| rng.pick(&["1e-9", "1e-6", "0.001", "0.5", "0", "1e-4"]);
    match rng.below(5) {
        0 => {
            flags.push("float_tolerance".into());
            flags.push(tolerance(rng).into());
        }
        1 => {
            flags.push("float_absolute_tolerance".into());
            flags.push(tolerance(rng).into());
        }
        2 => {
            flags.push("float_relative_tolerance".into());
            flags.push(tolerance(rng).into());
        }
        3 => {
            flags.push("float_absolute_tolerance".into());
            flags.push(tolerance(rng).into());
            flags.push("float_relative_tolerance".into());
            flags.push(tolerance(rng).into());
        }
        _ => {}
    }
    flags
}

/// One generated case: answer, output, flags.
fn case(rng: &mut Rng) -> (String, String, Vec<String>) {
    let count = 1 + rng.below(6);
    let answers: Vec<String> = (0..count).map(|_| answer_token(rng)).collect();
    let mut outputs: Vec<String> = answers.iter().map(|a| output_token(rng, a)).collect();
    if rng.chance(8) {
        outputs.pop();
    }
    if rng.chance(8) {
        outputs.push(answer_token(rng));
    }
    let join = |tokens: &[String], rng: &mut Rng| {
        let mut text = String::new();
        if rng.chance(10) {
            text.push_str(space(rng));
        }
        for (i, t) in tokens.iter().enumerate() {
            if i > 0 {
                text.push_str(space(rng));
            }
            text.push_str(t);
        }
        if rng.chance(70) {
            text.push('\n');
        }
        text
    };
    let answer = join(&answers, rng);
    let output = if rng.chance(30) {
        // The same white space as the answer, so space_change_sensitive can accept it.
        let mut output = answer.clone();
        for (a, o) in answers.iter().zip(&outputs).rev() {
            if let Some(at) = output.rfind(a.as_str()) {
                output.replace_range(at..at + a.len(), o);
            }
        }
        output
    } else {
        join(&outputs, rng)
    };
    (answer, output, flags(rng))
}

/// Runs the real validator: `true` for exit 42, `false` for 43; anything else fails the test.
fn real_accepts(
    validator: &PathBuf,
    dir: &std::path::Path,
    answer: &str,
    output: &str,
    flags: &[String],
) -> bool {
    let answer_file = dir.join("judge.ans");
    let output_file = dir.join("team.out");
    let feedback = dir.join("feedback");
    std::fs::create_dir_all(&feedback).unwrap();
    std::fs::write(&answer_file, answer).unwrap();
    std::fs::write(&output_file, output).unwrap();
    let status = Command::new(validator)
        .arg("/dev/null")
        .arg(&answer_file)
        .arg(format!("{}/", feedback.display()))
        .args(flags)
        .stdin(std::fs::File::open(&output_file).unwrap())
        .status()
        .expect("running problemtools' default_validator");
    match status.code() {
        Some(42) => true,
        Some(43) => false,
        other => {
            panic!("default_validator ended with {other:?} on {answer:?} / {output:?} / {flags:?}")
        }
    }
}

#[test]
fn the_same_judgement_as_problemtools_on_generated_cases() {
    let Some(validator) = real_validator() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!(
        "rewardbox-default-validator-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut disagreements = Vec::new();
    let (mut accepted, mut total) = (0, 0);
    for _ in 0..4000 {
        let (answer, output, flags) = case(&mut rng);
        let ours = judge(
            answer.as_bytes(),
            output.as_bytes(),
            &Flags::parse(&flags).unwrap(),
        ) == Judgement::Accepted;
        let theirs = real_accepts(&validator, &dir, &answer, &output, &flags);
        total += 1;
        accepted += usize::from(theirs);
        if ours != theirs {
            disagreements.push(format!(
                "{answer:?} / {output:?} / {flags:?}: problemtools {theirs}, rewardbox {ours}"
            ));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    eprintln!(
        "{total} cases, {accepted} accepted by problemtools, {} disagreements",
        disagreements.len()
    );
    // Both verdicts occur often enough for the comparison to mean something.
    assert!(
        accepted > total / 5 && accepted < total * 4 / 5,
        "{accepted} of {total} accepted"
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
