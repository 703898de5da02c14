//! IOI/CMS tasks in the layout CMS's TPS loader reads (`problem.json`, `tests/`, `subtasks/`,
//! `checker/`, `graders/`) with TPS's `solutions/` and `solutions.json`, as rewardbox tasks,
//! every file read inside the task's directory ([`crate::files`]).
//!
//! [`read_task`] reads a task (limits, tests, subtasks, the checker, the grader or the manager
//! with its stubs, the header, the solutions and their verdicts); [`task`] makes it a `code`
//! task whose `tests.judge` has CMS's parts; [`verify`] judges every solution and checks it
//! shows what its verdict asks.

mod package;
mod task;
mod verify;

pub use package::{Case, Solution, Subtask, Task, TaskType, Verdict, read_task};
pub use task::{OUTPUT_BYTES, judge_tests, languages, task};
pub use verify::{Check, verify};
