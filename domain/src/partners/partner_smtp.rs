//! A partner's own outgoing mail server (wizard step 5, My Account). The password is sealed with
//! AES-256-GCM (`ENCRYPTION_KEY`) before it reaches the database, opened only by the mail job
//! at send time, and shown to people masked, never in clear.
//!
//! The password must not be redirectable: changing the host, port or user needs the password
//! again, and a host that resolves to a loopback, private, link-local or metadata address is
//! refused (unless `PARTNER_SMTP_ALLOW_PRIVATE`), when saved and again right before the
//! worker connects, to the very address it checked (DNS answers can change in between).

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgConnection;

use crate::{
    Error, Result, error::Violations, infra::config::SmtpConfig, infra::crypto::SecretBox,
};

/// What GET shows instead of the password: a fixed mask, so not even the length leaks.
pub const PASSWORD_MASK: &str = "********";

/// Step 5, checked. `password: None` keeps the stored one (an empty password on PUT).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmtpForm {
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: Option<String>,
    pub from: String,
    pub company_name: String,
    pub secure: bool,
    pub active: bool,
}

impl SmtpForm {
    #[allow(clippy::too_many_arguments)]
    pub fn parse(
        host: &str,
        port: Option<i64>,
        user: &str,
        password: &str,
        from: &str,
        company_name: &str,
        secure: Option<bool>,
        active: Option<bool>,
    ) -> Result<Self> {
        let (host, user, from, company_name) =
            (host.trim(), user.trim(), from.trim(), company_name.trim());
        let mut v = Violations::new();
        v.check(!host.is_empty(), "host", "Host is required");
        v.check(
            host.is_empty()
                || (host.len() <= 253
                    && host
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))),
            "host",
            "Host must be a host name such as smtp.example.com",
        );
        match port {
            None => v.add("port", "Port is required"),
            Some(p) if !(1..=65535).contains(&p) => {
                v.add("port", "Port must be between 1 and 65535")
            }
            _ => {}
        }
        v.check(!user.is_empty(), "user", "User is required");
        v.check(user.chars().count() <= 254, "user", "User is too long");
        v.check(
            crate::infra::text::is_plain_text(user),
            "user",
            "User contains invalid characters",
        );
        v.check(
            password.chars().count() <= 256,
            "password",
            "Password is too long",
        );
        v.check(!from.is_empty(), "from", "From is required");
        // `Name <address>` or a bare address; the address passes the platform's one check.
        let sender = from.parse::<lettre::message::Mailbox>().ok();
        v.check(
            from.is_empty()
                || (crate::infra::email_address::is_plain_line(from)
                    && sender.is_some_and(|mb| {
                        crate::infra::email_address::is_valid(mb.email.as_ref())
                    })),
            "from",
            "From must be an email address",
        );
        v.check(
            !company_name.is_empty(),
            "company_name",
            "Company name is required",
        );
        v.check(
            company_name.chars().count() <= 100,
            "company_name",
            "Company name is too long",
        );
        v.check(
            crate::infra::text::is_plain_text(company_name),
            "company_name",
            "Company name contains invalid characters",
        );
        v.check(
            crate::infra::text::is_plain_text(from),
            "from",
            "From must be an email address",
        );
        v.check(secure.is_some(), "secure", "Secure connection is required");
        v.check(active.is_some(), "active", "Active is required");
        v.into_result()?;
        Ok(Self {
            host: host.to_ascii_lowercase(),
            port: port.expect("checked") as u16,
            user: user.into(),
            password: (!password.is_empty()).then(|| password.to_owned()),
            from: from.into(),
            company_name: company_name.into(),
            secure: secure.expect("checked"),
            active: active.expect("checked"),
        })
    }
}

/// The settings as people see them.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct SmtpView {
    /// False until the partner saved settings; the other fields are then the form's defaults.
    pub configured: bool,
    pub host: String,
    pub port: Option<i32>,
    pub user: String,
    /// Always masked: [`PASSWORD_MASK`] when one is stored, empty otherwise.
    pub password: String,
    pub from: String,
    pub company_name: String,
    pub secure: bool,
    pub active: bool,
    /// The last mail the partner's server failed, until new settings are saved or a mail
    /// (or a test mail) goes through it; `null` when none.
    pub last_failure: Option<SmtpFailure>,
}

/// A mail the partner's own server did not take: what the console's warning shows.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, sqlx::FromRow, utoipa::ToSchema)]
pub struct SmtpFailure {
    pub at: DateTime<Utc>,
    /// The server's answer or the connection error, the password masked.
    pub error: String,
    /// Which mail (`domain::mail::Mail::kind`): `user_password_reset`, `user_signup`,
    /// `account_created`, `low_balance`, `smtp_test`, …
    pub mail: String,
    /// Whether the platform's own mail server sent it instead (account mails).
    pub fallback: bool,
}

