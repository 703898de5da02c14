//! The differential judge of a JavaScript or TypeScript test file (`tests.jest`,
//! `tests.node_test`): the calls the file's tests make of the candidate's functions, and what they
//! do with the objects they make of its classes, recorded by running them on the task's solution
//! (`test_file_calls.js`); inputs made from those calls' arguments (`differential_inputs.py`) and
//! replays of what the tests did with each object, changed; and the solution's results on them,
//! appended to the file as tests in its own framework that the completion must pass with the
//! file's own.

use super::judge::{Generated, MAX_LITERAL, Power, made_arguments, strongest};
use super::rng::Rng;
use rewardbox::Scorer;
use rewardbox::candidates::CANDIDATE_DEFAULT;
use serde_json::{Value, json};

/// Runs a test file's tests on the solution, recording their calls (see the module's text).
const RECORDER: &str = include_str!("test_file_calls.js");

/// One call the tests made of the solution's module, or one made for them: the function's name
/// (`default`: the module itself), its arguments and the solution's result.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
struct Call {
    function: String,
    args: Vec<Value>,
    result: Value,
}

/// What a test did with an object it made of one of the module's classes (`default`: the class
/// the module is), or a replay made from it: the constructor's arguments, then each step.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize)]
struct Trace {
    class: String,
    args: Vec<Value>,
    steps: Vec<Step>,
}

/// One step of a [`Trace`]: a method called, a property read or written.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(untagged)]
enum Step {
    Call { method: String, args: Vec<Value> },
    Get { get: String },
    Set { set: String, value: Value },
}

/// A line the recorder prints: an object's trace, or a call.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Recorded {
    Trace(Trace),
    Call(Call),
}

/// A generated test: a call of a function with the solution's result, or a replay with the
/// solution's result of each step (`None`: done, not checked).
#[derive(Debug, Clone)]
enum FileTest {
    Call(Call),
    Replay(Trace, Vec<Option<Value>>),
}

/// The most replays made from the recorded traces before the solution runs them.
const MOST_REPLAYS: usize = 160;

