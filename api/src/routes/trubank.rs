//! TruBank, the manual bank-statement verification (spec part 2 §2.6): the product API an end
//! user calls with its API key (`/products/bank-statements`), and the partner's queue
//! (`/partner/bank-statements`). The rules and the money are `domain::trubank`.

use std::collections::BTreeMap;

use axum::{
    extract::State,
    http::{HeaderMap, StatusCode},
};
use chrono::{DateTime, Utc};
use domain::{
    gateway::{self, Caller, hits::Hit},
    infra::paging::{Page, PageParams},
    infra::storage::{UPLOAD_LINK_TTL, UploadPlan},
    trubank::{self, Decision, Filter, Request, Status, Submission, Submitted},
};
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::PartnerAuth,
    client_ip::ClientIp,
    error::{ApiError, ApiResult},
    extract::{Json, Path, Query},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(upload_link))
        .routes(routes!(submit))
        .routes(routes!(status_of_request))
        .routes(routes!(queue))
        .routes(routes!(one))
        .routes(routes!(file))
        .routes(routes!(decide))
}

/// The API-key caller, through the gateway's own checks (key, active user and partner, IP
/// rules, the per-key rate limit; every call counts as an IP hit), then the product's: a
/// manual verification is real work, so it takes a live key and a full-access user.
async fn product_caller(
    state: &AppState,
    headers: &HeaderMap,
    ip: std::net::IpAddr,
) -> ApiResult<Caller> {
    let caller = {
        let mut conn = state.pool.acquire().await?;
        gateway::caller(&mut conn, crate::gateway::api_key(headers), ip).await?
    };
    state.gateway.count_hit(Hit {
        partner_id: caller.partner_id,
        user_id: caller.user_id,
        ip,
        at: Utc::now(),
    });
    gateway::admit(&caller)?;
    trubank::admit(&caller)?;
    if let Some(wait) = state.gateway.check_rate(caller.key_id).await.retry_after {
        return Err(ApiError::too_many_requests_after(wait));
    }
    Ok(caller)
}

