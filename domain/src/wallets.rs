//! Wallets and their append-only ledger (design.md, "Money").
//!
//! Every balance change is one [`apply`]: a single statement that moves the balance with a
//! conditional UPDATE (a debit only matches while the balance covers it, so concurrent debits
//! serialise on the row and can never overspend), appends the ledger entry with the balance
//! after it, and writes the audit row. It runs on the caller's connection, so the gateway can
//! debit the user's and the partner's wallet in one transaction. A transaction that moves two
//! wallets holds both row locks until it commits: move them in one fixed order everywhere
//! (the user's wallet first, then the partner's, for charges and refunds alike), or two such
//! transactions can deadlock.
//!
//! Idempotency keys work as the payment APIs do: the same key with the same request returns
//! the first entry and moves nothing; the same key with another request is a conflict.
//!
//! [`apply`] is the one public way to move money, and it cannot skip its side effect: a debit
//! that takes a wallet below its low-balance threshold queues the alert mail (a `send_mail`
//! job carrying the wallet's ids, see `queue`) in the same transaction, so a rolled-back debit
//! never mails and a committed crossing always does, exactly once. A new way to move money
//! added here (a batched charger, say) queues its alerts through [`queue_alert`].

pub mod earnings;
pub mod transactions;

pub mod charge;

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::{Connection, PgConnection, Postgres, QueryBuilder};

use crate::{
    Error, Result,
    infra::audit::{self, Actor},
    infra::paging::{Counts, Keys, List, Page, PageRequest, push_days},
    infra::queue,
    mail::{Email, Mail, SendMail},
    money::format_inr,
};

pub use crate::money::MAX_AMOUNT_PAISE;
/// No wallet holds more than this; it also keeps `balance + amount` far from i64 overflow.
const MAX_BALANCE_PAISE: i64 = 1_000_000_000_000_000_000;

pub use crate::money::WalletKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EntryType {
    Credit,
    Debit,
}

impl EntryType {
    pub fn as_str(self) -> &'static str {
        match self {
            EntryType::Credit => "credit",
            EntryType::Debit => "debit",
        }
    }

    /// `credit` or `debit`, in any case: the old screens sent `Credit` and `Debit`.
    pub fn parse(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "credit" => Ok(EntryType::Credit),
            "debit" => Ok(EntryType::Debit),
            "" => Err(Error::invalid("type", "Type is required")),
            _ => Err(Error::invalid("type", "Type must be credit or debit")),
        }
    }
}

/// Why money moved; `manual` is an admin's credit or debit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    Manual,
    ApiCall,
    Refund,
    Product,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Manual => "manual",
            Reason::ApiCall => "api_call",
            Reason::Refund => "refund",
            Reason::Product => "product",
        }
    }
}

/// Whose wallet: a partner's own, or one of its end users'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    Partner(i64),
    User { partner_id: i64, user_id: i64 },
}

impl Owner {
    fn partner_id(self) -> i64 {
        match self {
            Owner::Partner(p) | Owner::User { partner_id: p, .. } => p,
        }
    }
    fn user_id(self) -> Option<i64> {
        match self {
            Owner::Partner(_) => None,
            Owner::User { user_id, .. } => Some(user_id),
        }
    }
}

/// An amount of a movement: a positive whole number of paise, at most [`MAX_AMOUNT_PAISE`].
pub fn check_amount(amount_paise: i64) -> Result<i64> {
    if amount_paise <= 0 {
        return Err(Error::invalid(
            "amount_paise",
            "Amount must be greater than zero",
        ));
    }
    if amount_paise > MAX_AMOUNT_PAISE {
        return Err(Error::invalid("amount_paise", "Amount is too large"));
    }
    Ok(amount_paise)
}