/// The test `file` (of `framework`: `jest` or `node_test`) with up to `most` tests appended, each
/// calling one of the candidate's functions on an input made from the arguments the file's own
/// tests pass it and wanting the solution's result, or replaying what a test did with an object
/// (ending with a read of each value of it that the `prompt` names); the judge's power. `None`
/// when the tests call no function with plain JSON arguments that returns a plain JSON value,
/// or no input could be made.
pub(super) fn test_file_differential(
    scorer: &Scorer,
    language: &str,
    framework: &str,
    file: &crate::program::TestFile<'_>,
    solution: &str,
    prompt: Option<&str>,
    most: usize,
) -> Option<(String, Power)> {
    let (source, module) = (file.source, file.module);
    let runners = scorer.runners();
    let run = |program: String| {
        scorer.install(|| runners.run(language, &program, "", &CANDIDATE_DEFAULT, 0))
    };
    let recorder_framework = if framework == "jest" { "jest" } else { "node" };
    let record_spec = json!({"mode": "record", "module": module, "framework": recorder_framework,
                             "prompt": prompt});
    let mut recorded: Vec<Call> = Vec::new();
    let mut traces: Vec<Trace> = Vec::new();
    for line in run(program(&record_spec, solution, Some(source)))
        .stdout
        .lines()
    {
        match serde_json::from_str(line) {
            Ok(Recorded::Call(call)) => recorded.push(call),
            Ok(Recorded::Trace(trace)) => traces.push(trace),
            Err(_) => {}
        }
    }
    // The functions called, in the order the tests first call them, with their visible calls.
    let mut functions: Vec<(String, Vec<&Call>)> = Vec::new();
    for call in &recorded {
        match functions
            .iter_mut()
            .find(|(name, _)| *name == call.function)
        {
            Some((_, calls)) => calls.push(call),
            None => functions.push((call.function.clone(), vec![call])),
        }
    }
    let mut made: Vec<(String, Vec<Value>)> = Vec::new();
    for (name, calls) in &functions {
        let visible: Vec<&Vec<Value>> = calls.iter().map(|c| &c.args).collect();
        made.extend(
            made_arguments(scorer, &visible, most)
                .into_iter()
                .filter_map(|args| Some((name.clone(), args.as_array()?.clone()))),
        );
    }
    // The recorded traces first (what the tests' own objects answer), then the replays.
    let mut replays: Vec<Trace> = traces.clone();
    replays.extend(replays_of(scorer, &traces, most));
    if made.is_empty() && replays.len() == traces.len() {
        return None;
    }
    let calls: Vec<Value> = made
        .iter()
        .map(|(function, args)| json!({"function": function, "args": args}))
        .collect();
    let evaluate_spec = json!({"mode": "evaluate", "module": module, "framework": recorder_framework,
                               "calls": calls, "traces": replays});
    let evaluated: Vec<Value> = run(program(&evaluate_spec, solution, None))
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .collect();
    let results: Vec<(usize, Value)> = evaluated
        .iter()
        .filter_map(|l| Some((l.get("index")?.as_u64()? as usize, l.get("result")?.clone())))
        .filter(|(_, result)| result.to_string().len() <= MAX_LITERAL)
        .collect();
    let mut generated: Vec<Generated<FileTest>> = results
        .into_iter()
        .filter_map(|(index, result)| {
            let (function, args) = made.get(index)?.clone();
            let new = !recorded
                .iter()
                .any(|c| c.function == function && c.result == result);
            Some(Generated {
                output: format!("{function}: {result}"),
                new,
                case: FileTest::Call(Call {
                    function,
                    args,
                    result,
                }),
            })
        })
        .collect();
    // Each replay's checked results; the tests' own objects' are what is visible.
    let replayed: Vec<(usize, Vec<Option<Value>>)> = evaluated
        .iter()
        .filter_map(|l| {
            let index = l.get("trace")?.as_u64()? as usize;
            let results = l.get("results")?.as_array()?;
            let checked = results
                .iter()
                .map(|r| {
                    Some(r.clone()).filter(|r| !r.is_null() && r.to_string().len() <= MAX_LITERAL)
                })
                .collect();
            Some((index, checked))
        })
        .collect();
    let shown = |trace: &Trace, results: &[Option<Value>]| {
        let checked: Vec<&Value> = results.iter().flatten().collect();
        format!("{}: {}", trace.class, json!(checked))
    };
    let visible: Vec<String> = replayed
        .iter()
        .filter(|(index, _)| *index < traces.len())
        .map(|(index, results)| shown(&traces[*index], results))
        .collect();
    for (index, results) in replayed {
        if index < traces.len() || results.iter().all(Option::is_none) {
            continue;
        }
        let Some(trace) = replays.get(index) else {
            continue;
        };
        let output = shown(trace, &results);
        generated.push(Generated {
            new: !visible.contains(&output),
            output,
            case: FileTest::Replay(trace.clone(), results),
        });
    }
    let (chosen, power) = strongest(generated, most);
    if chosen.is_empty() {
        return None;
    }
    Some((
        with_generated_tests(source, framework, module, &chosen),
        power,
    ))
}

