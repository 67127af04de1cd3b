//! One module per feature, each with its own `router()`.

pub mod api_keys;
pub mod auth;
pub mod branding;
pub mod catalogue;
pub mod clients;
pub mod docs;
pub mod files;
pub mod health;
pub mod ip_access;
pub mod ip_hits;
pub mod jobs;
pub mod logs;
pub mod onboarding;
pub mod plans;
pub mod pricing;
pub mod public;
pub mod settings;
pub mod transactions;
pub mod uploads;
pub mod users;
pub mod verify;
pub mod visibility;
pub mod wallets;
pub mod web;

use axum::Router;

use crate::{AppState, error::ApiError};

/// Everything under `/api`.
pub fn api_router() -> Router<AppState> {
    let v1 = Router::new()
        .merge(public::router())
        .merge(auth::router())
        .merge(onboarding::router())
        .merge(branding::router())
        .merge(jobs::router())
        .merge(catalogue::router())
        .merge(plans::router())
        .merge(pricing::router())
        .merge(transactions::router())
        .merge(logs::router())
        .merge(uploads::router())
        .merge(wallets::router())
        .merge(users::router())
        .merge(clients::router())
        .merge(api_keys::router()).merge(visibility::router()).merge(settings::router()).merge(ip_access::router()).merge(ip_hits::router())
        .merge(verify::router());
    Router::new()
        .merge(docs::router())
        .nest("/v1", v1)
        .fallback(|| async { ApiError::not_found() })
}
