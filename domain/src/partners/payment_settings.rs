//! My Account's Payment tab: how a partner's end users pay it. A card payment provider (its
//! key id and secret, name, description, logo, minimum amounts, theme colour, currency) and a
//! QR code with a description. The key id and secret are sealed with AES-256-GCM
//! (`ENCRYPTION_KEY`) before they reach the database and are shown to people only masked; the
//! end users' top-up page (`portal::top_up`) reads the public columns of the same row.

use serde::Serialize;
use sqlx::PgConnection;

use crate::{
    Error, Result,
    error::Violations,
    infra::audit::{self, Actor},
    infra::crypto::{self, SecretBox},
    infra::storage,
    infra::text::is_plain_text,
};

/// Shown when the partner has not set a QR description (spec part 2: pay including GST and
/// share a screenshot).
pub const DEFAULT_QR_INSTRUCTION: &str = "Scan the QR code to pay the amount you want to add, including GST, and share a screenshot of the payment with us. Your wallet is credited once the payment is confirmed.";

/// What a GET shows instead of the key secret: a fixed mask, so not even its length leaks.
pub const SECRET_MASK: &str = "********";
pub const SECRET_AGAIN: &str = "Enter the key secret again to change the key id";
/// The spec fixes the currency (part 2 §9).
pub const CURRENCY: &str = "INR";
/// Largest minimum amount accepted: ₹1,00,00,000.
pub const MAX_MINIMUM_PAISE: i64 = 1_000_000_000;

/// The card provider as the modal sends it, checked. `None` keys keep the stored ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardForm {
    pub key_id: Option<String>,
    pub key_secret: Option<String>,
    pub name: String,
    pub description: String,
    pub logo_key: String,
    pub minimum_api_amount_paise: i64,
    pub minimum_product_amount_paise: i64,
    pub theme_color: String,
    pub currency: String,
}

fn is_key_text(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_graphic())
}

/// A key of this partner's own upload of `purpose` (another partner's file, or any other object
/// in the bucket, must not become this partner's logo or QR code).
fn check_own_key(v: &mut Violations, partner_id: i64, field: &str, key: &str, purpose: &str) {
    if key.is_empty() {
        v.add(field, "Please select a file");
    } else if !key.starts_with(&format!("partners/{partner_id}/{purpose}/"))
        || storage::check_key(key).is_err()
    {
        v.add(field, "Invalid file key: upload the file first");
    }
}

fn check_amount(v: &mut Violations, field: &str, label: &str, paise: Option<i64>) -> i64 {
    match paise {
        None => v.add(field, format!("{label} is required")),
        Some(p) if p < 0 => v.add(field, format!("{label} cannot be negative")),
        Some(p) if p > MAX_MINIMUM_PAISE => {
            v.add(field, format!("{label} must be at most ₹1,00,00,000"))
        }
        Some(p) => return p,
    }
    0
}

