//! Top-up: how the user pays its partner (no payment is taken here: the partner credits the
//! wallet once paid).

use axum::extract::State;
use domain::portal::top_up;
use serde::Serialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, auth::UserAuth, error::ApiResult, extract::Json, links::signed_link};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(top_up))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct QrPayment {
    /// A signed link to the partner's QR image; `null` when it has none.
    pub image_url: Option<String>,
    /// The partner's description, else the default instruction.
    pub description: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CardProvider {
    pub name: String,
    pub description: Option<String>,
    pub logo_url: Option<String>,
    pub minimum_api_amount_paise: Option<i64>,
    pub currency: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TopUp {
    pub qr: QrPayment,
    /// The partner's card payment provider when it configured one (its name at least).
    pub card: Option<CardProvider>,
}

/// How to add money: the partner's QR code (a signed image link) and its description, or the
/// default instruction; and the card provider's name, description and logo when configured.
/// The provider's key id and secret are never part of it.
#[utoipa::path(get, path = "/me/top-up", tag = "portal", security(("bearer" = [])),
    responses((status = 200, body = TopUp), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn top_up(auth: UserAuth, State(state): State<AppState>) -> ApiResult<Json<TopUp>> {
    let s = top_up::settings(&mut *state.pool.acquire().await?, auth.partner_id).await?;
    let qr = QrPayment {
        image_url: signed_link(&state, s.qr_key.as_deref()).await,
        description: s
            .qr_description
            .unwrap_or_else(|| top_up::DEFAULT_QR_INSTRUCTION.to_owned()),
    };
    let card = match s.card_name {
        Some(name) => Some(CardProvider {
            name,
            description: s.card_description,
            logo_url: signed_link(&state, s.card_logo_key.as_deref()).await,
            minimum_api_amount_paise: s.minimum_api_amount_paise,
            currency: s.currency,
        }),
        None => None,
    };
    Ok(Json(TopUp { qr, card }))
}
