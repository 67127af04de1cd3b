//! A partner's branded site: title, description, logo, favicon and three colours, set in the
//! wizard's step 4 and shown on `{subdomain}.{PLATFORM_DOMAIN}`.

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

use crate::{
    Error, Result,
    error::Violations,
    infra::audit::{self, Actor},
    infra::storage,
};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Theme {
    pub primary: String,
    pub secondary: String,
    pub tertiary: String,
}

pub(crate) fn is_hex_colour(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// Step 4, checked: every field required, colours `#RRGGBB`, file keys issued for this
/// partner's own logo and favicon uploads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrandingForm {
    pub title: String,
    pub description: String,
    pub logo_key: String,
    pub favicon_key: String,
    pub theme: Theme,
}

impl BrandingForm {
    pub fn parse(
        partner_id: i64,
        title: &str,
        description: &str,
        logo_key: &str,
        favicon_key: &str,
        theme: &Theme,
    ) -> Result<Self> {
        let (title, description, logo_key, favicon_key) = (
            title.trim(),
            description.trim(),
            logo_key.trim(),
            favicon_key.trim(),
        );
        let mut v = Violations::new();
        v.check(!title.is_empty(), "title", "Title is required");
        v.check(
            title.chars().count() <= 100,
            "title",
            "Title must be at most 100 characters",
        );
        v.check(
            crate::infra::text::is_plain_text(title),
            "title",
            "Title contains invalid characters",
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
            crate::infra::text::is_plain_text(description),
            "description",
            "Description contains invalid characters",
        );
        for (field, key, purpose) in [
            ("logo_key", logo_key, "logo"),
            ("favicon_key", favicon_key, "favicon"),
        ] {
            // Only keys of this partner's own uploads: another partner's file (or any other
            // object in the bucket) must not become this site's logo.
            let prefix = format!("partners/{partner_id}/{purpose}/");
            if key.is_empty() {
                v.add(field, "Please select a file");
            } else if !key.starts_with(&prefix) || storage::check_key(key).is_err() {
                v.add(field, "Invalid file key: upload the file first");
            }
        }
        for (field, label, value) in [
            ("theme.primary", "Primary", &theme.primary),
            ("theme.secondary", "Secondary", &theme.secondary),
            ("theme.tertiary", "Tertiary", &theme.tertiary),
        ] {
            v.check(
                is_hex_colour(value.trim()),
                field,
                &format!("{label} colour must be a hex colour like #6091E2"),
            );
        }
        v.into_result()?;
        let norm = |c: &str| c.trim().to_ascii_uppercase();
        Ok(Self {
            title: title.into(),
            description: description.into(),
            logo_key: logo_key.into(),
            favicon_key: favicon_key.into(),
            theme: Theme {
                primary: norm(&theme.primary),
                secondary: norm(&theme.secondary),
                tertiary: norm(&theme.tertiary),
            },
        })
    }
}

#[tracing::instrument(skip(conn, form))]
pub async fn save(conn: &mut PgConnection, partner_id: i64, form: &BrandingForm) -> Result<()> {
    let done = sqlx::query(
        "UPDATE partners SET title = $2, description = $3, logo_key = $4, favicon_key = $5, theme_primary = $6,
                theme_secondary = $7, theme_tertiary = $8, branding_done = true, updated_at = now()
          WHERE id = $1",
    )
    .bind(partner_id)
    .bind(&form.title)
    .bind(&form.description)
    .bind(&form.logo_key)
    .bind(&form.favicon_key)
    .bind(&form.theme.primary)
    .bind(&form.theme.secondary)
    .bind(&form.theme.tertiary)
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound);
    }
    audit::record(
        conn,
        &audit::Record {
            actor: Actor::partner(partner_id),
            action: "partner.branding",
            entity: "partner",
            entity_id: partner_id.to_string(),
            partner_id: Some(partner_id),
            before: None,
            after: Some(serde_json::json!({ "title": form.title, "theme": form.theme })),
        },
    )
    .await?;
    Ok(())
}

