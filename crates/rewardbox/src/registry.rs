//! Resolves a task's `"verifier"` to a ready verifier: a built-in name, a path to a `.wasm`
//! component implementing the `verifier` world, `python` with the task's `verifier_code`, or a
//! path to a `.py` file. Each is compiled (or loaded from the cache) and linked once per process,
//! on first use (a Python verifier once per distinct source), and shared by every thread.

use crate::builtin;
use crate::host::HostServices;
use crate::task::Task;
use crate::verifier::{Judge, PythonVerifier, VerifierComponent};
use rewardbox_sandbox::cache::ComponentCache;
use rewardbox_sandbox::limits::Limits;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::io::Read;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

/// Which paths a task's `"verifier"` may name (a component or a Python file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifierPaths {
    /// Any path this process can read (the CLI and library: the user's own files).
    Any,
    /// Only files inside this directory, named relative to it (a server's operator allows them).
    Within(std::path::PathBuf),
    /// None: built-ins and `python` with `verifier_code` only (a server without an allowed
    /// directory).
    Forbidden,
}

type Loaded = Result<Arc<dyn Judge>, String>;

/// The largest verifier file read: a component (`.wasm`) or a Python verifier (`.py`).
pub const MAX_VERIFIER_FILE_BYTES: u64 = 64 << 20;

/// Verifiers from task-given Python sources (`verifier_code`) kept loaded at once: every
/// distinct source is compiled and held, so a stream of distinct sources forgets the oldest.
pub const MAX_LOADED_SOURCES: usize = 256;

/// Every verifier this process has loaded, by name or path.
pub struct VerifierRegistry {
    services: Arc<HostServices>,
    cache: ComponentCache,
    limits: Limits,
    paths: VerifierPaths,
    loaded: Mutex<LoadedVerifiers>,
}

/// Loaded verifiers by key, with the order in which task-given sources were loaded.
#[derive(Default)]
struct LoadedVerifiers {
    by_key: HashMap<String, Arc<OnceLock<Loaded>>>,
    sources: VecDeque<String>,
}

impl VerifierRegistry {
    /// A registry whose verifiers are compiled for, linked with and served by `services`, cached in
    /// `cache`; Python verifiers are compiled with `limits`; tasks may name verifier files as
    /// `paths` allows.
    pub fn new(
        services: Arc<HostServices>,
        cache: ComponentCache,
        limits: Limits,
        paths: VerifierPaths,
    ) -> Self {
        VerifierRegistry {
            services,
            cache,
            limits,
            paths,
            loaded: Mutex::default(),
        }
    }

    /// What the verifiers are offered: the runners of their candidates, the trusted CPython.
    pub fn services(&self) -> &Arc<HostServices> {
        &self.services
    }

