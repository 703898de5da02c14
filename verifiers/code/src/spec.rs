//! The task's `tests` field, read and checked, with errors that name the field.

use crate::fields::{
    AssertSource, CallCase, Extract, OutputRule, Scoring, ScriptFramework, StdioCase, TestFramework,
};
use crate::kinds::contest::spec::JudgeSpec;
use crate::kinds::python_calls::{assert_of, has_tags};
use crate::kinds::test_code::{ProgramTests, entry_of_declaration};
use crate::kinds::test_files::TestFile;
use crate::kinds::typed_calls::takes_typed_calls;
use crate::langs::canonical_language;
use guest_common::{FieldError, TaskFields};
use serde_json::Value;

/// What the completion is graded on.
#[derive(Debug, Clone, PartialEq)]
pub enum Tests {
    /// Programs reading stdin and writing stdout.
    Stdio(Vec<StdioCase>),
    /// Calls of `entry_point` with expected values.
    Call {
        /// The function called.
        entry_point: String,
        /// The calls.
        cases: Vec<CallCase>,
        /// The entry point's declaration (`tests.declaration`), which types the calls of a
        /// C++, Rust or Go candidate.
        declaration: Option<String>,
        /// Go: import the standard packages the program uses (`tests.add_imports`).
        add_imports: bool,
        /// `tests.call.record`: no expected values are read; each call that returns passes, its
        /// detail the returned value as the task's JSON writes it (to make expected values from a
        /// reference solution; C, C++, Rust and Go candidates).
        record: bool,
    },
    /// Asserts run against the live candidate in a checking sandbox of their own.
    Asserts {
        /// The asserts.
        source: AssertSource,
        /// The function the asserts call as `candidate` (and by its own name).
        entry_point: Option<String>,
        /// Trusted code run before the asserts (`tests.setup`, else `tests.reference`): helpers
        /// the asserts use, such as HumanEval's `poly`.
        setup: Option<String>,
        /// A reference solution, which must pass the asserts (checked once per task).
        reference: Option<String>,
    },
    /// The benchmark's own test code in the candidate's language (C++, Rust), run in a trusted
    /// program of its own against the live candidate.
    Program(ProgramTests),
    /// A JavaScript or TypeScript test file run by its framework (`tests.jest`,
    /// `tests.node_test`) in a trusted program, against the live candidate's module.
    TestFile(TestFile),
    /// A contest problem, judged as the Kattis problem package format judges it: cases of
    /// input and answer, the default or the problem's own output validator, interactive
    /// problems, test groups and scores.
    Judge(Box<JudgeSpec>),
}

/// The grading settings of a task.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// Where the program is in a completion (`"extract"`: `"fenced"`, the default, or `"whole"`).
    pub extract: Extract,
    /// The tests.
    pub tests: Tests,
    /// How the score is made (`None`: the tests' default, the fraction of cases passed; for
    /// judge tests, the problem type's).
    pub scoring: Option<Scoring>,
    /// Tolerance for floats (absolute or relative); `None` means exact.
    pub float_tolerance: Option<f64>,
    /// How stdio cases compare outputs (`tests.compare`, with `float_tolerance`).
    pub output_rule: OutputRule,
    /// Source put before the completion's program (`"prelude"`: the imports a benchmark's harness
    /// gives every program); empty when none.
    pub prelude: String,
    /// The candidate's language.
    pub language: String,
}

fn bad(field: &str, what: impl std::fmt::Display) -> FieldError {
    FieldError::new(field, what)
}

fn string_of<'a>(v: &'a Value, field: &str) -> Result<&'a str, FieldError> {
    v.as_str().ok_or_else(|| bad(field, "must be a string"))
}

