//! Reading value JSON as the checking sandbox's `rb_values.decode` does: the same values, the
//! same collapsing of equal set elements and dict keys, and a refusal wherever it would raise.

use crate::MAX_INT_DIGITS;
use crate::value::{Int, Value};
use std::collections::HashMap;

/// Deeper nesting than this is not read (the sender refuses anything past 100 levels).
const MAX_NESTING: usize = 200;

/// Why value JSON was not read. Either way the caller lets CPython read it instead, which either
/// reads it or says precisely why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

/// The value `text` holds, read as the checking sandbox would read it.
pub fn parse(text: &str) -> Result<Value, ParseError> {
    let mut reader = Reader {
        text: text.as_bytes(),
        at: 0,
    };
    let value = reader.value(0)?;
    reader.blank();
    if reader.at != reader.text.len() {
        return Err(reader.error("text after the value"));
    }
    Ok(value)
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

/// A JSON object as read, before its tag makes it a value.
type Object = Vec<(String, Value)>;

impl Reader<'_> {
    fn error(&self, what: &str) -> ParseError {
        ParseError(format!("{what} at byte {}", self.at))
    }

    fn blank(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.blank();
        self.text.get(self.at).copied()
    }

    fn expect(&mut self, byte: u8) -> Result<(), ParseError> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected {:?}", byte as char)))
        }
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value, ParseError> {
        if self.text[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("not JSON"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, ParseError> {
        if depth > MAX_NESTING {
            return Err(self.error("nested too deeply"));
        }
        match self.peek() {
            Some(b'n') => self.word("null", Value::None),
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'"') => self.string().map(Value::Str),
            Some(b'[') => self.list(depth).map(Value::List),
            Some(b'{') => {
                let object = self.object(depth)?;
                tagged(object).map_err(|what| self.error(&what))
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error("not JSON")),
        }
    }

    fn list(&mut self, depth: usize) -> Result<Vec<Value>, ParseError> {
        self.expect(b'[')?;
        let mut items = Vec::new();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(items);
        }
        loop {
            items.push(self.value(depth + 1)?);
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(items);
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Object, ParseError> {
        self.expect(b'{')?;
        let mut members: Object = Vec::new();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(members);
        }
        loop {
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a key"));
            }
            let key = self.string()?;
            self.expect(b':')?;
            let value = self.value(depth + 1)?;
            if members.iter().any(|(k, _)| *k == key) {
                return Err(self.error("a key twice in one object"));
            }
            members.push((key, value));
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(members);
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn number(&mut self) -> Result<Value, ParseError> {
        let start = self.at;
        let digits = |r: &mut Self| {
            let from = r.at;
            while r.text.get(r.at).is_some_and(u8::is_ascii_digit) {
                r.at += 1;
            }
            r.at - from
        };
        if self.text.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        let whole = digits(self);
        if whole == 0 || (whole > 1 && self.text[self.at - whole] == b'0') {
            return Err(self.error("a malformed number"));
        }
        let mut integral = true;
        if self.text.get(self.at) == Some(&b'.') {
            self.at += 1;
            integral = false;
            if digits(self) == 0 {
                return Err(self.error("a malformed number"));
            }
        }
        if let Some(b'e' | b'E') = self.text.get(self.at) {
            self.at += 1;
            integral = false;
            if let Some(b'+' | b'-') = self.text.get(self.at) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return Err(self.error("a malformed number"));
            }
        }
        let text = std::str::from_utf8(&self.text[start..self.at]).expect("ASCII");
        if integral {
            if whole > MAX_INT_DIGITS {
                return Err(self.error("an int past the digits the checking sandbox reads"));
            }
            return Int::parse(text)
                .map(Value::Int)
                .ok_or_else(|| self.error("a malformed number"));
        }
        text.parse::<f64>()
            .map(Value::Float)
            .map_err(|_| self.error("a malformed number"))
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.expect(b'"')?;
        let mut out = String::new();
        loop {
            let rest = &self.text[self.at..];
            let plain = rest
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .ok_or_else(|| self.error("an unterminated string"))?;
            out.push_str(
                std::str::from_utf8(&rest[..plain]).map_err(|_| self.error("invalid UTF-8"))?,
            );
            self.at += plain;
            match self.text[self.at] {
                b'"' => {
                    self.at += 1;
                    return Ok(out);
                }
                b'\\' => {
                    self.at += 1;
                    let escaped = self.escape()?;
                    out.push(escaped);
                }
                _ => return Err(self.error("a control character in a string")),
            }
        }
    }

    fn escape(&mut self) -> Result<char, ParseError> {
        let Some(&byte) = self.text.get(self.at) else {
            return Err(self.error("an unterminated escape"));
        };
        self.at += 1;
        Ok(match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = self.hex4()?;
                if (0xD800..0xDC00).contains(&unit) && self.text[self.at..].starts_with(b"\\u") {
                    self.at += 2;
                    let low = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(self.error("a lone surrogate"));
                    }
                    let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                    return char::from_u32(code).ok_or_else(|| self.error("a bad escape"));
                }
                // A lone surrogate is a valid Python str but no Rust one: not modelled here.
                char::from_u32(unit).ok_or_else(|| self.error("a lone surrogate"))?
            }
            _ => return Err(self.error("a bad escape")),
        })
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let hex = self
            .text
            .get(self.at..self.at + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.error("a bad \\u escape"))?;
        self.at += 4;
        Ok(hex)
    }
}

