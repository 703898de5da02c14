//! Makes the objects of a pre-initialised CPython component immortal.
//!
//! componentize-py runs the runner's module at build time and stores the resulting heap as the
//! data segments of the component's memory. A fresh instance maps those segments copy-on-write,
//! and every object a run touches gets its reference count written, which copies the page it
//! lives on: hundreds of page faults per instance, each one a TLB shootdown across the threads of
//! the process. CPython >= 3.12 never writes the reference count of an *immortal* object.
//!
//! The runner (`guests/python/app.py`, `_snapshot_objects`) leaves a table of the addresses of
//! every object of its heap in the snapshot, framed by [`TABLE_MAGIC`]:
//! `magic, count: u32, count addresses: u32, magic`. [`immortalize`] finds it in the data segments
//! and overwrites each object's reference count (the first word of a 32-bit `PyObject`) with the
//! immortal value, in place: no section changes size, so the component needs no re-encoding.

use std::ops::Range;
use wasmparser::{DataKind, Operator, Parser, Payload};

/// Frames the table of object addresses (`bytes.fromhex` of the same digits in `app.py`).
pub const TABLE_MAGIC: [u8; 16] = [
    0x80, 0x06, 0x25, 0x28, 0x16, 0xb9, 0xfe, 0xf1, 0xb4, 0x9b, 0xb3, 0x58, 0x79, 0x14, 0x88, 0xf9,
];

/// `_Py_IMMORTAL_INITIAL_REFCNT` of a 32-bit CPython 3.14 (`5 << 28`).
const IMMORTAL_REFCNT: u32 = 5 << 28;

/// A reference count at or above this is immortal already (`_Py_IMMORTAL_MINIMUM_REFCNT`).
const IMMORTAL_MINIMUM: u32 = 1 << 30;

/// What [`immortalize`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Immortalized {
    /// Objects listed in the table.
    pub listed: usize,
    /// Objects whose reference count was set to immortal.
    pub patched: usize,
}

/// One active data segment of memory 0: where it lands in linear memory and where its bytes are
/// in the component file.
struct Segment {
    memory: Range<usize>,
    file_offset: usize,
}

/// Sets the reference count of every object listed in the component's table to immortal. Fails
/// when the component has no table (the runner was built without `_snapshot_objects`) or when
/// the table is malformed; objects whose word does not look like a mortal reference count are
/// left alone.
pub fn immortalize(component: &mut [u8]) -> Result<Immortalized, String> {
    let segments = memory_segments(component)?;
    let read_word = |component: &[u8], address: usize| -> Option<u32> {
        let at = file_offset(&segments, address, 4)?;
        Some(u32::from_le_bytes(component[at..at + 4].try_into().ok()?))
    };

    let table = find_table(component, &segments).ok_or(
        "no object table in the component's data segments (is `_snapshot_objects` in app.py?)",
    )?;
    let count = read_word(component, table + 16).ok_or("the object table is cut off")? as usize;
    let mut addresses = Vec::with_capacity(count);
    for i in 0..count {
        addresses.push(
            read_word(component, table + 20 + 4 * i).ok_or("the object table is cut off")? as usize,
        );
    }

    let mut patched = 0;
    for address in addresses {
        let Some(at) = file_offset(&segments, address, 4) else {
            continue;
        };
        let refcnt = u32::from_le_bytes(component[at..at + 4].try_into().expect("4 bytes"));
        if refcnt == 0 || refcnt >= IMMORTAL_MINIMUM {
            continue;
        }
        component[at..at + 4].copy_from_slice(&IMMORTAL_REFCNT.to_le_bytes());
        patched += 1;
    }
    Ok(Immortalized {
        listed: count,
        patched,
    })
}

/// The active data segments of the first core module that has any, sorted by address.
fn memory_segments(component: &[u8]) -> Result<Vec<Segment>, String> {
    let mut segments = Vec::new();
    for payload in Parser::new(0).parse_all(component) {
        let payload = payload.map_err(|e| format!("the component does not parse: {e}"))?;
        let Payload::DataSection(reader) = payload else {
            continue;
        };
        for data in reader {
            let data = data.map_err(|e| format!("a data segment does not parse: {e}"))?;
            let DataKind::Active {
                memory_index: 0,
                offset_expr,
            } = data.kind
            else {
                continue;
            };
            let Ok(Operator::I32Const { value }) = offset_expr.get_operators_reader().read() else {
                continue;
            };
            let start = value as u32 as usize;
            segments.push(Segment {
                memory: start..start + data.data.len(),
                file_offset: data.data.as_ptr() as usize - component.as_ptr() as usize,
            });
        }
        if !segments.is_empty() {
            break;
        }
    }
    if segments.is_empty() {
        return Err("the component has no active data segments".into());
    }
    segments.sort_by_key(|s| s.memory.start);
    Ok(segments)
}

