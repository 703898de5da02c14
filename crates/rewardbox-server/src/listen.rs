//! Accepting connections: at most so many open at once (past that a new one is closed at once, so
//! file descriptors never run out), a deadline for each request's headers (an idle or trickling
//! client is closed, keep-alive waits included), and a bounded drain at shutdown (the requests in
//! flight get `drain` to finish; then the server returns, whatever its clients do).

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// How connections are bounded.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Connections open at once.
    pub max_connections: usize,
    /// Time a client has to send a request's headers, from the moment the server waits for them
    /// (the first request, or the next one on a kept-alive connection).
    pub header_timeout: Duration,
    /// Time the requests in flight get to finish after shutdown begins.
    pub drain: Duration,
}

/// Serves `app` on `listener` within `limits` until `shutdown` completes, then drains.
/// Connections may upgrade (OpenEnv's WebSocket sessions): an upgraded connection leaves the
/// connection count and the drain, and is bounded by the sessions' own limits.
pub async fn serve_connections(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    // Shutdown begins when `stopping` turns true; the drain ends when every connection task
    // has dropped its `running` sender.
    let (stopping, stop) = tokio::sync::watch::channel(false);
    let (running, mut all_ended) = tokio::sync::mpsc::channel::<()>(1);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            // Out of file descriptors, or a connection reset before it was accepted: wait a
            // moment rather than spin, and go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let Ok(slot) = open.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()))
            .with_upgrades();
        let mut stop = stop.clone();
        let running = running.clone();
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stop.changed() => {
                    // The request in flight finishes; the connection then closes.
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop(slot);
            drop(running);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    drop(running);
    let _ = tokio::time::timeout(limits.drain, all_ended.recv()).await;
}