/// Replays made from `traces` (what the tests did with their objects): one argument list changed
/// at a time (a method's, or the constructor's) to one made from the arguments the tests gave it,
/// a step done twice or left out, two traces of a class on one object, then several argument
/// lists changed at once (drawn from a source seeded by the traces). At most [`MOST_REPLAYS`],
/// none twice, none a trace itself.
fn replays_of(scorer: &Scorer, traces: &[Trace], most: usize) -> Vec<Trace> {
    use std::collections::BTreeMap;
    // Argument lists made per method, and per class for the constructor.
    let mut seen: BTreeMap<&str, Vec<&Vec<Value>>> = BTreeMap::new();
    let mut inits: BTreeMap<&str, Vec<&Vec<Value>>> = BTreeMap::new();
    for trace in traces {
        inits.entry(&trace.class).or_default().push(&trace.args);
        for step in &trace.steps {
            if let Step::Call { method, args } = step {
                seen.entry(method).or_default().push(args);
            }
        }
    }
    let made = |visible: Vec<&Vec<Value>>| -> Vec<Vec<Value>> {
        let mut distinct: Vec<&Vec<Value>> = Vec::new();
        for v in visible {
            if !distinct.contains(&v) {
                distinct.push(v);
            }
        }
        made_arguments(scorer, &distinct, most)
            .into_iter()
            .filter_map(|a| a.as_array().cloned())
            .collect()
    };
    let made_for: BTreeMap<&str, Vec<Vec<Value>>> =
        seen.into_iter().map(|(m, v)| (m, made(v))).collect();
    let inits_for: BTreeMap<&str, Vec<Vec<Value>>> =
        inits.into_iter().map(|(c, v)| (c, made(v))).collect();
    let mut out: Vec<Trace> = Vec::new();
    let offer = |trace: Trace, out: &mut Vec<Trace>| {
        if out.len() < MOST_REPLAYS && !traces.contains(&trace) && !out.contains(&trace) {
            out.push(trace);
        }
    };
    for trace in traces {
        for (i, step) in trace.steps.iter().enumerate() {
            if let Step::Call { method, .. } = step {
                for args in made_for.get(method.as_str()).into_iter().flatten().take(4) {
                    let mut changed = trace.clone();
                    changed.steps[i] = Step::Call {
                        method: method.clone(),
                        args: args.clone(),
                    };
                    offer(changed, &mut out);
                }
            }
        }
        for args in inits_for
            .get(trace.class.as_str())
            .into_iter()
            .flatten()
            .take(4)
        {
            offer(
                Trace {
                    args: args.clone(),
                    ..trace.clone()
                },
                &mut out,
            );
        }
        // The sequence's own shape: a step done twice, a step left out.
        for i in 0..trace.steps.len() {
            let mut twice = trace.clone();
            twice.steps.insert(i, trace.steps[i].clone());
            offer(twice, &mut out);
            if trace.steps.len() > 1 {
                let mut fewer = trace.clone();
                fewer.steps.remove(i);
                offer(fewer, &mut out);
            }
        }
    }
    // Two traces' steps on one object.
    for first in traces {
        for then in traces {
            if first != then && first.class == then.class {
                let mut both = first.clone();
                both.steps.extend(then.steps.iter().cloned());
                offer(both, &mut out);
            }
        }
    }
    let mut rng = Rng::new(
        serde_json::to_string(traces)
            .unwrap_or_default()
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))),
        5,
    );
    if !traces.is_empty() {
        for _ in 0..most * 2 {
            let mut mixed = traces[rng.next_u32() as usize % traces.len()].clone();
            for step in &mut mixed.steps {
                if let Step::Call { method, args } = step {
                    let options = made_for.get(method.as_str()).map_or(&[][..], Vec::as_slice);
                    if !options.is_empty() && rng.next_u32().is_multiple_of(2) {
                        *args = options[rng.next_u32() as usize % options.len()].clone();
                    }
                }
            }
            offer(mixed, &mut out);
        }
    }
    out
}

/// The recorder's program: the recorder with its spec, the solution inside a function (as a
/// script: see [`as_script`]) and, when recording, the test file inside another, its `require`
/// the recorder's.
fn program(spec: &Value, solution: &str, test_file: Option<&str>) -> String {
    let mut program = format!(
        "const __rb_tier5 = ({})({spec});\n\
         (function (module, exports, require, __rb_esm) {{\n{}\n;\
         __rb_tier5.setScope((__rb_name) => {{ try {{ return eval(__rb_name); }} catch (__rb_e) {{ return undefined; }} }});\n\
         }})(__rb_tier5.solutionModule, __rb_tier5.solutionModule.exports, require, __rb_tier5.esm);\n",
        RECORDER.trim_end(),
        as_script(solution)
    );
    match test_file {
        Some(test) => program.push_str(&format!(
            "(async function (require) {{\n{}\n}})(__rb_tier5.require)\
             .catch(() => {{}}).then(() => __rb_tier5.run());\n",
            as_script(test)
        )),
        None => program.push_str("__rb_tier5.run();\n"),
    }
    program
}

/// Whether `source` is an ES module: a statement at the start of a line imports or exports.
fn is_es_module(source: &str) -> bool {
    source.lines().any(|line| {
        let line = line.trim_start();
        ["import", "export"].iter().any(|word| {
            line.strip_prefix(word)
                .is_some_and(|rest| rest.starts_with([' ', '\t', '{', '*', '\'', '"']))
        })
    })
}

