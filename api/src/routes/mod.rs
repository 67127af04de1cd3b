//! One module per feature, each with its own `router()`.

pub mod docs;
pub mod files;
pub mod health;
pub mod jobs;
pub mod public;
pub mod uploads;
pub mod web;

use axum::Router;

use crate::{AppState, error::ApiError};

/// Everything under `/api`.
pub fn api_router() -> Router<AppState> {
    let v1 = Router::new().merge(public::router()).merge(jobs::router()).merge(uploads::router());
    Router::new()
        .merge(docs::router())
        .nest("/v1", v1)
        .fallback(|| async { ApiError::not_found() })
}
