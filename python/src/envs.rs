//! `rewardbox.Environments` and `rewardbox.Session`: multi-turn environments (CodeGym format) in
//! persistent sandboxes, from Python. The GIL is released while a session runs.

use crate::convert::{json_to_py, py_to_json};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use rewardbox::{ComponentCache, Limits};
use rewardbox_envs::{EnvError, EnvOptions};
use std::time::Duration;

create_exception!(
    _rewardbox,
    SessionError,
    pyo3::exceptions::PyException,
    "A session or environment failed: it did not start, broke in a step (a limit, an exit, a \
     trap), raised, or is unknown. `kind` says which (see `rewardbox_envs::EnvError::kind`)."
);

fn env_error(e: EnvError) -> PyErr {
    let err = SessionError::new_err(e.to_string());
    Python::attach(|py| {
        let _ = err.value(py).setattr("kind", e.kind());
    });
    err
}

/// The environment files of a directory and the sessions started from them.
#[pyclass(frozen, module = "rewardbox._rewardbox")]
pub struct Environments {
    inner: rewardbox_envs::Environments,
}

#[pymethods]
impl Environments {
    #[new]
    #[pyo3(signature = (env_dir, *, fuel=None, wall_ms=None, memory_mb=None, output_bytes=None, idle_ttl_s=None, max_sessions=None, cache_dir=None, no_cache=false, seed=0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        env_dir: std::path::PathBuf,
        fuel: Option<u64>,
        wall_ms: Option<u64>,
        memory_mb: Option<u64>,
        output_bytes: Option<u64>,
        idle_ttl_s: Option<f64>,
        max_sessions: Option<usize>,
        cache_dir: Option<std::path::PathBuf>,
        no_cache: bool,
        seed: u64,
    ) -> PyResult<Self> {
        let mut options = EnvOptions::new(env_dir);
        let d = options.limits;
        options.limits = Limits {
            fuel: fuel.unwrap_or(d.fuel),
            wall_ms: wall_ms.unwrap_or(d.wall_ms),
            memory_bytes: memory_mb.map_or(d.memory_bytes, |mb| mb << 20),
            output_bytes: output_bytes.unwrap_or(d.output_bytes),
        };
        if let Some(ttl) = idle_ttl_s {
            if !(ttl.is_finite() && ttl > 0.0) {
                return Err(PyValueError::new_err(
                    "idle_ttl_s must be a positive number of seconds",
                ));
            }
            options.idle_ttl = Duration::from_secs_f64(ttl);
        }
        if let Some(max) = max_sessions {
            options.max_sessions = max;
        }
        options.cache = match (no_cache, cache_dir) {
            (true, _) => ComponentCache::disabled(),
            (false, Some(dir)) => ComponentCache::in_dir(dir),
            (false, None) => ComponentCache::user_default(),
        };
        options.seed = seed;
        let inner = rewardbox_envs::Environments::new(options)
            .map_err(|e| PyRuntimeError::new_err(format!("{e:#}")))?;
        Ok(Environments { inner })
    }

    /// Starts a session from an environment string (`codegym_v1@<FileStem>@<json config>`);
    /// `session_id` names it.
    #[pyo3(signature = (env_str, session_id=None))]
    fn start(
        &self,
        py: Python<'_>,
        env_str: String,
        session_id: Option<String>,
    ) -> PyResult<Session> {
        let session = py
            .detach(|| self.inner.start(session_id.as_deref(), &env_str))
            .map_err(env_error)?;
        Ok(Session { inner: session })
    }

    /// The live session `session_id`.
    fn get(&self, session_id: &str) -> PyResult<Session> {
        self.inner
            .get(session_id)
            .map(|inner| Session { inner })
            .map_err(env_error)
    }

    /// Steps many sessions at once, in parallel with the GIL released: `steps` is a list of
    /// `(session, action)`; returns `(ok, observation)` or the `SessionError` per step.
    fn step_many<'py>(
        &self,
        py: Python<'py>,
        steps: Vec<(PyRef<'py, Session>, String)>,
    ) -> PyResult<Bound<'py, PyList>> {
        let steps: Vec<(rewardbox_envs::Session, String)> = steps
            .into_iter()
            .map(|(s, a)| (s.inner.clone(), a))
            .collect();
        let results = py.detach(|| self.inner.step_many(&steps));
        let out = PyList::empty(py);
        for result in results {
            match result {
                Ok(step) => out.append((step.ok, step.observation))?,
                Err(e) => out.append(env_error(e).into_value(py))?,
            }
        }
        Ok(out)
    }

    /// How many sessions are alive.
    #[getter]
    fn live_sessions(&self) -> usize {
        self.inner.live_sessions()
    }

    /// Closes sessions idle for longer than the time-to-live; returns how many.
    fn reap(&self) -> usize {
        self.inner.reap()
    }

    fn __repr__(&self) -> String {
        format!(
            "rewardbox.Environments({:?}, live_sessions={})",
            self.inner
                .options()
                .env_dir
                .as_deref()
                .unwrap_or(std::path::Path::new("")),
            self.inner.live_sessions()
        )
    }
}

