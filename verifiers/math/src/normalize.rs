//! Cleans an extracted LaTeX answer before parsing: boxes, dollar signs, spacing, units, degrees,
//! thousands separators, words joining several answers, doubled backslashes.

/// Unit words dropped after a number (`5 cm`, `\text{ meters}`).
const UNIT_WORDS: &[&str] = &[
    "units",
    "unit",
    "cm",
    "mm",
    "km",
    "meters",
    "meter",
    "metres",
    "metre",
    "inches",
    "inch",
    "feet",
    "foot",
    "ft",
    "miles",
    "mile",
    "mph",
    "hours",
    "hour",
    "hrs",
    "minutes",
    "minute",
    "mins",
    "seconds",
    "second",
    "sec",
    "days",
    "day",
    "weeks",
    "week",
    "years",
    "year",
    "dollars",
    "dollar",
    "cents",
    "cent",
    "degrees",
    "degree",
    "kg",
    "grams",
    "gram",
    "pounds",
    "pound",
    "lbs",
    "ounces",
    "ounce",
    "liters",
    "liter",
    "litres",
    "ml",
    "sq",
    "square",
    "cubic",
    "people",
    "students",
    "ways",
    "points",
    "times",
    "percentage",
    "percent",
    "pct",
];

/// Whether `word` names a unit (`cm`, `hours`, `percent`), as dropped after a number.
pub fn is_unit_word(word: &str) -> bool {
    UNIT_WORDS.contains(&word.to_ascii_lowercase().as_str())
}

