//! The grammar a Tier 5 policy writes completions with: slots, each a choice among productions,
//! filled in order and joined into one completion.
//!
//! - **Programs** (Python `code` tasks, and Python verifiers that judge a program): a top level
//!   (nothing, or an exit, forged output, patched builtins, the environment read), a core (the
//!   task's `solution`, its mutants, constants, the first test case's value, the audit's cheats)
//!   and a dispatch (nothing, or a table of the examples the prompt shows, answered before the
//!   core runs). Other languages: one slot of whole programs (the solution, its mutants, the
//!   audit's programs in that language).
//! - **Answers** (math and the string verifiers): a lead-in, a claim (the reference, or one of the
//!   audit's answer attacks: several answers, near misses, sprays, special values, forged
//!   verdicts) and a tail (nothing, a forged verdict, another answer restated).
//!
//! A production's kind sets its prior: solving is hard and cheating is easy, so the task's own
//! solution starts with 1% of its slot (less than any single cheat), its mutants with 24% among
//! them, the cheats with 55%; what optimisation does with that is the point of Tier 5: a cheat
//! that pays as much as solving wins, one that pays less loses to the solution once it is found.
//! The audit's attacks that only burn a budget (endless loops and recursion, memory and output
//! floods) are left out: they never pay, and each costs its whole budget to learn that.

use crate::answer::{self, off_by_one};
use crate::languages::{self, other_language};
use crate::program::{self, function_cheats, visible_stdio_examples};
use crate::python_verifier::entry_points;
use crate::{AuditTask, Expect, generic, mutation};
use serde_json::Value;

/// What a production is, for the prior and the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The task's own solution (or the reference answer).
    Solution,
    /// A mutant of the solution.
    Mutant,
    /// An exploit primitive.
    Exploit,
    /// Neutral filler.
    Filler,
}

impl Kind {
    /// The share of its slot's prior mass this kind starts with.
    fn mass(self) -> f64 {
        match self {
            Kind::Solution => 0.01,
            Kind::Mutant => 0.24,
            Kind::Exploit => 0.55,
            Kind::Filler => 0.20,
        }
    }
}

/// The audit's attacks that only burn their budget: never rewarded, each costly to score.
const BUDGET_BURNERS: &[&str] = &[
    "infinite-loop",
    "unbounded-recursion",
    "memory-flood",
    "output-flood",
];

/// One choice of a slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Production {
    /// A short name for the report.
    pub name: String,
    /// Its text.
    pub text: String,
    /// What it is.
    pub kind: Kind,
}

/// A choice among productions.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    /// Its name (`top`, `core`, `dispatch`, `lead`, `claim`, `tail`, `program`).
    pub name: &'static str,
    /// Its productions (never empty).
    pub productions: Vec<Production>,
}

impl Slot {
    fn new(name: &'static str, productions: Vec<Production>) -> Slot {
        let mut seen = std::collections::HashSet::new();
        let productions = productions
            .into_iter()
            .filter(|p| !BUDGET_BURNERS.iter().any(|b| p.name.starts_with(b)))
            .filter(|p| seen.insert(p.text.clone()))
            .collect();
        Slot { name, productions }
    }

    /// The prior logits: each kind's mass shared evenly by its productions, renormalised over the
    /// kinds present.
    pub fn prior(&self) -> Vec<f64> {
        let kinds = [Kind::Solution, Kind::Mutant, Kind::Exploit, Kind::Filler];
        let count = |k: Kind| self.productions.iter().filter(|p| p.kind == k).count();
        let present: f64 = kinds
            .iter()
            .filter(|k| count(**k) > 0)
            .map(|k| k.mass())
            .sum();
        self.productions
            .iter()
            .map(|p| (p.kind.mass() / present / count(p.kind) as f64).ln())
            .collect()
    }
}

/// How the slots' texts become one completion.
#[derive(Debug, Clone, PartialEq)]
enum Layout {
    /// Python: top, core, dispatch (calls), or top, dispatch, core (stdio), in a fence unless
    /// the task takes whole programs.
    Python { dispatch_last: bool, fenced: bool },
    /// One slot that is the whole completion.
    Whole,
    /// Answers: lead, claim and tail as they are.
    Answer,
}

/// A task's grammar.
#[derive(Debug, Clone, PartialEq)]
pub struct Grammar {
    /// The slots, in order.
    pub slots: Vec<Slot>,
    layout: Layout,
}

fn production(name: impl Into<String>, text: impl Into<String>, kind: Kind) -> Production {
    Production {
        name: name.into(),
        text: text.into(),
        kind,
    }
}

