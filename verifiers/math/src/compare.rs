//! Decides whether two parsed answers are equivalent.
//!
//! Answers are first put in canonical form ([`canonical`]): `x = 3` becomes `3`, `x \in S`
//! becomes `S`, `a < x < b` becomes an interval, `a \pm b` two values, matrix sums and products
//! are carried out. Then structures are compared: tuples in order, sets and lists without order,
//! intervals by ends and closedness, relations as relations. Scalars are compared as numbers
//! (exactly when rational) or, with variables, by evaluation at several rational points.

use crate::ast::{Expr, RelOp};
use crate::eval::eval;
use crate::number::{EvalError, Num, Tolerance, num_eq};
use std::borrow::Cow;

/// Comparison settings (the task's Math-Verify knobs).
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Digits kept when a decimal literal is involved.
    pub float_rounding: u32,
    /// Variables must match by name (`f(x)` ≠ `f(y)`); when false, variables are matched by order.
    pub strict: bool,
    /// A single relation `x < 3` may equal the interval `(-\infty, 3)`.
    pub allow_set_relation_comp: bool,
}

/// Canonical form of an answer.
pub fn canonical(e: Expr, s: &Settings) -> Expr {
    let e = match e {
        Expr::List(items) => {
            let items: Vec<Expr> = items.into_iter().map(|i| canonical(i, s)).collect();
            Expr::List(flatten_pm(assignment_values(items)))
        }
        Expr::Set(items) => Expr::Set(flatten_pm(
            items.into_iter().map(|i| canonical(i, s)).collect(),
        )),
        Expr::PlusMinus(a, b) => Expr::List(flatten_pm(vec![Expr::PlusMinus(a, b)])),
        Expr::Relation(items, ops) => relation(items, ops, s),
        Expr::Union(parts) => {
            let parts: Vec<Expr> = parts.into_iter().map(|p| canonical(p, s)).collect();
            Expr::Union(parts)
        }
        other => {
            let mut values = split_pm(other);
            if values.len() == 1 {
                values.pop().expect("one value")
            } else {
                Expr::List(values)
            }
        }
    };
    match matrix_value(&e) {
        Some(m) => m,
        None => e,
    }
}

/// A list of assignments read as the values it names: `x = 1, x = 2` (one variable given several
/// times) is its solutions `1, 2`; `a = 3, b = 1, a = 11, b = 1` (the same names again and again)
/// is the solutions `(3, 1), (11, 1)`, each a tuple in the names' alphabetical order. Any other
/// list (one assignment per name, or names that do not repeat in groups) stays as written, so
/// `x = 1, y = 2` still compares its names.
fn assignment_values(items: Vec<Expr>) -> Vec<Expr> {
    let sides: Option<Vec<(&Expr, &Expr)>> = items
        .iter()
        .map(|i| match i {
            Expr::Relation(sides, ops)
                if ops.len() == 1 && ops[0] == RelOp::Eq && is_name_like(&sides[0]) =>
            {
                Some((&sides[0], &sides[1]))
            }
            _ => None,
        })
        .collect();
    let Some(sides) = sides.filter(|s| s.len() >= 2) else {
        return items;
    };
    // The group: the names up to the first one seen again.
    let group = (1..sides.len())
        .find(|&k| sides[..k].iter().any(|(name, _)| *name == sides[k].0))
        .unwrap_or(sides.len());
    if group == sides.len() || sides.len() % group != 0 {
        return items;
    }
    let names: Vec<&Expr> = sides[..group].iter().map(|(name, _)| *name).collect();
    let repeats = sides.chunks(group).all(|chunk| {
        chunk
            .iter()
            .zip(&names)
            .all(|((name, _), want)| name == want)
    });
    if !repeats {
        return items;
    }
    if group == 1 {
        return sides.into_iter().map(|(_, value)| value.clone()).collect();
    }
    let mut order: Vec<usize> = (0..group).collect();
    order.sort_by_key(|&k| format!("{:?}", names[k]));
    sides
        .chunks(group)
        .map(|chunk| Expr::Tuple(order.iter().map(|&k| chunk[k].1.clone()).collect()))
        .collect()
}

