//! Finds the final answer in a completion (or a reference) the way Math-Verify does: candidates
//! are grouped by priority (boxed answers and "final answer is" first, then "answer:", then any
//! LaTeX span or number), tried from the rightmost within a group, and the first that parses wins.
//!
//! Hand-written scanners instead of regular expressions: they run in a fresh sandbox for every
//! completion, where compiling patterns would cost more than the comparison, and each is linear in
//! the input so a 10 MB completion cannot make extraction quadratic.

use crate::normalize::next_box;

/// How a candidate is read.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// LaTeX, normalised then parsed.
    Latex,
    /// A plain expression such as `(1/2)*(1/2)`.
    Expr,
    /// A plain number, already cleaned (`1,000.99` → `1000.99`).
    Number,
}

/// One possible answer in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The answer text.
    pub text: String,
    /// How to read it.
    pub kind: Kind,
    /// Whether a percent sign or word follows it.
    pub percent: bool,
    /// Byte span in the source, for ordering and for skipping numbers inside failed LaTeX.
    pub span: (usize, usize),
    /// Priority group: lower is tried first.
    pub priority: u32,
}

/// Which extraction targets are enabled (the task's `"extract"`).
#[derive(Debug, Clone, Copy)]
pub struct Targets {
    /// LaTeX spans and boxes.
    pub latex: bool,
    /// Plain numbers and expressions.
    pub expr: bool,
}

/// Characters of a plain expression.
fn is_expr_char(c: char) -> bool {
    c.is_ascii_digit()
        || c == '.'
        || c.is_whitespace()
        || matches!(c, '+' | '-' | '*' | '×' | '/' | '^' | '(' | ')' | '÷')
}

fn is_operator(c: char) -> bool {
    matches!(c, '+' | '-' | '*' | '×' | '/' | '^' | '÷')
}

const CURRENCY: &str = "$€£¥₹₽₪₩₫฿₡₢₣₤₥₦₧₨₭₮₯₰₱₲₳₴₵₶₷₸₺₻₼₾₿";

/// Every candidate, in the order to try them.
pub fn candidates(text: &str, targets: Targets) -> Vec<Candidate> {
    let mut out = Vec::new();
    let envs = if targets.latex {
        latex_envs(text)
    } else {
        Vec::new()
    };
    if targets.latex {
        boxed_runs(text, &mut out);
        for env in &envs {
            out.push(env.candidate(300));
        }
        anchored_latex(text, &envs, &mut out);
    }
    if targets.expr {
        anchored_exprs(text, &mut out);
        // Plain numbers and expressions are only looked for near the end: the rightmost wins.
        let tail = floor_boundary(text, text.len().saturating_sub(PLAIN_TAIL_BYTES));
        out.extend(plain_exprs(text, tail, text.len()));
    }
    // Within a priority group, the rightmost end first, then the leftmost start (the longer one).
    out.sort_by(|a, b| {
        a.priority
            .cmp(&b.priority)
            .then(b.span.1.cmp(&a.span.1))
            .then(a.span.0.cmp(&b.span.0))
    });
    out
}

/// A LaTeX span (`$...$`, `$$...$$`, `\[...\]`, `\(...\)`, ` [...] `, `\frac{1}{2}`), possibly a
/// chain of spans joined by `,`/`and`/`or`.
#[derive(Debug, Clone)]
struct Env {
    start: usize,
    end: usize,
    contents: Vec<String>,
    percent: bool,
}

impl Env {
    fn candidate(&self, priority: u32) -> Candidate {
        Candidate {
            text: self.contents.join(", "),
            kind: Kind::Latex,
            percent: self.percent,
            span: (self.start, self.end),
            priority,
        }
    }
}

fn preceded_by(text: &str, at: usize, c: u8) -> bool {
    at > 0 && text.as_bytes()[at - 1] == c
}

/// Positions of every unescaped closing delimiter and of every line break, so that finding the
/// closer of a span is a binary search: the scan stays linear on text full of unclosed openers.
struct Closers {
    display_dollar: Vec<usize>,
    display_bracket: Vec<usize>,
    inline_dollar: Vec<usize>,
    inline_paren: Vec<usize>,
    newlines: Vec<usize>,
}

