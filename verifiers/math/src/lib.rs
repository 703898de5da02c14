//! Floor 1 of rewardbox: a built-in verifier component (math answers).
//!
//! The `math` verifier of rewardbox: is the completion's final answer equivalent to the reference?
//!
//! The pipeline: [`extract`] finds answer candidates in the text (boxed, "final answer is", LaTeX
//! spans, plain numbers), [`normalize`] cleans LaTeX, [`parser`] builds an [`ast::Expr`],
//! [`compare`] puts both answers in canonical form and compares them, using exact rational
//! arithmetic from [`number`] wherever the values allow it.
//!
//! Task fields (mirroring Math-Verify's knobs): `"reference"` (required; a string, a number, or a
//! list of accepted answers), `"extract"` (`["latex", "expr"]` by default), `"float_rounding"`
//! (6), `"strict"` (true), `"allow_set_relation_comp"` (false).

pub mod ast;
pub mod compare;
pub mod eval;
pub mod extract;
pub mod lexer;
pub mod normalize;
pub mod number;
pub mod parser;

use ast::Expr;
use compare::{Settings, canonical, equivalent};
use extract::{Candidate, Kind, Targets, candidates};
use guest_common::{FieldError, TaskFields};

wit_bindgen::generate!({
    path: "../../wit",
    world: "verifier",
});

/// Only the last this many bytes of a text are searched for its answer, so that a 10 MB
/// completion costs a bounded amount of work.
pub const MAX_SCANNED_BYTES: usize = 512 * 1024;
/// Most candidates parsed before giving up on a text.
pub const MAX_ATTEMPTS: usize = 64;

/// The task's settings.
#[derive(Debug, Clone, Copy)]
pub struct MathOptions {
    /// What to extract.
    pub targets: Targets,
    /// How to compare.
    pub settings: Settings,
}

impl Default for MathOptions {
    fn default() -> Self {
        MathOptions {
            targets: Targets {
                latex: true,
                expr: true,
            },
            settings: Settings {
                float_rounding: 6,
                strict: true,
                allow_set_relation_comp: false,
            },
        }
    }
}

impl MathOptions {
    /// Reads the optional fields of a task.
    pub fn from_task(task: &TaskFields) -> Result<Self, FieldError> {
        let mut o = MathOptions::default();
        if let Some(v) = task.get("extract") {
            let items = v.as_array().ok_or_else(|| {
                FieldError::new("extract", "must be a list such as [\"latex\", \"expr\"]")
            })?;
            let mut t = Targets {
                latex: false,
                expr: false,
            };
            for item in items {
                match item.as_str() {
                    Some("latex") => t.latex = true,
                    Some("expr") => t.expr = true,
                    _ => {
                        return Err(FieldError::new(
                            "extract",
                            format!("has {item}; the accepted targets are \"latex\" and \"expr\""),
                        ));
                    }
                }
            }
            if !t.latex && !t.expr {
                return Err(FieldError::new(
                    "extract",
                    "must name at least one of \"latex\", \"expr\"",
                ));
            }
            o.targets = t;
        }
        if let Some(v) = task.get("float_rounding") {
            o.settings.float_rounding = v.as_u64().filter(|d| *d <= 30).ok_or_else(|| {
                FieldError::new("float_rounding", "must be an integer from 0 to 30")
            })? as u32;
        }
        o.settings.strict = task.optional_bool("strict", true)?;
        o.settings.allow_set_relation_comp =
            task.optional_bool("allow_set_relation_comp", false)?;
        Ok(o)
    }
}

/// An answer read from a text.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The parsed, canonical answer, when a candidate parsed.
    pub parsed: Option<Expr>,
    /// The text it was read from (or the first candidate's text when none parsed).
    pub text: Option<String>,
}

