//! A `rewardbox serve` on loopback for the integration tests, and a blocking HTTP client for it.

use rewardbox::ComponentCache;
use rewardbox_server::ServerOptions;
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;

/// A server running on its own thread and runtime until dropped.
pub struct Server {
    /// Where it listens (loopback, a free port).
    pub address: SocketAddr,
    /// Stops it gracefully when sent (or dropped).
    pub shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    /// The thread its runtime runs on.
    pub thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Starts a server with the test defaults (the CodeGym environments of `tests/data`, the
    /// test cache, two threads) as `configure` changes them, and waits until it listens.
    pub fn start(configure: impl FnOnce(&mut ServerOptions)) -> Server {
        let mut options = ServerOptions {
            port: 0,
            env_dir: Some(crate::repo_root().join("tests/data/codegym")),
            cache: ComponentCache::in_dir(crate::test_cache_dir()),
            threads: Some(2),
            ..ServerOptions::default()
        };
        configure(&mut options);
        let (address_tx, address_rx) = std::sync::mpsc::channel();
        let (shutdown_tx, shutdown_rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                address_tx.send(listener.local_addr().unwrap()).unwrap();
                rewardbox_server::serve(options, listener, async {
                    let _ = shutdown_rx.await;
                })
                .await
                .unwrap();
            });
        });
        let address = address_rx.recv().unwrap();
        let server = Server {
            address,
            shutdown: Some(shutdown_tx),
            thread: Some(thread),
        };
        let up = eventually(600, Duration::from_millis(50), || {
            server.get("/healthz").0 == 200
        });
        assert!(up, "the server did not come up");
        server
    }

    /// The URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// A client that reads every status as a response, with a two-minute timeout.
    pub fn agent() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into()
    }

    /// GETs `path`: the status and the body (status 0 and the error when there was no answer).
    pub fn get(&self, path: &str) -> (u16, String) {
        match Self::agent().get(&self.url(path)).call() {
            Ok(mut r) => (
                r.status().as_u16(),
                r.body_mut().read_to_string().unwrap_or_default(),
            ),
            Err(e) => (0, e.to_string()),
        }
    }

    /// POSTs `body` to `path` with `headers`: the status and the body (status 0 and the error
    /// when there was no answer).
    pub fn post(&self, path: &str, body: &str, headers: &[(&str, &str)]) -> (u16, String) {
        let mut request = Self::agent().post(&self.url(path));
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        match request.send(body) {
            Ok(mut r) => (
                r.status().as_u16(),
                r.body_mut().read_to_string().unwrap_or_default(),
            ),
            Err(e) => (0, e.to_string()),
        }
    }

    /// The value of the counter or gauge `name` in /metrics (0 when absent).
    pub fn metric(&self, name: &str) -> u64 {
        self.get("/metrics")
            .1
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0)
    }

    /// POSTs `body` as JSON to `path`: the status and the body read as JSON (or as a string).
    pub fn json(&self, path: &str, body: Value) -> (u16, Value) {
        let (status, text) = self.post(
            path,
            &body.to_string(),
            &[("content-type", "application/json")],
        );
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }
}

/// Whether `check` holds within `tries` looks, `every` apart.
pub fn eventually(tries: usize, every: Duration, mut check: impl FnMut() -> bool) -> bool {
    (0..tries).any(|_| {
        if check() {
            return true;
        }
        std::thread::sleep(every);
        false
    })
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
