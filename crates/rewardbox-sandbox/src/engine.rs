//! Once per process: the wasmtime [`Engine`] (pooling allocator, copy-on-write memory images,
//! fuel, epoch interruption) and the ticker thread that drives the epoch.

use crate::function_cache::FunctionCache;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};
use std::thread::JoinHandle;
use std::time::Duration;
use wasmtime::{
    Config, Enabled, Engine, InstanceAllocationStrategy, OptLevel, PoolingAllocationConfig,
};

/// How often the ticker thread advances the engine's epoch. Wall-clock limits are rounded up to
/// whole ticks.
pub const EPOCH_TICK: Duration = Duration::from_millis(1);

/// Bytes of each linear memory and table kept mapped when a pooled slot is reused. A fresh CPython
/// instance runs as fast with 1 MiB kept as with 16 (about 1,900 `print(1)` runs/s on two
/// threads; none kept halves it), but every slot that has been used holds this much: with 16 MiB a
/// server grew in 16 MiB steps as bursts woke slots; with 4 it stays within 3% of idle
/// (`crates/rewardbox-cli/tests/all/memory.rs`, `cargo bench --bench python_runner`).
const KEEP_RESIDENT_BYTES: usize = 4 << 20;

/// Decommits gathered before one batch of system calls: none, each slot is given back when its
/// instance is dropped. A batch holds on to everything its instances dirtied past
/// [`KEEP_RESIDENT_BYTES`] until it fills: with 64, a server running 48 MB programs held 1.4 GB
/// after a burst and peaked at 2.3 GB with two programs at a time (`crates/rewardbox-cli/tests/all/memory.rs`); with one,
/// it returns to its idle level, for about 2% of the fresh-instance rate (`cargo bench --bench
/// python_runner`).
const DECOMMIT_BATCH: usize = 1;

/// The native stack a guest's wasm may use (wasmtime's default is 512 KiB). CPython in wasm
/// guards its C recursion by its own (linear-memory) stack and raises `RecursionError` there, as
/// native CPython does; but wasm frames live on the native stack, and the deepest paths measured
/// (`str` of 200,000 nested dicts, a Python recursion under `sys.setrecursionlimit(10**6)`) need
/// more than 128 MiB of it to reach CPython's guard. With less, the stack overflowed first and a
/// verifier's `except RecursionError` never ran. Reserved address space only: a guest touches
/// what it uses.
pub const WASM_STACK_BYTES: usize = 256 << 20;

/// The stack of a thread that runs guests: the guest's [`WASM_STACK_BYTES`] and the host's frames
/// around it. The scorer's threads and the server's are made with it; on any other thread a guest
/// runs on a thread of its own (see [`crate::stack`]).
pub const THREAD_STACK_BYTES: usize = 320 << 20;

/// Component instances the pool holds per thread when the caller does not say: a verifier, a
/// Python verifier it runs, a few live candidates and their runs.
pub const DEFAULT_INSTANCES_PER_THREAD: u32 = 8;

/// The functions every engine of the process has compiled (Cranelift's key holds its settings,
/// so engines configured apart share it safely).
static COMPILED_FUNCTIONS: LazyLock<Arc<FunctionCache>> = LazyLock::new(Default::default);

/// Turns on Cranelift's incremental compilation cache, in memory for the process.
fn reuse_compiled_functions(config: &mut Config) -> anyhow::Result<()> {
    config
        .enable_incremental_compilation(COMPILED_FUNCTIONS.clone())
        .map(|_| ())
        .map_err(|e| anyhow::anyhow!("could not enable the compiled-function cache: {e}"))
}

/// Builds the engine. `concurrency` is the number of threads that will run jobs at once, each with
/// at most `instances_per_thread` component instances alive; the pooling allocator is sized for it.
pub fn build_engine(concurrency: usize, instances_per_thread: u32) -> anyhow::Result<Engine> {
    build_engine_with_fuel(concurrency, instances_per_thread, true)
}