impl Closers {
    fn new(text: &str) -> Self {
        let unescaped = |needle: &str| -> Vec<usize> {
            text.match_indices(needle)
                .map(|(i, _)| i)
                .filter(|i| !preceded_by(text, *i, b'\\'))
                .collect()
        };
        Closers {
            display_dollar: unescaped("$$"),
            display_bracket: unescaped("\\]"),
            inline_dollar: unescaped("$"),
            inline_paren: unescaped("\\)"),
            newlines: text.match_indices('\n').map(|(i, _)| i).collect(),
        }
    }

    /// The first position in `positions` at or after `from`; for a one-line span, only if no line
    /// break comes first.
    fn next(&self, positions: &[usize], from: usize, single_line: bool) -> Option<usize> {
        let at = *positions.get(positions.partition_point(|p| *p < from))?;
        if single_line
            && let Some(nl) = self
                .newlines
                .get(self.newlines.partition_point(|p| *p < from))
            && *nl < at
        {
            return None;
        }
        Some(at)
    }
}

fn env_at(text: &str, i: usize, closers: &Closers) -> Option<(usize, usize, usize)> {
    let rest = &text[i..];
    let escaped = preceded_by(text, i, b'\\');
    if rest.starts_with("$$") && !escaped {
        let close = closers.next(&closers.display_dollar, i + 2, false)?;
        return (close > i + 2).then_some((i + 2, close, close + 2));
    }
    if rest.starts_with("\\[") && !escaped {
        let close = closers.next(&closers.display_bracket, i + 2, false)?;
        return (close > i + 2).then_some((i + 2, close, close + 2));
    }
    if rest.starts_with('$') && !escaped && !(i > 0 && text.as_bytes()[i - 1].is_ascii_digit()) {
        let close = closers.next(&closers.inline_dollar, i + 1, true)?;
        return (close > i + 1).then_some((i + 1, close, close + 1));
    }
    if rest.starts_with("\\(") && !escaped {
        let close = closers.next(&closers.inline_paren, i + 2, true)?;
        return (close > i + 2).then_some((i + 2, close, close + 2));
    }
    if rest.starts_with('[') && i > 0 && text.as_bytes()[i - 1].is_ascii_whitespace() {
        let close = rest.find([']', '[', '\n'])?;
        if rest.as_bytes()[close] != b']' || close <= 1 {
            return None;
        }
        let after = i + close + 1;
        if text[after..]
            .chars()
            .next()
            .is_some_and(|c| c.is_whitespace())
        {
            return Some((i + 1, i + close, after));
        }
        return None;
    }
    let frac = rest.strip_prefix('-').unwrap_or(rest);
    if frac.starts_with("\\frac{") {
        let skip = rest.len() - frac.len();
        let after1 = simple_number_group(frac, 5)?;
        let after2 = simple_number_group(frac, after1)?;
        return Some((i, i + skip + after2, i + skip + after2));
    }
    None
}

/// `{12}` or `{-1.5}` at `at`: the index after the group.
fn simple_number_group(s: &str, at: usize) -> Option<usize> {
    let rest = s.get(at..)?.strip_prefix('{')?;
    // A simple number is short: look for its closing brace nearby only, keeping the scan linear.
    let close = rest.bytes().take(64).position(|b| b == b'}')?;
    let inner = &rest[..close];
    let digits = inner.strip_prefix('-').unwrap_or(inner);
    let ok = !digits.is_empty()
        && digits
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
        && digits.starts_with(|c: char| c.is_ascii_digit());
    ok.then_some(at + 1 + close + 1)
}

/// A percent marker right after `at` (`\%`, `%`, `percent`, `pct`): the index after it.
fn percent_after(text: &str, at: usize) -> Option<usize> {
    let rest = &text[at..];
    let trimmed = rest.trim_start();
    let ws = rest.len() - trimmed.len();
    for marker in [
        "\\%",
        "%",
        "percentage",
        "percent",
        "Percentage",
        "Percent",
        "pct",
        "Pct",
    ] {
        if trimmed.starts_with(marker) {
            return Some(at + ws + marker.len());
        }
    }
    None
}

