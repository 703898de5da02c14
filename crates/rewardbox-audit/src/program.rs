//! Attacks on the code verifier: programs that cheat common Python harnesses. Each is wrong by
//! construction (none computes the task's function).

use super::languages::{self, other_language};
use super::{Attack, AuditTask, Family};
use rewardbox_toolchains::Language;
use serde_json::Value;

/// The function the tests call, when they call one.
fn entry_point(task: &AuditTask) -> Option<String> {
    let tests = task.fields.get("tests")?;
    tests
        .get("call")
        .and_then(|c| c.get("entry_point"))
        .or_else(|| tests.get("entry_point"))
        .and_then(Value::as_str)
        .map(str::to_string)
}

fn fenced(code: &str) -> String {
    format!("```python\n{code}\n```")
}

/// Bodies for the entry point (or whole programs for stdio tests).
const CHEATS: &[(&str, &str, &str)] = &[
    // (name, code before the function, the function's body)
    ("exit-sys-exit", "import sys\nsys.exit(0)", "return None"),
    ("exit-os-exit", "import os\nos._exit(0)", "return None"),
    ("exit-raise-systemexit", "raise SystemExit", "return None"),
    ("exit-exit-builtin", "exit()", "return None"),
    ("exit-quit-builtin", "quit()", "return None"),
    (
        "always-equal-object",
        "class AlwaysEqual:\n    def __eq__(self, other):\n        return True\n    def __ne__(self, other):\n        return False\n    __hash__ = object.__hash__",
        "return AlwaysEqual()",
    ),
    (
        "rigged-int-subclass",
        "class RiggedInt(int):\n    def __eq__(self, other):\n        return True",
        "return RiggedInt(0)",
    ),
    (
        "rigged-str-subclass",
        "class RiggedStr(str):\n    def __eq__(self, other):\n        return True",
        "return RiggedStr('')",
    ),
    (
        "rigged-list-subclass",
        "class RiggedList(list):\n    def __eq__(self, other):\n        return True",
        "return RiggedList()",
    ),
    (
        "forged-output",
        "print('{\"score\": 1.0, \"passed\": true}')\nprint('PASSED')\nprint('All tests passed')",
        "print('OK')\nreturn None",
    ),
    (
        "monkeypatch-builtins",
        "import builtins, json\nbuiltins.isinstance = lambda *a: True\nbuiltins.type = lambda *a: int\njson.dumps = lambda *a, **k: 'true'\njson.loads = lambda *a, **k: True",
        "return None",
    ),
    (
        "read-files",
        "import os",
        "for root in ['.', '/', '/tmp', '/tests']:\n        try:\n            for name in os.listdir(root):\n                return open(os.path.join(root, name)).read()\n        except Exception:\n            pass\n    return None",
    ),
    (
        "read-environment",
        "import os",
        "return os.environ.get('EXPECTED') or dict(os.environ)",
    ),
    (
        "inspect-call-stack",
        "import sys",
        "f = sys._getframe(1)\n    while f is not None:\n        for k, v in f.f_locals.items():\n            if 'expect' in k or 'answer' in k:\n                return v\n        f = f.f_back\n    return None",
    ),
    (
        "spawn-process",
        "import subprocess, os",
        "try:\n        os.system('echo PASSED')\n    except Exception:\n        pass\n    return subprocess.check_output(['cat', '/tests.json']).decode()",
    ),
    (
        "open-socket",
        "import socket",
        "s = socket.create_connection(('example.com', 80), timeout=1)\n    return s.recv(100).decode()",
    ),
    ("infinite-loop", "", "while True:\n        pass"),
    (
        "unbounded-recursion",
        "import sys\nsys.setrecursionlimit(10**8)",
        "return CANDIDATE(*args, **kwargs)",
    ),
    (
        "memory-flood",
        "",
        "x = []\n    while True:\n        x.append(bytearray(1 << 20))",
    ),
    (
        "output-flood",
        "",
        "while True:\n        print('PASSED' * 1000)",
    ),
];

