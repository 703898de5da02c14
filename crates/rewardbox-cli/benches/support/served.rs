//! A `rewardbox serve` started by a benchmark, on a free loopback port, killed when dropped.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `rewardbox serve`.
pub struct Served {
    child: Child,
    port: u16,
}

impl Served {
    /// Starts `rewardbox serve --port <a free port>` with the arguments `configure` adds (its
    /// stderr dropped) and waits until `/healthz` answers. `REWARDBOX_BENCH_BIN` names another
    /// `rewardbox` binary to start instead (an earlier build, for a before/after comparison).
    pub fn start(configure: impl FnOnce(&mut Command)) -> Served {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
            l.local_addr().expect("address").port()
        };
        let binary = std::env::var("REWARDBOX_BENCH_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_rewardbox").to_string());
        let mut command = Command::new(binary);
        command.args(["serve", "--port", &port.to_string()]);
        configure(&mut command);
        let child = command
            .stderr(Stdio::null())
            .spawn()
            .expect("rewardbox serve");
        let served = Served { child, port };
        let up = (0..600).any(|_| {
            if agent()
                .get(&format!("{}/healthz", served.base()))
                .call()
                .is_ok_and(|r| r.status() == 200)
            {
                return true;
            }
            std::thread::sleep(Duration::from_millis(100));
            false
        });
        assert!(up, "rewardbox serve did not come up");
        served
    }

    /// `host:port` of the server.
    pub fn address(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// `http://host:port` of the server.
    pub fn base(&self) -> String {
        format!("http://{}", self.address())
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP client that returns error statuses as answers, with a 600 s bound per request.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(600)))
        .build()
        .into()
}
