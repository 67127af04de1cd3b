//! Transaction lists: an end user's wallet ledgers (User Detail, API Transactions and Product
//! Transactions), its calls and purchases, and every user's of the partner (User
//! Transactions, My Transactions).

use axum::extract::State;
use domain::{
    infra::paging::{Page, PageParams},
    partners::tenancy,
    wallets::WalletKind,
    wallets::transactions::{self, Filter, Kind, LedgerRow, Transaction},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{PartnerAuth, SuperAdminAuth},
    error::ApiResult,
    extract::{Json, Path, Query},
    filters::{PartnerListQuery, TransactionsQuery},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(api_transactions))
        .routes(routes!(product_transactions))
        .routes(routes!(client_user_api_transactions))
        .routes(routes!(client_user_product_transactions))
        .routes(routes!(user_ledger))
        .routes(routes!(client_user_ledger))
        .routes(routes!(partner_api_transactions))
        .routes(routes!(partner_product_transactions))
}

async fn ledger(
    state: &AppState,
    partner_id: i64,
    user_id: i64,
    kind: &str,
    q: TransactionsQuery,
    paging: PageParams,
) -> ApiResult<Json<Page<LedgerRow>>> {
    let kind = WalletKind::parse(kind)?;
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, partner_id, user_id).await?;
    let page = paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE);
    Ok(Json(
        transactions::ledger(
            &mut conn,
            partner_id,
            user_id,
            kind,
            &Filter {
                from: q.from,
                to: q.to,
            },
            page,
        )
        .await?,
    ))
}

/// One user's API or product wallet ledger, newest first, 50 per page: manual credits and
/// debits, each call's debit and a failed call's refund, with the balance after each and the
/// call's status. Another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/wallets/{kind}/ledger", tag = "transactions",
    params(("id" = i64, Path), ("kind" = String, Path, description = "api or product"), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<LedgerRow>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn user_ledger(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path((user_id, kind)): Path<(i64, String)>,
    Query(q): Query<TransactionsQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<LedgerRow>>> {
    ledger(&state, auth.partner_id, user_id, &kind, q, paging).await
}

/// A client's user's wallet ledger (super admin, client details, Users).
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/wallets/{kind}/ledger", tag = "transactions",
    params(("id" = i64, Path), ("user_id" = i64, Path), ("kind" = String, Path, description = "api or product"), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<LedgerRow>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_ledger(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id, kind)): Path<(i64, i64, String)>,
    Query(q): Query<TransactionsQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<LedgerRow>>> {
    ledger(&state, partner_id, user_id, &kind, q, paging).await
}

async fn partner_list(
    state: &AppState,
    kind: Kind,
    partner_id: i64,
    q: PartnerListQuery,
    paging: PageParams,
) -> ApiResult<Json<Page<Transaction>>> {
    let f = q.parse()?;
    let mut conn = state.pool.acquire().await?;
    let page = paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE);
    Ok(Json(
        transactions::for_partner(&mut conn, kind, partner_id, &f, page).await?,
    ))
}

/// Every user's API calls of the signed-in partner, newest first, 50 per page, with the filter
/// panel (User ID, Email, PID, Services, Date). Each row carries both sides of the money: the
/// user's (`user_amount_paise`, `remaining_paise`) and the partner's (`amount_paise`,
/// `partner_remaining_paise`).
#[utoipa::path(get, path = "/partner/api-transactions", tag = "transactions", params(PartnerListQuery, PageParams),
    responses((status = 200, body = Page<Transaction>), (status = 422, body = crate::error::ErrorBody)))]
pub async fn partner_api_transactions(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Query(q): Query<PartnerListQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<Transaction>>> {
    partner_list(&state, Kind::Api, auth.partner_id, q, paging).await
}

/// Every user's product purchases of the signed-in partner, newest first, 50 per page, with
/// the filter panel.
#[utoipa::path(get, path = "/partner/product-transactions", tag = "transactions", params(PartnerListQuery, PageParams),
    responses((status = 200, body = Page<Transaction>), (status = 422, body = crate::error::ErrorBody)))]
pub async fn partner_product_transactions(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Query(q): Query<PartnerListQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<Transaction>>> {
    partner_list(&state, Kind::Product, auth.partner_id, q, paging).await
}

/// One user's transactions are its wallet's ledger (spec part 1, User Detail: "credit/debit
/// ledger"): a manual credit, a deduction and a refund are rows as much as a call's debit.
async fn list(
    state: &AppState,
    kind: WalletKind,
    partner_id: i64,
    user_id: i64,
    q: TransactionsQuery,
    paging: PageParams,
) -> ApiResult<Json<Page<LedgerRow>>> {
    ledger(state, partner_id, user_id, kind.as_str(), q, paging).await
}

/// One user's API wallet ledger, newest first, 50 per page: each call's debit, a failed
/// call's refund, manual credits and debits, with the balance after each (the same rows as
/// `…/wallets/api/ledger`). Another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/api-transactions", tag = "transactions", params(("id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<LedgerRow>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn api_transactions(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
    Query(q): Query<TransactionsQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<LedgerRow>>> {
    list(&state, WalletKind::Api, auth.partner_id, user_id, q, paging).await
}

/// One user's product wallet ledger, newest first, 50 per page: purchases, manual credits and
/// debits, with the balance after each. Another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/product-transactions", tag = "transactions", params(("id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<LedgerRow>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn product_transactions(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
    Query(q): Query<TransactionsQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<LedgerRow>>> {
    list(
        &state,
        WalletKind::Product,
        auth.partner_id,
        user_id,
        q,
        paging,
    )
    .await
}

/// A client's user's API wallet ledger (super admin, client details, Users).
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/api-transactions", tag = "transactions",
    params(("id" = i64, Path), ("user_id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<LedgerRow>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_api_transactions(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Query(q): Query<TransactionsQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<LedgerRow>>> {
    list(&state, WalletKind::Api, partner_id, user_id, q, paging).await
}

/// A client's user's product wallet ledger (super admin, client details, Users).
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/product-transactions", tag = "transactions",
    params(("id" = i64, Path), ("user_id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<LedgerRow>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_product_transactions(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Query(q): Query<TransactionsQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<LedgerRow>>> {
    list(&state, WalletKind::Product, partner_id, user_id, q, paging).await
}
