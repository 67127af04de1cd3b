//! CSV exports (partner or super admin): request one, list one's own, read one with fresh
//! download links. The rows are written by the `export_csv` job; pages poll the export.

use axum::{extract::State, http::StatusCode};
use chrono::{DateTime, NaiveDate, Utc};
use domain::{
    exports::{self, Export, Kind, NewExport, Requester, Scope, Side, View},
    infra::paging::{Page, PageParams},
    money::WalletKind,
    partners::tenancy,
    wallets::EntryType,
};
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::ExportAuth,
    error::{ApiError, ApiResult},
    extract::{Json, Path, Query},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(request_export, list_exports))
        .routes(routes!(get_export))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ExportRequest {
    /// api_transactions, product_transactions, api_logs, product_logs or wallet_entries.
    pub kind: Option<String>,
    /// One user's rows; without it, all the partner's users (wallet entries: the partner's own
    /// wallets).
    pub user_id: Option<i64>,
    /// Super admin only: one partner's rows; without it (and without `user_id`), every partner's.
    pub partner_id: Option<i64>,
    /// First day, `YYYY-MM-DD` (IST), at most today.
    pub from: Option<String>,
    /// Last day (inclusive), `YYYY-MM-DD` (IST), at most tomorrow.
    pub to: Option<String>,
    /// Transactions: whose side of the money, `user` (default: what the users paid, their
    /// balances) or `partner` (what the partner paid, its balance; My Transactions). An end
    /// user's export is always its own side.
    pub side: Option<Side>,
    /// One user's transactions as its wallet's ledger (User Detail: manual credits, debits and
    /// refunds are rows of their own) rather than its calls and purchases alone. Defaults to
    /// true when a partner or the super admin names a `user_id`; an end user's are its calls.
    pub ledger: Option<bool>,
    /// The screen's filter panel: a part of the user's e-mail.
    pub email: Option<String>,
    /// A part of the PID.
    pub pid: Option<String>,
    /// A part of the service (a product's name, or a product log's description).
    pub services: Option<String>,
    /// API logs: only calls answered with this HTTP status (100 to 599), as the logs' Status
    /// Code filter.
    pub status_code: Option<i64>,
    /// Wallet entries: `api` or `product` (the Wallet filter); both when left out.
    pub wallet: Option<String>,
    /// Wallet entries: `credit` or `debit` (the Type filter); both when left out.
    #[serde(rename = "type")]
    pub entry_type: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ExportQueued {
    pub export_id: i64,
    pub job_id: String,
}

/// An export and, once completed, a signed download link per part (valid for
/// `EXPORT_LINK_TTL_SECS`; each read signs fresh ones).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ExportView {
    pub id: i64,
    pub kind: String,
    pub created_at: DateTime<Utc>,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub user_id: Option<i64>,
    pub partner_id: Option<i64>,
    /// queued | running | completed | failed
    pub status: String,
    /// The row count once completed; `null` before.
    pub total_records: Option<i64>,
    /// Rows written so far (progress while running).
    pub rows_written: i64,
    pub urls: Vec<String>,
    pub job_id: Option<String>,
    pub completed_at: Option<DateTime<Utc>>,
    /// Why a failed export failed.
    pub error: Option<String>,
    /// `user` or `partner`: whose side of the money.
    pub side: String,
    /// One user's wallet ledger rather than its calls.
    pub ledger: bool,
    pub email: Option<String>,
    pub pid: Option<String>,
    pub services: Option<String>,
    pub status_code: Option<i32>,
    /// `api` or `product`.
    pub wallet: Option<String>,
    /// `credit` or `debit`.
    #[serde(rename = "type")]
    pub entry_type: Option<String>,
}

fn requester(auth: &ExportAuth) -> Requester {
    match *auth {
        ExportAuth::Partner(id) => Requester::Partner(id),
        ExportAuth::SuperAdmin(id) => Requester::SuperAdmin(id),
        ExportAuth::User { user_id, .. } => Requester::User(user_id),
    }
}