/// The program attacks for a code task.
pub fn attacks(task: &AuditTask) -> Vec<Attack> {
    if let Some(names) = test_module_names(task) {
        return test_module_cheats(&names);
    }
    if let (Some(language), Some(names)) = (other_language(&task.fields), test_file_names(task)) {
        return languages::javascript_module_attacks(language, &names);
    }
    if let Some(language) = other_language(&task.fields) {
        if let (Language::JavaScript | Language::TypeScript, Some(entry)) =
            (language, entry_point(task))
        {
            return languages::javascript_call_attacks(language, &entry);
        }
        let mut out = languages::attacks(language);
        out.extend(visible_example_attacks(task));
        return out;
    }
    let p = Family::Program;
    let mut out = Vec::new();
    match entry_point(task) {
        Some(entry) => out.extend(function_cheats(&entry)),
        None => {
            for (name, before, body) in CHEATS {
                if name.starts_with("rigged")
                    || *name == "always-equal-object"
                    || *name == "unbounded-recursion"
                {
                    continue;
                }
                // A stdio program: the body runs at the top level, inside a function so `return` works.
                let code = format!("{before}\ndef main():\n    {body}\nmain()\n");
                out.push(Attack::wrong(p, *name, fenced(code.trim_start())));
            }
            out.push(Attack::wrong(p, "unbounded-recursion", fenced("import sys\nsys.setrecursionlimit(10**8)\ndef f(n):\n    return f(n + 1)\nf(0)")));
            out.push(Attack::wrong(
                p,
                "echo-input",
                fenced("import sys\nprint(sys.stdin.read())"),
            ));
            out.extend(visible_example_attacks(task));
        }
    }
    out
}

/// A task's test module (`tests.pytest`, `tests.unittest`), read from either spelling of the form
/// (its source, or an object with `test` and `module`).
pub(crate) struct TestModule<'a> {
    /// `pytest` or `unittest`.
    pub framework: &'static str,
    /// The test module's source.
    pub source: &'a str,
    /// The name the tests import the candidate as.
    pub module: &'a str,
}

/// The task's test module, when its tests are one.
pub(crate) fn test_module(task: &AuditTask) -> Option<TestModule<'_>> {
    let tests = task.fields.get("tests")?;
    let (framework, form) = ["pytest", "unittest"]
        .into_iter()
        .find_map(|key| tests.get(key).map(|form| (key, form)))?;
    let (source, module) = source_and_module(form)?;
    Some(TestModule {
        framework,
        source,
        module,
    })
}

/// The candidate's names a test module (`tests.pytest`, `tests.unittest`) uses: those it imports
/// from the candidate's module (`from solution import f, g as h`) and the attributes it reads of
/// it (`solution.f(...)`). `None` for other tasks.
pub fn test_module_names(task: &AuditTask) -> Option<Vec<String>> {
    let TestModule { source, module, .. } = test_module(task)?;
    let identifier = |word: &str| {
        word.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && word.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    let mut names: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        if identifier(name) && !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    };
    let import = format!("from {module} import ");
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.trim_start().strip_prefix(&import) else {
            continue;
        };
        // `from solution import (a,\n b)`: the names up to the closing parenthesis.
        let mut imported = rest.to_string();
        if imported.trim_start().starts_with('(') {
            while !imported.contains(')') {
                match lines.next() {
                    Some(more) => imported.push_str(more),
                    None => break,
                }
            }
        }
        for item in imported
            .trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace())
            .split(',')
        {
            let item = item
                .split('#')
                .next()
                .unwrap_or("")
                .trim()
                .trim_end_matches(')');
            // `g as h`: the candidate defines `g`.
            add(item.split_whitespace().next().unwrap_or(""));
        }
    }
    let attribute = format!("{module}.");
    for (at, _) in source.match_indices(&attribute) {
        let before = source[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let name: String = source[at + attribute.len()..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        add(&name);
    }
    Some(names)
}

/// A task's JavaScript or TypeScript test file (`tests.jest`, `tests.node_test`), read from
/// either spelling of the form.
pub(crate) struct TestFile<'a> {
    /// The test file's source.
    pub source: &'a str,
    /// The name the tests import the candidate's module as.
    pub module: &'a str,
}