impl Spec {
    /// Reads `tests`, `scoring`, `float_tolerance`, `language` and `extract` from the task.
    pub fn from_task(task: &TaskFields) -> Result<Spec, FieldError> {
        let tests = task.get("tests").ok_or_else(|| {
            bad(
                "tests",
                "is missing (an object with \"stdio\", \"call\", \"asserts\", \"pytest\", \"unittest\" or \"judge\")",
            )
        })?;
        let obj = tests.as_object().ok_or_else(|| {
            bad(
                "tests",
                "must be an object with \"stdio\", \"call\", \"asserts\", \"pytest\", \"unittest\" or \"judge\"",
            )
        })?;
        let language = match task.get("language") {
            None => "python".to_string(),
            Some(v) => canonical_language(string_of(v, "language")?)?.to_string(),
        };
        let parsed = if let Some(judge) = obj.get("judge") {
            Tests::Judge(Box::new(JudgeSpec::parse(judge)?))
        } else if let Some(stdio) = obj.get("stdio") {
            let items = stdio.as_array().filter(|a| !a.is_empty()).ok_or_else(|| {
                bad(
                    "tests.stdio",
                    "must be a non-empty list of {\"stdin\", \"stdout\"}",
                )
            })?;
            let cases = items
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let field = format!("tests.stdio[{i}]");
                    let stdin = c
                        .get("stdin")
                        .map_or(Ok(""), |v| string_of(v, &format!("{field}.stdin")))?;
                    let stdout = string_of(
                        c.get("stdout")
                            .ok_or_else(|| bad(&format!("{field}.stdout"), "is missing"))?,
                        &format!("{field}.stdout"),
                    )?;
                    Ok(StdioCase {
                        stdin: stdin.to_string(),
                        stdout: stdout.to_string(),
                    })
                })
                .collect::<Result<Vec<_>, FieldError>>()?;
            Tests::Stdio(cases)
        } else if let Some(call) = obj.get("call") {
            let record = match call.get("record") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err(bad("tests.call.record", "must be true or false")),
            };
            let entry_point = string_of(
                call.get("entry_point")
                    .ok_or_else(|| bad("tests.call.entry_point", "is missing"))?,
                "tests.call.entry_point",
            )?;
            let items = call
                .get("cases")
                .and_then(Value::as_array)
                .filter(|a| !a.is_empty())
                .ok_or_else(|| {
                    bad(
                        "tests.call.cases",
                        "must be a non-empty list of {\"args\", \"expected\"}",
                    )
                })?;
            let cases = items
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let args = c.get("args").and_then(Value::as_array).ok_or_else(|| {
                        bad(
                            &format!("tests.call.cases[{i}].args"),
                            "must be a list of arguments",
                        )
                    })?;
                    let expected = match c.get("expected") {
                        Some(expected) => expected.clone(),
                        None if record => Value::Null,
                        None => {
                            return Err(bad(
                                &format!("tests.call.cases[{i}].expected"),
                                "is missing",
                            ));
                        }
                    };
                    Ok(CallCase {
                        args: args.clone(),
                        expected,
                    })
                })
                .collect::<Result<Vec<_>, FieldError>>()?;
            Tests::Call {
                entry_point: entry_point.to_string(),
                cases,
                declaration: None,
                add_imports: false,
                record,
            }
        } else if let Some((framework, form)) = [TestFramework::Pytest, TestFramework::Unittest]
            .into_iter()
            .find_map(|framework| obj.get(framework.key()).map(|form| (framework, form)))
        {
            if language != "python" {
                return Err(bad(
                    &format!("tests.{}", framework.key()),
                    format!(
                        "runs Python test modules; the task's language is {language} (JavaScript \
                         and TypeScript test code goes in \"tests.asserts\")"
                    ),
                ));
            }
            let reference = obj
                .get("reference")
                .filter(|v| !v.is_null())
                .map(|v| string_of(v, "tests.reference").map(str::to_string))
                .transpose()?;
            Tests::Asserts {
                source: AssertSource::Module {
                    framework,
                    spec: test_module_form(framework, form)?,
                },
                entry_point: None,
                setup: None,
                reference,
            }
        } else if let Some((framework, form)) = [ScriptFramework::Jest, ScriptFramework::NodeTest]
            .into_iter()
            .find_map(|framework| obj.get(framework.key()).map(|form| (framework, form)))
        {
            if language != "javascript" && language != "typescript" {
                return Err(bad(
                    &format!("tests.{}", framework.key()),
                    format!(
                        "runs JavaScript and TypeScript test files; the task's language is \
                         {language} (Python test modules go in \"tests.pytest\" or \
                         \"tests.unittest\")"
                    ),
                ));
            }
            Tests::TestFile(test_file_form(framework, form, &language)?)
        } else if let Some(asserts) = obj.get("asserts") {
            let source = match asserts {
                Value::String(check) => AssertSource::Check(check.clone()),
                Value::Array(items) if !items.is_empty() => AssertSource::List(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| {
                            string_of(item, &format!("tests.asserts[{i}]")).map(str::to_string)
                        })
                        .collect::<Result<Vec<_>, FieldError>>()?,
                ),
                _ => {
                    return Err(bad(
                        "tests.asserts",
                        "must be source defining check(candidate), or a non-empty list of assert statements",
                    ));
                }
            };
            let optional = |field: &str| -> Result<Option<String>, FieldError> {
                obj.get(field)
                    .filter(|v| !v.is_null())
                    .map(|v| string_of(v, &format!("tests.{field}")).map(str::to_string))
                    .transpose()
            };
            let entry_point = optional("entry_point")?;
            let compiled_test = language != "python";
            if matches!(source, AssertSource::Check(_)) && entry_point.is_none() && !compiled_test {
                return Err(bad(
                    "tests.entry_point",
                    "is missing (the function the asserts call as `candidate`)",
                ));
            }
            let reference = optional("reference")?;
            let setup = optional("setup")?.or_else(|| reference.clone());
            Tests::Asserts {
                source,
                entry_point,
                setup,
                reference,
            }
        } else {
            return Err(bad(
                "tests",
                "needs one of \"stdio\", \"call\", \"asserts\", \"pytest\", \"unittest\", \"jest\", \"node_test\" or \"judge\"",
            ));
        };
        let scoring = match task.get("scoring").or_else(|| obj.get("scoring")) {
            None => None,
            Some(Value::String(s)) if s == "fraction" => Some(Scoring::Fraction),
            Some(Value::String(s)) if s == "all" => Some(Scoring::All),
            Some(_) => return Err(bad("scoring", "must be \"fraction\" or \"all\"")),
        };
        let float_tolerance = match obj.get("float_tolerance") {
            Some(v) => Some(
                v.as_f64()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .ok_or_else(|| bad("tests.float_tolerance", "must be a non-negative number"))?,
            ),
            None => task.optional_non_negative("float_tolerance")?,
        };
        let script = language == "javascript" || language == "typescript";
        let callable = language == "python" || script || takes_typed_calls(&language);
        let parsed = match parsed {
            // Before any other reading of call tests: `record` takes cases without `expected`.
            Tests::Call { record: true, .. } if !takes_typed_calls(&language) => {
                return Err(bad(
                    "tests.call.record",
                    format!(
                        "records what calls return for C, C++, Rust and Go candidates (typed \
                         calls); a {language} candidate's calls are not recorded"
                    ),
                ));
            }
            Tests::Asserts {
                source: AssertSource::Check(test),
                entry_point,
                ..
            } if matches!(
                language.as_str(),
                "cpp" | "rust" | "rust-release" | "javascript" | "typescript" | "go"
            ) =>
            {
                let declaration = declaration_of(obj, &language, "test code")?;
                let entry_point = match entry_point {
                    Some(entry) => entry,
                    None => entry_of_declaration(&language, &declaration).ok_or_else(|| {
                        bad(
                            "tests.entry_point",
                            "is missing, and the declaration opens no function to take it from",
                        )
                    })?,
                };
                let forward = match obj.get("forward") {
                    None => Vec::new(),
                    Some(Value::Array(items)) => items
                        .iter()
                        .map(|v| string_of(v, "tests.forward").map(str::to_string))
                        .collect::<Result<_, _>>()?,
                    Some(_) => {
                        return Err(bad(
                            "tests.forward",
                            "must be a list of the candidate's other functions the test code \
                             calls (Rust and Go: their signatures; JavaScript and TypeScript: their \
                             names)",
                        ));
                    }
                };
                Tests::Program(ProgramTests {
                    test,
                    declaration,
                    entry_point,
                    forward,
                    add_imports: add_imports_of(obj)?,
                })
            }
            // Python values that JSON cannot carry (tuples, sets, NaN): asserts, compared
            // with Python's own `==` ([`crate::kinds::python_calls`]).
            Tests::Call {
                entry_point, cases, ..
            } if language == "python"
                && cases
                    .iter()
                    .any(|c| c.args.iter().any(has_tags) || has_tags(&c.expected)) =>
            {
                let identifier = entry_point
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_')
                    && entry_point.chars().all(|c| c.is_alphanumeric() || c == '_');
                if !identifier {
                    return Err(bad(
                        "tests.call.entry_point",
                        format!("{entry_point:?} is not a Python function name"),
                    ));
                }
                let asserts = cases
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        assert_of(&entry_point, &c.args, &c.expected)
                            .map_err(|why| bad(&format!("tests.call.cases[{i}]"), why))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Tests::Asserts {
                    source: AssertSource::List(asserts),
                    entry_point: Some(entry_point),
                    setup: None,
                    reference: None,
                }
            }
            Tests::Call {
                entry_point,
                cases,
                record,
                ..
            } if takes_typed_calls(&language) => Tests::Call {
                entry_point,
                cases,
                declaration: Some(declaration_of(obj, &language, "call tests")?),
                add_imports: add_imports_of(obj)?,
                record,
            },
            other => other,
        };
        match &parsed {
            Tests::Program(_) | Tests::TestFile(_) => {}
            Tests::Stdio(_) => {}
            Tests::Judge(judge) if judge.interactive && script => {
                return Err(bad(
                    "language",
                    format!(
                        "is {language}, which cannot take part in an interactive problem (the \
                         JavaScript runner reads all of standard input before the program \
                         starts)"
                    ),
                ));
            }
            Tests::Judge(_) => {}
            Tests::Call { .. } if callable => {}
            Tests::Call { .. } => {
                return Err(bad(
                    "tests",
                    format!(
                        "has call tests, which need a Python, JavaScript, TypeScript, C, C++, Rust or Go \
                         candidate; a {language} program is graded on stdin/stdout \
                         (\"tests\": {{\"stdio\": [...]}})"
                    ),
                ));
            }
            Tests::Asserts { .. } if language == "python" => {}
            Tests::Asserts { .. } => {
                return Err(bad(
                    "tests",
                    format!(
                        "has assert tests, which need a Python, C++, Rust, JavaScript, TypeScript or Go \
                         candidate (all but Python: the benchmark's test code as a string, with \
                         \"declaration\"); a {language} program is graded on stdin/stdout"
                    ),
                ));
            }
        }
        let output_rule = match obj.get("compare") {
            None => OutputRule::Tokens {
                tolerance: float_tolerance,
            },
            Some(_) if !matches!(parsed, Tests::Stdio(_)) => {
                return Err(bad(
                    "tests.compare",
                    "applies to stdio tests (how their output is compared); these tests compare \
                     values",
                ));
            }
            Some(Value::String(s)) if s == "tokens" => OutputRule::Tokens {
                tolerance: float_tolerance,
            },
            Some(Value::String(s)) if s == "lines" && float_tolerance.is_none() => {
                OutputRule::Lines
            }
            Some(Value::String(s)) if s == "lines" => {
                return Err(bad(
                    "tests.compare",
                    "is \"lines\", which compares numbers by their exact decimal value: \
                     float_tolerance applies to \"tokens\"; drop one of the two",
                ));
            }
            Some(_) => {
                return Err(bad(
                    "tests.compare",
                    "must be \"tokens\" (the default: token by token, white space not \
                     significant) or \"lines\" (line by line, numbers by decimal value, as \
                     LiveCodeBench compares)",
                ));
            }
        };
        let prelude = match task.get("prelude") {
            None | Some(Value::Null) => String::new(),
            Some(_) if language != "python" => {
                return Err(bad(
                    "prelude",
                    format!(
                        "is for Python tasks (source run before the candidate's program); the \
                         task's language is {language}"
                    ),
                ));
            }
            Some(v) => string_of(v, "prelude")?.to_string(),
        };
        let extract = match task.get("extract") {
            None => Extract::Fenced,
            Some(Value::String(s)) if s == "fenced" => Extract::Fenced,
            Some(Value::String(s)) if s == "whole" => Extract::Whole,
            Some(_) => return Err(bad("extract", "must be \"fenced\" or \"whole\"")),
        };
        Ok(Spec {
            extract,
            tests: parsed,
            scoring,
            float_tolerance,
            output_rule,
            prelude,
            language,
        })
    }
}