/// The value a JSON object stands for: a handle, or a one-key tagged value.
fn tagged(mut object: Object) -> Result<Value, String> {
    let has_handle = object.iter().any(|(k, _)| k == "$h");
    if has_handle
        && (object.len() == 1 || (object.len() == 2 && object.iter().any(|(k, _)| k == "type")))
    {
        return handle(object);
    }
    if object.len() != 1 {
        return Err("an object that is not value JSON".into());
    }
    let (tag, body) = object.pop().expect("one member");
    match tag.as_str() {
        "$t" => listed(body).map(Value::Tuple),
        "$s" | "$fs" => Ok(Value::Set {
            frozen: tag == "$fs",
            items: distinct(listed(body)?)?,
        }),
        "$d" => dict(listed(body)?),
        "$b" => match body {
            Value::Str(text) => base64(&text).map(Value::Bytes),
            _ => Err("$b must hold base64 text".into()),
        },
        "$f" => match body {
            Value::Str(text) if text == "inf" => Ok(Value::Float(f64::INFINITY)),
            Value::Str(text) if text == "-inf" => Ok(Value::Float(f64::NEG_INFINITY)),
            Value::Str(text) if text == "nan" => Ok(Value::Float(f64::NAN)),
            _ => Err("$f must be inf, -inf or nan".into()),
        },
        "$c" => match listed(body)?.as_slice() {
            [Value::Float(re), Value::Float(im)] => Ok(Value::Complex(*re, *im)),
            _ => Err("$c parts other than two floats are not modelled".into()),
        },
        _ => Err(format!("an unknown tag {tag:?}")),
    }
}

fn handle(object: Object) -> Result<Value, String> {
    let mut id = None;
    let mut type_name = "object".to_string();
    for (key, value) in object {
        match (key.as_str(), value) {
            ("$h", Value::Int(n)) => id = n.decimal().parse::<i64>().ok(),
            ("type", Value::Str(name)) => type_name = name,
            _ => return Err("a malformed handle".into()),
        }
    }
    let id = id.ok_or("a malformed handle")?;
    Ok(Value::Handle { id, type_name })
}

fn listed(body: Value) -> Result<Vec<Value>, String> {
    match body {
        Value::List(items) => Ok(items),
        _ => Err("a tag that must hold a list".into()),
    }
}

/// The elements of `set(items)`: the first of each group of equal ones, in order. An element
/// equal to nothing (a NaN) is always kept; an unhashable one is refused, as CPython does.
fn distinct(items: Vec<Value>) -> Result<Vec<Value>, String> {
    let mut seen = HashMap::with_capacity(items.len());
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        hashable(&item)?;
        match item.hash_key() {
            Some(key) => {
                if seen.insert(key, ()).is_none() {
                    out.push(item);
                }
            }
            None => out.push(item),
        }
    }
    Ok(out)
}