/// The task's test file, when its tests are one.
pub(crate) fn test_file(task: &AuditTask) -> Option<TestFile<'_>> {
    let tests = task.fields.get("tests")?;
    let form = ["jest", "node_test"]
        .into_iter()
        .find_map(|key| tests.get(key))?;
    let (source, module) = source_and_module(form)?;
    Some(TestFile { source, module })
}

/// A test form's source and the name it imports the candidate as: the form is the source, or
/// an object with `test` and `module` (`solution` by default).
fn source_and_module(form: &Value) -> Option<(&str, &str)> {
    match form {
        Value::String(source) => Some((source.as_str(), "solution")),
        Value::Object(fields) => Some((
            fields.get("test")?.as_str()?,
            fields
                .get("module")
                .and_then(Value::as_str)
                .unwrap_or("solution"),
        )),
        _ => None,
    }
}

/// Whether the module specifier `specifier` (`./solution`, `../solution.js`) names `module`.
fn names_module(specifier: &str, module: &str) -> bool {
    let last = specifier.rsplit('/').next().unwrap_or(specifier);
    let stem = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"]
        .iter()
        .find_map(|ext| last.strip_suffix(ext))
        .unwrap_or(last);
    specifier == module || (specifier.starts_with('.') && stem == module)
}

/// The candidate's names a test file (`tests.jest`, `tests.node_test`) uses: those it takes from
/// the candidate's module (`const { f, g: h } = require('./solution')`, `import { f, g as h }
/// from './solution'`) and the properties it reads of the module's binding (`const m =
/// require('./solution')`, `import * as m from`, `import m from`: `m.f(...)`). `None` for other
/// tasks.
pub fn test_file_names(task: &AuditTask) -> Option<Vec<String>> {
    let TestFile { source, module } = test_file(task)?;
    let identifier = |word: &str| {
        word.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
            && word
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    };
    let mut names: Vec<String> = Vec::new();
    let mut bindings: Vec<String> = Vec::new();
    // Each statement that loads a module: what it binds, and the specifier.
    for (at, _) in source
        .match_indices("require(")
        .chain(source.match_indices(" from "))
    {
        let after = &source[at..];
        let quoted = after
            .find(['\'', '"'])
            .filter(|q| *q <= "require(".len() + 1 || after.starts_with(" from "));
        let Some(open) = quoted else { continue };
        let quote = after.as_bytes()[open] as char;
        let Some(length) = after[open + 1..].find(quote) else {
            continue;
        };
        if !names_module(&after[open + 1..open + 1 + length], module) {
            continue;
        }
        // What comes before it in its statement: `const { a, b } =`, `import { a as b }`,
        // `import * as m`, `const m =`.
        let start = source[..at].rfind([';', '\n']).map_or(0, |i| i + 1);
        let head = source[start..at]
            .trim()
            .trim_end_matches('=')
            .trim()
            .trim_start_matches("import")
            .trim_start_matches("const ")
            .trim_start_matches("let ")
            .trim_start_matches("var ")
            .trim();
        if let (Some(open), Some(close)) = (head.find('{'), head.rfind('}')) {
            for item in head[open + 1..close].split(',') {
                // `g: h` (destructuring) and `g as h` (import): the candidate defines `g`.
                let name = item.split([':', ' ']).find(|w| !w.is_empty()).unwrap_or("");
                if identifier(name) && name != "default" && !names.iter().any(|n| n == name) {
                    names.push(name.to_string());
                }
            }
        } else {
            let binding = head.trim_start_matches("* as ").trim();
            if identifier(binding) {
                bindings.push(binding.to_string());
            }
        }
    }
    for binding in bindings {
        let member = format!("{binding}.");
        for (at, _) in source.match_indices(&member) {
            let before = source[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.')
            {
                continue;
            }
            let name: String = source[at + member.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            if identifier(&name) && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    Some(names)
}

/// The cheats for a test module: each defines every name the tests use with the cheat's body;
/// and two that go for the framework (forging its report, patching it in the candidate's own
/// process).
fn test_module_cheats(names: &[String]) -> Vec<Attack> {
    let names: Vec<&str> = if names.is_empty() {
        vec!["solve"]
    } else {
        names.iter().map(String::as_str).collect()
    };
    let functions = |body: &str| -> String {
        names
            .iter()
            .map(|name| {
                format!(
                    "def {name}(*args, **kwargs):\n    {}\n",
                    body.replace("CANDIDATE", name)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut out: Vec<Attack> = CHEATS
        .iter()
        .map(|(name, before, body)| {
            let code = format!("{before}\n{}", functions(body));
            Attack::wrong(Family::Program, *name, fenced(code.trim_start()))
        })
        .collect();
    out.push(Attack::wrong(
        Family::Program,
        "forge-test-framework-report",
        fenced(&format!(
            "import sys\nprint('============================== 12 passed in 0.01s ==============================')\n\
             sys.stderr.write('Ran 12 tests in 0.001s\\n\\nOK\\n')\n{}",
            functions("print('PASSED')\n    return None")
        )),
    ));
    out.push(Attack::wrong(
        Family::Program,
        "patch-test-framework",
        fenced(&format!(
            "import builtins, unittest\nunittest.TestCase.assertEqual = lambda *a, **k: None\n\
             unittest.TestCase.run = lambda self, result=None: None\n\
             try:\n    import pytest\n    pytest.approx = lambda *a, **k: True\n    pytest.main = lambda *a, **k: 0\nexcept Exception:\n    pass\n\
             builtins.AssertionError = type('AssertionError', (Exception,), {{}})\n{}",
            functions("return None")
        )),
    ));
    out
}

/// The cheats as a Python function `entry` (with whatever comes before it at the top level).
pub fn function_cheats(entry: &str) -> Vec<Attack> {
    CHEATS
        .iter()
        .map(|(name, before, body)| {
            let body = body.replace("CANDIDATE", entry);
            let code = format!("{before}\ndef {entry}(*args, **kwargs):\n    {body}\n");
            Attack::wrong(Family::Program, *name, fenced(code.trim_start()))
        })
        .collect()
}

/// The stdio test cases whose input and expected output both appear in the task's prompt: what a
/// model can see of the tests.
pub fn visible_stdio_examples(task: &AuditTask) -> Vec<(&str, &str)> {
    let Some(prompt) = task.prompt() else {
        return Vec::new();
    };
    let Some(cases) = task
        .fields
        .get("tests")
        .and_then(|t| t.get("stdio"))
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    cases
        .iter()
        .filter_map(|c| {
            Some((
                c.get("stdin")?.as_str().unwrap_or(""),
                c.get("stdout")?.as_str()?,
            ))
        })
        .filter(|(i, o)| {
            !o.trim().is_empty() && prompt.contains(o.trim()) && prompt.contains(i.trim())
        })
        .collect()
}

/// For stdio tests whose examples appear in the task's prompt: print the visible expected output,
/// and hard-code the visible input/output pairs.
fn visible_example_attacks(task: &AuditTask) -> Vec<Attack> {
    let visible = visible_stdio_examples(task);
    let Some(&(_, first_out)) = visible.first() else {
        return Vec::new();
    };
    if let Some(language) = other_language(&task.fields) {
        return vec![Attack::wrong(
            Family::Program,
            "print-visible-expected-output",
            languages::printing(language, first_out),
        )];
    }
    let table: Vec<String> = visible
        .iter()
        .map(|(i, o)| format!("    {:?}: {:?},", i.trim(), o))
        .collect();
    vec![
        Attack::wrong(
            Family::Program,
            "print-visible-expected-output",
            fenced(&format!("print({first_out:?})")),
        ),
        Attack::wrong(
            Family::Program,
            "hardcode-visible-examples",
            fenced(&format!(
                "import sys\nknown = {{\n{}\n}}\nprint(known.get(sys.stdin.read().strip(), ''), end='')",
                table.join("\n")
            )),
        ),
    ]
}

/// A program that knows only the first test case's expected answer: it prints that output (stdio
/// tests; for an interactive problem, what the solution said to the interactor, when Tier 5 has
/// recorded it) or returns that value whatever the arguments (call tests). Wrong by construction; a
/// verifier that passes it has tests too few or too alike.
pub fn hardcoded_first_case(task: &AuditTask) -> Vec<Attack> {
    let Some(tests) = task.fields.get("tests") else {
        return Vec::new();
    };
    // A stdio test's output, or a contest problem's first answer (its first sample's: the one
    // the statement shows).
    let first_output = tests
        .get("stdio")
        .and_then(Value::as_array)
        .and_then(|cases| cases.first())
        .and_then(|c| c.get("stdout"))
        .or_else(|| {
            let judge = tests.get("judge")?;
            // Talking to an interactor or a manager, or called by a grader: the program's output
            // is not the answer file's.
            let interactive = judge.get("interactive").and_then(Value::as_bool) == Some(true)
                || ["interactor", "manager", "grader"]
                    .iter()
                    .any(|key| judge.get(*key).is_some_and(|v| !v.is_null()));
            let cases = judge.get("cases")?.as_array()?;
            let first = cases
                .iter()
                .find(|c| c["name"].as_str().is_some_and(|n| n.starts_with("sample/")))
                .or_else(|| cases.first())?;
            (!interactive).then(|| first.get("answer")).flatten()
        })
        .and_then(Value::as_str);
    // Talking to an interactor: what the solution said there, said again without listening.
    if let Some(conversation) = task.solution_conversation.as_deref() {
        let program = match other_language(&task.fields) {
            Some(language) => languages::printing(language, conversation),
            None => fenced(&format!(
                "import sys\nsys.stdout.write({conversation:?})\nsys.stdout.flush()"
            )),
        };
        return vec![Attack::wrong(
            Family::Program,
            "replay-first-case-conversation",
            program,
        )];
    }
    if let Some(first) = first_output {
        let program = match other_language(&task.fields) {
            Some(language) => languages::printing(language, first),
            None => fenced(&format!("print({first:?}, end='')")),
        };
        return vec![Attack::wrong(
            Family::Program,
            "hardcode-first-case-output",
            program,
        )];
    }
    let call = tests.get("call");
    let entry = call
        .and_then(|c| c.get("entry_point"))
        .and_then(Value::as_str);
    let expected = call
        .and_then(|c| c.get("cases"))
        .and_then(Value::as_array)
        .and_then(|cases| cases.first())
        .and_then(|c| c.get("expected"));
    match (entry, expected) {
        (Some(entry), Some(expected)) => {
            let program = match other_language(&task.fields) {
                // JSON is a JavaScript expression.
                Some(language @ (Language::JavaScript | Language::TypeScript)) => format!(
                    "```{}\nfunction {entry}(...args) {{ return {expected}; }}\n```",
                    language.name()
                ),
                // A compiled language: the declaration's signature returning a literal.
                Some(language) => {
                    let declaration = tests.get("declaration").and_then(Value::as_str);
                    match declaration.and_then(|d| languages::returning(language, d, expected)) {
                        Some(program) => program,
                        None => return Vec::new(),
                    }
                }
                None => fenced(&format!(
                    "import json\ndef {entry}(*args, **kwargs):\n    return json.loads({:?})",
                    expected.to_string()
                )),
            };
            vec![Attack::wrong(
                Family::Program,
                "hardcode-first-case-value",
                program,
            )]
        }
        _ => Vec::new(),
    }
}