impl CardForm {
    /// Every field required (spec part 2 §5), except that empty keys keep the stored ones
    /// ([`save_card`] decides whether that is allowed).
    #[allow(clippy::too_many_arguments)]
    pub fn parse(
        partner_id: i64,
        key_id: &str,
        key_secret: &str,
        name: &str,
        description: &str,
        logo_key: &str,
        minimum_api_amount_paise: Option<i64>,
        minimum_product_amount_paise: Option<i64>,
        theme_color: &str,
        currency: &str,
    ) -> Result<Self> {
        let (key_id, name, description, logo_key, theme_color, currency) = (
            key_id.trim(),
            name.trim(),
            description.trim(),
            logo_key.trim(),
            theme_color.trim(),
            currency.trim(),
        );
        let mut v = Violations::new();
        // A masked value sent back unchanged means 'keep'; anything else with a '*' is a typo.
        let key_id = (!key_id.is_empty() && !key_id.contains('*')).then_some(key_id);
        let key_secret =
            (!key_secret.is_empty() && key_secret != SECRET_MASK).then_some(key_secret);
        if let Some(k) = key_id {
            v.check(
                k.len() <= 100 && is_key_text(k),
                "key_id",
                "Key id must be at most 100 letters, digits or symbols, without spaces",
            );
        }
        if let Some(s) = key_secret {
            v.check(
                s.len() <= 200 && is_key_text(s),
                "key_secret",
                "Key secret must be at most 200 letters, digits or symbols, without spaces",
            );
        }
        v.check(!name.is_empty(), "name", "Name is required");
        v.check(
            name.chars().count() <= 100,
            "name",
            "Name must be at most 100 characters",
        );
        v.check(
            is_plain_text(name) && !name.contains('\n'),
            "name",
            "Name contains invalid characters",
        );
        v.check(
            !description.is_empty(),
            "description",
            "Description is required",
        );
        v.check(
            description.chars().count() <= 500,
            "description",
            "Description must be at most 500 characters",
        );
        v.check(
            is_plain_text(description),
            "description",
            "Description contains invalid characters",
        );
        check_own_key(&mut v, partner_id, "logo_key", logo_key, "logo");
        let api_min = check_amount(
            &mut v,
            "minimum_api_amount_paise",
            "Minimum API amount",
            minimum_api_amount_paise,
        );
        let product_min = check_amount(
            &mut v,
            "minimum_product_amount_paise",
            "Minimum product amount",
            minimum_product_amount_paise,
        );
        v.check(
            crate::partners::branding::is_hex_colour(theme_color),
            "theme_color",
            "Theme colour must be a hex colour like #6091E2",
        );
        if currency.is_empty() {
            v.add("currency", "Currency is required");
        } else {
            v.check(
                currency.eq_ignore_ascii_case(CURRENCY),
                "currency",
                "Currency must be INR",
            );
        }
        v.into_result()?;
        Ok(Self {
            key_id: key_id.map(str::to_owned),
            key_secret: key_secret.map(str::to_owned),
            name: name.into(),
            description: description.into(),
            logo_key: logo_key.into(),
            minimum_api_amount_paise: api_min,
            minimum_product_amount_paise: product_min,
            theme_color: theme_color.to_ascii_uppercase(),
            currency: CURRENCY.into(),
        })
    }
}

/// The QR code and its description, checked. An empty description shows the default
/// instruction to the end users.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrForm {
    pub qr_key: String,
    pub description: Option<String>,
}

impl QrForm {
    pub fn parse(partner_id: i64, qr_key: &str, description: &str) -> Result<Self> {
        let (qr_key, description) = (qr_key.trim(), description.trim());
        let mut v = Violations::new();
        check_own_key(&mut v, partner_id, "qr_key", qr_key, "qr");
        v.check(
            description.chars().count() <= 1000,
            "description",
            "Description must be at most 1,000 characters",
        );
        v.check(
            is_plain_text(description),
            "description",
            "Description contains invalid characters",
        );
        v.into_result()?;
        Ok(Self {
            qr_key: qr_key.into(),
            description: (!description.is_empty()).then(|| description.to_owned()),
        })
    }
}