/// Reads the final answer of `text`. A `reference` without LaTeX delimiters is first read whole
/// (`\frac{1}{2}`, `2\sqrt{2}`): it is an answer, not a solution.
pub fn read_answer(text: &str, o: &MathOptions, is_reference: bool) -> Answer {
    let start = text.len().saturating_sub(MAX_SCANNED_BYTES);
    let start = (start..text.len())
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(text.len());
    let text = &text[start..];
    let delimited = ["$", "\\(", "\\[", "\\boxed", "\\fbox"]
        .iter()
        .any(|d| text.contains(d));
    // A reference, or an answer that is a bare list of formulas (`a=3,b=1; a=11,b=1`): read whole,
    // not cut at its last formula.
    let whole = is_reference || is_bare_formula_list(text);
    if whole
        && o.targets.latex
        && !delimited
        && let Some(e) = parse_latex(text, false, o)
    {
        return Answer {
            parsed: Some(e),
            text: Some(text.trim().to_string()),
        };
    }
    let mut fallback = None;
    let mut failed_latex: Vec<(usize, usize)> = Vec::new();
    for c in candidates(text, o.targets).into_iter().take(MAX_ATTEMPTS) {
        let overlaps = |c: &Candidate| {
            failed_latex
                .iter()
                .any(|(lo, hi)| c.span.0 < *hi && c.span.1 > *lo)
        };
        if c.kind != Kind::Latex && overlaps(&c) {
            continue;
        }
        if fallback.is_none() {
            fallback = Some(c.text.clone());
        }
        match parse_candidate(&c, o) {
            Some(e) => {
                // `400 or 391` in plain text: a hedge offers two answers, which is no single answer.
                let hedge = (c.kind != Kind::Latex)
                    .then(|| hedged_number(text, c.span.0))
                    .flatten()
                    .filter(|previous| *previous != c.text);
                let e = match hedge {
                    Some(previous) => Expr::List(vec![
                        parser::parse(&previous)
                            .map(|p| canonical(p, &o.settings))
                            .unwrap_or(Expr::Text(previous)),
                        e,
                    ]),
                    None => e,
                };
                // `391 or 392`, `391 (or maybe 392)`, `391 and 392`: another answer offered after it.
                let e = match hedged_after(text, c.span.1, o) {
                    Some(other) => Expr::List(vec![e, other]),
                    None => e,
                };
                return Answer {
                    parsed: Some(e),
                    text: Some(c.text.trim().to_string()),
                };
            }
            None if c.kind == Kind::Latex => failed_latex.push(c.span),
            None => {}
        }
    }
    // Last resort: a short text that is itself an answer (`\sqrt{2}`).
    if o.targets.latex
        && text.len() <= 200
        && let Some(e) = parse_latex(text, false, o)
    {
        return Answer {
            parsed: Some(e),
            text: Some(text.trim().to_string()),
        };
    }
    Answer {
        parsed: None,
        text: fallback,
    }
}

/// A short text with a comma or semicolon, a letter, and no prose: every word is a LaTeX command,
/// a single letter (a variable) or a unit (`x = \frac{1}{3}, x = 2`, `{12 cm, 9}`).
fn is_bare_formula_list(text: &str) -> bool {
    // Without a letter it is a number written with separators (`1,000,000`, `3,5`), read as such.
    if text.len() > 200
        || !text.contains([',', ';'])
        || !text.chars().any(|c| c.is_ascii_alphabetic())
    {
        return false;
    }
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let end = (i..b.len())
            .find(|&j| !b[j].is_ascii_alphabetic())
            .unwrap_or(b.len());
        let word = &text[i..end];
        let command = i > 0 && b[i - 1] == b'\\';
        if !(command || word.len() == 1 || normalize::is_unit_word(word)) {
            return false;
        }
        i = end;
    }
    true
}

/// Longest unparsed answer, in bytes, compared as text.
pub const MAX_TEXT_ANSWER: usize = 1000;

/// Longest candidate, in bytes, that is parsed.
pub const MAX_ANSWER_BYTES: usize = 100_000;

/// The number written right before `start` and joined to it by `or`, `and` or a comma.
fn hedged_number(text: &str, start: usize) -> Option<String> {
    let before = text[..start].trim_end();
    let lower = before.to_ascii_lowercase();
    let connector = [" or", " and", ","].iter().find(|c| lower.ends_with(*c))?;
    let rest = before[..before.len() - connector.len()].trim_end();
    let digits_start = rest
        .char_indices()
        .rev()
        .take_while(|(_, ch)| ch.is_ascii_digit() || *ch == '.' || *ch == '-')
        .last()
        .map(|(i, _)| i)?;
    let number = &rest[digits_start..];
    number
        .chars()
        .any(|ch| ch.is_ascii_digit())
        .then(|| number.trim_end_matches('.').to_string())
}

/// Words that may stand between a connector and the other answer of a hedge (`or possibly 392`,
/// `or it could be 392`).
const HEDGE_FILLERS: &[&str] = &[
    "possibly",
    "maybe",
    "perhaps",
    "alternatively",
    "also",
    "even",
    "else",
    "rather",
    "it",
    "could",
    "might",
    "may",
    "be",
    "is",
    "just",
    "potentially",
    "otherwise",
];

