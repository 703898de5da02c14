//! What a program's own source put into its compiled module beyond what a native build would
//! have, screened before the module becomes a component.
//!
//! A compiler that succeeded has written a module whose every part comes from the candidate's
//! source and the toolchain: nothing in it is the host's doing. So whatever of it cannot run is
//! the program's fault, judged as the native toolchain judges the same source, never a host
//! failure a policy could steer into a masked result:
//!
//! - an import from anywhere but WASI (`__attribute__((import_module("env")))`, Rust's
//!   `extern "C" { fn helper(); }`, Go's `//go:wasmimport`) is a function the program calls and
//!   nothing defines: natively an undefined reference at link time, so a compile error here;
//! - an export beyond the program's entry point (`#[no_mangle]`, `export_name`,
//!   `//go:wasmexport`) means nothing to a program run from its `main`: natively a symbol in the
//!   binary, so it is dropped;
//! - a custom section named like the component model's type sections (`component-type...`,
//!   which a `#[link_section]` can write) is data the native binary would only carry along: it is
//!   dropped, so that it cannot be read as the program's interface;
//! - Go's build id (`go:buildid`, a custom section no code can read) is dropped, so that two Go
//!   programs of the same interface share a component shell (see `shells`).

use wasm_encoder::reencode::{Reencode, utils};

/// The only module a program's imports may come from: what the sandbox gives a program.
const WASI: &str = "wasi_snapshot_preview1";

/// Exports the preview 1 adapter reads from a command module; every other export is dropped.
fn kept_export(name: &str) -> bool {
    matches!(
        name,
        "_start" | "memory" | "__indirect_function_table" | "__heap_base" | "__data_end"
    ) || name.starts_with("cabi_")
}

/// Custom sections that would be read as a component's interface, and Go's build id.
fn dropped_section(name: &str) -> bool {
    name.starts_with("component-type") || name == "go:buildid"
}

/// `module` with what [`kept_export`] and [`dropped_section`] leave out removed; the compile
/// error, worded as a native link's, when it imports anything but WASI.
pub fn screen(module: &[u8]) -> Result<Vec<u8>, String> {
    let undefined = foreign_imports(module)?;
    if !undefined.is_empty() {
        let names: Vec<String> = undefined
            .iter()
            .map(|(module, name)| format!("undefined symbol: {name} (imported from \"{module}\")"))
            .collect();
        return Err(format!(
            "error: linking the program failed:\n{}\nnote: the program calls functions that \
             nothing defines (a native build fails to link the same way); the sandbox gives a \
             program only the standard library and WASI",
            names.join("\n")
        ));
    }
    let mut screen = Screen { changed: false };
    let mut output = wasm_encoder::Module::new();
    screen
        .parse_core_module(&mut output, wasmparser::Parser::new(0), module)
        .map_err(|e| format!("reading the compiled module: {e}"))?;
    Ok(if screen.changed {
        output.finish()
    } else {
        module.to_vec()
    })
}

/// The imports of `module` from anywhere but WASI, as (module, name).
fn foreign_imports(module: &[u8]) -> Result<Vec<(String, String)>, String> {
    let mut found = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(module) {
        let payload = payload.map_err(|e| format!("reading the compiled module: {e}"))?;
        if let wasmparser::Payload::ImportSection(section) = payload {
            for import in section.into_imports() {
                let import = import.map_err(|e| format!("reading the compiled module: {e}"))?;
                if import.module != WASI {
                    found.push((import.module.to_string(), import.name.to_string()));
                }
            }
        }
    }
    Ok(found)
}

/// A re-encoder that drops the exports and custom sections the screen leaves out.
struct Screen {
    changed: bool,
}

impl Reencode for Screen {
    type Error = std::convert::Infallible;

    fn parse_export_section(
        &mut self,
        exports: &mut wasm_encoder::ExportSection,
        section: wasmparser::ExportSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        for export in section {
            let export = export?;
            if kept_export(export.name) {
                utils::parse_export(self, exports, export)?;
            } else {
                self.changed = true;
            }
        }
        Ok(())
    }

