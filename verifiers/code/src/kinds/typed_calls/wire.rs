//! The verifier's side of the typed wire (`wire/wire.hpp`, `wire.rs`, `wire.go`): calls
//! written for the candidate's server, and its answers read back, by the declared types.
//!
//! The three servers speak the same framing (a message starts with the byte 0x1e; a call is `C`
//! and the function's number, an answer `R` and the value) with each language's own tokens:
//! C++ writes unsigned integers and float bits in hex, Rust in decimal, Go tags every token
//! with its kind (`i5`, `s616263`, `L2`).

use crate::kinds::typed_calls::cpp_any;
use crate::kinds::typed_calls::dynamic;
use crate::kinds::typed_calls::values::Held;
use crate::kinds::typed_calls::values::{Val, in_range};
use crate::langs::types::{self, Ty};

/// Which server's tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// `wire.hpp`.
    Cpp,
    /// `wire.rs`.
    Rust,
    /// `wire.go`.
    Go,
}

/// The message calling function 0 (the entry point) with `args` of `types`.
pub fn call_message(dialect: Dialect, args: &[Val], types: &[Ty]) -> Result<Vec<u8>, String> {
    let mut out = vec![0x1e];
    match dialect {
        Dialect::Go => out.extend_from_slice(b"C0 "),
        _ => out.extend_from_slice(b"C 0 "),
    }
    for (arg, ty) in args.iter().zip(types) {
        put(dialect, &mut out, arg, ty)?;
    }
    out.push(b'\n');
    Ok(out)
}

fn token(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(text.as_bytes());
    out.push(b' ');
}

/// `bytes` in lowercase hex (Go's strings and type names).
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Lowercase or uppercase hex back to bytes.
fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