/// The wallet of `owner`, created on first use (partners and users made before their wallets
/// existed, or by code that does not know about wallets, still get one).
#[tracing::instrument(skip(conn))]
pub async fn wallet_id(conn: &mut PgConnection, owner: Owner, kind: WalletKind) -> Result<i64> {
    let find = || {
        sqlx::query_scalar::<_, i64>(
            "SELECT id FROM wallets WHERE partner_id = $1 AND user_id IS NOT DISTINCT FROM $2 AND kind = $3",
        )
        .bind(owner.partner_id())
        .bind(owner.user_id())
        .bind(kind.as_str())
    };
    if let Some(id) = find().fetch_optional(&mut *conn).await? {
        return Ok(id);
    }
    // Two first uses at once: one insert wins, the other does nothing and reads the winner's.
    sqlx::query("INSERT INTO wallets (partner_id, user_id, kind) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
        .bind(owner.partner_id())
        .bind(owner.user_id())
        .bind(kind.as_str())
        .execute(&mut *conn)
        .await
        .map_err(|e| match &e {
            // The (partner_id, user_id) pair names no user of this partner.
            sqlx::Error::Database(d) if d.is_foreign_key_violation() => Error::NotFound,
            _ => Error::Db(e),
        })?;
    find()
        .fetch_optional(&mut *conn)
        .await?
        .ok_or(Error::NotFound)
}

/// One balance change to make.
#[derive(Debug, Clone)]
pub struct Movement<'a> {
    pub wallet_id: i64,
    pub entry_type: EntryType,
    pub amount_paise: i64,
    pub reason: Reason,
    pub reference: Option<&'a str>,
    pub idempotency_key: Option<&'a str>,
    pub actor: Actor,
}

/// What [`apply`] did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Moved {
    pub entry_id: i64,
    /// The balance right after this entry (for a replay: after the first one).
    pub balance_paise: i64,
    /// True when an idempotency key matched an earlier identical request: nothing moved.
    pub replayed: bool,
    #[serde(skip)]
    pub low_balance: Option<LowBalance>,
}

/// A debit took the wallet from at-or-above its threshold to below it. Also the payload of
/// its alert mail: ids and amounts only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LowBalance {
    pub wallet_id: i64,
    pub partner_id: i64,
    pub user_id: Option<i64>,
    pub kind: WalletKind,
    pub balance_paise: i64,
    pub threshold_paise: i64,
}

impl LowBalance {
    /// The alert's mail payload: the same ids and amounts.
    pub fn to_mail(&self) -> Mail {
        Mail::LowBalance {
            wallet_id: self.wallet_id,
            partner_id: self.partner_id,
            user_id: self.user_id,
            kind: self.kind,
            balance_paise: self.balance_paise,
            threshold_paise: self.threshold_paise,
        }
    }
}

/// What an idempotency key is bound to: the same key must come back with the same request.
fn request_hash(m: &Movement<'_>) -> String {
    let mut h = Sha256::new();
    h.update(format!(
        "{}|{}|{}",
        m.wallet_id,
        m.entry_type.as_str(),
        m.amount_paise
    ));
    hex::encode(h.finalize())
}

#[derive(sqlx::FromRow)]
struct Applied {
    entry_id: i64,
    partner_id: i64,
    user_id: Option<i64>,
    kind: String,
    balance_paise: i64,
    low_balance_threshold_paise: Option<i64>,
}

/// Moves money: balance, ledger entry, audit row and (on a low-balance crossing) the queued
/// alert mail, all or nothing. Runs inside the caller's transaction when there is one (and
/// starts its own otherwise). One statement on the ledger, plus the queue's insert only when
/// the debit crossed the threshold.
///
/// Errors: `InsufficientFunds` for a debit beyond the balance (nothing is written),
/// `Conflict` for a reused idempotency key with another request, `NotFound` for no wallet,
/// `Invalid` for a bad amount or key.
pub async fn apply(conn: &mut PgConnection, m: &Movement<'_>) -> Result<Moved> {
    if conn.is_in_transaction() {
        apply_in_transaction(conn, m).await
    } else {
        let mut tx = conn.begin().await?;
        let moved = apply_in_transaction(&mut tx, m).await?;
        tx.commit().await?;
        Ok(moved)
    }
}