    fn parse_custom_section(
        &mut self,
        module: &mut wasm_encoder::Module,
        section: wasmparser::CustomSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        if dropped_section(section.name()) {
            self.changed = true;
            return Ok(());
        }
        utils::parse_custom_section(self, module, section)
    }

    fn parse_code_section(
        &mut self,
        code: &mut wasm_encoder::CodeSection,
        section: wasmparser::CodeSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        crate::bodies::copy_all(code, section)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module from its text form's pieces, built with wasm-encoder (no `wat` dependency).
    fn module(imports: &[(&str, &str)], exports: &[&str], custom: &[&str]) -> Vec<u8> {
        use wasm_encoder::*;
        let mut m = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], []);
        m.section(&types);
        let mut import_section = ImportSection::new();
        for (module, name) in imports {
            import_section.import(module, name, EntityType::Function(0));
        }
        if !imports.is_empty() {
            m.section(&import_section);
        }
        let mut functions = FunctionSection::new();
        functions.function(0);
        m.section(&functions);
        let mut memories = MemorySection::new();
        memories.memory(MemoryType {
            minimum: 1,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        });
        m.section(&memories);
        let mut export_section = ExportSection::new();
        let own = imports.len() as u32;
        for name in exports {
            match *name {
                "memory" => export_section.export(name, ExportKind::Memory, 0),
                _ => export_section.export(name, ExportKind::Func, own),
            };
        }
        m.section(&export_section);
        let mut code = CodeSection::new();
        let mut body = Function::new([]);
        body.instructions().end();
        code.function(&body);
        m.section(&code);
        for name in custom {
            m.section(&CustomSection {
                name: (*name).into(),
                data: b"junk".as_slice().into(),
            });
        }
        m.finish()
    }

    fn exports(bytes: &[u8]) -> Vec<String> {
        let mut names = Vec::new();
        for payload in wasmparser::Parser::new(0).parse_all(bytes) {
            if let wasmparser::Payload::ExportSection(s) = payload.unwrap() {
                names.extend(s.into_iter().map(|e| e.unwrap().name.to_string()));
            }
        }
        names
    }

    fn customs(bytes: &[u8]) -> Vec<String> {
        let mut names = Vec::new();
        for payload in wasmparser::Parser::new(0).parse_all(bytes) {
            if let wasmparser::Payload::CustomSection(s) = payload.unwrap() {
                names.push(s.name().to_string());
            }
        }
        names
    }

    #[test]
    fn foreign_imports_are_undefined_symbols_and_wasi_is_kept() {
        let plain = module(&[(WASI, "fd_write")], &["_start", "memory"], &[]);
        assert_eq!(screen(&plain).unwrap(), plain, "nothing to change");
        for (module_name, name) in [
            ("env", "helper"),
            ("gojs", "runtime.x"),
            ("", "x"),
            ("wasi:cli/exit@0.2.0", "exit"),
        ] {
            let bytes = module(&[(WASI, "fd_write"), (module_name, name)], &["_start"], &[]);
            let error = screen(&bytes).unwrap_err();
            assert!(
                error.contains(&format!("undefined symbol: {name}")),
                "{error}"
            );
            assert!(!error.contains("fd_write"), "{error}");
        }
    }

    #[test]
    fn extra_exports_and_component_type_sections_are_dropped() {
        let bytes = module(
            &[(WASI, "fd_write")],
            &["_start", "memory", "helper", "cabi_realloc", "run"],
            &["component-type:evil", "name-ish", "go:buildid", "producers"],
        );
        let screened = screen(&bytes).unwrap();
        assert_eq!(exports(&screened), ["_start", "memory", "cabi_realloc"]);
        assert_eq!(customs(&screened), ["name-ish", "producers"]);
        wasmparser::Validator::new()
            .validate_all(&screened)
            .expect("still a valid module");
    }
}
