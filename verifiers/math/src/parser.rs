//! A recursive-descent parser from normalised LaTeX (or plain `2^10/3` text) to [`Expr`].
//!
//! Precedence, loosest first: lists (`,` `;`), relations (`= < ≤ ∈ ...`, chained), ratios (`:`),
//! unions (`\cup`), sums (`+ - \pm`), products (`* / \cdot`, juxtaposition), signs, powers,
//! postfix (`!`, `%`), and primaries. Nesting is limited so hostile input cannot exhaust the stack.

use crate::ast::Expr;
use crate::lexer::{Tok, tokenize};
use crate::number::Num;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Num as _;

/// Deepest bracket and sign nesting accepted.
pub const MAX_DEPTH: usize = 48;
/// Longest number literal, in digits, that is read (longer ones are not sensible answers, and
/// reading them would cost quadratic time).
pub const MAX_NUMBER_DIGITS: usize = 5000;
/// Longest answer, in tokens, that is parsed at all.
pub const MAX_TOKENS: usize = 20_000;

/// Why an answer could not be parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError(pub String);

/// Parses a normalised answer.
pub fn parse(src: &str) -> Result<Expr, ParseError> {
    let toks = tokenize(src).map_err(|e| ParseError(e.0))?;
    if toks.is_empty() {
        return Err(ParseError("empty answer".into()));
    }
    if toks.len() > MAX_TOKENS {
        return Err(ParseError(format!(
            "answer longer than {MAX_TOKENS} tokens"
        )));
    }
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
        abs_depth: 0,
    };
    let e = p.list()?;
    if p.pos < p.toks.len() {
        return Err(ParseError(format!("unexpected {:?}", p.toks[p.pos])));
    }
    Ok(e)
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
    depth: usize,
    abs_depth: usize,
}

/// Functions of one argument written as `\name`.
const FUNCTIONS: &[&str] = &[
    "sin", "cos", "tan", "sec", "csc", "cot", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
    "ln", "log", "exp", "lg",
];

/// Single letters read as undefined functions when directly followed by `(`.
const FUNCTION_LETTERS: &[char] = &['f', 'g', 'h', 'F', 'G', 'H', 'W', 'P', 'Q', 'p', 'q'];

