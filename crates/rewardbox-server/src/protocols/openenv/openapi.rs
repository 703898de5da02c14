//! The OpenAPI document of one environment's HTTP endpoints (what `openenv validate` reads to
//! learn the server's mode: `/reset`, `/step` and `/state` make it a simulation server).

use super::env::Family;
use serde_json::{Value, json};

fn json_body(schema: Value) -> Value {
    json!({"content": {"application/json": {"schema": schema}}})
}

fn answer(description: &str, schema: Value) -> Value {
    json!({"200": {"description": description, "content": {"application/json": {"schema": schema}}}})
}

/// The version of OpenEnv's HTTP interface the endpoints follow (OpenEnv's servers declare it as
/// the document's `info.version`, and `openenv validate` reads its profile from it).
const OPENENV_HTTP_VERSION: &str = "1.0.0";

/// The document for `family` served under `base` (`""` at the root).
pub fn document(family: &dyn Family, base: &str) -> Value {
    let schemas = family.schemas();
    let step_reply = json!({
        "type": "object", "required": ["observation"],
        "properties": {
            "observation": schemas.observation,
            "reward": {"anyOf": [{"type": "number"}, {"type": "null"}]},
            "done": {"type": "boolean", "default": false},
            "metadata": {"anyOf": [{"type": "object"}, {"type": "null"}]},
        },
    });
    let reset_request = json!({
        "type": "object", "additionalProperties": true,
        "properties": {
            "seed": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
            "episode_id": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        },
    });
    let step_request = json!({
        "type": "object", "required": ["action"],
        "properties": {
            "action": schemas.action,
            "timeout_s": {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "null"}]},
            "request_id": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        },
    });
    let servers = if base.is_empty() {
        json!([])
    } else {
        json!([{"url": base}])
    };
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": format!("rewardbox OpenEnv environment: {}", family.name()),
            "description": family.description(),
            "version": OPENENV_HTTP_VERSION,
            "x-rewardbox-version": env!("CARGO_PKG_VERSION"),
        },
        "servers": servers,
        "paths": {
            "/reset": {"post": {
                "summary": "Reset the environment (a fresh one, closed after)",
                "requestBody": json_body(reset_request),
                "responses": answer("The first observation", step_reply.clone()),
            }},
            "/step": {"post": {
                "summary": "Execute an action in a fresh environment",
                "requestBody": json_body(step_request),
                "responses": answer("The observation, reward and done flag", step_reply),
            }},
            "/state": {"get": {
                "summary": "A fresh environment's state",
                "responses": answer("The state", schemas.state),
            }},
            "/metadata": {"get": {
                "summary": "What the environment is",
                "responses": answer("Name, description, version", json!({"type": "object",
                    "required": ["name", "description"],
                    "properties": {"name": {"type": "string"}, "description": {"type": "string"}}})),
            }},
            "/health": {"get": {
                "summary": "Health check",
                "responses": answer("Healthy", json!({"type": "object",
                    "properties": {"status": {"type": "string", "enum": ["healthy"]}}})),
            }},
            "/schema": {"get": {
                "summary": "JSON schemas of the action, observation and state",
                "responses": answer("The schemas", json!({"type": "object",
                    "required": ["action", "observation", "state"]})),
            }},
            "/mcp": {"post": {
                "summary": "MCP JSON-RPC: tools/list, tools/call (reset and step, stateless)",
                "requestBody": json_body(json!({"type": "object"})),
                "responses": answer("A JSON-RPC 2.0 response", json!({"type": "object"})),
            }},
        },
    })
}
