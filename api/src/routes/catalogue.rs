//! The API catalogue: the super admin's API's and Test API's screens, and the summary any
//! signed-in partner may read (My APIs, price screens).

use axum::{extract::State, http::StatusCode};
use domain::{
    catalogue::{self, Api, ApiFilter, ApiInput, Catalogue},
    infra::paging::{Page, PageParams, PageRequest},
};
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{AnyAuth, SuperAdminAuth},
    error::{ApiError, ApiResult},
    extract::{Json, Path, Query},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(summary))
        .routes(routes!(list, create))
        .routes(routes!(one, update, remove))
        .routes(routes!(sandbox_list, sandbox_add))
        .routes(routes!(sandbox_remove))
}

/// The catalogue screens page 10 per page unless told otherwise.
const CATALOGUE_PER_PAGE: i64 = 10;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ApisQuery {
    /// Part of the name, service or PID.
    pub q: Option<String>,
    /// One category (case-insensitive); `all` or empty for every one.
    pub category: Option<String>,
}

impl ApisQuery {
    fn split(self, sandbox_only: bool, paging: PageParams) -> (ApiFilter, PageRequest) {
        (
            ApiFilter {
                q: self.q,
                category: self.category,
                sandbox_only,
            },
            paging.with_default(CATALOGUE_PER_PAGE),
        )
    }
}

/// Live, visible APIs (category, name, service, PID) and their categories, for any signed-in
/// partner or super admin.
#[utoipa::path(get, path = "/catalogue", tag = "catalogue", responses((status = 200, body = Catalogue), (status = 401, body = crate::error::ErrorBody)))]
pub async fn summary(_auth: AnyAuth, State(state): State<AppState>) -> ApiResult<Json<Catalogue>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(catalogue::summary(&mut conn).await?))
}

/// The whole catalogue with every field, 10 per page by default.
#[utoipa::path(get, path = "/superadmin/apis", tag = "catalogue", params(ApisQuery, PageParams),
    responses((status = 200, body = Page<Api>), (status = 403, body = crate::error::ErrorBody)))]
pub async fn list(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Query(q): Query<ApisQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<Api>>> {
    let (f, page) = q.split(false, paging);
    let mut conn = state.pool.acquire().await?;
    Ok(Json(catalogue::list(&mut conn, &f, page).await?))
}

/// One catalogue entry.
#[utoipa::path(get, path = "/superadmin/apis/{id}", tag = "catalogue", params(("id" = i64, Path)),
    responses((status = 200, body = Api), (status = 404, body = crate::error::ErrorBody)))]
pub async fn one(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<Api>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(catalogue::get(&mut conn, id).await?))
}

/// Adds an API. Required: name, category, service, description, endpoint, documentation_link,
/// curl_code, response_code (a JSON object, else 422 'please enter response code as object ex:
/// {"key":"value"}'). A service or PID already in the catalogue: 409.
#[utoipa::path(post, path = "/superadmin/apis", tag = "catalogue", request_body = ApiInput,
    responses((status = 201, body = Api), (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn create(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Json(input): Json<ApiInput>,
) -> ApiResult<(StatusCode, Json<Api>)> {
    let mut tx = state.pool.begin().await?;
    let api = catalogue::create(&mut tx, &input, auth.actor()).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(api)))
}

/// Replaces an entry's fields (same rules as adding; the PID is kept unless one is given).
/// A changed default price is audited like every price change.
#[utoipa::path(put, path = "/superadmin/apis/{id}", tag = "catalogue", params(("id" = i64, Path)), request_body = ApiInput,
    responses((status = 200, body = Api), (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn update(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Json(input): Json<ApiInput>,
) -> ApiResult<Json<Api>> {
    let mut tx = state.pool.begin().await?;
    let api = catalogue::update(&mut tx, id, &input, auth.actor()).await?;
    tx.commit().await?;
    Ok(Json(api))
}

/// Deletes an entry with its slab, customised and user prices. Past transactions keep their
/// service name and PID.
#[utoipa::path(delete, path = "/superadmin/apis/{id}", tag = "catalogue", params(("id" = i64, Path)),
    responses((status = 204), (status = 404, body = crate::error::ErrorBody)))]
pub async fn remove(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    let mut tx = state.pool.begin().await?;
    catalogue::delete(&mut tx, id, auth.actor()).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The sandbox (Test API's) list: catalogue entries callable with a sandbox key, which answer
/// their sample response.
#[utoipa::path(get, path = "/superadmin/test-apis", tag = "catalogue", params(ApisQuery, PageParams),
    responses((status = 200, body = Page<Api>), (status = 403, body = crate::error::ErrorBody)))]
pub async fn sandbox_list(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Query(q): Query<ApisQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<Api>>> {
    let (f, page) = q.split(true, paging);
    let mut conn = state.pool.acquire().await?;
    Ok(Json(catalogue::list(&mut conn, &f, page).await?))
}

/// Which API to put on the sandbox list: by `api_id` or by `service`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct SandboxRequest {
    pub api_id: Option<i64>,
    pub service: Option<String>,
}

/// Puts a catalogue API on the sandbox list (idempotent).
#[utoipa::path(post, path = "/superadmin/test-apis", tag = "catalogue", request_body = SandboxRequest,
    responses((status = 201, body = Api), (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn sandbox_add(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Json(req): Json<SandboxRequest>,
) -> ApiResult<(StatusCode, Json<Api>)> {
    let mut tx = state.pool.begin().await?;
    let id = match (
        req.api_id,
        req.service
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty()),
    ) {
        (Some(id), _) => id,
        (None, Some(service)) => catalogue::id_of_service(&mut tx, service)
            .await?
            .ok_or_else(|| ApiError::field("service", format!("Unknown service: {service}")))?,
        (None, None) => return Err(ApiError::field("service", "Service Name is required")),
    };
    let api = catalogue::set_sandbox(&mut tx, id, true, auth.actor()).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(api)))
}

/// Takes an API off the sandbox list (it stays in the catalogue).
#[utoipa::path(delete, path = "/superadmin/test-apis/{id}", tag = "catalogue", params(("id" = i64, Path, description = "the catalogue id")),
    responses((status = 204), (status = 404, body = crate::error::ErrorBody)))]
pub async fn sandbox_remove(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    let mut tx = state.pool.begin().await?;
    catalogue::set_sandbox(&mut tx, id, false, auth.actor()).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}