async fn view(state: &AppState, e: Export) -> ApiResult<ExportView> {
    let urls = if e.status == "completed" {
        exports::links(&state.storage, &e.file_keys, state.config.exports.link_ttl).await?
    } else {
        Vec::new()
    };
    Ok(ExportView {
        id: e.id,
        kind: e.kind,
        created_at: e.created_at,
        from: e.from_date,
        to: e.to_date,
        user_id: e.user_id,
        partner_id: e.partner_id,
        status: e.status,
        total_records: e.total_records,
        rows_written: e.rows_written,
        urls,
        job_id: e.job_id,
        completed_at: e.completed_at,
        error: e.error,
        side: e.side,
        ledger: e.ledger,
        email: e.email,
        pid: e.pid,
        services: e.services,
        status_code: e.status_code,
        wallet: e.wallet,
        entry_type: e.entry_type,
    })
}

/// The filters beside the text ones, each a 422 on its own field when it is not one of its
/// values; blank is left out, as the lists leave it.
fn screen_filters(
    req: &ExportRequest,
) -> ApiResult<(Option<i32>, Option<WalletKind>, Option<EntryType>)> {
    let blank = |s: &Option<String>| {
        s.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_ascii_lowercase)
    };
    let status_code = match req.status_code {
        None => None,
        Some(c) if (100..=599).contains(&c) => Some(c as i32),
        Some(_) => {
            return Err(ApiError::field(
                "status_code",
                "Status code is a number from 100 to 599.",
            ));
        }
    };
    let wallet = match blank(&req.wallet).as_deref() {
        None => None,
        Some("api") => Some(WalletKind::Api),
        Some("product") => Some(WalletKind::Product),
        Some(_) => return Err(ApiError::field("wallet", "Wallet must be api or product")),
    };
    let entry_type = blank(&req.entry_type)
        .map(|t| EntryType::parse(&t))
        .transpose()?;
    Ok((status_code, wallet, entry_type))
}

/// Whose rows the request names. A partner's come from its session: another partner's user is
/// 404. The super admin may name a partner, a user (of that partner), or neither. An end user's
/// are its own, whatever it names.
async fn scope(
    conn: &mut domain::PgConnection,
    auth: &ExportAuth,
    req: &ExportRequest,
) -> ApiResult<Scope> {
    match *auth {
        ExportAuth::User {
            partner_id,
            user_id,
        } => {
            if req.partner_id.is_some_and(|p| p != partner_id)
                || req.user_id.is_some_and(|u| u != user_id)
            {
                return Err(ApiError::not_found());
            }
            Ok(Scope::User {
                partner_id,
                user_id,
            })
        }
        ExportAuth::Partner(partner_id) => {
            if req.partner_id.is_some_and(|p| p != partner_id) {
                return Err(ApiError::field(
                    "partner_id",
                    "Only the super admin chooses a partner",
                ));
            }
            match req.user_id {
                Some(user_id) => {
                    tenancy::user_of_partner(conn, partner_id, user_id).await?;
                    Ok(Scope::User {
                        partner_id,
                        user_id,
                    })
                }
                None => Ok(Scope::Partner(partner_id)),
            }
        }
        ExportAuth::SuperAdmin(_) => match (req.partner_id, req.user_id) {
            (_, Some(user_id)) => {
                let partner_id = tenancy::partner_of_user(conn, user_id).await?;
                if req.partner_id.is_some_and(|p| p != partner_id) {
                    return Err(ApiError::not_found());
                }
                Ok(Scope::User {
                    partner_id,
                    user_id,
                })
            }
            (Some(p), None) => {
                tenancy::partner_exists(conn, p).await?;
                Ok(Scope::Partner(p))
            }
            (None, None) => Ok(Scope::AllPartners),
        },
    }
}