/// The card provider as people see it: the key id and secret masked, never in clear.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct CardView {
    /// False until the partner saved a provider; the other fields are then empty.
    pub configured: bool,
    /// The key id's last 4 characters, the rest as `*`.
    pub key_id: String,
    /// [`SECRET_MASK`] when one is stored, empty otherwise.
    pub key_secret: String,
    pub name: String,
    pub description: String,
    pub logo_key: Option<String>,
    pub minimum_api_amount_paise: Option<i64>,
    pub minimum_product_amount_paise: Option<i64>,
    pub theme_color: String,
    pub currency: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct QrView {
    pub qr_key: Option<String>,
    /// The partner's own description; empty when it wrote none.
    pub description: String,
    /// What the end users read when there is no description of the partner's own.
    pub default_description: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct PaymentSettings {
    pub card: CardView,
    pub qr: QrView,
}

#[derive(sqlx::FromRow)]
struct Row {
    key_id_enc: Option<Vec<u8>>,
    key_secret_enc: Option<Vec<u8>>,
    name: Option<String>,
    description: Option<String>,
    logo_key: Option<String>,
    minimum_api_amount_paise: Option<i64>,
    minimum_product_amount_paise: Option<i64>,
    theme_color: Option<String>,
    currency: String,
    qr_key: Option<String>,
    qr_description: Option<String>,
}

async fn row(conn: &mut PgConnection, partner_id: i64) -> Result<Option<Row>> {
    Ok(sqlx::query_as(
        "SELECT key_id_enc, key_secret_enc, name, description, logo_key, minimum_api_amount_paise, minimum_product_amount_paise,
                theme_color, currency, qr_key, qr_description
           FROM partner_payment_settings WHERE partner_id = $1",
    )
    .bind(partner_id)
    .fetch_optional(conn)
    .await?)
}

/// The key id as a person may see it. A key that no longer opens (the encryption key was
/// rotated) shows as the bare mask: the partner enters it again.
fn masked_key_id(secrets: &SecretBox, sealed: Option<&[u8]>) -> String {
    match sealed.map(|s| secrets.open(s)) {
        None => String::new(),
        Some(Ok(k)) => crypto::mask(&k),
        Some(Err(e)) => {
            tracing::warn!(error = %e, "a payment key id does not open");
            SECRET_MASK.into()
        }
    }
}

pub async fn view(
    conn: &mut PgConnection,
    secrets: &SecretBox,
    partner_id: i64,
) -> Result<PaymentSettings> {
    let r = row(conn, partner_id).await?;
    let qr = QrView {
        qr_key: r.as_ref().and_then(|r| r.qr_key.clone()),
        description: r
            .as_ref()
            .and_then(|r| r.qr_description.clone())
            .unwrap_or_default(),
        default_description: DEFAULT_QR_INSTRUCTION.into(),
    };
    let card = match r.filter(|r| r.name.is_some()) {
        None => CardView {
            configured: false,
            key_id: String::new(),
            key_secret: String::new(),
            name: String::new(),
            description: String::new(),
            logo_key: None,
            minimum_api_amount_paise: None,
            minimum_product_amount_paise: None,
            theme_color: String::new(),
            currency: CURRENCY.into(),
        },
        Some(r) => CardView {
            configured: true,
            key_id: masked_key_id(secrets, r.key_id_enc.as_deref()),
            key_secret: if r.key_secret_enc.is_some() {
                SECRET_MASK.into()
            } else {
                String::new()
            },
            name: r.name.unwrap_or_default(),
            description: r.description.unwrap_or_default(),
            logo_key: r.logo_key,
            minimum_api_amount_paise: r.minimum_api_amount_paise,
            minimum_product_amount_paise: r.minimum_product_amount_paise,
            theme_color: r.theme_color.unwrap_or_default(),
            currency: r.currency,
        },
    };
    Ok(PaymentSettings { card, qr })
}

/// Saves the card provider. Empty keys keep the stored ones, but a new key id needs its secret
/// again (a secret belongs to its key id); with none stored both are required.
#[tracing::instrument(skip_all, fields(partner_id))]
pub async fn save_card(
    conn: &mut PgConnection,
    secrets: &SecretBox,
    partner_id: i64,
    form: &CardForm,
    actor: Actor,
) -> Result<PaymentSettings> {
    let stored = row(conn, partner_id).await?;
    let (stored_id, stored_secret) = stored.as_ref().map_or((None, None), |r| {
        (r.key_id_enc.clone(), r.key_secret_enc.clone())
    });
    let mut v = Violations::new();
    let key_id_enc = match (&form.key_id, stored_id) {
        (Some(k), _) => Some(secrets.seal(k)),
        (None, Some(s)) => Some(s),
        (None, None) => {
            v.add("key_id", "Key id is required");
            None
        }
    };
    let key_secret_enc = match (&form.key_secret, stored_secret) {
        (Some(s), _) => Some(secrets.seal(s)),
        (None, Some(_)) if form.key_id.is_some() => {
            v.add("key_secret", SECRET_AGAIN);
            None
        }
        (None, Some(s)) => Some(s),
        (None, None) => {
            v.add("key_secret", "Key secret is required");
            None
        }
    };
    v.into_result()?;
    sqlx::query(
        "INSERT INTO partner_payment_settings (partner_id, key_id_enc, key_secret_enc, name, description, logo_key,
                minimum_api_amount_paise, minimum_product_amount_paise, theme_color, currency)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (partner_id) DO UPDATE SET key_id_enc = $2, key_secret_enc = $3, name = $4, description = $5, logo_key = $6,
                minimum_api_amount_paise = $7, minimum_product_amount_paise = $8, theme_color = $9, currency = $10, updated_at = now()",
    )
    .bind(partner_id)
    .bind(key_id_enc)
    .bind(key_secret_enc)
    .bind(&form.name)
    .bind(&form.description)
    .bind(&form.logo_key)
    .bind(form.minimum_api_amount_paise)
    .bind(form.minimum_product_amount_paise)
    .bind(&form.theme_color)
    .bind(&form.currency)
    .execute(&mut *conn)
    .await?;
    // The audit row names what changed, never a key.
    let public = serde_json::json!({
        "name": form.name, "description": form.description, "logo_key": form.logo_key,
        "minimum_api_amount_paise": form.minimum_api_amount_paise, "minimum_product_amount_paise": form.minimum_product_amount_paise,
        "theme_color": form.theme_color, "currency": form.currency,
        "key_id_changed": form.key_id.is_some(), "key_secret_changed": form.key_secret.is_some(),
    });
    record(conn, partner_id, "payment_card", public, actor).await?;
    view(conn, secrets, partner_id).await
}

