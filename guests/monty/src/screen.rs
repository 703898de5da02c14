//! The screen of a program run under `auto`: constructs where Monty's outcome differs from
//! CPython's, found by the differential test (`crates/rewardbox/tests/all/python_engines.rs`), hand the whole program
//! to CPython. Each is a class of programs, not one program:
//!
//! - sets: CPython iterates (and prints) a set in the order of its hash table, strings by a
//!   seeded hash; Monty in insertion order. So any set display or comprehension, the names `set`
//!   and `frozenset`, and set operators on dictionary views;
//! - `round(x, n)`: Monty rounds the binary value's decimal expansion differently
//!   (`round(2.675, 2)` is 2.67 in CPython, 2.68 in Monty);
//! - `hash` and `id`: their values are the interpreter's own;
//! - the `random`, `time` and `datetime` modules, and `os`: values drawn from the sandbox's seed
//!   or clock, which the two interpreters draw differently.

use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, Operator, Stmt};

/// Modules whose values depend on the interpreter's use of the seed or the clock.
const PINNED_MODULES: &[&str] = &["random", "time", "datetime", "os", "secrets", "uuid"];

/// Names whose values, or iteration order, are the interpreter's own.
const PINNED_NAMES: &[(&str, &str)] = &[
    ("set", "a set, which CPython iterates in hash order"),
    ("frozenset", "a set, which CPython iterates in hash order"),
    ("hash", "hash(), whose values are CPython's own"),
    ("id", "id(), whose values are CPython's own"),
];

/// Why the program of `suite` (its parsed statements) is left to CPython under `auto`, if it is.
/// (A program that does not parse is not screened: it fails in Monty too, and then runs in
/// CPython.)
pub fn pinned_to_cpython(suite: &[Stmt]) -> Option<&'static str> {
    let mut screen = Screen { why: None };
    for stmt in suite {
        screen.visit_stmt(stmt);
        if screen.why.is_some() {
            break;
        }
    }
    screen.why
}

struct Screen {
    why: Option<&'static str>,
}

impl<'a> Visitor<'a> for Screen {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        let module_pinned = |name: &str| {
            let top = name.split('.').next().unwrap_or(name);
            PINNED_MODULES.contains(&top)
        };
        match stmt {
            Stmt::Import(import) if import.names.iter().any(|a| module_pinned(a.name.as_str())) => {
                self.why = Some("a module whose values come from the seed or the clock");
            }
            Stmt::ImportFrom(import)
                if import
                    .module
                    .as_ref()
                    .is_some_and(|m| module_pinned(m.as_str())) =>
            {
                self.why = Some("a module whose values come from the seed or the clock");
            }
            _ => walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if self.why.is_some() {
            return;
        }
        match expr {
            Expr::Set(_) | Expr::SetComp(_) => {
                self.why = Some("a set, which CPython iterates in hash order");
            }
            Expr::Name(name) => {
                if let Some((_, why)) = PINNED_NAMES.iter().find(|(n, _)| *n == name.id.as_str()) {
                    self.why = Some(why);
                }
            }
            Expr::Call(call)
                if matches!(&*call.func, Expr::Name(n) if n.id.as_str() == "round")
                    && call.arguments.args.len() + call.arguments.keywords.len() >= 2 =>
            {
                self.why = Some("round() to a number of digits, which Monty rounds differently");
            }
            Expr::BinOp(op)
                if matches!(
                    op.op,
                    Operator::BitAnd | Operator::BitOr | Operator::BitXor | Operator::Sub
                ) && (is_view(&op.left) || is_view(&op.right)) =>
            {
                self.why = Some("a set made from a dictionary view");
            }
            _ => {}
        }
        if self.why.is_none() {
            walk_expr(self, expr);
        }
    }
}

/// `x.keys()` or `x.items()`: a view whose set operators make sets.
fn is_view(expr: &Expr) -> bool {
    matches!(expr, Expr::Call(call)
        if matches!(&*call.func, Expr::Attribute(a) if matches!(a.attr.as_str(), "keys" | "items")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The screen of `source` as the runner applies it: nothing when it does not parse.
    fn screened(source: &str) -> Option<&'static str> {
        let parsed = ruff_python_parser::parse_module(source).ok()?;
        pinned_to_cpython(parsed.suite())
    }

    #[test]
    fn constructs_left_to_cpython() {
        let pinned = [
            "print({1, 2})",
            "print({c for c in 'ab'})",
            "xs = set('ab')",
            "f = frozenset",
            "print(hash('a'))",
            "print(id(1))",
            "print(round(2.675, 2))",
            "print(round(2.675, ndigits=2))",
            "import random",
            "import os.path",
            "from time import time",
            "from datetime import date",
            "print(d.keys() & e)",
            "print(d.items() - e.items())",
            "def f():\n    return {1}",
            "class A:\n    def m(self):\n        return [set()]",
        ];
        for source in pinned {
            assert!(screened(source).is_some(), "{source:?}");
        }
        let free = [
            "print(1)",
            "print({1: 2}, {k: v for k, v in []})",
            "print(round(2.5), round(x))",
            "import math, collections",
            "from itertools import permutations",
            "print(d.keys(), list(d.items()))",
            "print(a & b, a - b)",
            "settings = 1\nprint(settings)",
            "print(1",
        ];
        for source in free {
            assert_eq!(screened(source), None, "{source:?}");
        }
    }
}