/// A plain formula written as code (`sqrt(2)*x**2`, `exp(-x)`, `3 + 4*I`) in the LaTeX the
/// parser reads: known functions become commands (`log` is the natural logarithm, as in code),
/// `pi` and `oo` constants, a lone `I` the imaginary unit.
pub fn plain_to_latex(src: &str) -> String {
    let mut out = String::with_capacity(src.len() + 8);
    let mut rest = src;
    while let Some(c) = rest.chars().next() {
        if !c.is_ascii_alphabetic() {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let len = rest
            .find(|ch: char| !ch.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let word = &rest[..len];
        let latex = match word.to_ascii_lowercase().as_str() {
            "pi" => "\\pi ".to_string(),
            "oo" | "inf" | "infinity" => "\\infty ".to_string(),
            "asin" | "arcsin" => "\\arcsin".to_string(),
            "acos" | "arccos" => "\\arccos".to_string(),
            "atan" | "arctan" => "\\arctan".to_string(),
            "log" | "ln" => "\\ln".to_string(),
            "sqrt" | "sin" | "cos" | "tan" | "sec" | "csc" | "cot" | "sinh" | "cosh" | "tanh"
            | "exp" => format!("\\{}", word.to_ascii_lowercase()),
            _ if word == "I" => "i".to_string(),
            _ => word.to_string(),
        };
        out.push_str(&latex);
        rest = &rest[len..];
    }
    out
}

/// Normalises an extracted LaTeX answer.
pub fn normalize_latex(src: &str) -> String {
    let mut s = src.to_string();
    // Thousands separators: `11,\! 111`.
    while let Some(at) = s.find(",\\!") {
        let rest = s[at + 3..].trim_start().to_string();
        s = format!("{}{}", &s[..at], rest);
    }
    s = undouble_backslashes(&s);
    s = unbox_all(&s);
    s = s.replace("\\$", "").replace('$', " ");
    if let Some(idx) = s.find("\\approx") {
        let left = s[..idx].trim();
        // `x = \frac{1}{3} \approx 0.333` answers its exact value; `y \approx 4.5` (a variable and
        // nothing else on the left) and `\approx 4.5` answer the approximation.
        s = if left.is_empty() || is_variable(left) {
            s[idx + "\\approx".len()..].to_string()
        } else {
            left.to_string()
        };
    }
    for (from, to) in [
        ("\\qquad", " "),
        ("\\quad", " "),
        ("{,}", ""),
        ("\\left.", ""),
        ("\\right.", ""),
        ("^{\\circ}", ""),
        ("^\\circ", ""),
        ("\\circ", ""),
        ("°", ""),
        ("\\degree", ""),
        ("\\dfrac", "\\frac"),
        ("\\tfrac", "\\frac"),
        ("\\cfrac", "\\frac"),
        ("\\displaystyle", " "),
        ("²", "^2"),
        ("³", "^3"),
    ] {
        if s.contains(from) {
            s = s.replace(from, to);
        }
    }
    s = mixed_numbers(&s);
    s = text_groups(&s);
    s = join_words(&s);
    s = strip_unit_words(&s);
    let trimmed = s
        .trim()
        .trim_end_matches(['.', ',', ';', ' ', '\n'])
        .trim_end_matches("\\\\")
        .trim();
    trimmed.trim_start_matches(['=', ' ']).to_string()
}

/// A variable's name alone: a letter or a Greek letter, with an optional subscript (`y`, `x_1`,
/// `\theta`, `a_{n}`).
fn is_variable(s: &str) -> bool {
    let (name, subscript) = s.split_once('_').unwrap_or((s, ""));
    let name = name.trim();
    let named = name.len() == 1 && name.chars().all(|c| c.is_ascii_alphabetic())
        || name.strip_prefix('\\').is_some_and(|g| {
            matches!(
                g,
                "alpha"
                    | "beta"
                    | "gamma"
                    | "delta"
                    | "theta"
                    | "lambda"
                    | "mu"
                    | "phi"
                    | "rho"
                    | "sigma"
                    | "omega"
                    | "varphi"
                    | "vartheta"
            )
        });
    let subscript = subscript
        .trim()
        .trim_start_matches('{')
        .trim_end_matches('}');
    named && subscript.chars().all(|c| c.is_ascii_alphanumeric())
}

/// `\\frac` (a backslash escaped once too often, common in JSON-mangled outputs) → `\frac`.
fn undouble_backslashes(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\\' && i + 1 < chars.len() {
            let next = chars[i + 1];
            if next == '\\' {
                if chars.get(i + 2).is_some_and(|c| c.is_ascii_alphabetic()) {
                    out.push('\\');
                } else {
                    out.push_str("\\\\");
                }
            } else if matches!(next, ' ' | ',' | ';' | '!' | ':') {
                // Spacing commands: `\ `, `\,`, `\;`, `\!`, `\:`.
                out.push(' ');
            } else {
                out.push('\\');
                out.push(next);
            }
            i += 2;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// The end (index after the closing brace) of the group opening at `open` (a `{`).
pub fn group_end(s: &str, open: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                i += 2;
                continue;
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Replaces every `\boxed{X}` / `\fbox{X}` by `X`; several boxes become a comma list.
fn unbox_all(s: &str) -> String {
    let mut contents = Vec::new();
    let mut i = 0;
    while let Some(rel) = next_box(&s[i..]) {
        let (at, len) = rel;
        let open = i + at + len;
        match group_end(s, open) {
            Some(end) => {
                contents.push(s[open + 1..end - 1].to_string());
                i = end;
            }
            None => return s.to_string(),
        }
    }
    if contents.is_empty() {
        s.to_string()
    } else {
        contents.join(", ")
    }
}

/// Position and length of the next `\\boxed{` or `\\fbox{` (up to the brace). One pass over the
/// text, so that finding every box is linear.
pub fn next_box(s: &str) -> Option<(usize, usize)> {
    for (p, _) in s.match_indices('\\') {
        let rest = &s[p + 1..];
        let len = if rest.starts_with("boxed") {
            6
        } else if rest.starts_with("fbox") {
            5
        } else {
            continue;
        };
        let after = &s[p + len..];
        let spaces = after.len() - after.trim_start().len();
        if after[spaces..].starts_with('{') {
            return Some((p, len + spaces));
        }
    }
    None
}

/// `\text{...}` and friends: `and`/`or` become commas; unit words are dropped when the answer has
/// other content; other words stay as text.
fn text_groups(s: &str) -> String {
    const TEXT_COMMANDS: &[&str] = &[
        "\\text",
        "\\textbf",
        "\\textit",
        "\\mbox",
        "\\mathrm",
        "\\textrm",
        "\\textnormal",
        "\\textup",
        "\\textsf",
        "\\operatorname",
    ];
    let mut out = String::with_capacity(s.len());
    let mut words = Vec::new();
    let mut i = 0;
    'outer: while i < s.len() {
        for cmd in TEXT_COMMANDS {
            if s[i..].starts_with(cmd)
                && s[i + cmd.len()..].starts_with('{')
                && let Some(mut end) = group_end(s, i + cmd.len())
            {
                let inner = s[i + cmd.len() + 1..end - 1]
                    .trim_matches(|c: char| c == '~' || c.is_whitespace())
                    .to_string();
                // `\text{ cm}^2`: the power belongs to the unit.
                let mut inner = inner;
                for power in ["^2", "^3", "^{2}", "^{3}"] {
                    if s[end..].starts_with(power) {
                        inner.push_str(&power.replace(['{', '}'], ""));
                        end += power.len();
                        break;
                    }
                }
                let inner = inner.as_str();
                let lower = inner.to_ascii_lowercase();
                if matches!(lower.as_str(), "and" | "or" | ",") {
                    out.push_str(", ");
                } else {
                    let marker = format!("\u{1}{}\u{1}", words.len());
                    words.push(inner.to_string());
                    out.push_str(&marker);
                }
                i = end;
                continue 'outer;
            }
        }
        let ch = s[i..].chars().next().expect("in bounds");
        out.push(ch);
        i += ch.len_utf8();
    }
    if words.is_empty() {
        return out;
    }
    let mut without: String = out.clone();
    for k in 0..words.len() {
        without = without.replace(&format!("\u{1}{k}\u{1}"), "");
    }
    let other_content = without.chars().any(|c| c.is_alphanumeric() || c == '\\');
    let mut result = out;
    for (k, w) in words.iter().enumerate() {
        let is_word = w.chars().filter(|c| c.is_alphabetic()).count() >= 2
            && w.chars()
                .all(|c| c.is_alphabetic() || c == ' ' || c == '^' || c == '2' || c == '3');
        let replacement = if other_content && (is_word || w.is_empty()) {
            String::new()
        } else if w.chars().all(|c| c.is_alphabetic()) && !w.is_empty() {
            format!("\\text{{{w}}}")
        } else {
            w.clone()
        };
        result = result.replace(&format!("\u{1}{k}\u{1}"), &replacement);
    }
    result
}

/// `2\frac{1}{2}` (a whole number then a proper fraction of whole numbers): the mixed number
/// `(2+\frac{1}{2})`.
fn mixed_numbers(s: &str) -> String {
    if !s.contains("\\frac{") {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut i = 0;
    let b = s.as_bytes();
    while i < s.len() {
        let starts_number = b[i].is_ascii_digit()
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric()
                    || matches!(b[i - 1], b'.' | b'}' | b'^' | b'_')));
        if starts_number {
            let digits = s[i..].bytes().take_while(u8::is_ascii_digit).count();
            let after = i + digits;
            if let Some((num, den, end)) = simple_frac(s, after)
                && num < den
            {
                out.push_str(&format!("({}+\\frac{{{num}}}{{{den}}})", &s[i..after]));
                i = end;
                continue;
            }
            out.push_str(&s[i..after]);
            i = after;
            continue;
        }
        let ch = s[i..].chars().next().expect("in bounds");
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// `\frac{3}{4}` at `at` (whole numbers only): numerator, denominator, index after it.
fn simple_frac(s: &str, at: usize) -> Option<(u64, u64, usize)> {
    let rest = s.get(at..)?.strip_prefix("\\frac{")?;
    let num_len = rest.find('}')?;
    let num: u64 = rest[..num_len].trim().parse().ok()?;
    let rest2 = rest[num_len + 1..].strip_prefix('{')?;
    let den_len = rest2.find('}')?;
    let den: u64 = rest2[..den_len].trim().parse().ok()?;
    let end = at + "\\frac{".len() + num_len + 1 + 1 + den_len + 1;
    (den > 0).then_some((num, den, end))
}

/// ` and ` / ` or ` between answers, and `)or(`, become commas.
fn join_words(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let word = |w: &str| chars[i..].iter().take(w.len()).copied().eq(w.chars());
        let prev_ok = i == 0 || !chars[i - 1].is_alphabetic() && chars[i - 1] != '\\';
        for w in ["and", "or"] {
            if prev_ok && word(w) {
                let after = chars.get(i + w.len()).copied();
                if after.is_none_or(|c| !c.is_alphabetic()) {
                    out.push(',');
                    i += w.len();
                    break;
                }
            }
        }
        if i < chars.len() {
            out.push(chars[i]);
            i += 1;
        }
    }
    // A comma just produced next to an existing one collapses.
    out.replace(", ,", ",").replace(",,", ",")
}

/// Drops unit words written after a number (`5 cm`, `30 degrees`).
fn strip_unit_words(s: &str) -> String {
    // A list in one group (`{12 cm, 9}`): its parts.
    let trimmed = s.trim();
    if let Some(inner) = trimmed.strip_prefix('{').and_then(|t| t.strip_suffix('}'))
        && group_end(trimmed, 0) == Some(trimmed.len())
    {
        return format!("{{{}}}", strip_unit_words(inner));
    }
    // Each part of a list has its own unit (`12 cm, 9`).
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    if parts.len() > 1 {
        return parts
            .into_iter()
            .map(strip_trailing_unit_words)
            .collect::<Vec<_>>()
            .join(",");
    }
    strip_trailing_unit_words(s)
}

/// `5 cm` → `5`: unit words at the end, when something comes before them.
fn strip_trailing_unit_words(s: &str) -> String {
    let mut s = s.trim_end().to_string();
    loop {
        let Some((head, last)) = s.rsplit_once(|c: char| c.is_whitespace() || c == '}') else {
            return s;
        };
        let word = last.trim_end_matches(['.', ',']);
        if !UNIT_WORDS.contains(&word.to_ascii_lowercase().as_str()) || head.trim().is_empty() {
            return s;
        }
        let cut = s.len() - last.len();
        s = s[..cut].trim_end().to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_decoration() {
        assert_eq!(normalize_latex("\\boxed{\\dfrac{1}{3}}"), "\\frac{1}{3}");
        assert_eq!(
            normalize_latex("\\frac{1}{3} \\text{meters}"),
            "\\frac{1}{3}"
        );
        assert_eq!(normalize_latex("90^\\circ"), "90");
        assert_eq!(normalize_latex("11,\\! 111,\\! 100"), "11111100");
        assert_eq!(normalize_latex("14{,}916"), "14916");
        assert_eq!(normalize_latex("12\\text{ and }13"), "12, 13");
        assert_eq!(normalize_latex("\\text{Evelyn}"), "\\text{Evelyn}");
        assert_eq!(normalize_latex("x=1/3\\approx1.3"), "x=1/3");
        assert_eq!(normalize_latex("y \\approx 4.5"), "4.5");
        assert_eq!(normalize_latex("x_1 \\approx 2.2"), "2.2");
        assert_eq!(normalize_latex("\\theta \\approx 0.5"), "0.5");
        assert_eq!(normalize_latex("2y \\approx 4.5"), "2y");
        assert_eq!(normalize_latex("12 cm, 9"), "12, 9");
        assert_eq!(normalize_latex("48\\textnormal{ km}"), "48");
        assert_eq!(normalize_latex("\\\\frac{1}{2}"), "\\frac{1}{2}");
        assert_eq!(normalize_latex("5 cm"), "5");
        assert_eq!(normalize_latex("5 \\mathrm{~cm}"), "5");
        assert_eq!(normalize_latex("5\\text{ cm}^2"), "5");
        assert_eq!(normalize_latex("1\\frac{1}{2}"), "(1+\\frac{1}{2})");
        assert_eq!(normalize_latex("-12\\frac{3}{4}"), "-(12+\\frac{3}{4})");
        assert_eq!(normalize_latex("2\\frac{3}{2}"), "2\\frac{3}{2}");
        assert_eq!(normalize_latex("x^2\\frac{1}{2}"), "x^2\\frac{1}{2}");
    }
}
