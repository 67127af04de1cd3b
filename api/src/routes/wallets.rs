//! Wallets: balances (top bar, Credits tabs), credits and debits by the super admin (partner
//! wallets) and by partners (their users' wallets), the wallet-transaction lists and the
//! partner's low-balance alert. The ledger itself is `domain::wallets`.

use axum::{extract::State, http::HeaderMap};
use chrono::NaiveDate;
use domain::{
    infra::audit::Actor,
    infra::paging::{Page, PageParams, PageRequest},
    partners::tenancy,
    wallets::{
        self, Balances, Entry, EntryFilter, EntryType, Movement, Owner, Reason, WalletKind,
        WalletView,
    },
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
        .routes(routes!(partner_wallets))
        .routes(routes!(partner_entries))
        .routes(routes!(set_alert))
        .routes(routes!(user_wallets))
        .routes(routes!(user_entries))
        .routes(routes!(user_entry))
        .routes(routes!(client_wallets))
        .routes(routes!(client_entries))
        .routes(routes!(client_entry))
        .routes(routes!(all_partner_entries))
        .routes(routes!(client_user_wallets))
        .routes(routes!(client_user_entries))
        .routes(routes!(client_user_entry))
}

/// A credit or a debit. `amount_paise` is a positive whole number of paise, a JSON integer
/// (`domain::money::Paise`: a string, even of digits, or a float such as `1000.0`, is refused).
/// `idempotency_key` (or the `Idempotency-Key` header; both given, they must be equal, else
/// 422): the same key with the same request returns the first entry and moves nothing; with
/// another request, 409.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct EntryRequest {
    /// `credit` or `debit`.
    #[serde(rename = "type", default)]
    #[schema(rename = "type", value_type = String, example = "credit")]
    pub entry_type: Option<String>,
    #[serde(default)]
    #[schema(value_type = i64, example = 50000)]
    pub amount_paise: domain::money::Paise,
    #[serde(default)]
    pub idempotency_key: Option<String>,
    /// A note kept on the ledger entry (at most 200 characters).
    #[serde(default)]
    pub reference: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct EntryCreated {
    pub entry_id: i64,
    /// The wallet's balance after the entry.
    pub balance_paise: i64,
    /// True when the idempotency key matched an earlier identical request: nothing moved.
    pub replayed: bool,
}

struct ParsedEntry {
    entry_type: EntryType,
    amount_paise: i64,
    idempotency_key: Option<String>,
    reference: Option<String>,
}

impl EntryRequest {
    fn parse(self, headers: &HeaderMap) -> ApiResult<ParsedEntry> {
        let mut v = domain::error::Violations::new();
        let entry_type = match EntryType::parse(self.entry_type.as_deref().unwrap_or("")) {
            Ok(t) => Some(t),
            Err(domain::Error::Invalid { message, .. }) => {
                v.add("type", message);
                None
            }
            Err(e) => return Err(e.into()),
        };
        let amount_paise = match self.amount_paise.amount() {
            Ok(a) => Some(a),
            Err(m) => {
                v.add("amount_paise", m);
                None
            }
        };
        let header_key = headers
            .get("idempotency-key")
            .and_then(|h| h.to_str().ok())
            .map(str::to_owned);
        let trimmed = |k: Option<String>| k.map(|k| k.trim().to_owned()).filter(|k| !k.is_empty());
        let (body_key, header_key) = (trimmed(self.idempotency_key), trimmed(header_key));
        // Two different keys name two different requests: neither may silently win.
        if let (Some(b), Some(h)) = (&body_key, &header_key)
            && b != h
        {
            v.add(
                "idempotency_key",
                "The idempotency key in the body differs from the Idempotency-Key header",
            );
        }
        let idempotency_key = body_key.or(header_key);
        if idempotency_key.as_ref().is_some_and(|k| k.len() > 255) {
            v.add(
                "idempotency_key",
                "Idempotency key must be at most 255 characters",
            );
        }
        let reference = self
            .reference
            .map(|r| r.trim().to_owned())
            .filter(|r| !r.is_empty());
        if reference.as_ref().is_some_and(|r| r.chars().count() > 200) {
            v.add("reference", "Reference must be at most 200 characters");
        }
        v.into_result()?;
        Ok(ParsedEntry {
            entry_type: entry_type.expect("checked above"),
            amount_paise: amount_paise.expect("checked above"),
            idempotency_key,
            reference,
        })
    }
}

