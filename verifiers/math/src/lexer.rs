//! Splits a normalised answer into tokens.

use crate::ast::RelOp;

/// One token of an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// Digits with an optional fractional part, as written (`12`, `0.5`, `.5`).
    Number(String),
    /// One letter: variables are single letters in LaTeX (`xy` is `x·y`).
    Letter(char),
    /// A control sequence without its backslash (`frac`, `pi`, `sqrt`).
    Command(String),
    /// A relation symbol.
    Rel(RelOp),
    /// `\{`
    SetOpen,
    /// `\}`
    SetClose,
    /// `\\` (a matrix row break).
    RowBreak,
    /// Any other single character: `+ - * / ^ _ ( ) [ ] { } , ; | ! & : % '`.
    Char(char),
}

/// Why an answer could not be tokenised.
#[derive(Debug, Clone, PartialEq)]
pub struct LexError(pub String);

/// Tokenises `src`. Spacing commands are dropped; unicode symbols map to their LaTeX meaning.
pub fn tokenize(src: &str) -> Result<Vec<Tok>, LexError> {
    let chars: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            _ if c.is_whitespace() || c == '~' => i += 1,
            '0'..='9' | '.' if c != '.' || next.is_some_and(|n| n.is_ascii_digit()) => {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                if i + 1 < chars.len() && chars[i] == '.' && chars[i + 1].is_ascii_digit() {
                    i += 1;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                toks.push(Tok::Number(chars[start..i].iter().collect()));
            }
            '\\' => {
                let Some(n) = next else {
                    return Err(LexError("a lone backslash at the end".into()));
                };
                if n.is_ascii_alphabetic() {
                    let start = i + 1;
                    i += 1;
                    while i < chars.len() && chars[i].is_ascii_alphabetic() {
                        i += 1;
                    }
                    let name: String = chars[start..i].iter().collect();
                    push_command(&mut toks, name);
                } else {
                    i += 2;
                    match n {
                        '{' => toks.push(Tok::SetOpen),
                        '}' => toks.push(Tok::SetClose),
                        '\\' => toks.push(Tok::RowBreak),
                        '%' => toks.push(Tok::Char('%')),
                        '$' => {}
                        ',' | ';' | ':' | '!' | ' ' | '>' | '\n' | '\t' => {}
                        '|' => toks.push(Tok::Char('|')),
                        other => return Err(LexError(format!("unknown escape \\{other}"))),
                    }
                }
            }
            '<' | '>' | '!' | '=' => {
                let (tok, len) = match (c, next) {
                    ('<', Some('=')) => (Tok::Rel(RelOp::Le), 2),
                    ('>', Some('=')) => (Tok::Rel(RelOp::Ge), 2),
                    ('!', Some('=')) => (Tok::Rel(RelOp::Ne), 2),
                    ('=', Some('=')) => (Tok::Rel(RelOp::Eq), 2),
                    ('<', _) => (Tok::Rel(RelOp::Lt), 1),
                    ('>', _) => (Tok::Rel(RelOp::Gt), 1),
                    ('=', _) => (Tok::Rel(RelOp::Eq), 1),
                    _ => (Tok::Char('!'), 1),
                };
                toks.push(tok);
                i += len;
            }
            '*' if next == Some('*') => {
                toks.push(Tok::Char('^'));
                i += 2;
            }
            _ if c.is_ascii_alphabetic() => {
                toks.push(Tok::Letter(c));
                i += 1;
            }
            '+' | '-' | '*' | '/' | '^' | '_' | '(' | ')' | '[' | ']' | '{' | '}' | ',' | ';'
            | '|' | '&' | ':' | '%' | '\'' => {
                toks.push(Tok::Char(c));
                i += 1;
            }
            _ => {
                toks.push(unicode_token(c)?);
                i += 1;
            }
        }
    }
    Ok(toks)
}

fn push_command(toks: &mut Vec<Tok>, name: String) {
    let rel = match name.as_str() {
        "le" | "leq" | "leqslant" | "leqq" => Some(RelOp::Le),
        "ge" | "geq" | "geqslant" | "geqq" => Some(RelOp::Ge),
        "lt" => Some(RelOp::Lt),
        "gt" => Some(RelOp::Gt),
        "ne" | "neq" => Some(RelOp::Ne),
        "in" => Some(RelOp::In),
        _ => None,
    };
    match rel {
        Some(op) => toks.push(Tok::Rel(op)),
        None => match name.as_str() {
            // Spacing and sizing commands carry no meaning.
            "quad" | "qquad" | "displaystyle" | "textstyle" | "left" | "right" | "big" | "Big"
            | "bigl" | "bigr" | "Bigl" | "Bigr" | "bigg" | "Bigg" | "biggl" | "biggr"
            | "limits" | "nolimits" | "middle" => {}
            "cdot" | "times" | "ast" => toks.push(Tok::Char('*')),
            "div" => toks.push(Tok::Char('/')),
            "colon" => toks.push(Tok::Char(':')),
            "lbrace" => toks.push(Tok::SetOpen),
            "rbrace" => toks.push(Tok::SetClose),
            "vert" | "lvert" | "rvert" | "mid" => toks.push(Tok::Char('|')),
            "lbrack" => toks.push(Tok::Char('[')),
            "rbrack" => toks.push(Tok::Char(']')),
            _ => toks.push(Tok::Command(name)),
        },
    }
}

fn unicode_token(c: char) -> Result<Tok, LexError> {
    Ok(match c {
        '−' | '–' | '—' => Tok::Char('-'),
        '×' | '·' | '⋅' | '∗' => Tok::Char('*'),
        '÷' | '∕' => Tok::Char('/'),
        '≤' | '⩽' => Tok::Rel(RelOp::Le),
        '≥' | '⩾' => Tok::Rel(RelOp::Ge),
        '≠' => Tok::Rel(RelOp::Ne),
        '∈' => Tok::Rel(RelOp::In),
        'π' => Tok::Command("pi".into()),
        '∞' => Tok::Command("infty".into()),
        '√' => Tok::Command("sqrt".into()),
        '±' => Tok::Command("pm".into()),
        '∓' => Tok::Command("mp".into()),
        '∪' => Tok::Command("cup".into()),
        '∩' => Tok::Command("cap".into()),
        '∅' => Tok::Command("emptyset".into()),
        'α'..='ω' | 'Α'..='Ω' => Tok::Command(greek_name(c).into()),
        other => return Err(LexError(format!("unexpected character {other:?}"))),
    })
}

fn greek_name(c: char) -> &'static str {
    const LOWER: [&str; 25] = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
        "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "varsigma", "sigma", "tau", "upsilon",
        "phi", "chi", "psi", "omega",
    ];
    let (base, upper) = if c.is_lowercase() {
        ('α', false)
    } else {
        ('Α', true)
    };
    let idx = (c as u32 - base as u32) as usize;
    match (LOWER.get(idx), upper) {
        (Some(name), false) => name,
        (Some(name), true) => match *name {
            "gamma" => "Gamma",
            "delta" => "Delta",
            "theta" => "Theta",
            "lambda" => "Lambda",
            "sigma" => "Sigma",
            "phi" => "Phi",
            "omega" => "Omega",
            _ => name,
        },
        _ => "unknown",
    }
}
