//! `POST /mcp`: MCP's JSON-RPC 2.0 over HTTP, stateless: `initialize`, `tools/list` (two tools,
//! `reset` and `step`, whose input schemas are the environment's) and `tools/call` (a fresh
//! environment per call, as the stateless `/reset` and `/step`). Malformed requests get
//! JSON-RPC's own errors, never an HTTP error.

use super::env::{Family, Target};
use super::http::with_fresh_session;
use axum::Json;
use axum::body::Bytes;
use serde_json::{Map, Value, json};

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const SERVER_ERROR: i64 = -32000;

fn error(id: &Value, code: i64, message: impl Into<String>) -> Json<Value> {
    Json(json!({"jsonrpc": "2.0", "error": {"code": code, "message": message.into()}, "id": id}))
}

fn success(id: &Value, result: Value) -> Json<Value> {
    Json(json!({"jsonrpc": "2.0", "result": result, "id": id}))
}

fn tools(family: &dyn Family) -> Value {
    let schemas = family.schemas();
    json!([
        {"name": "reset", "description": format!("Start a fresh {} episode; returns its first observation", family.name()),
         "inputSchema": {"type": "object", "additionalProperties": true}},
        {"name": "step", "description": format!("Apply one action to a fresh {} environment", family.name()),
         "inputSchema": schemas.action},
    ])
}

/// `POST /mcp`.
pub async fn endpoint(Target(family): Target, body: Bytes) -> Json<Value> {
    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return error(&Value::Null, PARSE_ERROR, "Parse error");
    };
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let (Some("2.0"), Some(method)) = (
        request.get("jsonrpc").and_then(Value::as_str),
        request.get("method").and_then(Value::as_str),
    ) else {
        return error(
            &id,
            INVALID_REQUEST,
            "Invalid Request: a JSON-RPC 2.0 request has \"jsonrpc\": \"2.0\" and a \"method\"",
        );
    };
    let params = match request.get("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(map)) => map.clone(),
        Some(_) => return error(&id, INVALID_PARAMS, "Params must be an object"),
    };
    match method {
        "initialize" => success(
            &id,
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": format!("rewardbox {}", family.name()), "version": env!("CARGO_PKG_VERSION")},
            }),
        ),
        "tools/list" => success(&id, json!({"tools": tools(family.as_ref())})),
        "tools/call" => {
            let name = params.get("name").and_then(Value::as_str).unwrap_or("");
            let arguments = match params.get("arguments") {
                None | Some(Value::Null) => Map::new(),
                Some(Value::Object(map)) => map.clone(),
                Some(_) => return error(&id, INVALID_PARAMS, "\"arguments\" must be an object"),
            };
            let called = match name {
                "reset" => with_fresh_session(family, move |s| s.reset(&arguments)).await,
                "step" => with_fresh_session(family, move |s| s.step(&arguments, None)).await,
                other => {
                    return error(
                        &id,
                        INVALID_PARAMS,
                        format!("unknown tool {other:?} (reset, step)"),
                    );
                }
            };
            match called {
                Ok(reply) => {
                    let reply = reply.to_json();
                    success(
                        &id,
                        json!({
                            "content": [{"type": "text", "text": reply.to_string()}],
                            "structuredContent": reply,
                            "isError": false,
                        }),
                    )
                }
                Err(e) => error(&id, SERVER_ERROR, e.detail),
            }
        }
        other => error(&id, METHOD_NOT_FOUND, format!("Method not found: {other}")),
    }
}
