//! Copying charged per byte on wasmtime's baseline compiler.
//!
//! Go programs are made native code by Winch (`rewardbox-sandbox`'s `build_baseline_engine`),
//! which charges `memory.copy`, `memory.fill`, `memory.init` and the table operations of the same
//! kind their flat cost of one unit of fuel, where Cranelift charges them one unit per byte (or
//! element) besides: Go's `copy`, its memmove and memclr would run free of the time limit. So
//! each of those instructions is preceded by a call of [`METER_INTERFACE`]'s `charge(n) -> n`,
//! with `n` the length already on top of the stack (every one of them takes its length last),
//! which the host charges as Cranelift would: the call costs one unit, the instruction its own
//! after it, and the host takes `n` less the call's unit back from the store's fuel, or ends the
//! run out of fuel where Cranelift would (before the copy, when the fuel left is below `n + 1`).
//! The total fuel and the point of exhaustion equal Cranelift's, to the unit
//! (`crates/rewardbox-sandbox/src/engine.rs`'s tests).

use wasm_encoder::reencode::{Reencode, utils};
use wasm_encoder::{Encode, EntityType, ValType};

/// The interface the host implements (the linker of `rewardbox`'s runners): one function
/// charging the fuel of a bulk instruction's length.
pub const METER_INTERFACE: &str = "rewardbox:meter/meter@0.1.0";

/// The WIT of [`METER_INTERFACE`], and the world a metered module imports it in.
const METER_WIT: &str = r#"
package rewardbox:meter@0.1.0;

/// The fuel of work whose size the baseline compiler does not charge.
interface meter {
    /// Charges `units` (a bulk instruction's length) and returns them.
    charge: func(units: u32) -> u32;
}

world metered {
    import meter;
}
"#;

/// Whether `language`'s programs are made native code by wasmtime's baseline compiler (Winch), and
/// so have their bulk instructions charged through the host: Go's. The runners choose the engine
/// by this too, so a module is metered exactly when it runs where it must be.
pub fn runs_on_baseline_compiler(language: crate::Language) -> bool {
    language == crate::Language::Go
}

/// Whether `operator` is one whose length Winch does not charge.
fn charged_by_length(operator: &wasmparser::Operator<'_>) -> bool {
    use wasmparser::Operator::*;
    matches!(
        operator,
        MemoryCopy { .. }
            | MemoryFill { .. }
            | MemoryInit { .. }
            | TableCopy { .. }
            | TableFill { .. }
            | TableInit { .. }
            | TableGrow { .. }
    )
}

