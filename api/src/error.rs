//! The one HTTP error type. Every handler returns `ApiResult<T>`; every error becomes
//! `{"error": {"code", "message", "fields"?}}` with the status of the contract. Unexpected
//! errors are logged with their detail and answered with a generic 500.

use std::collections::BTreeMap;

use axum::{
    Json,
    extract::rejection::{JsonRejection, PathRejection, QueryRejection},
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Serialize;

pub type ApiResult<T> = Result<T, ApiError>;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub fields: BTreeMap<String, String>,
    /// Seconds, sent as `Retry-After` (429s).
    pub retry_after: Option<u64>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorDetail {
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub fields: BTreeMap<String, String>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            fields: BTreeMap::new(),
            retry_after: None,
        }
    }
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", message)
    }
    pub fn not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", "Not found")
    }
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, "conflict", message)
    }
    pub fn too_many_requests() -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "Too many requests, please try again later",
        )
    }
    /// 429 with `Retry-After: secs`.
    pub fn too_many_requests_after(secs: u64) -> Self {
        Self {
            retry_after: Some(secs.max(1)),
            ..Self::too_many_requests()
        }
    }
    pub fn validation(fields: BTreeMap<String, String>) -> Self {
        let message = fields
            .values()
            .next()
            .cloned()
            .unwrap_or_else(|| "Validation failed".into());
        Self {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            code: "validation_failed",
            message,
            fields,
            retry_after: None,
        }
    }
    pub fn field(field: &str, message: impl Into<String>) -> Self {
        Self::validation(BTreeMap::from([(field.to_owned(), message.into())]))
    }
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!(error = %detail, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Something went wrong. try again later",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code.to_owned(),
                message: self.message,
                fields: self.fields,
            },
        };
        let mut res = (self.status, Json(body)).into_response();
        // For the metrics: the gateway's refusals are counted by their code.
        res.extensions_mut()
            .insert(crate::metrics::ErrorCode(self.code));
        if let Some(secs) = self.retry_after {
            res.headers_mut()
                .insert(http::header::RETRY_AFTER, http::HeaderValue::from(secs));
        }
        res
    }
}

impl From<domain::Error> for ApiError {
    fn from(e: domain::Error) -> Self {
        use domain::Error as E;
        match e {
            E::NotFound => Self::not_found(),
            E::Invalid { fields, message } => {
                let mut err = Self::validation(fields);
                err.message = message;
                err
            }
            E::Conflict { message, field } => {
                let mut err = Self::conflict(message.clone());
                if let Some(field) = field {
                    err.fields.insert(field.to_owned(), message);
                }
                err
            }
            E::BadRequest(m) => Self::bad_request(m),
            E::TooManyAttempts { retry_after_secs } => {
                Self::too_many_requests_after(retry_after_secs)
            }
            E::Forbidden(m) => Self::forbidden(m),
            E::Denied { code, message } => Self::new(StatusCode::FORBIDDEN, code, message),
            E::Unauthorized(m) => Self::unauthorized(m),
            E::InsufficientFunds => Self::new(
                StatusCode::PAYMENT_REQUIRED,
                "insufficient_balance",
                "Insufficient balance",
            ),
            E::TooLarge(m) => Self::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", m),
            E::Db(e) => e.into(),
            E::Other(e) => Self::internal(format!("{e:#}")),
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::RowNotFound => Self::not_found(),
            sqlx::Error::Database(d) if d.is_unique_violation() => Self::conflict("Already exists"),
            // 22021: a NUL byte (or bad UTF-8) in text; 22P05: \u0000 in JSON. Postgres refuses
            // both, and either came from the request, wherever in it.
            sqlx::Error::Database(d) if matches!(d.code().as_deref(), Some("22021" | "22P05")) => {
                Self::bad_request("Text must not contain NUL characters")
            }
            sqlx::Error::Database(d) if d.is_check_violation() || d.is_foreign_key_violation() => {
                Self::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "validation_failed",
                    "Invalid value",
                )
            }
            _ => Self::internal(e),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        let status = r.status();
        let code = if status == StatusCode::UNPROCESSABLE_ENTITY {
            "validation_failed"
        } else {
            "bad_request"
        };
        let status = if status == StatusCode::PAYLOAD_TOO_LARGE {
            status
        } else if code == "bad_request" {
            StatusCode::BAD_REQUEST
        } else {
            status
        };
        Self::new(status, code, r.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        Self::bad_request(r.body_text())
    }
}

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", r.body_text())
    }
}

