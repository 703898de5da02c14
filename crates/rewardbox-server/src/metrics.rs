//! The counters the server keeps, rendered as Prometheus text: requests by route and status,
//! completions by status, requests in flight, a latency histogram, live sessions.

use rewardbox::Status;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Upper bounds of the latency histogram's buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0, 30.0,
];

#[derive(Default)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// The counters the server keeps.
#[derive(Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, u16), u64>>,
    latency: Mutex<BTreeMap<String, Histogram>>,
    completions: Mutex<BTreeMap<&'static str, u64>>,
    in_flight: AtomicU64,
    rejected: AtomicU64,
    cancelled: AtomicU64,
    stopped_runs: AtomicU64,
}

impl Metrics {
    /// Counts the completions of scored results by status.
    pub fn completions(&self, results: &[rewardbox::TaskResult]) {
        let mut counts = self.completions.lock().expect("metrics lock");
        for task in results {
            if task.status == Some(Status::InvalidTask) {
                *counts.entry("invalid_task").or_default() += 1;
            }
            for r in &task.results {
                let name = match r.status {
                    Status::Ok => "ok",
                    Status::VerifierError => "verifier_error",
                    Status::InvalidTask => "invalid_task",
                };
                *counts.entry(name).or_default() += 1;
            }
        }
    }

    /// Counts completions by status from totals (a streamed batch's summary).
    pub fn counted(&self, ok: u64, verifier_errors: u64, invalid_tasks: u64) {
        let mut counts = self.completions.lock().expect("metrics lock");
        *counts.entry("ok").or_default() += ok;
        *counts.entry("verifier_error").or_default() += verifier_errors;
        *counts.entry("invalid_task").or_default() += invalid_tasks;
    }

    /// Counts the completions of `results` that were not judged because their request was
    /// cancelled.
    pub fn cancelled(&self, results: &[rewardbox::TaskResult]) {
        let n = results
            .iter()
            .flat_map(|r| &r.results)
            .filter(|c| c.detail.contains("the request was cancelled"))
            .count();
        self.cancelled.fetch_add(n as u64, Ordering::Relaxed);
    }

    /// Counts a `/run_code` program stopped because its client hung up.
    pub fn stopped_run(&self) {
        self.stopped_runs.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a request refused for lack of a slot.
    pub fn rejected(&self) {
        self.rejected.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a request entering the server.
    pub fn started(&self) {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a request leaving the server: its route, status and latency.
    pub fn finished(&self, route: &str, status: u16, seconds: f64) {
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
        self.record(route, status, seconds);
    }

    fn record(&self, route: &str, status: u16, seconds: f64) {
        *self
            .requests
            .lock()
            .expect("metrics lock")
            .entry((route.to_string(), status))
            .or_default() += 1;
        let mut latency = self.latency.lock().expect("metrics lock");
        let h = latency.entry(route.to_string()).or_default();
        for (i, bound) in BUCKETS.iter().enumerate() {
            if seconds <= *bound {
                h.counts[i] += 1;
            }
        }
        h.count += 1;
        h.sum += seconds;
    }

    /// The counters in Prometheus' text format, and `gauges` (name, help, value).
    pub fn render(&self, gauges: &[(&str, &str, u64)]) -> String {
        let mut out = String::new();
        out.push_str(
            "# HELP rewardbox_http_requests_total HTTP requests by route and status code.\n",
        );
        out.push_str("# TYPE rewardbox_http_requests_total counter\n");
        for ((route, status), n) in self.requests.lock().expect("metrics lock").iter() {
            out.push_str(&format!(
                "rewardbox_http_requests_total{{route=\"{route}\",code=\"{status}\"}} {n}\n"
            ));
        }
        out.push_str("# HELP rewardbox_http_request_duration_seconds Request latency by route.\n");
        out.push_str("# TYPE rewardbox_http_request_duration_seconds histogram\n");
        for (route, h) in self.latency.lock().expect("metrics lock").iter() {
            for (bound, n) in BUCKETS.iter().zip(h.counts) {
                out.push_str(&format!(
                    "rewardbox_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {n}\n"
                ));
            }
            out.push_str(&format!(
                "rewardbox_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}\n\
                 rewardbox_http_request_duration_seconds_sum{{route=\"{route}\"}} {}\n\
                 rewardbox_http_request_duration_seconds_count{{route=\"{route}\"}} {}\n",
                h.count, h.sum, h.count
            ));
        }
        out.push_str("# HELP rewardbox_completions_total Scored completions by result status.\n");
        out.push_str("# TYPE rewardbox_completions_total counter\n");
        for (status, n) in self.completions.lock().expect("metrics lock").iter() {
            out.push_str(&format!(
                "rewardbox_completions_total{{status=\"{status}\"}} {n}\n"
            ));
        }
        out.push_str(&format!(
            "# HELP rewardbox_requests_in_flight Requests being handled (the queue depth).\n\
             # TYPE rewardbox_requests_in_flight gauge\nrewardbox_requests_in_flight {}\n\
             # HELP rewardbox_requests_rejected_total Requests refused with 429.\n\
             # TYPE rewardbox_requests_rejected_total counter\nrewardbox_requests_rejected_total {}\n\
             # HELP rewardbox_cancelled_completions_total Completions not judged because their client went away.\n\
             # TYPE rewardbox_cancelled_completions_total counter\nrewardbox_cancelled_completions_total {}\n\
             # HELP rewardbox_stopped_runs_total /run_code programs stopped because their client hung up.\n\
             # TYPE rewardbox_stopped_runs_total counter\nrewardbox_stopped_runs_total {}\n",
            self.in_flight.load(Ordering::Relaxed),
            self.rejected.load(Ordering::Relaxed),
            self.cancelled.load(Ordering::Relaxed),
            self.stopped_runs.load(Ordering::Relaxed),
        ));
        for (name, help, value) in gauges {
            out.push_str(&format!(
                "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}\n"
            ));
        }
        out
    }
}
