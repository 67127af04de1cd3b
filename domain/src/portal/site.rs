//! A partner site as its end users see it before signing in: branding, the landing page
//! switch, contact details, the Signup Customization switches and texts, and the APIs on offer
//! at the price a user without a price of its own pays.

use serde::Serialize;
use sqlx::PgConnection;

use crate::{Result, catalogue::pricing};

/// The partner's Signup Customization. A partner that never saved it has the table's defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct SignupSettings {
    /// Self sign-up of end users (`POST /me/signup`).
    pub create_account: bool,
    /// Forgot password for end users.
    pub forgot_password: bool,
    /// Whether the terms are shown (and must be accepted) on sign-up.
    pub terms: bool,
    /// The terms, as the partner's rich-text editor saved them (HTML).
    pub terms_html: String,
    pub copyright: String,
}

impl Default for SignupSettings {
    fn default() -> Self {
        Self {
            create_account: true,
            forgot_password: true,
            terms: true,
            terms_html: String::new(),
            copyright: String::new(),
        }
    }
}

/// Read here rather than through the console's editor module, so the portal does not wait on
/// it: one row, the defaults when there is none.
pub async fn signup_settings(conn: &mut PgConnection, partner_id: i64) -> Result<SignupSettings> {
    let row: Option<SignupSettings> = sqlx::query_as(
        "SELECT create_account, forgot_password, terms, terms_text AS terms_html, copyright
           FROM partner_signup_settings WHERE partner_id = $1",
    )
    .bind(partner_id)
    .fetch_optional(conn)
    .await?;
    Ok(row.unwrap_or_default())
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Contact {
    pub phone_number: Option<String>,
    pub email: Option<String>,
    pub address: Option<String>,
}

/// One API of the landing page's price list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SiteApi {
    pub service: String,
    pub name: String,
    pub category: String,
    /// What a user without a price of its own pays per call (`pricing`'s `sells_at_paise`).
    pub price_paise: i64,
}

/// What the portal's public pages need beside the branding (`branding::by_subdomain`).
#[derive(Debug, Clone)]
pub struct Site {
    pub landing_page: bool,
    pub documentation_link: Option<String>,
    pub batch_processing: bool,
    pub contact: Contact,
    pub signup: SignupSettings,
    pub apis: Vec<SiteApi>,
}

/// The site of `partner_id` (an active partner: the caller resolved it by sub-domain).
pub async fn site(conn: &mut PgConnection, partner_id: i64) -> Result<Site> {
    let (landing_page, documentation_link, batch_processing, restrict_all_apis): (bool, Option<String>, bool, bool) = sqlx::query_as(
        "SELECT landing_page, NULLIF(documentation_link, ''), batch_processing, restrict_all_apis FROM partners WHERE id = $1",
    )
    .bind(partner_id)
    .fetch_one(&mut *conn)
    .await?;
    let contact: Option<(String, String, String)> = sqlx::query_as(
        "SELECT phone_number, email, address FROM partner_contact_details WHERE partner_id = $1",
    )
    .bind(partner_id)
    .fetch_optional(&mut *conn)
    .await?;
    let contact = contact.map_or_else(Contact::default, |(p, e, a)| Contact {
        phone_number: Some(p),
        email: Some(e),
        address: Some(a),
    });
    let signup = signup_settings(conn, partner_id).await?;
    // Restrict ALL APIs refuses every call, so nothing is on offer.
    let apis = if restrict_all_apis {
        Vec::new()
    } else {
        pricing::prices(conn, partner_id, None, None)
            .await?
            .into_iter()
            .filter(|p| p.visible)
            .map(|p| SiteApi {
                service: p.service,
                name: p.name,
                category: p.category,
                price_paise: p.sells_at_paise,
            })
            .collect()
    };
    Ok(Site {
        landing_page,
        documentation_link,
        batch_processing,
        contact,
        signup,
        apis,
    })
}
