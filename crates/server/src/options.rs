//! How `rewardbox serve` runs: where it listens, what it allows, and the limits it clamps to.

use rewardbox::sandbox::workspace::DiskBudget;
use rewardbox::{ComponentCache, Limits};
use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::time::Duration;

/// The server's settings.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Address to listen on (127.0.0.1 unless told otherwise).
    pub host: IpAddr,
    /// Port to listen on (0: any free port).
    pub port: u16,
    /// CodeGym environment files served by the session endpoints (none: those answer 503).
    pub env_dir: Option<PathBuf>,
    /// The OpenEnv environment served at the root (`coding`, `episode`, `codegym/<FileStem>`),
    /// in place of CodeGym's own endpoints there; every environment stays under `/openenv/...`.
    pub openenv: Option<String>,
    /// Bearer token every request but `/healthz` must carry.
    pub token: Option<String>,
    /// The largest request body accepted, in bytes (413 past it).
    pub max_body_bytes: usize,
    /// Requests handled at once; one more is refused with 429 and `Retry-After`.
    pub max_inflight: usize,
    /// Verifier files (`.wasm`, `.py`) tasks may name, relative to this directory; none: only
    /// built-ins and `python` with `verifier_code`.
    pub verifier_dir: Option<PathBuf>,
    /// Limits of a verifier run unless a task asks for less.
    pub limits: Limits,
    /// The most any request may ask for, for verifiers, candidates, `run_code` and sessions.
    pub max_limits: Limits,
    /// Scoring threads (none: every core).
    pub threads: Option<usize>,
    /// Where compiled components are cached.
    pub cache: ComponentCache,
    /// Verifier of `/get_reward` when a label does not name one.
    pub reward_verifier: String,
    /// Reward `/get_reward` reports for a masked result (OpenRLHF takes numbers only).
    pub masked_reward: f64,
    /// Seed of the guests' random source.
    pub seed: u64,
    /// Sessions idle for this long are closed.
    pub session_ttl: Duration,
    /// Sessions alive at most.
    pub max_sessions: usize,
    /// Connections open at once; one more is closed at once.
    pub max_connections: usize,
    /// Time a client has to send a request's headers (idle kept-alive connections included).
    pub header_timeout: Duration,
    /// Time a client has to send a request's whole body once its headers are in (408 past it).
    pub body_timeout: Duration,
    /// Time the requests in flight get to finish after SIGTERM or Ctrl-C.
    pub drain: Duration,
    /// What a `/run_code` program's working directory may hold (the files sent and those it
    /// writes); past it the program is stopped, its own failure.
    pub workdir_budget: DiskBudget,
    /// The most bytes `fetch_files` reads back in one answer; a file past what is left is left
    /// out and named in the run's stderr.
    pub fetch_bytes: u64,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            env_dir: None,
            openenv: None,
            token: None,
            max_body_bytes: 64 << 20,
            max_inflight: 256,
            verifier_dir: None,
            limits: Limits::default(),
            max_limits: Limits {
                fuel: 1_000_000_000_000,
                wall_ms: 120_000,
                memory_bytes: 2 << 30,
                output_bytes: 16 << 20,
            },
            threads: None,
            cache: ComponentCache::user_default(),
            reward_verifier: "math".into(),
            masked_reward: 0.0,
            seed: 0,
            session_ttl: Duration::from_secs(600),
            max_sessions: 4096,
            max_connections: 1024,
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(120),
            drain: Duration::from_secs(30),
            workdir_budget: DiskBudget::DEFAULT,
            fetch_bytes: 16 << 20,
        }
    }
}
