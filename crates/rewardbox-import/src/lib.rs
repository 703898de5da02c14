//! Floor 3 of rewardbox: benchmark and environment formats read as rewardbox tasks, one module per
//! format.
//!
//! - [`kattis`]: Kattis / ICPC problem packages (`legacy` and `2023-07`): test data, validators,
//!   limits from the jury's submissions, and the submissions' verdicts checked.
//! - [`polygon`]: Codeforces' Polygon packages: testlib checkers, interactors and validators,
//!   generated tests, groups with points and dependencies, and the solutions' tags checked.
//! - [`cms`]: IOI/CMS tasks (TPS's layout): graders whose functions the submission implements,
//!   communication tasks' managers and stubs, CMS checkers, subtasks, and the solutions' TPS
//!   verdicts checked.
//! - [`humanevalx`]: HumanEval-X's rows (C++, Rust, Go, JavaScript) graded by the benchmark's own
//!   test code; [`multipl_e`]: MultiPL-E's rows.
//! - [`livecodebench`]: LiveCodeBench's code-generation rows (stdin and functional), graded by
//!   the rules of its grader, `lcb_runner`.
//! - [`deepgym`]: DeepGym environment folders (`verifier.py`, `task.md`, ...).
//! - [`folders`]: finding the folders an import reads; [`files`]: reading a package's files
//!   without leaving it.
//!
//! The CLI's `rewardbox import` is a thin layer over these.

#![deny(missing_docs)]

pub mod cms;
pub mod deepgym;
mod files;
pub mod folders;
pub mod humanevalx;
pub mod kattis;
pub mod livecodebench;
pub mod multipl_e;
pub mod polygon;
mod rejudge;
