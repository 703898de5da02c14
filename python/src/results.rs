//! Results as Python dicts, built field by field with interned keys (no JSON value in between):
//! the same schema as the CLI's output lines.

use crate::convert::json_to_py;
use pyo3::exceptions::PyRuntimeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rewardbox::TaskResult;
use rewardbox::{CompletionResult, Status};

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Ok => "ok",
        Status::VerifierError => "verifier_error",
        Status::InvalidTask => "invalid_task",
    }
}

/// One completion's result: `score, passed, status, detail, fuel, wall_us`, plus `mask` when
/// true and `cases` when there are any.
pub fn completion_to_py<'py>(
    py: Python<'py>,
    r: &CompletionResult,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "score"), r.score)?;
    d.set_item(intern!(py, "passed"), r.passed)?;
    d.set_item(intern!(py, "status"), status_name(r.status))?;
    d.set_item(intern!(py, "detail"), &r.detail)?;
    d.set_item(intern!(py, "fuel"), r.fuel)?;
    d.set_item(intern!(py, "wall_us"), r.wall_us)?;
    if r.mask {
        d.set_item(intern!(py, "mask"), true)?;
    }
    if !r.cases.is_empty() {
        let cases =
            serde_json::to_value(&r.cases).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        d.set_item(intern!(py, "cases"), json_to_py(py, &cases)?)?;
    }
    Ok(d)
}

/// The completions' results of one task, as a list.
pub fn completions_to_py<'py>(
    py: Python<'py>,
    results: &[CompletionResult],
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for r in results {
        list.append(completion_to_py(py, r)?)?;
    }
    Ok(list)
}

/// One task's result: `id`, `results`, and `line`/`status`/`detail` when set.
pub fn task_to_py<'py>(py: Python<'py>, t: &TaskResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "id"), &t.id)?;
    if let Some(line) = t.line {
        d.set_item(intern!(py, "line"), line)?;
    }
    if let Some(status) = t.status {
        d.set_item(intern!(py, "status"), status_name(status))?;
    }
    if let Some(detail) = &t.detail {
        d.set_item(intern!(py, "detail"), detail)?;
    }
    d.set_item(intern!(py, "results"), completions_to_py(py, &t.results)?)?;
    Ok(d)
}
