//! How `rewardbox serve` runs: where it listens, what it allows, and the limits it clamps to.

use rewardbox::sandboxes::DiskBudget;
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
    /// How the coding environment rewards a step: as OpenEnv's `coding_env` does (the default),
    /// or not at all.
    pub coding_reward: crate::protocols::openenv::coding_reward::CodingReward,
    /// Bearer token every request but `/healthz` must carry.
    pub token: Option<String>,
    /// Without a token, the host names (besides IP addresses and `localhost`) a request's `Host`
    /// may give: anything else is refused, so that a web page cannot reach the server through a
    /// name it rebinds to this machine (DNS rebinding). `*` allows any.
    pub allowed_hosts: Vec<String>,
    /// Without a token, the web origins (`https://app.example:8443`) whose pages may send
    /// requests or open WebSockets (a browser says so in `Origin`); a request from any other
    /// page is refused. Requests without `Origin` (every non-browser client) are not affected.
    pub allowed_origins: Vec<String>,
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
    /// The most memory the sessions alive may hold together, each that keeps an instance
    /// counted at its whole memory limit (none: half of this machine's memory).
    pub session_memory_budget: Option<u64>,
    /// The most disk the episodes' workspaces and `/run_code`'s working directories may hold
    /// together, each counted at its whole budget (none: half of the free space of the
    /// temporary directory when the server starts).
    pub disk_budget: Option<u64>,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            env_dir: None,
            openenv: None,
            coding_reward: Default::default(),
            token: None,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
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
            session_memory_budget: None,
            disk_budget: None,
        }
    }
}

/// Half of this machine's physical memory (the default memory budget of sessions).
pub fn default_memory_budget() -> u64 {
    // SAFETY: sysconf reads system constants.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    (pages.max(0) as u64).saturating_mul(size.max(0) as u64) / 2
}

/// Half of the free space of the temporary directory now (the default disk budget).
pub fn default_disk_budget() -> u64 {
    let dir = std::ffi::CString::new(std::env::temp_dir().as_os_str().as_encoded_bytes())
        .unwrap_or_default();
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: statvfs with a valid C string and a pointer to a local.
    if unsafe { libc::statvfs(dir.as_ptr(), &mut stat) } != 0 {
        return 8 << 30;
    }
    (stat.f_bavail as u64).saturating_mul(stat.f_frsize as u64) / 2
}
