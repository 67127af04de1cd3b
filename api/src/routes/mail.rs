//! The outbox (`MAIL=outbox`) in the super-admin console: the messages the platform wrote
//! instead of sending, newest first, and one of them.

use axum::extract::State;
use domain::{
    infra::config::MailConfig,
    infra::paging::{Page, PageParams},
    mail::outbox::{self, OutboxEntry, OutboxMail},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::SuperAdminAuth,
    error::{ApiError, ApiResult},
    extract::{Json, Path, Query},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(one))
}

fn outbox_dir(state: &AppState) -> ApiResult<&std::path::Path> {
    match &state.config.mail {
        MailConfig::Outbox { dir } => Ok(dir),
        _ => Err(ApiError::new(
            axum::http::StatusCode::NOT_FOUND,
            "not_found",
            "Mail goes out over SMTP: there is no outbox to show",
        )),
    }
}

/// The outbox, newest first, 50 a page (to, subject, time). 404 unless `MAIL=outbox`.
#[utoipa::path(get, path = "/superadmin/mail", tag = "mail", params(PageParams),
    responses((status = 200, body = Page<OutboxEntry>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn list(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<OutboxEntry>>> {
    let dir = outbox_dir(&state)?;
    Ok(Json(
        outbox::list(
            dir,
            paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE),
        )
        .await
        .map_err(ApiError::internal)?,
    ))
}

/// One message of the outbox with its plain text.
#[utoipa::path(get, path = "/superadmin/mail/{id}", tag = "mail", params(("id" = String, Path)),
    responses((status = 200, body = OutboxMail), (status = 404, body = crate::error::ErrorBody)))]
pub async fn one(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<OutboxMail>> {
    let dir = outbox_dir(&state)?;
    outbox::read(dir, &id)
        .await
        .map_err(ApiError::internal)?
        .map(Json)
        .ok_or_else(ApiError::not_found)
}
