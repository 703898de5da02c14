//! Function bodies carried over byte for byte by the passes that rewrite a compiled module.
//!
//! `wasm_encoder`'s re-encoder decodes every instruction of every function and encodes it again,
//! which for a 2.6 MB Go module or a 3.6 MB C++ one costs tens of milliseconds a pass. A pass that
//! changes no instruction of a body (and no index one refers to: it only renames, drops or
//! appends) copies the body's bytes instead; a pass that rewrites a few instructions re-encodes
//! only the bodies that hold one.

use wasm_encoder::reencode::{Error, Reencode};

/// Copies every body of `section` into `code` unchanged. For passes that leave every body as it
/// is and move no function, global, type or table index.
pub fn copy_all<E>(
    code: &mut wasm_encoder::CodeSection,
    section: wasmparser::CodeSectionReader<'_>,
) -> Result<(), Error<E>> {
    for body in section {
        code.raw(body?.as_bytes());
    }
    Ok(())
}

/// Whether `body`'s code may hold a `global.set` of global `index`: false only when no byte
/// `0x24` (the opcode) is followed by `index` as an LEB128 (padded or not), so a body without
/// such an instruction may be copied as it is. A `true` can be wrong (the bytes inside another
/// instruction's immediate); the caller then re-encodes a body it did not need to.
pub fn may_set_global(body: &[u8], index: u32) -> bool {
    const GLOBAL_SET: u8 = 0x24;
    let mut at = 0;
    while let Some(found) = body[at..].iter().position(|&b| b == GLOBAL_SET) {
        let start = at + found + 1;
        if leb128_u32(&body[start..]) == Some(index) {
            return true;
        }
        at = start;
    }
    false
}

/// The unsigned LEB128 number at the start of `bytes` (at most 5 bytes, as wasm's `u32`s).
fn leb128_u32(bytes: &[u8]) -> Option<u32> {
    let mut value: u64 = 0;
    for (i, &byte) in bytes.iter().take(5).enumerate() {
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return u32::try_from(value).ok();
        }
    }
    None
}

/// Re-encodes `body` through `reencoder` when `rewrite` says it holds an instruction the pass
/// changes, and copies it otherwise.
pub fn rewrite_some<R: Reencode + ?Sized>(
    reencoder: &mut R,
    code: &mut wasm_encoder::CodeSection,
    section: wasmparser::CodeSectionReader<'_>,
    rewrite: impl Fn(&[u8]) -> bool,
) -> Result<(), Error<R::Error>> {
    for body in section {
        let body = body?;
        if rewrite(body.as_bytes()) {
            reencoder.parse_function_body(code, body)?;
        } else {
            code.raw(body.as_bytes());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_global_set_is_found_in_any_leb128_form_and_only_of_its_index() {
        // global.set 0, canonical and padded to five bytes; global.set 3.
        assert!(may_set_global(&[0x00, 0x41, 0x01, 0x24, 0x00, 0x0b], 0));
        assert!(may_set_global(&[0x24, 0x80, 0x80, 0x80, 0x80, 0x00], 0));
        assert!(!may_set_global(&[0x24, 0x03, 0x0b], 0));
        assert!(may_set_global(&[0x24, 0x03, 0x0b], 3));
        // global.get 0 (0x23) is not a set; an unterminated LEB128 at the end is no index.
        assert!(!may_set_global(&[0x23, 0x00, 0x0b], 0));
        assert!(!may_set_global(&[0x24], 0));
        assert!(!may_set_global(&[0x24, 0x80], 0));
        // A 300 spread over two bytes.
        assert!(may_set_global(&[0x24, 0xac, 0x02], 300));
    }
}
