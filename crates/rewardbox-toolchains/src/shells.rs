//! A compiled module made a component by reusing the encoding of an earlier module with the same
//! interface.
//!
//! `wit-component` turns a preview 1 module into a component around it: the preview 1 adapter
//! trimmed to the imports the module uses, the shim and fix-up modules that tie them together,
//! the types, instances and exports of the component. All of that follows from the module's
//! interface (its imports and exports with their types, and its custom sections, which carry the
//! world it was built for) and the adapter; the module's code, data, memory and the rest are
//! carried into the component untouched, its custom sections replaced by what the encoder makes
//! of them (and, for a Go module, its imports renamed). It costs 4-7 ms for a C a+b program,
//! twice that for C++ and some 30 ms for Go (decoding the adapter's WIT, trimming it, validating
//! the output), paid again by every distinct program of the same interface.
//!
//! So the first component of an interface is kept as a *shell*: its bytes before and after the
//! main module, the custom sections the encoder ended the module with, and the sections it wrote
//! anew. A later module of the same interface becomes its non-custom sections (a section the
//! encoder wrote anew taken from the shell, when the module's own is the one the shell was made
//! of; otherwise the module is left to the encoder), that ending, inside the shell. A shell is
//! kept only when the encoder kept the module's non-custom sections in their order, followed by
//! custom sections only, and when it rebuilds its own component byte for byte, so a change in how
//! `wit-component` encodes is caught there and the encoder is used instead. A module put in a
//! shell is validated as the encoder validates its output; one that fails is encoded by the
//! encoder, whose error the caller reports.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use wasm_encoder::Encode;

/// The component section holding a core module.
const CORE_MODULE_SECTION: u8 = 1;

/// The most bytes the shells of one process hold; past it they are dropped and kept anew.
const MAX_SHELL_BYTES: usize = 64 << 20;

/// The shells of one process, by interface.
#[derive(Default)]
pub struct Shells {
    shells: Mutex<ShellMap>,
    used: AtomicU64,
}

#[derive(Default)]
struct ShellMap {
    by_interface: HashMap<Vec<u8>, Arc<Shell>>,
    bytes: usize,
}

/// One component around the place of its main module.
struct Shell {
    /// The component's bytes before its main module's section.
    before: Vec<u8>,
    /// The component's bytes after its main module's section.
    after: Vec<u8>,
    /// The custom sections the encoder ended the main module with.
    ending: Vec<u8>,
    /// The non-custom sections the encoder wrote anew (Go's imports, renamed): by their place
    /// among the module's non-custom sections, the module's own bytes of the section and the
    /// encoder's. A module whose section there differs from the one the shell was made of is
    /// left to the encoder.
    rewritten: Vec<(usize, Vec<u8>, Vec<u8>)>,
}

