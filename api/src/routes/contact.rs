//! Public, unauthenticated: the landing page's contact form (`domain::mail::contact`).

use axum::{extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, error::ApiResult, extract::Json};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(contact))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ContactRequest {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub mobile: String,
    #[serde(default)]
    pub message: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Accepted {
    pub job_id: String,
}

/// Sends the landing page's contact form to the provider's address (a `send_mail` job).
#[utoipa::path(post, path = "/public/contact", tag = "public", request_body = ContactRequest,
    responses((status = 202, body = Accepted), (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn contact(
    _: crate::ratelimit::ContactLimit,
    State(state): State<AppState>,
    Json(req): Json<ContactRequest>,
) -> ApiResult<(StatusCode, Json<Accepted>)> {
    let form = domain::mail::contact::ContactForm::parse(
        &req.name,
        &req.email,
        &req.mobile,
        &req.message,
    )?;
    let job_id = form.submit(&mut *state.pool.acquire().await?).await?;
    Ok((StatusCode::ACCEPTED, Json(Accepted { job_id })))
}
