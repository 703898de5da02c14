//! Resolves a task's `"verifier"` to a ready component: a built-in name, or a path to a `.wasm`
//! component implementing the `verifier` world. Each component is compiled (or loaded from the
//! cache) and linked once per process, on first use, and shared by every thread after that.

use crate::builtin;
use crate::cache::ComponentCache;
use crate::runner::Runners;
use crate::sandbox::JobState;
use crate::verifier::VerifierComponent;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use wasmtime::Engine;
use wasmtime::component::Linker;

type Loaded = Result<Arc<VerifierComponent>, String>;

/// Every verifier this process has loaded, by name or path.
pub struct VerifierRegistry {
    engine: Engine,
    linker: Linker<JobState>,
    cache: ComponentCache,
    runners: Arc<Runners>,
    loaded: Mutex<HashMap<String, Arc<OnceLock<Loaded>>>>,
}

impl VerifierRegistry {
    /// A registry that compiles with `engine`, links with `linker`, caches in `cache`, and gives
    /// its verifiers `runners` for their candidates.
    pub fn new(
        engine: Engine,
        linker: Linker<JobState>,
        cache: ComponentCache,
        runners: Arc<Runners>,
    ) -> Self {
        VerifierRegistry {
            engine,
            linker,
            cache,
            runners,
            loaded: Mutex::default(),
        }
    }

    /// The verifier a task names. The error says what was wrong and what is accepted.
    pub fn resolve(&self, spec: &str) -> Loaded {
        if let Some(found) = builtin::find(spec) {
            return self.load_once(&format!("builtin:{}", found.component), || {
                self.compile(spec, found.wasm)
            });
        }
        if looks_like_path(spec) {
            return self.load_once(&format!("path:{spec}"), || {
                let wasm = std::fs::read(spec)
                    .map_err(|e| format!("cannot read the verifier component {spec:?}: {e}"))?;
                self.compile(spec, &wasm)
            });
        }
        Err(format!(
            "unknown verifier {spec:?}: use a built-in ({}) or a path to a .wasm component",
            builtin::names()
        ))
    }

    fn load_once(&self, key: &str, load: impl FnOnce() -> Loaded) -> Loaded {
        let slot = self
            .loaded
            .lock()
            .expect("registry lock")
            .entry(key.to_string())
            .or_default()
            .clone();
        slot.get_or_init(load).clone()
    }

    fn compile(&self, name: &str, wasm: &[u8]) -> Loaded {
        let component = self
            .cache
            .load(&self.engine, wasm)
            .map_err(|e| format!("verifier {name:?}: {e:#}"))?;
        VerifierComponent::new(name, &component, &self.linker, self.runners.clone())
            .map(Arc::new)
            .map_err(|e| format!("{e:#}"))
    }
}

fn looks_like_path(spec: &str) -> bool {
    spec.ends_with(".wasm")
        || spec.contains(std::path::MAIN_SEPARATOR)
        || spec.contains('/')
        || Path::new(spec).is_file()
}
