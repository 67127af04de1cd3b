//! How a user adds money: the partner's QR code and its description (or the default
//! instruction), and the card provider's public face. The provider's key id and secret are never
//! read here, so they cannot leak into the portal.

use sqlx::PgConnection;

use crate::Result;

pub use crate::partners::payment_settings::DEFAULT_QR_INSTRUCTION;

/// The public columns of `partner_payment_settings`; storage keys, not links (the api signs them).
#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct TopUpSettings {
    pub qr_key: Option<String>,
    pub qr_description: Option<String>,
    pub card_name: Option<String>,
    pub card_description: Option<String>,
    pub card_logo_key: Option<String>,
    pub minimum_api_amount_paise: Option<i64>,
    pub currency: String,
}

/// The partner's settings, or none saved.
pub async fn settings(conn: &mut PgConnection, partner_id: i64) -> Result<TopUpSettings> {
    let row: Option<TopUpSettings> = sqlx::query_as(
        "SELECT NULLIF(qr_key, '') AS qr_key, NULLIF(btrim(qr_description), '') AS qr_description,
                NULLIF(btrim(name), '') AS card_name, NULLIF(btrim(description), '') AS card_description,
                NULLIF(logo_key, '') AS card_logo_key, minimum_api_amount_paise, currency
           FROM partner_payment_settings WHERE partner_id = $1",
    )
    .bind(partner_id)
    .fetch_optional(conn)
    .await?;
    Ok(row.unwrap_or_else(|| TopUpSettings {
        currency: "INR".into(),
        ..Default::default()
    }))
}