/// All LaTeX spans, scanned left to right like a regular expression's `finditer`.
fn latex_envs(text: &str) -> Vec<Env> {
    let closers = Closers::new(text);
    let mut envs = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if !text.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let Some((cs, ce, end)) = env_at(text, i, &closers) else {
            i += 1;
            continue;
        };
        let mut env = Env {
            start: i,
            end,
            contents: vec![text[cs..ce].to_string()],
            percent: false,
        };
        if let Some(after) = percent_after(text, end) {
            env.percent = true;
            env.end = after;
            env.contents[0] = format!("{}\\%", env.contents[0]);
        }
        // Up to five more spans joined by `,` / `and` / `or`.
        for _ in 0..5 {
            let rest = &text[env.end..];
            let t = rest.trim_start();
            let mut j = env.end + (rest.len() - t.len());
            let mut t2 = t;
            if let Some(x) = t2.strip_prefix(',') {
                t2 = x;
            }
            let connector =
                if let Some(x) = t2.strip_prefix("and").or_else(|| t2.strip_prefix("or")) {
                    Some(x)
                } else if t.starts_with(',') {
                    Some(t2)
                } else {
                    None
                };
            let Some(after_conn) = connector else { break };
            j += t.len() - after_conn.len();
            let ws = after_conn.len() - after_conn.trim_start().len();
            j += ws;
            match env_at(text, j, &closers) {
                Some((cs, ce, end)) => {
                    let mut content = text[cs..ce].to_string();
                    let mut end = end;
                    if let Some(after) = percent_after(text, end) {
                        content.push_str("\\%");
                        end = after;
                    }
                    env.contents.push(content);
                    env.end = end;
                }
                None => break,
            }
        }
        i = env.end.max(i + 1);
        envs.push(env);
    }
    envs
}

