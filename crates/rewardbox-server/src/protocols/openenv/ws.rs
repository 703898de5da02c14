//! `GET /ws`: one environment per WebSocket connection, as OpenEnv's clients expect. Frames in:
//! `{"type": "reset", "data": {...}}`, `{"type": "step", "data": action}`, `{"type": "state"}`,
//! `{"type": "close"}`. Frames out: `{"type": "observation", "data": {observation, reward, done,
//! metadata?}}`, `{"type": "state", "data": {...}}`, `{"type": "error", "data": {message, code}}`
//! with OpenEnv's codes (`INVALID_JSON`, `UNKNOWN_TYPE`, `VALIDATION_ERROR`, `EXECUTION_ERROR`;
//! `CAPACITY_REACHED` and `FACTORY_ERROR` before the connection closes).
//!
//! A connection holds one of `--max-sessions` places and its environment's sandbox; one idle for
//! `--session-ttl-s` is closed. Resets and steps run on blocking threads, one at a time per
//! connection, each holding one of `--max-inflight` slots while it runs, and stop when the client
//! goes away. Frames that arrive while one runs wait, up to [`MAX_QUEUED_FRAMES`] frames and
//! `--max-body-mb` bytes together; one more closes the connection with a policy error.

use super::env::{EnvSession, OpenEnvError, Reply, Target};
use crate::state::AppState;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde_json::{Map, Value, json};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Frames a connection may send while a reset or step runs, answered after it.
pub const MAX_QUEUED_FRAMES: usize = 64;

/// `GET /ws`: upgrades to a session of the route's environment.
pub async fn connect(
    State(app): State<Arc<AppState>>,
    Target(family): Target,
    upgrade: WebSocketUpgrade,
) -> Response {
    let max = app.options.max_body_bytes;
    upgrade
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| serve(app, family, socket))
}

fn error_frame(data: Value) -> Message {
    Message::Text(json!({"type": "error", "data": data}).to_string().into())
}

fn observation_frame(reply: &Reply) -> Message {
    Message::Text(
        json!({"type": "observation", "data": reply.to_json()})
            .to_string()
            .into(),
    )
}

async fn serve(app: Arc<AppState>, family: Arc<dyn super::env::Family>, mut socket: WebSocket) {
    let max = app.options.max_sessions;
    let Ok(_place) = app.websockets.clone().try_acquire_owned() else {
        let refused = OpenEnvError::Capacity { active: max, max };
        let _ = socket.send(error_frame(refused.frame_data())).await;
        let _ = socket.send(Message::Close(None)).await;
        return;
    };
    let opened = tokio::task::spawn_blocking(move || family.open()).await;
    let session = match opened {
        Ok(Ok(session)) => session,
        Ok(Err(refused @ OpenEnvError::Capacity { .. })) => {
            let _ = socket.send(error_frame(refused.frame_data())).await;
            let _ = socket.send(Message::Close(None)).await;
            return;
        }
        Ok(Err(failed)) => {
            let data = json!({"message": failed.message(), "code": "FACTORY_ERROR"});
            let _ = socket.send(error_frame(data)).await;
            let _ = socket.send(Message::Close(None)).await;
            return;
        }
        Err(panicked) => {
            let data = json!({"message": format!("the environment failed to open: {panicked}"),
                              "code": "SESSION_ERROR"});
            let _ = socket.send(error_frame(data)).await;
            return;
        }
    };
    let idle = app.options.session_ttl;
    let mut held = Some(session);
    // Frames that arrived while a step ran, answered in order after it.
    let mut queued: VecDeque<String> = VecDeque::new();
    let mut queued_bytes = 0usize;
    let mut peer_closed = false;
    let mut overflowed = false;
    while let Some(session) = held.take() {
        let text = match queued.pop_front() {
            Some(text) => {
                queued_bytes -= text.len();
                text
            }
            None if peer_closed => {
                held = Some(session);
                break;
            }
            None => match tokio::time::timeout(idle, socket.recv()).await {
                Err(_) => {
                    let data = json!({"message": format!("the session was idle for {} s and is closed", idle.as_secs()),
                                      "code": "SESSION_ERROR"});
                    let _ = socket.send(error_frame(data)).await;
                    held = Some(session);
                    break;
                }
                Ok(incoming) => match Incoming::from(incoming) {
                    Incoming::Frame(text) => text,
                    Incoming::Control => {
                        held = Some(session);
                        continue;
                    }
                    Incoming::Closed => {
                        held = Some(session);
                        break;
                    }
                },
            },
        };
        // The socket is read while the frame is answered: a step may compile for longer than the
        // client's keepalive allows, and its pings must still be answered (the pong goes out on
        // the next read), or the client drops the connection in the middle of the step.
        // The client going away (or flooding) stops the work: nobody waits for its answer.
        let cancel = Arc::new(AtomicBool::new(false));
        let answering = answer(&app, session, &text, cancel.clone());
        tokio::pin!(answering);
        let (reply, kept) = loop {
            tokio::select! {
                done = &mut answering => break done,
                incoming = socket.recv(), if !peer_closed && !overflowed => match Incoming::from(incoming) {
                    Incoming::Frame(text) => {
                        queued_bytes += text.len();
                        queued.push_back(text);
                        if queued.len() > MAX_QUEUED_FRAMES || queued_bytes > app.options.max_body_bytes {
                            overflowed = true;
                            cancel.store(true, Ordering::Relaxed);
                        }
                    }
                    Incoming::Control => {}
                    Incoming::Closed => {
                        peer_closed = true;
                        cancel.store(true, Ordering::Relaxed);
                    }
                },
            }
        };
        held = kept;
        if overflowed {
            let data = json!({"message": format!(
                "more than {MAX_QUEUED_FRAMES} frames or {} bytes arrived while a step ran; the connection is closed",
                app.options.max_body_bytes), "code": "CAPACITY_REACHED"});
            let _ = socket.send(error_frame(data)).await;
            let _ = socket
                .send(Message::Close(Some(axum::extract::ws::CloseFrame {
                    code: axum::extract::ws::close_code::POLICY,
                    reason: "too many frames while a step ran".into(),
                })))
                .await;
            break;
        }
        // None: the client asked to close.
        let Some(reply) = reply else { break };
        if peer_closed || socket.send(reply).await.is_err() {
            break;
        }
    }
    let _ = socket.send(Message::Close(None)).await;
    // Its sandbox is freed off the async workers.
    if let Some(session) = held {
        tokio::task::spawn_blocking(move || drop(session));
    }
}

