//! Codeforces' Polygon packages (`problem.xml`, `tests/`, `files/`, `solutions/`) as rewardbox
//! tasks, every file read inside the package ([`crate::files`]).
//!
//! [`read_package`] reads a package (limits, tests, groups, the testlib checker, interactor and
//! validators, the solutions and their tags); [`complete_tests`] makes the tests it does not
//! carry (generators on their command lines, answers from the main solution); [`task`] makes it
//! a `code` task with `tests.judge` in the testlib convention with `subtasks`; [`verify`] judges
//! every solution and checks its verdict is one its tag allows; [`invalid_inputs`] runs the
//! validators on every test.

mod generate;
mod package;
mod task;
mod verify;

pub use generate::{complete_tests, invalid_inputs};
pub use package::{Case, Generator, Group, Package, Solution, Tag, read_package};
pub use task::{OUTPUT_BYTES, judge_tests, task};
pub use verify::{Check, verify};