fn put(dialect: Dialect, out: &mut Vec<u8>, value: &Val, ty: &Ty) -> Result<(), String> {
    let go = dialect == Dialect::Go;
    match (ty, value) {
        (Ty::Bool, Val::Bool(b)) => token(
            out,
            match (go, b) {
                (true, true) => "T",
                (true, false) => "F",
                (false, true) => "1",
                (false, false) => "0",
            },
        ),
        (Ty::Int { signed, .. }, Val::Int(n)) => match (dialect, signed) {
            (Dialect::Go, true) => token(out, &format!("i{n}")),
            (Dialect::Go, false) => token(out, &format!("u{n}")),
            (Dialect::Cpp, false) => token(out, &format!("{n:x}")),
            _ => token(out, &n.to_string()),
        },
        (Ty::Char, Val::Int(c)) => match dialect {
            Dialect::Cpp if *c > 0xff => {
                return Err(format!(
                    "the character U+{c:04X} does not fit a C++ `char` (one byte)"
                ));
            }
            // C++'s `char` is signed in wasm32, and its bytes cross as signed integers.
            Dialect::Cpp => token(out, &(*c as u8 as i8).to_string()),
            Dialect::Go => token(out, &format!("i{c}")),
            Dialect::Rust => token(out, &c.to_string()),
        },
        (Ty::Float { bits }, Val::Float(x)) => {
            let text = match (dialect, bits) {
                (Dialect::Go, _) => format!("f{:x}", x.to_bits()),
                (Dialect::Cpp, 32) => format!("{:x}", (*x as f32).to_bits()),
                (Dialect::Cpp, _) => format!("{:x}", x.to_bits()),
                (Dialect::Rust, 32) => (*x as f32).to_bits().to_string(),
                (Dialect::Rust, _) => x.to_bits().to_string(),
            };
            token(out, &text);
        }
        (Ty::Str, Val::Str(bytes)) => {
            if go {
                token(out, &format!("s{}", hex(bytes)));
            } else {
                out.extend_from_slice(format!("{}:", bytes.len()).as_bytes());
                out.extend_from_slice(bytes);
                out.push(b' ');
            }
        }
        (Ty::Seq(_) | Ty::Map(..), Val::Nil) if go => token(out, "N"),
        (Ty::Seq(_) | Ty::Map(..), Val::Nil) => put(dialect, out, &Val::List(vec![]), ty)?,
        (Ty::Seq(element) | Ty::Set(element), Val::List(items)) => {
            token(
                out,
                &format!("{}{}", if go { "L" } else { "" }, items.len()),
            );
            for item in items {
                put(dialect, out, item, element)?;
            }
        }
        (Ty::Array(element, _), Val::List(items)) => {
            match dialect {
                Dialect::Go => token(out, &format!("A{}", items.len())),
                Dialect::Rust => token(out, &items.len().to_string()),
                Dialect::Cpp => {}
            }
            for item in items {
                put(dialect, out, item, element)?;
            }
        }
        (Ty::Map(key, value), Val::List(entries)) => {
            token(
                out,
                &format!("{}{}", if go { "M" } else { "" }, entries.len()),
            );
            for entry in entries {
                if let Val::List(kv) = entry
                    && let [k, v] = kv.as_slice()
                {
                    put(dialect, out, k, key)?;
                    put(dialect, out, v, value)?;
                }
            }
        }
        (Ty::Tuple(types), Val::List(items)) => {
            for (item, ty) in items.iter().zip(types) {
                put(dialect, out, item, ty)?;
            }
        }
        (Ty::Struct { fields, .. }, Val::List(items)) => {
            if go {
                token(out, &format!("R{}", fields.len()));
            }
            for (item, (_, ty)) in items.iter().zip(fields) {
                put(dialect, out, item, ty)?;
            }
        }
        (Ty::Option(_), Val::Nil) => token(out, if go { "N" } else { "0" }),
        (Ty::Option(inner), Val::Some(v)) => {
            token(out, if go { "P" } else { "1" });
            put(dialect, out, v, inner)?;
        }
        (Ty::Unit, _) => {}
        (Ty::Dynamic, Val::Nil) if go => token(out, "N"),
        (Ty::Dynamic, Val::Held(held)) if go => {
            token(out, &format!("I{}", hex(held.name.as_bytes())));
            put(dialect, out, &held.value, &held.ty)?;
        }
        (Ty::CppAny, Val::Nil) => token(out, "-"),
        (Ty::CppAny, Val::Held(held)) => {
            let tag = cpp_any::CPP_TYPES
                .iter()
                .position(|name| *name == held.name)
                .ok_or_else(|| format!("a C++ dynamic value cannot hold a `{}`", held.name))?;
            token(out, &tag.to_string());
            put(dialect, out, &held.value, &held.ty)?;
        }
        (ty, value) => return Err(format!("{value:?} is not a value of {ty:?}")),
    }
    Ok(())
}

/// One answer of the candidate's server.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The function returned these values (Go: one per result; C++ and Rust: one).
    Returned(Vec<Val>),
    /// The function threw (C++: `what()`).
    Threw(String),
    /// The answer is not a value of the declared type: the candidate's function returns
    /// another type, or its program wrote into the frame.
    Malformed(String),
}

/// The answers in the candidate's standard output, in order, each read by `results` (the
/// declared result types). Bytes outside a frame (the candidate's own prints) are skipped; an
/// answer cut short by the end of the output is not counted (the program ended during that
/// call).
pub fn answers(dialect: Dialect, stdout: &[u8], results: &[Ty]) -> Vec<Answer> {
    let mut reader = Reader {
        bytes: stdout,
        at: 0,
        dialect,
    };
    let mut found = Vec::new();
    while let Some(start) = reader.bytes[reader.at..].iter().position(|&b| b == 0x1e) {
        reader.at += start + 1;
        let frame_start = reader.at;
        match reader.answer(results) {
            Ok(answer) => found.push(answer),
            Err(Stop::EndOfOutput) => break,
            Err(Stop::Malformed(what)) => {
                found.push(Answer::Malformed(what));
                reader.at = frame_start;
            }
        }
    }
    found
}

enum Stop {
    EndOfOutput,
    Malformed(String),
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    dialect: Dialect,
}

/// The most elements one collection of an answer may claim.
const MAX_COUNT: usize = 1 << 26;

