//! Runner components made ready before their first run: the host instantiates the component
//! once, calls its set-up export (the JavaScript runner's `prepare-engine`: Boa's context with
//! Node's surroundings), and snapshots the instance's memory and globals into a new component
//! with Wizer. Every run then starts from the snapshot (a copy-on-write image) instead of
//! repeating the set-up. The snapshot is compiled and cached like any component
//! ([`ComponentCache::load_derived`]), so this happens once per cache.

use crate::runners::linker::candidate_linker;
use rewardbox_sandbox::Job;
use rewardbox_sandbox::cache::ComponentCache;
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::limits::Limits;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use wasmtime::component::{Component, Instance, Lift, WasmList};
use wasmtime::{Engine, Store};
use wasmtime_wizer::{ComponentInstanceState, Wizer};

/// `wasm` compiled for `engine` after `init` (a function export taking and returning nothing) has
/// run in it, from `cache` when there.
pub fn load_prepared(
    engine: &Engine,
    cache: &ComponentCache,
    wasm: &[u8],
    init: &str,
) -> anyhow::Result<Component> {
    cache.load_derived(engine, wasm, init, |wasm| {
        snapshot_after(engine, wasm, init)
    })
}

/// The component `wasm` is once `init` has run in a candidate's surroundings (standard input
/// empty, a fixed seed, the frozen clocks of a candidate): what `init` reads of them is frozen in
/// the snapshot, so it must read none.
pub fn snapshot_after(engine: &Engine, wasm: &[u8], init: &str) -> anyhow::Result<Vec<u8>> {
    let mut wizer = Wizer::new();
    // The export stays: removing it breaks Rust components in wasmtime-wizer 48 (its
    // `rust_regex` test keeps it too). Calling it again in a run only sets up a fresh engine.
    wizer.init_func(init).keep_init_func(true);
    let (context, instrumented) = wizer
        .instrument_component(wasm)
        .map_err(|e| anyhow::anyhow!("instrumenting the component for its snapshot: {e:#}"))?;
    let component = Component::new(engine, &instrumented)
        .map_err(|e| anyhow::anyhow!("compiling the component to snapshot: {e:#}"))?;
    let linker = candidate_linker(engine, Some(&component))?;
    // The set-up is the runner's own code: ten times a verifier's fuel, and time to spare on a
    // machine busy compiling.
    let limits = Limits {
        fuel: 10_000_000_000,
        wall_ms: 600_000,
        ..Limits::VERIFIER_DEFAULT
    };
    let mut job = Job::with_io(engine, &limits, 0, JobIo::default(), ());
    let instance = linker
        .instantiate(&mut job.store, &component)
        .map_err(|e| anyhow::anyhow!("instantiating the component to snapshot: {e:#}"))?;
    instance
        .get_typed_func::<(), ()>(&mut job.store, init)
        .and_then(|set_up| set_up.call(&mut job.store, ()))
        .map_err(|e| anyhow::anyhow!("running `{init}` before the snapshot: {e:#}"))?;
    let mut state = Snapshotted {
        store: &mut job.store,
        instance,
    };
    finish(wizer.snapshot_component(&context, &mut state))
        .map_err(|e| anyhow::anyhow!("snapshotting the component after `{init}`: {e:#}"))
}

/// The instance being snapshotted, read through the accessors Wizer's instrumentation exports.
struct Snapshotted<'a, T: 'static> {
    store: &'a mut Store<T>,
    instance: Instance,
}

impl<T: Send> Snapshotted<'_, T> {
    /// Calls `func` of the exported `instance` (one of Wizer's accessors) and hands `use_result`
    /// what it returned. The accessors exist by construction: a missing one is Wizer's bug.
    fn read<R: Lift + 'static, U>(
        &mut self,
        instance: &str,
        func: &str,
        use_result: impl FnOnce(&Store<T>, R) -> U,
    ) -> U {
        let (_, exported) = self
            .instance
            .get_export(&mut *self.store, None, instance)
            .expect("wizer's instrumentation exports its accessor instance");
        let (_, func_index) = self
            .instance
            .get_export(&mut *self.store, Some(&exported), func)
            .expect("wizer's accessor instance exports each accessor");
        let func = self
            .instance
            .get_typed_func::<(), (R,)>(&mut *self.store, func_index)
            .expect("wizer's accessors have the types it asks for");
        let (result,) = func
            .call(&mut *self.store, ())
            .expect("wizer's accessors only read the instance");
        use_result(self.store, result)
    }
}

impl<T: Send> ComponentInstanceState for Snapshotted<'_, T> {
    fn call_func_ret_list_u8(
        &mut self,
        instance: &str,
        func: &str,
        contents: impl FnOnce(&[u8]) + Send,
    ) -> impl Future<Output = ()> + Send {
        self.read(instance, func, |store, list: WasmList<u8>| {
            contents(list.as_le_slice(store))
        });
        std::future::ready(())
    }

    fn call_func_ret_s32(
        &mut self,
        instance: &str,
        func: &str,
    ) -> impl Future<Output = i32> + Send {
        std::future::ready(self.read(instance, func, |_, value: i32| value))
    }

    fn call_func_ret_s64(
        &mut self,
        instance: &str,
        func: &str,
    ) -> impl Future<Output = i64> + Send {
        std::future::ready(self.read(instance, func, |_, value: i64| value))
    }

    fn call_func_ret_f32(
        &mut self,
        instance: &str,
        func: &str,
    ) -> impl Future<Output = u32> + Send {
        std::future::ready(self.read(instance, func, |_, value: f32| value.to_bits()))
    }

    fn call_func_ret_f64(
        &mut self,
        instance: &str,
        func: &str,
    ) -> impl Future<Output = u64> + Send {
        std::future::ready(self.read(instance, func, |_, value: f64| value.to_bits()))
    }
}

/// Runs `future` to its end on this thread. Wizer's snapshot is written as async code, but every
/// read above is ready at once, so one poll finishes it: no executor (and no tokio worker, where
/// the synchronous WASI of candidates must not run) is needed.
fn finish<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => unreachable!("the snapshot's reads are all ready at once"),
    }
}