fn flatten_pm(items: Vec<Expr>) -> Vec<Expr> {
    let mut out = Vec::new();
    for i in items {
        match i {
            Expr::PlusMinus(a, b) => {
                out.push(Expr::Add(vec![(*a).clone(), (*b).clone()]));
                out.push(Expr::Add(vec![*a, Expr::Neg(b)]));
            }
            Expr::List(inner) => out.extend(inner),
            other => out.extend(split_pm(other)),
        }
    }
    out
}

/// A value with one `\pm` inside it (`\frac{-2 \pm \sqrt{7}}{5}`): its two values. Any other
/// value, or a collection, as it is.
fn split_pm(e: Expr) -> Vec<Expr> {
    if is_collection(&e) || matches!(e, Expr::Relation(..)) {
        return vec![e];
    }
    let mut count = 0;
    e.walk(&mut |n| {
        if matches!(n, Expr::PlusMinus(..)) {
            count += 1;
        }
    });
    if count != 1 {
        return vec![e];
    }
    let signed = |plus: bool| {
        e.map(&mut |n| match n {
            Expr::PlusMinus(a, b) => Some(Expr::Add(vec![
                (**a).clone(),
                if plus {
                    (**b).clone()
                } else {
                    Expr::Neg(b.clone())
                },
            ])),
            _ => None,
        })
    };
    vec![signed(true), signed(false)]
}

/// Whether an expression looks like the name of a quantity (`x`, `f(x)`, `|AB|`, `V_1/V_2`):
/// such a left-hand side of `=` is dropped (`x = 3` answers `3`).
fn is_name_like(e: &Expr) -> bool {
    !e.has_number() && e.has_symbol()
}

fn relation(items: Vec<Expr>, ops: Vec<RelOp>, s: &Settings) -> Expr {
    // `x \in [0, 1)`: the set.
    if ops.len() == 1 && ops[0] == RelOp::In {
        return canonical(items[1].clone(), s);
    }
    // `a = b = 3` (an assignment chain): `a = 3`, the first name and the last value.
    if ops.len() >= 2 && ops.iter().all(|o| *o == RelOp::Eq) && is_name_like(&items[0]) {
        let value = canonical(items.last().expect("items").clone(), s);
        return Expr::Relation(vec![items[0].clone(), value], vec![RelOp::Eq]);
    }
    Expr::Relation(items, ops)
}