/// `source` (an ES module or a script) as a script run inside a function: each `import` a
/// `require` of the same module (`import x from` its default: see the recorder's `defaultOf`;
/// a TypeScript `import type` dropped); each exported declaration a declaration (the recorder
/// finds it in the function's scope), `export default` and `export { a as b }` set on
/// `__rb_esm`, a re-export dropped. What is not at the start of a line stays as it is.
fn as_script(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + 64);
    let mut rest = source;
    let mut defaults: Vec<String> = Vec::new();
    while !rest.is_empty() {
        let line_end = rest.find('\n').map_or(rest.len(), |i| i + 1);
        let indent = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        let statement = &rest[indent..];
        if let Some((script, used)) = import_statement(statement) {
            out.push_str(&rest[..indent]);
            out.push_str(&script);
            rest = &rest[indent + used..];
            continue;
        }
        if let Some(after) = statement.strip_prefix("export ") {
            let after = after.trim_start();
            out.push_str(&rest[..indent]);
            if let Some(value) = after.strip_prefix("default ") {
                let value = value.trim_start();
                let name: Option<String> = ["function ", "async function ", "class "]
                    .iter()
                    .find_map(|k| value.strip_prefix(k))
                    .map(|n| {
                        n.trim_start_matches('*')
                            .trim_start()
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                            .collect()
                    })
                    .filter(|n: &String| !n.is_empty());
                match name {
                    Some(name) => defaults.push(name),
                    None => out.push_str("__rb_esm.default = "),
                }
                rest = value;
            } else if after.starts_with('{') || after.starts_with('*') {
                match export_list(after) {
                    Some(ExportList { names, from, used }) => {
                        if !from {
                            for (local, exported) in names {
                                out.push_str(&format!(
                                    "__rb_esm[{}] = {local}; ",
                                    js_string(&exported)
                                ));
                            }
                        }
                        rest = &after[used..];
                    }
                    None => {
                        out.push_str(&rest[indent..line_end]);
                        rest = &rest[line_end..];
                    }
                }
            } else if let Some(value) = after.strip_prefix("= ") {
                out.push_str("module.exports = ");
                rest = value;
            } else {
                // An exported declaration: the declaration.
                rest = after;
            }
            continue;
        }
        out.push_str(&rest[..line_end]);
        rest = &rest[line_end..];
    }
    for name in defaults {
        out.push_str(&format!("\n;__rb_esm.default = {name};"));
    }
    out
}

/// `text` as a JavaScript string literal.
fn js_string(text: &str) -> String {
    Value::from(text).to_string()
}

/// The quoted string at the start of `text` (after spaces): its contents and the length used.
fn quoted(text: &str) -> Option<(&str, usize)> {
    let start = text.len() - text.trim_start().len();
    let quote = text[start..]
        .chars()
        .next()
        .filter(|c| *c == '\'' || *c == '"')?;
    let end = text[start + 1..].find(quote)?;
    Some((&text[start + 1..start + 1 + end], start + end + 2))
}

/// The length of what ends a statement at the start of `text`: an import assertion (`with {
/// ... }`, `assert { ... }`) and a semicolon, when they come.
fn statement_end(text: &str) -> usize {
    let mut used = 0;
    let trimmed = text.trim_start_matches([' ', '\t']);
    let spaces = text.len() - trimmed.len();
    for keyword in ["with", "assert"] {
        if let Some(after) = trimmed.strip_prefix(keyword)
            && after.trim_start().starts_with('{')
            && let Some(close) = after.find('}')
        {
            used = spaces + keyword.len() + close + 1;
            break;
        }
    }
    let after = &text[used..];
    let semicolon = after.trim_start_matches([' ', '\t']);
    if semicolon.starts_with(';') {
        used += after.len() - semicolon.len() + 1;
    }
    used
}