/// Builds the engine with fuel metering on or off. Without fuel, only the wall-clock limit bounds
/// a run; rewardbox always meters fuel, and the benchmarks use this to measure what metering costs.
pub fn build_engine_with_fuel(
    concurrency: usize,
    instances_per_thread: u32,
    fuel: bool,
) -> anyhow::Result<Engine> {
    let components = (concurrency as u32).max(1) * instances_per_thread.max(1) + 8;
    let mut pool = PoolingAllocationConfig::default();
    pool.total_component_instances(components)
        // A CPython component made by componentize-py holds about 14 core instances.
        .max_core_instances_per_component(64)
        .total_core_instances(components * 32)
        .max_memories_per_component(8)
        // A compiled C, C++ or Rust program's own memory and its stack ledger
        // (`rewardbox-toolchains`'s stack module).
        .max_memories_per_module(2)
        .total_memories(components * 4)
        .max_tables_per_component(32)
        .total_tables(components * 16)
        .table_elements(200_000)
        .max_memory_size(1 << 32)
        .max_component_instance_size(1 << 20)
        .max_core_instance_size(1 << 20)
        // Instantiation is the cost to kill: reset a used slot by rewriting only the pages the
        // last instance dirtied (PAGEMAP_SCAN, Linux 6.7+) instead of unmapping them, so the next
        // instance takes no page faults (keeping nothing resident halves the fresh-instance
        // rate), and decommit the rest at once.
        .pagemap_scan(Enabled::Auto)
        // Exception objects (C++ `throw`) live in a GC heap: at most one per component instance.
        .total_gc_heaps(components)
        .linear_memory_keep_resident(KEEP_RESIDENT_BYTES)
        .table_keep_resident(KEEP_RESIDENT_BYTES)
        .decommit_batch_size(DECOMMIT_BATCH);

    let mut config = Config::new();
    exceptions_only(&mut config);
    reuse_compiled_functions(&mut config)?;
    config
        .wasm_component_model(true)
        .consume_fuel(fuel)
        .epoch_interruption(true)
        .cranelift_opt_level(OptLevel::Speed)
        .parallel_compilation(true)
        .max_wasm_stack(WASM_STACK_BYTES)
        // wasmtime requires room for the wasm stack on a fiber's stack, used or not.
        .async_stack_size(WASM_STACK_BYTES + (1 << 20))
        .allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    Engine::new(&config).map_err(|e| anyhow::anyhow!("could not create the wasmtime engine: {e}"))
}

/// The exception-handling proposal (compiled C++ programs throw and catch with it), and none of the
/// GC proposal's types: an instance's GC heap (made on its first throw, reserved as a linear memory
/// is, the pooling allocator requires) holds only the exceptions in flight.
fn exceptions_only(config: &mut Config) {
    config.wasm_exceptions(true).wasm_gc(false);
}

/// Builds the engine for long-lived instances held by the thousand (sessions): each instance maps
/// its own memory (copy-on-write from the compiled image) instead of taking a slot of a fixed
/// pool, with a 1 GiB reservation per memory (sessions are limited far below it).
pub fn build_session_engine() -> anyhow::Result<Engine> {
    let mut config = Config::new();
    exceptions_only(&mut config);
    reuse_compiled_functions(&mut config)?;
    config
        .wasm_component_model(true)
        .consume_fuel(true)
        .epoch_interruption(true)
        .cranelift_opt_level(OptLevel::Speed)
        .parallel_compilation(true)
        .max_wasm_stack(WASM_STACK_BYTES)
        .async_stack_size(WASM_STACK_BYTES + (1 << 20))
        .memory_reservation(1 << 30)
        .memory_guard_size(32 << 20)
        .memory_init_cow(true)
        .allocation_strategy(InstanceAllocationStrategy::OnDemand);
    Engine::new(&config)
        .map_err(|e| anyhow::anyhow!("could not create the wasmtime engine for sessions: {e}"))
}

