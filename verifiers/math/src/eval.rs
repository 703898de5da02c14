//! Evaluates a scalar expression to a number, given values for its variables.

use crate::ast::Expr;
use crate::number::{EvalError, Num, NumResult, binomial, factorial, real_fn};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;

/// Values of the variables at one evaluation point.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<Num>;

/// Evaluates `e` at the point `env`.
pub fn eval(e: &Expr, env: Env) -> NumResult {
    match e {
        Expr::Num(n) => Ok(n.clone()),
        Expr::Sym(name) => env(name).ok_or(EvalError::Undefined("a variable without a value")),
        Expr::Pi => Num::approx(std::f64::consts::PI),
        Expr::E => Num::approx(std::f64::consts::E),
        Expr::I => Ok(Num::i()),
        Expr::Neg(a) => Ok(eval(a, env)?.neg()),
        Expr::Add(terms) => {
            let mut acc = Num::int(0);
            for t in terms {
                acc = acc.add(&eval(t, env)?)?;
            }
            Ok(acc)
        }
        Expr::Mul(factors) => {
            let mut acc = Num::int(1);
            for f in factors {
                acc = acc.mul(&eval(f, env)?)?;
            }
            Ok(acc)
        }
        Expr::Div(a, b) => eval(a, env)?.div(&eval(b, env)?),
        Expr::Pow(a, b) => {
            // Exponents are evaluated first so that `9^{9^{9^9}}` is refused before any work.
            let exponent = eval(b, env)?;
            eval(a, env)?.pow(&exponent)
        }
        Expr::Percent(a) => eval(a, env)?.div(&Num::int(100)),
        Expr::Func(name, args) => func(name, args, env),
        Expr::Apply(name, args) => undefined_function(name, args, env),
        Expr::Infinity => Err(EvalError::NotANumber("infinity")),
        Expr::PlusMinus(..) => Err(EvalError::NotANumber("a ± pair")),
        Expr::Text(_) => Err(EvalError::NotANumber("text")),
        Expr::Tuple(_) | Expr::List(_) | Expr::Set(_) | Expr::Union(_) | Expr::Interval { .. } => {
            Err(EvalError::NotANumber("a collection"))
        }
        Expr::Matrix(_) => Err(EvalError::NotANumber("a matrix")),
        Expr::Relation(..) => Err(EvalError::NotANumber("a relation")),
    }
}

fn func(name: &str, args: &[Expr], env: Env) -> NumResult {
    if name == "det" {
        return match args.first() {
            Some(Expr::Matrix(rows)) => determinant(rows, env),
            _ => Err(EvalError::NotANumber("det of a non-matrix")),
        };
    }
    let values = args
        .iter()
        .map(|a| eval(a, env))
        .collect::<Result<Vec<_>, _>>()?;
    let x = &values[0];
    match name {
        "sqrt" => sqrt(x),
        "abs" => abs(x),
        "factorial" => factorial(x),
        "binom" => binomial(x, &values[1]),
        "floor" | "ceil" => round_to_integer(x, name == "floor"),
        "exp" => Num::approx(std::f64::consts::E)?.pow(x),
        "ln" | "log" => {
            if let Some(r) = x.as_rational()
                && r == &BigRational::from_integer(BigInt::from(1))
            {
                return Ok(Num::int(0));
            }
            real_fn(x, f64::ln, |a| 1.0 / a)
        }
        "sin" => real_fn(x, f64::sin, f64::cos),
        "cos" => real_fn(x, f64::cos, f64::sin),
        "tan" => real_fn(x, f64::tan, |a| 1.0 / (a.cos() * a.cos())),
        "sec" => real_fn(x, |a| 1.0 / a.cos(), |a| a.sin() / (a.cos() * a.cos())),
        "csc" => real_fn(x, |a| 1.0 / a.sin(), |a| a.cos() / (a.sin() * a.sin())),
        "cot" => real_fn(x, |a| a.cos() / a.sin(), |a| 1.0 / (a.sin() * a.sin())),
        "arcsin" => real_fn(x, f64::asin, |a| 1.0 / (1.0 - a * a).sqrt()),
        "arccos" => real_fn(x, f64::acos, |a| 1.0 / (1.0 - a * a).sqrt()),
        "arctan" => real_fn(x, f64::atan, |a| 1.0 / (1.0 + a * a)),
        "sinh" => real_fn(x, f64::sinh, f64::cosh),
        "cosh" => real_fn(x, f64::cosh, f64::sinh),
        "tanh" => real_fn(x, f64::tanh, |a| 1.0 / (a.cosh() * a.cosh())),
        _ => Err(EvalError::NotANumber("an unknown function")),
    }
}