#[tracing::instrument(skip_all, fields(wallet = m.wallet_id, kind = m.entry_type.as_str(), amount = m.amount_paise))]
async fn apply_in_transaction(conn: &mut PgConnection, m: &Movement<'_>) -> Result<Moved> {
    check_amount(m.amount_paise)?;
    let hash = request_hash(m);
    if let Some(key) = m.idempotency_key {
        if key.is_empty() || key.len() > 255 {
            return Err(Error::invalid(
                "idempotency_key",
                "Idempotency key must be 1 to 255 characters",
            ));
        }
        // Two requests with one key arrive together: the second waits here until the first
        // commits, then finds its entry below. (A transaction-scoped lock: released at commit.)
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(format!("wallet-entry:{}:{key}", m.wallet_id))
            .execute(&mut *conn)
            .await?;
        let first: Option<(i64, i64, Option<String>)> = sqlx::query_as(
            "SELECT id, balance_after_paise, request_hash FROM wallet_entries WHERE wallet_id = $1 AND idempotency_key = $2",
        )
        .bind(m.wallet_id)
        .bind(key)
        .fetch_optional(&mut *conn)
        .await?;
        if let Some((entry_id, balance_paise, first_hash)) = first {
            if first_hash.as_deref() != Some(hash.as_str()) {
                return Err(Error::conflict(
                    "This idempotency key was already used for a different request",
                ));
            }
            return Ok(Moved {
                entry_id,
                balance_paise,
                replayed: true,
                low_balance: None,
            });
        }
    }

    let delta = match m.entry_type {
        EntryType::Credit => m.amount_paise,
        EntryType::Debit => -m.amount_paise,
    };
    // One statement, so one round trip on the hot path. The WHERE is the overdraft guard: under
    // concurrent debits Postgres re-checks it against the latest committed balance.
    // low_balance_alerted always equals "below the threshold", so a credit re-arms the alert.
    let applied: Option<Applied> = sqlx::query_as(
        "WITH w AS (
             UPDATE wallets
                SET balance_paise = balance_paise + $2,
                    low_balance_alerted = low_balance_threshold_paise IS NOT NULL
                                          AND balance_paise + $2 < low_balance_threshold_paise,
                    updated_at = now()
              WHERE id = $1 AND balance_paise + $2 BETWEEN 0 AND $10
          RETURNING id, partner_id, user_id, kind, balance_paise, low_balance_threshold_paise
         ), e AS (
             INSERT INTO wallet_entries (wallet_id, type, amount_paise, balance_after_paise, reason, reference,
                                         idempotency_key, request_hash, actor_kind, actor_id)
             SELECT w.id, $3, abs($2), w.balance_paise, $4, $5, $6, $7, $8, $9 FROM w
          RETURNING id
         ), a AS (
             INSERT INTO audit_log (actor_kind, actor_id, action, entity, entity_id, partner_id, before, after, client_ip)
             SELECT $8, $9, 'wallet.' || $3, 'wallet', w.id::text, w.partner_id,
                    jsonb_build_object('balance_paise', w.balance_paise - $2),
                    jsonb_build_object('balance_paise', w.balance_paise, 'entry_id', e.id, 'type', $3,
                                       'amount_paise', abs($2), 'reason', $4, 'reference', $5,
                                       'kind', w.kind, 'user_id', w.user_id),
                    $11::inet
               FROM w, e
         )
         SELECT e.id AS entry_id, w.partner_id, w.user_id, w.kind, w.balance_paise, w.low_balance_threshold_paise
           FROM w, e",
    )
    .bind(m.wallet_id)
    .bind(delta)
    .bind(m.entry_type.as_str())
    .bind(m.reason.as_str())
    .bind(m.reference)
    .bind(m.idempotency_key)
    .bind(m.idempotency_key.map(|_| hash))
    .bind(m.actor.kind.as_str())
    .bind(m.actor.id)
    .bind(MAX_BALANCE_PAISE)
    .bind(m.actor.ip.map(|ip| ip.to_string()))
    .fetch_optional(&mut *conn)
    .await?;

    let Some(a) = applied else {
        let exists: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM wallets WHERE id = $1)")
                .bind(m.wallet_id)
                .fetch_one(&mut *conn)
                .await?;
        return Err(match (exists, m.entry_type) {
            (false, _) => Error::NotFound,
            (true, EntryType::Debit) => Error::InsufficientFunds,
            (true, EntryType::Credit) => {
                Error::invalid("amount_paise", "Amount is too large for this wallet")
            }
        });
    };
    let kind = WalletKind::parse(&a.kind)?;
    let low_balance = match (m.entry_type, a.low_balance_threshold_paise) {
        (EntryType::Debit, Some(t))
            if a.balance_paise < t && a.balance_paise + m.amount_paise >= t =>
        {
            Some(LowBalance {
                wallet_id: m.wallet_id,
                partner_id: a.partner_id,
                user_id: a.user_id,
                kind,
                balance_paise: a.balance_paise,
                threshold_paise: t,
            })
        }
        _ => None,
    };
    if let Some(low) = &low_balance {
        queue_alert(conn, low).await?;
    }
    Ok(Moved {
        entry_id: a.entry_id,
        balance_paise: a.balance_paise,
        replayed: false,
        low_balance,
    })
}