#[derive(sqlx::FromRow)]
struct Row {
    host: String,
    port: i32,
    username: String,
    password_enc: Vec<u8>,
    from_address: String,
    company_name: String,
    secure: bool,
    active: bool,
}

async fn row(conn: &mut PgConnection, partner_id: i64) -> Result<Option<Row>> {
    Ok(sqlx::query_as(
        "SELECT host, port, username, password_enc, from_address, company_name, secure, active FROM partner_smtp WHERE partner_id = $1",
    )
    .bind(partner_id)
    .fetch_optional(conn)
    .await?)
}

async fn last_failure(conn: &mut PgConnection, partner_id: i64) -> Result<Option<SmtpFailure>> {
    Ok(sqlx::query_as(
        "SELECT last_error_at AS at, last_error AS error, COALESCE(last_error_mail, '') AS mail, last_error_fallback AS fallback
           FROM partner_smtp WHERE partner_id = $1 AND last_error IS NOT NULL AND last_error_at IS NOT NULL",
    )
    .bind(partner_id)
    .fetch_optional(conn)
    .await?)
}

pub async fn view(conn: &mut PgConnection, partner_id: i64) -> Result<SmtpView> {
    let last_failure = last_failure(conn, partner_id).await?;
    Ok(match row(conn, partner_id).await? {
        None => SmtpView {
            configured: false,
            host: String::new(),
            port: None,
            user: String::new(),
            password: String::new(),
            from: String::new(),
            company_name: String::new(),
            // The spec's defaults: secure connection yes, active yes.
            secure: true,
            active: true,
            last_failure: None,
        },
        Some(r) => SmtpView {
            configured: true,
            host: r.host,
            port: Some(r.port),
            user: r.username,
            password: PASSWORD_MASK.into(),
            from: r.from_address,
            company_name: r.company_name,
            secure: r.secure,
            active: r.active,
            last_failure,
        },
    })
}

pub const PASSWORD_AGAIN: &str = "Enter the password again to change the host, port or user";
pub const PRIVATE_HOST: &str = "Host must be a public mail server, not a local or private address";

/// Saves the settings and marks the wizard's SMTP step done. A missing password keeps the
/// stored one only while host, port and user stay the same: otherwise the stored password
/// would be sent to a server the partner names now. With none stored it is required.
#[tracing::instrument(skip_all, fields(partner_id))]
pub async fn save(
    conn: &mut PgConnection,
    secrets: &SecretBox,
    partner_id: i64,
    form: &SmtpForm,
) -> Result<SmtpView> {
    let sealed = match &form.password {
        Some(p) => secrets.seal(p),
        None => match row(conn, partner_id).await? {
            Some(r)
                if r.host == form.host
                    && r.port == i32::from(form.port)
                    && r.username == form.user =>
            {
                r.password_enc
            }
            Some(_) => return Err(Error::invalid("password", PASSWORD_AGAIN)),
            None => return Err(Error::invalid("password", "Password is required")),
        },
    };
    sqlx::query(
        "INSERT INTO partner_smtp (partner_id, host, port, username, password_enc, from_address, company_name, secure, active)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (partner_id) DO UPDATE SET host = $2, port = $3, username = $4, password_enc = $5, from_address = $6,
                company_name = $7, secure = $8, active = $9, updated_at = now(),
                -- The warning was about the settings replaced now: a test mail tells about these.
                last_error = NULL, last_error_at = NULL, last_error_mail = NULL, last_error_fallback = false",
    )
    .bind(partner_id)
    .bind(&form.host)
    .bind(form.port as i32)
    .bind(&form.user)
    .bind(sealed)
    .bind(&form.from)
    .bind(&form.company_name)
    .bind(form.secure)
    .bind(form.active)
    .execute(&mut *conn)
    .await?;
    sqlx::query("UPDATE partners SET smtp_done = true, updated_at = now() WHERE id = $1")
        .bind(partner_id)
        .execute(&mut *conn)
        .await?;
    view(conn, partner_id).await
}

/// The partner's active mail server, password opened, for the mail job. `None` when the
/// partner has none or switched it off: the platform's mailer is used then.
pub struct ActiveSmtp {
    /// `host` is the checked address to connect to; `tls_name` the partner's host name.
    pub transport: SmtpConfig,
    /// `"Company <from@address>"`.
    pub from: String,
}

/// How long a DNS answer may take when a partner saves (the worker waits longer).
const SAVE_LOOKUP: Duration = Duration::from_secs(3);
const SEND_LOOKUP: Duration = Duration::from_secs(10);