/// A `dict` from `[key, value]` pairs: a later value for an equal key replaces the earlier one,
/// which keeps its place and its key.
fn dict(pairs: Vec<Value>) -> Result<Value, String> {
    let mut index: HashMap<String, usize> = HashMap::with_capacity(pairs.len());
    let mut entries: Vec<(Value, Value)> = Vec::with_capacity(pairs.len());
    for pair in pairs {
        let Value::List(mut kv) = pair else {
            return Err("a $d entry must be a [key, value] pair".into());
        };
        if kv.len() != 2 {
            return Err("a $d entry must be a [key, value] pair".into());
        }
        let value = kv.pop().expect("two");
        let key = kv.pop().expect("two");
        hashable(&key)?;
        match key.hash_key() {
            Some(hash) => match index.get(&hash) {
                Some(&at) => entries[at].1 = value,
                None => {
                    index.insert(hash, entries.len());
                    entries.push((key, value));
                }
            },
            None => entries.push((key, value)),
        }
    }
    Ok(Value::Dict(entries))
}

/// Refuses what CPython cannot hash (a list, dict or set, even inside a tuple).
fn hashable(value: &Value) -> Result<(), String> {
    match value {
        Value::List(_) | Value::Dict(_) | Value::Set { frozen: false, .. } => {
            Err("an unhashable set element or dict key".into())
        }
        Value::Tuple(items) | Value::Set { items, .. } => items.iter().try_for_each(hashable),
        _ => Ok(()),
    }
}

/// Strict base64 (the standard alphabet, `=` padding to a multiple of four), as
/// `base64.b64decode(text, validate=True)` reads it.
fn base64(text: &str) -> Result<Vec<u8>, String> {
    let bad = || "$b must hold base64 text".to_string();
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return Err(bad());
    }
    let pad = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    if pad > 2 {
        return Err(bad());
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let mut acc = 0u32;
    for (i, &b) in bytes[..bytes.len() - pad].iter().enumerate() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return Err(bad()),
        } as u32;
        acc = (acc << 6) | v;
        if i % 4 == 3 {
            out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]);
            acc = 0;
        }
    }
    match pad {
        1 => {
            acc <<= 6;
            out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8]);
        }
        2 => {
            acc <<= 12;
            out.push((acc >> 16) as u8);
        }
        _ => {}
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_cpython_would_refuse_or_hold_differently_is_not_read() {
        let too_long = "9".repeat(MAX_INT_DIGITS + 1);
        for text in [
            "\"\\ud800\"",
            "[\"\\udc00x\"]",
            too_long.as_str(),
            "{\"a\": 1, \"a\": 2}",
            "{\"$s\": [[1]]}",
            "{\"$d\": [[[1], 2]]}",
            "{\"$t\": 1}",
            "{\"$x\": []}",
            "{\"$b\": \"abc\"}",
            "{\"$f\": \"INF\"}",
            "{\"$c\": [1, 2.0]}",
            "{\"$h\": true}",
            "NaN",
            "[1,]",
            "01",
            "1 2",
            "\"tab\there\"",
        ] {
            assert!(parse(text).is_err(), "{text} was read");
        }
    }

    #[test]
    fn equal_elements_and_keys_collapse_as_in_cpython() {
        let set = parse("{\"$s\": [1, 1.0, true, 2]}").unwrap();
        assert_eq!(
            set,
            Value::Set {
                frozen: false,
                items: vec![
                    Value::Int(Int::parse("1").unwrap()),
                    Value::Int(Int::parse("2").unwrap())
                ]
            }
        );
        // The first key stays, with the last value.
        let dict = parse("{\"$d\": [[1, \"a\"], [1.0, \"b\"]]}").unwrap();
        assert_eq!(dict.repr().unwrap(), "{1: 'b'}");
        // NaNs are never equal, so both stay.
        let nans = parse("{\"$s\": [{\"$f\": \"nan\"}, {\"$f\": \"nan\"}]}").unwrap();
        assert!(matches!(nans, Value::Set { items, .. } if items.len() == 2));
    }

    #[test]
    fn big_ints_stay_exact() {
        let big = parse("123456789012345678901234567890").unwrap();
        assert_eq!(big.repr().unwrap(), "123456789012345678901234567890");
        assert!(!big.python_eq(&Value::Float(1.2345678901234568e29)));
        let exact = parse("9007199254740992").unwrap();
        assert!(exact.python_eq(&Value::Float(9007199254740992.0)));
        assert!(
            !parse("9007199254740993")
                .unwrap()
                .python_eq(&Value::Float(9007199254740992.0))
        );
    }
}