/// Carries out sums and products of matrices written out (`A + B`, `I \cdot I`).
fn matrix_value(e: &Expr) -> Option<Expr> {
    match e {
        Expr::Matrix(_) => None,
        Expr::Add(terms) if terms.iter().any(|t| matches!(t, Expr::Matrix(_))) => {
            let mats: Vec<&Vec<Vec<Expr>>> = terms
                .iter()
                .map(|t| match t {
                    Expr::Matrix(m) => Some(m),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            let (r, c) = (mats[0].len(), mats[0][0].len());
            if mats.iter().any(|m| m.len() != r || m[0].len() != c) {
                return None;
            }
            Some(Expr::Matrix(
                (0..r)
                    .map(|i| {
                        (0..c)
                            .map(|j| Expr::Add(mats.iter().map(|m| m[i][j].clone()).collect()))
                            .collect()
                    })
                    .collect(),
            ))
        }
        Expr::Mul(factors) if factors.iter().any(|t| matches!(t, Expr::Matrix(_))) => {
            let mut acc: Option<Vec<Vec<Expr>>> = None;
            let mut scalar = Vec::new();
            for f in factors {
                match f {
                    Expr::Matrix(m) => {
                        acc = Some(match acc {
                            None => m.clone(),
                            Some(a) => matmul(&a, m)?,
                        })
                    }
                    other => scalar.push(other.clone()),
                }
            }
            let m = acc?;
            Some(Expr::Matrix(
                m.into_iter()
                    .map(|row| {
                        row.into_iter()
                            .map(|x| {
                                let mut v = scalar.clone();
                                v.push(x);
                                Expr::Mul(v)
                            })
                            .collect()
                    })
                    .collect(),
            ))
        }
        _ => None,
    }
}

fn matmul(a: &[Vec<Expr>], b: &[Vec<Expr>]) -> Option<Vec<Vec<Expr>>> {
    if a[0].len() != b.len() {
        return None;
    }
    Some(
        (0..a.len())
            .map(|i| {
                (0..b[0].len())
                    .map(|j| {
                        Expr::Add(
                            (0..b.len())
                                .map(|k| Expr::Mul(vec![a[i][k].clone(), b[k][j].clone()]))
                                .collect(),
                        )
                    })
                    .collect()
            })
            .collect(),
    )
}

/// Whether two canonical answers are equivalent.
pub fn equivalent(gold: &Expr, pred: &Expr, s: &Settings) -> bool {
    let (a, b) = align(gold, pred, s);
    let (a, b) = (a.as_ref(), b.as_ref());
    match (a, b) {
        (Expr::List(xs), _) if xs.len() == 1 => equivalent(&xs[0], b, s),
        (_, Expr::List(ys)) if ys.len() == 1 => equivalent(a, &ys[0], s),
        (Expr::Set(xs), y) if xs.len() == 1 && !is_collection(y) => equivalent(&xs[0], y, s),
        (x, Expr::Set(ys)) if ys.len() == 1 && !is_collection(x) => equivalent(x, &ys[0], s),
        (Expr::Union(xs), _) if xs.len() == 1 => equivalent(&xs[0], b, s),
        (_, Expr::Union(ys)) if ys.len() == 1 => equivalent(a, &ys[0], s),
        (Expr::Text(x), Expr::Text(y)) => x.trim().eq_ignore_ascii_case(y.trim()),
        (Expr::Text(t), other) | (other, Expr::Text(t)) => {
            as_word(other).is_some_and(|w| w.eq_ignore_ascii_case(&t.replace(' ', "")))
        }
        (Expr::Tuple(xs), Expr::Tuple(ys))
        | (Expr::Tuple(xs), Expr::List(ys))
        | (Expr::List(xs), Expr::Tuple(ys)) => ordered(xs, ys, s),
        (Expr::List(xs) | Expr::Set(xs), Expr::List(ys) | Expr::Set(ys)) => unordered(xs, ys, s),
        (Expr::Union(xs), Expr::Union(ys)) => unordered(xs, ys, s),
        (
            Expr::Interval {
                lo: l1,
                hi: h1,
                lo_closed: a1,
                hi_closed: b1,
            },
            Expr::Interval {
                lo: l2,
                hi: h2,
                lo_closed: a2,
                hi_closed: b2,
            },
        ) => a1 == a2 && b1 == b2 && scalar_eq(l1, l2, s) && scalar_eq(h1, h2, s),
        (
            Expr::Tuple(xs),
            Expr::Interval {
                lo,
                hi,
                lo_closed: false,
                hi_closed: false,
            },
        )
        | (
            Expr::Interval {
                lo,
                hi,
                lo_closed: false,
                hi_closed: false,
            },
            Expr::Tuple(xs),
        ) if xs.len() == 2 => scalar_eq(&xs[0], lo, s) && scalar_eq(&xs[1], hi, s),
        (Expr::Matrix(m1), Expr::Matrix(m2)) => {
            m1.len() == m2.len()
                && m1.iter().zip(m2).all(|(r1, r2)| {
                    r1.len() == r2.len() && r1.iter().zip(r2).all(|(x, y)| equivalent(x, y, s))
                })
        }
        (Expr::Relation(i1, o1), Expr::Relation(i2, o2)) => relations_eq(i1, o1, i2, o2, s),
        (Expr::Percent(x), Expr::Percent(y)) => scalar_eq(x, y, s),
        (Expr::Percent(x), y) | (y, Expr::Percent(x)) if !is_collection(y) => {
            scalar_eq(
                &Expr::Div(x.clone(), Box::new(Expr::Num(Num::int(100)))),
                y,
                s,
            ) || scalar_eq(x, y, s)
        }
        (x, y) if !is_collection(x) && !is_collection(y) => scalar_eq(x, y, s),
        _ => false,
    }
}

/// Puts a reference (`gold`) and an answer (`pred`) in comparable shapes, as Math-Verify does:
/// an equation answering a reference that is not one answers its right side (`x = 3` answers
/// `3`, `a + b = 14` answers `14`); an assignment reference (`y = 2x + 1`) against an answer
/// that is no equation is its right side; otherwise both stay relations, so two assignments
/// compare their names too (`x = 1` is not `y = 1`) and a line may be written in any form. A
/// relation in one variable becomes the set it describes when compared with a set: always for the
/// reference, and for the answer when the task allows it or the reference set cannot be a point
/// (`(1, 2)` with finite open ends could be one).
fn align<'a>(gold: &'a Expr, pred: &'a Expr, s: &Settings) -> (Cow<'a, Expr>, Cow<'a, Expr>) {
    let mut gold = Cow::Borrowed(gold);
    let mut pred = Cow::Borrowed(pred);
    if is_equation(&pred) && !is_equation(&gold) {
        pred = Cow::Owned(last_value(&pred));
    } else if is_assignment(&gold) && !is_equation(&pred) {
        gold = Cow::Owned(last_value(&gold));
    }
    if is_set_like(&pred)
        && let Some(set) = relation_set(&gold)
    {
        gold = Cow::Owned(set);
    } else if is_set_like(&gold)
        && (s.allow_set_relation_comp || !could_be_a_point(&gold))
        && let Some(set) = relation_set(&pred)
    {
        pred = Cow::Owned(set);
    }
    (gold, pred)
}

/// `a < x ≤ b` with constant ends: an interval (and `a ≤ |x| ≤ b` two of them).
fn chain_set(items: &[Expr], ops: &[RelOp]) -> Option<Expr> {
    if !items[0].has_symbol() && !items[2].has_symbol() && items[1].has_symbol() {
        let ascending = ops.iter().all(|o| matches!(o, RelOp::Lt | RelOp::Le));
        let descending = ops.iter().all(|o| matches!(o, RelOp::Gt | RelOp::Ge));
        if ascending || descending {
            let (lo, hi, lo_closed, hi_closed) = if ascending {
                (
                    &items[0],
                    &items[2],
                    ops[0] == RelOp::Le,
                    ops[1] == RelOp::Le,
                )
            } else {
                (
                    &items[2],
                    &items[0],
                    ops[1] == RelOp::Ge,
                    ops[0] == RelOp::Ge,
                )
            };
            let interval = |lo: Expr, hi: Expr, lc: bool, hc: bool| Expr::Interval {
                lo: Box::new(lo),
                hi: Box::new(hi),
                lo_closed: lc,
                hi_closed: hc,
            };
            if matches!(&items[1], Expr::Func("abs", _)) {
                let neg = |e: &Expr| Expr::Neg(Box::new(e.clone()));
                return Some(Expr::Union(vec![
                    interval(neg(hi), neg(lo), hi_closed, lo_closed),
                    interval(lo.clone(), hi.clone(), lo_closed, hi_closed),
                ]));
            }
            return Some(interval(lo.clone(), hi.clone(), lo_closed, hi_closed));
        }
    }
    None
}

/// A relation whose operators are all `=`.
fn is_equation(e: &Expr) -> bool {
    matches!(e, Expr::Relation(_, ops) if ops.iter().all(|o| *o == RelOp::Eq))
}

/// An equation whose left side is a name (`x = 3`, `f(x) = 2x`, `a + b = 14`).
fn is_assignment(e: &Expr) -> bool {
    matches!(e, Expr::Relation(items, _) if is_equation(e) && is_name_like(&items[0]))
}

/// The right side of an equation (of its last link, for a chain).
fn last_value(e: &Expr) -> Expr {
    match e {
        Expr::Relation(items, _) => items.last().expect("a relation has sides").clone(),
        other => other.clone(),
    }
}

/// An interval, a union, or `(a, b)` (an open interval or a point).
fn is_set_like(e: &Expr) -> bool {
    matches!(e, Expr::Interval { .. } | Expr::Union(_))
        || matches!(e, Expr::Tuple(xs) if xs.len() == 2)
}

/// `(a, b)` with finite ends: an open interval, or a point.
fn could_be_a_point(e: &Expr) -> bool {
    let finite = |lo: &Expr, hi: &Expr| infinity_sign(lo).is_none() && infinity_sign(hi).is_none();
    match e {
        Expr::Interval {
            lo,
            hi,
            lo_closed: false,
            hi_closed: false,
        } => finite(lo, hi),
        Expr::Tuple(xs) if xs.len() == 2 => finite(&xs[0], &xs[1]),
        _ => false,
    }
}

/// The set of values of the one variable a relation constrains (`x > 3` is `(3, \infty)`,
/// `5 \geq x` is `(-\infty, 5]`, `x \neq 1` is two intervals); `None` for anything else.
fn relation_set(e: &Expr) -> Option<Expr> {
    if let Expr::Tuple(parts) | Expr::List(parts) = e {
        return relations_union(parts);
    }
    let Expr::Relation(items, ops) = e else {
        return None;
    };
    if ops.len() == 2 {
        return chain_set(items, ops);
    }
    if ops.len() != 1 {
        return None;
    }
    let (op, bound) = match (&items[0], &items[1]) {
        (Expr::Sym(_), c) if !c.has_symbol() => (ops[0], c.clone()),
        (c, Expr::Sym(_)) if !c.has_symbol() => (ops[0].flipped(), c.clone()),
        _ => return None,
    };
    let interval = |lo: Expr, hi: Expr, lo_closed, hi_closed| Expr::Interval {
        lo: Box::new(lo),
        hi: Box::new(hi),
        lo_closed,
        hi_closed,
    };
    let inf = Expr::Infinity;
    let ninf = Expr::Neg(Box::new(Expr::Infinity));
    Some(match op {
        RelOp::Lt => interval(ninf, bound, false, false),
        RelOp::Le => interval(ninf, bound, false, true),
        RelOp::Gt => interval(bound, inf, false, false),
        RelOp::Ge => interval(bound, inf, true, false),
        RelOp::Ne => Expr::Union(vec![
            interval(ninf, bound.clone(), false, false),
            interval(bound, inf, false, false),
        ]),
        RelOp::Eq | RelOp::In => return None,
    })
}

/// `x < 0 or x > 1` (read as a list of relations): the union of the sets each relation of the one
/// variable describes; `None` unless every part is such a relation of the same variable.
fn relations_union(parts: &[Expr]) -> Option<Expr> {
    if parts.len() < 2 {
        return None;
    }
    let variable = relation_variable(&parts[0])?;
    let mut union = Vec::new();
    for part in parts {
        if relation_variable(part)? != variable {
            return None;
        }
        match relation_set(part)? {
            Expr::Union(sets) => union.extend(sets),
            set => union.push(set),
        }
    }
    Some(Expr::Union(union))
}

/// The one variable a relation constrains against constants (`x` of `x > 3`, `5 \geq x`,
/// `1 < x < 3`, `1 \le |x| \le 2`).
fn relation_variable(e: &Expr) -> Option<&str> {
    let Expr::Relation(items, _) = e else {
        return None;
    };
    fn name(e: &Expr) -> Option<&str> {
        match e {
            Expr::Sym(name) => Some(name.as_str()),
            _ => None,
        }
    }
    match items.as_slice() {
        [a, b] if !b.has_symbol() => name(a),
        [a, b] if !a.has_symbol() => name(b),
        [a, x, b] if !a.has_symbol() && !b.has_symbol() => match x {
            Expr::Func("abs", args) if args.len() == 1 => name(&args[0]),
            other => name(other),
        },
        _ => None,
    }
}

/// Letters written without `\\text` (`odd` is parsed as `o·d·d`), read back as a word.
fn as_word(e: &Expr) -> Option<String> {
    match e {
        Expr::Sym(name) if !name.contains('_') => Some(name.clone()),
        Expr::E => Some("e".into()),
        Expr::I => Some("i".into()),
        Expr::Mul(factors) => factors.iter().map(as_word).collect(),
        _ => None,
    }
}

fn is_collection(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Tuple(_)
            | Expr::List(_)
            | Expr::Set(_)
            | Expr::Union(_)
            | Expr::Interval { .. }
            | Expr::Matrix(_)
            | Expr::Relation(..)
            | Expr::Text(_)
    )
}

