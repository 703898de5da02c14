//! A compiled program's stack, as large as the judges give and charged to the memory limit by the
//! pages it touches.
//!
//! Judges run a contest program with its stack limit raised to the memory limit (Codeforces,
//! DOMjudge, Kattis: `ulimit -s` is the memory limit), and its stack counts towards that limit by
//! what it touches, as its heap does. A C, C++ or Rust module is linked stack-first: the stack is
//! the first [`STACK_BYTES`] of linear memory, growing down from `__stack_pointer`'s initial
//! value towards 0 (an overflow traps, out of bounds, instead of overwriting data). Reserving that
//! much must not cost a program its heap, so the runtime does not charge the reservation (it is
//! added to the store's limit) and this pass charges what is used instead:
//!
//! - the module gets a second memory, the *stack ledger*, holding no data and never addressed
//!   by the program's code;
//! - after every `global.set` of the stack pointer, when the pointer is below the lowest address
//!   the ledger covers, a helper grows the ledger to one page per 64 KiB of stack between the
//!   pointer and the stack's top (so the common move, within a covered page, costs a comparison).
//!
//! The store's memory limit sums every memory, so `heap + data + stack touched` is held to the
//! memory limit at the moment it is crossed, as a native judge's does. A refused growth of the
//! ledger ends the run as a stack overflow (SIGSEGV, as natively), a refused growth of the heap
//! with the memory limit (the runtime's limiter tells them apart). The ledger is reserved
//! address space only (never touched), and the covered mark lives in a wasm global, which the
//! program's source cannot name: a program cannot hide the stack it used.

use crate::program::STACK_BYTES;
use wasm_encoder::Encode;
use wasm_encoder::reencode::{Reencode, utils};
use wasm_encoder::{
    BlockType, CodeSection, ConstExpr, Function, FunctionSection, GlobalSection, GlobalType,
    Instruction, MemorySection, MemoryType, TypeSection, ValType,
};

/// The stack `language`'s programs are linked stack-first with and charged by use:
/// [`STACK_BYTES`] for C, C++ and Rust; `None` for the others (Go keeps its goroutine stacks in
/// its heap).
pub fn charged_by_use(language: crate::Language) -> Option<u64> {
    use crate::Language::*;
    matches!(language, C | Cpp | Rust | RustRelease).then_some(STACK_BYTES)
}

/// Bytes of stack per page of the ledger (a wasm page).
const PAGE_BYTES: u32 = 1 << 16;

/// What the first pass found: where the new type, function and global go, and the stack pointer.
#[derive(Debug, Default)]
struct Layout {
    types: u32,
    imported_functions: u32,
    defined_functions: u32,
    imported_globals: u32,
    defined_globals: u32,
    imported_memories: u32,
    defined_memories: u32,
    /// The stack pointer: the module's first global, mutable `i32`, starting at the stack's top.
    stack_pointer: Option<u32>,
}

/// `module` with its stack charged by use (see the module's doc). `stack_bytes` is the stack the
/// module was linked with (`-z stack-size`). An error when the module is not laid out as the
/// toolchains link one (its own memory, its first global the stack pointer at `stack_bytes`).
pub fn charge_stack_by_use(module: &[u8], stack_bytes: u64) -> Result<Vec<u8>, String> {
    let layout = layout(module, stack_bytes)?;
    let Some(stack_pointer) = layout.stack_pointer else {
        return Err(format!(
            "the module's stack pointer is not its first global starting at {stack_bytes}"
        ));
    };
    if layout.imported_memories != 0 || layout.defined_memories != 1 {
        return Err("the module does not define exactly one memory of its own".into());
    }
    let helper = layout.imported_functions + layout.defined_functions;
    let covered = layout.imported_globals + layout.defined_globals;
    let mut check = Vec::new();
    for instruction in [
        Instruction::GlobalGet(stack_pointer),
        Instruction::GlobalGet(covered),
        Instruction::I32LtU,
        Instruction::If(BlockType::Empty),
        Instruction::Call(helper),
        Instruction::End,
    ] {
        instruction.encode(&mut check);
    }
    let mut pass = ChargeStack {
        stack_pointer,
        stack_top: stack_bytes as u32,
        helper_type: layout.types,
        covered,
        ledger: 1,
        check,
    };
    let mut output = wasm_encoder::Module::new();
    pass.parse_core_module(&mut output, wasmparser::Parser::new(0), module)
        .map_err(|e| format!("charging the stack: {e}"))?;
    Ok(output.finish())
}

