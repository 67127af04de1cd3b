//! `send_mail`: builds one message from its payload (`domain::mail::SendMail`, which names the
//! mail and carries ids, never its text's secrets) and delivers it through the platform mailer
//! (SMTP or the outbox), or through a partner's own SMTP server when the job names the partner
//! and its settings are active. The partner's password is opened here, at send time.
//!
//! A partner's server that fails (refuses the connection or the login, does not resolve, answers
//! an error) is recorded on the partner at once, for the console's warning
//! (`partner_smtp::record_failure`, the password scrubbed). Then an account mail
//! (`Mail::is_account_mail`: a reset or sign-up link, a new account) goes out through the
//! platform's mailer under the partner's name in the same attempt: the end user cannot do
//! without it, and retries against a broken server would outlive the link. Any other mail fails
//! the attempt and is retried with backoff, as before.
//!
//! Idempotent through `mail_deliveries`: a message id delivered once is never sent again.

use domain::{
    PgConnection,
    auth::tokens::{self, Purpose},
    infra::{config::Config, crypto::SecretBox},
    mail::{self, Email, Mail, Mailer, contact, smtp_transport, texts},
    partners::{self, partner_smtp, users},
    portal, trubank, wallets, webhooks,
};

use crate::{Job, JobContext};

pub use domain::mail::SendMail;

/// What `mail_deliveries.transport` says of an account mail the platform sent for a partner.
pub const FALLBACK_TRANSPORT: &str = "platform_fallback";

impl Job for SendMail {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let id = &self.message_id;
        let mut conn = ctx.pool.acquire().await?;
        // Delivered by an earlier attempt that died before it could report: nothing to do.
        if mail::delivered(&mut conn, id).await? {
            return Ok(());
        }
        let Some(email) = build(&self, &mut conn, &ctx.config).await? else {
            tracing::info!(message_id = %id, "nothing to send any more");
            return Ok(());
        };
        let partner = match self.partner_id {
            Some(pid) => {
                let secrets = SecretBox::new(&ctx.config.encryption_key);
                partner_smtp::active(
                    &mut conn,
                    &secrets,
                    pid,
                    ctx.config.partner_smtp_allow_private,
                )
                .await?
                .map(|sender| (pid, sender))
            }
            None => None,
        };
        // A partner's mail through the platform's mailer still carries the partner's name: read
        // only when that mailer sends it (a partner with its own server names itself).
        let brand = match (self.partner_id, &partner) {
            (Some(pid), None) => partner_smtp::brand_name(&mut conn, pid).await?,
            _ => None,
        };
        drop(conn);
        let transport = match partner {
            None => {
                let mailer = match &brand {
                    Some(name) => ctx.mailer.with_sender_name(name),
                    None => ctx.mailer.clone(),
                };
                mailer.send(&email).await?;
                mailer.transport_name()
            }
            Some((pid, sender)) => {
                through_partner(ctx, &self.mail, pid, sender, email.clone()).await?
            }
        };
        mail::record_delivery(&mut *ctx.pool.acquire().await?, &email, transport).await?;
        tracing::info!(message_id = %id, transport, "mail delivered");
        Ok(())
    }
}

/// Sends `email` through partner `pid`'s server; when that fails, records the failure and, for
/// an account mail, sends it through the platform's mailer under the partner's name instead.
/// Returns the transport that delivered it.
async fn through_partner(
    ctx: &JobContext,
    kind: &Mail,
    pid: i64,
    sender: partner_smtp::PartnerSender,
    mut email: Email,
) -> anyhow::Result<&'static str> {
    let sent = match sender.server {
        Err(e) => Err(format!("{e:#}")),
        Ok(smtp) => {
            let (user, password) = (
                smtp.transport.user.clone().unwrap_or_default(),
                smtp.transport.password.clone().unwrap_or_default(),
            );
            let sent = async {
                Mailer::Smtp {
                    transport: smtp_transport(&smtp.transport)?,
                    from: smtp.from,
                }
                .send(&email)
                .await
            }
            .await;
            sent.map_err(|e| partner_smtp::scrub(&format!("{e:#}"), &user, &password))
        }
    };
    let mut conn = ctx.pool.acquire().await?;
    let error = match sent {
        Ok(()) => {
            partner_smtp::record_success(&mut conn, pid).await?;
            return Ok("partner_smtp");
        }
        Err(error) => error,
    };
    let fallback = kind.is_account_mail();
    partner_smtp::record_failure(&mut conn, pid, kind.kind(), &error, fallback).await?;
    drop(conn);
    tracing::warn!(partner_id = pid, mail = kind.kind(), fallback, %error, "the partner's SMTP server failed");
    if !fallback {
        anyhow::bail!("the partner's SMTP server failed: {error}");
    }
    if email.reply_to.is_none() {
        email.reply_to = Some(sender.reply_to);
    }
    ctx.mailer
        .with_sender_name(&sender.name)
        .send(&email)
        .await?;
    Ok(FALLBACK_TRANSPORT)
}