/// The contract's error shape for what the framework answers by itself under `/api/`: a 405
/// (method not allowed, empty body), a 413 (body over the limit, plain text), a 415 or 400 of a
/// body extractor. Our own errors are JSON already and pass untouched; `Allow` and
/// `Retry-After` are kept.
pub async fn framework_errors(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let res = next.run(req).await;
    let status = res.status();
    let json = res
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !api || json || !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    let (code, message) = match status {
        StatusCode::METHOD_NOT_ALLOWED => ("method_not_allowed", "Method not allowed"),
        StatusCode::PAYLOAD_TOO_LARGE => ("too_large", "The request body is too large"),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            ("unsupported_media_type", "Unsupported content type")
        }
        StatusCode::NOT_FOUND => ("not_found", "Not found"),
        StatusCode::UNPROCESSABLE_ENTITY => ("validation_failed", "Invalid request"),
        s if s.is_server_error() => ("internal", "Something went wrong. try again later"),
        _ => ("bad_request", "Bad request"),
    };
    let mut shaped = ApiError::new(status, code, message).into_response();
    for name in [http::header::ALLOW, http::header::RETRY_AFTER] {
        if let Some(v) = res.headers().get(&name) {
            shaped.headers_mut().insert(name, v.clone());
        }
    }
    shaped
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body(e: ApiError) -> (StatusCode, serde_json::Value) {
        let r = e.into_response();
        let status = r.status();
        let bytes = axum::body::to_bytes(r.into_body(), 1 << 16).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn domain_errors_map_to_contract_statuses() {
        let cases = [
            (domain::Error::NotFound, 404, "not_found"),
            (
                domain::Error::invalid("email", "Email is required"),
                422,
                "validation_failed",
            ),
            (domain::Error::conflict("taken"), 409, "conflict"),
            (
                domain::Error::InsufficientFunds,
                402,
                "insufficient_balance",
            ),
            (domain::Error::Forbidden("no".into()), 403, "forbidden"),
            (
                domain::Error::Denied {
                    code: "key_ip_not_allowed",
                    message: "no".into(),
                },
                403,
                "key_ip_not_allowed",
            ),
            (
                domain::Error::Unauthorized("no".into()),
                401,
                "unauthorized",
            ),
            (domain::Error::TooLarge("big".into()), 413, "too_large"),
            (
                domain::Error::Other(anyhow::anyhow!("secret detail")),
                500,
                "internal",
            ),
        ];
        for (err, status, code) in cases {
            let (s, b) = body(err.into()).await;
            assert_eq!(s.as_u16(), status);
            assert_eq!(b["error"]["code"], code);
            assert!(
                !b.to_string().contains("secret detail"),
                "internal detail leaked: {b}"
            );
        }
        let (_, b) = body(domain::Error::invalid("email", "Email is required").into()).await;
        assert_eq!(b["error"]["fields"]["email"], "Email is required");
        assert_eq!(b["error"]["message"], "Email is required");

        // A conflict on a field is that field's error too; one without a field has none.
        let (s, b) = body(domain::Error::conflict_on("email", "This email is taken").into()).await;
        assert_eq!(s.as_u16(), 409);
        assert_eq!(b["error"]["fields"]["email"], "This email is taken");
        assert_eq!(b["error"]["message"], "This email is taken");
        let (_, b) = body(domain::Error::conflict("taken").into()).await;
        assert!(b["error"].get("fields").is_none(), "{b}");

        let (s, b) = body(domain::Error::BadRequest("Link expired".into()).into()).await;
        assert_eq!(
            (s.as_u16(), &b["error"]["code"]),
            (400, &"bad_request".into())
        );
        let r = ApiError::from(domain::Error::TooManyAttempts {
            retry_after_secs: 42,
        })
        .into_response();
        assert_eq!(r.status().as_u16(), 429);
        assert_eq!(r.headers()[http::header::RETRY_AFTER], "42");
    }
}