fn ordered(xs: &[Expr], ys: &[Expr], s: &Settings) -> bool {
    xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| equivalent(x, y, s))
}

/// Equal as sets: every element of each side has an equivalent on the other side.
fn unordered(xs: &[Expr], ys: &[Expr], s: &Settings) -> bool {
    xs.iter().all(|x| ys.iter().any(|y| equivalent(x, y, s)))
        && ys.iter().all(|y| xs.iter().any(|x| equivalent(x, y, s)))
}

fn infinity_sign(e: &Expr) -> Option<i8> {
    match e {
        Expr::Infinity => Some(1),
        Expr::Neg(inner) => infinity_sign(inner).map(|s| -s),
        _ => None,
    }
}

/// Number of evaluation points for expressions with variables.
const POINTS: usize = 5;

/// A deterministic rational value for variable number `index` at evaluation point `point`: small
/// positive fractions with unrelated numerators and denominators, so polynomial and rational
/// identities are checked exactly.
fn point_value(index: usize, point: usize) -> Num {
    const NUMS: [i64; 11] = [7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43];
    const DENS: [i64; 7] = [5, 6, 7, 9, 11, 13, 8];
    let n = NUMS[(index * 3 + point * 5 + 1) % NUMS.len()];
    let d = DENS[(index * 2 + point * 3) % DENS.len()];
    Num::int(n).div(&Num::int(d)).expect("non-zero denominator")
}

