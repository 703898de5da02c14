//! A compiled program's exact exit code.
//!
//! WASI preview 1's `proc_exit(code)` carries any code, but wasmtime's preview-1 adapter passes it
//! on to preview 2's `wasi:cli/exit.exit`, which knows only success or failure: `exit(3)` would
//! end as 1. So before adapting a module, its import of `proc_exit` is renamed to
//! [`EXIT_INTERFACE`]'s `exit` (same core signature, `(i32) -> ()`), and the module carries the
//! WIT of that interface, so that the component imports it from the host, which ends the run with
//! the code as a native process's status (`code & 0xff`). Nothing else in the module changes.

use wasm_encoder::reencode::{Reencode, utils};

/// The interface the host implements (the linker of `rewardbox`'s runners): one function that ends the
/// program with an exit code.
pub const EXIT_INTERFACE: &str = "rewardbox:program/exit@0.1.0";

/// The WIT of [`EXIT_INTERFACE`], and the world a renamed module imports it in.
const EXIT_WIT: &str = r#"
package rewardbox:program@0.1.0;

/// How a compiled program ends with an exit code.
interface exit {
    /// Ends the program with `code` as its exit status.
    exit: func(code: u32);
}

world program {
    import exit;
}
"#;

/// `module` with its `proc_exit` import renamed to [`EXIT_INTERFACE`]'s `exit` and that
/// interface's WIT embedded; `module` unchanged when it does not import `proc_exit`.
pub fn route_exit_codes(module: &[u8]) -> Result<Vec<u8>, String> {
    let mut renamer = RenameProcExit { renamed: false };
    let mut output = wasm_encoder::Module::new();
    renamer
        .parse_core_module(&mut output, wasmparser::Parser::new(0), module)
        .map_err(|e| format!("reading the compiled module: {e}"))?;
    if !renamer.renamed {
        return Ok(module.to_vec());
    }
    let mut bytes = output.finish();
    crate::wit_world::embed_world(
        &mut bytes,
        "rewardbox-program-exit.wit",
        EXIT_WIT,
        "program",
        "the exit interface",
    )?;
    Ok(bytes)
}

/// A re-encoder that renames `wasi_snapshot_preview1.proc_exit` and copies everything else (the
/// function bodies byte for byte: the import keeps its index and its type).
struct RenameProcExit {
    renamed: bool,
}

impl Reencode for RenameProcExit {
    type Error = std::convert::Infallible;

    fn parse_imports(
        &mut self,
        section: &mut wasm_encoder::ImportSection,
        imports: wasmparser::Imports<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        match imports {
            wasmparser::Imports::Single(_, import)
                if import.module == "wasi_snapshot_preview1" && import.name == "proc_exit" =>
            {
                self.renamed = true;
                let ty = self.entity_type(import.ty)?;
                section.import(EXIT_INTERFACE, "exit", ty);
                Ok(())
            }
            imports => utils::parse_imports(self, section, imports),
        }
    }

    fn parse_code_section(
        &mut self,
        code: &mut wasm_encoder::CodeSection,
        section: wasmparser::CodeSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        crate::bodies::copy_all(code, section)
    }
}