fn layout(module: &[u8], stack_bytes: u64) -> Result<Layout, String> {
    let mut layout = Layout::default();
    let read = |e: wasmparser::BinaryReaderError| format!("reading the compiled module: {e}");
    for payload in wasmparser::Parser::new(0).parse_all(module) {
        match payload.map_err(read)? {
            wasmparser::Payload::TypeSection(reader) => {
                for group in reader {
                    layout.types += group.map_err(read)?.types().len() as u32;
                }
            }
            wasmparser::Payload::ImportSection(reader) => {
                for import in reader.into_imports() {
                    match import.map_err(read)?.ty {
                        wasmparser::TypeRef::Func(_) | wasmparser::TypeRef::FuncExact(_) => {
                            layout.imported_functions += 1
                        }
                        wasmparser::TypeRef::Global(_) => layout.imported_globals += 1,
                        wasmparser::TypeRef::Memory(_) => layout.imported_memories += 1,
                        _ => {}
                    }
                }
            }
            wasmparser::Payload::FunctionSection(reader) => {
                layout.defined_functions = reader.count()
            }
            wasmparser::Payload::MemorySection(reader) => layout.defined_memories = reader.count(),
            wasmparser::Payload::GlobalSection(reader) => {
                layout.defined_globals = reader.count();
                if layout.imported_globals == 0
                    && let Some(first) = reader.into_iter().next()
                {
                    let first = first.map_err(read)?;
                    let starts_at_top = matches!(
                        first.init_expr.get_operators_reader().read(),
                        Ok(wasmparser::Operator::I32Const { value }) if value as u32 as u64 == stack_bytes
                    );
                    if first.ty.mutable
                        && first.ty.content_type == wasmparser::ValType::I32
                        && starts_at_top
                    {
                        layout.stack_pointer = Some(0);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(layout)
}

/// The re-encoder: copies the module, instruments every `global.set` of the stack pointer and
/// appends the ledger, the covered mark and the helper.
struct ChargeStack {
    stack_pointer: u32,
    stack_top: u32,
    helper_type: u32,
    /// The lowest stack address the ledger covers: the stack's top less 64 KiB per ledger page.
    covered: u32,
    ledger: u32,
    /// What follows each `global.set` of the stack pointer: when the pointer is below the covered
    /// mark, a call of the helper.
    check: Vec<u8>,
}

impl ChargeStack {
    /// Grows the ledger to cover the stack down to the stack pointer (one page per 64 KiB from the
    /// stack's top, rounded up) and lowers the covered mark to the lowest address covered;
    /// `unreachable` should a growth the limiter allowed still fail. Called only when the pointer
    /// is below the mark, so each call grows the ledger by at least a page.
    fn helper_body(&self) -> Function {
        let mut f = Function::new([(2, ValType::I32)]);
        let (pages, more) = (0, 1);
        for instruction in [
            Instruction::I32Const(self.stack_top as i32),
            Instruction::GlobalGet(self.stack_pointer),
            Instruction::I32Sub,
            Instruction::I32Const((PAGE_BYTES - 1) as i32),
            Instruction::I32Add,
            Instruction::I32Const(16),
            Instruction::I32ShrU,
            Instruction::LocalTee(pages),
            Instruction::MemorySize(self.ledger),
            Instruction::I32Sub,
            Instruction::LocalTee(more),
            Instruction::I32Const(0),
            Instruction::I32GtS,
            Instruction::If(BlockType::Empty),
            Instruction::LocalGet(more),
            Instruction::MemoryGrow(self.ledger),
            Instruction::I32Const(-1),
            Instruction::I32Eq,
            Instruction::If(BlockType::Empty),
            Instruction::Unreachable,
            Instruction::End,
            Instruction::End,
            Instruction::I32Const(self.stack_top as i32),
            Instruction::LocalGet(pages),
            Instruction::I32Const(16),
            Instruction::I32Shl,
            Instruction::I32Sub,
            Instruction::GlobalSet(self.covered),
            Instruction::End,
        ] {
            f.instruction(&instruction);
        }
        f
    }
}

impl Reencode for ChargeStack {
    type Error = std::convert::Infallible;

    fn parse_type_section(
        &mut self,
        types: &mut TypeSection,
        section: wasmparser::TypeSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        utils::parse_type_section(self, types, section)?;
        types.ty().function([], []);
        Ok(())
    }

    fn parse_function_section(
        &mut self,
        functions: &mut FunctionSection,
        section: wasmparser::FunctionSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        utils::parse_function_section(self, functions, section)?;
        functions.function(self.helper_type);
        Ok(())
    }

    fn parse_memory_section(
        &mut self,
        memories: &mut MemorySection,
        section: wasmparser::MemorySectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        utils::parse_memory_section(self, memories, section)?;
        memories.memory(MemoryType {
            minimum: 0,
            maximum: Some(u64::from(self.stack_top.div_ceil(PAGE_BYTES))),
            memory64: false,
            shared: false,
            page_size_log2: None,
        });
        Ok(())
    }

    fn parse_global_section(
        &mut self,
        globals: &mut GlobalSection,
        section: wasmparser::GlobalSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        utils::parse_global_section(self, globals, section)?;
        globals.global(
            GlobalType {
                val_type: ValType::I32,
                mutable: true,
                shared: false,
            },
            &ConstExpr::i32_const(self.stack_top as i32),
        );
        Ok(())
    }

    fn parse_code_section(
        &mut self,
        code: &mut CodeSection,
        section: wasmparser::CodeSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        // Only a body that moves the stack pointer changes; the helper, its type, memory and
        // global come after everything the module has, so the others are copied as they are.
        let stack_pointer = self.stack_pointer;
        crate::bodies::rewrite_some(self, code, section, |body| {
            crate::bodies::may_set_global(body, stack_pointer)
        })?;
        code.function(&self.helper_body());
        Ok(())
    }

    /// The body with the check after every `global.set` of the stack pointer, its other bytes
    /// copied as they are.
    fn parse_function_body(
        &mut self,
        code: &mut CodeSection,
        func: wasmparser::FunctionBody<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        let (stack_pointer, check) = (self.stack_pointer, &self.check);
        let spliced = crate::bodies::splice(&func, |operator, bytes, out| {
            let sets_stack_pointer = matches!(
                operator,
                wasmparser::Operator::GlobalSet { global_index } if *global_index == stack_pointer
            );
            if sets_stack_pointer {
                out.extend_from_slice(bytes);
                out.extend_from_slice(check);
            }
            sets_stack_pointer
        })?;
        code.raw(&spliced);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stack-first module: the stack pointer at `top`, one memory, a function that moves the
    /// stack pointer down by `frame` and back.
    fn module(top: i32, frame: i32) -> Vec<u8> {
        module_with(top, frame, None)
    }

    /// [`module`], with a second function of `second`'s body bytes and a second global.
    fn module_with(top: i32, frame: i32, second: Option<&[u8]>) -> Vec<u8> {
        let mut m = wasm_encoder::Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], []);
        m.section(&types);
        let mut functions = FunctionSection::new();
        functions.function(0);
        if second.is_some() {
            functions.function(0);
        }
        m.section(&functions);
        let mut memories = MemorySection::new();
        memories.memory(MemoryType {
            minimum: (top as u64) >> 16,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        });
        m.section(&memories);
        let mut globals = GlobalSection::new();
        // The stack pointer; with a second function, a global it sets.
        for value in std::iter::once(top).chain(second.map(|_| 0)) {
            globals.global(
                GlobalType {
                    val_type: ValType::I32,
                    mutable: true,
                    shared: false,
                },
                &ConstExpr::i32_const(value),
            );
        }
        m.section(&globals);
        let mut code = CodeSection::new();
        let mut f = Function::new([]);
        for instruction in [
            Instruction::GlobalGet(0),
            Instruction::I32Const(frame),
            Instruction::I32Sub,
            Instruction::GlobalSet(0),
            Instruction::GlobalGet(0),
            Instruction::I32Const(frame),
            Instruction::I32Add,
            Instruction::GlobalSet(0),
            Instruction::End,
        ] {
            f.instruction(&instruction);
        }
        code.function(&f);
        if let Some(second) = second {
            code.raw(second);
        }
        m.section(&code);
        m.finish()
    }

    #[test]
    fn instruments_every_stack_pointer_set_and_adds_the_ledger() {
        let charged = charge_stack_by_use(&module(1 << 20, 4096), 1 << 20).unwrap();
        wasmparser::Validator::new().validate_all(&charged).unwrap();
        let mut memories = 0;
        let mut calls = 0;
        let mut globals = 0;
        for payload in wasmparser::Parser::new(0).parse_all(&charged) {
            match payload.unwrap() {
                wasmparser::Payload::MemorySection(r) => memories = r.count(),
                wasmparser::Payload::GlobalSection(r) => globals = r.count(),
                wasmparser::Payload::CodeSectionEntry(body) => {
                    let mut ops = body.get_operators_reader().unwrap();
                    while !ops.eof() {
                        if let wasmparser::Operator::Call { function_index } = ops.read().unwrap() {
                            assert_eq!(function_index, 1);
                            calls += 1;
                        }
                    }
                }
                _ => {}
            }
        }
        assert_eq!((memories, globals, calls), (2, 2, 2));
    }

    #[test]
    fn a_body_that_never_sets_the_stack_pointer_is_carried_over_byte_for_byte() {
        // No locals; `global.get 0`, `global.set 1` (whose opcode byte the scan meets, but not
        // of the stack pointer, global 0), with 1's index padded to two bytes; `end`.
        let second: &[u8] = &[0x00, 0x23, 0x00, 0x24, 0x81, 0x00, 0x0b];
        let module = module_with(1 << 20, 4096, Some(second));
        wasmparser::Validator::new().validate_all(&module).unwrap();
        let charged = charge_stack_by_use(&module, 1 << 20).unwrap();
        wasmparser::Validator::new().validate_all(&charged).unwrap();
        let bodies: Vec<Vec<u8>> = wasmparser::Parser::new(0)
            .parse_all(&charged)
            .filter_map(|payload| match payload.unwrap() {
                wasmparser::Payload::CodeSectionEntry(body) => Some(body.as_bytes().to_vec()),
                _ => None,
            })
            .collect();
        assert_eq!(bodies.len(), 3, "the two functions and the helper");
        assert!(
            bodies[0].windows(2).any(|w| w == [0x10, 0x02]),
            "the first moves the stack pointer: it calls the helper (function 2)"
        );
        assert_eq!(bodies[1], second, "the second never does: unchanged");
    }

    #[test]
    fn refuses_a_module_not_linked_stack_first_at_that_size() {
        let error = charge_stack_by_use(&module(1 << 20, 16), 8 << 20).unwrap_err();
        assert!(error.contains("stack pointer"), "{error}");
    }
}