fn variable_order(a: &Expr, b: &Expr, s: &Settings) -> (Vec<String>, Vec<String>) {
    let mut va = Vec::new();
    a.symbols(&mut va);
    let mut vb = Vec::new();
    b.symbols(&mut vb);
    if s.strict {
        let mut all = va.clone();
        for v in vb {
            if !all.contains(&v) {
                all.push(v);
            }
        }
        (all.clone(), all)
    } else {
        (va, vb)
    }
}

/// Values of `a` and `b` at the evaluation points (pairs where both are defined).
fn sample(
    a: &Expr,
    b: &Expr,
    s: &Settings,
) -> Vec<(Result<Num, EvalError>, Result<Num, EvalError>)> {
    let (va, vb) = variable_order(a, b, s);
    let points = if va.is_empty() && vb.is_empty() {
        1
    } else {
        POINTS
    };
    (0..points)
        .map(|p| {
            let env_a = |name: &str| va.iter().position(|v| v == name).map(|i| point_value(i, p));
            let env_b = |name: &str| vb.iter().position(|v| v == name).map(|i| point_value(i, p));
            (eval(a, &env_a), eval(b, &env_b))
        })
        .collect()
}

/// Whether two scalar expressions are equal (at every evaluation point where both are defined).
pub fn scalar_eq(a: &Expr, b: &Expr, s: &Settings) -> bool {
    match (infinity_sign(a), infinity_sign(b)) {
        (Some(x), Some(y)) => return x == y,
        (Some(_), None) | (None, Some(_)) => return false,
        _ => {}
    }
    let tol = Tolerance {
        float_rounding: s.float_rounding,
    };
    let mut agreed = 0;
    for (x, y) in sample(a, b, s) {
        match (x, y) {
            (Ok(x), Ok(y)) => {
                if !num_eq(&x, &y, tol) {
                    return false;
                }
                agreed += 1;
            }
            (Err(_), Err(_)) => {}
            _ => return false,
        }
    }
    agreed > 0
}