/// `tests.declaration`: the entry point's declaration, which `what` (test code, call tests) in
/// `language` needs.
fn declaration_of(
    tests: &serde_json::Map<String, Value>,
    language: &str,
    what: &str,
) -> Result<String, FieldError> {
    let value = tests.get("declaration").ok_or_else(|| {
        bad(
            "tests.declaration",
            format!(
                "is missing: {language} {what} need the declaration of the function called \
                 (everything before its body, ending with its opening brace, as HumanEval-X's \
                 `declaration`), which gives its types"
            ),
        )
    })?;
    string_of(value, "tests.declaration").map(str::to_string)
}

/// `tests.add_imports` (Go: import the standard packages a program uses), false by default.
fn add_imports_of(tests: &serde_json::Map<String, Value>) -> Result<bool, FieldError> {
    match tests.get("add_imports") {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(bad(
            "tests.add_imports",
            "must be true or false (Go: import the standard packages a program uses, as \
             CodeGeeX's HumanEval-X harness does)",
        )),
    }
}

/// An error naming the first of `fields` (of the test form `field`) that is not one of `known`.
fn only_known_fields(
    fields: &serde_json::Map<String, Value>,
    known: &[&str],
    field: &str,
) -> Result<(), FieldError> {
    match fields.keys().find(|k| !known.contains(&k.as_str())) {
        Some(unknown) => Err(bad(
            &format!("{field}.{unknown}"),
            format!(
                "is not a field of the test form (it has {})",
                known.join(", ")
            ),
        )),
        None => Ok(()),
    }
}