impl Shells {
    /// `module` (a screened preview 1 module) as a component around `adapter`: from the shell of
    /// its interface when this process has one, else through `encode` (the encoder), whose
    /// component becomes the interface's shell when it can be one. `adapter_name` tells the
    /// adapters apart.
    pub fn component<E>(
        &self,
        module: &[u8],
        adapter_name: &str,
        encode: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Vec<u8>, E> {
        let Some(interface) = interface(module, adapter_name) else {
            return encode();
        };
        let shell = self.lock().by_interface.get(&interface).cloned();
        if let Some(shell) = shell
            && let Some(component) = shell.around(module)
        {
            self.used.fetch_add(1, Ordering::Relaxed);
            return Ok(component);
        }
        let component = encode()?;
        if let Some(shell) = Shell::of(module, &component) {
            let mut shells = self.lock();
            let size = shell.size();
            if shells.bytes + size > MAX_SHELL_BYTES {
                *shells = ShellMap::default();
            }
            // A shell that served no longer (its rewritten sections differ) is replaced.
            if let Some(replaced) = shells.by_interface.insert(interface, Arc::new(shell)) {
                shells.bytes -= replaced.size();
            }
            shells.bytes += size;
        }
        Ok(component)
    }

    /// How many components were made in a shell.
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ShellMap> {
        self.shells.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Shell {
    /// The shell of `component`, the encoder's component of `module`, when it holds `module`'s
    /// non-custom sections in their order (each as it is, or written anew) followed by custom
    /// sections only, and rebuilds `component` byte for byte around `module`.
    fn of(module: &[u8], component: &[u8]) -> Option<Shell> {
        let (start, end) = main_module_section(component)?;
        let embedded = embedded_module(&component[start..end])?;
        if embedded.get(..8)? != module.get(..8)? {
            return None;
        }
        let own = non_custom(module)?;
        let written = sections(&embedded[8..])?;
        let (written, ending) = written.split_at_checked(own.len())?;
        if ending.iter().any(|(id, _)| *id != 0) {
            return None;
        }
        let mut rewritten = Vec::new();
        for (place, ((id, own), (written_id, written))) in own.iter().zip(written).enumerate() {
            if id != written_id {
                return None;
            }
            if own != written {
                rewritten.push((place, own.to_vec(), written.to_vec()));
            }
        }
        let shell = Shell {
            before: component[..start].to_vec(),
            after: component[end..].to_vec(),
            ending: ending
                .iter()
                .flat_map(|(_, bytes)| bytes.iter().copied())
                .collect(),
            rewritten,
        };
        (shell.holding(&shell.module_of(module)?) == component).then_some(shell)
    }

    /// `module` in this shell, when it is a valid module (the encoder validates its output).
    fn around(&self, module: &[u8]) -> Option<Vec<u8>> {
        let embedded = self.module_of(module)?;
        wasmparser::Validator::new_with_features(wasmparser::WasmFeatures::all())
            .validate_all(&embedded)
            .ok()?;
        Some(self.holding(&embedded))
    }

    /// `module` as the encoder writes it into a component: its non-custom sections (those the
    /// encoder writes anew as it wrote them, when the module's own are the shell's), then the
    /// ending.
    fn module_of(&self, module: &[u8]) -> Option<Vec<u8>> {
        let mut embedded = module.get(..8)?.to_vec();
        let mut rewritten = self.rewritten.iter().peekable();
        for (place, (_, section)) in non_custom(module)?.into_iter().enumerate() {
            match rewritten.next_if(|(at, _, _)| *at == place) {
                Some((_, own, written)) if own.as_slice() == section => {
                    embedded.extend_from_slice(written)
                }
                Some(_) => return None,
                None => embedded.extend_from_slice(section),
            }
        }
        if rewritten.next().is_some() {
            return None;
        }
        embedded.extend_from_slice(&self.ending);
        Some(embedded)
    }

    /// The component of this shell holding `embedded` as its main module.
    fn holding(&self, embedded: &[u8]) -> Vec<u8> {
        let mut component = Vec::with_capacity(self.size() + embedded.len() + 8);
        component.extend_from_slice(&self.before);
        component.push(CORE_MODULE_SECTION);
        embedded.encode(&mut component);
        component.extend_from_slice(&self.after);
        component
    }

    fn size(&self) -> usize {
        let rewritten: usize = self
            .rewritten
            .iter()
            .map(|(_, a, b)| a.len() + b.len())
            .sum();
        self.before.len() + self.after.len() + self.ending.len() + rewritten
    }
}

/// The sections of the module or component `bytes` past its 8-byte header: each section's id and
/// its whole bytes (id, size and contents). `None` when they are not well framed.
fn sections(bytes: &[u8]) -> Option<Vec<(u8, &[u8])>> {
    let mut found = Vec::new();
    let mut reader = wasmparser::BinaryReader::new(bytes, 0);
    while !reader.eof() {
        let start = reader.current_position();
        let id = reader.read_u8().ok()?;
        let size = reader.read_var_u32().ok()? as usize;
        reader.read_bytes(size).ok()?;
        found.push((id, &bytes[start..reader.current_position()]));
    }
    Some(found)
}

/// The sections of `module` but the custom ones, in order: each one's id and whole bytes.
fn non_custom(module: &[u8]) -> Option<Vec<(u8, &[u8])>> {
    let mut found = sections(module.get(8..)?)?;
    found.retain(|(id, _)| *id != 0);
    Some(found)
}

/// Where the first core module section of `component` (the main module: the encoder writes it
/// first) starts and ends.
fn main_module_section(component: &[u8]) -> Option<(usize, usize)> {
    let mut at = 8;
    for (id, section) in sections(component.get(8..)?)? {
        if id == CORE_MODULE_SECTION {
            return Some((at, at + section.len()));
        }
        at += section.len();
    }
    None
}

/// The module inside the whole core module section `section`.
fn embedded_module(section: &[u8]) -> Option<&[u8]> {
    let mut reader = wasmparser::BinaryReader::new(section, 0);
    reader.read_u8().ok()?;
    let size = reader.read_var_u32().ok()? as usize;
    let start = reader.current_position();
    (section.len() == start + size).then(|| &section[start..])
}

/// What the encoder reads of `module`, as a key: the adapter's name, the order of the module's
/// sections, every import and export with its type, and every custom section (the encoder
/// rewrites some of them: the world's types, the producers, the names). `None` for a module that
/// does not parse (the encoder reports it).
fn interface(module: &[u8], adapter_name: &str) -> Option<Vec<u8>> {
    use wasmparser::{Payload, TypeRef};
    let mut key = String::new();
    let _ = writeln!(key, "adapter {adapter_name}");
    let mut types: Vec<String> = Vec::new();
    let mut function_types: Vec<u32> = Vec::new();
    let mut customs: Vec<u8> = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(module) {
        let payload = payload.ok()?;
        if let Some((id, _)) = payload.as_section() {
            let _ = writeln!(key, "section {id}");
        }
        match payload {
            Payload::TypeSection(reader) => {
                for group in reader {
                    for ty in group.ok()?.into_types() {
                        types.push(format!("{:?}", ty.composite_type));
                    }
                }
            }
            Payload::ImportSection(reader) => {
                for import in reader.into_imports() {
                    let import = import.ok()?;
                    let ty = match import.ty {
                        TypeRef::Func(index) => {
                            function_types.push(index);
                            types.get(index as usize)?.clone()
                        }
                        other => format!("{other:?}"),
                    };
                    let _ = writeln!(key, "import {:?} {:?} {ty}", import.module, import.name);
                }
            }
            Payload::FunctionSection(reader) => {
                for index in reader {
                    function_types.push(index.ok()?);
                }
            }
            Payload::ExportSection(reader) => {
                for export in reader {
                    let export = export.ok()?;
                    let ty = match export.kind {
                        wasmparser::ExternalKind::Func => {
                            let index = *function_types.get(export.index as usize)?;
                            types.get(index as usize)?.clone()
                        }
                        _ => String::new(),
                    };
                    let _ = writeln!(key, "export {:?} {:?} {ty}", export.name, export.kind);
                }
            }
            Payload::CustomSection(reader) => {
                let _ = writeln!(key, "custom {:?} {}", reader.name(), reader.data().len());
                customs.extend_from_slice(reader.data());
            }
            Payload::ModuleSection { .. } | Payload::ComponentSection { .. } => return None,
            _ => {}
        }
    }
    let mut key = key.into_bytes();
    key.extend_from_slice(&customs);
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{
        CodeSection, CustomSection, ExportKind, ExportSection, Function, FunctionSection,
        Instruction, Module, TypeSection, ValType,
    };

    /// A module exporting `_start`, returning `value` (an `i64` where an `i32` is due makes it
    /// invalid), with a custom section `extra` when given.
    fn module(value: i64, extra: Option<&str>) -> Vec<u8> {
        let mut module = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], [ValType::I32]);
        module.section(&types);
        let mut functions = FunctionSection::new();
        functions.function(0);
        module.section(&functions);
        let mut exports = ExportSection::new();
        exports.export("_start", ExportKind::Func, 0);
        module.section(&exports);
        let mut code = CodeSection::new();
        let mut body = Function::new([]);
        match i32::try_from(value) {
            Ok(value) => body.instruction(&Instruction::I32Const(value)),
            Err(_) => body.instruction(&Instruction::I64Const(value)),
        };
        body.instruction(&Instruction::End);
        code.function(&body);
        module.section(&code);
        if let Some(name) = extra {
            module.section(&CustomSection {
                name: name.into(),
                data: b"data".into(),
            });
        }
        module.finish()
    }

    /// What a fake encoder rewrites of a module.
    #[derive(Clone, Copy)]
    enum Rewrite {
        Nothing,
        /// The constant its code returns, as an encoder that changed the code would.
        Code,
        /// Its export's name, as the encoder renames Go's imports.
        Exports,
    }

    /// What an encoder makes of `module`: a component holding its non-custom sections (one
    /// rewritten as `rewrite` says) and a `producers` section, between two custom sections of
    /// its own.
    fn encoded(module: &[u8], rewrite: Rewrite) -> Vec<u8> {
        let mut embedded = module[..8].to_vec();
        for (id, section) in non_custom(module).unwrap() {
            let mut section = section.to_vec();
            match (rewrite, id) {
                // The section ends `i32.const <one byte>`, `end`.
                (Rewrite::Code, 10) => {
                    let immediate = section.len() - 2;
                    section[immediate] ^= 1;
                }
                // "_start" becomes "_starT".
                (Rewrite::Exports, 7) => {
                    let t = section.iter().rposition(|&b| b == b't').unwrap();
                    section[t] = b'T';
                }
                _ => {}
            }
            embedded.extend_from_slice(&section);
        }
        CustomSection {
            name: "producers".into(),
            data: b"by test".into(),
        }
        .append_to(&mut embedded);
        let mut component = b"\0asm\x0d\x00\x01\x00".to_vec();
        for (name, section) in [
            ("before", None),
            ("module", Some(&embedded)),
            ("after", None),
        ] {
            match section {
                Some(embedded) => {
                    component.push(CORE_MODULE_SECTION);
                    embedded.encode(&mut component);
                }
                None => CustomSection {
                    name: name.into(),
                    data: b"x".into(),
                }
                .append_to(&mut component),
            }
        }
        component
    }

    trait AppendTo {
        fn append_to(&self, sink: &mut Vec<u8>);
    }

    impl AppendTo for CustomSection<'_> {
        fn append_to(&self, sink: &mut Vec<u8>) {
            sink.push(0);
            self.encode(sink);
        }
    }

