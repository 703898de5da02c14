//! Errors as HTTP answers: a status and `{"detail": ..., "field": ...}` naming what was wrong.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An error answered to the client.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub detail: String,
    pub field: Option<String>,
}

impl ApiError {
    /// 400: the request is malformed; `field` names the culprit.
    pub fn bad_field(field: &str, detail: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            detail: format!("\"{field}\" {}", detail.into()),
            field: Some(field.to_string()),
        }
    }

    /// 400 with a message.
    pub fn bad_request(detail: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            detail: detail.into(),
            field: None,
        }
    }

    /// Another status with a message.
    pub fn status(status: StatusCode, detail: impl Into<String>) -> ApiError {
        ApiError {
            status,
            detail: detail.into(),
            field: None,
        }
    }

    /// 500: the server failed.
    pub fn internal(detail: impl Into<String>) -> ApiError {
        ApiError::status(StatusCode::INTERNAL_SERVER_ERROR, detail)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({"detail": self.detail});
        if let Some(field) = self.field {
            body["field"] = json!(field);
        }
        (self.status, Json(body)).into_response()
    }
}

/// A JSON body, or a 400 that says why it is not one (axum's own rejection says it less clearly).
pub fn parse_json(bytes: &[u8]) -> Result<serde_json::Value, ApiError> {
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad_request(format!("the body is not valid JSON: {e}")))
}
