//! The code reads from the bottom up.
//!
//! - Crates stand on floors: every crate of every workspace in the repository (found with `cargo
//!   metadata`: the host workspace, the verifiers, the guests, the test guests) names its floor
//!   in the first line of its crate documentation (`//! Floor 2 of rewardbox: ...`, or a
//!   build-only / test-only helper), and depends only on crates of its own floor or below.
//! - In every crate, no source file imports (through `crate::...`) from a file that imports it
//!   back, directly or around a circle.
//! - In the engine (`crates/rewardbox`), no layer imports from a layer above its own (runners <
//!   host < scoring, see its `src/lib.rs`; the sandbox core below them is a crate of its own).
//!
//! The module graph is read from the sources: each `crate::a::b` path, and each relative path
//! into a submodule (`job::Job` in `sandbox/mod.rs`), names the module file it reaches (the
//! longest module prefix that is a file of the crate). A `mod` declaration is not an import; a
//! `use` of a submodule's item is, and so is a submodule's use of its parent's.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspaces of the repository, relative to its root (each has its own lockfile).
const WORKSPACES: &[&str] = &[
    ".",
    "verifiers",
    "guests/js",
    "guests/monty",
    "tests/guests",
    "crates/rewardbox-ts-strip",
];

/// The engine's layers, bottom first: a module under `src/<dir>/` is in that layer; the crate
/// root's own files form the top layer.
const ENGINE_LAYERS: &[&str] = &["runners", "host"];

/// One crate of the repository, as `cargo metadata` describes it.
struct Crate {
    name: String,
    /// Its library's (or else its binary's) root source file.
    root: PathBuf,
    /// The crates of this repository it depends on (normal and build dependencies), each with
    /// whether it is a build dependency.
    depends_on: Vec<(String, bool)>,
}

