//! Memory of its own for wasmtime's preview-1 adapter in a Go program.
//!
//! The adapter needs memory of the module it adapts (its stack, its state). When the module
//! exports no `cabi_realloc`, it takes pages with `memory.grow`. Go's runtime cannot share its
//! linear memory that way: it counts the pages it owns (`bloc`, `blocMax` in
//! `runtime/mem_sbrk.go`) and, when it grows memory, uses the range it believes follows its own
//! end, which is where the adapter's pages are: Go's heap overwrites the adapter's state and the
//! program traps inside the adapter. So a Go program is built with one more file
//! ([`crate::go::ARENA_SOURCE`]): an initialised byte array that nothing uses, marked by
//! [`crate::go::ARENA_MAGIC`], which the linker places in the program's data. [`arena`] finds it
//! in the module's data segments, and the module gets a `cabi_realloc` export that hands the
//! adapter pieces of it: the adapter never grows memory, and Go's sense of its memory stays true.

use wasm_encoder::reencode::{Reencode, utils};
use wasm_encoder::{ConstExpr, ExportKind, Function, GlobalType, Instruction, ValType};

/// The memory range `[start, end)` of the array that starts with `magic` and is `len` bytes long,
/// found in `module`'s active data segments; `None` when no segment holds `magic`.
pub fn arena(module: &[u8], magic: &[u8], len: u32) -> Option<(u32, u32)> {
    for payload in wasmparser::Parser::new(0).parse_all(module) {
        let Ok(wasmparser::Payload::DataSection(reader)) = payload else {
            continue;
        };
        for data in reader.into_iter().flatten() {
            let wasmparser::DataKind::Active { offset_expr, .. } = data.kind else {
                continue;
            };
            let Some(Ok(wasmparser::Operator::I32Const { value })) =
                offset_expr.get_operators_reader().into_iter().next()
            else {
                continue;
            };
            if let Some(at) = data.data.windows(magic.len()).position(|w| w == magic) {
                let start = (value as u32).checked_add(at as u32)?;
                return Some((start, start.checked_add(len)?));
            }
        }
    }
    None
}

/// `module` with a `cabi_realloc` export that bump-allocates in `[start, end)` (memory the module
/// never uses) and traps when that range is spent or when asked to grow an allocation (the
/// adapter never does).
pub fn with_adapter_memory(module: &[u8], start: u32, end: u32) -> Result<Vec<u8>, String> {
    let mut injector = Injector {
        start,
        end,
        imported_functions: 0,
        defined_functions: 0,
        types: 0,
        globals: 0,
        type_index: None,
        global_index: None,
        exported: false,
    };
    let mut output = wasm_encoder::Module::new();
    injector
        .parse_core_module(&mut output, wasmparser::Parser::new(0), module)
        .map_err(|e| format!("giving the program's adapter its memory: {e}"))?;
    if injector.type_index.is_none() || injector.global_index.is_none() || !injector.exported {
        return Err("the compiled module has no type, global or export section".into());
    }
    Ok(output.finish())
}

/// A re-encoder that copies a module and adds the allocator: its type, its bump pointer (a
/// global), its function and its export.
struct Injector {
    start: u32,
    end: u32,
    imported_functions: u32,
    defined_functions: u32,
    types: u32,
    globals: u32,
    type_index: Option<u32>,
    global_index: Option<u32>,
    exported: bool,
}

impl Injector {
    /// The allocator's function index: after every imported and defined function.
    fn allocator_index(&self) -> u32 {
        self.imported_functions + self.defined_functions
    }

    /// `cabi_realloc(old_ptr, old_size, align, new_size) -> ptr`.
    fn body(&self, next: u32) -> Function {
        // Locals: 0 old_ptr, 1 old_size, 2 align, 3 new_size; 4 the result.
        let mut f = Function::new([(1, ValType::I32)]);
        let trap_unless = |f: &mut Function, condition: &[Instruction]| {
            for i in condition {
                f.instruction(i);
            }
            f.instruction(&Instruction::If(wasm_encoder::BlockType::Empty));
            f.instruction(&Instruction::Unreachable);
            f.instruction(&Instruction::End);
        };
        // Growing an allocation is never asked for.
        trap_unless(&mut f, &[Instruction::LocalGet(0)]);
        // result = (next + align - 1) & -align
        f.instruction(&Instruction::GlobalGet(next));
        f.instruction(&Instruction::LocalGet(2));
        f.instruction(&Instruction::I32Add);
        f.instruction(&Instruction::I32Const(1));
        f.instruction(&Instruction::I32Sub);
        f.instruction(&Instruction::I32Const(0));
        f.instruction(&Instruction::LocalGet(2));
        f.instruction(&Instruction::I32Sub);
        f.instruction(&Instruction::I32And);
        f.instruction(&Instruction::LocalSet(4));
        // The range spent: trap (result + new_size > end, unsigned, without overflow).
        trap_unless(
            &mut f,
            &[
                Instruction::LocalGet(3),
                Instruction::I32Const(self.end as i32),
                Instruction::LocalGet(4),
                Instruction::I32Sub,
                Instruction::I32GtU,
            ],
        );
        f.instruction(&Instruction::LocalGet(4));
        f.instruction(&Instruction::LocalGet(3));
        f.instruction(&Instruction::I32Add);
        f.instruction(&Instruction::GlobalSet(next));
        f.instruction(&Instruction::LocalGet(4));
        f.instruction(&Instruction::End);
        f
    }
}

