//! `POST /api/v1/uploads`: a signed link for the browser to upload one file straight to
//! storage (logo, favicon, QR image, bank statement). The rules of the spec are checked here
//! first (`domain::infra::storage::UploadPlan`); the link then binds the checked type and size, so
//! the upload itself cannot break them either. The returned `key` is what forms save.

use std::collections::BTreeMap;

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::infra::storage::{UPLOAD_LINK_TTL, UploadPlan, UploadPurpose};
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, auth::PartnerAuth, error::ApiResult, extract::Json};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(create))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct UploadRequest {
    /// `logo`, `favicon`, `qr` or `statement`.
    #[serde(default)]
    #[schema(example = "logo")]
    pub purpose: String,
    #[serde(default)]
    #[schema(example = "my logo.png")]
    pub file_name: String,
    #[serde(default)]
    #[schema(example = "image/png")]
    pub content_type: String,
    /// In bytes.
    #[serde(default)]
    #[schema(example = 20480)]
    pub size: u64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UploadLink {
    /// The storage key to save in the form (`partners/{id}/{purpose}/{PREFIX}_{name}`).
    pub key: String,
    pub url: String,
    /// Always `PUT`.
    pub method: String,
    /// Send these headers with the PUT, exactly.
    pub headers: BTreeMap<String, String>,
    pub expires_at: DateTime<Utc>,
}

/// Signs an upload link, valid 15 minutes. Logo and QR: png/jpg/jpeg under 1 MB; favicon:
/// png/jpg/jpeg under 10 KB; statement: PDF under 10 MB. 413 too large (with the spec's
/// message), 422 wrong type or no file.
#[utoipa::path(post, path = "/uploads", tag = "uploads", security(("bearer" = [])), request_body = UploadRequest,
    responses((status = 200, body = UploadLink), (status = 401, body = crate::error::ErrorBody),
              (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn create(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<UploadRequest>,
) -> ApiResult<Json<UploadLink>> {
    let purpose = UploadPurpose::parse(&req.purpose)?;
    // The partner comes from the token: nobody can upload into another partner's folder.
    let mut plan = UploadPlan::new(
        auth.partner_id,
        purpose,
        &req.file_name,
        &req.content_type,
        req.size,
    )?;
    // One key per link: a key already used (the same random prefix and name) gets a new prefix.
    for _ in 0..5 {
        if !state.storage.exists(&plan.key).await? {
            break;
        }
        plan = UploadPlan::new(
            auth.partner_id,
            purpose,
            &req.file_name,
            &req.content_type,
            req.size,
        )?;
    }
    if state.storage.exists(&plan.key).await? {
        return Err(domain::Error::conflict("Please try the upload again").into());
    }
    let link = state
        .storage
        .presign_put(&plan.key, &plan.content_type, plan.size, UPLOAD_LINK_TTL)
        .await?;
    tracing::info!(
        partner_id = auth.partner_id,
        purpose = purpose.as_str(),
        size = plan.size,
        "upload link issued"
    );
    Ok(Json(UploadLink {
        key: plan.key,
        url: link.url,
        method: link.method.into(),
        headers: link.headers,
        expires_at: link.expires_at,
    }))
}
