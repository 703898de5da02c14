//! `POST /score`: tasks in the CLI's schema, scored exactly as `rewardbox score` scores them.
//!
//! A JSON body is one task (answered with one result) or a list (answered with a list, an
//! element that is not a valid task becoming an `invalid_task` result naming its position as a
//! line). A JSONL body (`Content-Type: application/x-ndjson` or `application/jsonl`, or
//! `?format=jsonl`) is answered with JSONL, streamed chunk by chunk as it is scored.

use crate::error::{ApiError, parse_json};
use crate::state::{AppState, blocking};
use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use rewardbox::InputLine;
use rewardbox::stream::{DEFAULT_CHUNK_LINES, Summary, score_stream};
use serde::Deserialize;
use serde_json::Value;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// `?format=jsonl` asks for JSONL whatever the content type.
#[derive(Deserialize)]
pub struct ScoreQuery {
    format: Option<String>,
}

fn is_jsonl(headers: &HeaderMap, query: &ScoreQuery) -> bool {
    if query.format.as_deref() == Some("jsonl") {
        return true;
    }
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| {
            let t = t.split(';').next().unwrap_or("").trim();
            matches!(
                t,
                "application/x-ndjson"
                    | "application/jsonl"
                    | "application/json-lines"
                    | "application/jsonlines"
            )
        })
}

/// `POST /score`.
pub async fn score(
    State(state): State<Arc<AppState>>,
    Query(query): Query<ScoreQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    if is_jsonl(&headers, &query) {
        return Ok(score_jsonl(state, body));
    }
    let value = parse_json(&body)?;
    let (one, items) = match value {
        Value::Array(items) => (false, items),
        Value::Object(_) => (true, vec![value]),
        _ => {
            return Err(ApiError::bad_request(
                "the body must be a task object, a list of them, or JSONL",
            ));
        }
    };
    let lines: Vec<InputLine> = items
        .iter()
        .enumerate()
        .map(|(i, item)| InputLine {
            number: i + 1,
            text: Ok(item.to_string()),
        })
        .collect();
    let scoring = state.clone();
    // Dropped with this handler: when the client goes away before the answer, the completions
    // not yet started are not judged.
    let cancel = CancelOnDrop::default();
    let cancelled = cancel.0.clone();
    let results = blocking(move || {
        let results = scoring.scorer.score_lines_until(&lines, &cancelled);
        if cancelled.load(Ordering::Relaxed) {
            scoring.metrics.cancelled(&results);
        }
        results
    })
    .await?;
    drop(cancel);
    state.metrics.completions(&results);
    // Serialised as the CLI writes results (field order included), not through a JSON map.
    Ok(if one {
        axum::Json(&results[0]).into_response()
    } else {
        axum::Json(&results).into_response()
    })
}

/// Sets its flag when dropped: a handler's future is dropped when its client goes away.
#[derive(Default)]
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Sends what is written to a channel, a chunk at a time: the body of a streamed answer.
struct ChannelWriter {
    sender: tokio::sync::mpsc::Sender<Result<Bytes, std::io::Error>>,
    buffer: Vec<u8>,
}

impl ChannelWriter {
    fn send(&mut self) -> std::io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::take(&mut self.buffer));
        self.sender.blocking_send(Ok(chunk)).map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client went away")
        })
    }
}

impl Write for ChannelWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= 64 << 10 {
            self.send()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.send()
    }
}

fn score_jsonl(state: Arc<AppState>, body: Bytes) -> Response {
    let (sender, receiver) = tokio::sync::mpsc::channel(4);
    tokio::task::spawn_blocking(move || {
        let mut writer = ChannelWriter {
            sender,
            buffer: Vec::new(),
        };
        let summary = score_stream(
            &state.scorer,
            std::io::Cursor::new(body),
            &mut writer,
            DEFAULT_CHUNK_LINES.min(1024),
            |_: &Summary| {},
        );
        if let Ok(summary) = summary {
            state.metrics.counted(
                summary.completions - summary.verifier_errors,
                summary.verifier_errors,
                summary.invalid_tasks,
            );
        }
        // Whatever the client did, the sender is dropped here and the answer ends.
        let _ = writer.flush();
    });
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|chunk| (chunk, receiver))
    });
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response()
}