/// Builds the engine of Go programs: wasmtime's baseline compiler (Winch) instead of Cranelift.
///
/// A Go program carries its 2.6 MB runtime, and each distinct program was about a second of
/// Cranelift (translating and hashing every function to find most of them in the function cache)
/// for a run that takes milliseconds; Winch makes the same module native code in about a sixth of
/// Cranelift's time without that cache (docs/reference/performance.md). Every verdict is decided as
/// on Cranelift: fuel is counted per operator alike (this module's tests), except that Winch
/// charges `memory.copy`, `memory.fill` and the like their flat cost where Cranelift adds a unit
/// per byte; the toolchains route those instructions' lengths through a host meter for exactly
/// the modules that run here (`rewardbox_toolchains::runs_on_baseline_compiler`), so a Go
/// program's fuel is Cranelift's to the unit. Memory is held by the same limiter, and Go keeps
/// its goroutine stacks in its own linear memory, so the native stack a wasm frame takes does not
/// decide a Go program's depth.
///
/// Go only, and deliberately not C, C++ or Rust: C++ throws with the exception-handling proposal,
/// which Winch does not compile, and C's and Rust's recursion lives on the native stack, where a
/// Winch frame differs in size from a Cranelift one: the depth at which a program overflows would
/// depend on the compiler. One compiler per language, never chosen per run, so a program's
/// verdict never depends on which tier ran it.
///
/// Instances are allocated on demand (no second pool beside [`build_engine`]'s): a Go program's
/// instance costs its mapping once per run.
pub fn build_baseline_engine() -> anyhow::Result<Engine> {
    let mut config = Config::new();
    config
        .strategy(wasmtime::Strategy::Winch)
        .wasm_exceptions(false)
        .wasm_gc(false)
        .wasm_component_model(true)
        .consume_fuel(true)
        .epoch_interruption(true)
        .parallel_compilation(true)
        .max_wasm_stack(WASM_STACK_BYTES)
        .async_stack_size(WASM_STACK_BYTES + (1 << 20))
        .memory_init_cow(true)
        .allocation_strategy(InstanceAllocationStrategy::OnDemand);
    Engine::new(&config).map_err(|e| {
        anyhow::anyhow!("could not create the wasmtime engine of the baseline compiler: {e}")
    })
}

