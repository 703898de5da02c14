//! The compiled-component cache: `.cwasm` files on disk, keyed by the component's content hash and
//! the engine's compatibility hash, so that the second run starts in milliseconds.
//!
//! Files are written to a temporary name and renamed into place, so concurrent processes never see
//! a half-written file; a file that fails to load (truncated, from another wasmtime) is rebuilt.
//! The directory is kept within a size budget (`REWARDBOX_CACHE_MAX_MB`, least recently used
//! first; see `rewardbox_toolchains::disk_cache`).

use rewardbox_toolchains::disk_cache as prune;
use rewardbox_toolchains::one_time;
use sha2::{Digest, Sha256};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use wasmtime::Engine;
use wasmtime::component::Component;

/// Where compiled components are kept, or nowhere.
#[derive(Debug, Clone)]
pub struct ComponentCache {
    dir: Option<PathBuf>,
}

impl ComponentCache {
    /// A cache in `dir`, created on first use.
    pub fn in_dir(dir: impl Into<PathBuf>) -> Self {
        ComponentCache {
            dir: Some(dir.into()),
        }
    }

    /// No cache: every process compiles what it uses.
    pub fn disabled() -> Self {
        ComponentCache { dir: None }
    }

    /// The user's cache: `$REWARDBOX_CACHE_DIR`, else `$XDG_CACHE_HOME/rewardbox`, else
    /// `~/.cache/rewardbox`; disabled when none of them is set.
    pub fn user_default() -> Self {
        let env = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let dir = env("REWARDBOX_CACHE_DIR")
            .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("rewardbox")))
            .or_else(|| env("HOME").map(|d| d.join(".cache").join("rewardbox")));
        ComponentCache { dir }
    }

    /// The cache directory, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Whether the compiled form of `wasm` for `engine` is in the cache.
    pub fn contains(&self, engine: &Engine, wasm: &[u8]) -> bool {
        self.contains_derived(engine, wasm, "")
    }

    /// Whether the compiled form of what [`ComponentCache::load_derived`] makes of `wasm` under
    /// `tag` is in the cache.
    pub fn contains_derived(&self, engine: &Engine, wasm: &[u8], tag: &str) -> bool {
        self.dir
            .as_ref()
            .is_some_and(|dir| dir.join(cache_file_name(engine, wasm, tag)).is_file())
    }

    /// The compiled form of `wasm` for `engine`, from the cache when present, else compiled (and
    /// stored when the cache is writable; a cache that cannot be written is skipped, not fatal).
    /// Compiling a large component takes seconds: that is announced on stderr, once.
    pub fn load(&self, engine: &Engine, wasm: &[u8]) -> anyhow::Result<Component> {
        self.load_derived(engine, wasm, "", |wasm| Ok(wasm.to_vec()))
    }

    /// The compiled form of what `derive` makes of `wasm` (a pre-initialized snapshot of it),
    /// cached under `wasm`'s hash and `tag`, so that a process finding it cached neither derives
    /// nor compiles. `derive` runs only on a miss.
    pub fn load_derived(
        &self,
        engine: &Engine,
        wasm: &[u8],
        tag: &str,
        derive: impl FnOnce(&[u8]) -> anyhow::Result<Vec<u8>>,
    ) -> anyhow::Result<Component> {
        let Some(path) = self
            .dir
            .as_ref()
            .map(|dir| dir.join(cache_file_name(engine, wasm, tag)))
        else {
            announce_compile(wasm, None);
            return compile(engine, &derive(wasm)?);
        };
        // Read into memory rather than mmap the file: a cache file truncated by another process
        // while mapped would kill this one with SIGBUS.
        if let Ok(cached) = std::fs::read(&path) {
            // SAFETY: the file was written by `Engine::precompile_component` of an engine with the
            // same compatibility hash (its name says so), into the user's own cache directory;
            // wasmtime checks its header and rejects a file from another engine or truncated.
            if let Ok(component) = unsafe { Component::deserialize(engine, &cached) } {
                prune::touch(&path);
                return Ok(component);
            }
        }
        announce_compile(wasm, self.dir.as_deref());
        let compiled = one_time::timed(|| {
            engine
                .precompile_component(&derive(wasm)?)
                .map_err(|e| anyhow::anyhow!("could not compile the component: {e}"))
        })?;
        if let Err(e) = write_atomically(&path, &compiled) {
            eprintln!(
                "rewardbox: warning: could not write the component cache at {}: {e}",
                path.display()
            );
        } else if let (Some(dir), Some(max)) = (self.dir.as_deref(), prune::max_bytes()) {
            let pruned = prune::prune(dir, max, Some(&path));
            if pruned.files > 0 {
                eprintln!(
                    "rewardbox: the cache at {} was over its budget of {} MB \
                     (REWARDBOX_CACHE_MAX_MB): removed {} least recently used files, {} MB",
                    dir.display(),
                    max >> 20,
                    pruned.files,
                    pruned.bytes >> 20
                );
            }
        }
        // SAFETY: `compiled` was produced by `precompile_component` of this very engine.
        unsafe { Component::deserialize(engine, &compiled) }
            .map_err(|e| anyhow::anyhow!("could not load the compiled component: {e}"))
    }
}

/// Components at least this large take long enough to compile that the user is told why nothing
/// seems to happen (the CPython runtime: about 20 MB, about 15 s on 2 cores).
const ANNOUNCE_BYTES: usize = 4 << 20;

fn announce_compile(wasm: &[u8], dir: Option<&Path>) {
    if wasm.len() < ANNOUNCE_BYTES {
        return;
    }
    let size = wasm.len() as f64 / (1024.0 * 1024.0);
    match dir {
        Some(dir) => eprintln!(
            "rewardbox: compiling a {size:.0} MB component to native code, once (about 15 s); \
             later runs load it from {}",
            dir.display()
        ),
        None => eprintln!(
            "rewardbox: compiling a {size:.0} MB component to native code (about 15 s; no cache, \
             so every run does this)"
        ),
    }
}

fn compile(engine: &Engine, wasm: &[u8]) -> anyhow::Result<Component> {
    Component::new(engine, wasm)
        .map_err(|e| anyhow::anyhow!("could not compile the component: {e}"))
}

/// `<content sha256, 32 hex digits>-<engine compatibility hash>.cwasm`; a derived form's content
/// hash also covers its tag.
fn cache_file_name(engine: &Engine, wasm: &[u8], tag: &str) -> String {
    let mut content = Sha256::new();
    content.update(wasm);
    if !tag.is_empty() {
        content.update(b"\0derived:");
        content.update(tag.as_bytes());
    }
    let content = content.finalize();
    let content: String = content[..16].iter().map(|b| format!("{b:02x}")).collect();
    let mut hasher = DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    format!("{content}-{:016x}.cwasm", hasher.finish())
}

/// The cache directory may not exist yet; the write itself is the compiled-program cache's
/// (a unique temp file renamed into place).
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .expect("cache files live in the cache directory");
    std::fs::create_dir_all(dir)?;
    rewardbox_toolchains::disk_cache::write_atomically(path, bytes)
}