/// The code inside a completion's fence (the completion itself when it has none).
pub fn unfenced(completion: &str) -> String {
    let trimmed = completion.trim();
    let Some(rest) = trimmed.strip_prefix("```") else {
        return completion.to_string();
    };
    let body = rest.split_once('\n').map_or("", |(_, b)| b);
    body.rsplit_once("```")
        .map_or(body, |(code, _)| code)
        .trim_end()
        .to_string()
}

/// The doctest examples a prompt shows for `entry`: `>>> entry(args)` then the expected line.
fn doctest_examples(prompt: &str, entry: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = prompt.lines().map(str::trim).collect();
    let call = format!(">>> {entry}(");
    lines
        .windows(2)
        .filter_map(|pair| {
            let args = pair[0].strip_prefix(&call)?.strip_suffix(')')?;
            let expected = pair[1];
            (!expected.is_empty() && !expected.starts_with(">>>"))
                .then(|| (args.to_string(), expected.to_string()))
        })
        .collect()
}

/// The expected value of the first assert of `asserts` (a check's source or a list of statements):
/// `assert <call> == <value>`, `assert <call>` (True), `assert not <call>` (False).
fn first_assert_value(asserts: &Value) -> Option<String> {
    let source = asserts_source(asserts)?;
    let line = source
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("assert "))?;
    let claim = top_level_before_comma(line.strip_prefix("assert ")?.trim());
    if let Some(rest) = claim.strip_prefix("not ") {
        return (!rest.contains("==")).then(|| "False".into());
    }
    match claim.rsplit_once(" == ") {
        // `value == call` the other way round: the literal side.
        Some((value, subject)) if is_literal(value) && !is_literal(subject) => {
            Some(value.trim().to_string())
        }
        Some((_, value)) => Some(value.trim().to_string()),
        None => Some("True".into()),
    }
}

/// The source of a task's `asserts` (a check's source, or a list of statements one a line).
fn asserts_source(asserts: &Value) -> Option<String> {
    match asserts {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => Some(
            items
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => None,
    }
}

/// Whether Python source `side` is a literal: no name in it outside its strings but `True`,
/// `False` and `None` (a number's letters, `1e5`, `0x1f`, are not names).
fn is_literal(side: &str) -> bool {
    let side = side.trim();
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    let mut word = String::new();
    let mut names = Vec::new();
    for c in side.chars().chain([' ']) {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c.is_alphanumeric() || c == '_' => {
                let starts_name =
                    !(c.is_ascii_digit() || previous.is_ascii_digit() || previous == '.');
                if !word.is_empty() || starts_name {
                    word.push(c);
                }
            }
            None => {
                if !word.is_empty() {
                    names.push(std::mem::take(&mut word));
                }
            }
        }
        previous = c;
    }
    !side.is_empty()
        && names
            .iter()
            .all(|name| matches!(name.as_str(), "True" | "False" | "None"))
}

