//! My Account's Signup Customization: the switches of the partner's end-user sign-in and
//! sign-up pages (forgot password, terms, create account, login with Google), the terms as
//! rich text and a copyright line. The portal reads the same row (`portal::site`).
//!
//! The terms are HTML from the partner's editor and are shown on the partner's site, so they
//! are cleaned here, on the way in, with an allow-list of the editor's own tags: a script, an
//! `on*` handler or a `javascript:` link never reaches the database.

use std::collections::HashSet;
use std::sync::LazyLock;

use serde::Serialize;
use sqlx::PgConnection;

use crate::{
    Result,
    error::Violations,
    infra::audit::{self, Actor},
    infra::text::is_plain_text,
};

/// Longest terms accepted, in characters of the HTML as sent.
pub const MAX_TERMS_CHARS: usize = 100_000;
pub const MAX_COPYRIGHT_CHARS: usize = 200;

/// The saved settings, or the table's defaults when none are saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct SignupCustomization {
    pub forgot_password: bool,
    pub terms: bool,
    pub create_account: bool,
    pub login_with_google: bool,
    /// Sanitised HTML.
    pub terms_html: String,
    pub copyright: String,
}

impl Default for SignupCustomization {
    fn default() -> Self {
        Self {
            forgot_password: true,
            terms: true,
            create_account: true,
            login_with_google: false,
            terms_html: String::new(),
            copyright: String::new(),
        }
    }
}

/// The tags the terms editor (tiptap's starter kit) writes; everything else is dropped, and
/// the content of `script`/`style` with it.
static CLEANER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let tags: HashSet<&str> = [
        "p",
        "br",
        "strong",
        "b",
        "em",
        "i",
        "u",
        "s",
        "code",
        "pre",
        "blockquote",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "ul",
        "ol",
        "li",
        "hr",
        "a",
    ]
    .into();
    let mut b = ammonia::Builder::empty();
    b.tags(tags)
        .add_tag_attributes("a", ["href", "target"])
        .add_tag_attributes("ol", ["start"])
        .url_schemes(["http", "https", "mailto"].into())
        // A relative link would point into the platform's own pages.
        .url_relative(ammonia::UrlRelative::Deny)
        .link_rel(Some("noopener noreferrer nofollow"))
        .clean_content_tags(["script", "style"].into());
    b
});

/// The terms as they may be stored: allowed tags only, no event handlers, no script links.
pub fn sanitize_terms(html: &str) -> String {
    let mut clean = CLEANER.clean(html).to_string();
    // The editor keeps an empty paragraph after the last block, and one cleared to nothing
    // leaves `<p></p>`: neither is part of the terms.
    while let Some(rest) = clean.trim_end().strip_suffix("<p></p>") {
        clean = rest.to_owned();
    }
    if clean.trim().is_empty() {
        String::new()
    } else {
        clean
    }
}

impl SignupCustomization {
    /// Every switch must be given (the form sends them all at once, 'Apply changes'); the
    /// terms are cleaned, the copyright is one line of plain text.
    pub fn parse(
        forgot_password: Option<bool>,
        terms: Option<bool>,
        create_account: Option<bool>,
        login_with_google: Option<bool>,
        terms_html: &str,
        copyright: &str,
    ) -> Result<Self> {
        let copyright = copyright.trim();
        let mut v = Violations::new();
        for (field, label, value) in [
            ("forgot_password", "Forgot password", forgot_password),
            ("terms", "Terms", terms),
            ("create_account", "Create account", create_account),
            ("login_with_google", "Login with Google", login_with_google),
        ] {
            v.check(
                value.is_some(),
                field,
                &format!("{label} must be on or off"),
            );
        }
        v.check(
            terms_html.chars().count() <= MAX_TERMS_CHARS,
            "terms_html",
            "Terms must be at most 100,000 characters",
        );
        v.check(
            copyright.chars().count() <= MAX_COPYRIGHT_CHARS,
            "copyright",
            "Copyright must be at most 200 characters",
        );
        v.check(
            is_plain_text(copyright) && !copyright.contains('\n'),
            "copyright",
            "Copyright contains invalid characters",
        );
        v.into_result()?;
        Ok(Self {
            forgot_password: forgot_password.expect("checked"),
            terms: terms.expect("checked"),
            create_account: create_account.expect("checked"),
            login_with_google: login_with_google.expect("checked"),
            terms_html: sanitize_terms(terms_html),
            copyright: copyright.to_owned(),
        })
    }
}