/// An `import` statement at the start of `text` as a script's statement, and the length of
/// `text` it took; `None` when `text` does not start with one (`import(...)`, `import.meta`).
fn import_statement(text: &str) -> Option<(String, usize)> {
    let after = text.strip_prefix("import")?;
    if !after.starts_with([' ', '\t', '\n', '{', '*', '\'', '"']) {
        return None;
    }
    let body_start = text.len() - after.trim_start().len();
    let body = &text[body_start..];
    // A bare import: `import 'x';`
    if let Some((specifier, used)) = quoted(body) {
        let end = body_start + used + statement_end(&body[used..]);
        return Some((format!("require({});", js_string(specifier)), end));
    }
    // The clause, up to `from` outside braces.
    let mut depth = 0usize;
    let mut from_at = None;
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ';' | '\'' | '"' if depth == 0 => return None,
            _ if depth == 0
                && body[i..].starts_with("from")
                && body[..i].ends_with([' ', '\t', '\n', '}'])
                && body[i + 4..].starts_with([' ', '\t', '\'', '"']) =>
            {
                from_at = Some(i);
                break;
            }
            _ => {}
        }
    }
    let from_at = from_at?;
    let clause = body[..from_at].trim();
    let (specifier, used) = quoted(&body[from_at + 4..])?;
    let after = from_at + 4 + used;
    let end = body_start + after + statement_end(&body[after..]);
    let module = format!("require({})", js_string(specifier));
    if clause.starts_with("type ") || clause.starts_with("type{") {
        return Some((String::new(), end));
    }
    let mut parts: Vec<String> = Vec::new();
    let (default, rest) = match clause.find(['{', '*']) {
        Some(at) => (
            clause[..at].trim().trim_end_matches(',').trim(),
            &clause[at..],
        ),
        None => (clause, ""),
    };
    if !default.is_empty() {
        parts.push(format!("const {default} = __rb_tier5.defaultOf({module});"));
    }
    let rest = rest.trim();
    if let Some(namespace) = rest.strip_prefix('*') {
        let name = namespace.trim().strip_prefix("as")?.trim();
        parts.push(format!("const {name} = {module};"));
    } else if let Some(list) = rest.strip_prefix('{') {
        let list = list.trim_end().strip_suffix('}')?;
        let items: Vec<String> = renamed(list)
            .into_iter()
            .map(|(name, local)| match name == local {
                true => name,
                false => format!("{name}: {local}"),
            })
            .collect();
        if !items.is_empty() {
            parts.push(format!("const {{ {} }} = {module};", items.join(", ")));
        }
    }
    Some((parts.join(" "), end))
}

/// The names of an import's or export's braces (`a, b as c, type T`, without the braces): each
/// (name, what it is called as), TypeScript's types left out.
fn renamed(list: &str) -> Vec<(String, String)> {
    list.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty() && !item.starts_with("type "))
        .map(|item| match item.split_once(" as ") {
            Some((name, alias)) => (name.trim().to_string(), alias.trim().to_string()),
            None => (item.to_string(), item.to_string()),
        })
        .collect()
}

/// An export list (`{ a, b as c }`, `* from 'x'`).
struct ExportList {
    /// Each (local, exported) name.
    names: Vec<(String, String)>,
    /// It re-exports from another module.
    from: bool,
    /// The length of text it took.
    used: usize,
}

/// The export list at the start of `text`.
fn export_list(text: &str) -> Option<ExportList> {
    let (names, mut used) = if text.starts_with('*') {
        (Vec::new(), 1)
    } else {
        let close = text.find('}')?;
        (renamed(&text[1..close]), close + 1)
    };
    let after = &text[used..];
    let trimmed = after.trim_start();
    let from = trimmed.starts_with("from") && {
        let skipped = after.len() - trimmed.len() + 4;
        match quoted(&after[skipped..]) {
            Some((_, q)) => {
                used += skipped + q;
                true
            }
            None => false,
        }
    };
    used += statement_end(&text[used..]);
    Some(ExportList { names, from, used })
}