/// Saves the QR code and its description.
pub async fn save_qr(
    conn: &mut PgConnection,
    secrets: &SecretBox,
    partner_id: i64,
    form: &QrForm,
    actor: Actor,
) -> Result<PaymentSettings> {
    sqlx::query(
        "INSERT INTO partner_payment_settings (partner_id, qr_key, qr_description) VALUES ($1, $2, $3)
         ON CONFLICT (partner_id) DO UPDATE SET qr_key = $2, qr_description = $3, updated_at = now()",
    )
    .bind(partner_id)
    .bind(&form.qr_key)
    .bind(&form.description)
    .execute(&mut *conn)
    .await?;
    record(
        conn,
        partner_id,
        "payment_qr",
        serde_json::json!({"qr_key": form.qr_key, "description": form.description}),
        actor,
    )
    .await?;
    view(conn, secrets, partner_id).await
}

async fn record(
    conn: &mut PgConnection,
    partner_id: i64,
    entity: &'static str,
    after: serde_json::Value,
    actor: Actor,
) -> Result<()> {
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "update",
            entity,
            entity_id: partner_id.to_string(),
            partner_id: Some(partner_id),
            before: None,
            after: Some(after),
        },
    )
    .await?;
    Ok(())
}

/// The provider's key id and secret in clear, for the code that talks to the provider; never
/// for a response. `NotFound` when none are saved.
pub async fn card_keys(
    conn: &mut PgConnection,
    secrets: &SecretBox,
    partner_id: i64,
) -> Result<(String, String)> {
    let r = row(conn, partner_id).await?.ok_or(Error::NotFound)?;
    let (Some(id), Some(secret)) = (r.key_id_enc, r.key_secret_enc) else {
        return Err(Error::NotFound);
    };
    let open = |s: &[u8]| secrets.open(s).map_err(Error::Other);
    Ok((open(&id)?, open(&secret)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(key_id: &str, secret: &str, api: Option<i64>) -> Result<CardForm> {
        CardForm::parse(
            7,
            key_id,
            secret,
            " Razorpay ",
            "Cards and UPI",
            "partners/7/logo/ABCDE_card.png",
            api,
            Some(0),
            "#aa11ff",
            "inr",
        )
    }

    #[test]
    fn card_rules() {
        let c = card("rzp_live_1234", "s3cr3t", Some(50_000)).unwrap();
        assert_eq!(
            (
                c.key_id.as_deref(),
                c.name.as_str(),
                c.theme_color.as_str(),
                c.currency.as_str()
            ),
            (Some("rzp_live_1234"), "Razorpay", "#AA11FF", "INR")
        );
        // The masks sent back mean 'keep'.
        let kept = card("*********1234", SECRET_MASK, Some(1)).unwrap();
        assert_eq!((kept.key_id, kept.key_secret), (None, None));
        let Err(Error::Invalid { fields, .. }) = CardForm::parse(
            7,
            "has space",
            "x\u{1}",
            "",
            "",
            "partners/8/logo/ABCDE_x.png",
            None,
            Some(-1),
            "red",
            "USD",
        ) else {
            panic!()
        };
        assert_eq!(
            fields.keys().collect::<Vec<_>>(),
            [
                "currency",
                "description",
                "key_id",
                "key_secret",
                "logo_key",
                "minimum_api_amount_paise",
                "minimum_product_amount_paise",
                "name",
                "theme_color"
            ]
        );
        assert!(matches!(
            card("k", "s", Some(MAX_MINIMUM_PAISE + 1)),
            Err(Error::Invalid { .. })
        ));
    }

    #[test]
    fn qr_rules() {
        assert_eq!(
            QrForm::parse(7, "partners/7/qr/ABCDE_qr.png", "  ")
                .unwrap()
                .description,
            None
        );
        let Err(Error::Invalid { fields, .. }) =
            QrForm::parse(7, "partners/7/logo/ABCDE_qr.png", &"d".repeat(1001))
        else {
            panic!()
        };
        assert_eq!(fields.keys().collect::<Vec<_>>(), ["description", "qr_key"]);
        let Err(Error::Invalid { fields, .. }) = QrForm::parse(7, "", "") else {
            panic!()
        };
        assert_eq!(fields["qr_key"], "Please select a file");
    }
}
