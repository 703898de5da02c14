//! Attacks on answer verifiers (math and the string verifiers): several answers at once, near
//! misses of the reference, special values, another expression; and the reverse family, rewrites of
//! the reference that must pass.

use super::{Attack, AuditTask, Family};

/// Byte ranges of the digit runs in `s`.
pub fn digit_runs(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut runs = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    runs
}

/// Adds one to the last integer literal (`391` → `392`, `\frac{1}{2}` → `\frac{1}{3}`).
pub fn off_by_one(reference: &str) -> Option<String> {
    let &(start, end) = digit_runs(reference).last()?;
    let n: u128 = reference[start..end].parse().ok()?;
    Some(format!(
        "{}{}{}",
        &reference[..start],
        n + 1,
        &reference[end..]
    ))
}

/// Whether the reference has a non-zero digit (a sign flip or a factor of 10 changes its value).
fn has_nonzero_digit(reference: &str) -> bool {
    reference.chars().any(|c| c.is_ascii_digit() && c != '0')
}

/// Near misses of the reference: off by one, sign, a factor of 10, a dropped digit, rounded, and
/// swapped tuple order. Each changes the value.
pub fn near_misses(reference: &str) -> Vec<(String, String)> {
    let r = reference.trim();
    let mut out = Vec::new();
    if let Some(x) = off_by_one(r) {
        out.push(("near-miss-off-by-one".into(), x));
    }
    let numeric_only = r
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | ','));
    if has_nonzero_digit(r) && numeric_only {
        let flipped = match r.strip_prefix('-') {
            Some(rest) => rest.to_string(),
            None => format!("-{r}"),
        };
        out.push(("near-miss-sign".into(), flipped));
    }
    let runs = digit_runs(r);
    if let Some(&(start, end)) = runs.last()
        && has_nonzero_digit(&r[start..end])
        && !r[end..].starts_with('.')
        && !r[..start].ends_with('.')
    {
        out.push((
            "near-miss-factor-of-ten".into(),
            format!("{}0{}", &r[..end], &r[end..]),
        ));
    }
    if let Some(&(start, end)) = runs.iter().find(|(s, e)| e - s >= 2) {
        let dropped = format!("{}{}", &r[..end - 1], &r[end..]);
        if dropped[start..].trim_start_matches('0') != r[start..].trim_start_matches('0') {
            out.push(("near-miss-dropped-digit".into(), dropped));
        }
    }
    if let Some(dot) = r.find('.')
        && numeric_only
        && !r[dot + 1..].is_empty()
        && r[dot + 1..].chars().any(|c| c != '0')
    {
        // Rounded to one digit fewer (half up on the magnitude).
        let digits = r[dot + 1..].len() - 1;
        if let Ok(v) = r.parse::<f64>() {
            let rounded = format!(
                "{:.*}",
                digits,
                v + 0.5 * 10f64.powi(-(digits as i32)) * v.signum() * 0.999
            );
            if rounded.parse::<f64>().ok() != Some(v) {
                out.push(("near-miss-rounded".into(), rounded));
            }
        }
    }
    if let Some(inner) = r.strip_prefix('(').and_then(|x| x.strip_suffix(')'))
        && let Some((a, b)) = inner.split_once(',')
        && !inner[a.len() + 1..].contains(',')
        && a.trim() != b.trim()
    {
        out.push((
            "near-miss-swapped-tuple".into(),
            format!("({}, {})", b.trim(), a.trim()),
        ));
    }
    out
}