    fn never() -> Result<Vec<u8>, String> {
        panic!("encoded where a shell was due")
    }

    /// Shells whose first module (returning 1) the encoder encoded, rewriting what `rewrite`
    /// says, and whose second (returning 2, the same interface) was put in the first's shell
    /// without the encoder: each the encoder's component.
    fn shell_of_the_first_serving_the_second(rewrite: Rewrite) -> Shells {
        let shells = Shells::default();
        let first = module(1, None);
        let made = shells.component(&first, "command", || {
            Ok::<_, String>(encoded(&first, rewrite))
        });
        assert_eq!(made.unwrap(), encoded(&first, rewrite));
        let second = module(2, None);
        assert_eq!(
            shells.component(&second, "command", never).unwrap(),
            encoded(&second, rewrite)
        );
        assert_eq!(shells.used(), 1);
        shells
    }

    #[test]
    fn a_module_of_a_known_interface_is_put_in_its_shell() {
        let shells = shell_of_the_first_serving_the_second(Rewrite::Nothing);
        // Another adapter, another custom section: another interface, encoded.
        let mut calls = 0;
        for (module, adapter) in [
            (module(3, None), "metered"),
            (module(3, Some("x")), "command"),
        ] {
            shells
                .component(&module, adapter, || {
                    calls += 1;
                    Ok::<_, String>(encoded(&module, Rewrite::Nothing))
                })
                .unwrap();
        }
        assert_eq!((calls, shells.used()), (2, 1));
    }