fn sqrt(x: &Num) -> NumResult {
    if x.sign() == Some(-1) {
        // √(-4) = 2i
        return sqrt(&x.neg())?.mul(&Num::i());
    }
    x.pow(&Num::rational(BigRational::new(1.into(), 2.into())))
}

fn abs(x: &Num) -> NumResult {
    match x.sign() {
        Some(-1) => Ok(x.neg()),
        Some(_) => Ok(x.clone()),
        None => {
            let (re, im, err) = x.to_f64()?;
            Num::approx((re * re + im * im).sqrt()).map(|n| n.with_decimal(x.decimal && err >= 0.0))
        }
    }
}

fn round_to_integer(x: &Num, floor: bool) -> NumResult {
    if let Some(r) = x.as_rational() {
        let v = if floor { r.floor() } else { r.ceil() };
        return Ok(Num::rational(v));
    }
    let (re, _, err) = x.to_f64()?;
    let v = if floor { re.floor() } else { re.ceil() };
    if (re - re.round()).abs() <= 16.0 * err {
        return Err(EvalError::Undefined(
            "floor of a value too close to an integer",
        ));
    }
    Ok(Num::rational(BigRational::from_integer(BigInt::from(
        v.to_i64().ok_or(EvalError::TooLarge)?,
    ))))
}

fn determinant(rows: &[Vec<Expr>], env: Env) -> NumResult {
    let n = rows.len();
    if rows.iter().any(|r| r.len() != n) || n > 6 {
        return Err(EvalError::NotANumber(
            "determinant of a non-square or large matrix",
        ));
    }
    let m = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|e| eval(e, env))
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    det(&m)
}

fn det(m: &[Vec<Num>]) -> NumResult {
    let n = m.len();
    if n == 1 {
        return Ok(m[0][0].clone());
    }
    let mut acc = Num::int(0);
    for col in 0..n {
        let minor: Vec<Vec<Num>> = m[1..]
            .iter()
            .map(|r| {
                r.iter()
                    .enumerate()
                    .filter(|(j, _)| *j != col)
                    .map(|(_, v)| v.clone())
                    .collect()
            })
            .collect();
        let term = m[0][col].mul(&det(&minor)?)?;
        acc = if col % 2 == 0 {
            acc.add(&term)?
        } else {
            acc.sub(&term)?
        };
    }
    Ok(acc)
}

/// A function the answer does not define (`f(x)`): a fixed smooth function chosen by its name, so
/// `f(x)` equals `f(x)` and differs from `g(x)` and from `f(y)`.
fn undefined_function(name: &str, args: &[Expr], env: Env) -> NumResult {
    let seed = name.bytes().fold(0x9e37_79b9_u64, |h, b| {
        h.rotate_left(7) ^ u64::from(b).wrapping_mul(0x100_0193)
    });
    let k1 = 1.0 + (seed % 97) as f64 / 53.0;
    let k2 = 0.5 + ((seed >> 8) % 89) as f64 / 61.0;
    let mut acc = 0.0;
    for (i, a) in args.iter().enumerate() {
        let v = eval(a, env)?;
        let (re, im, _) = v.to_f64()?;
        acc += (k1 * re + (i as f64 + 1.0) * k2).sin() + 0.37 * im + (i as f64) * 0.11 * re;
    }
    Num::approx(acc * k2 + k1)
}