/// Advances an engine's epoch every [`EPOCH_TICK`] on a thread of its own, until dropped.
pub struct EpochTicker {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl EpochTicker {
    /// Starts ticking `engine`.
    pub fn start(engine: &Engine) -> EpochTicker {
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let engine = engine.clone();
            let stop = stop.clone();
            std::thread::Builder::new()
                .name("rewardbox-epoch".into())
                .spawn(move || {
                    // A sleep lasts at least its duration, often more: count ticks by the clock,
                    // not by the sleeps, so that wall-clock limits are wall-clock time.
                    let started = std::time::Instant::now();
                    let mut ticks: u128 = 0;
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(EPOCH_TICK);
                        let due = started.elapsed().as_nanos() / EPOCH_TICK.as_nanos();
                        while ticks < due {
                            engine.increment_epoch();
                            ticks += 1;
                        }
                    }
                })
                .expect("spawning the epoch ticker thread")
        };
        EpochTicker {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for EpochTicker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The number of epoch ticks that covers `wall_ms`, plus one so that a deadline never fires early.
pub fn ticks_for(wall_ms: u64) -> u64 {
    let tick_ms = EPOCH_TICK.as_millis().max(1) as u64;
    wall_ms.div_ceil(tick_ms) + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{
        BlockType, CodeSection, ExportKind, ExportSection, Function, FunctionSection,
        Instruction as I, Module, TypeSection, ValType,
    };
    use wasmtime::{Instance, Store, Trap};

    /// A module exporting `run(n) -> i32`: nested loops, a call, branches taken and not, so that
    /// fuel is counted through every kind of control flow.
    fn busy_module() -> Vec<u8> {
        let mut types = TypeSection::new();
        types.ty().function([ValType::I32], [ValType::I32]);
        let mut functions = FunctionSection::new();
        functions.function(0).function(0);
        let mut exports = ExportSection::new();
        exports.export("run", ExportKind::Func, 0);
        let mut code = CodeSection::new();
        // run(n): acc = 0; for i in n..0 { acc += step(i) } return acc
        let mut run = Function::new([(2, ValType::I32)]);
        for i in [
            I::Block(BlockType::Empty),
            I::Loop(BlockType::Empty),
            I::LocalGet(0),
            I::I32Eqz,
            I::BrIf(1),
            I::LocalGet(1),
            I::LocalGet(0),
            I::Call(1),
            I::I32Add,
            I::LocalSet(1),
            I::LocalGet(0),
            I::I32Const(1),
            I::I32Sub,
            I::LocalSet(0),
            I::Br(0),
            I::End,
            I::End,
            I::LocalGet(1),
            I::End,
        ] {
            run.instruction(&i);
        }
        code.function(&run);
        // step(i): odd i -> i * 3 + 1, even i -> i / 2 (a branch either way), then a short loop.
        let mut step = Function::new([(1, ValType::I32)]);
        for i in [
            I::LocalGet(0),
            I::I32Const(1),
            I::I32And,
            I::If(BlockType::Result(ValType::I32)),
            I::LocalGet(0),
            I::I32Const(3),
            I::I32Mul,
            I::I32Const(1),
            I::I32Add,
            I::Else,
            I::LocalGet(0),
            I::I32Const(1),
            I::I32ShrU,
            I::End,
            I::LocalSet(1),
            I::Loop(BlockType::Empty),
            I::LocalGet(1),
            I::I32Const(7),
            I::I32RemU,
            I::I32Eqz,
            I::If(BlockType::Empty),
            I::Else,
            I::LocalGet(1),
            I::I32Const(1),
            I::I32Add,
            I::LocalSet(1),
            I::Br(1),
            I::End,
            I::End,
            I::LocalGet(1),
            I::End,
        ] {
            step.instruction(&i);
        }
        code.function(&step);
        let mut module = Module::new();
        module
            .section(&types)
            .section(&functions)
            .section(&exports)
            .section(&code);
        module.finish()
    }

    /// `run(n)` on `engine` with `fuel`: its result (or trap) and the fuel it used.
    fn run(engine: &Engine, n: i32, fuel: u64) -> (Result<i32, Option<Trap>>, u64) {
        let module = wasmtime::Module::new(engine, busy_module()).unwrap();
        let mut store = Store::new(engine, ());
        store.set_fuel(fuel).unwrap();
        store.set_epoch_deadline(u64::MAX / 2);
        let instance = Instance::new(&mut store, &module, &[]).unwrap();
        let run = instance
            .get_typed_func::<i32, i32>(&mut store, "run")
            .unwrap();
        let result = run
            .call(&mut store, n)
            .map_err(|e| e.downcast_ref::<Trap>().copied());
        (result, fuel - store.get_fuel().unwrap())
    }

    /// The premise of running Go on the baseline compiler: a program uses the same fuel, to the
    /// unit, as on Cranelift, and runs out of it at the same point, so a time limit (fuel) gives
    /// the same verdict on either.
    #[test]
    fn the_baseline_compiler_counts_fuel_as_cranelift_does() {
        let cranelift = build_engine(1, 1).unwrap();
        let baseline = build_baseline_engine().unwrap();
        for n in [0, 1, 2, 7, 1_000, 123_457] {
            let on_cranelift = run(&cranelift, n, u64::MAX / 4);
            assert!(on_cranelift.0.is_ok(), "{n}: {on_cranelift:?}");
            assert!(
                on_cranelift.1 > n as u64,
                "{n}: fuel is counted: {on_cranelift:?}"
            );
            assert_eq!(run(&baseline, n, u64::MAX / 4), on_cranelift, "run({n})");
        }
        // Cut short at several budgets: the same trap, all the fuel used, on both.
        for fuel in [1, 50, 4_321, 1_000_000] {
            let on_cranelift = run(&cranelift, 123_457, fuel);
            assert_eq!(on_cranelift, (Err(Some(Trap::OutOfFuel)), fuel), "{fuel}");
            assert_eq!(run(&baseline, 123_457, fuel), on_cranelift, "{fuel}");
        }
    }
}