    #[test]
    fn an_invalid_module_is_left_to_the_encoder_and_its_error() {
        let shells = Shells::default();
        let first = module(1, None);
        shells
            .component(&first, "command", || {
                Ok::<_, String>(encoded(&first, Rewrite::Nothing))
            })
            .unwrap();
        let invalid = module(1 << 40, None);
        let error = shells.component(&invalid, "command", || {
            Err("the encoder's error".to_string())
        });
        assert_eq!(error.unwrap_err(), "the encoder's error");
        assert_eq!(shells.used(), 0);
    }

    /// A section the encoder writes anew is taken from the shell for a module whose own is the
    /// one the shell was made of; a module whose own differs is left to the encoder.
    #[test]
    fn a_section_the_encoder_rewrote_is_reused_only_for_the_same_section() {
        // Other code, the same exports: the shell's exports.
        shell_of_the_first_serving_the_second(Rewrite::Exports);
        // An encoder that rewrites the code: each module's code differs, so each is encoded.
        let shells = Shells::default();
        let mut calls = 0;
        for value in [1, 2, 3] {
            let module = module(value, None);
            let made = shells.component(&module, "command", || {
                calls += 1;
                Ok::<_, String>(encoded(&module, Rewrite::Code))
            });
            assert_eq!(made.unwrap(), encoded(&module, Rewrite::Code));
        }
        assert_eq!((calls, shells.used()), (3, 0));
    }
}