/// Queues the alert mail of a low-balance crossing on `conn` (the transaction of the debit
/// that crossed). Every way of moving money in this module calls it for its crossings.
pub async fn queue_alert(conn: &mut PgConnection, low: &LowBalance) -> Result<()> {
    let job = queue::push(conn, &SendMail::of(low.to_mail()), None).await?;
    let owner = match low.user_id {
        Some(u) => crate::webhooks::Owner::user(low.partner_id, u),
        None => crate::webhooks::Owner::partner(low.partner_id),
    };
    crate::webhooks::emit(
        conn,
        owner,
        crate::webhooks::WALLET_LOW_BALANCE,
        serde_json::json!({
            "wallet": low.kind,
            "balance_paise": low.balance_paise,
            "threshold_paise": low.threshold_paise,
        }),
    )
    .await?;
    tracing::info!(
        wallet = low.wallet_id,
        job = job.as_deref().unwrap_or(""),
        "low-balance alert queued"
    );
    Ok(())
}

/// The alert mail of `low` to the partner that owns the wallet, built when it is sent; `None`
/// when the partner is gone.
pub async fn alert_mail(conn: &mut PgConnection, low: &LowBalance) -> Result<Option<Email>> {
    let email: Option<String> =
        sqlx::query_scalar("SELECT email::text FROM partners WHERE id = $1")
            .bind(low.partner_id)
            .fetch_optional(&mut *conn)
            .await?;
    let Some(email) = email else { return Ok(None) };
    let user_label = match low.user_id {
        None => None,
        Some(u) => {
            let name: Option<String> = sqlx::query_scalar(
                "SELECT first_name || ' ' || last_name FROM end_users WHERE id = $1",
            )
            .bind(u)
            .fetch_optional(&mut *conn)
            .await?;
            Some(match name {
                Some(n) => format!("{n} ({u})"),
                None => u.to_string(),
            })
        }
    };
    let (subject, text) = low.mail_text(user_label.as_deref());
    Ok(Some(Email::new(email, subject, text)))
}

/// One wallet as the top bar and the Credits tabs show it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct WalletView {
    pub balance_paise: i64,
    /// Set by the partner on its own wallets; `null` means no alert.
    pub low_balance_threshold_paise: Option<i64>,
    /// True while the balance is below the threshold (the alert for this crossing went out).
    pub low_balance_alerted: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Balances {
    pub api: WalletView,
    pub product: WalletView,
}

/// Both wallets of `owner`; a wallet not created yet reads as empty.
pub async fn balances(conn: &mut PgConnection, owner: Owner) -> Result<Balances> {
    let rows: Vec<(String, i64, Option<i64>, bool)> = sqlx::query_as(
        "SELECT kind, balance_paise, low_balance_threshold_paise, low_balance_alerted
           FROM wallets WHERE partner_id = $1 AND user_id IS NOT DISTINCT FROM $2",
    )
    .bind(owner.partner_id())
    .bind(owner.user_id())
    .fetch_all(conn)
    .await?;
    let mut b = Balances::default();
    for (kind, balance_paise, low_balance_threshold_paise, low_balance_alerted) in rows {
        let v = WalletView {
            balance_paise,
            low_balance_threshold_paise,
            low_balance_alerted,
        };
        match kind.as_str() {
            "api" => b.api = v,
            _ => b.product = v,
        }
    }
    Ok(b)
}