/// Relations: the same kind of relation between proportional differences (`2x+2=4` is `x=1`,
/// `x <= 1` is `-x >= -1`).
fn relations_eq(i1: &[Expr], o1: &[RelOp], i2: &[Expr], o2: &[RelOp], s: &Settings) -> bool {
    if o1.len() != o2.len() {
        return false;
    }
    if o1.len() == 1 {
        return single_relation_eq((&i1[0], o1[0], &i1[1]), (&i2[0], o2[0], &i2[1]), s);
    }
    let same = o1 == o2 && ordered(i1, i2, s);
    let flipped_ops: Vec<RelOp> = o2.iter().rev().map(|o| o.flipped()).collect();
    let flipped_items: Vec<Expr> = i2.iter().rev().cloned().collect();
    same || o1 == flipped_ops.as_slice() && ordered(i1, &flipped_items, s)
}

fn single_relation_eq(r1: (&Expr, RelOp, &Expr), r2: (&Expr, RelOp, &Expr), s: &Settings) -> bool {
    let norm = |(l, op, r): (&Expr, RelOp, &Expr)| -> (RelOp, Expr) {
        let diff = |a: &Expr, b: &Expr| Expr::Add(vec![a.clone(), Expr::Neg(Box::new(b.clone()))]);
        match op {
            RelOp::Gt => (RelOp::Lt, diff(r, l)),
            RelOp::Ge => (RelOp::Le, diff(r, l)),
            other => (other, diff(l, r)),
        }
    };
    if r1.1 == RelOp::In || r2.1 == RelOp::In {
        return r1.1 == r2.1 && equivalent(r1.0, r2.0, s) && equivalent(r1.2, r2.2, s);
    }
    let (op1, f1) = norm(r1);
    let (op2, f2) = norm(r2);
    if op1 != op2 {
        return false;
    }
    // Sides equal one for one, read in the same direction (also covers relations between
    // non-numbers): `a < b` is `a < b` and `b > a`, never `a > b`.
    let same_way = r1.1 == r2.1 && equivalent(r1.0, r2.0, s) && equivalent(r1.2, r2.2, s);
    let crossed = r1.1 == r2.1.flipped() && equivalent(r1.0, r2.2, s) && equivalent(r1.2, r2.0, s);
    if same_way || crossed {
        return true;
    }
    let positive_only = matches!(op1, RelOp::Lt | RelOp::Le);
    proportional(&f1, &f2, positive_only, s)
}

/// Whether `f1 = c · f2` for one non-zero constant `c` (positive when `positive_only`).
fn proportional(f1: &Expr, f2: &Expr, positive_only: bool, s: &Settings) -> bool {
    let tol = Tolerance {
        float_rounding: s.float_rounding,
    };
    let mut ratio: Option<Num> = None;
    let mut informative = 0;
    for (x, y) in sample(f1, f2, s) {
        let (Ok(x), Ok(y)) = (x, y) else {
            continue;
        };
        let zero = Num::int(0);
        let x_zero = num_eq(&x, &zero, tol);
        let y_zero = num_eq(&y, &zero, tol);
        if x_zero || y_zero {
            if x_zero != y_zero {
                return false;
            }
            continue;
        }
        let Ok(r) = x.div(&y) else { return false };
        if positive_only && r.sign() != Some(1) {
            return false;
        }
        match &ratio {
            None => ratio = Some(r),
            Some(r0) => {
                if !num_eq(r0, &r, tol) {
                    return false;
                }
            }
        }
        informative += 1;
    }
    informative > 0
}
