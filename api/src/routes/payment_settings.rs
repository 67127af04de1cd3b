//! My Account's Payment tab (`domain::partners::payment_settings`): the card payment provider, edited in
//! a modal, its key id and secret sealed at rest and answered only masked; and the QR code with
//! its description. Files are this partner's own uploads (`POST /uploads`), checked by their
//! first bytes before they are saved.

use axum::extract::State;
use domain::{
    infra::crypto::SecretBox,
    infra::storage::UploadPurpose,
    partners::payment_settings::{self, CardForm, CardView, PaymentSettings, QrForm, QrView},
};
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, auth::PartnerAuth, error::ApiResult, extract::Json, links::signed_link};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get))
        .routes(routes!(put_card))
        .routes(routes!(put_qr))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Card {
    #[serde(flatten)]
    pub card: CardView,
    /// A signed link to the provider's logo.
    pub logo_url: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Qr {
    #[serde(flatten)]
    pub qr: QrView,
    /// A signed link to the QR image; `null` when none is set.
    pub image_url: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PaymentSettingsView {
    pub card: Card,
    pub qr: Qr,
}

async fn with_links(state: &AppState, s: PaymentSettings) -> PaymentSettingsView {
    let logo_url = signed_link(state, s.card.logo_key.as_deref()).await;
    let image_url = signed_link(state, s.qr.qr_key.as_deref()).await;
    PaymentSettingsView {
        card: Card {
            card: s.card,
            logo_url,
        },
        qr: Qr {
            qr: s.qr,
            image_url,
        },
    }
}

/// The partner's payment settings: the card provider (key id and secret masked, never in
/// clear; `configured: false` until saved) and the QR code with its description and the
/// default instruction the end users read when there is no description.
#[utoipa::path(get, path = "/partner/payment-settings", tag = "account",
    responses((status = 200, body = PaymentSettingsView), (status = 401, body = crate::error::ErrorBody)))]
pub async fn get(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<PaymentSettingsView>> {
    let secrets = SecretBox::new(&state.config.encryption_key);
    let s = payment_settings::view(&mut *state.pool.acquire().await?, &secrets, auth.partner_id)
        .await?;
    Ok(Json(with_links(&state, s).await))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct CardRequest {
    /// Empty (or the mask as shown) keeps the stored key id.
    #[serde(default)]
    pub key_id: String,
    /// Empty (or the mask as shown) keeps the stored secret; a new key id needs it again.
    #[serde(default)]
    pub key_secret: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// A key from `POST /api/v1/uploads` with purpose `logo`.
    #[serde(default)]
    pub logo_key: String,
    #[serde(default)]
    pub minimum_api_amount_paise: Option<i64>,
    #[serde(default)]
    pub minimum_product_amount_paise: Option<i64>,
    /// `#RRGGBB`.
    #[serde(default)]
    pub theme_color: String,
    /// `INR`, the one currency.
    #[serde(default)]
    pub currency: String,
}

/// Saves the card payment provider, every field required (the keys only when none are
/// stored); the key id and secret are sealed with AES-256-GCM and answered masked.
#[utoipa::path(put, path = "/partner/payment-settings/card", tag = "account", request_body = CardRequest,
    responses((status = 200, body = PaymentSettingsView), (status = 422, body = crate::error::ErrorBody)))]
pub async fn put_card(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<CardRequest>,
) -> ApiResult<Json<PaymentSettingsView>> {
    let form = CardForm::parse(
        auth.partner_id,
        &req.key_id,
        &req.key_secret,
        &req.name,
        &req.description,
        &req.logo_key,
        req.minimum_api_amount_paise,
        req.minimum_product_amount_paise,
        &req.theme_color,
        &req.currency,
    )?;
    // The stored bytes, not the declared type, decide: a page or a script is removed here.
    state
        .storage
        .verify_upload(&form.logo_key, UploadPurpose::Logo, "logo_key")
        .await?;
    let secrets = SecretBox::new(&state.config.encryption_key);
    let mut tx = state.pool.begin().await?;
    let s = payment_settings::save_card(&mut tx, &secrets, auth.partner_id, &form, auth.actor())
        .await?;
    tx.commit().await?;
    Ok(Json(with_links(&state, s).await))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct QrRequest {
    /// A key from `POST /api/v1/uploads` with purpose `qr` (png, jpg or jpeg under 1 MB).
    #[serde(default)]
    pub qr_key: String,
    /// Empty shows the default instruction to the end users.
    #[serde(default)]
    pub description: String,
}

/// Saves the QR code and its description.
#[utoipa::path(put, path = "/partner/payment-settings/qr", tag = "account", request_body = QrRequest,
    responses((status = 200, body = PaymentSettingsView), (status = 422, body = crate::error::ErrorBody)))]
pub async fn put_qr(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<QrRequest>,
) -> ApiResult<Json<PaymentSettingsView>> {
    let form = QrForm::parse(auth.partner_id, &req.qr_key, &req.description)?;
    state
        .storage
        .verify_upload(&form.qr_key, UploadPurpose::Qr, "qr_key")
        .await?;
    let secrets = SecretBox::new(&state.config.encryption_key);
    let mut tx = state.pool.begin().await?;
    let s =
        payment_settings::save_qr(&mut tx, &secrets, auth.partner_id, &form, auth.actor()).await?;
    tx.commit().await?;
    Ok(Json(with_links(&state, s).await))
}