/// Every crate of every workspace in the repository.
fn crates() -> Vec<Crate> {
    let mut found = Vec::new();
    for workspace_dir in WORKSPACES {
        let manifest = crate::common::repo_root()
            .join(workspace_dir)
            .join("Cargo.toml");
        let output = std::process::Command::new(env!("CARGO"))
            .args([
                "metadata",
                "--no-deps",
                "--offline",
                "--format-version",
                "1",
            ])
            .arg("--manifest-path")
            .arg(&manifest)
            .output()
            .expect("cargo runs");
        assert!(
            output.status.success(),
            "cargo metadata for {}: {}",
            manifest.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        let metadata: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON");
        for package in metadata["packages"].as_array().expect("packages") {
            let targets = package["targets"].as_array().expect("targets");
            let kind_is = |target: &serde_json::Value, kind: &str| {
                target["kind"].as_array().is_some_and(|kinds| {
                    kinds
                        .iter()
                        .any(|k| k == kind || k == "cdylib" && kind == "lib")
                })
            };
            let Some(target) = targets
                .iter()
                .find(|t| kind_is(t, "lib"))
                .or_else(|| targets.iter().find(|t| kind_is(t, "bin")))
            else {
                continue;
            };
            let depends_on = package["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter(|d| d["path"].is_string() && d["kind"] != "dev")
                .map(|d| {
                    let name = d["name"].as_str().expect("a name").to_string();
                    (name, d["kind"] == "build")
                })
                .collect();
            found.push(Crate {
                name: package["name"].as_str().expect("a name").to_string(),
                root: PathBuf::from(target["src_path"].as_str().expect("src_path")),
                depends_on,
            });
        }
    }
    found
}

/// The floor a crate's documentation names in its first line: `Some(n)` for `Floor n of
/// rewardbox`, `None` for a build-only or test-only helper (which stands outside the floors).
fn floor(krate: &Crate) -> Result<Option<u32>, String> {
    let text = std::fs::read_to_string(&krate.root).map_err(|e| e.to_string())?;
    let first = text
        .lines()
        .find(|l| l.starts_with("//!"))
        .unwrap_or_default()
        .trim_start_matches("//!")
        .trim();
    if first.starts_with("Build-only helper") || first.starts_with("Test-only helper") {
        return Ok(None);
    }
    first
        .strip_prefix("Floor ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .map(Some)
        .ok_or_else(|| {
            format!(
                "{}: the first line of {} must name its floor (`//! Floor N of rewardbox: ...`, \
                 or `//! Build-only helper ...` / `//! Test-only helper ...`), not {first:?}",
                krate.name,
                krate.root.display()
            )
        })
}

/// Every `.rs` file under `dir`, by module path (`sandbox::job`, `lib` for the crate root).
fn modules(src: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).expect("a source directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(&path, src, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(src).expect("under src");
                let mut parts: Vec<String> = relative
                    .with_extension("")
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if parts.last().is_some_and(|p| p == "mod") {
                    parts.pop();
                }
                let name = if parts == ["lib"] || parts == ["main"] {
                    "lib".to_string()
                } else {
                    parts.join("::")
                };
                let text = std::fs::read_to_string(&path).expect("a readable source file");
                out.insert(name, text);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// The modules `text` (the source of module `me`) imports: through `crate::` paths, and through
/// relative paths into its own submodules.
fn imports(me: &str, text: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let longest = |segments: &[&str]| {
        (1..=segments.len())
            .rev()
            .map(|n| segments[..n].join("::"))
            .find(|m| known.contains(m))
    };
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let trimmed = code.trim_start();
        if trimmed.starts_with("mod ") || trimmed.starts_with("pub mod ") {
            continue;
        }
        let chars: Vec<char> = code.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let starts_word = (chars[i].is_ascii_lowercase() || chars[i] == '_')
                && (i == 0
                    || !(chars[i - 1].is_alphanumeric()
                        || chars[i - 1] == '_'
                        || chars[i - 1] == ':'));
            if !starts_word {
                i += 1;
                continue;
            }
            let path: String = chars[i..]
                .iter()
                .take_while(|c| c.is_alphanumeric() || **c == '_' || **c == ':')
                .collect();
            i += path.chars().count().max(1);
            let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            if !path.contains("::") || segments.is_empty() {
                continue;
            }
            let target = if segments[0] == "crate" {
                longest(&segments[1..])
            } else {
                // A relative path from `me` into one of its submodules.
                let base = if me == "lib" {
                    String::new()
                } else {
                    format!("{me}::")
                };
                let absolute: Vec<String> = base
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .chain(segments.iter().map(|s| s.to_string()))
                    .collect();
                let absolute: Vec<&str> = absolute.iter().map(String::as_str).collect();
                longest(&absolute).filter(|m| me == "lib" || m.starts_with(&base))
            };
            if let Some(target) = target
                && target != me
            {
                found.insert(target);
            }
        }
    }
    found
}

/// A circle in `graph`, if there is one, as the modules around it.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                1 => {
                    let start = stack.iter().position(|n| n == next).expect("on the stack");
                    let mut found = stack[start..].to_vec();
                    found.push(next.clone());
                    return Some(found);
                }
                0 => {
                    if let Some(found) = visit(next, graph, state, stack) {
                        return Some(found);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node.as_str()).copied().unwrap_or(0) == 0 {
            let mut stack = Vec::new();
            if let Some(found) = visit(node, graph, &mut state, &mut stack) {
                return Some(found);
            }
        }
    }
    None
}

fn graph_of(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let sources = modules(src);
    let known: BTreeSet<String> = sources.keys().cloned().collect();
    sources
        .iter()
        .map(|(name, text)| (name.clone(), imports(name, text, &known)))
        .collect()
}

/// The groups of modules that import each other around circles (strongly connected components
/// with more than one module).
fn tangles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reaches = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(node) = stack.pop() {
            for next in graph.get(&node).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reach: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|k| (k, reaches(k))).collect();
    let mut groups: Vec<BTreeSet<String>> = Vec::new();
    for node in graph.keys() {
        if groups.iter().any(|g| g.contains(node)) {
            continue;
        }
        let group: BTreeSet<String> = graph
            .keys()
            .filter(|other| {
                *other == node || (reach[node].contains(*other) && reach[*other].contains(node))
            })
            .cloned()
            .collect();
        if group.len() > 1 {
            groups.push(group);
        }
    }
    groups
}