/// Requests a CSV export (partner, super admin, or an end user for its own transactions and
/// logs). The row and its `export_csv` job are committed together; poll
/// `GET /exports/{export_id}` (or `/jobs/{job_id}`) until it is completed. Dates are IST days:
/// From at most today, To at most tomorrow, From not after To (422 otherwise).
#[utoipa::path(post, path = "/exports", tag = "exports", request_body = ExportRequest,
    responses((status = 202, body = ExportQueued), (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn request_export(
    auth: ExportAuth,
    State(state): State<AppState>,
    Json(req): Json<ExportRequest>,
) -> ApiResult<(StatusCode, Json<ExportQueued>)> {
    let kind = req.kind.as_deref().map(str::trim).filter(|k| !k.is_empty());
    let kind = match kind {
        None => return Err(ApiError::field("kind", "Choose what to export")),
        Some(k) => Kind::parse(k).ok_or_else(|| {
            ApiError::field("kind", "Unknown export kind: api_transactions, product_transactions, api_logs, product_logs or wallet_entries")
        })?,
    };
    if matches!(auth, ExportAuth::User { .. })
        && !matches!(
            kind,
            Kind::ApiTransactions | Kind::ApiLogs | Kind::ProductTransactions | Kind::ProductLogs
        )
    {
        return Err(ApiError::field(
            "kind",
            "An end user exports its transactions and logs",
        ));
    }
    let (from, to) = exports::check_dates(
        req.from.as_deref(),
        req.to.as_deref(),
        exports::today_ist(Utc::now()),
    )?;
    let text = |s: &Option<String>| {
        s.as_deref()
            .map(|s| s.trim().chars().take(200).collect::<String>())
            .filter(|s| !s.is_empty())
    };
    let is_user = matches!(auth, ExportAuth::User { .. });
    let (status_code, wallet, entry_type) = screen_filters(&req)?;
    let view = View {
        ledger: !is_user && req.ledger.unwrap_or(req.user_id.is_some()),
        side: if is_user {
            Side::User
        } else {
            req.side.unwrap_or_default()
        },
        email: text(&req.email),
        pid: text(&req.pid),
        services: text(&req.services),
        status_code,
        wallet,
        entry_type,
    };
    let mut tx = state.pool.begin().await?;
    let scope = scope(&mut tx, &auth, &req).await?;
    let export_id = exports::create(
        &mut tx,
        &NewExport {
            requester: requester(&auth),
            kind,
            scope,
            from,
            to,
            view,
        },
    )
    .await?;
    let job_id = jobs::enqueue(&mut tx, &jobs::ExportCsv { export_id }).await?;
    exports::set_job(&mut tx, export_id, &job_id).await?;
    if let ExportAuth::Partner(partner_id) = auth {
        // The partner may poll this job, and only it.
        domain::infra::job_owners::record(&mut tx, &job_id, partner_id).await?;
    }
    tx.commit().await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(ExportQueued { export_id, job_id }),
    ))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportsQuery {
    /// Only exports of this kind.
    pub kind: Option<Kind>,
    /// Only exports of this user's rows.
    pub user_id: Option<i64>,
}

/// The caller's own exports, newest first, 50 per page; `kind` and `user_id` narrow them.
#[utoipa::path(get, path = "/exports", tag = "exports", params(ExportsQuery, PageParams),
    responses((status = 200, body = Page<ExportView>), (status = 401, body = crate::error::ErrorBody)))]
pub async fn list_exports(
    auth: ExportAuth,
    State(state): State<AppState>,
    Query(q): Query<ExportsQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<ExportView>>> {
    let mut conn = state.pool.acquire().await?;
    let filter = exports::ListFilter {
        kind: q.kind,
        user_id: q.user_id,
    };
    let page = exports::list(
        &mut conn,
        requester(&auth),
        filter,
        paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE),
    )
    .await?;
    drop(conn);
    let mut items = Vec::with_capacity(page.items.len());
    for e in page.items.iter().cloned() {
        items.push(view(&state, e).await?);
    }
    Ok(Json(Page {
        items,
        page: page.page,
        per_page: page.per_page,
        total: page.total,
        pages: page.pages,
    }))
}

/// One of the caller's exports, with fresh links once completed. Anyone else's: 404.
#[utoipa::path(get, path = "/exports/{id}", tag = "exports", params(("id" = i64, Path)),
    responses((status = 200, body = ExportView), (status = 404, body = crate::error::ErrorBody)))]
pub async fn get_export(
    auth: ExportAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<ExportView>> {
    let mut conn = state.pool.acquire().await?;
    let e = exports::find(&mut conn, requester(&auth), id).await?;
    drop(conn);
    Ok(Json(view(&state, e).await?))
}