/// Runs of `\boxed{...}`: the boxes written together at the end of a completion (`\boxed{1}, \boxed{2}`)
/// form one answer with several parts.
fn boxed_runs(text: &str, out: &mut Vec<Candidate>) {
    let mut openers: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while let Some((at, len)) = next_box(&text[i..]) {
        openers.push((i + at, i + at + len));
        i += at + len;
    }
    if openers.is_empty() {
        return;
    }
    let ends = matching_braces(text, &openers.iter().map(|o| o.1).collect::<Vec<_>>());
    let mut boxes: Vec<(usize, usize, String)> = Vec::new();
    let mut covered_until = 0;
    for ((start, open), end) in openers.into_iter().zip(ends) {
        // A box inside an earlier box is part of that box's answer.
        if start < covered_until {
            continue;
        }
        if let Some(end) = end {
            boxes.push((start, end, text[open + 1..end - 1].to_string()));
            covered_until = end;
        }
    }
    let mut run: Vec<(usize, usize, String)> = Vec::new();
    let flush = |run: &mut Vec<(usize, usize, String)>, out: &mut Vec<Candidate>| {
        if let (Some(first), Some(last)) = (run.first(), run.last()) {
            out.push(Candidate {
                text: run
                    .iter()
                    .map(|b| b.2.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                kind: Kind::Latex,
                percent: percent_after(text, last.1).is_some(),
                span: (first.0, last.1),
                priority: 0,
            });
        }
        run.clear();
    };
    for b in boxes {
        let joined = run
            .last()
            .is_some_and(|prev| is_connector(&text[prev.1..b.0]));
        if !joined {
            flush(&mut run, out);
        }
        run.push(b);
    }
    flush(&mut run, out);
}

/// For each `{` at the given (sorted) positions, the index after its matching `}`: one pass over
/// the text, however many boxes are unbalanced.
fn matching_braces(text: &str, opens: &[usize]) -> Vec<Option<usize>> {
    let mut ends = vec![None; opens.len()];
    let mut stack: Vec<usize> = Vec::new();
    let b = text.as_bytes();
    let mut next_open = 0;
    let mut i = opens[0];
    while i < b.len() {
        match b[i] {
            b'\\' => {
                i += 2;
                continue;
            }
            b'{' => {
                while next_open < opens.len() && opens[next_open] < i {
                    next_open += 1;
                }
                let tracked = next_open < opens.len() && opens[next_open] == i;
                stack.push(if tracked { next_open } else { usize::MAX });
            }
            b'}' => {
                if let Some(k) = stack.pop()
                    && k != usize::MAX
                {
                    ends[k] = Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    ends
}

/// Whether the text between two boxes only joins them (`, `, ` and `, `\quad \text{and} \quad`,
/// `\) and \( y_2 =`), or labels the parts while joining them ([`is_prose_connector`]).
fn is_connector(gap: &str) -> bool {
    if gap.len() > 60 {
        return false;
    }
    if is_prose_connector(gap) {
        return true;
    }
    let mut g = gap.to_string();
    for piece in [
        "\\text{and}",
        "\\text{ and }",
        "\\text{or}",
        "\\text{ or }",
        "\\qquad",
        "\\quad",
        "\\(",
        "\\)",
        "\\[",
        "\\]",
        "\\\\",
        "\\,",
        "\\;",
        "\\ ",
        "and",
        "or",
        "$",
        ",",
        ";",
        "&",
    ] {
        g = g.replace(piece, "");
    }
    let g: String = g.chars().filter(|c| !c.is_whitespace()).collect();
    g.is_empty()
        || g.len() <= 12
            && g.ends_with('=')
            && g.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '{' | '}' | '=' | '\\'))
}

/// Words that, between two boxes, start a new thought rather than join parts of one answer: the
/// later box is then the answer, not a part of it.
const NOT_JOINING: &[&str] = &[
    "answer",
    "final",
    "so",
    "therefore",
    "thus",
    "hence",
    "then",
    "but",
    "not",
    "is",
    "are",
    "was",
    "gives",
    "get",
    "gets",
    "becomes",
    "correct",
    "wrong",
    "instead",
    "actually",
    "wait",
];

/// Short prose between two boxes that labels or joins the parts of one answer:
/// `\text{ for part (a) and }`, ` red and `, `; (b) `, ` cm, and `. At most five words, all
/// letters, with `and`, a comma or a semicolon among them; no sentence ending, no formula, no word
/// of [`NOT_JOINING`].
fn is_prose_connector(gap: &str) -> bool {
    let mut g = gap.to_string();
    for wrapper in [
        "\\textnormal{",
        "\\textrm{",
        "\\text{",
        "\\mbox{",
        "\\mathrm{",
    ] {
        g = g.replace(wrapper, " ");
    }
    for space in [
        "\\qquad", "\\quad", "\\(", "\\)", "\\,", "\\;", "\\ ", "}", "$",
    ] {
        g = g.replace(space, " ");
    }
    if g.contains(['.', '!', '?', ':', '=', '\\', '{']) {
        return false;
    }
    // Part labels: `(a)`, `(b)`, `(1)`, `(ii)`.
    let mut unlabelled = String::with_capacity(g.len());
    let mut rest = g.as_str();
    while let Some(open) = rest.find('(') {
        let close = rest[open..].find(')').map(|c| open + c);
        match close {
            Some(close)
                if close - open <= 4
                    && rest[open + 1..close]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric()) =>
            {
                unlabelled.push_str(&rest[..open]);
                unlabelled.push(' ');
                rest = &rest[close + 1..];
            }
            _ => return false,
        }
    }
    unlabelled.push_str(rest);
    let words: Vec<String> = unlabelled
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let joins = unlabelled.contains([',', ';']) || words.iter().any(|w| w == "and");
    joins
        && words.len() <= 5
        && words.iter().all(|w| w.chars().all(|c| c.is_alphabetic()))
        && !words.iter().any(|w| NOT_JOINING.contains(&w.as_str()))
}

/// Case-insensitive positions of `word`.
/// Only the last this many anchors ("answer", "final answer") are followed.
const MAX_ANCHORS: usize = 32;

fn find_all_ci(text: &str, word: &str) -> Vec<usize> {
    let lower = text.to_ascii_lowercase();
    let all: Vec<usize> = lower.match_indices(word).map(|(i, _)| i).collect();
    all[all.len().saturating_sub(MAX_ANCHORS)..].to_vec()
}

/// "final answer is $X$" (priority 0 with "I hope", else 50) and "answer: $X$" (100/200).
fn anchored_latex(text: &str, envs: &[Env], out: &mut Vec<Candidate>) {
    let env_starting_at = |pos: usize| envs.iter().find(|e| e.start == pos);
    for at in find_all_ci(text, "final answer") {
        let window_end = floor_boundary(text, (at + 12 + 100 + 4).min(text.len()));
        let window = &text[at + 12..window_end];
        // The regex `final answer.{0,100}?\s+is\:?\s*` takes the first " is".
        let Some(is_rel) = window.find(|c: char| c.is_whitespace()).and_then(|_| {
            window
                .match_indices("is")
                .find(|(k, _)| *k > 0 && window[..*k].ends_with(char::is_whitespace))
                .map(|(k, _)| k)
        }) else {
            continue;
        };
        let mut pos = at + 12 + is_rel + 2;
        if text[pos..].starts_with(':') {
            pos += 1;
        }
        pos += text[pos..].len() - text[pos..].trim_start().len();
        if let Some(env) = env_starting_at(pos) {
            let hope = text[env.end..]
                .trim_start_matches(['.', ' '])
                .starts_with("I hope");
            out.push(env.candidate(if hope { 0 } else { 50 }));
        }
    }
    for at in find_all_ci(text, "answer") {
        let after = at + 6;
        let colon = text[after..].starts_with(':');
        let limit = after + usize::from(colon) + 50;
        if let Some(env) = envs.iter().find(|e| e.start >= after && e.start <= limit) {
            out.push(env.candidate(if colon { 100 } else { 200 }));
        }
    }
}

/// The largest char boundary of `text` at or before `i`.
pub fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Where the sentence that goes on at `from` ends (a full stop, question or exclamation mark
/// followed by white space, or a line break), at most `limit`.
fn sentence_end(text: &str, from: usize, limit: usize) -> usize {
    let b = text.as_bytes();
    (from..limit)
        .find(|&k| {
            b[k] == b'\n'
                || matches!(b[k], b'.' | b'?' | b'!')
                    && b.get(k + 1).is_some_and(|n| n.is_ascii_whitespace())
        })
        .unwrap_or(limit)
}

/// How far from the end plain numbers and expressions are looked for.
const PLAIN_TAIL_BYTES: usize = 16 * 1024;

/// Plain numbers and expressions starting in `from..to` after a space, `=`, or the start of the
/// text.
fn plain_exprs(text: &str, from: usize, to: usize) -> Vec<Candidate> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    for (rel, c) in text[from..to].char_indices() {
        let i = from + rel;
        let prefix_ok = i == 0
            || bytes[i - 1].is_ascii_whitespace()
            || bytes[i - 1] == b'='
            || (i >= 2 && &bytes[i - 2..i] == b"**");
        if !prefix_ok {
            continue;
        }
        if (c.is_ascii_alphanumeric() || c == '-' || c == '(')
            && let Some(f) = formula_at(text, i)
        {
            out.push(f);
        }
        if c.is_ascii_digit() || c == '-' || c == '(' || c == '.' {
            if let Some(e) = expr_at(text, i) {
                out.push(e);
            }
            if let Some(n) = number_at(text, i) {
                out.push(n);
            }
        } else if CURRENCY.contains(c) {
            let j = i + c.len_utf8();
            if let Some(n) = number_at(text, j) {
                out.push(Candidate {
                    span: (i, n.span.1),
                    ..n
                });
            }
        }
    }
    out
}

/// Words a plain formula may use: functions written as in code (`sqrt(2)`, `exp(2*x)`) and
/// constants (`pi`, `oo`).
pub const FORMULA_WORDS: &[&str] = &[
    "sqrt", "sin", "cos", "tan", "sec", "csc", "cot", "asin", "acos", "atan", "arcsin", "arccos",
    "arctan", "sinh", "cosh", "tanh", "ln", "log", "exp", "pi", "oo", "inf", "infinity",
];

/// A plain formula at `i` with at least one letter: what models write in code style
/// (`-3920*x**3 + 12348*x`, `7*x**7/9 - 5*x**2/6 + C`, `sqrt(2)`, `(x + 1)**2`) and relations in
/// text (`x > 5`, `x >= 5`, `y = 2x + 1`, `x ≤ 5`). It ends at punctuation, at a word that is
/// not a variable or a known function, and at a letter or number that follows another after a
/// space with no operator between (`5 a day`, `5 x 3`): those are prose.
fn formula_at(text: &str, i: usize) -> Option<Candidate> {
    // Right after a number, a formula is what follows it in prose (`5 m/s`, `5 x 3`).
    if text[..i].trim_end().ends_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let rest = &text[i..];
    let rest = &rest[..floor_boundary(rest, rest.len().min(256))];
    let b = rest.as_bytes();
    #[derive(PartialEq, Clone, Copy)]
    enum Last {
        Start,
        Operand,
        Operator,
        Open,
    }
    let mut last = Last::Start;
    let mut k = 0;
    let mut end = 0;
    let mut depth = 0usize;
    let mut letters = 0;
    let mut operators = 0;
    let mut calls = 0;
    let mut spaced = false;
    while k < b.len() {
        let c = rest[k..].chars().next().expect("in bounds");
        if c.is_whitespace() {
            spaced = true;
            k += c.len_utf8();
            continue;
        }
        let operand_ok = !(spaced && last == Last::Operand);
        if c.is_ascii_digit() || c == '.' && b.get(k + 1).is_some_and(u8::is_ascii_digit) {
            if !operand_ok {
                break;
            }
            let len = rest[k..]
                .find(|ch: char| !(ch.is_ascii_digit() || ch == '.'))
                .unwrap_or(rest.len() - k);
            let len = rest[k..k + len].trim_end_matches('.').len();
            k += len;
            last = Last::Operand;
        } else if c.is_ascii_alphabetic() {
            let len = rest[k..]
                .find(|ch: char| !ch.is_ascii_alphabetic())
                .unwrap_or(rest.len() - k);
            let word = &rest[k..k + len];
            let known = FORMULA_WORDS.contains(&word.to_ascii_lowercase().as_str());
            if !(word.len() == 1 || known) || !operand_ok {
                break;
            }
            let call = rest[k + len..].trim_start().starts_with('(');
            calls += usize::from(known && call);
            letters += 1;
            k += len;
            last = Last::Operand;
        } else if c == '(' {
            if !operand_ok && last != Last::Operand {
                break;
            }
            depth += 1;
            k += 1;
            last = Last::Open;
            spaced = false;
            continue;
        } else if c == ')' {
            if depth == 0 || last != Last::Operand {
                break;
            }
            depth -= 1;
            k += 1;
            last = Last::Operand;
        } else if let Some(len) = formula_operator(&rest[k..]) {
            // A sign may follow an operator or open a formula (`x > -7`, `-x`); nothing else.
            let sign = matches!(c, '-' | '+' | '−') && len == c.len_utf8();
            if (last == Last::Operator || last == Last::Start || last == Last::Open) && !sign {
                break;
            }
            operators += 1;
            k += len;
            last = Last::Operator;
            spaced = false;
            continue;
        } else {
            break;
        }
        spaced = false;
        if last == Last::Operand && depth == 0 {
            end = k;
        }
    }
    let run = &rest[..end];
    (letters > 0 && (operators > 0 || calls > 0)).then(|| Candidate {
        text: run.to_string(),
        kind: Kind::Expr,
        percent: false,
        span: (i, i + run.len()),
        priority: 300,
    })
}

/// The length of the operator or relation `s` starts with.
fn formula_operator(s: &str) -> Option<usize> {
    for op in ["**", "<=", ">=", "!=", "==", "=<", "=>"] {
        if s.starts_with(op) {
            return Some(op.len());
        }
    }
    let c = s.chars().next()?;
    matches!(
        c,
        '+' | '-' | '*' | '/' | '^' | '<' | '>' | '=' | '×' | '÷' | '≤' | '≥' | '≠' | '−'
    )
    .then(|| c.len_utf8())
}

/// A plain expression at `i` with at least one operator: `(1/2) * (1/2)`, `-3+4`.
fn expr_at(text: &str, i: usize) -> Option<Candidate> {
    let rest = &text[i..];
    // A plain expression answer is short; bounding the run keeps the scan linear.
    let rest = &rest[..floor_boundary(rest, rest.len().min(256))];
    let run_len = rest.find(|c: char| !is_expr_char(c)).unwrap_or(rest.len());
    let mut run = &rest[..run_len];
    let next = rest[run_len..].chars().next();
    let suffix_ok = |c: Option<char>| {
        c.is_none_or(|c| matches!(c, '.' | ',' | ':' | '$') || c.is_whitespace() || c == ')')
    };
    if !suffix_ok(next) {
        // Backtrack to the last space or ')' inside the run.
        let cut = run.rfind(|c: char| c.is_whitespace() || c == ')')?;
        run = &run[..cut + usize::from(run[cut..].starts_with(')'))];
    }
    let run =
        run.trim_end_matches(|c: char| is_operator(c) || c.is_whitespace() || c == '(' || c == '.');
    let first_digit = run.find(|c: char| c.is_ascii_digit())?;
    if !run[..first_digit].chars().all(|c| c == '-' || c == '(') {
        return None;
    }
    if !run[first_digit..].contains(is_operator) || run.len() < 3 {
        return None;
    }
    if run.matches('(').count() != run.matches(')').count() {
        let trimmed = run.trim_end_matches(')');
        if trimmed.matches('(').count() != trimmed.matches(')').count() {
            return None;
        }
        return Some(expr_candidate(trimmed, i));
    }
    Some(expr_candidate(run, i))
}

fn expr_candidate(run: &str, i: usize) -> Candidate {
    Candidate {
        text: run.replace('\n', " "),
        kind: Kind::Expr,
        percent: false,
        span: (i, i + run.len()),
        priority: 300,
    }
}

/// A number at `i`: `1,234.5` / `1 234` (thousands), `12.5` / `12,5` (decimal comma), `.5`, `42`,
/// with an optional percent marker.
fn number_at(text: &str, i: usize) -> Option<Candidate> {
    let b = text.as_bytes();
    if i > 0 && b[i - 1].is_ascii_digit() {
        return None;
    }
    let digits_from = |k: usize| b[k..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut k = i;
    let neg = b.get(k) == Some(&b'-');
    if neg {
        k += 1;
    }
    let int_len = digits_from(k);
    let (value, end) = if int_len == 0 {
        // `.123`
        if neg || b.get(k) != Some(&b'.') {
            return None;
        }
        let frac = digits_from(k + 1);
        if frac == 0 {
            return None;
        }
        (format!("0.{}", &text[k + 1..k + 1 + frac]), k + 1 + frac)
    } else {
        // Thousands groups: [1-9]\d{0,2}([ ,]\d{3})+
        let mut groups_end = None;
        if b[k] != b'0' && int_len <= 3 {
            let mut j = k + int_len;
            let mut n = 0;
            while j + 4 <= b.len() && (b[j] == b',' || b[j] == b' ') && digits_from(j + 1) >= 3 {
                if digits_from(j + 1) != 3 {
                    // `1,2345` is not a thousands group; regex backtracking stops at three digits
                    // only when the fourth is not a digit.
                    break;
                }
                j += 4;
                n += 1;
            }
            if n > 0 {
                groups_end = Some(j);
            }
        }
        match groups_end {
            Some(j) => {
                let int: String = text[k..j].chars().filter(|c| c.is_ascii_digit()).collect();
                let (frac, end) = decimal_part(text, j, &['.']);
                (format!("{int}{frac}"), end)
            }
            None => {
                let j = k + int_len;
                let (frac, end) = decimal_part(text, j, &['.', ',']);
                (format!("{}{frac}", &text[k..j]), end)
            }
        }
    };
    let (percent, end_with_pct) = match number_percent(text, end) {
        Some(e) => (true, e),
        None => (false, end),
    };
    Some(Candidate {
        text: if neg { format!("-{value}") } else { value },
        kind: Kind::Number,
        percent,
        span: (i, end_with_pct),
        priority: 300,
    })
}

fn decimal_part(text: &str, j: usize, seps: &[char]) -> (String, usize) {
    let b = text.as_bytes();
    if j < b.len() && seps.contains(&(b[j] as char)) {
        let n = b[j + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n > 0 {
            return (format!(".{}", &text[j + 1..j + 1 + n]), j + 1 + n);
        }
    }
    (String::new(), j)
}

/// A percent marker after a plain number (`%`, `percent`, `pct`; not LaTeX's `\\%`).
fn number_percent(text: &str, end: usize) -> Option<usize> {
    if text[end..].trim_start().starts_with('\\') {
        return None;
    }
    percent_after(text, end)
}

/// "answer ... = 42" and "answer is 42" (priorities 100 and 200); "final answer is 42" (0 and 50).
fn anchored_exprs(text: &str, out: &mut Vec<Candidate>) {
    let window = |at: usize| {
        let to = floor_boundary(text, (at + 160).min(text.len()));
        plain_exprs(text, at, to)
    };
    let not_followed_by_eq = |c: &Candidate| !text[c.span.1..].trim_start().starts_with('=');
    for at in find_all_ci(text, "final answer") {
        let limit = at + 12 + 110;
        let exprs = window(at + 12);
        if let Some(c) = exprs
            .iter()
            .filter(|c| {
                c.span.0 > at + 12 && c.span.0 <= limit && text[at + 12..c.span.0].contains(" is")
            })
            .min_by_key(|c| (c.span.0, std::cmp::Reverse(c.span.1)))
        {
            let hope = text[c.span.1..]
                .trim_start_matches(['.', ' '])
                .starts_with("I hope");
            out.push(Candidate {
                priority: if hope { 0 } else { 50 },
                ..c.clone()
            });
        }
    }
    for at in find_all_ci(text, "answer") {
        let after = at + 6;
        let colon = text[after..].starts_with(':');
        let priority = if colon { 100 } else { 200 };
        let window_end = floor_boundary(text, (after + 100 + usize::from(colon)).min(text.len()));
        // The answer's own sentence: `The answer is 14. (Check: 14 = 2 \times 7.)` answers 14.
        let window_end = sentence_end(text, after, window_end);
        let exprs = window(after);
        let window = &text[after..window_end];
        // After the last `=` within 100 characters, else the first number within 50.
        let chosen = window
            .rfind('=')
            .and_then(|eq| {
                let from = after + eq + 1;
                exprs
                    .iter()
                    .filter(|c| {
                        c.span.0 >= from
                            && text[from..c.span.0].trim().is_empty()
                            && not_followed_by_eq(c)
                    })
                    .max_by_key(|c| c.span.1)
            })
            .or_else(|| {
                exprs
                    .iter()
                    .filter(|c| {
                        c.span.0 >= after && c.span.0 <= after + 51 && not_followed_by_eq(c)
                    })
                    .min_by_key(|c| (c.span.0, std::cmp::Reverse(c.span.1)))
            });
        if let Some(c) = chosen {
            out.push(Candidate {
                priority,
                ..c.clone()
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOTH: Targets = Targets {
        latex: true,
        expr: true,
    };

    fn first(text: &str) -> String {
        candidates(text, BOTH)
            .first()
            .map(|c| c.text.clone())
            .unwrap_or_default()
    }

    #[test]
    fn boxed_wins_and_nests() {
        assert_eq!(
            first("so $x=2$ and \\boxed{\\frac{1}{\\sqrt{2}}}."),
            "\\frac{1}{\\sqrt{2}}"
        );
        assert_eq!(first("\\boxed{1}, \\boxed{2}"), "1, 2");
    }

    #[test]
    fn numbers_with_separators() {
        assert_eq!(first("it is 1,000.99€"), "1000.99");
        assert_eq!(first("so 2,74 $ a"), "2.74");
        assert_eq!(first("AZYUK2A"), "");
        let c = &candidates(
            "28 percent",
            Targets {
                latex: false,
                expr: true,
            },
        )[0];
        assert!(c.percent);
    }

    #[test]
    fn latex_spans() {
        assert_eq!(first("Answer \\[ 9 \\]"), " 9 ");
        assert_eq!(
            first("The final answer is $21,16$ or $11$. I hope"),
            "21,16, 11"
        );
    }
}
