//! Webhook endpoints, their delivery logs, replay and test events: for end users under
//! `/me/webhooks…` and for partners under `/partner/webhooks…`. The same operations on the
//! session's owner (`webhooks::Owner`): a user's endpoints, or the partner's own.

use axum::{extract::State, http::StatusCode};
use domain::{
    infra::{
        crypto::SecretBox,
        paging::{Page, PageParams},
    },
    webhooks::{
        self, Owner,
        deliveries::{self, Delivery},
        endpoints::{self, CreatedEndpoint, Endpoint, EndpointPatch, NewEndpoint},
    },
};
use serde::Serialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{PartnerAuth, UserAuth},
    error::ApiResult,
    extract::{Json, Path, Query},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(me_list, me_create))
        .routes(routes!(me_update, me_delete))
        .routes(routes!(me_roll))
        .routes(routes!(me_test))
        .routes(routes!(me_deliveries))
        .routes(routes!(me_replay))
        .routes(routes!(partner_list, partner_create))
        .routes(routes!(partner_update, partner_delete))
        .routes(routes!(partner_roll))
        .routes(routes!(partner_test))
        .routes(routes!(partner_deliveries))
        .routes(routes!(partner_replay))
}

fn of_user(auth: &UserAuth) -> Owner {
    Owner::user(auth.partner_id, auth.user_id)
}

