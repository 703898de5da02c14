//! Numbers: exact complex rationals of any size, or floating-point approximations that carry an
//! error bound.
//!
//! Integers and fractions stay exact through `+ - * /` and integer powers, so `1/2^99` never equals
//! `1/2^98` and `10^{30}+1` never equals `10^{30}`. Irrational values (`\sqrt{2}`, `\pi`, `\sin 1`)
//! become approximations whose absolute error is tracked through every operation; two values are
//! equal when they differ by less than their combined error bound (times a safety factor), so
//! `2\sqrt{2}` equals `\sqrt{8}` and `\sqrt{2}^2-2` equals `0`, while `3.14` is not `\pi` and
//! `\pi \cdot 10^{-30}` is not `0`.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Unit roundoff of f64.
const EPS: f64 = f64::EPSILON;
/// Largest result, in bits, that exact arithmetic may produce before the value is refused.
pub const MAX_EXACT_BITS: u64 = 1 << 18;

/// A number: exact or approximate, real or complex.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `re + im·i` with exact rational parts.
    Exact { re: BigRational, im: BigRational },
    /// `re + im·i` in floating point, with `err` an upper estimate of the absolute error.
    Approx { re: f64, im: f64, err: f64 },
}

/// A number together with whether a decimal literal (`0.5`, `2,74`) went into it. Decimal answers
/// are compared after rounding to the task's `float_rounding` digits, as Math-Verify does.
#[derive(Debug, Clone, PartialEq)]
pub struct Num {
    /// The value.
    pub value: Value,
    /// A decimal literal contributed to this value.
    pub decimal: bool,
}