fn err<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(msg.into()))
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn peek_char(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Char(c))
    }

    fn peek_cmd(&self, name: &str) -> bool {
        matches!(self.peek(), Some(Tok::Command(n)) if n == name)
    }

    fn eat_char(&mut self, c: char) -> bool {
        if self.peek_char(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_char(&mut self, c: char) -> Result<(), ParseError> {
        if self.eat_char(c) {
            Ok(())
        } else {
            err(format!("expected '{c}', found {:?}", self.peek()))
        }
    }

    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return err(format!("nested deeper than {MAX_DEPTH} levels"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// `a, b; c` → a list when there is more than one item.
    fn list(&mut self) -> Result<Expr, ParseError> {
        self.enter()?;
        let mut items = vec![self.relation()?];
        while self.eat_char(',') || self.eat_char(';') {
            if self.at_list_end() {
                break;
            }
            items.push(self.relation()?);
        }
        self.leave();
        Ok(if items.len() == 1 {
            items.pop().expect("one item")
        } else {
            Expr::List(items)
        })
    }

    fn at_list_end(&self) -> bool {
        matches!(
            self.peek(),
            None | Some(Tok::Char(')' | ']' | '}')) | Some(Tok::SetClose)
        )
    }

    fn relation(&mut self) -> Result<Expr, ParseError> {
        let first = self.ratio()?;
        let mut items = vec![first];
        let mut ops = Vec::new();
        while let Some(Tok::Rel(op)) = self.peek() {
            ops.push(*op);
            self.pos += 1;
            items.push(self.ratio()?);
        }
        Ok(if ops.is_empty() {
            items.pop().expect("one item")
        } else {
            Expr::Relation(items, ops)
        })
    }

    fn ratio(&mut self) -> Result<Expr, ParseError> {
        let mut e = self.union()?;
        while self.eat_char(':') {
            let rhs = self.union()?;
            e = Expr::Div(Box::new(e), Box::new(rhs));
        }
        Ok(e)
    }

    fn union(&mut self) -> Result<Expr, ParseError> {
        let mut parts = vec![self.additive()?];
        while self.peek_cmd("cup") {
            self.pos += 1;
            parts.push(self.additive()?);
        }
        if self.peek_cmd("cap") || self.peek_cmd("setminus") {
            return err("set intersection and difference are not supported");
        }
        Ok(if parts.len() == 1 {
            parts.pop().expect("one part")
        } else {
            Expr::Union(parts)
        })
    }

    fn additive(&mut self) -> Result<Expr, ParseError> {
        let mut acc = self.unary()?;
        loop {
            if self.eat_char('+') {
                let t = self.term()?;
                acc = add(acc, t);
            } else if self.eat_char('-') {
                let t = self.term()?;
                acc = add(acc, Expr::Neg(Box::new(t)));
            } else if self.peek_cmd("pm") || self.peek_cmd("mp") {
                let minus_first = self.peek_cmd("mp");
                self.pos += 1;
                let t = self.term()?;
                let t = if minus_first {
                    Expr::Neg(Box::new(t))
                } else {
                    t
                };
                acc = Expr::PlusMinus(Box::new(acc), Box::new(t));
            } else {
                return Ok(acc);
            }
        }
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        self.enter()?;
        let e = if self.eat_char('-') {
            let inner = self.unary()?;
            Ok(Expr::Neg(Box::new(inner)))
        } else if self.eat_char('+') {
            self.unary()
        } else if self.peek_cmd("pm") || self.peek_cmd("mp") {
            self.pos += 1;
            let inner = self.unary()?;
            Ok(Expr::PlusMinus(
                Box::new(Expr::Num(Num::int(0))),
                Box::new(inner),
            ))
        } else {
            self.term()
        };
        self.leave();
        e
    }

    fn term(&mut self) -> Result<Expr, ParseError> {
        let mut acc = self.power()?;
        loop {
            if self.eat_char('*') {
                let f = self.signed_power()?;
                acc = mul(acc, f);
            } else if self.eat_char('/') {
                let f = self.signed_power()?;
                acc = Expr::Div(Box::new(acc), Box::new(f));
            } else if self.starts_implicit_factor(&acc) {
                let f = self.power()?;
                acc = mul(acc, f);
            } else {
                return Ok(acc);
            }
        }
    }

    fn signed_power(&mut self) -> Result<Expr, ParseError> {
        if self.eat_char('-') {
            self.enter()?;
            let inner = self.signed_power();
            self.leave();
            return Ok(Expr::Neg(Box::new(inner?)));
        }
        self.power()
    }

    /// Whether the next token starts a factor multiplied by juxtaposition (`2x`, `2\sqrt{2}`).
    fn starts_implicit_factor(&self, left: &Expr) -> bool {
        match self.peek() {
            Some(Tok::Number(_)) => !matches!(left, Expr::Num(_)) && !ends_in_number(left),
            Some(Tok::Letter(_)) | Some(Tok::SetOpen) => true,
            Some(Tok::Char('(' | '{')) => true,
            Some(Tok::Char('|')) => self.abs_depth == 0,
            Some(Tok::Command(name)) => !matches!(
                name.as_str(),
                "pm" | "mp"
                    | "cup"
                    | "cap"
                    | "setminus"
                    | "end"
                    | "rfloor"
                    | "rceil"
                    | "to"
                    | "rightarrow"
                    | "Rightarrow"
                    | "implies"
                    | "iff"
                    | "approx"
                    | "equiv"
                    | "pmod"
                    | "bmod"
                    | "mod"
                    | "dots"
                    | "ldots"
                    | "cdots"
                    | "text"
            ),
            _ => false,
        }
    }

    fn power(&mut self) -> Result<Expr, ParseError> {
        let mut base = self.postfix_of_primary()?;
        if self.eat_char('^') {
            let exponent = self.exponent()?;
            base = Expr::Pow(Box::new(base), Box::new(exponent));
            base = self.postfix(base)?;
        }
        Ok(base)
    }

    fn exponent(&mut self) -> Result<Expr, ParseError> {
        self.enter()?;
        let e = if self.eat_char('-') {
            let inner = self.exponent()?;
            Ok(Expr::Neg(Box::new(inner)))
        } else if self.peek_char('{') {
            self.braced()
        } else {
            let base = self.primary()?;
            if self.eat_char('^') {
                let e = self.exponent()?;
                Ok(Expr::Pow(Box::new(base), Box::new(e)))
            } else {
                Ok(base)
            }
        };
        self.leave();
        e
    }

    fn postfix_of_primary(&mut self) -> Result<Expr, ParseError> {
        let p = self.primary()?;
        self.postfix(p)
    }

    fn postfix(&mut self, mut e: Expr) -> Result<Expr, ParseError> {
        loop {
            if self.eat_char('!') {
                e = Expr::Func("factorial", vec![e]);
            } else if self.eat_char('%') {
                e = Expr::Percent(Box::new(e));
            } else if self.peek_cmd("circ") {
                self.pos += 1;
            } else {
                return Ok(e);
            }
        }
    }

    /// `{...}` as a group.
    fn braced(&mut self) -> Result<Expr, ParseError> {
        self.expect_char('{')?;
        if self.eat_char('}') {
            return err("empty group {}");
        }
        let e = self.list()?;
        self.expect_char('}')?;
        Ok(e)
    }

    /// A command argument: `{...}` or a single token (`\frac12`, `\sqrt3`).
    fn argument(&mut self) -> Result<Expr, ParseError> {
        if self.peek_char('{') {
            return self.braced();
        }
        if let Some(Tok::Number(digits)) = self.peek().cloned()
            && digits.len() > 1
            && !digits.contains('.')
        {
            let (first, rest) = digits.split_at(1);
            self.toks[self.pos] = Tok::Number(rest.to_string());
            return number(first);
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, ParseError> {
        let Some(tok) = self.peek().cloned() else {
            return err("the answer ends too early");
        };
        self.pos += 1;
        match tok {
            Tok::Number(text) => {
                let n = number(&text)?;
                if self.peek_char('_') {
                    return self.base_subscript(&text);
                }
                Ok(n)
            }
            Tok::Letter(c) => self.letter(c),
            Tok::Command(name) => self.command(&name),
            Tok::Char('(') => self.bracketed('('),
            Tok::Char('[') => self.bracketed('['),
            Tok::Char('{') => {
                self.pos -= 1;
                self.braced()
            }
            Tok::SetOpen => {
                self.enter()?;
                let items = if self.peek() == Some(&Tok::SetClose) {
                    Vec::new()
                } else {
                    into_items(self.list()?)
                };
                self.leave();
                if self.peek() != Some(&Tok::SetClose) {
                    return err("a set opened with \\{ is not closed with \\}");
                }
                self.pos += 1;
                Ok(Expr::Set(items))
            }
            Tok::Char('|') => {
                self.abs_depth += 1;
                self.enter()?;
                let inner = self.additive();
                self.leave();
                self.abs_depth -= 1;
                let inner = inner?;
                self.expect_char('|')?;
                Ok(Expr::Func("abs", vec![inner]))
            }
            other => err(format!("unexpected {other:?}")),
        }
    }

    /// `204_5`: a numeral in base 5.
    fn base_subscript(&mut self, digits: &str) -> Result<Expr, ParseError> {
        self.expect_char('_')?;
        let base = match self.argument()? {
            Expr::Num(n) => n.as_integer(),
            _ => None,
        };
        let base = base
            .and_then(|b| u32::try_from(b).ok())
            .filter(|b| (2..=36).contains(b))
            .ok_or_else(|| ParseError("a numeral's base must be 2 to 36".into()))?;
        let value = BigInt::from_str_radix(digits, base)
            .map_err(|_| ParseError(format!("{digits} is not a numeral in base {base}")))?;
        Ok(Expr::Num(Num::rational(BigRational::from_integer(value))))
    }

    fn letter(&mut self, c: char) -> Result<Expr, ParseError> {
        let mut name = c.to_string();
        let subscripted = self.peek_char('_');
        if subscripted {
            self.pos += 1;
            name.push('_');
            name.push_str(&self.subscript_text()?);
        }
        if FUNCTION_LETTERS.contains(&c) && self.peek_char('(') {
            self.pos += 1;
            self.enter()?;
            let args = into_items(self.list()?);
            self.leave();
            self.expect_char(')')?;
            return Ok(Expr::Apply(name, args));
        }
        Ok(match (c, subscripted) {
            ('e', false) => Expr::E,
            ('i', false) => Expr::I,
            _ => Expr::Sym(name),
        })
    }

    /// The text of a subscript, which becomes part of a variable's name (`x_{12}` → `x_12`).
    fn subscript_text(&mut self) -> Result<String, ParseError> {
        let mut out = String::new();
        let single = !self.eat_char('{');
        let mut depth = 0usize;
        loop {
            let Some(tok) = self.peek().cloned() else {
                return err("unterminated subscript");
            };
            self.pos += 1;
            match tok {
                Tok::Char('{') => depth += 1,
                Tok::Char('}') if depth == 0 && !single => break,
                Tok::Char('}') => depth = depth.saturating_sub(1),
                _ => {}
            }
            out.push_str(&match tok {
                Tok::Number(n) => n,
                Tok::Letter(l) => l.to_string(),
                Tok::Command(c) => c,
                Tok::Char(c) => c.to_string(),
                _ => String::new(),
            });
            if single {
                break;
            }
        }
        Ok(out)
    }

    fn bracketed(&mut self, open: char) -> Result<Expr, ParseError> {
        self.enter()?;
        let items = into_items(self.list()?);
        self.leave();
        let close = match self.peek() {
            Some(Tok::Char(c @ (')' | ']'))) => *c,
            other => return err(format!("'{open}' is not closed (found {other:?})")),
        };
        self.pos += 1;
        let closed_lo = open == '[';
        let closed_hi = close == ']';
        Ok(match items.len() {
            1 if open == '(' && close == ')' || open == '[' && close == ']' => {
                items.into_iter().next().expect("one item")
            }
            2 if open == '(' && close == ')' => Expr::Tuple(items),
            2 => {
                let mut it = items.into_iter();
                Expr::Interval {
                    lo: Box::new(it.next().expect("two items")),
                    hi: Box::new(it.next().expect("two items")),
                    lo_closed: closed_lo,
                    hi_closed: closed_hi,
                }
            }
            _ if open == '(' && close == ')' || open == '[' && close == ']' => Expr::Tuple(items),
            _ => return err("a half-open bracket needs exactly two ends"),
        })
    }

    fn command(&mut self, name: &str) -> Result<Expr, ParseError> {
        match name {
            "frac" | "dfrac" | "tfrac" | "cfrac" => {
                let num = self.argument()?;
                let den = self.argument()?;
                Ok(Expr::Div(Box::new(num), Box::new(den)))
            }
            "binom" | "dbinom" | "tbinom" | "choose" => {
                let n = self.argument()?;
                let k = self.argument()?;
                Ok(Expr::Func("binom", vec![n, k]))
            }
            "sqrt" => {
                let index = if self.eat_char('[') {
                    let i = self.list()?;
                    self.expect_char(']')?;
                    Some(i)
                } else {
                    None
                };
                let radicand = self.argument()?;
                Ok(match index {
                    None => Expr::Func("sqrt", vec![radicand]),
                    Some(n) => Expr::Pow(
                        Box::new(radicand),
                        Box::new(Expr::Div(Box::new(Expr::Num(Num::int(1))), Box::new(n))),
                    ),
                })
            }
            "pi" => Ok(Expr::Pi),
            "infty" | "infin" => Ok(Expr::Infinity),
            "emptyset" | "varnothing" => Ok(Expr::Set(Vec::new())),
            "imath" => Ok(Expr::I),
            "mathbb" => {
                let inner = self.raw_group_text()?;
                match inner.as_str() {
                    "R" => Ok(Expr::Interval {
                        lo: Box::new(Expr::Neg(Box::new(Expr::Infinity))),
                        hi: Box::new(Expr::Infinity),
                        lo_closed: false,
                        hi_closed: false,
                    }),
                    other => Ok(Expr::Sym(format!("bb{other}"))),
                }
            }
            "lfloor" | "lceil" => {
                let closer = if name == "lfloor" { "rfloor" } else { "rceil" };
                self.enter()?;
                let inner = self.additive();
                self.leave();
                let inner = inner?;
                if !self.peek_cmd(closer) {
                    return err(format!("\\{name} without \\{closer}"));
                }
                self.pos += 1;
                Ok(Expr::Func(
                    if name == "lfloor" { "floor" } else { "ceil" },
                    vec![inner],
                ))
            }
            "boxed" | "fbox" | "mathbf" | "boldsymbol" | "bm" | "mathit" | "mathrm" | "text"
            | "textbf" | "textit" | "mbox" | "operatorname" | "overline" | "vec" | "hat"
            | "bar" | "widehat" | "overrightarrow" | "underline" | "mathsf" | "mathcal" => {
                if matches!(
                    name,
                    "text" | "textbf" | "textit" | "mbox" | "mathrm" | "mathsf"
                ) {
                    let words = self.raw_group_text()?;
                    return Ok(text_expr(&words));
                }
                self.argument()
            }
            "begin" => self.environment(),
            "circ" | "degree" => Ok(Expr::Num(Num::int(1))),
            _ if FUNCTIONS.contains(&name) => self.function(name),
            _ if is_greek(name) => Ok(Expr::Sym(name.to_string())),
            other => err(format!("unknown command \\{other}")),
        }
    }

    /// The raw text of a `{...}` group (or one token), for `\text{...}` and `\mathbb{R}`.
    fn raw_group_text(&mut self) -> Result<String, ParseError> {
        if !self.eat_char('{') {
            return match self.peek().cloned() {
                Some(Tok::Letter(c)) => {
                    self.pos += 1;
                    Ok(c.to_string())
                }
                _ => err("expected a {group}"),
            };
        }
        let mut out = String::new();
        let mut depth = 0usize;
        loop {
            let Some(tok) = self.peek().cloned() else {
                return err("unterminated group");
            };
            self.pos += 1;
            match tok {
                Tok::Char('{') => depth += 1,
                Tok::Char('}') if depth == 0 => return Ok(out),
                Tok::Char('}') => depth -= 1,
                Tok::Letter(c) => out.push(c),
                Tok::Number(n) => out.push_str(&n),
                Tok::Char(c) => out.push(c),
                _ => {}
            }
        }
    }

    fn function(&mut self, name: &str) -> Result<Expr, ParseError> {
        let mut power = None;
        let mut inverse = false;
        let mut log_base = None;
        loop {
            if self.eat_char('^') {
                let e = self.exponent()?;
                if is_minus_one(&e) {
                    inverse = true;
                } else {
                    power = Some(e);
                }
            } else if self.eat_char('_') {
                log_base = Some(self.argument()?);
            } else {
                break;
            }
        }
        let arg = if matches!(self.peek(), Some(Tok::Char('(' | '[' | '{'))) {
            self.primary()?
        } else {
            // `\sin 2x`, `\sin b`: numbers and letters up to the next operator or command.
            let mut a = self.power()?;
            while matches!(self.peek(), Some(Tok::Letter(_)))
                || matches!(self.peek(), Some(Tok::Number(_))) && !ends_in_number(&a)
            {
                let f = self.power()?;
                a = mul(a, f);
            }
            a
        };
        let fname: &'static str = match (name, inverse) {
            ("sin", true) => "arcsin",
            ("cos", true) => "arccos",
            ("tan", true) => "arctan",
            (_, true) => return err(format!("\\{name}^{{-1}} is not supported")),
            _ => FUNCTIONS
                .iter()
                .find(|f| **f == name)
                .copied()
                .expect("known function"),
        };
        let mut e = match (fname, log_base) {
            ("log", Some(b)) => Expr::Div(
                Box::new(Expr::Func("ln", vec![arg])),
                Box::new(Expr::Func("ln", vec![b])),
            ),
            ("lg", _) => Expr::Div(
                Box::new(Expr::Func("ln", vec![arg])),
                Box::new(Expr::Func("ln", vec![Expr::Num(Num::int(10))])),
            ),
            (f, _) => Expr::Func(f, vec![arg]),
        };
        if let Some(p) = power {
            e = Expr::Pow(Box::new(e), Box::new(p));
        }
        Ok(e)
    }

    /// `\begin{pmatrix} a & b \\ c & d \end{pmatrix}` and its relatives.
    fn environment(&mut self) -> Result<Expr, ParseError> {
        let env = self.raw_group_text()?;
        let env = env.trim_end_matches('*').to_string();
        if !matches!(
            env.as_str(),
            "pmatrix"
                | "bmatrix"
                | "Bmatrix"
                | "vmatrix"
                | "Vmatrix"
                | "matrix"
                | "smallmatrix"
                | "array"
        ) {
            return err(format!("unsupported environment {env}"));
        }
        if env == "array" && self.peek_char('{') {
            self.raw_group_text()?;
        }
        self.enter()?;
        let mut rows: Vec<Vec<Expr>> = Vec::new();
        let mut row = Vec::new();
        loop {
            if self.peek_cmd("end") {
                self.pos += 1;
                self.raw_group_text()?;
                break;
            }
            if self.peek() == Some(&Tok::RowBreak) {
                self.pos += 1;
                rows.push(std::mem::take(&mut row));
                continue;
            }
            if self.peek().is_none() {
                self.leave();
                return err(format!("\\begin{{{env}}} without \\end"));
            }
            row.push(self.relation()?);
            if !self.eat_char('&') && self.peek() != Some(&Tok::RowBreak) && !self.peek_cmd("end") {
                self.leave();
                return err(format!("unexpected {:?} in a matrix", self.peek()));
            }
        }
        self.leave();
        if !row.is_empty() {
            rows.push(row);
        }
        rows.retain(|r| !r.is_empty());
        if rows.is_empty() || rows.iter().any(|r| r.len() != rows[0].len()) {
            return err("a matrix needs rows of equal length");
        }
        if env == "vmatrix" || env == "Vmatrix" {
            return Ok(Expr::Func("det", vec![Expr::Matrix(rows)]));
        }
        Ok(Expr::Matrix(rows))
    }
}

/// `\text{...}` content: a word is text; `and`/`or` never reach here (normalised to commas).
fn text_expr(words: &str) -> Expr {
    let w = words.trim();
    if let Ok(Expr::Num(n)) = number(w) {
        return Expr::Num(n);
    }
    let mut letters = w.chars();
    if let (Some(c), None) = (letters.next(), letters.next())
        && c.is_ascii_alphabetic()
    {
        return match c {
            'e' => Expr::E,
            'i' => Expr::I,
            _ => Expr::Sym(c.to_string()),
        };
    }
    Expr::Text(w.to_string())
}

fn number(text: &str) -> Result<Expr, ParseError> {
    let decimal = text.contains('.');
    let (int_part, frac_part) = text.split_once('.').unwrap_or((text, ""));
    let digits = format!("{int_part}{frac_part}");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return err(format!("{text} is not a number"));
    }
    if digits.len() > MAX_NUMBER_DIGITS {
        return err(format!("a number longer than {MAX_NUMBER_DIGITS} digits"));
    }
    let numer = BigInt::from_str_radix(&digits, 10).map_err(|e| ParseError(e.to_string()))?;
    let denom = BigInt::from(10u8).pow(frac_part.len() as u32);
    Ok(Expr::Num(
        Num::rational(BigRational::new(numer, denom)).with_decimal(decimal),
    ))
}

fn into_items(e: Expr) -> Vec<Expr> {
    match e {
        Expr::List(items) => items,
        other => vec![other],
    }
}

fn add(a: Expr, b: Expr) -> Expr {
    match a {
        Expr::Add(mut v) => {
            v.push(b);
            Expr::Add(v)
        }
        other => Expr::Add(vec![other, b]),
    }
}

fn mul(a: Expr, b: Expr) -> Expr {
    match a {
        Expr::Mul(mut v) => {
            v.push(b);
            Expr::Mul(v)
        }
        other => Expr::Mul(vec![other, b]),
    }
}

fn ends_in_number(e: &Expr) -> bool {
    match e {
        Expr::Num(_) => true,
        Expr::Mul(v) => v.last().is_some_and(ends_in_number),
        _ => false,
    }
}

fn is_minus_one(e: &Expr) -> bool {
    matches!(e, Expr::Neg(inner) if matches!(inner.as_ref(), Expr::Num(n) if n.as_integer() == Some(BigInt::from(1))))
}

fn is_greek(name: &str) -> bool {
    const GREEK: &[&str] = &[
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "varepsilon",
        "zeta",
        "eta",
        "theta",
        "vartheta",
        "iota",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
        "rho",
        "varrho",
        "sigma",
        "varsigma",
        "tau",
        "upsilon",
        "phi",
        "varphi",
        "chi",
        "psi",
        "omega",
        "Gamma",
        "Delta",
        "Theta",
        "Lambda",
        "Xi",
        "Pi",
        "Sigma",
        "Upsilon",
        "Phi",
        "Psi",
        "Omega",
        "ell",
    ];
    GREEK.contains(&name)
}