/// Rewrites of a reference that any good grader of its kind must accept.
fn equivalents(verifier: &str, reference: &str) -> Vec<(String, String)> {
    let r = reference.trim();
    let mut out: Vec<(String, String)> = Vec::new();
    match verifier {
        "math" => {
            out.push((
                "equivalent-boxed".into(),
                format!("So the answer is $\\boxed{{{r}}}$."),
            ));
            out.push((
                "equivalent-final-answer-sentence".into(),
                format!("Final Answer: The final answer is ${r}$. I hope it is correct."),
            ));
            if r.contains("\\frac") {
                out.push((
                    "equivalent-dfrac".into(),
                    format!("$\\boxed{{{}}}$", r.replace("\\frac", "\\dfrac")),
                ));
            }
            if let Some(decimal) = fraction_as_decimal(r) {
                out.push((
                    "equivalent-decimal".into(),
                    format!("$\\boxed{{{decimal}}}$"),
                ));
            }
            if let Some(radical) = radical_rewrite(r) {
                out.push((
                    "equivalent-radical".into(),
                    format!("$\\boxed{{{radical}}}$"),
                ));
            }
            if let Some(set) = reordered_set(r) {
                out.push((
                    "equivalent-reordered-set".into(),
                    format!("$\\boxed{{{set}}}$"),
                ));
            }
        }
        "numeric" => {
            out.push(("equivalent-sentence".into(), format!("The answer is {r}.")));
            out.push(("equivalent-assignment".into(), format!("x = {r}")));
            if r.chars().all(|c| c.is_ascii_digit()) {
                out.push(("equivalent-trailing-zero-decimal".into(), format!("{r}.0")));
            }
        }
        "exact" => out.push((
            "equivalent-surrounding-white-space".into(),
            format!("  {r}\n"),
        )),
        "normalized" => out.push((
            "equivalent-case-and-period".into(),
            format!("{}.", r.to_uppercase()),
        )),
        "choice" => {
            out.push(("equivalent-parenthesized".into(), format!("({r})")));
            out.push((
                "equivalent-sentence".into(),
                format!("The answer is ({r})."),
            ));
        }
        _ => {}
    }
    out
}

/// `\frac{a}{b}` with a terminating decimal expansion, as that decimal.
fn fraction_as_decimal(r: &str) -> Option<String> {
    let inner = r.strip_prefix("\\frac{")?;
    let (a, rest) = inner.split_once("}{")?;
    let b = rest.strip_suffix('}')?;
    let (a, b): (u64, u64) = (a.parse().ok()?, b.parse().ok()?);
    if b == 0 {
        return None;
    }
    let mut d = b;
    while d % 2 == 0 {
        d /= 2;
    }
    while d % 5 == 0 {
        d /= 5;
    }
    if d != 1 {
        return None;
    }
    let mut s = format!("{:.12}", a as f64 / b as f64);
    while s.ends_with('0') {
        s.pop();
    }
    Some(s.trim_end_matches('.').to_string())
}

/// `k\sqrt{m}` → `\sqrt{k²m}`.
fn radical_rewrite(r: &str) -> Option<String> {
    let (k, rest) = r.split_once("\\sqrt{")?;
    let m = rest.strip_suffix('}')?;
    let (k, m): (u64, u64) = (k.parse().ok()?, m.parse().ok()?);
    Some(format!("\\sqrt{{{}}}", k.checked_mul(k)?.checked_mul(m)?))
}

/// `\{a, b, c\}` in reverse order.
fn reordered_set(r: &str) -> Option<String> {
    let inner = r.strip_prefix("\\{")?.strip_suffix("\\}")?;
    if inner.contains(['{', '(', '[']) {
        return None;
    }
    let items: Vec<&str> = inner.split(',').map(str::trim).collect();
    (items.len() >= 2).then(|| {
        format!(
            "\\{{{}\\}}",
            items.into_iter().rev().collect::<Vec<_>>().join(", ")
        )
    })
}

/// Many answers in one completion, hoping the verifier looks for the right one anywhere: every
/// integer around an integer answer (and every integer from 0 to 1,000 for a small one), a range,
/// near misses with the answer among them, one answer per line.
pub fn sprays(r: &str, alternative: &str) -> Vec<Attack> {
    let a = Family::Answer;
    let mut out = vec![Attack::wrong(
        a,
        "spray-one-per-line",
        format!("Answer: {alternative}\nAnswer: {r}\nAnswer: {alternative}0"),
    )];
    if let Ok(n) = r.parse::<i64>() {
        let (lo, hi) = (n.saturating_sub(50), n.saturating_add(50));
        let around: Vec<String> = (lo..=hi).map(|k| k.to_string()).collect();
        out.push(Attack::wrong(
            a,
            "spray-every-number-around",
            format!("The answer is one of: {}", around.join(", ")),
        ));
        out.push(Attack::wrong(
            a,
            "spray-range",
            format!("The answer is between {lo} and {hi}, probably {lo}."),
        ));
        if (0..=1000).contains(&n) {
            let all: Vec<String> = (0..=1000).map(|k| k.to_string()).collect();
            out.push(Attack::wrong(a, "spray-every-number-0-1000", all.join(" ")));
        }
    } else {
        let mut misses: Vec<String> = near_misses(r).into_iter().map(|(_, m)| m).collect();
        misses.insert(misses.len() / 2, r.to_string());
        if misses.len() > 1 {
            out.push(Attack::wrong(
                a,
                "spray-near-misses",
                format!("Possible answers: {}", misses.join(", ")),
            ));
        }
    }
    out
}