/// One environment in a persistent sandbox: step it, read its reward, close it (or use it as a
/// context manager).
#[pyclass(frozen, module = "rewardbox._rewardbox")]
pub struct Session {
    inner: rewardbox_envs::Session,
}

#[pymethods]
impl Session {
    /// The session's id.
    #[getter]
    fn id(&self) -> String {
        self.inner.id().to_string()
    }

    /// The first observation (the environment's `get_obs()`/`_get_obs()`, else empty).
    #[getter]
    fn observation(&self) -> String {
        self.inner.first_observation().to_string()
    }

    /// Applies one action (a JSON string, or a dict that is turned into one):
    /// returns `(ok, observation)`.
    fn step(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<(bool, String)> {
        let action = action_text(action)?;
        let step = py.detach(|| self.inner.step(&action)).map_err(env_error)?;
        Ok((step.ok, step.observation))
    }

    /// Whether the episode is over (the environment's `finished`).
    #[getter]
    fn done(&self, py: Python<'_>) -> PyResult<bool> {
        py.detach(|| self.inner.done()).map_err(env_error)
    }

    /// The environment's reward.
    #[getter]
    fn reward(&self, py: Python<'_>) -> PyResult<f64> {
        py.detach(|| self.inner.reward()).map_err(env_error)
    }

    /// Resets the environment (with `options`, a dict); returns its message.
    #[pyo3(signature = (options=None))]
    fn reset(&self, py: Python<'_>, options: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let options = options
            .map(py_to_json)
            .transpose()
            .map_err(|e| PyValueError::new_err(format!("options: {e}")))?;
        py.detach(|| self.inner.reset(options.as_ref()))
            .map_err(env_error)
    }

    /// An attribute of the environment; a callable one is called (`get_attribute("solve")` runs
    /// the environment's own solution), as CodeGym's server does.
    fn get_attribute<'py>(&self, py: Python<'py>, name: String) -> PyResult<Bound<'py, PyAny>> {
        let value = py
            .detach(|| self.inner.get_attribute(&name))
            .map_err(env_error)?;
        json_to_py(py, &value)
    }

    /// Ends the session and frees its sandbox.
    fn close(&self) {
        self.inner.clone().close();
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        _exc: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) -> bool {
        self.close();
        false
    }

    fn __repr__(&self) -> String {
        format!("rewardbox.Session({:?})", self.inner.id())
    }
}

fn action_text(action: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = action.extract::<String>() {
        return Ok(text);
    }
    let value = py_to_json(action)
        .map_err(|e| PyValueError::new_err(format!("an action is a JSON string or a dict: {e}")))?;
    Ok(value.to_string())
}

/// Registers the classes and the exception.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Environments>()?;
    m.add_class::<Session>()?;
    m.add("SessionError", m.py().get_type::<SessionError>())?;
    Ok(())
}
