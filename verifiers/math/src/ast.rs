//! The parsed form of an answer.

use crate::number::Num;

/// A relation between two expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelOp {
    /// `=`
    Eq,
    /// `≠`
    Ne,
    /// `<`
    Lt,
    /// `≤`
    Le,
    /// `>`
    Gt,
    /// `≥`
    Ge,
    /// `∈`
    In,
}

impl RelOp {
    /// The relation read from right to left (`a < b` is `b > a`).
    pub fn flipped(self) -> RelOp {
        match self {
            RelOp::Lt => RelOp::Gt,
            RelOp::Le => RelOp::Ge,
            RelOp::Gt => RelOp::Lt,
            RelOp::Ge => RelOp::Le,
            other => other,
        }
    }
}

/// A mathematical answer as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A number literal.
    Num(Num),
    /// A variable (`x`, `x_1`, `\alpha`).
    Sym(String),
    /// `\pi`
    Pi,
    /// Euler's number `e`.
    E,
    /// The imaginary unit `i`.
    I,
    /// `\infty`
    Infinity,
    /// `-a`
    Neg(Box<Expr>),
    /// `a + b + ...`
    Add(Vec<Expr>),
    /// `a · b · ...`
    Mul(Vec<Expr>),
    /// `a / b`
    Div(Box<Expr>, Box<Expr>),
    /// `a ^ b`
    Pow(Box<Expr>, Box<Expr>),
    /// `a ± b` (both values).
    PlusMinus(Box<Expr>, Box<Expr>),
    /// `a %`
    Percent(Box<Expr>),
    /// A known function (`sin`, `sqrt`, `log`, ...) applied to arguments.
    Func(&'static str, Vec<Expr>),
    /// A function the answer names but does not define (`f(x)`).
    Apply(String, Vec<Expr>),
    /// `(a, b, ...)`: a tuple or point, ordered.
    Tuple(Vec<Expr>),
    /// `a, b, ...` without brackets: a list of answers.
    List(Vec<Expr>),
    /// `\{a, b\}`
    Set(Vec<Expr>),
    /// An interval with its two ends and whether each is closed.
    Interval {
        lo: Box<Expr>,
        hi: Box<Expr>,
        lo_closed: bool,
        hi_closed: bool,
    },
    /// `A \cup B`
    Union(Vec<Expr>),
    /// A matrix, row by row.
    Matrix(Vec<Vec<Expr>>),
    /// A chain of relations: `a < b ≤ c` is `[a, b, c]` with `[Lt, Le]`.
    Relation(Vec<Expr>, Vec<RelOp>),
    /// Words (`\text{Evelyn}`, `odd`).
    Text(String),
}

impl Expr {
    /// Whether any number literal appears (outside subscripts, which are part of names).
    pub fn has_number(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= matches!(e, Expr::Num(_)));
        found
    }

    /// Whether any variable or undefined function appears.
    pub fn has_symbol(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= matches!(e, Expr::Sym(_) | Expr::Apply(..)));
        found
    }

    /// The variable names, in order of first appearance.
    pub fn symbols(&self, out: &mut Vec<String>) {
        self.walk(&mut |e| {
            if let Expr::Sym(name) = e
                && !out.contains(name)
            {
                out.push(name.clone());
            }
        });
    }

    /// Visits every node, parents first.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        for child in self.children() {
            child.walk(f);
        }
    }

    fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Neg(a) | Expr::Percent(a) => vec![a],
            Expr::Div(a, b) | Expr::Pow(a, b) | Expr::PlusMinus(a, b) => vec![a, b],
            Expr::Interval { lo, hi, .. } => vec![lo, hi],
            Expr::Add(v)
            | Expr::Mul(v)
            | Expr::Func(_, v)
            | Expr::Apply(_, v)
            | Expr::Tuple(v)
            | Expr::List(v)
            | Expr::Set(v)
            | Expr::Union(v)
            | Expr::Relation(v, _) => v.iter().collect(),
            Expr::Matrix(rows) => rows.iter().flatten().collect(),
            _ => Vec::new(),
        }
    }

    /// Rebuilds the tree top-down: `f` may replace a node; otherwise its children are mapped.
    pub fn map(&self, f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> Expr {
        if let Some(replaced) = f(self) {
            return replaced;
        }
        let b = |e: &Expr, f: &mut dyn FnMut(&Expr) -> Option<Expr>| Box::new(e.map(f));
        let v = |es: &[Expr], f: &mut dyn FnMut(&Expr) -> Option<Expr>| {
            es.iter().map(|e| e.map(f)).collect::<Vec<_>>()
        };
        match self {
            Expr::Neg(a) => Expr::Neg(b(a, f)),
            Expr::Percent(a) => Expr::Percent(b(a, f)),
            Expr::Div(x, y) => Expr::Div(b(x, f), b(y, f)),
            Expr::Pow(x, y) => Expr::Pow(b(x, f), b(y, f)),
            Expr::PlusMinus(x, y) => Expr::PlusMinus(b(x, f), b(y, f)),
            Expr::Interval {
                lo,
                hi,
                lo_closed,
                hi_closed,
            } => Expr::Interval {
                lo: b(lo, f),
                hi: b(hi, f),
                lo_closed: *lo_closed,
                hi_closed: *hi_closed,
            },
            Expr::Add(es) => Expr::Add(v(es, f)),
            Expr::Mul(es) => Expr::Mul(v(es, f)),
            Expr::Func(n, es) => Expr::Func(n, v(es, f)),
            Expr::Apply(n, es) => Expr::Apply(n.clone(), v(es, f)),
            Expr::Tuple(es) => Expr::Tuple(v(es, f)),
            Expr::List(es) => Expr::List(v(es, f)),
            Expr::Set(es) => Expr::Set(v(es, f)),
            Expr::Union(es) => Expr::Union(v(es, f)),
            Expr::Relation(es, ops) => Expr::Relation(v(es, f), ops.clone()),
            Expr::Matrix(rows) => Expr::Matrix(rows.iter().map(|r| v(r, f)).collect()),
            leaf => leaf.clone(),
        }
    }
}