/// How a generated test compares the candidate's result with the solution's: numbers that are
/// not integers within a relative 1e-6, arrays and objects item by item, anything else `===`
/// (results cross from the candidate as themselves).
const SAME: &str = "function __rb_same(a, b) {\n\
  if (typeof b === 'number' && typeof a === 'number' && !Number.isInteger(b)) {\n\
    return Math.abs(a - b) <= 1e-9 + 1e-6 * Math.abs(b);\n\
  }\n\
  if (Array.isArray(b)) {\n\
    return Array.isArray(a) && a.length === b.length && b.every((x, i) => __rb_same(a[i], x));\n\
  }\n\
  if (b !== null && typeof b === 'object') {\n\
    if (a === null || typeof a !== 'object' || Array.isArray(a)) return false;\n\
    const keys = Object.keys(b);\n\
    return Object.keys(a).length === keys.length && keys.every((k) => Object.prototype.hasOwnProperty.call(a, k) && __rb_same(a[k], b[k]));\n\
  }\n\
  return a === b;\n\
}\n\
function __rb_check(got, expected) {\n\
  if (!__rb_same(got, expected)) {\n\
    throw new Error('expected ' + JSON.stringify(expected) + ', got ' + JSON.stringify(got));\n\
  }\n\
}\n";

/// The test file with `chosen` appended as tests of its framework, importing what they call as
/// the file imports the candidate (an ES module imports, a script requires).
fn with_generated_tests(
    source: &str,
    framework: &str,
    module: &str,
    chosen: &[FileTest],
) -> String {
    let es_module = is_es_module(source);
    let framework_module = if framework == "jest" {
        "@jest/globals"
    } else {
        "node:test"
    };
    let specifier = js_string(&format!("./{module}"));
    let framework_module = js_string(framework_module);
    // The module's functions and classes the tests use.
    let mut functions: Vec<&str> = Vec::new();
    for test in chosen {
        let name = match test {
            FileTest::Call(call) => &call.function,
            FileTest::Replay(trace, _) => &trace.class,
        };
        if !functions.contains(&name.as_str()) {
            functions.push(name);
        }
    }
    // What each function is called as.
    let callee = |function: &str| -> String {
        let at = functions.iter().position(|f| *f == function).unwrap_or(0);
        match (es_module, function) {
            (true, "default") => "__rb_default".to_string(),
            (true, _) => format!("__rb_f{at}"),
            (false, "default") => "__rb_m".to_string(),
            (false, name) => format!("__rb_m[{}]", js_string(name)),
        }
    };
    let mut out = source.trim_end().to_string();
    out.push_str("\n\n// Tier 5's differential tests: the solution's results on new inputs.\n");
    if es_module {
        let named: Vec<String> = functions
            .iter()
            .enumerate()
            .filter(|(_, f)| **f != "default")
            .map(|(at, f)| format!("{f} as __rb_f{at}"))
            .collect();
        if !named.is_empty() {
            out.push_str(&format!(
                "import {{ {} }} from {specifier};\n",
                named.join(", ")
            ));
        }
        if functions.contains(&"default") {
            out.push_str(&format!("import __rb_default from {specifier};\n"));
        }
        out.push_str(&format!(
            "import {{ test as __rb_test }} from {framework_module};\n"
        ));
    } else {
        out.push_str(&format!("const __rb_m = require({specifier});\n"));
        out.push_str(&format!(
            "const {{ test: __rb_test }} = require({framework_module});\n"
        ));
    }
    out.push_str(SAME);
    let listed = |args: &[Value]| {
        args.iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (i, test) in chosen.iter().enumerate() {
        match test {
            FileTest::Call(call) => out.push_str(&format!(
                "__rb_test('rewardbox generated {i:02}: {}', () => {{\n  __rb_check({}({}), {});\n}});\n",
                call.function,
                callee(&call.function),
                listed(&call.args),
                call.result
            )),
            FileTest::Replay(trace, results) => {
                let mut body = format!(
                    "  const __rb_o = new ({})({});\n",
                    callee(&trace.class),
                    listed(&trace.args)
                );
                for (step, result) in trace.steps.iter().zip(results) {
                    let done = match step {
                        Step::Call { method, args } => {
                            format!("__rb_o[{}]({})", js_string(method), listed(args))
                        }
                        Step::Get { get } => format!("__rb_o[{}]", js_string(get)),
                        Step::Set { set, value } => {
                            format!("__rb_o[{}] = {value}", js_string(set))
                        }
                    };
                    body.push_str(&match result {
                        Some(expected) => format!("  __rb_check({done}, {expected});\n"),
                        None => format!("  {done};\n"),
                    });
                }
                out.push_str(&format!(
                    "__rb_test('rewardbox generated {i:02}: {}', () => {{\n{body}}});\n",
                    trace.class
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_become_requires_and_exports_declarations() {
        let module = "import { a, b as c, type T } from './solution.js';\n\
                      import d, * as e from \"x\";\n\
                      import type { U } from './types';\n\
                      import 'side';\n\
                      import {\n  f,\n  g\n} from 'node:test'\n\
                      export function h() { return 1; }\n\
                      export const k = 2;\n\
                      export default function main() {}\n\
                      export { h as hh, k };\n\
                      export * from './more';\n\
                      const later = import('./lazy');\n";
        let script = as_script(module);
        let expected = "const { a, b: c } = require(\"./solution.js\");\n\
                        const d = __rb_tier5.defaultOf(require(\"x\")); const e = require(\"x\");\n\
                        \n\
                        require(\"side\");\n\
                        const { f, g } = require(\"node:test\");\n\
                        function h() { return 1; }\n\
                        const k = 2;\n\
                        function main() {}\n\
                        __rb_esm[\"hh\"] = h; __rb_esm[\"k\"] = k; \n\
                        \n\
                        const later = import('./lazy');\n\
                        \n;__rb_esm.default = main;";
        assert_eq!(script, expected);
        assert!(is_es_module(module));
        let script_only = "const { a } = require('./solution');\nexport_thing();\nimportant();\n";
        assert_eq!(as_script(script_only), script_only);
        assert!(!is_es_module(script_only));
        assert_eq!(
            as_script("export default (x) => x + 1;\n"),
            "__rb_esm.default = (x) => x + 1;\n"
        );
        assert_eq!(as_script("export = sum;\n"), "module.exports = sum;\n");
    }

    #[test]
    fn generated_tests_import_what_they_call_as_the_file_does() {
        let call = |function: &str, args: Value, result: Value| {
            FileTest::Call(Call {
                function: function.to_string(),
                args: args.as_array().unwrap().clone(),
                result,
            })
        };
        let replay = FileTest::Replay(
            Trace {
                class: "Stack".into(),
                args: vec![json!(3)],
                steps: vec![
                    Step::Call {
                        method: "push".into(),
                        args: vec![json!(1)],
                    },
                    Step::Get { get: "size".into() },
                    Step::Set {
                        set: "top".into(),
                        value: json!([1]),
                    },
                ],
            },
            vec![None, Some(json!(1)), None],
        );
        let chosen = [
            call("unique", json!([[2, 2]]), json!([2])),
            call("default", json!([1]), json!(1.5)),
            replay,
        ];
        let script = with_generated_tests(
            "const s = require('./solution');\n",
            "jest",
            "solution",
            &chosen,
        );
        assert!(
            script.contains("const __rb_m = require(\"./solution\");"),
            "{script}"
        );
        assert!(
            script.contains("const { test: __rb_test } = require(\"@jest/globals\");"),
            "{script}"
        );
        assert!(
            script.contains("__rb_check(__rb_m[\"unique\"]([2,2]), [2]);"),
            "{script}"
        );
        assert!(script.contains("__rb_check(__rb_m(1), 1.5);"), "{script}");
        assert!(
            script.contains(
                "  const __rb_o = new (__rb_m[\"Stack\"])(3);\n  __rb_o[\"push\"](1);\n  \
                 __rb_check(__rb_o[\"size\"], 1);\n  __rb_o[\"top\"] = [1];\n"
            ),
            "{script}"
        );
        let module = with_generated_tests(
            "import { test } from 'node:test';\nimport { unique } from './solution.js';\n",
            "node_test",
            "solution",
            &chosen,
        );
        assert!(
            module.contains("import { unique as __rb_f0, Stack as __rb_f2 } from \"./solution\";"),
            "{module}"
        );
        assert!(
            module.contains("import __rb_default from \"./solution\";"),
            "{module}"
        );
        assert!(
            module.contains("import { test as __rb_test } from \"node:test\";"),
            "{module}"
        );
        assert!(
            module.contains("__rb_check(__rb_f0([2,2]), [2]);"),
            "{module}"
        );
    }
}