/// The save-time check of a partner's host: 422 when it resolves to a non-public address. A
/// name that does not resolve yet is accepted (the worker checks again before each connection
/// and fails the job then).
pub async fn check_host(host: &str, port: u16, allow_private: bool) -> Result<()> {
    if allow_private {
        return Ok(());
    }
    match crate::infra::public_addr::resolve(host, port, SAVE_LOOKUP).await {
        Some(addrs) if crate::infra::public_addr::first_non_public(&addrs).is_some() => {
            Err(Error::invalid("host", PRIVATE_HOST))
        }
        _ => Ok(()),
    }
}

/// Resolves the partner's host now and picks the address to connect to, refusing non-public
/// ones. The error is for the job's `last_error`: it names the host, never the password.
pub async fn pin(host: &str, port: u16, allow_private: bool) -> anyhow::Result<std::net::IpAddr> {
    let addrs = crate::infra::public_addr::resolve(host, port, SEND_LOOKUP)
        .await
        .ok_or_else(|| anyhow::anyhow!("the SMTP host {host} could not be resolved"))?;
    if let Some(ip) = crate::infra::public_addr::first_non_public(&addrs)
        && !allow_private
    {
        anyhow::bail!("the SMTP host {host} resolves to {ip}, a local or private address: refused");
    }
    Ok(addrs[0].ip())
}

/// A partner's switched-on mail server as the mail job sees it: the server, or why it cannot
/// be used now (its host does not resolve or is refused, its password cannot be opened), and
/// what the platform's mailer needs to stand in for it.
pub struct PartnerSender {
    pub server: anyhow::Result<ActiveSmtp>,
    /// The name the partner's mail carries (the display name of its From, else its company
    /// name): the platform's mailer keeps it when it sends an account mail instead.
    pub name: String,
    /// `"Company <from@address>"`: the Reply-To of a mail the platform sends instead, so an
    /// answer still reaches the partner.
    pub reply_to: String,
}

/// The partner's own mail server when it is switched on, its host checked (`allow_private`:
/// `PARTNER_SMTP_ALLOW_PRIVATE`) and pinned for this connection. `None`: none, or switched off.
pub async fn active(
    conn: &mut PgConnection,
    secrets: &SecretBox,
    partner_id: i64,
    allow_private: bool,
) -> Result<Option<PartnerSender>> {
    let Some(r) = row(conn, partner_id).await? else {
        return Ok(None);
    };
    if !r.active {
        return Ok(None);
    }
    let reply_to = sender(&r);
    let name = match reply_to.parse::<lettre::message::Mailbox>() {
        Ok(mb) => mb.name.unwrap_or_else(|| r.company_name.clone()),
        Err(_) => r.company_name.clone(),
    };
    let server = connectable(r, secrets, allow_private)
        .await
        .map_err(|e| match e {
            Error::Other(e) => e,
            e => anyhow::anyhow!("{e}"),
        });
    Ok(Some(PartnerSender {
        server,
        name,
        reply_to,
    }))
}

/// The name a partner's mails carry when the platform's mailer sends them (no server of its
/// own): its SMTP settings' company name, else its site's title, else its user name. End users
/// see the partner's brand, never the platform's.
pub async fn brand_name(conn: &mut PgConnection, partner_id: i64) -> Result<Option<String>> {
    Ok(sqlx::query_scalar(
        "SELECT COALESCE(NULLIF(btrim(s.company_name), ''), NULLIF(btrim(p.title), ''), p.user_name)
           FROM partners p LEFT JOIN partner_smtp s ON s.partner_id = p.id
          WHERE p.id = $1",
    )
    .bind(partner_id)
    .fetch_optional(conn)
    .await?)
}

/// The longest error kept: a server's answer can be long, the warning is one paragraph.
const ERROR_CHARS: usize = 500;

/// Records that the partner's server failed `mail` (a [`crate::mail::Mail::kind`], or
/// `smtp_test`) with `error`, already scrubbed of the password ([`scrub`]); `fallback` when the
/// platform's mailer sent it instead. The console shows it until a save or a success.
#[tracing::instrument(skip_all, fields(partner_id, mail))]
pub async fn record_failure(
    conn: &mut PgConnection,
    partner_id: i64,
    mail: &str,
    error: &str,
    fallback: bool,
) -> Result<()> {
    let error: String = error.chars().take(ERROR_CHARS).collect();
    sqlx::query(
        "UPDATE partner_smtp SET last_error = $2, last_error_at = now(), last_error_mail = $3, last_error_fallback = $4
          WHERE partner_id = $1",
    )
    .bind(partner_id)
    .bind(if error.is_empty() { "unknown error" } else { &error })
    .bind(mail)
    .bind(fallback)
    .execute(conn)
    .await?;
    Ok(())
}

