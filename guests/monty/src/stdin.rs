//! Standard input for Monty, which has `input()` (an external function here) but no `sys.stdin`.
//! Contest programs read their input through `sys.stdin` more often than not
//! (`input = sys.stdin.readline`, `sys.stdin.read().split()`), so those three methods are given to
//! Monty as external functions too: [`rewrite`] replaces each reference to `sys.stdin.read`,
//! `sys.stdin.readline` or `sys.stdin.readlines` (and `stdin.<method>` after
//! `from sys import stdin`) by the name of the function that reads the same lines. Any other use
//! of `sys.stdin` is left as written, fails in Monty, and (under `auto`) runs in CPython.

use monty_types::{ExtFunctionResult, MontyObject};
use ruff_python_ast::visitor::{Visitor, walk_expr};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;
use std::collections::VecDeque;
use std::io::Read;

/// The names the rewritten methods are called by, and what each reads.
pub const FUNCTIONS: [(&str, Method); 4] = [
    ("input", Method::Input),
    ("__rb_stdin_read", Method::Read),
    ("__rb_stdin_readline", Method::Readline),
    ("__rb_stdin_readlines", Method::Readlines),
];

/// A way of reading standard input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// `input()`: the next line without its newline; `EOFError` at the end.
    Input,
    /// `sys.stdin.read()`: everything left.
    Read,
    /// `sys.stdin.readline()`: the next line with its newline; `''` at the end.
    Readline,
    /// `sys.stdin.readlines()`: every line left, each with its newline.
    Readlines,
}

/// `source` with its references to `sys.stdin`'s reading methods replaced by [`FUNCTIONS`]'
/// names (`suite` is `source` parsed); `source` itself when it has none.
pub fn rewrite(source: &str, suite: &[Stmt]) -> String {
    let mut finder = Finder {
        stdin_imported: suite.iter().any(imports_stdin),
        found: Vec::new(),
    };
    for stmt in suite {
        finder.visit_stmt(stmt);
    }
    if finder.found.is_empty() {
        return source.to_string();
    }
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    for (start, end, name) in finder.found {
        out.push_str(&source[at..start]);
        out.push_str(name);
        at = end;
    }
    out.push_str(&source[at..]);
    out
}

/// `from sys import stdin` (not renamed).
fn imports_stdin(stmt: &Stmt) -> bool {
    matches!(stmt, Stmt::ImportFrom(i)
        if i.module.as_ref().is_some_and(|m| m.as_str() == "sys")
            && i.names.iter().any(|a| a.name.as_str() == "stdin" && a.asname.is_none()))
}

struct Finder {
    stdin_imported: bool,
    /// Byte ranges of the references found, in source order, and the name replacing each.
    found: Vec<(usize, usize, &'static str)>,
}

impl Finder {
    /// Whether `expr` is `sys.stdin` (or `stdin` after `from sys import stdin`).
    fn is_stdin(&self, expr: &Expr) -> bool {
        match expr {
            Expr::Attribute(a) => {
                a.attr.as_str() == "stdin"
                    && matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "sys")
            }
            Expr::Name(n) => self.stdin_imported && n.id.as_str() == "stdin",
            _ => false,
        }
    }
}

impl<'a> Visitor<'a> for Finder {
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Attribute(a) = expr
            && self.is_stdin(&a.value)
        {
            let name = match a.attr.as_str() {
                "read" => Some("__rb_stdin_read"),
                "readline" => Some("__rb_stdin_readline"),
                "readlines" => Some("__rb_stdin_readlines"),
                _ => None,
            };
            if let Some(name) = name {
                let range = a.range();
                self.found
                    .push((range.start().into(), range.end().into(), name));
                return;
            }
        }
        walk_expr(self, expr);
    }
}

/// The program's standard input: lines of CPython's text-mode stdin (UTF-8; on POSIX only `\n`
/// ends a line, a `\r` stays in it, as CPython keeps it).
pub struct Lines(VecDeque<String>);

impl Lines {
    /// All of stdin, or `None` when it is not UTF-8 (CPython would raise where Monty cannot
    /// follow it byte by byte).
    pub fn read() -> Option<Lines> {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        Some(Lines(
            text.split_inclusive('\n').map(str::to_string).collect(),
        ))
    }

    /// What `method` returns; `None` where CPython raises `EOFError` (`input()` at the end), an
    /// exception Monty does not have.
    pub fn answer(&mut self, method: Method) -> Option<ExtFunctionResult> {
        let value = match method {
            Method::Input => {
                let line = self.0.pop_front()?;
                MontyObject::string(line.strip_suffix('\n').unwrap_or(&line))
            }
            Method::Readline => MontyObject::string(self.0.pop_front().unwrap_or_default()),
            Method::Read => MontyObject::string(self.0.drain(..).collect::<String>()),
            Method::Readlines => MontyObject::list(self.0.drain(..).map(MontyObject::string)),
        };
        Some(ExtFunctionResult::Return(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rewrite as the runner applies it: a program that does not parse stays as it is.
    fn rewritten(source: &str) -> String {
        match ruff_python_parser::parse_module(source) {
            Ok(parsed) => rewrite(source, parsed.suite()),
            Err(_) => source.to_string(),
        }
    }

    #[test]
    fn references_to_stdins_methods_become_functions() {
        let cases = [
            (
                "import sys\ninput = sys.stdin.readline\n",
                "import sys\ninput = __rb_stdin_readline\n",
            ),
            (
                "import sys\nxs = sys.stdin.read().split()",
                "import sys\nxs = __rb_stdin_read().split()",
            ),
            (
                "import sys\nfor l in sys.stdin.readlines(): pass",
                "import sys\nfor l in __rb_stdin_readlines(): pass",
            ),
            (
                "from sys import stdin\nn = int(stdin.readline())",
                "from sys import stdin\nn = int(__rb_stdin_readline())",
            ),
            (
                "import sys\ndef f():\n    return sys.stdin.readline().strip()",
                "import sys\ndef f():\n    return __rb_stdin_readline().strip()",
            ),
            ("s = 'sys.stdin.read'", "s = 'sys.stdin.read'"),
            (
                "import sys\nfor line in sys.stdin: pass",
                "import sys\nfor line in sys.stdin: pass",
            ),
            (
                "import sys\nb = sys.stdin.buffer.read()",
                "import sys\nb = sys.stdin.buffer.read()",
            ),
            ("stdin.readline()", "stdin.readline()"),
            (
                "from sys import stdin as s\ns.readline()",
                "from sys import stdin as s\ns.readline()",
            ),
            ("print(1", "print(1"),
            (
                "x = 'é'; import sys; y = sys.stdin.read()",
                "x = 'é'; import sys; y = __rb_stdin_read()",
            ),
        ];
        for (source, expected) in cases {
            assert_eq!(rewritten(source), expected, "{source:?}");
        }
    }
}