/// The message to send now, or `None` when there is nothing to send (the account or the
/// wallet is gone, or a reset was asked for an account that does not exist). Mints the
/// one-time token of a link here, committed before the mail goes out.
async fn build(
    job: &SendMail,
    conn: &mut PgConnection,
    config: &Config,
) -> domain::Result<Option<Email>> {
    let built = match &job.mail {
        Mail::Message(e) => Some(e.clone()),
        Mail::Contact { request_id } => contact::ContactForm::get(conn, *request_id)
            .await?
            .map(|f| f.to_email(&config.contact_email)),
        Mail::VerifyEmail {
            partner_id,
            token_id,
        } => match partners::credentials_by_id(conn, *partner_id).await? {
            None => None,
            Some(c) => tokens::mint(conn, *token_id).await?.map(|token| {
                texts::verify_email(&c.email, &c.first_name, &config.public_url, &token)
            }),
        },
        Mail::PasswordReset { email, user_name } => {
            match partners::by_email_and_user_name(conn, email, user_name).await? {
                None => None,
                Some(c) => {
                    let token = tokens::issue(
                        conn,
                        Purpose::ResetPassword,
                        c.id,
                        tokens::RESET_PASSWORD_TTL,
                    )
                    .await?;
                    Some(texts::reset_password(
                        &c.email,
                        &c.first_name,
                        &c.user_name,
                        &config.public_url,
                        &token,
                    ))
                }
            }
        }
        Mail::UserPasswordReset { partner_id, email } => {
            match portal::reset_target(conn, *partner_id, email).await? {
                None => None,
                Some(t) => {
                    let token = tokens::issue_for(
                        conn,
                        Purpose::ResetPassword,
                        tokens::Subject::User(t.user_id),
                        tokens::RESET_PASSWORD_TTL,
                    )
                    .await?;
                    Some(texts::user_reset_password(
                        &t.email,
                        &t.first_name,
                        &t.site_title,
                        &config.partner_site_url(&t.subdomain),
                        &token,
                    ))
                }
            }
        }
        Mail::UserSignup { partner_id, email } => {
            match portal::signup::signup_target(conn, *partner_id, email).await? {
                None => None,
                Some(t) if t.verified => Some(texts::user_signup_existing(
                    &t.email,
                    &t.first_name,
                    &t.site_title,
                    &config.partner_site_url(&t.subdomain),
                )),
                Some(t) => {
                    let token = tokens::issue_for(
                        conn,
                        Purpose::VerifyEmail,
                        tokens::Subject::User(t.user_id),
                        tokens::VERIFY_EMAIL_TTL,
                    )
                    .await?;
                    Some(texts::user_verify_email(
                        &t.email,
                        &t.first_name,
                        &t.site_title,
                        &config.partner_site_url(&t.subdomain),
                        &token,
                    ))
                }
            }
        }
        Mail::AccountCreated {
            partner_id,
            user_id,
        } => match users::get(conn, *partner_id, *user_id).await {
            Ok(u) => Some(texts::account_created(&u.email, &u.first_name, u.id)),
            Err(domain::Error::NotFound) => None,
            Err(e) => return Err(e),
        },
        Mail::LowBalance {
            wallet_id,
            partner_id,
            user_id,
            kind,
            balance_paise,
            threshold_paise,
        } => {
            let low = wallets::LowBalance {
                wallet_id: *wallet_id,
                partner_id: *partner_id,
                user_id: *user_id,
                kind: *kind,
                balance_paise: *balance_paise,
                threshold_paise: *threshold_paise,
            };
            wallets::alert_mail(conn, &low).await?
        }
        Mail::BankStatementDecided { request_id } => {
            trubank::decision_mail(conn, *request_id).await?
        }
        Mail::PartnerEmailChanged {
            partner_id,
            old_email,
        } => partners::credentials_by_id(conn, *partner_id)
            .await?
            .map(|c| texts::partner_email_changed(old_email, &c.first_name, &c.user_name)),
        Mail::WebhookDisabled { endpoint_id } => {
            webhooks::endpoints::disabled_notice(conn, *endpoint_id)
                .await?
                .map(|(to, _, url)| texts::webhook_disabled(&to, &url))
        }
    };
    Ok(built.map(|mut e| {
        e.message_id.clone_from(&job.message_id);
        e
    }))
}
