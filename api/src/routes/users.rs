//! A partner's end users (User Accounts, User Detail, Add User Manually, Settings) and the
//! partner dashboard tiles. The partner id always comes from the session; the super admin's
//! client-details Users tab reads and sets the same users under the client's id.

use axum::{extract::State, http::StatusCode};
use domain::{
    infra::paging::{Page, PageParams},
    mail::{Mail, SendMail},
    partners::users::{self, Details, NewUser, User},
};
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{PartnerAuth, SuperAdminAuth},
    error::{ApiError, ApiResult},
    extract::{Json, Path, Query},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(dashboard))
        .routes(routes!(list, create))
        .routes(routes!(one, update))
        .routes(routes!(send_password_reset))
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
    /// Matches a part of the name, e-mail or phone, or the whole user id; at most 100
    /// characters.
    pub q: Option<String>,
}

impl UsersQuery {
    fn parse(self) -> ApiResult<users::Filter> {
        let search = self
            .q
            .map(|q| q.trim().to_owned())
            .filter(|q| !q.is_empty());
        if let Some(q) = &search {
            if q.chars().count() > 100 {
                return Err(ApiError::field(
                    "q",
                    "Search text must be at most 100 characters",
                ));
            }
            if !domain::infra::text::is_plain_text(q) {
                return Err(ApiError::field(
                    "q",
                    "Search text contains invalid characters",
                ));
            }
        }
        Ok(users::Filter { search })
    }
}

/// The partner's users, newest first.
#[utoipa::path(get, path = "/partner/users", tag = "users", params(UsersQuery, PageParams), responses((status = 200, body = Page<User>)))]
pub async fn list(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Query(q): Query<UsersQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<User>>> {
    let filter = q.parse()?;
    let mut conn = state.pool.acquire().await?;
    let page = paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE);
    Ok(Json(
        users::list(&mut conn, auth.partner_id, &filter, page).await?,
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

/// The Settings tab's two choices; also what the super admin sets on a client's user.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UserFlags {
    pub is_active: Option<bool>,
    pub full_access: Option<bool>,
}

/// The partner's change of a user: the Settings tab's choices (also Activate and Deactivate
/// on User Accounts), and the Edit form's fields, those of Add User Manually.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateUser {
    pub is_active: Option<bool>,
    pub full_access: Option<bool>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub phone_number: Option<String>,
}

/// Changes the fields given: Plan Status (`is_active`: an inactive user's keys and portal
/// sign-in are refused), Access Control (`full_access`), and name, e-mail and phone, each
/// checked as Add User Manually checks it (422 naming the field). An e-mail another user of
/// the partner has: 409 on `email`. Another partner's user: 404.
#[utoipa::path(patch, path = "/partner/users/{id}", tag = "users", params(("id" = i64, Path)), request_body = UpdateUser,
    responses((status = 200, body = User), (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn update(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Json(req): Json<UpdateUser>,
) -> ApiResult<Json<User>> {
    let details = Details::parse(
        req.first_name.as_deref(),
        req.last_name.as_deref(),
        req.email.as_deref(),
        req.phone_number.as_deref(),
    )?;
    let flags = req.is_active.is_some() || req.full_access.is_some();
    let mut tx = state.pool.begin().await?;
    let mut user = None;
    // An edit of the fields alone writes no Settings row to the audit log.
    if flags || details.is_empty() {
        user = Some(
            users::update_flags(
                &mut tx,
                auth.partner_id,
                id,
                req.is_active,
                req.full_access,
                auth.actor(),
            )
            .await?,
        );
    }
    if !details.is_empty() {
        user = Some(
            users::update_details(&mut tx, auth.partner_id, id, &details, auth.actor()).await?,
        );
    }
    tx.commit().await?;
    let user = user.expect("one of the two ran");
    Ok(Json(user))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ResetQueued {
    pub job_id: String,
    pub message: String,
}

/// Mails the user the portal's password-reset link (1 hour, one use), through the partner's
/// own mail server when it set one up. 409 when the user is inactive or the partner's site is
/// not live; 429 within a minute of the last one; another partner's user: 404.
#[utoipa::path(post, path = "/partner/users/{id}/password-reset", tag = "users", params(("id" = i64, Path)),
    responses((status = 202, body = ResetQueued), (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
              (status = 429, body = crate::error::ErrorBody)))]
pub async fn send_password_reset(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<(StatusCode, Json<ResetQueued>)> {
    let mut tx = state.pool.begin().await?;
    let user = users::password_reset_requested(&mut tx, auth.partner_id, id, auth.actor()).await?;
    // The job finds the user by e-mail and mints the token when it sends, as for the portal's
    // own Forgot password: the queue holds no link.
    let mail = SendMail::of(Mail::UserPasswordReset {
        partner_id: auth.partner_id,
        email: user.email.clone(),
    })
    .via_partner(auth.partner_id);
    let job_id = jobs::enqueue(&mut tx, &mail).await?;
    domain::infra::job_owners::record(&mut tx, &job_id, auth.partner_id).await?;
    tx.commit().await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(ResetQueued {
            job_id,
            message: format!("A password reset link is being sent to {}", user.email),
        }),
    ))
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
    let filter = q.parse()?;
    let mut conn = state.pool.acquire().await?;
    // An empty page would read as 'this client has no users'; an unknown client is not that.
    domain::partners::clients::get(&mut conn, partner_id).await?;
    Ok(Json(
        users::list(
            &mut conn,
            partner_id,
            &filter,
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
#[utoipa::path(patch, path = "/superadmin/clients/{id}/users/{user_id}", tag = "users", params(("id" = i64, Path), ("user_id" = i64, Path)), request_body = UserFlags,
    responses((status = 200, body = User), (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_update(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Json(req): Json<UserFlags>,
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
