//! Kattis / ICPC problem packages (the Kattis problem package format, `legacy` and `2023-07`) as
//! rewardbox tasks, every file read inside the package ([`crate::files`]).
//!
//! [`package`] reads a package ([`metadata`] its `problem.yaml`, [`program`] its programs);
//! [`timing`] derives its time limit from the jury's accepted submissions, in fuel; [`task`]
//! makes it a `code` task with `tests.judge`; [`verify`] judges every jury submission and checks
//! it gets the verdict its directory promises.

mod metadata;
mod package;
pub(crate) mod program;
pub(crate) mod task;
mod timing;
pub(crate) mod verify;
mod yaml;

pub use package::{Expected, Package, read_package};
pub use task::{TaskShape, fenced, task};
pub use timing::time_limit;
pub use verify::{Check, verify};