/// Sets (or with `None` removes) the low-balance threshold of a wallet. The alert is armed
/// from the current balance: a partner setting a threshold above its balance is not mailed
/// about a state it is looking at; the next crossing after a top-up is.
pub async fn set_alert_threshold(
    conn: &mut PgConnection,
    owner: Owner,
    kind: WalletKind,
    threshold_paise: Option<i64>,
    actor: Actor,
) -> Result<WalletView> {
    if let Some(t) = threshold_paise
        && !(0..=MAX_AMOUNT_PAISE).contains(&t)
    {
        return Err(Error::invalid(
            "threshold_paise",
            "Threshold must be between 0 and 1000000000000 paise",
        ));
    }
    let id = wallet_id(conn, owner, kind).await?;
    let before: Option<i64> = sqlx::query_scalar(
        "SELECT low_balance_threshold_paise FROM wallets WHERE id = $1 FOR UPDATE",
    )
    .bind(id)
    .fetch_one(&mut *conn)
    .await?;
    let (balance_paise, low_balance_threshold_paise, low_balance_alerted): (
        i64,
        Option<i64>,
        bool,
    ) = sqlx::query_as(
        "UPDATE wallets SET low_balance_threshold_paise = $2,
                            low_balance_alerted = $2::bigint IS NOT NULL AND balance_paise < $2,
                            updated_at = now()
          WHERE id = $1 RETURNING balance_paise, low_balance_threshold_paise, low_balance_alerted",
    )
    .bind(id)
    .bind(threshold_paise)
    .fetch_one(&mut *conn)
    .await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "wallet.alert_threshold",
            entity: "wallet",
            entity_id: id.to_string(),
            partner_id: Some(owner.partner_id()),
            before: Some(serde_json::json!({ "low_balance_threshold_paise": before })),
            after: Some(serde_json::json!({ "low_balance_threshold_paise": threshold_paise })),
        },
    )
    .await?;
    Ok(WalletView {
        balance_paise,
        low_balance_threshold_paise,
        low_balance_alerted,
    })
}

/// One ledger row as the wallet-transaction lists show it.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Entry {
    pub id: i64,
    pub created_at: DateTime<Utc>,
    /// `api` or `product`.
    pub kind: String,
    /// `credit` or `debit`.
    #[serde(rename = "type")]
    #[sqlx(rename = "type")]
    pub entry_type: String,
    pub amount_paise: i64,
    /// The wallet's balance right after this entry.
    pub balance_after_paise: i64,
    /// `manual`, `api_call`, `refund` or `product`.
    pub reason: String,
    pub reference: Option<String>,
    /// Who moved the money: `superadmin`, `partner`, `user` or `system`.
    pub actor_kind: String,
    /// The wallet's owner: the partner (the super admin's "user id"), and the end user for a
    /// user's wallet.
    pub partner_id: i64,
    pub partner_user_name: String,
    pub user_id: Option<i64>,
}

/// Filters of the wallet-transaction lists.
#[derive(Debug, Clone, Default)]
pub struct EntryFilter {
    pub kind: Option<WalletKind>,
    pub entry_type: Option<EntryType>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
}

/// A partner's own entries, or one user's, newest first.
pub async fn entries(
    conn: &mut PgConnection,
    owner: Owner,
    f: &EntryFilter,
    page: PageRequest,
) -> Result<Page<Entry>> {
    list(conn, Scope::Owner(owner), f, page).await
}

/// Every partner wallet's entries (the super admin's Wallet Transactions), newest first;
/// `partner_id` narrows it to one partner.
pub async fn partner_entries(
    conn: &mut PgConnection,
    partner_id: Option<i64>,
    f: &EntryFilter,
    page: PageRequest,
) -> Result<Page<Entry>> {
    list(conn, Scope::PartnerWallets(partner_id), f, page).await
}