/// Credits or debits one wallet in one transaction (ledger entry, audit row and, when a debit
/// crosses the low-balance threshold, the alert mail).
async fn move_money(
    state: &AppState,
    owner: Owner,
    kind: WalletKind,
    req: ParsedEntry,
    actor: Actor,
) -> ApiResult<Json<EntryCreated>> {
    let mut tx = state.pool.begin().await?;
    if let Owner::User {
        partner_id,
        user_id,
    } = owner
    {
        tenancy::user_of_partner(&mut tx, partner_id, user_id).await?;
    } else if let Owner::Partner(p) = owner {
        tenancy::partner_exists(&mut tx, p).await?;
    }
    let wallet_id = wallets::wallet_id(&mut tx, owner, kind).await?;
    let moved = domain::wallets::apply(
        &mut tx,
        &Movement {
            wallet_id,
            entry_type: req.entry_type,
            amount_paise: req.amount_paise,
            reason: Reason::Manual,
            reference: req.reference.as_deref(),
            idempotency_key: req.idempotency_key.as_deref(),
            actor,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Json(EntryCreated {
        entry_id: moved.entry_id,
        balance_paise: moved.balance_paise,
        replayed: moved.replayed,
    }))
}

/// Filters of the wallet-transaction lists (newest first, 50 per page by default).
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EntriesQuery {
    /// `api` or `product`; both when left out.
    pub kind: Option<WalletKind>,
    /// `credit` or `debit`.
    #[serde(rename = "type")]
    #[param(rename = "type", value_type = Option<String>)]
    pub entry_type: Option<EntryType>,
    /// First day, `YYYY-MM-DD`.
    pub from: Option<NaiveDate>,
    /// Last day (inclusive), `YYYY-MM-DD`.
    pub to: Option<NaiveDate>,
    /// Super admin's global list only: one partner.
    pub user_id: Option<i64>,
}

impl EntriesQuery {
    fn split(&self, paging: PageParams) -> (EntryFilter, PageRequest) {
        (
            EntryFilter {
                kind: self.kind,
                entry_type: self.entry_type,
                from: self.from,
                to: self.to,
            },
            paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE),
        )
    }
}

fn kind_of(s: &str) -> ApiResult<WalletKind> {
    Ok(WalletKind::parse(s)?)
}

/// The signed-in partner's API and product wallets (the top bar).
#[utoipa::path(get, path = "/partner/wallets", tag = "wallets", security(("bearer" = [])),
    responses((status = 200, body = Balances), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn partner_wallets(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<Balances>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(
        wallets::balances(&mut conn, Owner::Partner(auth.partner_id)).await?,
    ))
}

/// The partner's own wallet transactions (My Transactions, Wallet transactions): date, type,
/// amount, balance.
#[utoipa::path(get, path = "/partner/wallet-entries", tag = "wallets", params(EntriesQuery, PageParams),
    responses((status = 200, body = Page<Entry>), (status = 401, body = crate::error::ErrorBody)))]