impl Reader<'_> {
    fn answer(&mut self, results: &[Ty]) -> Result<Answer, Stop> {
        let kind = self.token()?;
        let answer = match kind.as_str() {
            "R" => results
                .iter()
                .map(|ty| self.value(ty))
                .collect::<Result<_, _>>()
                .map(Answer::Returned)?,
            "E" if self.dialect == Dialect::Cpp => {
                let what = self.raw_string()?;
                Answer::Threw(String::from_utf8_lossy(&what).into_owned())
            }
            // The function returned a dynamic value holding a type the wire does not carry.
            "U" if self.dialect == Dialect::Cpp => {
                let what = self.raw_string()?;
                Answer::Malformed(format!(
                    "it returned {}, which typed calls do not read",
                    String::from_utf8_lossy(&what)
                ))
            }
            _ => return Err(Stop::Malformed("answer".into())),
        };
        self.frame_end()?;
        Ok(answer)
    }

    /// The newline ending a frame, after the value's last separator.
    fn frame_end(&mut self) -> Result<(), Stop> {
        while self.at < self.bytes.len() && self.bytes[self.at] == b' ' {
            self.at += 1;
        }
        match self.bytes.get(self.at) {
            None => Err(Stop::EndOfOutput),
            Some(b'\n') => {
                self.at += 1;
                Ok(())
            }
            Some(_) => Err(Stop::Malformed("more than one value".into())),
        }
    }

    fn token(&mut self) -> Result<String, Stop> {
        while self.at < self.bytes.len() && matches!(self.bytes[self.at], b' ' | b'\n') {
            self.at += 1;
        }
        let start = self.at;
        while self.at < self.bytes.len() && !matches!(self.bytes[self.at], b' ' | b'\n') {
            if self.bytes[self.at] == 0x1e {
                return Err(Stop::Malformed("a frame inside a frame".into()));
            }
            self.at += 1;
        }
        if self.at == self.bytes.len() {
            // A token must end with its separator: the last frame ends with a newline.
            return Err(Stop::EndOfOutput);
        }
        Ok(String::from_utf8_lossy(&self.bytes[start..self.at]).into_owned())
    }

    /// Go: takes a nil slice or map (`N`), or leaves the next token where it is.
    fn nil(&mut self) -> Result<bool, Stop> {
        let before = self.at;
        if self.token()? == "N" {
            return Ok(true);
        }
        self.at = before;
        Ok(false)
    }

    fn raw_string(&mut self) -> Result<Vec<u8>, Stop> {
        while self.at < self.bytes.len() && matches!(self.bytes[self.at], b' ' | b'\n') {
            self.at += 1;
        }
        let digits = self.bytes[self.at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let length_end = self.at + digits;
        if length_end >= self.bytes.len() {
            return Err(Stop::EndOfOutput);
        }
        if digits == 0 || digits > 9 || self.bytes[length_end] != b':' {
            return Err(Stop::Malformed("string".into()));
        }
        let n: usize = std::str::from_utf8(&self.bytes[self.at..length_end])
            .ok()
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| Stop::Malformed("string".into()))?;
        let start = length_end + 1;
        if start + n >= self.bytes.len() {
            return Err(Stop::EndOfOutput);
        }
        self.at = start + n;
        Ok(self.bytes[start..start + n].to_vec())
    }

    fn malformed<T>(ty: &Ty) -> Result<T, Stop> {
        Err(Stop::Malformed(format!("{ty:?}")))
    }

    fn count(&mut self, prefix: &str, ty: &Ty) -> Result<usize, Stop> {
        let token = self.token()?;
        match token
            .strip_prefix(prefix)
            .and_then(|n| n.parse::<usize>().ok())
        {
            Some(n) if n <= MAX_COUNT => Ok(n),
            _ => Self::malformed(ty),
        }
    }

    fn integer(&mut self, ty: &Ty, signed: bool, bits: u8) -> Result<i128, Stop> {
        let token = self.token()?;
        let parsed = match (self.dialect, signed) {
            (Dialect::Go, true) => token.strip_prefix('i').and_then(|t| t.parse().ok()),
            (Dialect::Go, false) => token.strip_prefix('u').and_then(|t| t.parse().ok()),
            (Dialect::Cpp, false) => u128::from_str_radix(&token, 16)
                .ok()
                .and_then(|n| i128::try_from(n).ok()),
            _ => token.parse().ok(),
        };
        match parsed {
            Some(n) if in_range(n, signed, bits) => Ok(n),
            _ => Self::malformed(ty),
        }
    }

    fn value(&mut self, ty: &Ty) -> Result<Val, Stop> {
        let go = self.dialect == Dialect::Go;
        match ty {
            Ty::Bool => {
                let token = self.token()?;
                match (go, token.as_str()) {
                    (true, "T") | (false, "1") => Ok(Val::Bool(true)),
                    (true, "F") | (false, "0") => Ok(Val::Bool(false)),
                    _ => Self::malformed(ty),
                }
            }
            Ty::Int { signed, bits } => self.integer(ty, *signed, *bits).map(Val::Int),
            Ty::Char => match self.dialect {
                Dialect::Cpp => self
                    .integer(ty, true, 8)
                    .map(|c| Val::Int(i128::from(c as u8))),
                Dialect::Go => self.integer(ty, true, 32).map(Val::Int),
                Dialect::Rust => match self.integer(ty, false, 32)? {
                    c if char::from_u32(c as u32).is_some() => Ok(Val::Int(c)),
                    _ => Self::malformed(ty),
                },
            },
            Ty::Float { bits } => {
                let token = self.token()?;
                let value = match (self.dialect, bits) {
                    (Dialect::Go, _) => token
                        .strip_prefix('f')
                        .and_then(|t| u64::from_str_radix(t, 16).ok())
                        .map(f64::from_bits),
                    (Dialect::Cpp, 32) => u32::from_str_radix(&token, 16)
                        .ok()
                        .map(|b| f64::from(f32::from_bits(b))),
                    (Dialect::Cpp, _) => u64::from_str_radix(&token, 16).ok().map(f64::from_bits),
                    (Dialect::Rust, 32) => token.parse().ok().map(|b| f64::from(f32::from_bits(b))),
                    (Dialect::Rust, _) => token.parse().ok().map(f64::from_bits),
                };
                value
                    .map(Val::Float)
                    .map_or_else(|| Self::malformed(ty), Ok)
            }
            Ty::Str if go => {
                let token = self.token()?;
                let bytes = token.strip_prefix('s').and_then(unhex);
                bytes.map(Val::Str).map_or_else(|| Self::malformed(ty), Ok)
            }
            Ty::Str => self.raw_string().map(Val::Str),
            Ty::Seq(element) | Ty::Set(element) => {
                if go && self.nil()? {
                    return Ok(Val::Nil);
                }
                let n = self.count(if go { "L" } else { "" }, ty)?;
                (0..n)
                    .map(|_| self.value(element))
                    .collect::<Result<_, _>>()
                    .map(Val::List)
            }
            Ty::Array(element, n) => {
                let count = match self.dialect {
                    Dialect::Go => self.count("A", ty)?,
                    Dialect::Rust => self.count("", ty)?,
                    Dialect::Cpp => *n,
                };
                if count != *n {
                    return Self::malformed(ty);
                }
                (0..count)
                    .map(|_| self.value(element))
                    .collect::<Result<_, _>>()
                    .map(Val::List)
            }
            Ty::Map(key, value) => {
                if go && self.nil()? {
                    return Ok(Val::Nil);
                }
                let n = self.count(if go { "M" } else { "" }, ty)?;
                (0..n)
                    .map(|_| Ok(Val::List(vec![self.value(key)?, self.value(value)?])))
                    .collect::<Result<_, _>>()
                    .map(Val::List)
            }
            Ty::Tuple(types) => types
                .iter()
                .map(|t| self.value(t))
                .collect::<Result<_, _>>()
                .map(Val::List),
            Ty::Struct { fields, .. } => {
                if go && self.count("R", ty)? != fields.len() {
                    return Self::malformed(ty);
                }
                fields
                    .iter()
                    .map(|(_, t)| self.value(t))
                    .collect::<Result<_, _>>()
                    .map(Val::List)
            }
            Ty::Option(inner) => {
                let token = self.token()?;
                match (go, token.as_str()) {
                    (true, "N") | (false, "0") => Ok(Val::Nil),
                    (true, "P") | (false, "1") => Ok(Val::Some(Box::new(self.value(inner)?))),
                    _ => Self::malformed(ty),
                }
            }
            Ty::Unit => Ok(Val::Unit),
            Ty::Dynamic if go => {
                if self.nil()? {
                    return Ok(Val::Nil);
                }
                let token = self.token()?;
                let name = token
                    .strip_prefix('I')
                    .and_then(unhex)
                    .and_then(|n| String::from_utf8(n).ok())
                    .ok_or_else(|| Stop::Malformed("an interface value".into()))?;
                // A held type typed calls do not read (a complex number, a struct) cannot be
                // compared with an expected value: the candidate's answer is not one of them.
                if !dynamic::GO_TYPES.contains(&name.as_str()) {
                    return Err(Stop::Malformed(format!(
                        "an interface holding a {name}, which typed calls do not read"
                    )));
                }
                let held_ty = types::go(&name).map_err(Stop::Malformed)?;
                let value = self.value(&held_ty)?;
                Ok(Val::Held(Box::new(Held {
                    name,
                    ty: held_ty,
                    value,
                })))
            }
            Ty::Dynamic => Self::malformed(ty),
            Ty::CppAny => {
                let token = self.token()?;
                if token == "-" {
                    return Ok(Val::Nil);
                }
                let name = token
                    .parse::<usize>()
                    .ok()
                    .and_then(|tag| cpp_any::CPP_TYPES.get(tag))
                    .ok_or_else(|| Stop::Malformed("a dynamic value".into()))?;
                let held_ty = cpp_any::held_type(name).map_err(Stop::Malformed)?;
                let value = self.value(&held_ty)?;
                Ok(Val::Held(Box::new(Held {
                    name: name.to_string(),
                    ty: held_ty,
                    value,
                })))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_types() -> (Vec<Ty>, Vec<Val>) {
        let types = vec![
            Ty::Bool,
            Ty::Int {
                signed: true,
                bits: 64,
            },
            Ty::Int {
                signed: false,
                bits: 64,
            },
            Ty::Char,
            Ty::Float { bits: 64 },
            Ty::Float { bits: 32 },
            Ty::Str,
            Ty::Seq(Box::new(Ty::Str)),
            Ty::Array(
                Box::new(Ty::Int {
                    signed: true,
                    bits: 32,
                }),
                2,
            ),
            Ty::Map(Box::new(Ty::Str), Box::new(Ty::Option(Box::new(Ty::Bool)))),
            Ty::Tuple(vec![
                Ty::Int {
                    signed: true,
                    bits: 8,
                },
                Ty::Str,
            ]),
        ];
        let values = vec![
            Val::Bool(true),
            Val::Int(-9_007_199_254_740_993),
            Val::Int(18_446_744_073_709_551_615),
            Val::Int(97),
            Val::Float(-0.0),
            Val::Float(0.5),
            Val::Str(b"a b\n\x1e c".to_vec()),
            Val::List(vec![Val::Str(b"".to_vec()), Val::Str(b"x".to_vec())]),
            Val::List(vec![Val::Int(1), Val::Int(-2)]),
            Val::List(vec![
                Val::List(vec![Val::Str(b"k".to_vec()), Val::Nil]),
                Val::List(vec![
                    Val::Str(b"j".to_vec()),
                    Val::Some(Box::new(Val::Bool(false))),
                ]),
            ]),
            Val::List(vec![Val::Int(-128), Val::Str(b"t".to_vec())]),
        ];
        (types, values)
    }

    /// What a server writes back: the call's arguments as its answer (the same encoding).
    fn echoed(dialect: Dialect, values: &[Val], types: &[Ty]) -> Vec<u8> {
        let call = call_message(dialect, values, types).unwrap();
        let header = if dialect == Dialect::Go {
            "C0 "
        } else {
            "C 0 "
        };
        let mut answer = vec![0x1e, b'R', b' '];
        answer.extend_from_slice(&call[1 + header.len()..]);
        answer
    }

    #[test]
    fn every_type_crosses_and_comes_back_in_each_dialect() {
        let (types, values) = all_types();
        for dialect in [Dialect::Cpp, Dialect::Rust, Dialect::Go] {
            let mut stdout = b"the candidate's own print\n".to_vec();
            stdout.extend(echoed(dialect, &values, &types));
            stdout.extend_from_slice(b"more print");
            stdout.extend(echoed(dialect, &values, &types));
            let got = answers(dialect, &stdout, &types);
            assert_eq!(got.len(), 2, "{dialect:?}: {got:?}");
            for answer in got {
                let Answer::Returned(back) = answer else {
                    panic!("{dialect:?}: {answer:?}");
                };
                for ((b, v), t) in back.iter().zip(&values).zip(&types) {
                    match (b, v) {
                        (Val::Float(x), Val::Float(y)) => {
                            assert_eq!(x.to_bits(), y.to_bits(), "{dialect:?} {t:?}")
                        }
                        _ => assert_eq!(b, v, "{dialect:?} {t:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn go_interface_values_cross_with_the_type_they_hold() {
        let json = serde_json::json!([
            1,
            2.5,
            null,
            {"$type": "rune", "value": "c"},
            {"$type": "[]string", "value": ["a"]},
            {"k": [true]}
        ]);
        let ty = Ty::Seq(Box::new(Ty::Dynamic));
        let value = crate::kinds::typed_calls::values::from_json(&json, &ty).unwrap();
        let types = [ty];
        let values = [value];
        let stdout = echoed(Dialect::Go, &values, &types);
        assert!(
            String::from_utf8_lossy(&stdout).contains(&format!("I{}", hex(b"int32"))),
            "{}",
            String::from_utf8_lossy(&stdout)
        );
        assert_eq!(
            answers(Dialect::Go, &stdout, &types),
            [Answer::Returned(values.to_vec())]
        );
        // A held type typed calls do not read is the answer's fault, named.
        let complex = format!("\x1eR I{} c0 0\n", hex(b"complex128"));
        let got = answers(Dialect::Go, complex.as_bytes(), &[Ty::Dynamic]);
        assert!(
            matches!(got.as_slice(), [Answer::Malformed(w)] if w.contains("complex128")),
            "{got:?}"
        );
    }

    #[test]
    fn an_answer_cut_short_is_not_counted_and_a_wrong_one_is_malformed() {
        let (types, values) = all_types();
        for dialect in [Dialect::Cpp, Dialect::Rust, Dialect::Go] {
            let whole = echoed(dialect, &values, &types);
            for cut in 1..whole.len() {
                let got = answers(dialect, &whole[..cut], &types);
                assert!(got.is_empty(), "{dialect:?} cut at {cut}: {got:?}");
            }
            let int = [Ty::Int {
                signed: true,
                bits: 32,
            }];
            for wrong in ["\x1eR zz \n", "\x1eR i1 i2\n", "\x1eR 1 2\n", "\x1eX\n"] {
                let got = answers(dialect, wrong.as_bytes(), &int);
                assert!(
                    matches!(got.as_slice(), [Answer::Malformed(_)]),
                    "{wrong:?}: {got:?}"
                );
            }
        }
        let threw = answers(Dialect::Cpp, b"\x1eE 4:oops \n", &[Ty::Unit]);
        assert_eq!(threw, vec![Answer::Threw("oops".into())]);
        let out_of_range = answers(
            Dialect::Rust,
            b"\x1eR 300 \n",
            &[Ty::Int {
                signed: false,
                bits: 8,
            }],
        );
        assert!(matches!(out_of_range.as_slice(), [Answer::Malformed(_)]));
    }

    #[test]
    fn a_cpp_char_is_one_byte() {
        let err = call_message(Dialect::Cpp, &[Val::Int(0x4e2d)], &[Ty::Char]).unwrap_err();
        assert!(err.contains("U+4E2D"), "{err}");
        let msg = call_message(Dialect::Cpp, &[Val::Int(0xe9)], &[Ty::Char]).unwrap();
        assert_eq!(msg, b"\x1eC 0 -23 \n");
    }
}