#[test]
fn no_crate_has_a_circle_of_imports() {
    let mut found = Vec::new();
    for krate in crates() {
        let graph = graph_of(krate.root.parent().expect("a source directory"));
        for group in tangles(&graph) {
            let example = circle(&graph).unwrap_or_default().join(" -> ");
            found.push(format!(
                "{}: {} import each other (e.g. {example})",
                krate.name,
                group.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    assert!(
        found.is_empty(),
        "circles of imports:\n{}",
        found.join("\n")
    );
}

#[test]
fn every_crate_names_its_floor_and_depends_only_downward() {
    let crates = crates();
    assert!(
        crates.len() >= 20,
        "cargo metadata found {} crates; the repository has more than 20",
        crates.len()
    );
    let mut problems = Vec::new();
    let mut floors = BTreeMap::new();
    for krate in &crates {
        match floor(krate) {
            Ok(floor) => {
                floors.insert(krate.name.clone(), floor);
            }
            Err(problem) => problems.push(problem),
        }
    }
    for krate in &crates {
        let Some(Some(own)) = floors.get(&krate.name) else {
            continue;
        };
        for (dependency, at_build) in &krate.depends_on {
            if let Some(Some(theirs)) = floors.get(dependency)
                && theirs > own
            {
                problems.push(format!(
                    "{} (floor {own}) depends on {dependency} (floor {theirs}), a floor above",
                    krate.name
                ));
            }
            if let Some(None) = floors.get(dependency)
                && !at_build
            {
                problems.push(format!(
                    "{} depends on {dependency}, a build-only or test-only helper, outside its \
                     build- or dev-dependencies",
                    krate.name
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every crate documents every public item, so its root denies missing docs; the components
/// whose bindings a generator writes at their root (wit-bindgen) are the exception.
#[test]
fn every_crate_denies_missing_docs() {
    let mut undocumented = Vec::new();
    for krate in crates() {
        let text = std::fs::read_to_string(&krate.root).expect("a crate root");
        let generated = text.contains("wit_bindgen::generate!");
        if !generated && !text.contains("#![deny(missing_docs)]") {
            undocumented.push(format!("{} ({})", krate.name, krate.root.display()));
        }
    }
    assert!(
        undocumented.is_empty(),
        "crate roots without #![deny(missing_docs)]:\n{}",
        undocumented.join("\n")
    );
}

#[test]
fn engine_layers_import_only_downward() {
    let layer = |module: &str| -> usize {
        let top = module.split("::").next().unwrap_or(module);
        ENGINE_LAYERS
            .iter()
            .position(|l| *l == top)
            .unwrap_or(ENGINE_LAYERS.len())
    };
    let mut upward = Vec::new();
    for (module, imported) in graph_of(&crate::common::repo_root().join("crates/rewardbox/src")) {
        for target in imported {
            if layer(&target) > layer(&module) {
                upward.push(format!("{module} imports {target}"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports from a layer above:\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_checker_finds_a_circle_and_an_upward_import() {
    let known: BTreeSet<String> = ["a", "b", "sandbox::job", "host"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut graph = BTreeMap::new();
    graph.insert(
        "a".to_string(),
        imports("a", "use crate::b::Thing;", &known),
    );
    graph.insert(
        "b".to_string(),
        imports("b", "fn f() { crate::a::g() }", &known),
    );
    assert_eq!(
        circle(&graph),
        Some(vec!["a".to_string(), "b".to_string(), "a".to_string()])
    );
    let job = imports(
        "sandbox::job",
        "use crate::host::HostContext; // crate::a",
        &known,
    );
    assert_eq!(job, BTreeSet::from(["host".to_string()]));
}
