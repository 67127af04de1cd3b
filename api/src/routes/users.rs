//! A partner's end users (User Accounts, User Detail, Add User Manually, Settings) and the
//! partner dashboard tiles. The partner id always comes from the session; the super admin's
//! client-details Users tab reads and sets the same users under the client's id.

use axum::{extract::State, http::StatusCode};
use domain::{
    infra::paging::{Page, PageParams},
    mail::{Mail, SendMail},
    partners::users::{self, NewUser, User},
};
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{PartnerAuth, SuperAdminAuth},
    error::ApiResult,
    extract::{Json, Path, Query},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(dashboard))
        .routes(routes!(list, create))
        .routes(routes!(one, update))
        .routes(routes!(client_list))
        .routes(routes!(client_one, client_update))
}

/// Client details, Users: 8 a page (spec part 2 §9).
const CLIENT_USERS_PER_PAGE: i64 = 8;

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DashboardCounts {
    pub users: i64,
    pub transactions: i64,
}

/// The two dashboard tiles: the partner's users and their API transactions.
#[utoipa::path(get, path = "/partner/dashboard", tag = "users", responses((status = 200, body = DashboardCounts)))]
pub async fn dashboard(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<DashboardCounts>> {
    let mut conn = state.pool.acquire().await?;
    let (users, transactions) = users::partner_counts(&mut conn, auth.partner_id).await?;
    Ok(Json(DashboardCounts {
        users,
        transactions,
    }))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UsersQuery {
    /// Matches name, e-mail, phone or user id.
    pub q: Option<String>,
}

/// The partner's users, newest first.
#[utoipa::path(get, path = "/partner/users", tag = "users", params(UsersQuery, PageParams), responses((status = 200, body = Page<User>)))]
pub async fn list(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Query(q): Query<UsersQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<User>>> {
    let mut conn = state.pool.acquire().await?;
    let page = paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE);
    Ok(Json(
        users::list(
            &mut conn,
            auth.partner_id,
            &users::Filter { search: q.q },
            page,
        )
        .await?,
    ))
}

/// One user with the address lines. Another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}", tag = "users", params(("id" = i64, Path)),
    responses((status = 200, body = User), (status = 404, body = crate::error::ErrorBody)))]
pub async fn one(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<User>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(users::get(&mut conn, auth.partner_id, id).await?))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct CreateUser {
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub phone_number: String,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub full_access: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Created {
    pub id: i64,
}

/// Add User Manually: creates the user with its two wallets and mails the user (a job in the
/// same transaction). 409 when the e-mail is taken among the partner's users.
#[utoipa::path(post, path = "/partner/users", tag = "users", request_body = CreateUser,
    responses((status = 201, body = Created), (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn create(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<CreateUser>,
) -> ApiResult<(StatusCode, Json<Created>)> {
    let new = NewUser::parse(
        &req.first_name,
        &req.last_name,
        &req.email,
        &req.phone_number,
        &req.password,
        req.full_access,
    )?;
    // Hashed before the transaction: waiting for the hashing pool must not hold locks.
    let hash = domain::infra::crypto::hash_password_pooled(&new.password)
        .await
        .map_err(crate::error::ApiError::internal)?;
    let mut tx = state.pool.begin().await?;
    let id = users::create(&mut tx, auth.partner_id, &new, &hash).await?;
    // From the partner's own mail server when it set one up: the user is the partner's customer.
    let mail = SendMail::of(Mail::AccountCreated {
        partner_id: auth.partner_id,
        user_id: id,
    })
    .via_partner(auth.partner_id);
    let job_id = jobs::enqueue(&mut tx, &mail).await?;
    domain::infra::job_owners::record(&mut tx, &job_id, auth.partner_id).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(Created { id })))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateUser {
    pub is_active: Option<bool>,
    pub full_access: Option<bool>,
}

/// Settings tab: Plan Status (is_active) and Access Control (full_access).
#[utoipa::path(patch, path = "/partner/users/{id}", tag = "users", params(("id" = i64, Path)), request_body = UpdateUser,
    responses((status = 200, body = User), (status = 404, body = crate::error::ErrorBody)))]
pub async fn update(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Json(req): Json<UpdateUser>,
) -> ApiResult<Json<User>> {
    let mut tx = state.pool.begin().await?;
    let user = users::update_flags(
        &mut tx,
        auth.partner_id,
        id,
        req.is_active,
        req.full_access,
        auth.actor(),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(user))
}

/// Client details, Users: the client's users, newest first, 8 per page. An unknown client: 404.
#[utoipa::path(get, path = "/superadmin/clients/{id}/users", tag = "users", params(("id" = i64, Path), UsersQuery, PageParams),
    responses((status = 200, body = Page<User>), (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_list(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
    Query(q): Query<UsersQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<User>>> {
    let mut conn = state.pool.acquire().await?;
    // An empty page would read as 'this client has no users'; an unknown client is not that.
    domain::partners::clients::get(&mut conn, partner_id).await?;
    Ok(Json(
        users::list(
            &mut conn,
            partner_id,
            &users::Filter { search: q.q },
            paging.with_default(CLIENT_USERS_PER_PAGE),
        )
        .await?,
    ))
}

/// One of the client's users (the user's detail view). Another client's user: 404.
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}", tag = "users", params(("id" = i64, Path), ("user_id" = i64, Path)),
    responses((status = 200, body = User), (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_one(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
) -> ApiResult<Json<User>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(users::get(&mut conn, partner_id, user_id).await?))
}

/// The user's Settings tab as the super admin sees it: Plan Status and Access Control,
/// audited under the super admin.
#[utoipa::path(patch, path = "/superadmin/clients/{id}/users/{user_id}", tag = "users", params(("id" = i64, Path), ("user_id" = i64, Path)), request_body = UpdateUser,
    responses((status = 200, body = User), (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_update(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Json(req): Json<UpdateUser>,
) -> ApiResult<Json<User>> {
    let mut tx = state.pool.begin().await?;
    let user = users::update_flags(
        &mut tx,
        partner_id,
        user_id,
        req.is_active,
        req.full_access,
        auth.actor(),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(user))
}