/// What one read of the socket brought.
enum Incoming {
    /// A text (or binary, read as UTF-8) frame to answer.
    Frame(String),
    /// A ping or pong, answered by the WebSocket layer itself.
    Control,
    /// The peer closed, the connection failed, or the stream ended.
    Closed,
}

impl From<Option<Result<Message, axum::Error>>> for Incoming {
    fn from(read: Option<Result<Message, axum::Error>>) -> Self {
        match read {
            Some(Ok(Message::Text(text))) => Incoming::Frame(text.to_string()),
            Some(Ok(Message::Binary(bytes))) => {
                Incoming::Frame(String::from_utf8_lossy(&bytes).into_owned())
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => Incoming::Control,
            Some(Ok(Message::Close(_)) | Err(_)) | None => Incoming::Closed,
        }
    }
}

/// What to send back for one frame (none: the client closed), and the session (none: it was lost
/// with a panicked thread).
async fn answer(
    app: &AppState,
    mut session: Box<dyn EnvSession>,
    text: &str,
    cancel: Arc<AtomicBool>,
) -> (Option<Message>, Option<Box<dyn EnvSession>>) {
    let frame: Value = match serde_json::from_str(text) {
        Ok(frame) => frame,
        Err(e) => {
            let data = json!({"message": format!("Invalid JSON: {e}"), "code": "INVALID_JSON"});
            return (Some(error_frame(data)), Some(session));
        }
    };
    let kind = frame.get("type").and_then(Value::as_str).unwrap_or("");
    let data = match frame.get("data") {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(data)) => Ok(data.clone()),
        Some(_) => Err(()),
    };
    let invalid =
        |message: &str| error_frame(json!({"message": message, "code": "VALIDATION_ERROR"}));
    match kind {
        "reset" | "step" => {
            let Ok(data) = data else {
                return (
                    Some(invalid("Invalid message: \"data\" must be an object")),
                    Some(session),
                );
            };
            if kind == "step" && frame.get("data").is_none_or(Value::is_null) {
                return (
                    Some(invalid(
                        "Invalid message: a step needs \"data\", the action",
                    )),
                    Some(session),
                );
            }
            let step = kind == "step";
            // One of the in-flight slots, held while the work runs.
            let Ok(slot) = app.inflight.clone().acquire_owned().await else {
                let data =
                    json!({"message": "the server is shutting down", "code": "SESSION_ERROR"});
                return (Some(error_frame(data)), Some(session));
            };
            let done = tokio::task::spawn_blocking(move || {
                let _slot = slot;
                let reply = rewardbox::sandboxes::with_cancel(Some(cancel), || {
                    if step {
                        session.step(&data, None)
                    } else {
                        session.reset(&data)
                    }
                });
                (reply, session)
            })
            .await;
            match done {
                Ok((Ok(reply), session)) => (Some(observation_frame(&reply)), Some(session)),
                Ok((Err(error), session)) => (Some(error_frame(error.frame_data())), Some(session)),
                Err(panicked) => {
                    let data = json!({"message": format!("the environment failed: {panicked}"),
                                      "code": "SESSION_ERROR"});
                    (Some(error_frame(data)), None)
                }
            }
        }
        "state" => {
            let state = json!({"type": "state", "data": session.state()});
            (Some(Message::Text(state.to_string().into())), Some(session))
        }
        "close" => (None, Some(session)),
        other => {
            let data = json!({"message": format!("Unknown message type: {other}"), "code": "UNKNOWN_TYPE"});
            (Some(error_frame(data)), Some(session))
        }
    }
}
