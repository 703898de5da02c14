//! Floor 4 of rewardbox: the Python extension.
//!
//! The `rewardbox._rewardbox` extension module: the Rust [`rewardbox::Scorer`] behind a Python
//! class. Tasks come in as Python dicts with the CLI's JSONL schema and results go out as plain
//! dicts and lists with the CLI's result schema. The GIL is released while scoring, so many Python
//! threads may share one `Scorer`.

#![deny(missing_docs)]

mod convert;
mod envs;
mod results;

use convert::py_to_json;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use results::{completions_to_py, task_to_py};
use rewardbox::Status;
use rewardbox::{ComponentCache, LimitOverrides, Limits, ScorerOptions, Task, TaskResult};
use serde_json::Value;

/// Scores completions with sandboxed WebAssembly verifiers, in parallel, in-process.
///
/// Build one per process and share it between threads: it holds the compiled verifiers and a
/// thread pool. Arguments mirror the CLI's options.
#[pyclass(frozen, module = "rewardbox._rewardbox")]
struct Scorer {
    inner: rewardbox::Scorer,
}

#[pymethods]
impl Scorer {
    #[new]
    #[pyo3(signature = (threads=None, *, cache_dir=None, no_cache=false, fuel=None, wall_ms=None, memory_mb=None, output_bytes=None, seed=0, python_engine="auto"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        threads: Option<usize>,
        cache_dir: Option<std::path::PathBuf>,
        no_cache: bool,
        fuel: Option<u64>,
        wall_ms: Option<u64>,
        memory_mb: Option<u64>,
        output_bytes: Option<u64>,
        seed: u64,
        python_engine: &str,
    ) -> PyResult<Self> {
        let python_engine = rewardbox::PythonEngine::parse(python_engine).ok_or_else(|| {
            PyValueError::new_err(format!(
                "python_engine must be \"auto\", \"cpython\" or \"monty\", not {python_engine:?}"
            ))
        })?;
        if threads == Some(0) {
            return Err(PyValueError::new_err(
                "threads must be at least 1 (or None for every core)",
            ));
        }
        let cache = match (no_cache, cache_dir) {
            (true, _) => ComponentCache::disabled(),
            (false, Some(dir)) => ComponentCache::in_dir(dir),
            (false, None) => ComponentCache::user_default(),
        };
        let overrides = LimitOverrides {
            fuel,
            wall_ms,
            memory_mb,
            output_bytes,
        };
        let options = ScorerOptions {
            threads,
            cache,
            limits: Limits::default().with(&overrides),
            seed,
            python_engine,
            ..rewardbox::ScorerOptions::default()
        };
        let inner = rewardbox::Scorer::new(options)
            .map_err(|e| PyRuntimeError::new_err(format!("the scorer could not start: {e:#}")))?;
        Ok(Scorer { inner })
    }

    /// The number of scoring threads.
    #[getter]
    fn threads(&self) -> usize {
        self.inner.threads()
    }

    /// Scores a list of task dicts (the CLI's JSONL schema); returns one result dict per task, in
    /// order. Raises `ValueError` naming the task and field when a task is invalid.
    fn score<'py>(
        &self,
        py: Python<'py>,
        tasks: &Bound<'py, PyList>,
    ) -> PyResult<Bound<'py, PyList>> {
        let mut parsed = Vec::with_capacity(tasks.len());
        for (index, item) in tasks.iter().enumerate() {
            parsed.push(read_task(&item, index)?);
        }
        let results = py.detach(|| self.inner.score_tasks(&parsed));
        let out = PyList::empty(py);
        for (index, result) in results.iter().enumerate() {
            check_valid(result, index)?;
            out.append(task_to_py(py, result)?)?;
        }
        Ok(out)
    }

    /// Scores `completions` (a list of strings) for one task dict (its own `completions` field, if
    /// any, is ignored); returns one result dict per completion.
    fn score_group<'py>(
        &self,
        py: Python<'py>,
        task: &Bound<'py, PyDict>,
        completions: Vec<String>,
    ) -> PyResult<Bound<'py, PyList>> {
        let mut value =
            py_to_json(task.as_any()).map_err(|e| PyValueError::new_err(format!("task: {e}")))?;
        if let Value::Object(fields) = &mut value {
            fields.insert("completions".into(), Value::from(completions));
        }
        let task = Task::from_value(value)
            .map_err(|e| PyValueError::new_err(format!("task: {}", e.message)))?;
        let result = py.detach(|| self.inner.score_task(&task));
        check_valid(&result, 0)?;
        completions_to_py(py, &result.results)
    }

    fn __repr__(&self) -> String {
        format!("rewardbox.Scorer(threads={})", self.inner.threads())
    }
}

fn read_task(item: &Bound<'_, PyAny>, index: usize) -> PyResult<Task> {
    let value =
        py_to_json(item).map_err(|e| PyValueError::new_err(format!("task {index}: {e}")))?;
    Task::from_value(value).map_err(|e| {
        let id = e.id.map(|id| format!(" (id \"{id}\")")).unwrap_or_default();
        PyValueError::new_err(format!("task {index}{id}: {}", e.message))
    })
}

/// A task the verifier rejected (`invalid_task`) raises, as a malformed one does.
fn check_valid(result: &TaskResult, index: usize) -> PyResult<()> {
    if result.status == Some(Status::InvalidTask) {
        let id = result
            .id
            .as_ref()
            .map(|id| format!(" (id \"{id}\")"))
            .unwrap_or_default();
        return Err(PyValueError::new_err(format!(
            "task {index}{id}: {}",
            result.detail.as_deref().unwrap_or("invalid task")
        )));
    }
    Ok(())
}

/// The names of the built-in verifiers.
#[pyfunction]
fn builtin_verifiers() -> Vec<&'static str> {
    rewardbox::BUILTINS.iter().map(|b| b.name).collect()
}

/// The advantages of one group's rewards (`None`: masked) by `method`: the values and whether
/// the group is zero-variance (see `rewardbox.advantages`, which reads result dicts too).
#[pyfunction]
fn advantages(rewards: Vec<Option<f64>>, method: &str, epsilon: f64) -> PyResult<(Vec<f64>, bool)> {
    use rewardbox::advantages::Method;
    let method = Method::parse(method).ok_or_else(|| {
        PyValueError::new_err(format!(
            "method must be one of {}, got {method:?}",
            Method::NAMES.join(", ")
        ))
    })?;
    if rewards.iter().flatten().any(|r| r.is_nan()) {
        return Err(PyValueError::new_err("a reward is NaN"));
    }
    let computed = rewardbox::advantages::advantages(&rewards, method, epsilon);
    Ok((computed.values, computed.zero_variance))
}

#[pymodule]
fn _rewardbox(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Scorer>()?;
    m.add_function(wrap_pyfunction!(advantages, m)?)?;
    envs::register(m)?;
    m.add_function(wrap_pyfunction!(builtin_verifiers, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
