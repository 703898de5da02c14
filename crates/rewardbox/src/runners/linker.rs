//! The linker of candidate instances: WASI (its filesystem only what the job mounts), sleeps that
//! cost fuel and never wait, a compiled program's exit with its code, and nothing else. A runtime's imports of rewardbox's own
//! interfaces (the CPython component imports the host's `sandbox` interface, which only trusted
//! instances get) trap when a candidate calls them.

use rewardbox_sandbox::JobState;
use rewardbox_toolchains::{EXIT_INTERFACE, METER_INTERFACE};
use wasmtime::Engine;
use wasmtime::component::types::ComponentItem;
use wasmtime::component::{Component, Linker, ResourceType};

/// The namespace of rewardbox's own interfaces in `wit/`.
const OWN_INTERFACES: &str = "rewardbox:";

/// The store state of a candidate's instance: the sandbox core's, with nothing of the layers
/// above.
pub type CandidateState = JobState<()>;

/// A linker for candidate instances of `component` on `engine`: WASI and charged sleeps, and every
/// other import of `component` (if given) a trap.
pub fn candidate_linker(
    engine: &Engine,
    component: Option<&Component>,
) -> anyhow::Result<Linker<CandidateState>> {
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
        .map_err(|e| anyhow::anyhow!("linking WASI for candidates: {e}"))?;
    rewardbox_sandbox::job::link_channels(&mut linker)
        .map_err(|e| anyhow::anyhow!("linking channel files for managers: {e}"))?;
    rewardbox_sandbox::sleep::charge_sleeps(&mut linker)
        .map_err(|e| anyhow::anyhow!("linking charged sleeps for candidates: {e}"))?;
    link_exit_codes(&mut linker)
        .map_err(|e| anyhow::anyhow!("linking the exit interface for candidates: {e}"))?;
    if let Some(component) = component {
        trap_own_imports(&mut linker, engine, component)
            .map_err(|e| anyhow::anyhow!("stubbing a runtime's trusted imports: {e:#}"))?;
    }
    Ok(linker)
}

/// The interface through which a compiled program's `exit(code)` arrives (the toolchains route
/// `proc_exit` to it): the run ends with `code` as a native process's status, 0-255.
fn link_exit_codes(linker: &mut Linker<CandidateState>) -> anyhow::Result<()> {
    linker.instance(EXIT_INTERFACE)?.func_wrap(
        "exit",
        |_, (code,): (u32,)| -> wasmtime::Result<()> {
            Err(wasmtime_wasi::I32Exit((code & 0xff) as i32).into())
        },
    )?;
    Ok(())
}

/// The meter of a program made native code by the baseline compiler (the toolchains call it
/// before each bulk instruction, see `rewardbox_toolchains`'s `meter`): `charge(n)` charges what
/// Cranelift charges the instruction, `1 + n`, before it runs. The call's own unit stands for the
/// instruction's, which Winch charges after the call, so the host takes `n - 1` more; the run ends
/// out of fuel where Cranelift's would, when the fuel left before the call is below `1 + n`. Only
/// the baseline compiler's linker has it: on Cranelift the length is charged already.
pub fn link_meter(linker: &mut Linker<CandidateState>) -> anyhow::Result<()> {
    linker.instance(METER_INTERFACE)?.func_wrap(
        "charge",
        |mut store: wasmtime::StoreContextMut<'_, CandidateState>,
         (units,): (u32,)|
         -> wasmtime::Result<(u32,)> {
            // Left after the call's unit; the instruction's unit is still to come.
            let left = store.get_fuel()?;
            match (left + 1).checked_sub(u64::from(units)) {
                Some(after) if after >= 1 => {
                    store.set_fuel(after)?;
                    Ok((units,))
                }
                _ => {
                    store.set_fuel(0)?;
                    Err(wasmtime::Trap::OutOfFuel.into())
                }
            }
        },
    )?;
    Ok(())
}

/// Defines every function of `component`'s imports of rewardbox's own interfaces as a trap, and
/// their resource types as types no candidate can make. WASI is left as linked: stubbing it would
/// shadow the real functions for an older WASI version the component names.
fn trap_own_imports(
    linker: &mut Linker<CandidateState>,
    engine: &Engine,
    component: &Component,
) -> anyhow::Result<()> {
    let ty = component.component_type();
    for (name, import) in ty.imports(engine) {
        let ComponentItem::ComponentInstance(instance) = import.ty else {
            continue;
        };
        if !name.starts_with(OWN_INTERFACES) || name == EXIT_INTERFACE {
            continue;
        }
        let mut stub = linker.instance(name)?;
        for (export, item) in instance.exports(engine) {
            match item.ty {
                ComponentItem::ComponentFunc(_) => {
                    let what = format!("{name}#{export}");
                    stub.func_new(export, move |_, _, _, _| {
                        wasmtime::bail!("a candidate may not call the host's `{what}`")
                    })?;
                }
                ComponentItem::Resource(_) => {
                    stub.resource(export, ResourceType::host::<()>(), |_, _| Ok(()))?;
                }
                _ => {}
            }
        }
    }
    Ok(())
}