pub async fn partner_entries(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Query(q): Query<EntriesQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<Entry>>> {
    let (f, page) = q.split(paging);
    let mut conn = state.pool.acquire().await?;
    Ok(Json(
        wallets::entries(&mut conn, Owner::Partner(auth.partner_id), &f, page).await?,
    ))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct AlertRequest {
    /// Mail me when a debit takes this wallet below this many paise; `null` turns it off.
    pub threshold_paise: Option<i64>,
}

/// Sets the low-balance alert of one of the partner's own wallets. One mail goes out per
/// downward crossing (not per call); a credit back above the threshold re-arms it.
#[utoipa::path(put, path = "/partner/wallets/{kind}/alert", tag = "wallets",
    params(("kind" = String, Path, description = "api or product")), request_body = AlertRequest,
    responses((status = 200, body = WalletView), (status = 422, body = crate::error::ErrorBody)))]
pub async fn set_alert(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(kind): Path<String>,
    Json(req): Json<AlertRequest>,
) -> ApiResult<Json<WalletView>> {
    let kind = kind_of(&kind)?;
    let mut tx = state.pool.begin().await?;
    let view = wallets::set_alert_threshold(
        &mut tx,
        Owner::Partner(auth.partner_id),
        kind,
        req.threshold_paise,
        auth.actor(),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(view))
}

/// One end user's wallets (User Detail, Credits). Another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/wallets", tag = "wallets", params(("id" = i64, Path)),
    responses((status = 200, body = Balances), (status = 404, body = crate::error::ErrorBody)))]
pub async fn user_wallets(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Balances>> {
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, auth.partner_id, user_id).await?;
    Ok(Json(
        wallets::balances(
            &mut conn,
            Owner::User {
                partner_id: auth.partner_id,
                user_id,
            },
        )
        .await?,
    ))
}

