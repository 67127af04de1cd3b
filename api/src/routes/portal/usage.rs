//! The dashboard's figures: the last 30 days of one's calls and spend.

use axum::extract::State;
use domain::portal::usage::{self, Usage};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, auth::UserAuth, error::ApiResult, extract::Json};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(usage))
}

/// One's calls and spend over the last 30 IST days (today included): per day (every day, zeros
/// too), per API, in total, and the success rate over settled calls.
#[utoipa::path(get, path = "/me/usage", tag = "portal", security(("bearer" = [])),
    responses((status = 200, body = Usage), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn usage(auth: UserAuth, State(state): State<AppState>) -> ApiResult<Json<Usage>> {
    Ok(Json(
        usage::last_30_days(
            &mut *state.pool.acquire().await?,
            auth.partner_id,
            auth.user_id,
        )
        .await?,
    ))
}