/// The other answer offered right after an answer ending at `end`: `or` / `and` (after an
/// optional comma or parenthesis), at most three filler words, then an answer. `None` when what
/// follows is no answer (`391, which is odd`, `391 and nothing else`).
fn hedged_after(text: &str, end: usize, o: &MathOptions) -> Option<Expr> {
    let rest = &text[end..];
    let window = &rest[..extract::floor_boundary(rest, rest.len().min(120))];
    let mut t = window.trim_start();
    t = t.strip_prefix(',').unwrap_or(t).trim_start();
    t = t.strip_prefix('(').unwrap_or(t).trim_start();
    let lower = t.to_ascii_lowercase();
    let connector = ["or", "and"].into_iter().find(|w| {
        lower.starts_with(w) && !lower[w.len()..].starts_with(|c: char| c.is_ascii_alphabetic())
    })?;
    t = t[connector.len()..].trim_start();
    for _ in 0..3 {
        let word_len = t
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(t.len());
        if word_len == 0 || !HEDGE_FILLERS.contains(&t[..word_len].to_ascii_lowercase().as_str()) {
            break;
        }
        t = t[word_len..].trim_start();
    }
    if t.is_empty() {
        return None;
    }
    let offset = t.as_ptr() as usize - text.as_ptr() as usize;
    let tail = &text[offset..];
    let tail = &tail[..extract::floor_boundary(tail, tail.len().min(200))];
    candidates(tail, o.targets)
        .into_iter()
        .filter(|c| c.span.0 == 0)
        .find_map(|c| parse_candidate(&c, o))
}

fn parse_latex(src: &str, percent: bool, o: &MathOptions) -> Option<Expr> {
    if src.len() > MAX_ANSWER_BYTES {
        return None;
    }
    let normalized = normalize::normalize_latex(src);
    let e = parser::parse(&normalized).ok()?;
    let e = if percent && !matches!(e, Expr::Percent(_)) {
        Expr::Percent(Box::new(e))
    } else {
        e
    };
    Some(canonical(e, &o.settings))
}

fn parse_candidate(c: &Candidate, o: &MathOptions) -> Option<Expr> {
    match c.kind {
        Kind::Latex => parse_latex(&c.text, c.percent, o),
        Kind::Expr => parser::parse(&normalize::plain_to_latex(&c.text))
            .ok()
            .map(|e| canonical(e, &o.settings)),
        Kind::Number => {
            let digits = c.text.trim_start_matches('-');
            if digits.len() > parser::MAX_NUMBER_DIGITS {
                return None;
            }
            let e = parser::parse(&c.text).ok()?;
            Some(if c.percent {
                Expr::Percent(Box::new(e))
            } else {
                e
            })
        }
    }
}

/// What the verifier decided about one completion.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// Whether the answer is equivalent to the reference.
    pub passed: bool,
    /// The extracted answers, for the verdict's detail.
    pub detail: String,
}

/// Judges `completion` against the task's reference(s).
pub fn judge(task: &TaskFields, completion: &str) -> Result<Judgement, FieldError> {
    let o = MathOptions::from_task(task)?;
    let references = task.required_answers("reference")?;
    let golds = references
        .iter()
        .map(|r| {
            let a = read_answer(r, &o, true);
            if a.parsed.is_none() && a.text.is_none() {
                Err(FieldError::new(
                    "reference",
                    format!("has no answer that can be read in {}", preview(r)),
                ))
            } else {
                Ok(a)
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let pred = read_answer(completion, &o, false);
    let Some(pred_text) = pred.text.clone() else {
        return Ok(Judgement {
            passed: false,
            detail: "no answer found in the completion".into(),
        });
    };
    for gold in &golds {
        let equal = match (&gold.parsed, &pred.parsed) {
            (Some(g), Some(p)) => equivalent(g, p, &o.settings),
            _ => match (&gold.text, &pred.text) {
                (Some(g), Some(p)) if g.len() <= MAX_TEXT_ANSWER && p.len() <= MAX_TEXT_ANSWER => {
                    plain(g) == plain(p)
                }
                _ => false,
            },
        };
        if equal {
            return Ok(Judgement {
                passed: true,
                detail: format!("answer {} equals the reference", preview(&pred_text)),
            });
        }
    }
    let gold_text = golds[0].text.clone().unwrap_or_default();
    Ok(Judgement {
        passed: false,
        detail: format!(
            "answer {} differs from the reference {}",
            preview(&pred_text),
            preview(&gold_text)
        ),
    })
}

fn plain(s: &str) -> String {
    normalize::normalize_latex(s)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase()
}

fn preview(s: &str) -> String {
    let t: String = s.trim().chars().take(80).collect();
    if t.len() < s.trim().len() {
        format!("\"{t}…\"")
    } else {
        format!("\"{t}\"")
    }
}

struct MathVerifier;

impl Guest for MathVerifier {
    fn verify(task: String, completion: String) -> Result<Verdict, VerifyError> {
        let task = TaskFields::parse(&task).map_err(|e| VerifyError::InvalidTask(e.0))?;
        let j = judge(&task, &completion).map_err(|e| VerifyError::InvalidTask(e.0))?;
        Ok(Verdict {
            score: if j.passed { 1.0 } else { 0.0 },
            passed: j.passed,
            detail: j.detail,
            cases: Vec::new(),
        })
    }
}

export!(MathVerifier);