impl Reencode for Injector {
    type Error = std::convert::Infallible;

    fn parse_type_section(
        &mut self,
        types: &mut wasm_encoder::TypeSection,
        section: wasmparser::TypeSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        utils::parse_type_section(self, types, section)?;
        self.types = types.len();
        self.type_index = Some(self.types);
        types.ty().function(
            [ValType::I32, ValType::I32, ValType::I32, ValType::I32],
            [ValType::I32],
        );
        Ok(())
    }

    fn parse_import_section(
        &mut self,
        imports: &mut wasm_encoder::ImportSection,
        section: wasmparser::ImportSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        for import in section.clone().into_imports() {
            if let Ok(import) = import
                && matches!(import.ty, wasmparser::TypeRef::Func(_))
            {
                self.imported_functions += 1;
            }
        }
        utils::parse_import_section(self, imports, section)
    }

    fn parse_function_section(
        &mut self,
        functions: &mut wasm_encoder::FunctionSection,
        section: wasmparser::FunctionSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        self.defined_functions = section.count();
        utils::parse_function_section(self, functions, section)?;
        if let Some(ty) = self.type_index {
            functions.function(ty);
        }
        Ok(())
    }

    fn parse_global_section(
        &mut self,
        globals: &mut wasm_encoder::GlobalSection,
        section: wasmparser::GlobalSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        utils::parse_global_section(self, globals, section)?;
        self.globals = globals.len();
        self.global_index = Some(self.globals);
        globals.global(
            GlobalType {
                val_type: ValType::I32,
                mutable: true,
                shared: false,
            },
            &ConstExpr::i32_const(self.start as i32),
        );
        Ok(())
    }

    fn parse_export_section(
        &mut self,
        exports: &mut wasm_encoder::ExportSection,
        section: wasmparser::ExportSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        utils::parse_export_section(self, exports, section)?;
        exports.export("cabi_realloc", ExportKind::Func, self.allocator_index());
        self.exported = true;
        Ok(())
    }

    fn parse_code_section(
        &mut self,
        code: &mut wasm_encoder::CodeSection,
        section: wasmparser::CodeSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        // The allocator comes after every function, type and global: no body refers to it.
        crate::bodies::copy_all(code, section)?;
        if let Some(next) = self.global_index {
            code.function(&self.body(next));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{
        CodeSection, EntityType, ExportSection, FunctionSection, GlobalSection, ImportSection,
        MemorySection, MemoryType, Module, TypeSection,
    };

    /// A module like Go's in shape: two imported functions, a defined one, a global, a memory
    /// and exports.
    fn module() -> Vec<u8> {
        let mut types = TypeSection::new();
        types.ty().function([ValType::I32], []);
        types.ty().function([], []);
        let mut imports = ImportSection::new();
        imports.import(
            "wasi_snapshot_preview1",
            "proc_exit",
            EntityType::Function(0),
        );
        imports.import(
            "wasi_snapshot_preview1",
            "sched_yield",
            EntityType::Function(1),
        );
        let mut functions = FunctionSection::new();
        functions.function(1);
        let mut memories = MemorySection::new();
        memories.memory(MemoryType {
            minimum: 16,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        });
        let mut globals = GlobalSection::new();
        globals.global(
            GlobalType {
                val_type: ValType::I32,
                mutable: true,
                shared: false,
            },
            &ConstExpr::i32_const(0),
        );
        let mut exports = ExportSection::new();
        exports.export("_start", ExportKind::Func, 2);
        exports.export("memory", ExportKind::Memory, 0);
        let mut code = CodeSection::new();
        let mut body = Function::new([]);
        body.instruction(&Instruction::End);
        code.function(&body);
        let mut module = Module::new();
        module
            .section(&types)
            .section(&imports)
            .section(&functions)
            .section(&memories)
            .section(&globals)
            .section(&exports)
            .section(&code);
        module.finish()
    }

    #[test]
    fn the_allocator_is_exported_after_every_function_and_validates() {
        let out = with_adapter_memory(&module(), 0x1_0000, 0x8_0000).unwrap();
        wasmparser::Validator::new().validate_all(&out).unwrap();
        let mut exported = None;
        for payload in wasmparser::Parser::new(0).parse_all(&out) {
            if let Ok(wasmparser::Payload::ExportSection(reader)) = payload {
                for export in reader {
                    let export = export.unwrap();
                    if export.name == "cabi_realloc" {
                        exported = Some(export.index);
                    }
                }
            }
        }
        assert_eq!(
            exported,
            Some(3),
            "2 imported + 1 defined: the allocator is function 3"
        );
    }
}