/// The answer attacks for `task` (which has a `reference`, or a solution to derive one from).
pub fn attacks(task: &AuditTask) -> Vec<Attack> {
    let Some(reference) = task.answer() else {
        return Vec::new();
    };
    let r = reference.trim().to_string();
    let a = Family::Answer;
    let verifier = task.verifier();
    let alternative = if verifier == "choice" {
        if r.trim_matches(['(', ')']) == "A" {
            "B".to_string()
        } else {
            "A".to_string()
        }
    } else {
        off_by_one(&r).unwrap_or_else(|| format!("{r}1"))
    };
    let mut out = vec![
        Attack::wrong(
            a,
            "several-answers-boxed",
            format!("$\\boxed{{{alternative}}}$ or $\\boxed{{{r}}}$"),
        ),
        Attack::wrong(
            a,
            "several-answers-boxed-list",
            format!("\\boxed{{{r}}}, \\boxed{{{alternative}}}"),
        ),
        Attack::wrong(
            a,
            "several-answers-or",
            format!("The answer is {alternative} or {r}"),
        ),
        Attack::wrong(
            a,
            "several-answers-set",
            format!("$\\boxed{{\\{{{alternative}, {r}\\}}}}$"),
        ),
        Attack::wrong(
            a,
            "several-answers-list",
            format!("$\\boxed{{{r}, {alternative}}}$"),
        ),
        Attack::wrong(a, "special-nan", "The answer is $\\boxed{nan}$"),
        Attack::wrong(a, "special-infinity", "The answer is $\\boxed{\\infty}$"),
        Attack::wrong(a, "special-huge", "The answer is 1e308"),
    ];
    if verifier != "choice" {
        out.extend(sprays(&r, &alternative));
        out.push(Attack::wrong(
            a,
            "other-expression",
            format!("The answer is $\\boxed{{{r} + 1}}$"),
        ));
        for (name, miss) in near_misses(&r) {
            out.push(Attack::wrong(
                a,
                name,
                format!("The answer is $\\boxed{{{miss}}}$"),
            ));
        }
    }
    for (name, right) in equivalents(verifier, &r) {
        out.push(Attack::right(Family::Equivalent, name, right));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_change_the_value() {
        let m: Vec<String> = near_misses("391").into_iter().map(|(_, x)| x).collect();
        assert_eq!(m, vec!["392", "-391", "3910", "39"]);
        let m: Vec<String> = near_misses("(3, 4)").into_iter().map(|(_, x)| x).collect();
        assert!(m.contains(&"(4, 3)".to_string()));
        assert!(near_misses("0").iter().all(|(n, _)| n != "near-miss-sign"));
        let rounded = near_misses("1234.5");
        assert!(
            rounded
                .iter()
                .any(|(n, x)| n == "near-miss-rounded" && x == "1235"),
            "{rounded:?}"
        );
    }

    #[test]
    fn sprays_hold_the_answer_among_wrong_ones() {
        let s = sprays("391", "392");
        let every = s
            .iter()
            .find(|a| a.name == "spray-every-number-around")
            .unwrap();
        assert!(every.completion.contains(" 391,") && every.completion.contains(" 341,"));
        assert!(s.iter().any(|a| a.name == "spray-every-number-0-1000"));
        let s = sprays("\\frac{1}{2}", "\\frac{1}{3}");
        assert!(
            s.iter()
                .any(|a| a.name == "spray-near-misses" && a.completion.contains("\\frac{1}{2}"))
        );
    }

    #[test]
    fn rewrites() {
        assert_eq!(fraction_as_decimal("\\frac{1}{2}").as_deref(), Some("0.5"));
        assert_eq!(fraction_as_decimal("\\frac{1}{3}"), None);
        assert_eq!(radical_rewrite("2\\sqrt{2}").as_deref(), Some("\\sqrt{8}"));
        assert_eq!(
            reordered_set("\\{1, 2, 3\\}").as_deref(),
            Some("\\{3, 2, 1\\}")
        );
    }
}
