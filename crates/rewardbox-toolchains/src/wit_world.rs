//! The WIT a rewritten module carries, so that the component it is adapted into imports
//! rewardbox's own interfaces (the exit code's, the meter's) from the host.

/// Embeds `world` of the WIT package `wit` (named `file` in its parser's errors) into `module` as
/// the component type its adaptation reads. `what` names the interface in the error.
pub fn embed_world(
    module: &mut Vec<u8>,
    file: &str,
    wit: &str,
    world: &str,
    what: &str,
) -> Result<(), String> {
    let mut resolve = wit_parser::Resolve::default();
    let package = resolve
        .push_str(file, wit)
        .map_err(|e| format!("{what}'s WIT: {e:#}"))?;
    let world = resolve
        .select_world(&[package], Some(world))
        .map_err(|e| format!("{what}'s world: {e:#}"))?;
    wit_component::embed_component_metadata(
        module,
        &resolve,
        world,
        wit_component::StringEncoding::UTF8,
        false,
    )
    .map_err(|e| format!("embedding {what}: {e:#}"))
}