enum Scope {
    Owner(Owner),
    PartnerWallets(Option<i64>),
}

async fn list(
    conn: &mut PgConnection,
    scope: Scope,
    f: &EntryFilter,
    page: PageRequest,
) -> Result<Page<Entry>> {
    // The wallet set is small and indexed; entries come from (wallet_id, created_at).
    let (partner, user, all_partners) = match scope {
        Scope::Owner(o) => (Some(o.partner_id()), o.user_id(), false),
        Scope::PartnerWallets(p) => (p, None, true),
    };
    let wallets = |q: &mut QueryBuilder<Postgres>| {
        if let Some(p) = partner {
            q.push(" AND w.partner_id = ").push_bind(p);
        }
        // Partner wallets have no user; an owner's list is its partner wallets or one user's.
        match user {
            Some(u) if !all_partners => q.push(" AND w.user_id = ").push_bind(u),
            _ => q.push(" AND w.user_id IS NULL"),
        };
        if let Some(k) = f.kind {
            q.push(" AND w.kind = ").push_bind(k.as_str());
        }
    };
    let mut q = QueryBuilder::new("SELECT w.id FROM wallets w WHERE true");
    wallets(&mut q);
    let ids: Vec<i64> = q.build_query_scalar().fetch_all(&mut *conn).await?;
    let counts = Counts {
        source: "wallet_entries",
        scopes: ids.clone(),
        users: None,
        labels: f.entry_type.map(|t| vec![t.as_str().to_owned()]),
        from: f.from,
        to: f.to,
    };
    let keys = Keys {
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM wallet_entries e WHERE e.wallet_id = ANY(")
                .push_bind(ids.clone())
                .push(")");
            if let Some(t) = f.entry_type {
                q.push(" AND e.type = ").push_bind(t.as_str());
            }
        },
        time: "e.created_at",
        id: "e.id",
    };
    List {
        columns: "e.id, e.created_at, w.kind, e.type, e.amount_paise, e.balance_after_paise, e.reason, e.reference,
                  e.actor_kind, w.partner_id, (SELECT user_name::text FROM partners WHERE id = w.partner_id) AS partner_user_name,
                  w.user_id",
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM wallet_entries e JOIN wallets w ON w.id = e.wallet_id WHERE true");
            wallets(q);
            if let Some(t) = f.entry_type {
                q.push(" AND e.type = ").push_bind(t.as_str());
            }
            push_days(q, "e.created_at", f.from, f.to);
        },
        order_by: "e.created_at DESC, e.id DESC",
    }
    .fetch_counted(conn, page, &counts, &keys)
    .await
}

impl LowBalance {
    /// Subject and text of the alert mail to the partner.
    pub fn mail_text(&self, user_label: Option<&str>) -> (String, String) {
        let whose = match user_label {
            None => format!("Your {}", self.kind.label()),
            Some(u) => format!("The {} of your user {u}", self.kind.label()),
        };
        let subject = format!(
            "Low balance: {}",
            match user_label {
                None => format!("your {}", self.kind.label()),
                Some(u) => format!("{} of user {u}", self.kind.label()),
            }
        );
        let text = format!(
            "{whose} has fallen below your alert threshold.\n\nBalance: {}\nThreshold: {}\n\nAdd credits to keep API calls running. \
             You receive this mail once each time the balance drops below the threshold.\n",
            format_inr(self.balance_paise),
            format_inr(self.threshold_paise),
        );
        (subject, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_and_types() {
        assert!(check_amount(0).is_err());
        assert!(check_amount(-5).is_err());
        assert!(check_amount(MAX_AMOUNT_PAISE + 1).is_err());
        assert_eq!(check_amount(1).unwrap(), 1);
        assert_eq!(EntryType::parse("Credit").unwrap(), EntryType::Credit);
        assert!(EntryType::parse("refund").is_err());
        assert!(WalletKind::parse("gold").is_err());
    }
}