/// Where the `len` bytes at linear-memory `address` are in the file, when one segment holds them.
fn file_offset(segments: &[Segment], address: usize, len: usize) -> Option<usize> {
    let i = segments.partition_point(|s| s.memory.start <= address);
    let segment = &segments[i.checked_sub(1)?];
    (address + len <= segment.memory.end)
        .then(|| segment.file_offset + (address - segment.memory.start))
}

/// The linear-memory address of a well-formed table: a magic, a count, that many words, and the
/// magic again. Other copies of the magic (the `bytes` object that built the table) are skipped.
fn find_table(component: &[u8], segments: &[Segment]) -> Option<usize> {
    for segment in segments {
        let bytes = &component[segment.file_offset..][..segment.memory.len()];
        let mut from = 0;
        while let Some(found) = find(&bytes[from..], &TABLE_MAGIC) {
            let start = from + found;
            from = start + 1;
            let Some(count) = bytes.get(start + 16..start + 20) else {
                continue;
            };
            let count = u32::from_le_bytes(count.try_into().expect("4 bytes")) as usize;
            let trailer = start + 20 + 4 * count;
            if bytes.get(trailer..trailer + 16) == Some(&TABLE_MAGIC[..]) {
                return Some(segment.memory.start + start);
            }
        }
    }
    None
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A core module with one memory and one active data segment at `offset` holding `data`.
    fn module_with_data(offset: u32, data: &[u8]) -> Vec<u8> {
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        // memory section: one memory, min 1 page
        m.extend_from_slice(&[5, 3, 1, 0, 1]);
        // data section: one active segment (flags 0) at `i32.const offset`
        let mut section = vec![1, 0, 0x41];
        leb_i32(&mut section, offset as i32);
        section.push(0x0b);
        leb_u32(&mut section, data.len() as u32);
        section.extend_from_slice(data);
        m.push(11);
        leb_u32(&mut m, section.len() as u32);
        m.extend_from_slice(&section);
        m
    }

    fn leb_u32(out: &mut Vec<u8>, mut v: u32) {
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(byte);
                return;
            }
            out.push(byte | 0x80);
        }
    }

    fn leb_i32(out: &mut Vec<u8>, mut v: i32) {
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
            out.push(if done { byte } else { byte | 0x80 });
            if done {
                return;
            }
        }
    }

    #[test]
    fn patches_listed_mortal_objects_only() {
        let base = 1024u32;
        // Three "objects" at base, base+8, base+16 with reference counts 3, immortal, 1; then a
        // stray copy of the magic; then the table listing all three plus an address outside.
        let mut data = Vec::new();
        data.extend_from_slice(&3u32.to_le_bytes());
        data.extend_from_slice(&0u32.to_le_bytes());
        data.extend_from_slice(&(7u32 << 28).to_le_bytes());
        data.extend_from_slice(&0u32.to_le_bytes());
        data.extend_from_slice(&1u32.to_le_bytes());
        data.extend_from_slice(&0u32.to_le_bytes());
        data.extend_from_slice(&TABLE_MAGIC);
        data.extend_from_slice(&TABLE_MAGIC);
        data.extend_from_slice(&4u32.to_le_bytes());
        for a in [base, base + 8, base + 16, 60_000] {
            data.extend_from_slice(&a.to_le_bytes());
        }
        data.extend_from_slice(&TABLE_MAGIC);
        let mut module = module_with_data(base, &data);
        let done = immortalize(&mut module).unwrap();
        assert_eq!(
            done,
            Immortalized {
                listed: 4,
                patched: 2
            }
        );
        let segments = memory_segments(&module).unwrap();
        let word = |address: u32| {
            let at = file_offset(&segments, address as usize, 4).unwrap();
            u32::from_le_bytes(module[at..at + 4].try_into().unwrap())
        };
        assert_eq!(word(base), IMMORTAL_REFCNT);
        assert_eq!(word(base + 8), 7 << 28, "already immortal: untouched");
        assert_eq!(word(base + 16), IMMORTAL_REFCNT);
    }

    #[test]
    fn a_component_without_a_table_is_an_error() {
        let mut module = module_with_data(0, &[1, 2, 3, 4]);
        assert!(
            immortalize(&mut module)
                .unwrap_err()
                .contains("no object table")
        );
    }
}