/// `module` with a call of the meter before each instruction [`charged_by_length`] and the
/// meter's WIT embedded. An error when the module has no import section or type section (a Go
/// module always has both).
pub fn charge_bulk_through_host(module: &[u8]) -> Result<Vec<u8>, String> {
    let mut imported_functions = 0;
    let mut types = None;
    let mut imports = false;
    for payload in wasmparser::Parser::new(0).parse_all(module) {
        match payload.map_err(|e| format!("reading the compiled module: {e}"))? {
            wasmparser::Payload::TypeSection(section) => types = Some(section.count()),
            wasmparser::Payload::ImportSection(section) => {
                imports = true;
                for group in section {
                    let group = group.map_err(|e| format!("reading the module's imports: {e}"))?;
                    for item in group {
                        let (_, import) =
                            item.map_err(|e| format!("reading the module's imports: {e}"))?;
                        if matches!(import.ty, wasmparser::TypeRef::Func(_)) {
                            imported_functions += 1;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let (Some(types), true) = (types, imports) else {
        return Err("the module has no type or import section to add the meter to".into());
    };
    let mut metered = Meter {
        imported_functions,
        charge_type: types,
    };
    let mut output = wasm_encoder::Module::new();
    metered
        .parse_core_module(&mut output, wasmparser::Parser::new(0), module)
        .map_err(|e| format!("metering the compiled module: {e}"))?;
    let mut bytes = output.finish();
    crate::wit_world::embed_world(
        &mut bytes,
        "rewardbox-meter.wit",
        METER_WIT,
        "metered",
        "the meter interface",
    )?;
    Ok(bytes)
}

/// WASI's preview 1 adapter with its bulk instructions metered, made once per process: the
/// adapter runs on the same compiler as the Go program it adapts, so its copies are charged too.
pub fn metered_adapter() -> Result<&'static [u8], String> {
    static METERED: std::sync::LazyLock<Result<Vec<u8>, String>> = std::sync::LazyLock::new(|| {
        charge_bulk_through_host(
            wasi_preview1_component_adapter_provider::WASI_SNAPSHOT_PREVIEW1_COMMAND_ADAPTER,
        )
    });
    METERED
        .as_deref()
        .map_err(|e| format!("metering WASI's adapter: {e}"))
}

/// A re-encoder adding the meter's import (after the module's own, so defined functions move up
/// by one) and its calls.
struct Meter {
    imported_functions: u32,
    /// The index of the added type `(i32) -> i32`, after the module's own.
    charge_type: u32,
}

impl Reencode for Meter {
    type Error = std::convert::Infallible;

    fn function_index(
        &mut self,
        func: u32,
    ) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(moved_up(func, self.imported_functions))
    }

    fn parse_type_section(
        &mut self,
        types: &mut wasm_encoder::TypeSection,
        section: wasmparser::TypeSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        utils::parse_type_section(self, types, section)?;
        types.ty().function([ValType::I32], [ValType::I32]);
        Ok(())
    }

    fn parse_import_section(
        &mut self,
        imports: &mut wasm_encoder::ImportSection,
        section: wasmparser::ImportSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        utils::parse_import_section(self, imports, section)?;
        imports.import(
            METER_INTERFACE,
            "charge",
            EntityType::Function(self.charge_type),
        );
        Ok(())
    }

    /// The body with a call of the meter before each instruction [`charged_by_length`] and every
    /// defined function's index moved up by one, its other bytes copied as they are.
    fn parse_function_body(
        &mut self,
        code: &mut wasm_encoder::CodeSection,
        func: wasmparser::FunctionBody<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        let imported = self.imported_functions;
        let spliced = crate::bodies::splice(&func, |operator, bytes, out| {
            if charged_by_length(operator) {
                out.push(CALL);
                imported.encode(out);
                out.extend_from_slice(bytes);
                return true;
            }
            let (opcode, index) = match *operator {
                wasmparser::Operator::Call { function_index } => (CALL, function_index),
                wasmparser::Operator::ReturnCall { function_index } => {
                    (RETURN_CALL, function_index)
                }
                wasmparser::Operator::RefFunc { function_index } => (REF_FUNC, function_index),
                _ => return false,
            };
            let moved = moved_up(index, imported);
            if moved == index {
                return false;
            }
            out.push(opcode);
            moved.encode(out);
            true
        })?;
        code.raw(&spliced);
        Ok(())
    }
}

/// Function `func`'s index once the meter's import is added after the module's `imported`
/// functions: a defined function's moves up by one, an imported one's stays.
fn moved_up(func: u32, imported: u32) -> u32 {
    if func >= imported { func + 1 } else { func }
}

/// The opcodes of the instructions that name a function.
const CALL: u8 = 0x10;
const RETURN_CALL: u8 = 0x12;
const REF_FUNC: u8 = 0xd2;

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{
        CodeSection, ExportKind, ExportSection, Function, FunctionSection, ImportSection,
        Instruction, MemorySection, MemoryType, Module, TypeSection,
    };

    /// A module importing one WASI function (`(i32) -> ()`) and defining a `() -> ()` function of
    /// each of `bodies`, the first exported as `_start`, and declaring `declared` for `ref.func`.
    fn module_of(bodies: &[Function], declared: &[u32]) -> Vec<u8> {
        let mut types = TypeSection::new();
        types.ty().function([ValType::I32], []);
        types.ty().function([], []);
        let mut imports = ImportSection::new();
        imports.import(
            "wasi_snapshot_preview1",
            "proc_exit",
            EntityType::Function(0),
        );
        let mut functions = FunctionSection::new();
        let mut code = CodeSection::new();
        for body in bodies {
            functions.function(1);
            code.function(body);
        }
        let mut memories = MemorySection::new();
        memories.memory(MemoryType {
            minimum: 1,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        });
        let mut exports = ExportSection::new();
        exports.export("_start", ExportKind::Func, 1);
        let mut elements = wasm_encoder::ElementSection::new();
        elements.declared(wasm_encoder::Elements::Functions(declared.into()));
        let mut m = Module::new();
        m.section(&types)
            .section(&imports)
            .section(&functions)
            .section(&memories)
            .section(&exports)
            .section(&elements)
            .section(&code);
        m.finish()
    }

    /// A body of `instructions`.
    fn body(instructions: &[Instruction<'_>]) -> Function {
        let mut f = Function::new([]);
        for i in instructions {
            f.instruction(i);
        }
        f
    }

    /// A module defining `run` (a copy, a fill, a call of `helper`) and `helper`.
    fn module() -> Vec<u8> {
        let run = body(&[
            Instruction::I32Const(0),
            Instruction::I32Const(8),
            Instruction::I32Const(100),
            Instruction::MemoryCopy {
                src_mem: 0,
                dst_mem: 0,
            },
            Instruction::I32Const(0),
            Instruction::I32Const(7),
            Instruction::I32Const(50),
            Instruction::MemoryFill(0),
            Instruction::Call(2),
            Instruction::End,
        ]);
        module_of(&[run, body(&[Instruction::End])], &[])
    }

    /// The calls in the defined functions' bodies, in order, by callee index.
    fn calls(module: &[u8]) -> Vec<Vec<u32>> {
        let mut bodies = Vec::new();
        for payload in wasmparser::Parser::new(0).parse_all(module) {
            if let wasmparser::Payload::CodeSectionEntry(body) = payload.unwrap() {
                let mut reader = body.get_operators_reader().unwrap();
                let mut calls = Vec::new();
                while !reader.eof() {
                    match reader.read().unwrap() {
                        wasmparser::Operator::Call { function_index } => calls.push(function_index),
                        wasmparser::Operator::MemoryCopy { .. } => calls.push(u32::MAX),
                        wasmparser::Operator::MemoryFill { .. } => calls.push(u32::MAX - 1),
                        _ => {}
                    }
                }
                bodies.push(calls);
            }
        }
        bodies
    }

    /// Each bulk instruction is preceded by a call of the meter (the new import, index 1), the
    /// defined functions move up by one and still call each other, the entry point is still
    /// `run`, and the module validates and carries the meter's WIT.
    #[test]
    fn bulk_instructions_call_the_meter_first() {
        let metered = charge_bulk_through_host(&module()).unwrap();
        wasmparser::Validator::new().validate_all(&metered).unwrap();
        assert_eq!(
            calls(&metered),
            vec![vec![1, u32::MAX, 1, u32::MAX - 1, 3], vec![]]
        );
        let mut start = None;
        let mut meter_import = None;
        let mut wit = false;
        for payload in wasmparser::Parser::new(0).parse_all(&metered) {
            match payload.unwrap() {
                wasmparser::Payload::ExportSection(exports) => {
                    for export in exports {
                        let export = export.unwrap();
                        if export.name == "_start" {
                            start = Some(export.index);
                        }
                    }
                }
                wasmparser::Payload::ImportSection(imports) => {
                    for (i, import) in imports.into_imports().enumerate() {
                        let import = import.unwrap();
                        if import.module == METER_INTERFACE && import.name == "charge" {
                            meter_import = Some(i);
                        }
                    }
                }
                wasmparser::Payload::CustomSection(section) => {
                    wit |= section.name().starts_with("component-type");
                }
                _ => {}
            }
        }
        assert_eq!(start, Some(2));
        assert_eq!(meter_import, Some(1));
        assert!(wit);
        // A module without imports cannot be metered: said, not guessed.
        let mut bare = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], []);
        bare.section(&types);
        assert!(charge_bulk_through_host(&bare.finish()).is_err());
    }

    /// The operators of the first defined function's body.
    fn first_body(module: &[u8]) -> Vec<wasmparser::Operator<'_>> {
        for payload in wasmparser::Parser::new(0).parse_all(module) {
            if let wasmparser::Payload::CodeSectionEntry(body) = payload.unwrap() {
                let mut reader = body.get_operators_reader().unwrap();
                let mut operators = Vec::new();
                while !reader.eof() {
                    operators.push(reader.read().unwrap());
                }
                return operators;
            }
        }
        panic!("no body")
    }

    /// Every instruction naming a defined function names it one index up, in whatever form its
    /// index was written (one byte becoming two past 127, padded to five bytes), a call of the
    /// import keeps its index, and everything else in the body is as it was.
    #[test]
    fn function_indices_move_up_in_every_form_they_take() {
        use wasmparser::Operator as O;
        let mut first = body(&[
            Instruction::I32Const(3),
            Instruction::Call(0),
            Instruction::Call(126),
            Instruction::Call(127),
            Instruction::Call(200),
        ]);
        // `call 5`, its index padded to five bytes.
        first.raw([0x10, 0x85, 0x80, 0x80, 0x80, 0x00]);
        for i in [
            Instruction::RefFunc(127),
            Instruction::Drop,
            Instruction::I32Const(0),
            Instruction::I32Const(0),
            Instruction::I32Const(1),
            Instruction::MemoryCopy {
                src_mem: 0,
                dst_mem: 0,
            },
            Instruction::ReturnCall(127),
            Instruction::End,
        ] {
            first.instruction(&i);
        }
        let mut bodies = vec![first];
        bodies.resize_with(200, || body(&[Instruction::End]));
        let module = module_of(&bodies, &[127]);
        let metered = charge_bulk_through_host(&module).unwrap();
        wasmparser::Validator::new_with_features(wasmparser::WasmFeatures::all())
            .validate_all(&metered)
            .unwrap();
        let call = |function_index| O::Call { function_index };
        assert_eq!(
            first_body(&metered),
            [
                O::I32Const { value: 3 },
                call(0),
                call(127),
                call(128),
                call(201),
                call(6),
                O::RefFunc {
                    function_index: 128
                },
                O::Drop,
                O::I32Const { value: 0 },
                O::I32Const { value: 0 },
                O::I32Const { value: 1 },
                call(1),
                O::MemoryCopy {
                    dst_mem: 0,
                    src_mem: 0
                },
                O::ReturnCall {
                    function_index: 128
                },
                O::End,
            ]
        );
    }
}