/// Why a value could not be computed.
#[derive(Debug, Clone, PartialEq)]
pub enum EvalError {
    /// Division by zero, logarithm of zero, and the like.
    Undefined(&'static str),
    /// The value is too large (or too small) to compute safely.
    TooLarge,
    /// The expression is not a number (a set, a relation, text).
    NotANumber(&'static str),
}

/// Result of an arithmetic step.
pub type NumResult = Result<Num, EvalError>;

fn rat(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

impl Num {
    /// An exact real rational.
    pub fn rational(r: BigRational) -> Num {
        Num {
            value: Value::Exact {
                re: r,
                im: BigRational::zero(),
            },
            decimal: false,
        }
    }

    /// An exact integer.
    pub fn int(n: i64) -> Num {
        Num::rational(rat(n))
    }

    /// The imaginary unit.
    pub fn i() -> Num {
        Num {
            value: Value::Exact {
                re: BigRational::zero(),
                im: BigRational::one(),
            },
            decimal: false,
        }
    }

    /// A real approximation with relative error of a few units in the last place.
    pub fn approx(x: f64) -> NumResult {
        Num::approx_err(x, 0.0, 4.0 * EPS * x.abs())
    }

    fn approx_err(re: f64, im: f64, err: f64) -> NumResult {
        if !re.is_finite() || !im.is_finite() || !err.is_finite() {
            return Err(EvalError::TooLarge);
        }
        Ok(Num {
            value: Value::Approx { re, im, err },
            decimal: false,
        })
    }

    /// Marks the value as coming from a decimal literal.
    pub fn with_decimal(mut self, decimal: bool) -> Num {
        self.decimal |= decimal;
        self
    }

    /// The exact real rational, when the value is one.
    pub fn as_rational(&self) -> Option<&BigRational> {
        match &self.value {
            Value::Exact { re, im } if im.is_zero() => Some(re),
            _ => None,
        }
    }

    /// The exact integer, when the value is one.
    pub fn as_integer(&self) -> Option<BigInt> {
        self.as_rational()
            .filter(|r| r.is_integer())
            .map(|r| r.to_integer())
    }

    /// Real and imaginary parts as f64 with an error estimate.
    pub fn to_f64(&self) -> Result<(f64, f64, f64), EvalError> {
        match &self.value {
            Value::Exact { re, im } => {
                let r = rat_to_f64(re)?;
                let i = rat_to_f64(im)?;
                Ok((r, i, 2.0 * EPS * (r.abs() + i.abs())))
            }
            Value::Approx { re, im, err } => Ok((*re, *im, *err)),
        }
    }

    /// Whether this is exactly zero.
    pub fn is_exact_zero(&self) -> bool {
        matches!(&self.value, Value::Exact { re, im } if re.is_zero() && im.is_zero())
    }

    /// Whether the value is real (exactly, or within its error bound).
    pub fn is_real(&self) -> bool {
        match &self.value {
            Value::Exact { im, .. } => im.is_zero(),
            Value::Approx { im, err, .. } => im.abs() <= 16.0 * err + f64::MIN_POSITIVE,
        }
    }

    /// The sign of a real value: -1, 0 or 1; `None` when it cannot be told.
    pub fn sign(&self) -> Option<i8> {
        match &self.value {
            Value::Exact { re, im } if im.is_zero() => Some(if re.is_zero() {
                0
            } else if re.is_positive() {
                1
            } else {
                -1
            }),
            Value::Approx { re, im, err } if im.abs() <= 16.0 * err => {
                if re.abs() <= 16.0 * err {
                    Some(0)
                } else if *re > 0.0 {
                    Some(1)
                } else {
                    Some(-1)
                }
            }
            _ => None,
        }
    }

    /// `-self`.
    pub fn neg(&self) -> Num {
        let value = match &self.value {
            Value::Exact { re, im } => Value::Exact {
                re: -re.clone(),
                im: -im.clone(),
            },
            Value::Approx { re, im, err } => Value::Approx {
                re: -re,
                im: -im,
                err: *err,
            },
        };
        Num {
            value,
            decimal: self.decimal,
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &Num) -> NumResult {
        let decimal = self.decimal || other.decimal;
        if let (Value::Exact { re: a, im: b }, Value::Exact { re: c, im: d }) =
            (&self.value, &other.value)
        {
            return exact(a + c, b + d, decimal);
        }
        let (a, b, ea) = self.to_f64()?;
        let (c, d, ec) = other.to_f64()?;
        let (re, im) = (a + c, b + d);
        Ok(Num::approx_err(re, im, ea + ec + EPS * (re.abs() + im.abs()))?.with_decimal(decimal))
    }

    /// `self - other`.
    pub fn sub(&self, other: &Num) -> NumResult {
        self.add(&other.neg())
    }

    /// `self · other`.
    pub fn mul(&self, other: &Num) -> NumResult {
        let decimal = self.decimal || other.decimal;
        if let (Value::Exact { re: a, im: b }, Value::Exact { re: c, im: d }) =
            (&self.value, &other.value)
        {
            check_bits(a, c)?;
            check_bits(b, d)?;
            return exact(a * c - b * d, a * d + b * c, decimal);
        }
        let (a, b, ea) = self.to_f64()?;
        let (c, d, ec) = other.to_f64()?;
        let (re, im) = (a * c - b * d, a * d + b * c);
        let m1 = a.abs() + b.abs();
        let m2 = c.abs() + d.abs();
        let err = m1 * ec + m2 * ea + ea * ec + 2.0 * EPS * (re.abs() + im.abs());
        Ok(Num::approx_err(re, im, err)?.with_decimal(decimal))
    }

    /// `self / other`.
    pub fn div(&self, other: &Num) -> NumResult {
        if other.is_exact_zero() {
            return Err(EvalError::Undefined("division by zero"));
        }
        self.mul(&other.recip()?)
    }

    /// `1 / self`.
    pub fn recip(&self) -> NumResult {
        match &self.value {
            Value::Exact { re, im } => {
                if re.is_zero() && im.is_zero() {
                    return Err(EvalError::Undefined("division by zero"));
                }
                let norm = re * re + im * im;
                exact(re / &norm, -(im / &norm), self.decimal)
            }
            Value::Approx { re, im, err } => {
                let norm = re * re + im * im;
                let m = norm.sqrt();
                if m <= 16.0 * err {
                    return Err(EvalError::Undefined(
                        "division by a value indistinguishable from zero",
                    ));
                }
                let (r, i) = (re / norm, -im / norm);
                let e = err / (m * (m - err)) + 2.0 * EPS * (r.abs() + i.abs());
                Ok(Num::approx_err(r, i, e)?.with_decimal(self.decimal))
            }
        }
    }

    /// `self ^ exponent`: exact for rational bases and integer exponents (within size limits) and
    /// for perfect roots (`8^{1/3}` = 2); approximate otherwise.
    pub fn pow(&self, exponent: &Num) -> NumResult {
        let decimal = self.decimal || exponent.decimal;
        if let Some(e) = exponent.as_rational() {
            if e.is_integer() {
                if let Value::Exact { .. } = self.value {
                    return self
                        .pow_int(&e.to_integer())
                        .map(|n| n.with_decimal(decimal));
                }
            } else if let Some(base) = self.as_rational()
                && let Some(root) = exact_root(base, e.denom())?
            {
                return Num::rational(root)
                    .pow_int(e.numer())
                    .map(|n| n.with_decimal(decimal));
            }
        }
        if self.is_exact_zero() {
            return match exponent.sign() {
                Some(1) => Ok(Num::int(0)),
                _ => Err(EvalError::Undefined("zero to a non-positive power")),
            };
        }
        // Approximate: exp(e · ln z) with principal branch; real bases with real exponents stay real
        // when the base is positive.
        let (a, b, ea) = self.to_f64()?;
        let (c, d, ec) = exponent.to_f64()?;
        let (re, im) = if b == 0.0 && d == 0.0 && (a > 0.0 || c.fract() == 0.0) {
            (a.powf(c), 0.0)
        } else {
            let r = (a * a + b * b).sqrt();
            let theta = b.atan2(a);
            let (lr, li) = (r.ln(), theta);
            let (xr, xi) = (c * lr - d * li, c * li + d * lr);
            let m = xr.exp();
            (m * xi.cos(), m * xi.sin())
        };
        let mag = re.abs() + im.abs();
        let base_mag = (a * a + b * b).sqrt().max(f64::MIN_POSITIVE);
        let rel = (c.abs() + d.abs()) * ea / base_mag
            + ec * (base_mag.ln().abs() + std::f64::consts::PI)
            + 8.0 * EPS;
        Ok(Num::approx_err(re, im, mag * rel)?.with_decimal(decimal))
    }

    fn pow_int(&self, n: &BigInt) -> NumResult {
        let Value::Exact { re, im } = &self.value else {
            unreachable!("pow_int is only called on exact values");
        };
        let magnitude_bits = re
            .numer()
            .bits()
            .max(re.denom().bits())
            .max(im.numer().bits())
            .max(im.denom().bits());
        if n.is_zero() {
            return Ok(Num::int(1).with_decimal(self.decimal));
        }
        let is_unit = magnitude_bits <= 1
            && (re.abs().is_one() || re.is_zero())
            && (im.abs().is_one() || im.is_zero());
        let k = match n.abs().to_u64() {
            Some(k) if is_unit || k.saturating_mul(magnitude_bits.max(1)) <= MAX_EXACT_BITS => k,
            _ if is_unit && (re.is_zero() || im.is_zero()) => {
                // ±1 and ±i to a huge power: only the exponent's residue mod 4 matters.
                (n.abs() % BigInt::from(4u8)).to_u64().unwrap_or(0) + 4
            }
            _ => return Err(EvalError::TooLarge),
        };
        let mut result = Num::int(1);
        let mut base = Num {
            value: self.value.clone(),
            decimal: false,
        };
        let mut k = k;
        while k > 0 {
            if k & 1 == 1 {
                result = result.mul(&base)?;
            }
            k >>= 1;
            if k > 0 {
                base = base.mul(&base)?;
            }
        }
        if n.is_negative() {
            result = result.recip()?;
        }
        Ok(result.with_decimal(self.decimal))
    }
}

fn exact(re: BigRational, im: BigRational, decimal: bool) -> NumResult {
    Ok(Num {
        value: Value::Exact { re, im },
        decimal,
    })
}

fn check_bits(a: &BigRational, b: &BigRational) -> Result<(), EvalError> {
    let bits = |r: &BigRational| r.numer().bits().max(r.denom().bits());
    if bits(a) + bits(b) > MAX_EXACT_BITS {
        Err(EvalError::TooLarge)
    } else {
        Ok(())
    }
}

/// An exact rational as f64; values beyond f64's range are refused rather than rounded to 0 or ∞.
pub fn rat_to_f64(r: &BigRational) -> Result<f64, EvalError> {
    if r.is_zero() {
        return Ok(0.0);
    }
    let x = r.to_f64().ok_or(EvalError::TooLarge)?;
    if !x.is_finite() || x == 0.0 {
        return Err(EvalError::TooLarge);
    }
    Ok(x)
}

/// The exact `q`-th root of a rational when it is itself rational (`(8/27)^{1/3}` = 2/3).
fn exact_root(base: &BigRational, q: &BigInt) -> Result<Option<BigRational>, EvalError> {
    let Some(q) = q.to_u32().filter(|q| *q <= 64) else {
        return Ok(None);
    };
    if base.is_negative() && q % 2 == 0 {
        return Ok(None);
    }
    let root_of = |n: &BigInt| -> Option<BigInt> {
        let r = n.abs().nth_root(q);
        (r.pow(q) == n.abs()).then_some(if n.is_negative() { -r } else { r })
    };
    Ok(match (root_of(base.numer()), root_of(base.denom())) {
        (Some(n), Some(d)) => Some(BigRational::new(n, d)),
        _ => None,
    })
}

/// `n!` exactly, for `n` up to a few thousand.
pub fn factorial(n: &Num) -> NumResult {
    let Some(k) = n.as_integer() else {
        return Err(EvalError::Undefined("factorial of a non-integer"));
    };
    if k.is_negative() {
        return Err(EvalError::Undefined("factorial of a negative number"));
    }
    let k = k
        .to_u64()
        .filter(|k| *k <= 5000)
        .ok_or(EvalError::TooLarge)?;
    let mut acc = BigInt::one();
    for i in 2..=k {
        acc *= i;
    }
    Ok(Num::rational(BigRational::from_integer(acc)))
}

/// `\binom{n}{k}` exactly for integer arguments.
pub fn binomial(n: &Num, k: &Num) -> NumResult {
    let (Some(n), Some(k)) = (n.as_integer(), k.as_integer()) else {
        return Err(EvalError::Undefined("binomial of non-integers"));
    };
    if k.is_negative() || k > n {
        return Ok(Num::int(0));
    }
    let other = &n - &k;
    let k = k
        .min(other)
        .to_u64()
        .filter(|k| *k <= 5000)
        .ok_or(EvalError::TooLarge)?;
    let mut acc = BigInt::one();
    for i in 0..k {
        acc = acc * (&n - BigInt::from(i)) / BigInt::from(i + 1);
    }
    Ok(Num::rational(BigRational::from_integer(acc)))
}

/// Applies a real function to an approximate or exact real argument, with error propagation by
/// the given derivative magnitude.
pub fn real_fn(x: &Num, f: fn(f64) -> f64, df: fn(f64) -> f64) -> NumResult {
    if !x.is_real() {
        return Err(EvalError::Undefined("function of a complex number"));
    }
    let (a, _, ea) = x.to_f64()?;
    let y = f(a);
    if !y.is_finite() {
        return Err(EvalError::Undefined("outside the function's domain"));
    }
    let err = df(a).abs() * ea + 4.0 * EPS * y.abs();
    Ok(Num::approx_err(y, 0.0, err)?.with_decimal(x.decimal))
}

/// How two numbers are compared.
#[derive(Debug, Clone, Copy)]
pub struct Tolerance {
    /// Digits after the decimal point kept when either side came from a decimal literal.
    pub float_rounding: u32,
}

/// Safety factor on the combined error bound of two approximations.
const ERROR_FACTOR: f64 = 64.0;

/// Whether two numbers are equal: exactly for exact values; within the error bound for
/// approximations; after rounding to `float_rounding` digits when a decimal literal is involved.
pub fn num_eq(a: &Num, b: &Num, tol: Tolerance) -> bool {
    if let (Value::Exact { re: ar, im: ai }, Value::Exact { re: br, im: bi }) = (&a.value, &b.value)
        && ar == br
        && ai == bi
    {
        return true;
    }
    if a.decimal || b.decimal {
        return rounded_eq(a, b, tol.float_rounding);
    }
    if matches!(a.value, Value::Exact { .. }) && matches!(b.value, Value::Exact { .. }) {
        return false;
    }
    close(a, b)
}

fn close(a: &Num, b: &Num) -> bool {
    let (Ok((ar, ai, ea)), Ok((br, bi, eb))) = (a.to_f64(), b.to_f64()) else {
        return false;
    };
    let diff = (ar - br).abs() + (ai - bi).abs();
    diff <= ERROR_FACTOR * (ea + eb)
}

fn rounded_eq(a: &Num, b: &Num, digits: u32) -> bool {
    // Exact zero never rounds into equality with a non-zero value.
    if a.is_exact_zero() != b.is_exact_zero() {
        return false;
    }
    let scale = BigRational::from_integer(BigInt::from(10u8).pow(digits.min(30)));
    let part = |n: &Num| -> Option<(BigRational, BigRational)> {
        match &n.value {
            Value::Exact { re, im } => Some((re.clone(), im.clone())),
            Value::Approx { re, im, .. } => {
                Some((BigRational::from_float(*re)?, BigRational::from_float(*im)?))
            }
        }
    };
    let (Some((ar, ai)), Some((br, bi))) = (part(a), part(b)) else {
        return false;
    };
    let round = |x: &BigRational| (x * &scale).round();
    if round(&ar) != round(&br) || round(&ai) != round(&bi) {
        // Approximations sitting on a rounding boundary: accept when within their error bound.
        return close(a, b) && !(a.decimal && b.decimal);
    }
    // Both round to zero: tiny values must not be rounded into equality, compare them relatively.
    let tiny = BigRational::new(BigInt::one(), BigInt::from(2u8)) / &scale;
    if ar.abs() < tiny && br.abs() < tiny && ai.is_zero() && bi.is_zero() && ar != br {
        let diff = (&ar - &br).abs();
        let mag = ar.abs().max(br.abs());
        return diff * BigRational::from_integer(BigInt::from(1_000_000u32)) <= mag;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Num {
        Num::rational(BigRational::new(n.into(), d.into()))
    }
    const TOL: Tolerance = Tolerance { float_rounding: 6 };

    #[test]
    fn exact_fractions_never_round_into_equality() {
        let two = Num::int(2);
        let a = Num::int(1).div(&two.pow(&Num::int(99)).unwrap()).unwrap();
        let b = Num::int(1).div(&two.pow(&Num::int(98)).unwrap()).unwrap();
        assert!(!num_eq(&a, &b, TOL));
        let big = Num::int(10).pow(&Num::int(30)).unwrap();
        assert!(!num_eq(&big, &big.add(&Num::int(1)).unwrap(), TOL));
        assert!(num_eq(&q(2, 4), &q(1, 2), TOL));
    }

    #[test]
    fn radicals_compare_within_their_error_bound() {
        let half = q(1, 2);
        let sqrt8 = Num::int(8).pow(&half).unwrap();
        let two_sqrt2 = Num::int(2).mul(&Num::int(2).pow(&half).unwrap()).unwrap();
        assert!(num_eq(&sqrt8, &two_sqrt2, TOL));
        let sqrt2 = Num::int(2).pow(&half).unwrap();
        let zero = sqrt2.mul(&sqrt2).unwrap().sub(&Num::int(2)).unwrap();
        assert!(num_eq(&zero, &Num::int(0), TOL));
        let near = q(665857, 470832);
        assert!(!num_eq(&sqrt2, &near, TOL));
    }

    #[test]
    fn perfect_roots_stay_exact() {
        let r = q(8, 27).pow(&q(1, 3)).unwrap();
        assert_eq!(r.as_rational(), Some(&BigRational::new(2.into(), 3.into())));
    }

    #[test]
    fn huge_powers_are_refused_not_rounded() {
        let n = Num::int(9).pow(&Num::int(10_000_000));
        assert_eq!(n, Err(EvalError::TooLarge));
        let one = Num::int(-1).pow(&Num::int(1_000_000_001)).unwrap();
        assert!(num_eq(&one, &Num::int(-1), TOL));
    }

    #[test]
    fn decimals_round_to_the_requested_digits() {
        let d = q(833333333333333, 10_000_000_000_000_000).with_decimal(true);
        assert!(num_eq(&d, &q(1, 12), TOL));
        let pi = Num::approx(std::f64::consts::PI).unwrap();
        assert!(!num_eq(&q(314, 100).with_decimal(true), &pi, TOL));
        let tiny = q(1, 10_000_000).with_decimal(true);
        assert!(!num_eq(&tiny, &Num::int(0), TOL));
        assert!(!num_eq(&tiny, &q(2, 10_000_000).with_decimal(true), TOL));
    }
}
