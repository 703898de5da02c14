//! `rewardbox serve`: scoring and environments over HTTP (see the rewardbox-server crate).

use clap::Args;
use rewardbox::Limits;
use rewardbox_server::ServerOptions;
use std::net::IpAddr;
use std::path::PathBuf;

/// Arguments of `rewardbox serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// CodeGym environment files for the session endpoints (/start, /step, ...) and OpenEnv's
    /// /openenv/codegym/<FileStem>.
    #[arg(long)]
    env_dir: Option<PathBuf>,
    /// Serve this OpenEnv environment at the root too (/ws, /reset, /step, /state, /schema, ...),
    /// as OpenEnv deployments expect: coding, episode, or codegym/<FileStem>. CodeGym's own
    /// /start, /step, ... are then not served (every environment stays under /openenv/...).
    #[arg(long, value_name = "NAME")]
    openenv: Option<String>,
    /// How the coding environment rewards a step: coding-env (OpenEnv coding_env's safety and
    /// quality rewards, what its clients expect) or none.
    #[arg(long, value_name = "REWARD", default_value = "coding-env", value_parser = rewardbox_server::CodingReward::parse)]
    coding_reward: rewardbox_server::CodingReward,
    /// Require "Authorization: Bearer <TOKEN>" on every request but /healthz
    /// [default: $REWARDBOX_TOKEN, else none]. An empty token is refused.
    #[arg(long, env = "REWARDBOX_TOKEN")]
    token: Option<String>,
    /// Serve an address other than loopback without a token (anyone who reaches it may run code).
    #[arg(long)]
    allow_no_token: bool,
    /// Without a token, a host name requests may be sent to besides IP addresses and localhost
    /// (any other is refused, against DNS rebinding); repeat for more; "*" allows any.
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_hosts: Vec<String>,
    /// Without a token, a web origin (https://app.example:8443) whose pages may send requests
    /// and open WebSockets (any other page is refused); repeat for more; "*" allows any.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allow_origins: Vec<String>,
    /// The largest request body, in MiB (413 past it).
    #[arg(long, default_value_t = 64)]
    max_body_mb: usize,
    /// Requests handled at once (429 with Retry-After past it).
    #[arg(long, default_value_t = 256)]
    max_inflight: usize,
    /// Verifier files (.wasm, .py) tasks may name, relative to this directory (none: built-ins
    /// and "python" with "verifier_code" only).
    #[arg(long)]
    verifier_dir: Option<PathBuf>,
    /// Scoring threads [default: all cores].
    #[arg(short = 'j', long)]
    threads: Option<usize>,
    /// The most fuel any request may ask for (verifier, candidate, run_code, session step).
    #[arg(long, default_value_t = 1_000_000_000_000)]
    max_fuel: u64,
    /// The most wall-clock time any request may ask for, in milliseconds.
    #[arg(long, default_value_t = 120_000)]
    max_wall_ms: u64,
    /// The most memory any request may ask for, in MiB.
    #[arg(long, default_value_t = 2048)]
    max_memory_mb: u64,
    /// Verifier of /get_reward when a label does not name one.
    #[arg(long, default_value = "math")]
    reward_verifier: String,
    /// Reward /get_reward reports for a masked result.
    #[arg(long, default_value_t = 0.0)]
    masked_reward: f64,
    /// Sessions alive at most.
    #[arg(long, default_value_t = 4096)]
    max_sessions: usize,
    /// Seconds after which an idle session is closed.
    #[arg(long, default_value_t = 600)]
    session_ttl_s: u64,
    /// Seed of the guests' random source.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Connections open at once (one more is closed at once).
    #[arg(long, default_value_t = 1024)]
    max_connections: usize,
    /// Seconds a client has to send a request's headers (idle connections are closed after it).
    #[arg(long, default_value_t = 30)]
    header_timeout_s: u64,
    /// Seconds a client has to send a request's body (408 past it).
    #[arg(long, default_value_t = 120)]
    body_timeout_s: u64,
    /// Seconds the requests in flight get to finish after SIGTERM or Ctrl-C.
    #[arg(long, default_value_t = 30)]
    drain_s: u64,
    /// MiB a /run_code program's working directory may hold (past it the program is stopped).
    #[arg(long, default_value_t = 256)]
    workdir_mb: u64,
    /// Entries (files, directories) a /run_code program's working directory may hold.
    #[arg(long, default_value_t = 10_000)]
    workdir_entries: usize,
    /// MiB of files fetch_files reads back in one /run_code answer.
    #[arg(long, default_value_t = 16)]
    fetch_mb: u64,
    /// MiB of memory the sessions alive may hold together, each that keeps an instance counted
    /// at its whole memory limit (past it a new session is refused with 503) [default: half of
    /// this machine's memory].
    #[arg(long)]
    session_memory_mb: Option<u64>,
    /// MiB of disk the episodes' workspaces and /run_code's working directories may hold
    /// together, each counted at its whole budget (past it one more is refused with 503)
    /// [default: half of the temporary directory's free space at start].
    #[arg(long)]
    disk_budget_mb: Option<u64>,
    #[command(flatten)]
    cache: crate::CacheArgs,
}

/// Runs `rewardbox serve` until Ctrl-C or SIGTERM.
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let defaults = ServerOptions::default();
    if args.token.as_deref().is_some_and(|t| t.trim().is_empty()) {
        anyhow::bail!(
            "the token is empty (--token or REWARDBOX_TOKEN): give a non-empty one, or unset it \
             to serve loopback without a token"
        );
    }
    if args.token.is_none() && !args.host.is_loopback() && !args.allow_no_token {
        anyhow::bail!(
            "serving {} without a token lets anyone who reaches it run code here: set --token \
             (or REWARDBOX_TOKEN), or pass --allow-no-token if the network is yours alone",
            args.host
        );
    }
    let seconds = |s: u64| std::time::Duration::from_secs(s.max(1));
    rewardbox_server::run(ServerOptions {
        host: args.host,
        port: args.port,
        env_dir: args.env_dir,
        openenv: args.openenv,
        coding_reward: args.coding_reward,
        token: args.token,
        allowed_hosts: args.allow_hosts,
        allowed_origins: args.allow_origins,
        max_body_bytes: args.max_body_mb << 20,
        max_inflight: args.max_inflight.max(1),
        verifier_dir: args.verifier_dir,
        limits: Limits::default(),
        max_limits: Limits {
            fuel: args.max_fuel,
            wall_ms: args.max_wall_ms,
            memory_bytes: args.max_memory_mb << 20,
            output_bytes: defaults.max_limits.output_bytes,
        },
        threads: args.threads,
        cache: args.cache.cache(),
        reward_verifier: args.reward_verifier,
        masked_reward: args.masked_reward,
        seed: args.seed,
        session_ttl: std::time::Duration::from_secs(args.session_ttl_s.max(1)),
        max_sessions: args.max_sessions,
        max_connections: args.max_connections.max(1),
        header_timeout: seconds(args.header_timeout_s),
        body_timeout: seconds(args.body_timeout_s),
        drain: std::time::Duration::from_secs(args.drain_s),
        workdir_budget: rewardbox::sandboxes::DiskBudget {
            bytes: args.workdir_mb.saturating_mul(1 << 20),
            entries: args.workdir_entries,
        },
        fetch_bytes: args.fetch_mb.saturating_mul(1 << 20),
        session_memory_budget: args.session_memory_mb.map(|mb| mb.saturating_mul(1 << 20)),
        disk_budget: args.disk_budget_mb.map(|mb| mb.saturating_mul(1 << 20)),
    })
}
