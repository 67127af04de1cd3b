//! The super admin's view of partners ("clients") and the global dashboard.

use axum::extract::State;
use domain::{
    infra::paging::{Page, PageParams},
    partners::clients::{self, Client, Dashboard},
};
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::SuperAdminAuth,
    error::{ApiError, ApiResult},
    extract::{Json, Path, Query},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(dashboard))
        .routes(routes!(list))
        .routes(routes!(one))
}

/// Total Users (partners), Total Transactions, Accessed products, Current credits.
#[utoipa::path(get, path = "/superadmin/dashboard", tag = "clients", responses((status = 200, body = Dashboard)))]
pub async fn dashboard(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<Dashboard>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(clients::dashboard(&mut conn).await?))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ClientsQuery {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub phone_number: Option<String>,
    /// Digits only.
    pub user_id: Option<String>,
}

/// Partners, newest first, 50 per page; the filters narrow the list.
#[utoipa::path(get, path = "/superadmin/clients", tag = "clients", params(ClientsQuery, PageParams), responses((status = 200, body = Page<Client>)))]
pub async fn list(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Query(q): Query<ClientsQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<Client>>> {
    let user_id = match q
        .user_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => None,
        Some(s) => Some(
            s.parse::<i64>()
                .map_err(|_| ApiError::field("user_id", "User ID contains only numeric values."))?,
        ),
    };
    let f = clients::Filter {
        first_name: q.first_name,
        last_name: q.last_name,
        email: q.email,
        phone_number: q.phone_number,
        user_id,
    };
    let mut conn = state.pool.acquire().await?;
    Ok(Json(
        clients::list(
            &mut conn,
            &f,
            paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE),
        )
        .await?,
    ))
}

/// One partner: the client-details header.
#[utoipa::path(get, path = "/superadmin/clients/{id}", tag = "clients", params(("id" = i64, Path)),
    responses((status = 200, body = Client), (status = 404, body = crate::error::ErrorBody)))]
pub async fn one(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<Client>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(clients::get(&mut conn, id).await?))
}