/// `tests.jest` / `tests.node_test`: the test file's source as a string, or an object of `test`
/// (the source), `module` (the name the tests import the candidate as, `solution` by default)
/// and `file` (the test file's name, `solution.test.js` or `.ts` by default).
fn test_file_form(
    framework: ScriptFramework,
    form: &Value,
    language: &str,
) -> Result<TestFile, FieldError> {
    let field = format!("tests.{}", framework.key());
    let extension = if language == "typescript" { "ts" } else { "js" };
    let (test, module, file) = match form {
        Value::String(test) => (test.clone(), None, None),
        Value::Object(fields) => {
            let known = ["test", "module", "file"];
            only_known_fields(fields, &known, &field)?;
            let text = |key: &str| -> Result<Option<String>, FieldError> {
                fields
                    .get(key)
                    .filter(|v| !v.is_null())
                    .map(|v| string_of(v, &format!("{field}.{key}")).map(str::to_string))
                    .transpose()
            };
            let test = text("test")?.ok_or_else(|| {
                bad(
                    &format!("{field}.test"),
                    "is missing (the test file's source)",
                )
            })?;
            (test, text("module")?, text("file")?)
        }
        _ => {
            return Err(bad(
                &field,
                "must be the test file's source, or an object with \"test\" (the source), \
                 \"module\" (the name the tests import the candidate as, \"solution\" by \
                 default) and \"file\" (the test file's name)",
            ));
        }
    };
    let module = module.unwrap_or_else(|| "solution".to_string());
    if module.is_empty()
        || !module
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '$'))
    {
        return Err(bad(
            &format!("{field}.module"),
            format!(
                "{module:?} is not a module name (letters, digits, `_`, `-`, `.`: what the tests \
                 import as './NAME')"
            ),
        ));
    }
    let file = file.unwrap_or_else(|| format!("{module}.test.{extension}"));
    Ok(TestFile {
        framework,
        test,
        module,
        file,
    })
}