/// What a partner's public site shows.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SiteBranding {
    pub partner_id: i64,
    pub subdomain: String,
    pub user_name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub logo_key: Option<String>,
    pub favicon_key: Option<String>,
    pub theme_primary: String,
    pub theme_secondary: String,
    pub theme_tertiary: String,
    /// The super admin's Batch Processing: the site offers its users batch verification.
    pub batch_processing: bool,
}

impl SiteBranding {
    pub fn title(&self) -> String {
        self.title
            .clone()
            .unwrap_or_else(|| format!("{} - Home", self.user_name))
    }
    pub fn description(&self) -> String {
        self.description
            .clone()
            .unwrap_or_else(|| format!("{} - API KYC Solution", self.user_name))
    }
    pub fn theme(&self) -> Theme {
        Theme {
            primary: self.theme_primary.clone(),
            secondary: self.theme_secondary.clone(),
            tertiary: self.theme_tertiary.clone(),
        }
    }
}

/// The branding of an active partner's active sub-domain; `None` for anything else, so a
/// pending, failed or deactivated site looks exactly like an unknown one.
pub async fn by_subdomain(
    conn: &mut PgConnection,
    subdomain: &str,
) -> Result<Option<SiteBranding>> {
    let name = subdomain.trim().to_lowercase();
    if name.is_empty()
        || name.len() > 63
        || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        return Ok(None);
    }
    Ok(sqlx::query_as(
        "SELECT id AS partner_id, subdomain::text, user_name::text, title, description, logo_key, favicon_key,
                theme_primary, theme_secondary, theme_tertiary, batch_processing
           FROM partners WHERE subdomain = $1 AND subdomain_status = 'active' AND is_active",
    )
    .bind(name)
    .fetch_optional(conn)
    .await?)
}

/// The sub-domain label of a Host header `{sub}.{platform_domain}[:port]`; `None` for the
/// platform's own host or any other host.
pub fn subdomain_of_host(host: &str, platform_domain: &str) -> Option<String> {
    let host = host.trim().to_ascii_lowercase();
    // Strip a port; IPv6 literals ([::1]:8080) never carry a partner's name.
    let host = if host.starts_with('[') {
        return None;
    } else {
        host.rsplit_once(':')
            .map_or(host.as_str(), |(h, _)| h)
            .to_owned()
    };
    let suffix = format!(
        ".{}",
        platform_domain
            .trim()
            .trim_end_matches('.')
            .to_ascii_lowercase()
    );
    let label = host.trim_end_matches('.').strip_suffix(&suffix)?;
    (!label.is_empty() && !label.contains('.')).then(|| label.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn theme(p: &str) -> Theme {
        Theme {
            primary: p.into(),
            secondary: "#9462e7".into(),
            tertiary: "#00FFFB".into(),
        }
    }

    #[test]
    fn form_rules() {
        let ok = BrandingForm::parse(
            7,
            "T",
            "D",
            "partners/7/logo/AB_x.png",
            "partners/7/favicon/CD_f.png",
            &theme("#6091E2"),
        )
        .unwrap();
        assert_eq!(ok.theme.secondary, "#9462E7");
        let Err(Error::Invalid { fields, .. }) = BrandingForm::parse(
            7,
            "",
            "",
            "partners/8/logo/x.png",
            "partners/7/favicon/../x",
            &theme("blue"),
        ) else {
            panic!()
        };
        for f in [
            "title",
            "description",
            "logo_key",
            "favicon_key",
            "theme.primary",
        ] {
            assert!(fields.contains_key(f), "{f}");
        }
    }

    #[test]
    fn hosts() {
        assert_eq!(
            subdomain_of_host("demo.localhost:8080", "localhost").as_deref(),
            Some("demo")
        );
        assert_eq!(
            subdomain_of_host("Demo.KYC.example", "kyc.example").as_deref(),
            Some("demo")
        );
        assert_eq!(subdomain_of_host("localhost:8080", "localhost"), None);
        assert_eq!(subdomain_of_host("a.b.localhost", "localhost"), None);
        assert_eq!(subdomain_of_host("evil.com", "localhost"), None);
        assert_eq!(subdomain_of_host("[::1]:8080", "localhost"), None);
    }
}
