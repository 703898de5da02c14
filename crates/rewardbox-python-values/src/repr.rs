//! Python's `repr` of built-in values, where it can be given without Unicode's tables or a
//! set's hash order.

use crate::value::Value;

impl Value {
    /// Python's `repr(self)`, or `None` where this crate cannot be sure of CPython's text: a
    /// string with a character outside ASCII and Latin-1 (whether it prints as itself depends on
    /// Unicode's tables), a set of more than one element (it prints in hash order), a complex.
    pub fn repr(&self) -> Option<String> {
        let mut out = String::new();
        self.write_repr(&mut out)?;
        Some(out)
    }

    fn write_repr(&self, out: &mut String) -> Option<()> {
        match self {
            Value::None => out.push_str("None"),
            Value::Bool(true) => out.push_str("True"),
            Value::Bool(false) => out.push_str("False"),
            Value::Int(i) => out.push_str(&i.decimal()),
            Value::Float(f) => out.push_str(&float_repr(*f)),
            Value::Complex(..) => return None,
            Value::Str(s) => out.push_str(&str_repr(s)?),
            Value::Bytes(b) => out.push_str(&bytes_repr(b)),
            Value::List(items) => {
                out.push('[');
                write_items(items, out)?;
                out.push(']');
            }
            Value::Tuple(items) => {
                out.push('(');
                write_items(items, out)?;
                if items.len() == 1 {
                    out.push(',');
                }
                out.push(')');
            }
            Value::Set { frozen, items } => {
                if items.len() > 1 {
                    return None;
                }
                if *frozen {
                    out.push_str("frozenset(");
                }
                match items.first() {
                    Some(item) => {
                        out.push('{');
                        item.write_repr(out)?;
                        out.push('}');
                    }
                    None if *frozen => {}
                    None => out.push_str("set()"),
                }
                if *frozen {
                    out.push(')');
                }
            }
            Value::Dict(entries) => {
                out.push('{');
                for (n, (k, v)) in entries.iter().enumerate() {
                    if n > 0 {
                        out.push_str(", ");
                    }
                    k.write_repr(out)?;
                    out.push_str(": ");
                    v.write_repr(out)?;
                }
                out.push('}');
            }
            Value::Handle { id, type_name } => {
                out.push_str(&format!("<candidate {type_name} object #{id}>"));
            }
        }
        Some(())
    }
}

fn write_items(items: &[Value], out: &mut String) -> Option<()> {
    for (n, item) in items.iter().enumerate() {
        if n > 0 {
            out.push_str(", ");
        }
        item.write_repr(out)?;
    }
    Some(())
}

/// Python's `repr(float)`: the shortest digits that read back as `f`, in positional form for
/// decimal exponents from -4 up to 16, else in exponent form (`1e+16`, `1.5e-05`).
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.into();
    }
    // Rust's `{:e}` gives as few digits as round-trip, as `d.ddde<exp>`; of the strings that
    // short, CPython takes the one nearest the exact value, ties to even, which is what
    // formatting to that many digits gives (when it round-trips, as it does but at the edge of
    // a binade).
    let shortest = format!("{:e}", f.abs());
    let digit_count = shortest
        .split('e')
        .next()
        .map_or(1, |m| m.replace('.', "").len());
    let nearest = format!("{:.*e}", digit_count - 1, f.abs());
    let scientific = if nearest.parse::<f64>() == Ok(f.abs()) {
        nearest
    } else {
        shortest
    };
    let (mantissa, exponent) = scientific.split_once('e').expect("`{:e}` has an exponent");
    let exponent: i32 = exponent.parse().expect("a decimal exponent");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if f.is_sign_negative() { "-" } else { "" };
    // Where the decimal point falls after the first digit, as CPython counts it.
    let point = exponent + 1;
    let body = if !(-4 < point && point <= 16) {
        let (first, rest) = digits.split_at(1);
        let fraction = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        format!("{first}{fraction}e{exp_sign}{:02}", exponent.abs())
    } else if point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else if (point as usize) < digits.len() {
        let (whole, fraction) = digits.split_at(point as usize);
        format!("{whole}.{fraction}")
    } else {
        format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
    };
    format!("{sign}{body}")
}

/// Python's `repr(str)`, or `None` when `s` holds a character outside ASCII and Latin-1
/// (printable or not by Unicode's tables, which this crate does not carry).
pub fn str_repr(s: &str) -> Option<String> {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            // C0 and C1 controls, DEL, the no-break space (a space separator) and the soft
            // hyphen (a format character) do not print as themselves.
            '\0'..='\u{1f}' | '\u{7f}'..='\u{a0}' | '\u{ad}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            '\u{a1}'..='\u{ff}' => out.push(c),
            _ => return None,
        }
    }
    out.push(quote);
    Some(out)
}

/// Python's `repr(bytes)`.
fn bytes_repr(b: &[u8]) -> String {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') {
        b'"'
    } else {
        b'\''
    };
    let mut out = String::with_capacity(b.len() + 3);
    out.push('b');
    out.push(quote as char);
    for &byte in b {
        match byte {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            q if q == quote => {
                out.push('\\');
                out.push(q as char);
            }
            b' '..=b'~' => out.push(byte as char),
            _ => out.push_str(&format!("\\x{byte:02x}")),
        }
    }
    out.push(quote as char);
    out
}