async fn saved(conn: &mut PgConnection, partner_id: i64) -> Result<Option<SignupCustomization>> {
    Ok(sqlx::query_as(
        "SELECT forgot_password, terms, create_account, login_with_google, terms_text AS terms_html, copyright
           FROM partner_signup_settings WHERE partner_id = $1",
    )
    .bind(partner_id)
    .fetch_optional(conn)
    .await?)
}

/// The partner's settings; the defaults (everything on but Google) until it saves some.
pub async fn get(conn: &mut PgConnection, partner_id: i64) -> Result<SignupCustomization> {
    Ok(saved(conn, partner_id).await?.unwrap_or_default())
}

/// Saves them whole, with an audit row of the change.
pub async fn save(
    conn: &mut PgConnection,
    partner_id: i64,
    s: &SignupCustomization,
    actor: Actor,
) -> Result<SignupCustomization> {
    let before = saved(conn, partner_id).await?;
    sqlx::query(
        "INSERT INTO partner_signup_settings (partner_id, forgot_password, terms, create_account, login_with_google, terms_text, copyright)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (partner_id) DO UPDATE SET forgot_password = $2, terms = $3, create_account = $4, login_with_google = $5,
                terms_text = $6, copyright = $7, updated_at = now()",
    )
    .bind(partner_id)
    .bind(s.forgot_password)
    .bind(s.terms)
    .bind(s.create_account)
    .bind(s.login_with_google)
    .bind(&s.terms_html)
    .bind(&s.copyright)
    .execute(&mut *conn)
    .await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "update",
            entity: "signup_customization",
            entity_id: partner_id.to_string(),
            partner_id: Some(partner_id),
            before: before.map(|b| serde_json::json!(b)),
            after: Some(serde_json::json!(s)),
        },
    )
    .await?;
    Ok(s.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_handlers_and_script_links_are_removed() {
        let dirty = r#"<p onclick="steal()">Hi <strong>there</strong><script>alert(1)</script></p><a href="javascript:alert(1)">x</a><a href="https://acme.in/t" onmouseover="x()">terms</a><img src=x onerror=alert(1)><style>p{}</style><iframe src="https://evil"></iframe>"#;
        let clean = sanitize_terms(dirty);
        for bad in [
            "script",
            "alert",
            "onclick",
            "onmouseover",
            "onerror",
            "javascript",
            "<img",
            "<style",
            "iframe",
        ] {
            assert!(!clean.contains(bad), "{bad} in {clean}");
        }
        assert!(
            clean.contains("<p>Hi <strong>there</strong></p>"),
            "{clean}"
        );
        assert!(
            clean.contains(
                r#"<a href="https://acme.in/t" rel="noopener noreferrer nofollow">terms</a>"#
            ),
            "{clean}"
        );
        assert_eq!(sanitize_terms("<p></p>"), "");
        assert_eq!(
            sanitize_terms("<h3>T</h3><p>x</p><p></p><p></p>"),
            "<h3>T</h3><p>x</p>"
        );
        assert_eq!(sanitize_terms("  <script>x</script> "), "");
    }

    #[test]
    fn every_switch_is_required_and_texts_are_bounded() {
        let Err(crate::Error::Invalid { fields, .. }) =
            SignupCustomization::parse(None, Some(true), None, Some(false), "", &"c".repeat(201))
        else {
            panic!()
        };
        assert_eq!(
            fields.keys().collect::<Vec<_>>(),
            ["copyright", "create_account", "forgot_password"]
        );
        let ok = SignupCustomization::parse(
            Some(false),
            Some(true),
            Some(true),
            Some(false),
            "<h2>T</h2>",
            " © Acme ",
        )
        .unwrap();
        assert_eq!(
            (
                ok.terms_html.as_str(),
                ok.copyright.as_str(),
                ok.forgot_password
            ),
            ("<h2>T</h2>", "© Acme", false)
        );
    }
}