async fn signed(state: &AppState, key: Option<&str>) -> ApiResult<Option<String>> {
    Ok(match key {
        Some(k) => Some(state.storage.presign_get(k, trubank::LINK_TTL).await?.url),
        None => None,
    })
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct StatementUploadRequest {
    #[serde(default)]
    #[schema(example = "statement.pdf")]
    pub file_name: String,
    #[serde(default)]
    #[schema(example = "application/pdf")]
    pub content_type: String,
    /// In bytes, at most 10 MB.
    #[serde(default)]
    #[schema(example = 482133)]
    pub size: u64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct StatementUpload {
    /// The `file_key` of the request.
    pub key: String,
    pub url: String,
    /// Always `PUT`.
    pub method: String,
    /// Send these headers with the PUT, exactly.
    pub headers: BTreeMap<String, String>,
    pub expires_at: DateTime<Utc>,
}

/// Signs an upload link (15 minutes, one use) for a bank statement: a PDF of at most 10 MB.
/// PUT the file to `url` with `headers`, then submit the request with `key` as `file_key`.
/// 413 too large, 422 not a PDF or no file.
#[utoipa::path(post, path = "/products/bank-statements/uploads", tag = "trubank", security(("api_key" = [])),
    request_body = StatementUploadRequest,
    responses((status = 200, body = StatementUpload), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
              (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn upload_link(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    Json(req): Json<StatementUploadRequest>,
) -> ApiResult<Json<StatementUpload>> {
    let caller = product_caller(&state, &headers, ip).await?;
    let new_plan = || {
        UploadPlan::user_statement(
            caller.partner_id,
            caller.user_id,
            &req.file_name,
            &req.content_type,
            req.size,
        )
    };
    let mut plan = new_plan()?;
    // One key per link: a key already used (the same random prefix and name) gets a new prefix.
    for _ in 0..5 {
        if !state.storage.exists(&plan.key).await? {
            break;
        }
        plan = new_plan()?;
    }
    if state.storage.exists(&plan.key).await? {
        return Err(ApiError::conflict("Please try the upload again"));
    }
    let link = state
        .storage
        .presign_put(&plan.key, &plan.content_type, plan.size, UPLOAD_LINK_TTL)
        .await?;
    Ok(Json(StatementUpload {
        key: plan.key,
        url: link.url,
        method: link.method.into(),
        headers: link.headers,
        expires_at: link.expires_at,
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct SubmitRequest {
    /// The `key` of the statement's upload.
    #[serde(default)]
    pub file_key: String,
    #[serde(default)]
    #[schema(example = "Asha Rao")]
    pub account_name: String,
    /// 6 to 20 digits.
    #[serde(default)]
    #[schema(example = "50100123459012")]
    pub account_number: String,
    #[serde(default)]
    #[schema(example = "HDFC Bank")]
    pub bank_name: String,
}

/// A request as its end user sees it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ProductRequest {
    pub request_id: String,
    pub status: Status,
    pub account_name: String,
    pub account_number: String,
    pub bank_name: String,
    /// The partner's comment with its decision.
    pub comment: Option<String>,
    /// A file the partner attached to its decision: a signed link, valid one hour.
    pub result_file_url: Option<String>,
    /// What the user's product wallet was charged.
    pub charged_paise: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub decided_at: Option<DateTime<Utc>>,
}

async fn product_request(state: &AppState, r: Request) -> ApiResult<ProductRequest> {
    Ok(ProductRequest {
        result_file_url: signed(state, r.result_file_key.as_deref()).await?,
        request_id: r.request_id,
        status: r.status,
        account_name: r.account_name,
        account_number: r.account_number,
        bank_name: r.bank_name,
        comment: r.comments,
        charged_paise: r.user_amount_paise,
        created_at: r.created_at,
        updated_at: r.updated_at,
        decided_at: r.decided_at,
    })
}

/// Submits a manual bank-statement verification: the uploaded statement (`file_key`) and the
/// account summary. Charges the user's product wallet at its price (and the partner's at the
/// partner's cost) with the request, in one transaction: 402 `insufficient_balance` when either
/// is short, and nothing is written. 201 with the new request; the same file submitted again
/// with the same summary answers 200 with the first request and charges nothing (409 with
/// another summary).
#[utoipa::path(post, path = "/products/bank-statements", tag = "trubank", security(("api_key" = [])), request_body = SubmitRequest,
    responses((status = 201, body = ProductRequest), (status = 200, body = ProductRequest, description = "a repeated submission"),
              (status = 401, body = crate::error::ErrorBody), (status = 402, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn submit(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    Json(req): Json<SubmitRequest>,
) -> ApiResult<(StatusCode, Json<ProductRequest>)> {
    let caller = product_caller(&state, &headers, ip).await?;
    let s = Submission::parse(
        caller.partner_id,
        caller.user_id,
        &req.account_name,
        &req.account_number,
        &req.bank_name,
        &req.file_key,
    )?;
    // A retry finds its request before the file is read again.
    let first = trubank::by_file(
        &mut *state.pool.acquire().await?,
        caller.partner_id,
        caller.user_id,
        &s.file_key,
    )
    .await?;
    let submitted = match first {
        Some(first) => trubank::replay_of(&s, first)?,
        None => {
            state
                .storage
                .verify_upload(
                    &s.file_key,
                    domain::infra::storage::UploadPurpose::Statement,
                    "file_key",
                )
                .await?;
            let mut tx = state.pool.begin().await?;
            let actor = domain::infra::audit::Actor::user(caller.user_id).from_ip(ip);
            let submitted =
                trubank::submit(&mut tx, caller.partner_id, caller.user_id, &s, actor).await?;
            tx.commit().await?;
            submitted
        }
    };
    let (status, r) = match submitted {
        Submitted::Created(r) => (StatusCode::CREATED, r),
        Submitted::Replayed(r) => (StatusCode::OK, r),
    };
    Ok((status, Json(product_request(&state, r).await?)))
}

/// One of the caller's own requests, by its `request_id`: its status, the partner's comment and
/// file. Another user's request is 404.
#[utoipa::path(get, path = "/products/bank-statements/{request_id}", tag = "trubank", security(("api_key" = [])),
    params(("request_id" = String, Path)),
    responses((status = 200, body = ProductRequest), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody)))]
pub async fn status_of_request(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    Path(request_id): Path<String>,
) -> ApiResult<Json<ProductRequest>> {
    let caller = product_caller(&state, &headers, ip).await?;
    let r = trubank::of_user(
        &mut *state.pool.acquire().await?,
        caller.partner_id,
        caller.user_id,
        request_id.trim(),
    )
    .await?;
    Ok(Json(product_request(&state, r).await?))
}

/// A request in the partner's queue.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct QueueItem {
    pub id: i64,
    pub request_id: String,
    pub user_id: i64,
    pub account_name: String,
    pub account_number: String,
    pub bank_name: String,
    pub status: Status,
    pub comment: Option<String>,
    /// The statement: a signed link, valid one hour (View statement).
    pub file_url: String,
    /// The file attached to the decision, if any: a signed link, valid one hour.
    pub result_file_url: Option<String>,
    /// What the partner's product wallet was charged.
    pub amount_paise: i64,
    /// What the user's product wallet was charged.
    pub user_amount_paise: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub decided_at: Option<DateTime<Utc>>,
}

async fn queue_item(state: &AppState, r: Request) -> ApiResult<QueueItem> {
    Ok(QueueItem {
        file_url: signed(state, Some(&r.file_key)).await?.unwrap_or_default(),
        result_file_url: signed(state, r.result_file_key.as_deref()).await?,
        id: r.id,
        request_id: r.request_id,
        user_id: r.user_id,
        account_name: r.account_name,
        account_number: r.account_number,
        bank_name: r.bank_name,
        status: r.status,
        comment: r.comments,
        amount_paise: r.amount_paise,
        user_amount_paise: r.user_amount_paise,
        created_at: r.created_at,
        updated_at: r.updated_at,
        decided_at: r.decided_at,
    })
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct QueueQuery {
    /// `pending`, `verified` or `not_verified`.
    pub status: Option<String>,
    /// Digits only.
    pub user_id: Option<String>,
}

impl QueueQuery {
    fn parse(&self) -> ApiResult<Filter> {
        let status = match self
            .status
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            None => None,
            Some(s) => Some(Status::parse(s).ok_or_else(|| {
                ApiError::field("status", "Status must be pending, verified or not_verified")
            })?),
        };
        let user_id = match self
            .user_id
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            None => None,
            Some(s) => Some(
                s.parse::<i64>()
                    .ok()
                    .filter(|_| s.bytes().all(|b| b.is_ascii_digit()))
                    .ok_or_else(|| {
                        ApiError::field("user_id", domain::gateway::ip_access::USER_ID_DIGITS)
                    })?,
            ),
        };
        Ok(Filter { status, user_id })
    }
}

/// The partner's bank-statement verification requests (TruBank), newest first, 50 a page,
/// optionally of one status or one user.
#[utoipa::path(get, path = "/partner/bank-statements", tag = "trubank", params(QueueQuery, PageParams),
    responses((status = 200, body = Page<QueueItem>), (status = 401, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn queue(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Query(q): Query<QueueQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<QueueItem>>> {
    let f = q.parse()?;
    let page = trubank::list(
        &mut *state.pool.acquire().await?,
        auth.partner_id,
        &f,
        paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE),
    )
    .await?;
    let mut items = Vec::with_capacity(page.items.len());
    for r in page.items.iter().cloned() {
        items.push(queue_item(&state, r).await?);
    }
    Ok(Json(Page {
        items,
        page: page.page,
        per_page: page.per_page,
        total: page.total,
        pages: page.pages,
    }))
}

/// One request of the partner's queue; another partner's is 404.
#[utoipa::path(get, path = "/partner/bank-statements/{id}", tag = "trubank", params(("id" = i64, Path)),
    responses((status = 200, body = QueueItem), (status = 404, body = crate::error::ErrorBody)))]
pub async fn one(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<QueueItem>> {
    let r = trubank::get(&mut *state.pool.acquire().await?, auth.partner_id, id).await?;
    Ok(Json(queue_item(&state, r).await?))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct FileLink {
    pub url: String,
    pub expires_at: DateTime<Utc>,
}

/// A fresh signed link to a request's statement (View statement), valid one hour; another
/// partner's request is 404.
#[utoipa::path(get, path = "/partner/bank-statements/{id}/file", tag = "trubank", params(("id" = i64, Path)),
    responses((status = 200, body = FileLink), (status = 404, body = crate::error::ErrorBody)))]
pub async fn file(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<FileLink>> {
    let r = trubank::get(&mut *state.pool.acquire().await?, auth.partner_id, id).await?;
    let link = state
        .storage
        .presign_get(&r.file_key, trubank::LINK_TTL)
        .await?;
    Ok(Json(FileLink {
        url: link.url,
        expires_at: link.expires_at,
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct DecisionRequest {
    /// `verified` or `not_verified` (the labels 'Verified' and 'Not verified' are read too).
    #[serde(default)]
    #[schema(example = "verified")]
    pub status: String,
    /// Optional, at most 1000 characters.
    #[serde(default)]
    pub comment: Option<String>,
    /// Optional: the `key` of a PDF uploaded with `POST /uploads` (purpose `statement`).
    #[serde(default)]
    pub file_key: Option<String>,
}

/// Change Status: Verified or Not verified, with an optional file and comment. The user is
/// mailed (a `send_mail` job queued with the change). 404 for another partner's request.
#[utoipa::path(put, path = "/partner/bank-statements/{id}/status", tag = "trubank", params(("id" = i64, Path)), request_body = DecisionRequest,
    responses((status = 200, body = QueueItem), (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn decide(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Json(req): Json<DecisionRequest>,
) -> ApiResult<Json<QueueItem>> {
    let d = Decision::parse(
        auth.partner_id,
        &req.status,
        req.comment.as_deref(),
        req.file_key.as_deref(),
    )?;
    // The request first: another partner's id is a 404 before anything of its own is read.
    trubank::get(&mut *state.pool.acquire().await?, auth.partner_id, id).await?;
    if let Some(key) = &d.file_key {
        state
            .storage
            .verify_upload(
                key,
                domain::infra::storage::UploadPurpose::Statement,
                "file_key",
            )
            .await?;
    }
    let mut tx = state.pool.begin().await?;
    let r = trubank::decide(&mut tx, auth.partner_id, id, &d, auth.actor()).await?;
    tx.commit().await?;
    Ok(Json(queue_item(&state, r).await?))
}
