//! Public, unauthenticated: the plan cards of the landing page (`domain::catalogue::plan_cards`).

use domain::catalogue::plan_cards::{self, PlanCard};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, extract::Json};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(plans))
}

/// The three plan cards (Standard, Premium, Pro): prices per month in paise, billed monthly or
/// yearly, and their features.
#[utoipa::path(get, path = "/public/plans", tag = "public", responses((status = 200, body = [PlanCard])))]
pub async fn plans() -> Json<Vec<PlanCard>> {
    Json(plan_cards::cards())
}
