//! The partner dashboard's earnings (`domain::wallets::earnings`): revenue, cost and margin of a period,
//! per day and per API, read from counters kept by the writers.

use axum::extract::State;
use domain::wallets::earnings::{self, Earnings, Period};
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::PartnerAuth,
    error::ApiResult,
    extract::{Json, Query},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EarningsQuery {
    /// First UTC day, `YYYY-MM-DD`; default 29 days before `to`.
    pub from: Option<String>,
    /// Last UTC day (inclusive), `YYYY-MM-DD`; default today, or 29 days after `from`.
    pub to: Option<String>,
}

/// What the partner earned over a period of at most 366 UTC days (default the last 30):
/// revenue (what its users paid for successful API calls), cost (what the partner paid for
/// them) and margin, in total, per day and per API. Refunded calls earn nothing.
#[utoipa::path(get, path = "/partner/earnings", tag = "dashboard", params(EarningsQuery),
    responses((status = 200, body = Earnings), (status = 401, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn get(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Query(q): Query<EarningsQuery>,
) -> ApiResult<Json<Earnings>> {
    let period = Period::parse(
        q.from.as_deref(),
        q.to.as_deref(),
        domain::infra::ist::today(),
    )?;
    Ok(Json(
        earnings::of_partner(&mut *state.pool.acquire().await?, auth.partner_id, period).await?,
    ))
}