/// One end user's wallet transactions, newest first.
#[utoipa::path(get, path = "/partner/users/{id}/wallet-entries", tag = "wallets", params(("id" = i64, Path), EntriesQuery, PageParams),
    responses((status = 200, body = Page<Entry>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn user_entries(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
    Query(q): Query<EntriesQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<Entry>>> {
    let (f, page) = q.split(paging);
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, auth.partner_id, user_id).await?;
    Ok(Json(
        wallets::entries(
            &mut conn,
            Owner::User {
                partner_id: auth.partner_id,
                user_id,
            },
            &f,
            page,
        )
        .await?,
    ))
}

/// Add Credits / Deduct Credits on an end user's wallet. 402 for a debit beyond the balance
/// (nothing is written); 404 for another partner's user (nothing moves).
#[utoipa::path(post, path = "/partner/users/{id}/wallets/{kind}/entries", tag = "wallets",
    params(("id" = i64, Path), ("kind" = String, Path, description = "api or product"),
           ("Idempotency-Key" = Option<String>, Header, description = "alternative to idempotency_key in the body")),
    request_body = EntryRequest,
    responses((status = 200, body = EntryCreated), (status = 402, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn user_entry(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path((user_id, kind)): Path<(i64, String)>,
    headers: HeaderMap,
    Json(req): Json<EntryRequest>,
) -> ApiResult<Json<EntryCreated>> {
    let kind = kind_of(&kind)?;
    let req = req.parse(&headers)?;
    move_money(
        &state,
        Owner::User {
            partner_id: auth.partner_id,
            user_id,
        },
        kind,
        req,
        auth.actor(),
    )
    .await
}

/// A client's (partner's) wallets (client details, Credits).
#[utoipa::path(get, path = "/superadmin/clients/{id}/wallets", tag = "wallets", params(("id" = i64, Path)),
    responses((status = 200, body = Balances), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_wallets(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
) -> ApiResult<Json<Balances>> {
    let mut conn = state.pool.acquire().await?;
    tenancy::partner_exists(&mut conn, partner_id).await?;
    Ok(Json(
        wallets::balances(&mut conn, Owner::Partner(partner_id)).await?,
    ))
}

/// A client's wallet transactions (client details, Wallet Transactions).
#[utoipa::path(get, path = "/superadmin/clients/{id}/wallet-entries", tag = "wallets", params(("id" = i64, Path), EntriesQuery, PageParams),
    responses((status = 200, body = Page<Entry>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_entries(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
    Query(q): Query<EntriesQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<Entry>>> {
    let (f, page) = q.split(paging);
    let mut conn = state.pool.acquire().await?;
    tenancy::partner_exists(&mut conn, partner_id).await?;
    Ok(Json(
        wallets::entries(&mut conn, Owner::Partner(partner_id), &f, page).await?,
    ))
}

/// Add or deduct credits on a client's API or product wallet.
#[utoipa::path(post, path = "/superadmin/clients/{id}/wallets/{kind}/entries", tag = "wallets",
    params(("id" = i64, Path), ("kind" = String, Path, description = "api or product"),
           ("Idempotency-Key" = Option<String>, Header, description = "alternative to idempotency_key in the body")),
    request_body = EntryRequest,
    responses((status = 200, body = EntryCreated), (status = 402, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn client_entry(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, kind)): Path<(i64, String)>,
    headers: HeaderMap,
    Json(req): Json<EntryRequest>,
) -> ApiResult<Json<EntryCreated>> {
    let kind = kind_of(&kind)?;
    let req = req.parse(&headers)?;
    move_money(&state, Owner::Partner(partner_id), kind, req, auth.actor()).await
}

/// Every partner wallet's transactions (super admin, Wallet Transactions): date, type, amount,
/// balance and user id (the partner's id). `user_id` narrows it to one partner.
#[utoipa::path(get, path = "/superadmin/wallet-transactions", tag = "wallets", params(EntriesQuery, PageParams),
    responses((status = 200, body = Page<Entry>), (status = 403, body = crate::error::ErrorBody)))]
pub async fn all_partner_entries(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Query(q): Query<EntriesQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<Entry>>> {
    let (f, page) = q.split(paging);
    let mut conn = state.pool.acquire().await?;
    Ok(Json(
        wallets::partner_entries(&mut conn, q.user_id, &f, page).await?,
    ))
}

/// A client's end user's wallets (client details, Users, View Details, Credits).
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/wallets", tag = "wallets",
    params(("id" = i64, Path), ("user_id" = i64, Path)),
    responses((status = 200, body = Balances), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_wallets(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
) -> ApiResult<Json<Balances>> {
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, partner_id, user_id).await?;
    Ok(Json(
        wallets::balances(
            &mut conn,
            Owner::User {
                partner_id,
                user_id,
            },
        )
        .await?,
    ))
}

/// A client's end user's wallet transactions.
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/wallet-entries", tag = "wallets",
    params(("id" = i64, Path), ("user_id" = i64, Path), EntriesQuery, PageParams),
    responses((status = 200, body = Page<Entry>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_entries(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Query(q): Query<EntriesQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<Entry>>> {
    let (f, page) = q.split(paging);
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, partner_id, user_id).await?;
    Ok(Json(
        wallets::entries(
            &mut conn,
            Owner::User {
                partner_id,
                user_id,
            },
            &f,
            page,
        )
        .await?,
    ))
}

/// The super admin acting for a client on one of its users' wallets (recorded as the super
/// admin's movement).
#[utoipa::path(post, path = "/superadmin/clients/{id}/users/{user_id}/wallets/{kind}/entries", tag = "wallets",
    params(("id" = i64, Path), ("user_id" = i64, Path), ("kind" = String, Path, description = "api or product"),
           ("Idempotency-Key" = Option<String>, Header, description = "alternative to idempotency_key in the body")),
    request_body = EntryRequest,
    responses((status = 200, body = EntryCreated), (status = 402, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn client_user_entry(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id, kind)): Path<(i64, i64, String)>,
    headers: HeaderMap,
    Json(req): Json<EntryRequest>,
) -> ApiResult<Json<EntryCreated>> {
    let kind = kind_of(&kind)?;
    let req = req.parse(&headers)?;
    move_money(
        &state,
        Owner::User {
            partner_id,
            user_id,
        },
        kind,
        req,
        auth.actor(),
    )
    .await
}