    /// The file `spec` names, as the path policy allows.
    fn allowed_path(&self, spec: &str) -> Result<std::path::PathBuf, String> {
        match &self.paths {
            VerifierPaths::Any => Ok(Path::new(spec).to_path_buf()),
            VerifierPaths::Forbidden => Err(format!(
                "verifier files are not allowed here ({spec:?}): use a built-in ({}) or \
                 \"python\" with \"verifier_code\"",
                builtin::names()
            )),
            VerifierPaths::Within(dir) => {
                let relative = Path::new(spec);
                let plain = relative
                    .components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)));
                let resolved = dir.join(relative);
                let inside = plain
                    && match (resolved.canonicalize(), dir.canonicalize()) {
                        (Ok(file), Ok(root)) => file.starts_with(root),
                        _ => false,
                    };
                if inside {
                    Ok(resolved)
                } else {
                    Err(format!(
                        "{spec:?} is not a verifier file of the allowed directory (name one \
                         relative to it, without '..')"
                    ))
                }
            }
        }
    }

    /// The verifier of `task`: its `"verifier"`, with its `verifier_code` for `python`.
    pub fn resolve_task(&self, task: &Task) -> Loaded {
        match (&task.verifier[..], &task.verifier_code) {
            ("python", Some(source)) => {
                let digest: String = Sha256::digest(source.as_bytes())[..16]
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                self.load_once(&format!("{SOURCE_KEY}{digest}"), || {
                    PythonVerifier::new("python", source, self.services.clone(), &self.limits)
                        .map(|v| Arc::new(v) as Arc<dyn Judge>)
                        .map_err(|e| format!("\"verifier_code\" cannot be used: {e}"))
                })
            }
            (spec, _) => self.resolve(spec),
        }
    }

    /// The verifier a task names. The error says what was wrong and what is accepted.
    pub fn resolve(&self, spec: &str) -> Loaded {
        if let Some(found) = builtin::find(spec) {
            return self.load_once(&format!("builtin:{}", found.component), || {
                self.compile(spec, found.wasm)
            });
        }
        if spec.ends_with(".py") {
            let path = self.allowed_path(spec)?;
            return self.load_once(&format!("python-path:{}", path.display()), || {
                let source = read_verifier_file(&path)
                    .and_then(|bytes| {
                        String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".into())
                    })
                    .map_err(|e| format!("cannot read the Python verifier {spec:?}: {e}"))?;
                PythonVerifier::new(spec, &source, self.services.clone(), &self.limits)
                    .map(|v| Arc::new(v) as Arc<dyn Judge>)
                    .map_err(|e| format!("the Python verifier {spec:?} cannot be used: {e}"))
            });
        }
        if looks_like_path(spec) {
            let path = self.allowed_path(spec)?;
            return self.load_once(&format!("path:{}", path.display()), || {
                let wasm = read_verifier_file(&path)
                    .map_err(|e| format!("cannot read the verifier component {spec:?}: {e}"))?;
                self.compile(spec, &wasm)
            });
        }
        Err(format!(
            "unknown verifier {spec:?}: use a built-in ({}), \"python\" with \"verifier_code\", \
             or a path to a .wasm component or a .py verifier",
            builtin::names()
        ))
    }

    fn load_once(&self, key: &str, load: impl FnOnce() -> Loaded) -> Loaded {
        let slot = {
            let mut loaded = self.loaded.lock().expect("registry lock");
            let LoadedVerifiers { by_key, sources } = &mut *loaded;
            by_key
                .entry(key.to_string())
                .or_insert_with(|| {
                    if key.starts_with(SOURCE_KEY) {
                        sources.push_back(key.to_string());
                    }
                    Arc::default()
                })
                .clone()
        };
        let result = slot.get_or_init(load).clone();
        let mut loaded = self.loaded.lock().expect("registry lock");
        while loaded.sources.len() > MAX_LOADED_SOURCES {
            if let Some(oldest) = loaded.sources.pop_front() {
                loaded.by_key.remove(&oldest);
            }
        }
        result
    }

    /// How many verifiers from task-given sources are loaded now.
    pub fn loaded_sources(&self) -> usize {
        self.loaded.lock().expect("registry lock").sources.len()
    }

    fn compile(&self, name: &str, wasm: &[u8]) -> Loaded {
        let component = self
            .cache
            .load(self.services.engine(), wasm)
            .map_err(|e| format!("verifier {name:?}: {e:#}"))?;
        VerifierComponent::new(name, &component, self.services.clone())
            .map(|v| Arc::new(v) as Arc<dyn Judge>)
            .map_err(|e| format!("{e:#}"))
    }
}

/// The key prefix of verifiers loaded from a task's `verifier_code`.
const SOURCE_KEY: &str = "python:";

/// Reads a verifier file: a regular file of at most [`MAX_VERIFIER_FILE_BYTES`]. Opened without
/// blocking, so that a FIFO or a device named as a verifier is refused at once instead of
/// hanging the request or reading forever.
fn read_verifier_file(path: &Path) -> Result<Vec<u8>, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("it is not a regular file".into());
    }
    if meta.len() > MAX_VERIFIER_FILE_BYTES {
        return Err(format!(
            "it is {} bytes, above the limit of {MAX_VERIFIER_FILE_BYTES}",
            meta.len()
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_VERIFIER_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_VERIFIER_FILE_BYTES {
        return Err(format!(
            "it grew above the limit of {MAX_VERIFIER_FILE_BYTES} bytes"
        ));
    }
    Ok(bytes)
}

fn looks_like_path(spec: &str) -> bool {
    spec.ends_with(".wasm")
        || spec.contains(std::path::MAIN_SEPARATOR)
        || spec.contains('/')
        || Path::new(spec).exists()
}