/// `tests.pytest` / `tests.unittest` as the checking sandbox reads it (JSON of `test`, `conftest`,
/// `module`, `file`): the test module's source as a string, or an object of those fields. What
/// the fields hold (identifiers, sources that compile) is checked there, once per task.
fn test_module_form(framework: TestFramework, form: &Value) -> Result<String, FieldError> {
    let field = format!("tests.{}", framework.key());
    let object = match form {
        Value::String(test) => serde_json::json!({"test": test}),
        Value::Object(fields) => {
            let known = ["test", "conftest", "module", "file"];
            only_known_fields(fields, &known, &field)?;
            for key in known {
                if let Some(value) = fields.get(key).filter(|v| !v.is_null()) {
                    string_of(value, &format!("{field}.{key}"))?;
                }
            }
            if fields.get("test").and_then(Value::as_str).is_none() {
                return Err(bad(
                    &format!("{field}.test"),
                    "is missing (the test module's source)",
                ));
            }
            form.clone()
        }
        _ => {
            return Err(bad(
                &field,
                "must be the test module's source, or an object with \"test\" (the source), \
                 \"module\" (the name the tests import the candidate as, \"solution\" by default), \
                 \"file\" and, for pytest, \"conftest\"",
            ));
        }
    };
    Ok(object.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(task: &str) -> Result<Spec, FieldError> {
        Spec::from_task(&TaskFields::parse(task).unwrap())
    }

    #[test]
    fn test_modules_are_read_as_their_framework_runs_them() {
        let read =
            spec(r#"{"tests": {"pytest": "def test_a():\n    assert 1\n", "reference": "x = 1"}}"#)
                .unwrap();
        match read.tests {
            Tests::Asserts {
                source: AssertSource::Module { framework, spec },
                reference,
                entry_point: None,
                ..
            } => {
                assert_eq!(framework, TestFramework::Pytest);
                assert_eq!(
                    serde_json::from_str::<Value>(&spec).unwrap(),
                    serde_json::json!({"test": "def test_a():\n    assert 1\n"})
                );
                assert_eq!(reference.as_deref(), Some("x = 1"));
            }
            other => panic!("{other:?}"),
        }
        let read = spec(r#"{"tests": {"unittest": {"test": "import unittest", "module": "app.solution", "file": "test_app.py"}}}"#)
            .unwrap();
        assert!(matches!(
            read.tests,
            Tests::Asserts {
                source: AssertSource::Module {
                    framework: TestFramework::Unittest,
                    ..
                },
                ..
            }
        ));
    }

    #[test]
    fn test_module_forms_that_cannot_run_say_which_field_is_wrong() {
        let error = |task: &str| spec(task).unwrap_err().0;
        assert!(
            error(r#"{"language": "cpp", "tests": {"pytest": "def test_a(): pass"}}"#).starts_with(
                "\"tests.pytest\" runs Python test modules; the task's language is cpp"
            ),
            "{}",
            error(r#"{"language": "cpp", "tests": {"pytest": "def test_a(): pass"}}"#)
        );
        assert!(
            error(r#"{"tests": {"pytest": {"test": "x", "fixture": "y"}}}"#)
                .starts_with("\"tests.pytest.fixture\" is not a field of the test form")
        );
        assert!(
            error(r#"{"tests": {"unittest": {"module": "solution"}}}"#)
                .starts_with("\"tests.unittest.test\" is missing")
        );
        assert!(
            error(r#"{"tests": {"unittest": {"test": 3}}}"#)
                .starts_with("\"tests.unittest.test\" must be a string")
        );
        assert!(
            error(r#"{"tests": {"pytest": 3}}"#)
                .starts_with("\"tests.pytest\" must be the test module's source")
        );
    }

    #[test]
    fn stdio_output_rules_and_the_prelude_are_read() {
        let stdio = r#""stdio": [{"stdin": "", "stdout": "1"}]"#;
        let read = |extra: &str| spec(&format!(r#"{{"tests": {{{stdio}{extra}}}}}"#));
        assert_eq!(
            read("").unwrap().output_rule,
            OutputRule::Tokens { tolerance: None }
        );
        assert_eq!(
            read(r#", "compare": "tokens", "float_tolerance": 0.5"#)
                .unwrap()
                .output_rule,
            OutputRule::Tokens {
                tolerance: Some(0.5)
            }
        );
        assert_eq!(
            read(r#", "compare": "lines""#).unwrap().output_rule,
            OutputRule::Lines
        );
        let error = |extra: &str| read(extra).unwrap_err().0;
        assert!(error(r#", "compare": "words""#).contains("must be \"tokens\""));
        assert!(
            error(r#", "compare": "lines", "float_tolerance": 1e-6"#)
                .contains("drop one of the two")
        );
        let call = spec(
            r#"{"tests": {"call": {"entry_point": "f", "cases": [{"args": [], "expected": 1}]}, "compare": "lines"}}"#,
        );
        assert!(call.unwrap_err().0.contains("applies to stdio tests"));
        let task = format!(r#"{{"prelude": "import math\n", "tests": {{{stdio}}}}}"#);
        assert_eq!(spec(&task).unwrap().prelude, "import math\n");
        assert_eq!(read("").unwrap().prelude, "");
        let wrong = format!(r#"{{"prelude": 1, "tests": {{{stdio}}}}}"#);
        assert!(
            spec(&wrong)
                .unwrap_err()
                .0
                .contains("\"prelude\" must be a string")
        );
        let cpp = format!(
            r##"{{"language": "cpp", "prelude": "#include <cstdio>", "tests": {{{stdio}}}}}"##
        );
        assert!(spec(&cpp).unwrap_err().0.contains("is for Python tasks"));
    }
}