fn of_partner(auth: &PartnerAuth) -> Owner {
    Owner::partner(auth.partner_id)
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RolledSecret {
    /// The new `whsec_…` secret, shown once; the one before also signs for 24 hours.
    pub secret: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct QueuedTest {
    pub delivery_id: i64,
}

async fn list(state: &AppState, owner: Owner) -> ApiResult<Json<Vec<Endpoint>>> {
    Ok(Json(
        endpoints::list(&mut *state.pool.acquire().await?, owner).await?,
    ))
}

async fn create(
    state: &AppState,
    owner: Owner,
    req: NewEndpoint,
) -> ApiResult<(StatusCode, Json<CreatedEndpoint>)> {
    if let Ok(url) = endpoints::parse_url(&req.url) {
        // Resolved before the transaction opens: DNS may take seconds.
        endpoints::check_url(&url, state.config.webhook_allow_private).await?;
    }
    let secrets = SecretBox::new(&state.config.encryption_key);
    let mut tx = state.pool.begin().await?;
    let created = endpoints::create(&mut tx, &secrets, owner, &req).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn update(
    state: &AppState,
    owner: Owner,
    id: i64,
    patch: EndpointPatch,
) -> ApiResult<Json<Endpoint>> {
    if let Some(Ok(url)) = patch.url.as_deref().map(endpoints::parse_url) {
        endpoints::check_url(&url, state.config.webhook_allow_private).await?;
    }
    let mut tx = state.pool.begin().await?;
    let ep = endpoints::update(&mut tx, owner, id, &patch).await?;
    tx.commit().await?;
    Ok(Json(ep))
}

async fn delete(state: &AppState, owner: Owner, id: i64) -> ApiResult<StatusCode> {
    endpoints::delete(&mut *state.pool.acquire().await?, owner, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn roll(state: &AppState, owner: Owner, id: i64) -> ApiResult<Json<RolledSecret>> {
    let secrets = SecretBox::new(&state.config.encryption_key);
    let secret =
        endpoints::roll_secret(&mut *state.pool.acquire().await?, &secrets, owner, id).await?;
    Ok(Json(RolledSecret { secret }))
}

async fn test(
    state: &AppState,
    owner: Owner,
    id: i64,
) -> ApiResult<(StatusCode, Json<QueuedTest>)> {
    let mut tx = state.pool.begin().await?;
    let delivery_id = webhooks::send_test(&mut tx, owner, id).await?;
    tx.commit().await?;
    Ok((StatusCode::ACCEPTED, Json(QueuedTest { delivery_id })))
}

async fn log(
    state: &AppState,
    owner: Owner,
    id: i64,
    p: PageParams,
) -> ApiResult<Json<Page<Delivery>>> {
    Ok(Json(
        deliveries::list(
            &mut *state.pool.acquire().await?,
            owner,
            id,
            p.with_default(20),
        )
        .await?,
    ))
}

async fn replay(state: &AppState, owner: Owner, id: i64) -> ApiResult<StatusCode> {
    let mut tx = state.pool.begin().await?;
    deliveries::replay(&mut tx, owner, id).await?;
    tx.commit().await?;
    Ok(StatusCode::ACCEPTED)
}

/// One's webhook endpoints (never their secrets).
#[utoipa::path(get, path = "/me/webhooks", tag = "webhooks", security(("bearer" = [])),
    responses((status = 200, body = Vec<Endpoint>), (status = 401, body = crate::error::ErrorBody)))]
pub async fn me_list(
    auth: UserAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<Endpoint>>> {
    list(&state, of_user(&auth)).await
}

/// Registers an endpoint for some of `webhook.test`, `batch.completed`,
/// `trubank.status_changed`, `wallet.low_balance`, `export.completed`. The `whsec_` secret is
/// in this answer only. A URL leading to a private or metadata address: 422 on `url`.
#[utoipa::path(post, path = "/me/webhooks", tag = "webhooks", request_body = NewEndpoint, security(("bearer" = [])),
    responses((status = 201, body = CreatedEndpoint), (status = 401, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn me_create(
    auth: UserAuth,
    State(state): State<AppState>,
    Json(req): Json<NewEndpoint>,
) -> ApiResult<(StatusCode, Json<CreatedEndpoint>)> {
    create(&state, of_user(&auth), req).await
}

/// Changes an endpoint's URL, events or enabled; enabling a disabled endpoint again forgets
/// its failures.
#[utoipa::path(patch, path = "/me/webhooks/{id}", tag = "webhooks", params(("id" = i64, Path)), request_body = EndpointPatch,
    security(("bearer" = [])),
    responses((status = 200, body = Endpoint), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn me_update(
    auth: UserAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Json(patch): Json<EndpointPatch>,
) -> ApiResult<Json<Endpoint>> {
    update(&state, of_user(&auth), id, patch).await
}

/// Deletes an endpoint with its delivery log.
#[utoipa::path(delete, path = "/me/webhooks/{id}", tag = "webhooks", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn me_delete(
    auth: UserAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    delete(&state, of_user(&auth), id).await
}

/// A new signing secret, shown once; the old one also signs for 24 hours.
#[utoipa::path(post, path = "/me/webhooks/{id}/roll-secret", tag = "webhooks", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, body = RolledSecret), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn me_roll(
    auth: UserAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<RolledSecret>> {
    roll(&state, of_user(&auth), id).await
}

/// Queues a `webhook.test` event to this endpoint alone. 409 while it is disabled.
#[utoipa::path(post, path = "/me/webhooks/{id}/test", tag = "webhooks", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 202, body = QueuedTest), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody)))]
pub async fn me_test(
    auth: UserAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<(StatusCode, Json<QueuedTest>)> {
    test(&state, of_user(&auth), id).await
}

/// The endpoint's deliveries, newest first: event, status, every attempt (status code,
/// latency, the answer's first 1 KB) and the next attempt's time.
#[utoipa::path(get, path = "/me/webhooks/{id}/deliveries", tag = "webhooks", params(("id" = i64, Path), PageParams),
    security(("bearer" = [])),
    responses((status = 200, body = Page<Delivery>), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn me_deliveries(
    auth: UserAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(p): Query<PageParams>,
) -> ApiResult<Json<Page<Delivery>>> {
    log(&state, of_user(&auth), id, p).await
}

/// Delivers the event again: one attempt at once, then the retry schedule should it fail.
#[utoipa::path(post, path = "/me/webhook-deliveries/{id}/replay", tag = "webhooks", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 202), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody)))]
pub async fn me_replay(
    auth: UserAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    replay(&state, of_user(&auth), id).await
}

/// The partner's own webhook endpoints (never their secrets).
#[utoipa::path(get, path = "/partner/webhooks", tag = "webhooks",
    responses((status = 200, body = Vec<Endpoint>), (status = 401, body = crate::error::ErrorBody)))]
pub async fn partner_list(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<Endpoint>>> {
    list(&state, of_partner(&auth)).await
}

/// Registers an endpoint for the partner's events: those of end users' endpoints and
/// `user.signed_up`, `trubank.requested`. The secret is in this answer only.
#[utoipa::path(post, path = "/partner/webhooks", tag = "webhooks", request_body = NewEndpoint,
    responses((status = 201, body = CreatedEndpoint), (status = 401, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn partner_create(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<NewEndpoint>,
) -> ApiResult<(StatusCode, Json<CreatedEndpoint>)> {
    create(&state, of_partner(&auth), req).await
}

/// As `PATCH /me/webhooks/{id}`, for the partner's endpoints.
#[utoipa::path(patch, path = "/partner/webhooks/{id}", tag = "webhooks", params(("id" = i64, Path)), request_body = EndpointPatch,
    responses((status = 200, body = Endpoint), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn partner_update(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Json(patch): Json<EndpointPatch>,
) -> ApiResult<Json<Endpoint>> {
    update(&state, of_partner(&auth), id, patch).await
}

/// Deletes one of the partner's endpoints with its delivery log.
#[utoipa::path(delete, path = "/partner/webhooks/{id}", tag = "webhooks", params(("id" = i64, Path)),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn partner_delete(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    delete(&state, of_partner(&auth), id).await
}

/// A new signing secret, shown once; the old one also signs for 24 hours.
#[utoipa::path(post, path = "/partner/webhooks/{id}/roll-secret", tag = "webhooks", params(("id" = i64, Path)),
    responses((status = 200, body = RolledSecret), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn partner_roll(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<RolledSecret>> {
    roll(&state, of_partner(&auth), id).await
}

/// Queues a `webhook.test` event to this endpoint alone. 409 while it is disabled.
#[utoipa::path(post, path = "/partner/webhooks/{id}/test", tag = "webhooks", params(("id" = i64, Path)),
    responses((status = 202, body = QueuedTest), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody)))]
pub async fn partner_test(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<(StatusCode, Json<QueuedTest>)> {
    test(&state, of_partner(&auth), id).await
}

/// The endpoint's deliveries, newest first, with their attempts and next attempt.
#[utoipa::path(get, path = "/partner/webhooks/{id}/deliveries", tag = "webhooks", params(("id" = i64, Path), PageParams),
    responses((status = 200, body = Page<Delivery>), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn partner_deliveries(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(p): Query<PageParams>,
) -> ApiResult<Json<Page<Delivery>>> {
    log(&state, of_partner(&auth), id, p).await
}

/// Delivers the event again: one attempt at once, then the retry schedule should it fail.
#[utoipa::path(post, path = "/partner/webhook-deliveries/{id}/replay", tag = "webhooks", params(("id" = i64, Path)),
    responses((status = 202), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody)))]
pub async fn partner_replay(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    replay(&state, of_partner(&auth), id).await
}
