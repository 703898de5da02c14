//! Limits on one sandboxed run: fuel, wall time, memory, output, with documented defaults.
//!
//! Fuel is the deterministic bound (wasmtime counts executed instructions), so the same completion
//! gets the same verdict on any machine under any load. The wall-clock limit is only a safety net
//! for time spent blocked in the host (sleeping, for instance), enforced by epoch interruption.

use serde::{Deserialize, Serialize};
use serde_json::Value;

const MIB: u64 = 1024 * 1024;

/// The largest memory limit accepted, in MiB: the 4 GiB a 32-bit wasm memory can address.
pub const MAX_MEMORY_MB: u64 = 4096;

/// Limits for one sandboxed run. All are hard: crossing one ends the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Fuel units (about one per wasm instruction) the run may consume.
    pub fuel: u64,
    /// Wall-clock safety net, in milliseconds.
    pub wall_ms: u64,
    /// Linear memory the run may hold, in bytes, over all its memories.
    pub memory_bytes: u64,
    /// Bytes the run may write to stdout and stderr together.
    pub output_bytes: u64,
}

impl Limits {
    /// Defaults for a verifier judging one completion: 1e9 fuel (about a tenth of a second of
    /// sandboxed Python), a 10 s wall-clock safety net, 256 MiB of memory and 1 MiB of output.
    pub const VERIFIER_DEFAULT: Limits = Limits {
        fuel: 1_000_000_000,
        wall_ms: 10_000,
        memory_bytes: 256 * MIB,
        output_bytes: MIB,
    };

    /// Each limit the smaller of these and `max`'s: what an operator allows at most.
    pub fn clamp_to(self, max: &Limits) -> Limits {
        Limits {
            fuel: self.fuel.min(max.fuel),
            wall_ms: self.wall_ms.min(max.wall_ms),
            memory_bytes: self.memory_bytes.min(max.memory_bytes),
            output_bytes: self.output_bytes.min(max.output_bytes),
        }
    }

    /// These limits with every override that is set applied.
    pub fn with(self, overrides: &LimitOverrides) -> Limits {
        Limits {
            fuel: overrides.fuel.unwrap_or(self.fuel),
            wall_ms: overrides.wall_ms.unwrap_or(self.wall_ms),
            memory_bytes: overrides.memory_mb.map_or(self.memory_bytes, |mb| mb * MIB),
            output_bytes: overrides.output_bytes.unwrap_or(self.output_bytes),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::VERIFIER_DEFAULT
    }
}

/// Per-task overrides of the limits, as written in a task's `"limits"` object:
/// `{"fuel": N, "wall_ms": N, "memory_mb": N, "output_bytes": N}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitOverrides {
    /// Overrides [`Limits::fuel`].
    pub fuel: Option<u64>,
    /// Overrides [`Limits::wall_ms`].
    pub wall_ms: Option<u64>,
    /// Overrides [`Limits::memory_bytes`], in MiB (at most [`MAX_MEMORY_MB`]).
    pub memory_mb: Option<u64>,
    /// Overrides [`Limits::output_bytes`].
    pub output_bytes: Option<u64>,
}

impl LimitOverrides {
    /// Reads a task's `"limits"` value. The error names the offending field, e.g.
    /// `"limits.fuel" must be a positive integer`.
    pub fn from_json(value: &Value) -> Result<LimitOverrides, String> {
        let Value::Object(fields) = value else {
            return Err(
                "\"limits\" must be an object such as {\"fuel\": 1000000, \"wall_ms\": 2000}"
                    .into(),
            );
        };
        let mut overrides = LimitOverrides::default();
        for (name, value) in fields {
            let slot = match name.as_str() {
                "fuel" => &mut overrides.fuel,
                "wall_ms" => &mut overrides.wall_ms,
                "memory_mb" => &mut overrides.memory_mb,
                "output_bytes" => &mut overrides.output_bytes,
                other => {
                    return Err(format!(
                        "\"limits.{other}\" is not a known limit (known: fuel, wall_ms, memory_mb, output_bytes)"
                    ));
                }
            };
            match value.as_u64() {
                Some(n) if n > 0 => *slot = Some(n),
                _ => return Err(format!("\"limits.{name}\" must be a positive integer")),
            }
        }
        if let Some(mb) = overrides.memory_mb.filter(|&mb| mb > MAX_MEMORY_MB) {
            return Err(format!(
                "\"limits.memory_mb\" is {mb}, above the maximum of {MAX_MEMORY_MB}"
            ));
        }
        Ok(overrides)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn overrides_apply_field_by_field() {
        let o = LimitOverrides::from_json(&json!({"fuel": 5, "memory_mb": 2})).unwrap();
        let l = Limits::VERIFIER_DEFAULT.with(&o);
        assert_eq!(l.fuel, 5);
        assert_eq!(l.memory_bytes, 2 * MIB);
        assert_eq!(l.wall_ms, Limits::VERIFIER_DEFAULT.wall_ms);
        assert_eq!(l.output_bytes, Limits::VERIFIER_DEFAULT.output_bytes);
    }

    #[test]
    fn bad_overrides_name_the_field() {
        let err = |v: Value| LimitOverrides::from_json(&v).unwrap_err();
        assert_eq!(
            err(json!({"fuel": -1})),
            "\"limits.fuel\" must be a positive integer"
        );
        assert_eq!(
            err(json!({"wall_ms": "1"})),
            "\"limits.wall_ms\" must be a positive integer"
        );
        assert!(err(json!({"cpu": 1})).starts_with("\"limits.cpu\" is not a known limit"));
        assert!(err(json!({"memory_mb": 5000})).contains("above the maximum"));
        assert!(err(json!([1])).starts_with("\"limits\" must be an object"));
    }
}
