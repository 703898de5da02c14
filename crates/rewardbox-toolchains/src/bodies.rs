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

/// `func`'s body with some of its instructions written anew, every other byte copied as it is:
/// for each instruction, `edit` gets the instruction and its bytes and may write what replaces
/// them (the bytes themselves among what it writes, to add instructions around them) into the
/// buffer it is given, saying so by returning `true`. Decoding is needed to find where each
/// instruction starts (an opcode's byte may sit inside another's immediate); encoding only what
/// changes is what a pass that adds a few instructions saves (decoding and encoding every
/// instruction of a Go module costs some 40 ms).
pub fn splice(
    func: &wasmparser::FunctionBody<'_>,
    mut edit: impl FnMut(&wasmparser::Operator<'_>, &[u8], &mut Vec<u8>) -> bool,
) -> wasmparser::Result<Vec<u8>> {
    let body = func.as_bytes();
    let base = func.range().start;
    let offset = |position: u64| (position - base) as usize;
    let mut reader = func.get_operators_reader()?;
    let mut spliced = Vec::with_capacity(body.len() + 16);
    let mut replacement = Vec::new();
    let mut copied = 0;
    while !reader.eof() {
        let at = offset(reader.original_position());
        let operator = reader.read()?;
        let end = offset(reader.original_position());
        replacement.clear();
        if edit(&operator, &body[at..end], &mut replacement) {
            spliced.extend_from_slice(&body[copied..at]);
            spliced.extend_from_slice(&replacement);
            copied = end;
        }
    }
    spliced.extend_from_slice(&body[copied..]);
    Ok(spliced)
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

    /// Edited instructions are replaced by what the edit wrote, the locals and every other
    /// instruction are copied byte for byte (a padded index stays padded).
    #[test]
    fn a_spliced_body_changes_only_what_the_edit_wrote() {
        // One local i32; i32.const 7 (padded), drop, nop, end.
        let mut module = wasm_encoder::Module::new();
        let mut types = wasm_encoder::TypeSection::new();
        types.ty().function([], []);
        let mut functions = wasm_encoder::FunctionSection::new();
        functions.function(0);
        let mut code = wasm_encoder::CodeSection::new();
        let body = [0x01, 0x01, 0x7f, 0x41, 0x87, 0x80, 0x00, 0x1a, 0x01, 0x0b];
        code.raw(&body);
        module.section(&types).section(&functions).section(&code);
        let module = module.finish();
        let mut seen = Vec::new();
        for payload in wasmparser::Parser::new(0).parse_all(&module) {
            if let wasmparser::Payload::CodeSectionEntry(func) = payload.unwrap() {
                let spliced = splice(&func, |operator, bytes, out| {
                    seen.push(bytes.to_vec());
                    match operator {
                        // A nop becomes two.
                        wasmparser::Operator::Nop => {
                            out.extend_from_slice(&[0x01, 0x01]);
                            true
                        }
                        _ => false,
                    }
                })
                .unwrap();
                assert_eq!(
                    spliced,
                    [
                        0x01, 0x01, 0x7f, 0x41, 0x87, 0x80, 0x00, 0x1a, 0x01, 0x01, 0x0b
                    ]
                );
            }
        }
        assert_eq!(
            seen,
            [
                vec![0x41, 0x87, 0x80, 0x00],
                vec![0x1a],
                vec![0x01],
                vec![0x0b]
            ]
        );
    }
}