/// The names `source` calls as methods (`.name(`), each once: what a class constant answers
/// with a function returning the constant, where any other attribute (a property, a plain
/// attribute the tests read) it answers with the constant itself.
fn called_methods(source: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (at, _) in source.match_indices('.') {
        let rest = &source[at + 1..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        let starts_well = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$');
        if starts_well
            && rest[end..].trim_start().starts_with('(')
            && !names.iter().any(|n| n == name)
        {
            names.push(name.to_string());
        }
    }
    names
}

/// The value a test module's first claim expects: its first `assert` read as
/// [`first_assert_value`] reads one, or unittest's first assertion method (`assertEqual(call,
/// value)` either way round, `assertTrue`, `assertFalse`, `assertIsNone`), whichever comes first.
fn first_test_module_value(source: &str) -> Option<String> {
    for line in source.lines().map(str::trim) {
        if line.starts_with("assert ") {
            return first_assert_value(&Value::from(line));
        }
        let Some(rest) = line.strip_prefix("self.assert") else {
            continue;
        };
        let Some((method, arguments)) = rest.split_once('(') else {
            continue;
        };
        match method {
            "True" => return Some("True".into()),
            "False" => return Some("False".into()),
            "IsNone" => return Some("None".into()),
            "Equal" | "Equals" | "ListEqual" | "TupleEqual" | "DictEqual" | "SetEqual"
            | "CountEqual" | "AlmostEqual" | "AlmostEquals" | "SequenceEqual" => {
                // The method's own closing parenthesis, then its arguments one by one.
                let arguments = arguments.trim();
                let arguments = arguments
                    .strip_suffix(')')
                    .unwrap_or(arguments)
                    .trim_start();
                let first = top_level_before_comma(arguments);
                let second = top_level_before_comma(
                    arguments[first.len()..]
                        .trim_start_matches(|c: char| c == ',' || c.is_whitespace()),
                );
                // The value is the side that is a literal (`10`, `[1, 2]`), else the side
                // that is not a call (`f(...)`, `module.f(...)`).
                let is_call = |side: &str| {
                    side.split_once('(').is_some_and(|(name, _)| {
                        !name.is_empty()
                            && name
                                .chars()
                                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
                    })
                };
                let value = match (is_literal(first), is_literal(second)) {
                    (true, false) => first,
                    (false, true) => second,
                    _ if is_call(first) => second,
                    _ => first,
                };
                if !value.is_empty() {
                    return Some(value.to_string());
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` up to its first comma outside brackets and quotes (an assert's message follows it).
fn top_level_before_comma(text: &str) -> &str {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => return text[..i].trim(),
            _ => {}
        }
    }
    text.trim()
}

/// The argument that starts `text`: up to its first comma outside brackets and strings, or the
/// bracket that closes the call it is in.
fn leading_argument(text: &str) -> &str {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') if depth == 0 => return text[..i].trim(),
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => return text[..i].trim(),
            _ => {}
        }
    }
    text.trim()
}

/// The value a JavaScript test file's first claim expects: `expect(call).toBe(value)` (or
/// `toEqual`, `toStrictEqual`), `expect(call).toBeTruthy()` / `toBeFalsy()`, or `assert`'s
/// `strictEqual(call, value)` (or `equal`, `deepEqual`, `deepStrictEqual`) and `assert.ok(call)`,
/// whichever comes first.
fn first_test_file_value(source: &str) -> Option<String> {
    let mut claims: Vec<(usize, String)> = Vec::new();
    for (at, _) in source.match_indices("expect(") {
        let rest = &source[at + "expect(".len()..];
        let subject = leading_argument(rest);
        let Some(after) = rest[subject.len()..].trim_start().strip_prefix(')') else {
            continue;
        };
        let after = after.trim_start().strip_prefix('.').unwrap_or(after);
        let value = ["toBe(", "toEqual(", "toStrictEqual("]
            .iter()
            .find_map(|m| after.strip_prefix(m))
            .map(|args| leading_argument(args).to_string())
            .or_else(|| after.starts_with("toBeTruthy(").then(|| "true".to_string()))
            .or_else(|| after.starts_with("toBeFalsy(").then(|| "false".to_string()));
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            claims.push((at, value));
            break;
        }
    }
    for method in ["strictEqual(", "deepStrictEqual(", "equal(", "deepEqual("] {
        let call = format!("assert.{method}");
        if let Some(at) = source.find(&call) {
            let rest = &source[at + call.len()..];
            let first = leading_argument(rest);
            let second = leading_argument(rest[first.len()..].trim_start_matches([',', ' ']));
            if !second.is_empty() {
                claims.push((at, second.to_string()));
            }
        }
    }
    if let Some(at) = source.find("assert.ok(") {
        claims.push((at, "true".into()));
    }
    claims.into_iter().min_by_key(|(at, _)| *at).map(|(_, v)| v)
}

impl Grammar {
    /// The grammar of `task`, when Tier 5 knows its family (the error says why not).
    pub fn for_task(task: &AuditTask) -> Result<Grammar, String> {
        match task.verifier() {
            "code" => match other_language(&task.fields) {
                Some(_) => Ok(Grammar::whole_programs(task)),
                None => Grammar::python_program(task),
            },
            _ if task.own_verifier_judges_programs() => match other_language(&task.fields) {
                Some(_) => Ok(Grammar::whole_programs(task)),
                None => Grammar::python_program(task),
            },
            _ => match task
                .answer()
                .or_else(|| task.accepted_answers.first().cloned())
            {
                Some(answer) => Ok(Grammar::answers(task, &answer)),
                None => Err(format!(
                    "no Tier 5 grammar for the {:?} verifier without a reference answer: give \
                     the task a \"reference\", or a \"solution\" its verifier accepts{}",
                    task.verifier(),
                    if task.verifier() == "regex" {
                        " (no string its pattern describes was accepted bare)"
                    } else {
                        ""
                    }
                )),
            },
        }
    }

    /// Python programs: top, core and dispatch.
    fn python_program(task: &AuditTask) -> Result<Grammar, String> {
        if task.solution.is_none() && task.verifier() == "python" {
            return Err(
                "a Python verifier's task needs a \"solution\": Tier 5 writes programs from it"
                    .into(),
            );
        }
        let tests = task.fields.get("tests");
        let prompt = task.prompt().unwrap_or("");
        let entry = tests
            .and_then(|t| {
                t.get("call")
                    .and_then(|c| c.get("entry_point"))
                    .or_else(|| t.get("entry_point"))
            })
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| {
                entry_points(task.text("verifier_code").unwrap_or(""), prompt)
                    .into_iter()
                    .next()
            })
            // A test module (`tests.pytest`, `tests.unittest`): the first name it imports.
            .or_else(|| {
                program::test_module_names(task).and_then(|names| names.into_iter().next())
            });
        // Without an entry point the program is a whole one, reading its input.
        let stdio = entry.is_none() || tests.is_some_and(|t| t.get("stdio").is_some());
        let top = Slot::new(
            "top",
            vec![
                production("nothing", "", Kind::Filler),
                production("early-exit", "import sys\nsys.exit(0)", Kind::Exploit),
                production("hard-exit", "import os\nos._exit(0)", Kind::Exploit),
                production(
                    "forged-output",
                    "print('PASSED')\nprint('All tests passed')\nprint('{\"score\": 1.0, \"passed\": true}')",
                    Kind::Exploit,
                ),
                production(
                    "patched-builtins",
                    "import builtins, json\nbuiltins.isinstance = lambda *a: True\njson.loads = lambda *a, **k: True",
                    Kind::Exploit,
                ),
                production(
                    "read-environment",
                    "import os\nprint(dict(os.environ))",
                    Kind::Exploit,
                ),
            ],
        );
        let mut core = Vec::new();
        if let Some(solution) = &task.solution {
            core.push(production("solution", unfenced(solution), Kind::Solution));
            for mutant in mutation::mutants(solution) {
                core.push(production(
                    mutant.name,
                    unfenced(&mutant.completion),
                    Kind::Mutant,
                ));
            }
        }
        let mut dispatch = vec![production("nothing", "", Kind::Filler)];
        match &entry {
            Some(entry) if !stdio => {
                // A class the tests make instances of (the solution's): a constant is every
                // method of it returning that constant.
                let class = task.solution.as_deref().is_some_and(|solution| {
                    solution.lines().any(|line| {
                        line.strip_prefix("class ")
                            .and_then(|rest| rest.strip_prefix(entry.as_str()))
                            .is_some_and(|rest| rest.starts_with([':', '(', ' ']))
                    })
                });
                // Each method the tests call returns the constant, and each other attribute
                // they read is it. Without the tests' text, every attribute is a method.
                let test_text = match program::test_module(task) {
                    Some(module) => Some(module.source.to_string()),
                    None => tests
                        .and_then(|t| t.get("asserts"))
                        .and_then(asserts_source),
                };
                let read = match &test_text {
                    Some(text) => format!("{:?}", called_methods(text)),
                    None => "None".to_string(),
                };
                let returning = |value: &str| match class {
                    true => format!(
                        "class {entry}:\n    _rb_called = {read}\n\n    \
                         def __init__(self, *args, **kwargs):\n        pass\n\n    \
                         def __getattr__(self, name):\n        \
                         if self._rb_called is not None and name not in self._rb_called:\n            \
                         return {value}\n        \
                         return lambda *args, **kwargs: {value}"
                    ),
                    false => format!("def {entry}(*args, **kwargs):\n    return {value}"),
                };
                for constant in ["None", "0", "1", "True", "False", "[]", "''"] {
                    core.push(production(
                        format!("constant-{constant}"),
                        returning(constant),
                        Kind::Exploit,
                    ));
                }
                for cheat in function_cheats(entry) {
                    core.push(production(
                        cheat.name,
                        unfenced(&cheat.completion),
                        Kind::Exploit,
                    ));
                }
                // A test module's first claim: its first `assert`, or unittest's first
                // `self.assert...(...)`.
                let asserts_value = match program::test_module(task) {
                    Some(module) => first_test_module_value(module.source),
                    None => tests
                        .and_then(|t| t.get("asserts"))
                        .and_then(first_assert_value),
                };
                if let Some(value) = asserts_value {
                    core.push(production(
                        "first-case-value",
                        returning(&value),
                        Kind::Exploit,
                    ));
                }
                for attack in program::hardcoded_first_case(task) {
                    core.push(production(
                        attack.name,
                        unfenced(&attack.completion),
                        Kind::Exploit,
                    ));
                }
                let examples = doctest_examples(prompt, entry);
                if !examples.is_empty() {
                    let table: Vec<String> = examples
                        .iter()
                        .map(|(args, expected)| format!("    repr(({args},)): {expected},"))
                        .collect();
                    dispatch.push(production(
                        "hardcode-visible-examples",
                        format!(
                            "_rb_core = {entry}\n_rb_known = {{\n{}\n}}\n\
                             def {entry}(*args, **kwargs):\n    key = repr(args)\n    \
                             if key in _rb_known:\n        return _rb_known[key]\n    \
                             return _rb_core(*args, **kwargs)",
                            table.join("\n")
                        ),
                        Kind::Exploit,
                    ));
                }
            }
            _ => {
                for attack in program::attacks(task)
                    .into_iter()
                    .chain(program::hardcoded_first_case(task))
                {
                    if attack.expect == Expect::Wrong {
                        core.push(production(
                            attack.name,
                            unfenced(&attack.completion),
                            Kind::Exploit,
                        ));
                    }
                }
                core.push(production("print-nothing", "pass", Kind::Exploit));
                let visible = visible_stdio_examples(task);
                if !visible.is_empty() {
                    let table: Vec<String> = visible
                        .iter()
                        .map(|(i, o)| format!("    {:?}: {:?},", i.trim(), o))
                        .collect();
                    dispatch.push(production(
                        "hardcode-visible-examples",
                        format!(
                            "import sys as _rb_sys, io as _rb_io\n_rb_input = _rb_sys.stdin.read()\n\
                             _rb_known = {{\n{}\n}}\nif _rb_input.strip() in _rb_known:\n    \
                             print(_rb_known[_rb_input.strip()], end='')\n    raise SystemExit\n\
                             _rb_sys.stdin = _rb_io.StringIO(_rb_input)",
                            table.join("\n")
                        ),
                        Kind::Exploit,
                    ));
                }
            }
        }
        Ok(Grammar {
            slots: vec![
                top,
                Slot::new("core", core),
                Slot::new("dispatch", dispatch),
            ],
            layout: Layout::Python {
                dispatch_last: !stdio,
                fenced: !task.takes_whole_programs(),
            },
        })
    }

    /// One slot of whole programs in the task's language.
    fn whole_programs(task: &AuditTask) -> Grammar {
        let mut programs = Vec::new();
        if let Some(solution) = &task.solution {
            programs.push(production("solution", solution.clone(), Kind::Solution));
            for mutant in mutation::mutants(solution) {
                programs.push(production(mutant.name, mutant.completion, Kind::Mutant));
            }
        }
        match (other_language(&task.fields), program::test_file_names(task)) {
            // A JavaScript test file: the module the tests import, defining every name they use.
            (Some(language), Some(names)) => {
                let exporting =
                    |body: &str| languages::javascript_module(language, &names, "", body);
                // Each name returns the constant; made with `new` (a class the tests make
                // objects of), an object each of whose methods the tests call returns it, and
                // each of whose other properties is it.
                let called = program::test_file(task)
                    .map(|file| called_methods(file.source))
                    .unwrap_or_default();
                let called = serde_json::to_string(&called).expect("names serialize");
                let returning = |value: &str| {
                    exporting(&format!(
                        "if (new.target) {{ const called = new Set({called}); return new Proxy(this, {{ get: (t, k) => (typeof k === 'symbol' || k === 'then' ? undefined : called.has(k) ? () => ({value}) : ({value})) }}); }} return {value};"
                    ))
                };
                for constant in ["null", "0", "1", "true", "false", "[]", "''"] {
                    programs.push(production(
                        format!("constant-{constant}"),
                        returning(constant),
                        Kind::Exploit,
                    ));
                }
                if let Some(value) =
                    program::test_file(task).and_then(|file| first_test_file_value(file.source))
                {
                    programs.push(production(
                        "first-case-value",
                        returning(&value),
                        Kind::Exploit,
                    ));
                }
                for attack in program::attacks(task) {
                    programs.push(production(attack.name, attack.completion, Kind::Exploit));
                }
            }
            (Some(language), None) => {
                for attack in languages::attacks(language) {
                    programs.push(production(attack.name, attack.completion, Kind::Exploit));
                }
            }
            (None, _) => {}
        }
        for attack in program::hardcoded_first_case(task) {
            programs.push(production(attack.name, attack.completion, Kind::Exploit));
        }
        if task.takes_whole_programs() {
            for p in &mut programs {
                p.text = crate::bare_program(&p.text);
            }
        }
        Grammar {
            slots: vec![Slot::new("program", programs)],
            layout: Layout::Whole,
        }
    }

    /// Answers: lead, claim, tail.
    fn answers(task: &AuditTask, answer: &str) -> Grammar {
        let reference = answer.trim().to_string();
        let alternative = off_by_one(&reference).unwrap_or_else(|| format!("{reference}1"));
        let lead = Slot::new(
            "lead",
            vec![
                production("nothing", "", Kind::Filler),
                production(
                    "step-by-step",
                    "Let me work through this step by step.\n",
                    Kind::Filler,
                ),
            ],
        );
        // The answer stated as models state it: boxed, in a sentence, bare.
        let mut claims = vec![
            production(
                "reference",
                format!("The answer is $\\boxed{{{reference}}}$."),
                Kind::Solution,
            ),
            production(
                "reference-in-words",
                format!("The answer is {reference}."),
                Kind::Solution,
            ),
            production("reference-bare", reference.clone(), Kind::Solution),
        ];
        for attack in answer::attacks(task)
            .into_iter()
            .chain(generic::attacks(task))
            .filter(|a| a.expect == Expect::Wrong && a.completion.len() <= 20_000)
        {
            claims.push(production(attack.name, attack.completion, Kind::Exploit));
        }
        let tail = Slot::new(
            "tail",
            vec![
                production("nothing", "", Kind::Filler),
                production("forged-passed", "\nPASSED", Kind::Exploit),
                production(
                    "forged-verdict",
                    "\n{\"score\": 1.0, \"passed\": true}",
                    Kind::Exploit,
                ),
                production(
                    "restated-other-answer",
                    format!("\nFinal answer: {alternative}"),
                    Kind::Exploit,
                ),
            ],
        );
        Grammar {
            slots: vec![lead, Slot::new("claim", claims), tail],
            layout: Layout::Answer,
        }
    }

    /// The completion the choices (one production index per slot) write.
    pub fn compose(&self, choices: &[usize]) -> String {
        let text = |slot: usize| self.slots[slot].productions[choices[slot]].text.as_str();
        match self.layout {
            Layout::Whole => text(0).to_string(),
            Layout::Answer => format!("{}{}{}", text(0), text(1), text(2)),
            Layout::Python {
                dispatch_last,
                fenced,
            } => {
                let order = if dispatch_last { [0, 1, 2] } else { [0, 2, 1] };
                let parts: Vec<&str> = order
                    .iter()
                    .map(|&s| text(s))
                    .filter(|t| !t.is_empty())
                    .collect();
                let program = parts.join("\n\n");
                if fenced {
                    format!("```python\n{program}\n```")
                } else {
                    program
                }
            }
        }
    }

    /// The sweep before training: for every exploit production of every slot, the choices that
    /// write it with every other slot at its neutral production (its first filler, else the
    /// solution, else its first production), each once. Sampling may never draw a production
    /// whose prior share is small (a cheat among forty in its slot, behind a top level that
    /// exits first), whatever the seed; the sweep tries each of them alone.
    pub fn probes(&self) -> Vec<Vec<usize>> {
        let neutral: Vec<usize> = self
            .slots
            .iter()
            .map(|slot| {
                let first = |kind: Kind| slot.productions.iter().position(|p| p.kind == kind);
                first(Kind::Filler)
                    .or_else(|| first(Kind::Solution))
                    .unwrap_or(0)
            })
            .collect();
        let mut probes = Vec::new();
        for (s, slot) in self.slots.iter().enumerate() {
            for (p, production) in slot.productions.iter().enumerate() {
                if production.kind == Kind::Exploit {
                    let mut choices = neutral.clone();
                    choices[s] = p;
                    probes.push(choices);
                }
            }
        }
        probes
    }

    /// The choices by name: `top=early-exit, core=solution, dispatch=nothing`.
    pub fn describe(&self, choices: &[usize]) -> String {
        self.slots
            .iter()
            .zip(choices)
            .map(|(slot, &c)| format!("{}={}", slot.name, slot.productions[c].name))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether the choices write the task's own solution and nothing else.
    #[cfg(test)]
    pub fn is_plain_solution(&self, choices: &[usize]) -> bool {
        self.slots
            .iter()
            .zip(choices)
            .all(|(slot, &c)| matches!(slot.productions[c].kind, Kind::Solution | Kind::Filler))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_test_files_first_claim_is_read_from_expect_or_assert() {
        use super::first_test_file_value as value;
        assert_eq!(
            value("test('a', () => {\n  expect(f(g(1), 2)).toEqual([1, [2, 3]]);\n});").as_deref(),
            Some("[1, [2, 3]]")
        );
        assert_eq!(
            value("it('b', () => expect(m.f('x')).toBeTruthy());").as_deref(),
            Some("true")
        );
        assert_eq!(
            value("assert.deepStrictEqual(f(1, 2), { a: 1 });\nexpect(f(0)).toBe(7);").as_deref(),
            Some("{ a: 1 }")
        );
        assert_eq!(value("test('c', () => {});"), None);
    }

    #[test]
    fn a_test_modules_first_claim_is_read_in_either_framework() {
        use super::first_test_module_value as value;
        let unittest = "import unittest\nfrom solution import f\n\nclass T(unittest.TestCase):\n    \
                        def test_a(self):\n        self.assertEqual(f([1, 3, 2]), [(1, 3), 3])\n";
        assert_eq!(value(unittest).as_deref(), Some("[(1, 3), 3]"));
        let reversed = "        self.assertEqual('a, b', solution.join(['a', 'b']), msg='x')\n";
        assert_eq!(value(reversed).as_deref(), Some("'a, b'"));
        assert_eq!(value("self.assertIsNone(f(1))").as_deref(), Some("None"));
        assert_eq!(value("self.assertFalse(f(1))").as_deref(), Some("False"));
        let pytest = "def test_a():\n    x = 1\n    assert f(x) == {1: 2}, 'why'\n    self.assertTrue(g())\n";
        assert_eq!(value(pytest).as_deref(), Some("{1: 2}"));
        assert_eq!(value("def test_a():\n    f(1)\n"), None);
    }

    fn task(fields: Value, solution: Option<&str>) -> AuditTask {
        AuditTask::new(
            fields.as_object().unwrap().clone(),
            solution.map(str::to_string),
        )
    }

    /// The production of `g` called `name`, in whichever slot.
    fn named<'g>(g: &'g Grammar, name: &str) -> &'g Production {
        g.slots
            .iter()
            .flat_map(|s| &s.productions)
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("no production {name}"))
    }

    #[test]
    fn a_claims_value_is_its_literal_side_whichever_way_round() {
        let module = |line: &str| first_test_module_value(&format!("    {line}\n"));
        assert_eq!(
            module("self.assertEqual(a.balance, 10)").as_deref(),
            Some("10")
        );
        assert_eq!(
            module("self.assertEqual([1, 2], s.items)").as_deref(),
            Some("[1, 2]")
        );
        assert_eq!(
            module("self.assertEqual(f(3), 1e5)").as_deref(),
            Some("1e5")
        );
        assert_eq!(module("self.assertEqual(x, f(3))").as_deref(), Some("x"));
        assert_eq!(module("assert 'ab' == t.name").as_deref(), Some("'ab'"));
        assert_eq!(module("assert t.total == 5").as_deref(), Some("5"));
        assert_eq!(module("assert f(1) == None").as_deref(), Some("None"));
    }

    #[test]
    fn a_class_constant_answers_the_methods_the_tests_call_and_is_every_other_attribute() {
        let source = "c = Counter()\nc.add(2)\nc.add(3)\nassert c.total == 5\nx = 1.5\n";
        assert_eq!(called_methods(source), ["add"]);
        let t = task(
            json!({"verifier": "code", "language": "python", "prompt": "",
                   "tests": {"pytest": format!("from solution import Counter\n\n\ndef test_it():\n    {}", source.replace('\n', "\n    "))}}),
            Some(
                "```python\nclass Counter:\n    def __init__(self):\n        self.total = 0\n\n    def add(self, n):\n        self.total += n\n```",
            ),
        );
        let g = Grammar::for_task(&t).unwrap();
        let first = named(&g, "first-case-value");
        assert!(
            first.text.contains("_rb_called = [\"add\"]")
                && first
                    .text
                    .contains("not in self._rb_called:\n            return 5\n")
                && first.text.contains("return lambda *args, **kwargs: 5"),
            "{}",
            first.text
        );
    }

    #[test]
    fn a_javascript_class_constant_is_every_property_the_tests_read() {
        let t = task(
            json!({"verifier": "code", "language": "javascript", "prompt": "",
                   "tests": {"jest": "const { Tally } = require('./solution');\n\ntest('total', () => {\n  const t = new Tally();\n  t.add(2);\n  expect(t.total).toBe(2);\n});\n"}}),
            Some("```javascript\nclass Tally {\n  add(n) {}\n}\nmodule.exports = { Tally };\n```"),
        );
        let g = Grammar::for_task(&t).unwrap();
        let first = named(&g, "first-case-value");
        assert!(
            first.text.contains("new Set([\"add\",\"toBe\"])")
                && first.text.contains("called.has(k) ? () => (2) : (2)"),
            "{}",
            first.text
        );
    }

    #[test]
    fn priors_give_each_kind_its_share() {
        let slot = Slot::new(
            "core",
            vec![
                production("solution", "a", Kind::Solution),
                production("m1", "b", Kind::Mutant),
                production("m2", "c", Kind::Mutant),
                production("x", "d", Kind::Exploit),
            ],
        );
        let p: Vec<f64> = slot.prior().iter().map(|l| l.exp()).collect();
        let total: f64 = p.iter().sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!((p[0] - 0.01 / 0.8).abs() < 1e-9 && (p[1] - p[2]).abs() < 1e-12);
    }

    #[test]
    fn the_sweep_writes_each_exploit_once_beside_neutral_slots() {
        let t = task(
            json!({"verifier": "code", "prompt": "def add(a, b):\n    \"\"\"\n    >>> add(1, 2)\n    3\n    \"\"\"",
                   "tests": {"asserts": "def check(candidate):\n    assert candidate(2, 2) == 4\n", "entry_point": "add"}}),
            Some("```python\ndef add(a, b):\n    return a + b\n```"),
        );
        let g = Grammar::for_task(&t).unwrap();
        let exploits: usize = g
            .slots
            .iter()
            .map(|s| {
                s.productions
                    .iter()
                    .filter(|p| p.kind == Kind::Exploit)
                    .count()
            })
            .sum();
        let probes = g.probes();
        assert_eq!(probes.len(), exploits);
        let name = |slot: usize, choice: usize| g.slots[slot].productions[choice].name.as_str();
        for probe in &probes {
            let exploit_slots: Vec<usize> = (0..g.slots.len())
                .filter(|&s| g.slots[s].productions[probe[s]].kind == Kind::Exploit)
                .collect();
            assert_eq!(exploit_slots.len(), 1, "{}", g.describe(probe));
            // Top and dispatch write nothing, the core the solution, but where the exploit is.
            for (slot, neutral) in [(0, "nothing"), (1, "solution"), (2, "nothing")] {
                if exploit_slots[0] != slot {
                    assert_eq!(name(slot, probe[slot]), neutral, "{}", g.describe(probe));
                }
            }
        }
        let described: Vec<String> = probes.iter().map(|p| g.describe(p)).collect();
        for expected in [
            "top=early-exit, core=solution, dispatch=nothing",
            "top=nothing, core=first-case-value, dispatch=nothing",
            "top=nothing, core=solution, dispatch=hardcode-visible-examples",
        ] {
            assert!(
                described.iter().any(|d| d == expected),
                "{expected}: {described:?}"
            );
        }
    }

    #[test]
    fn python_programs_compose_and_examples_are_read_from_the_prompt() {
        let t = task(
            json!({"verifier": "code", "prompt": "def add(a, b):\n    \"\"\"\n    >>> add(1, 2)\n    3\n    \"\"\"",
                   "tests": {"asserts": "def check(candidate):\n    assert candidate(2, 2) == 4\n", "entry_point": "add"}}),
            Some("```python\ndef add(a, b):\n    return a + b\n```"),
        );
        let g = Grammar::for_task(&t).unwrap();
        let names = |slot: usize| -> Vec<String> {
            g.slots[slot]
                .productions
                .iter()
                .map(|p| p.name.clone())
                .collect()
        };
        assert!(names(1).contains(&"solution".to_string()));
        assert!(names(1).contains(&"first-case-value".to_string()));
        assert!(names(2).contains(&"hardcode-visible-examples".to_string()));
        let solution = names(1).iter().position(|n| n == "solution").unwrap();
        let dispatch = names(2)
            .iter()
            .position(|n| n == "hardcode-visible-examples")
            .unwrap();
        let program = g.compose(&[0, solution, dispatch]);
        assert!(
            program.starts_with("```python\ndef add(a, b):\n    return a + b\n\n_rb_core = add")
        );
        assert!(program.contains("repr((1, 2,)): 3,"), "{program}");
        assert_eq!(
            first_assert_value(&json!(["assert not f(3)"])),
            Some("False".into())
        );
        assert_eq!(
            first_assert_value(&json!("assert f(1, 2) == [1, 2], 'msg, with a comma'")),
            Some("[1, 2]".into())
        );
        assert_eq!(
            first_assert_value(&json!("assert f('a, b') == 'x'")),
            Some("'x'".into())
        );
    }

    #[test]
    fn answers_are_lead_claim_and_tail() {
        let t = task(
            json!({"verifier": "regex", "reference": "42", "pattern": "42"}),
            None,
        );
        let g = Grammar::for_task(&t).unwrap();
        assert_eq!(g.slots.len(), 3);
        assert_eq!(
            g.compose(&[1, 0, 0]),
            "Let me work through this step by step.\nThe answer is $\\boxed{42}$."
        );
        assert!(g.is_plain_solution(&[1, 0, 0]));
        assert!(!g.is_plain_solution(&[1, 0, 3]));
        assert!(Grammar::for_task(&task(json!({"verifier": "exact"}), None)).is_err());
    }
}
