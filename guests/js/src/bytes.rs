//! Bytes between the runner and JavaScript, done natively (a loop over bytes in JavaScript is
//! hundreds of times slower under Boa than in Node): standard input as it came, and UTF-8 both
//! ways with Node's replacements.
//!
//! - `__rb_stdin_bytes()`: a fresh `Uint8Array` of the whole of standard input (what
//!   `readFileSync(0)` hands over as a `Buffer`).
//! - `__rb_utf8_decode(bytes, start, end)`: the text of bytes `start..end` of a `Uint8Array`,
//!   each ill-formed sequence (its maximal subpart) one U+FFFD, as Node and the WHATWG decoder
//!   (kept in UTF-16: [`utf16_string`]).
//! - `__rb_utf8_encode(text)`: a `Uint8Array` of `text` in UTF-8, a lone surrogate as U+FFFD.
//! - `__rb_utf16(text)`: `text` kept in UTF-16 ([`utf16_string`]).

use boa_engine::object::builtins::{AlignedVec, JsArrayBuffer, JsTypedArray, JsUint8Array};
use boa_engine::{Context, JsNativeError, JsResult, JsString, JsValue};
use std::cell::RefCell;
use std::io::Read;

thread_local! {
    /// Standard input, read once, when first asked for.
    static STDIN: RefCell<Option<std::rc::Rc<[u8]>>> = const { RefCell::new(None) };
}

/// The whole of standard input (read at the first call; an unreadable one is empty).
pub fn stdin() -> std::rc::Rc<[u8]> {
    STDIN.with(|stdin| {
        stdin
            .borrow_mut()
            .get_or_insert_with(|| {
                let mut bytes = Vec::new();
                let _ = std::io::stdin().read_to_end(&mut bytes);
                bytes.into()
            })
            .clone()
    })
}

/// `text` as a JavaScript string kept in UTF-16. Boa's regular expressions match UTF-16; a
/// string kept as Latin-1 (Boa's choice for `&str` that fits) is copied into UTF-16 by each
/// `exec`, which made a loop of `exec`s over standard input, or its `split(/\s+/)`, quadratic.
/// Slices of it (`trim`, `split`, `slice`) stay UTF-16.
pub fn utf16_string(text: &str) -> JsString {
    let units: Vec<u16> = text.encode_utf16().collect();
    JsString::from(&units[..])
}

/// `__rb_utf16(text)`: `text` kept in UTF-16 ([`utf16_string`]), for the prelude's regular
/// expression `split`, which runs `exec` once per piece.
pub fn utf16(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let text = match args.first() {
        Some(value) => value.to_string(context)?,
        None => JsString::default(),
    };
    let units: Vec<u16> = text.iter().collect();
    Ok(JsValue::from(JsString::from(&units[..])))
}

/// A new `Uint8Array` holding `bytes`.
fn uint8_array(bytes: &[u8], context: &mut Context) -> JsResult<JsValue> {
    let block = AlignedVec::from_iter(0, bytes.iter().copied());
    let buffer = JsArrayBuffer::from_byte_block(block, context)?;
    Ok(JsUint8Array::from_array_buffer(buffer, context)?.into())
}

/// `__rb_stdin_bytes()` (see the module's documentation).
pub fn stdin_bytes(_: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    uint8_array(&stdin(), context)
}

/// `__rb_utf8_decode(bytes, start, end)` (see the module's documentation).
pub fn utf8_decode(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let not_bytes =
        || JsNativeError::typ().with_message("rewardbox: __rb_utf8_decode takes a Uint8Array");
    let array = args
        .first()
        .and_then(JsValue::as_object)
        .ok_or_else(not_bytes)
        .and_then(|object| JsTypedArray::from_object(object.clone()).map_err(|_| not_bytes()))?;
    let offset = array.byte_offset(context)?;
    let length = array.byte_length(context)?;
    let bound = |at: usize, fallback: usize, context: &mut Context| -> JsResult<usize> {
        match args.get(at) {
            Some(value) if !value.is_undefined() => Ok((value
                .to_integer_or_infinity(context)?
                .clamp_finite(0, length as i64))
                as usize),
            _ => Ok(fallback),
        }
    };
    let start = bound(1, 0, context)?;
    let end = bound(2, length, context)?.max(start);
    let buffer = array.buffer(context)?;
    let buffer = buffer
        .as_object()
        .and_then(|object| JsArrayBuffer::from_object(object.clone()).ok())
        .ok_or_else(not_bytes)?;
    let text = match buffer.data() {
        Some(data) => utf16_string(&String::from_utf8_lossy(
            &data[offset + start..offset + end],
        )),
        // A detached buffer holds nothing.
        None => JsString::default(),
    };
    Ok(JsValue::from(text))
}

/// `__rb_utf8_encode(text)` (see the module's documentation).
pub fn utf8_encode(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let text = match args.first() {
        Some(value) => value.to_string(context)?.to_std_string_lossy(),
        None => String::new(),
    };
    uint8_array(text.as_bytes(), context)
}
