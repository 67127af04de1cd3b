//! Price lists: the plan slabs (super admin, Plans), a client's plan and customised prices
//! (client details: Plan Details, API Pricing, Settings/Change Plan), and the partner's
//! read-only My Plan. Lists of more than one price are applied by the `bulk_update_prices` job.

use axum::{
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use domain::{
    catalogue::plans::{
        self, ClientPlan, CustomPrice, MyPlan, PlanType, PriceItem, SlabPrice, Target,
    },
    infra::audit::Actor,
    infra::paging::{Page, PageParams},
    partners::tenancy,
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
        .routes(routes!(add_service))
        .routes(routes!(slab_prices, set_slab_prices))
        .routes(routes!(client_plan, change_plan))
        .routes(routes!(custom_prices, set_custom_prices))
        .routes(routes!(delete_custom_price))
        .routes(routes!(my_plan))
}

fn plan_of(s: &str) -> ApiResult<PlanType> {
    // Only the four slabs exist as paths.
    PlanType::parse(s)
        .filter(|p| p.as_str() == s)
        .ok_or_else(ApiError::not_found)
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PricesQuery {
    /// One category (case-insensitive); `all` or empty for every one.
    pub category: Option<String>,
}

/// A price list to set. One item is applied at once (200); more run the
/// `bulk_update_prices` job, all in one transaction (202 with the job id).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct PriceListRequest {
    pub prices: Vec<PriceItem>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Applied {
    /// How many prices changed (an unchanged price is not rewritten).
    pub changed: usize,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Queued {
    pub job_id: String,
}

/// Validates the list now (so mistakes answer 422 at once), then applies one price directly or
/// queues the rest in the same transaction as nothing else: the job does the writing.
async fn set_prices(
    state: &AppState,
    target: Target,
    items: Vec<PriceItem>,
    actor: Actor,
) -> ApiResult<Response> {
    let mut tx = state.pool.begin().await?;
    if let Target::Partner(p) = target {
        tenancy::partner_exists(&mut tx, p).await?;
    }
    plans::validate_items(&mut tx, &items).await?;
    if items.len() == 1 {
        let changed = plans::apply_prices(&mut tx, target, &items, actor).await?;
        tx.commit().await?;
        return Ok(Json(Applied { changed }).into_response());
    }
    let job_id = jobs::enqueue(&mut tx, &jobs::BulkUpdatePrices::new(target, items, actor)).await?;
    tx.commit().await?;
    Ok((StatusCode::ACCEPTED, Json(Queued { job_id })).into_response())
}

/// A slab's price list (Plans tabs: default, standard, premium, pro), 50 per page.
#[utoipa::path(get, path = "/superadmin/plans/{plan}/prices", tag = "plans",
    params(("plan" = String, Path, description = "default, standard, premium or pro"), PricesQuery, PageParams),
    responses((status = 200, body = Page<SlabPrice>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn slab_prices(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(plan): Path<String>,
    Query(q): Query<PricesQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<SlabPrice>>> {
    let plan = plan_of(&plan)?;
    let mut conn = state.pool.acquire().await?;
    let page = paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE);
    Ok(Json(
        plans::slab_prices(&mut conn, plan, q.category.as_deref(), page).await?,
    ))
}

/// Sets prices of a slab: `{prices:[{service, price_paise}]}`. One price: 200 `{changed}`;
/// more: 202 `{job_id}` (the `bulk_update_prices` job applies them all or none).
#[utoipa::path(put, path = "/superadmin/plans/{plan}/prices", tag = "plans",
    params(("plan" = String, Path, description = "default, standard, premium or pro")), request_body = PriceListRequest,
    responses((status = 200, body = Applied), (status = 202, body = Queued), (status = 404, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn set_slab_prices(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(plan): Path<String>,
    Json(req): Json<PriceListRequest>,
) -> ApiResult<Response> {
    let plan = plan_of(&plan)?;
    set_prices(&state, Target::Plan(plan), req.prices, auth.actor()).await
}

/// Add New Service (Plans): one service's price on one slab.
// Each field defaults on its own, not the struct: a struct-level default would put the missing
// price's `null` into the schema as the default of an integer (an invalid document).
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct AddServiceRequest {
    /// default, standard, premium or pro.
    #[serde(default, alias = "type", alias = "plan")]
    pub plan_type: Option<String>,
    #[serde(default, alias = "service_name")]
    pub service: Option<String>,
    /// A whole number of paise, a JSON integer (`price` is an alias).
    #[serde(default, alias = "price")]
    #[schema(value_type = i64)]
    pub price_paise: domain::money::Paise,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SlabPriceSet {
    pub plan: PlanType,
    pub service: String,
    pub price_paise: i64,
}

#[utoipa::path(post, path = "/superadmin/plans/prices", tag = "plans", request_body = AddServiceRequest,
    responses((status = 201, body = SlabPriceSet), (status = 422, body = crate::error::ErrorBody,
        description = "'Plan Type is required', 'Service Name is required', 'Price is required', 'Price cannot be negative', 'Price must be a number'")))]
pub async fn add_service(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Json(req): Json<AddServiceRequest>,
) -> ApiResult<(StatusCode, Json<SlabPriceSet>)> {
    let mut v = domain::error::Violations::new();
    let plan_text = req.plan_type.as_deref().unwrap_or("").trim();
    let plan = PlanType::parse(plan_text);
    if plan_text.is_empty() {
        v.add("plan_type", "Plan Type is required");
    } else if plan.is_none() {
        v.add(
            "plan_type",
            "Plan Type must be one of default, standard, premium, pro",
        );
    }
    let service = req.service.as_deref().unwrap_or("").trim().to_owned();
    if service.is_empty() {
        v.add("service", "Service Name is required");
    }
    let price = req
        .price_paise
        .price()
        .map_err(|m| v.add("price_paise", m))
        .ok();
    v.into_result()?;
    let (plan, price) = (plan.expect("checked"), price.expect("checked"));
    let mut tx = state.pool.begin().await?;
    if domain::catalogue::id_of_service(&mut tx, &service)
        .await?
        .is_none()
    {
        return Err(ApiError::field(
            "service",
            format!("Unknown service: {service}"),
        ));
    }
    let items = [PriceItem {
        service: service.clone(),
        price_paise: price.into(),
        status: None,
    }];
    plans::apply_prices(&mut tx, Target::Plan(plan), &items, auth.actor()).await?;
    tx.commit().await?;
    Ok((
        StatusCode::CREATED,
        Json(SlabPriceSet {
            plan,
            service,
            price_paise: price,
        }),
    ))
}

/// A client's plan (Plan Details): its slab and every API with the price the client pays and
/// where it comes from (custom, plan or default).
#[utoipa::path(get, path = "/superadmin/clients/{id}/plan", tag = "plans", params(("id" = i64, Path)),
    responses((status = 200, body = ClientPlan), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_plan(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
) -> ApiResult<Json<ClientPlan>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(plans::client_plan(&mut conn, partner_id).await?))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ChangePlanRequest {
    pub plan: PlanType,
}

/// Change Plan (client details, Settings).
#[utoipa::path(put, path = "/superadmin/clients/{id}/plan", tag = "plans", params(("id" = i64, Path)), request_body = ChangePlanRequest,
    responses((status = 200, body = ClientPlan), (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn change_plan(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
    Json(req): Json<ChangePlanRequest>,
) -> ApiResult<Json<ClientPlan>> {
    let mut tx = state.pool.begin().await?;
    plans::change_plan(&mut tx, partner_id, req.plan, auth.actor()).await?;
    let plan = plans::client_plan(&mut tx, partner_id).await?;
    tx.commit().await?;
    Ok(Json(plan))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CustomPriceList {
    #[serde(flatten)]
    pub page: Page<CustomPrice>,
    /// The distinct lower-cased categories of the client's entries, for the filter.
    pub categories: Vec<String>,
}

/// A client's customised prices (API Pricing), 10 per page, filtered by category.
#[utoipa::path(get, path = "/superadmin/clients/{id}/prices", tag = "plans", params(("id" = i64, Path), PricesQuery, PageParams),
    responses((status = 200, body = CustomPriceList), (status = 404, body = crate::error::ErrorBody)))]
pub async fn custom_prices(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
    Query(q): Query<PricesQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<CustomPriceList>> {
    let mut conn = state.pool.acquire().await?;
    let page = plans::custom_prices(
        &mut conn,
        partner_id,
        q.category.as_deref(),
        paging.with_default(10),
    )
    .await?;
    let categories = plans::custom_price_categories(&mut conn, partner_id).await?;
    Ok(Json(CustomPriceList { page, categories }))
}

/// Adds or edits a client's customised prices: `{prices:[{service, price_paise, status?}]}`.
/// One price: 200 `{changed}`; more: 202 `{job_id}`.
#[utoipa::path(put, path = "/superadmin/clients/{id}/prices", tag = "plans", params(("id" = i64, Path)), request_body = PriceListRequest,
    responses((status = 200, body = Applied), (status = 202, body = Queued), (status = 404, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn set_custom_prices(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
    Json(req): Json<PriceListRequest>,
) -> ApiResult<Response> {
    set_prices(
        &state,
        Target::Partner(partner_id),
        req.prices,
        auth.actor(),
    )
    .await
}

/// Deletes one customised price: the client pays its slab's price again.
#[utoipa::path(delete, path = "/superadmin/clients/{id}/prices/{service}", tag = "plans",
    params(("id" = i64, Path), ("service" = String, Path)),
    responses((status = 204), (status = 404, body = crate::error::ErrorBody)))]
pub async fn delete_custom_price(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, service)): Path<(i64, String)>,
) -> ApiResult<StatusCode> {
    let mut tx = state.pool.begin().await?;
    plans::delete_custom_price(&mut tx, partner_id, &service, auth.actor()).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The signed-in partner's plan (My Plan), read-only: `{plan, updated_at, items:[{category,
/// name, pid, price_paise}]}`, or `{plan: null}` when no plan is selected yet.
#[utoipa::path(get, path = "/partner/plan", tag = "plans", responses((status = 200, body = MyPlan), (status = 401, body = crate::error::ErrorBody)))]
pub async fn my_plan(auth: PartnerAuth, State(state): State<AppState>) -> ApiResult<Json<MyPlan>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(plans::my_plan(&mut conn, auth.partner_id).await?))
}