/// A mail went through the partner's server: the warning of an earlier failure goes. Writes
/// only when there is one to clear.
pub async fn record_success(conn: &mut PgConnection, partner_id: i64) -> Result<()> {
    sqlx::query(
        "UPDATE partner_smtp SET last_error = NULL, last_error_at = NULL, last_error_mail = NULL, last_error_fallback = false
          WHERE partner_id = $1 AND last_error IS NOT NULL",
    )
    .bind(partner_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// `message` with the password, and the AUTH PLAIN and LOGIN forms that carry it, masked: what
/// a server answers may echo them, and the answer is shown to people and kept.
pub fn scrub(message: &str, user: &str, password: &str) -> String {
    use base64::Engine;
    if password.is_empty() {
        return message.to_owned();
    }
    let b64 = base64::engine::general_purpose::STANDARD;
    let mut out = message.to_owned();
    for secret in [
        b64.encode(format!("\0{user}\0{password}")),
        b64.encode(password),
        password.to_owned(),
    ] {
        out = out.replace(&secret, PASSWORD_MASK);
    }
    out
}

/// The saved settings whether active or not, for the 'send test mail' job, and the partner's
/// own address to send the test to. `None` when nothing is saved.
pub async fn for_test(
    conn: &mut PgConnection,
    secrets: &SecretBox,
    partner_id: i64,
    allow_private: bool,
) -> Result<Option<(ActiveSmtp, String)>> {
    let Some(r) = row(conn, partner_id).await? else {
        return Ok(None);
    };
    let to: String = sqlx::query_scalar("SELECT email::text FROM partners WHERE id = $1")
        .bind(partner_id)
        .fetch_one(&mut *conn)
        .await?;
    Ok(Some((connectable(r, secrets, allow_private).await?, to)))
}

/// The From of the partner's mail: its address under its company name unless it named one.
fn sender(r: &Row) -> String {
    match r.from_address.parse::<lettre::message::Mailbox>() {
        Ok(mb) if mb.name.is_none() => {
            lettre::message::Mailbox::new(Some(r.company_name.clone()), mb.email).to_string()
        }
        _ => r.from_address.clone(),
    }
}

async fn connectable(r: Row, secrets: &SecretBox, allow_private: bool) -> Result<ActiveSmtp> {
    let port = u16::try_from(r.port)
        .map_err(|_| Error::Other(anyhow::anyhow!("stored SMTP port {} out of range", r.port)))?;
    let ip = pin(&r.host, port, allow_private)
        .await
        .map_err(Error::Other)?;
    let password = secrets.open(&r.password_enc)?;
    // "Secure" means TLS: implicit on 465 (SMTPS), STARTTLS on any other port.
    let tls = match (r.secure, r.port) {
        (false, _) => "none",
        (true, 465) => "tls",
        (true, _) => "starttls",
    };
    let from = sender(&r);
    Ok(ActiveSmtp {
        transport: SmtpConfig {
            host: ip.to_string(),
            port,
            user: Some(r.username),
            password: Some(password),
            tls: tls.into(),
            tls_name: Some(r.host),
        },
        from,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_never_reaches_the_error() {
        let msg = "535 auth failed for bob: s3cret, AGJvYgBzM2NyZXQ= and czNjcmV0";
        let out = scrub(msg, "bob", "s3cret");
        assert!(
            !out.contains("s3cret")
                && !out.contains("AGJvYgBzM2NyZXQ=")
                && !out.contains("czNjcmV0"),
            "{out}"
        );
        assert!(out.starts_with("535 auth failed for bob: ********"));
    }

    #[test]
    fn form_rules() {
        let f = SmtpForm::parse(
            "smtp.example.com",
            Some(587),
            "me@example.com",
            "",
            "me@example.com",
            "Acme",
            Some(true),
            Some(true),
        )
        .unwrap();
        assert_eq!(f.password, None);
        let Err(Error::Invalid { fields, .. }) =
            SmtpForm::parse("", None, "", "", "nope", "", None, None)
        else {
            panic!()
        };
        for k in [
            "host",
            "port",
            "user",
            "from",
            "company_name",
            "secure",
            "active",
        ] {
            assert!(fields.contains_key(k), "{k}");
        }
        assert!(
            SmtpForm::parse(
                "bad host",
                Some(70000),
                "u",
                "p",
                "a@b.co",
                "c",
                Some(true),
                Some(false)
            )
            .is_err()
        );
    }
}
