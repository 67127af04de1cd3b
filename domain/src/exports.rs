//! CSV exports of transactions, logs and wallet entries (spec part 1 'User Detail': Export to
//! CSV and the API Logs export requests; part 2 §2.2, §2.3). A request writes a row here and
//! queues `export_csv` in the same transaction; the job streams the rows ([`rows`]) into parts
//! in object storage and writes the status, the count and the part keys back. Links are never
//! stored: every read signs fresh ones ([`links`]).

pub mod format;
pub mod rows;

use std::time::Duration;

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Error, Result,
    error::Violations,
    infra::paging::{List, Page, PageRequest},
    infra::storage::Storage,
};

/// What is exported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ExportKind)]
pub enum Kind {
    ApiTransactions,
    ProductTransactions,
    ApiLogs,
    ProductLogs,
    WalletEntries,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::ApiTransactions,
        Kind::ProductTransactions,
        Kind::ApiLogs,
        Kind::ProductLogs,
        Kind::WalletEntries,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::ApiTransactions => "api_transactions",
            Kind::ProductTransactions => "product_transactions",
            Kind::ApiLogs => "api_logs",
            Kind::ProductLogs => "product_logs",
            Kind::WalletEntries => "wallet_entries",
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// Who asked. A partner sees its own requests; a super admin its own; an end user (the portal)
/// its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requester {
    Partner(i64),
    SuperAdmin(i64),
    User(i64),
}

impl Requester {
    fn parts(self) -> (&'static str, i64) {
        match self {
            Requester::Partner(id) => ("partner", id),
            Requester::SuperAdmin(id) => ("superadmin", id),
            Requester::User(id) => ("user", id),
        }
    }
}

/// Whose rows: one user's; all users of a partner (or the partner's own wallets, for wallet
/// entries); or, for the super admin, every partner's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    User { partner_id: i64, user_id: i64 },
    Partner(i64),
    AllPartners,
}

impl Scope {
    fn from_columns(partner_id: Option<i64>, user_id: Option<i64>) -> Scope {
        match (partner_id, user_id) {
            (Some(partner_id), Some(user_id)) => Scope::User {
                partner_id,
                user_id,
            },
            (Some(p), None) => Scope::Partner(p),
            // A user without a partner is never written; read it as the narrowest honest scope.
            (None, _) => Scope::AllPartners,
        }
    }

    pub fn partner_id(self) -> Option<i64> {
        match self {
            Scope::User { partner_id, .. } | Scope::Partner(partner_id) => Some(partner_id),
            Scope::AllPartners => None,
        }
    }

    pub fn user_id(self) -> Option<i64> {
        match self {
            Scope::User { user_id, .. } => Some(user_id),
            _ => None,
        }
    }
}

/// Which side of the money a transactions export shows: what the users paid and their
/// balances (User Transactions, User Detail, the portal), or what the partner paid and its
/// balance (My Transactions).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = ExportSide)]
pub enum Side {
    #[default]
    User,
    Partner,
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::User => "user",
            Side::Partner => "partner",
        }
    }

    fn parse(s: &str) -> Side {
        if s == "partner" {
            Side::Partner
        } else {
            Side::User
        }
    }
}

/// What of its scope's rows a file holds, so that it holds what the screen it comes from
/// shows: the screen's filter panel (e-mail, PID and services, each a part of the text; the
/// API logs' status code; the wallet transactions' wallet and type), the side of the money,
/// and for one user's transactions (User Detail) the wallet's ledger, where manual credits and
/// debits and refunds are rows beside the calls.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    pub ledger: bool,
    pub side: Side,
    pub email: Option<String>,
    pub pid: Option<String>,
    pub services: Option<String>,
    /// API logs: only calls answered with this HTTP status.
    pub status_code: Option<i32>,
    /// Wallet entries: one of the two wallets.
    pub wallet: Option<crate::money::WalletKind>,
    /// Wallet entries: credits or debits only.
    pub entry_type: Option<crate::wallets::EntryType>,
}

/// India Standard Time: the days of a range and the dates in a file are IST (`infra::ist`).
pub fn ist() -> FixedOffset {
    crate::infra::ist::offset()
}

pub fn today_ist(now: DateTime<Utc>) -> NaiveDate {
    crate::infra::ist::day_of(now)
}

/// The first instant of an IST day.
pub fn day_start(day: NaiveDate) -> DateTime<Utc> {
    crate::infra::ist::day_start(day)
}

/// The spec's date rules (part 1 §5): From at most today, To at most tomorrow, From not after
/// To. Each failure is a 422 on its field.
pub fn check_dates(
    from: Option<&str>,
    to: Option<&str>,
    today: NaiveDate,
) -> Result<(NaiveDate, NaiveDate)> {
    let mut v = Violations::new();
    let parse =
        |v: &mut Violations, field: &str, label: &str, raw: Option<&str>| -> Option<NaiveDate> {
            match raw.map(str::trim).filter(|s| !s.is_empty()) {
                None => {
                    v.add(field, format!("{label} date is required"));
                    None
                }
                Some(s) => match NaiveDate::parse_from_str(s, "%Y-%m-%d") {
                    Ok(d) if d.year_ce().1 >= 2000 => Some(d),
                    Ok(_) => {
                        v.add(
                            field,
                            format!("{label} date must be in the year 2000 or later"),
                        );
                        None
                    }
                    Err(_) => {
                        v.add(field, format!("{label} date must be a date as YYYY-MM-DD"));
                        None
                    }
                },
            }
        };
    let from = parse(&mut v, "from", "From", from);
    let to = parse(&mut v, "to", "To", to);
    if let Some(f) = from {
        v.check(f <= today, "from", "From date cannot be later than today");
    }
    if let Some(t) = to {
        v.check(
            t <= today.succ_opt().unwrap_or(today),
            "to",
            "To date cannot be later than tomorrow",
        );
    }
    if let (Some(f), Some(t)) = (from, to) {
        v.check(f <= t, "from", "From date cannot be after To date");
    }
    v.into_result()?;
    Ok((from.expect("checked"), to.expect("checked")))
}

/// A new export, already validated and scoped by the caller.
#[derive(Debug, Clone)]
pub struct NewExport {
    pub requester: Requester,
    pub kind: Kind,
    pub scope: Scope,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub view: View,
}

/// Writes the export's row (queued) and returns its id. The caller queues the job in the same
/// transaction and records its id with [`set_job`].
pub async fn create(conn: &mut PgConnection, e: &NewExport) -> Result<i64> {
    let (by, requester_id) = e.requester.parts();
    Ok(sqlx::query_scalar(
        "INSERT INTO exports (partner_id, requested_by, requester_id, kind, user_id, from_date, to_date,
                              ledger, side, email, pid, services, status_code, wallet, entry_type)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id",
    )
    .bind(e.scope.partner_id())
    .bind(by)
    .bind(requester_id)
    .bind(e.kind.as_str())
    .bind(e.scope.user_id())
    .bind(e.from)
    .bind(e.to)
    .bind(e.view.ledger)
    .bind(e.view.side.as_str())
    .bind(&e.view.email)
    .bind(&e.view.pid)
    .bind(&e.view.services)
    .bind(e.view.status_code)
    .bind(e.view.wallet.map(|w| w.as_str()))
    .bind(e.view.entry_type.map(|t| t.as_str()))
    .fetch_one(conn)
    .await?)
}

pub async fn set_job(conn: &mut PgConnection, export_id: i64, job_id: &str) -> Result<()> {
    sqlx::query("UPDATE exports SET job_id = $2 WHERE id = $1")
        .bind(export_id)
        .bind(job_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// An export as its requester reads it, without links (see [`links`]).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Export {
    pub id: i64,
    pub kind: String,
    pub partner_id: Option<i64>,
    pub user_id: Option<i64>,
    pub from_date: NaiveDate,
    pub to_date: NaiveDate,
    pub status: String,
    pub total_records: Option<i64>,
    pub rows_written: i64,
    pub file_keys: Vec<String>,
    pub job_id: Option<String>,
    pub error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub completed_at: Option<DateTime<Utc>>,
    pub ledger: bool,
    pub side: String,
    pub email: Option<String>,
    pub pid: Option<String>,
    pub services: Option<String>,
    pub status_code: Option<i32>,
    pub wallet: Option<String>,
    pub entry_type: Option<String>,
}

const COLUMNS: &str = "id, kind, partner_id, user_id, from_date, to_date, status, total_records, rows_written, file_keys, job_id, error, created_at, completed_at, ledger, side, email, pid, services, status_code, wallet, entry_type";

/// Narrows a list of exports to one kind and one user (User Detail lists that user's API log
/// exports).
#[derive(Debug, Clone, Copy, Default)]
pub struct ListFilter {
    pub kind: Option<Kind>,
    pub user_id: Option<i64>,
}

/// The requester's exports, newest first.
pub async fn list(
    conn: &mut PgConnection,
    requester: Requester,
    f: ListFilter,
    page: PageRequest,
) -> Result<Page<Export>> {
    let (by, id) = requester.parts();
    List {
        columns: COLUMNS,
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM exports WHERE requested_by = ")
                .push_bind(by)
                .push(" AND requester_id = ")
                .push_bind(id);
            if let Some(k) = f.kind {
                q.push(" AND kind = ").push_bind(k.as_str());
            }
            if let Some(u) = f.user_id {
                q.push(" AND user_id = ").push_bind(u);
            }
        },
        order_by: "created_at DESC, id DESC",
    }
    .fetch(conn, page)
    .await
}

/// One of the requester's exports; anyone else's is `NotFound`.
pub async fn find(conn: &mut PgConnection, requester: Requester, id: i64) -> Result<Export> {
    let (by, requester_id) = requester.parts();
    // COLUMNS is a constant of this module.
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM exports WHERE id = $1 AND requested_by = $2 AND requester_id = $3"
    )))
    .bind(id)
    .bind(by)
    .bind(requester_id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

/// Fresh download links of a finished export's parts, valid for `ttl`.
pub async fn links(storage: &Storage, keys: &[String], ttl: Duration) -> Result<Vec<String>> {
    let mut urls = Vec::with_capacity(keys.len());
    for k in keys {
        urls.push(storage.presign_get(k, ttl).await?.url);
    }
    Ok(urls)
}

/// What the job needs of its export.
#[derive(Debug, Clone)]
pub struct Job {
    pub id: i64,
    pub kind: Kind,
    pub scope: Scope,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub view: View,
    /// Parts an earlier attempt uploaded (at least); a run that ends with fewer removes the rest.
    pub earlier_parts: i32,
}

impl Job {
    /// The storage key of part `n` (from 1): deterministic, so a retried run overwrites the
    /// parts of the attempt before it instead of adding a second set. The file name is what a
    /// browser saves the download as.
    pub fn part_key(&self, n: usize) -> String {
        part_key(self.id, self.kind, self.from, self.to, n)
    }
}

pub fn part_key(id: i64, kind: Kind, from: NaiveDate, to: NaiveDate, n: usize) -> String {
    format!("exports/{id}/{}_{from}_{to}_part{n}.csv", kind.as_str())
}

#[derive(sqlx::FromRow)]
struct JobRow {
    id: i64,
    kind: String,
    partner_id: Option<i64>,
    user_id: Option<i64>,
    from_date: NaiveDate,
    to_date: NaiveDate,
    part_count: i32,
    ledger: bool,
    side: String,
    email: Option<String>,
    pid: Option<String>,
    services: Option<String>,
    status_code: Option<i32>,
    wallet: Option<String>,
    entry_type: Option<String>,
}

impl JobRow {
    fn into_job(self) -> Result<Job> {
        let kind = Kind::parse(&self.kind).ok_or_else(|| {
            Error::Other(anyhow::anyhow!(
                "export {} has an unknown kind {}",
                self.id,
                self.kind
            ))
        })?;
        Ok(Job {
            id: self.id,
            kind,
            scope: Scope::from_columns(self.partner_id, self.user_id),
            from: self.from_date,
            to: self.to_date,
            view: View {
                ledger: self.ledger,
                side: Side::parse(&self.side),
                email: self.email,
                pid: self.pid,
                services: self.services,
                status_code: self.status_code,
                // Written from the parsed values by `create`; anything else reads as no filter.
                wallet: self
                    .wallet
                    .and_then(|w| crate::money::WalletKind::parse(&w).ok()),
                entry_type: self
                    .entry_type
                    .and_then(|t| crate::wallets::EntryType::parse(&t).ok()),
            },
            earlier_parts: self.part_count,
        })
    }
}

/// Marks the export running (progress back to zero) and returns what the job needs; `None`
/// when it has finished already or is gone: a retry of a finished export has nothing to do.
pub async fn start(conn: &mut PgConnection, id: i64) -> Result<Option<Job>> {
    let row: Option<JobRow> = sqlx::query_as(
        "UPDATE exports SET status = 'running', rows_written = 0
          WHERE id = $1 AND status IN ('queued', 'running')
      RETURNING id, kind, partner_id, user_id, from_date, to_date, part_count, ledger, side, email, pid, services,
                status_code, wallet, entry_type",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?;
    row.map(JobRow::into_job).transpose()
}

/// Rows written so far and parts uploaded so far, while the job runs.
pub async fn progress(conn: &mut PgConnection, id: i64, rows: u64, parts: usize) -> Result<()> {
    sqlx::query("UPDATE exports SET rows_written = $2, part_count = GREATEST(part_count, $3) WHERE id = $1 AND status = 'running'")
        .bind(id)
        .bind(rows as i64)
        .bind(parts as i32)
        .execute(conn)
        .await?;
    Ok(())
}

/// The finished export: its count and its parts. Written once: a late duplicate run changes
/// nothing.
/// Its requester (a partner or an end user) gets an `export.completed` event, in the same
/// transaction; links are signed when the export is read, so the event names the export.
pub async fn complete(conn: &mut PgConnection, id: i64, total: u64, keys: &[String]) -> Result<()> {
    let mut tx = sqlx::Connection::begin(conn).await?;
    #[allow(clippy::type_complexity)]
    let done: Option<(Option<i64>, String, Option<i64>, String, NaiveDate, NaiveDate)> = sqlx::query_as(
        "UPDATE exports SET status = 'completed', total_records = $2, rows_written = $2, file_keys = $3,
                part_count = cardinality($3::text[]), completed_at = now(), error = NULL
          WHERE id = $1 AND status IN ('queued', 'running')
      RETURNING partner_id, requested_by, requester_id, kind, from_date, to_date",
    )
    .bind(id)
    .bind(total as i64)
    .bind(keys)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some((Some(partner_id), by, requester_id, kind, from, to)) = done {
        let owner = match by.as_str() {
            "user" => requester_id.map(|u| crate::webhooks::Owner::user(partner_id, u)),
            "partner" => Some(crate::webhooks::Owner::partner(partner_id)),
            _ => None,
        };
        if let Some(owner) = owner {
            crate::webhooks::emit(
                &mut tx,
                owner,
                crate::webhooks::EXPORT_COMPLETED,
                serde_json::json!({
                    "export_id": id,
                    "kind": kind,
                    "from": from,
                    "to": to,
                    "total_records": total,
                    "parts": keys.len(),
                }),
            )
            .await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

/// The export failed for good (its job has no attempt left).
pub async fn fail(conn: &mut PgConnection, id: i64, error: &str) -> Result<()> {
    sqlx::query("UPDATE exports SET status = 'failed', error = $2, completed_at = now() WHERE id = $1 AND status IN ('queued', 'running')")
        .bind(id)
        .bind(error.chars().take(500).collect::<String>())
        .execute(conn)
        .await?;
    Ok(())
}

/// The job id of an export, for the job's own bookkeeping.
pub async fn job_id(conn: &mut PgConnection, id: i64) -> Result<Option<String>> {
    Ok(
        sqlx::query_scalar::<_, Option<String>>("SELECT job_id FROM exports WHERE id = $1")
            .bind(id)
            .fetch_optional(conn)
            .await?
            .flatten(),
    )
}

/// A finished export past its retention, with every key any attempt may have written.
#[derive(Debug, Clone)]
pub struct Expired {
    pub id: i64,
    pub keys: Vec<String>,
}

/// Up to `limit` exports that finished before `before`.
pub async fn expired(
    conn: &mut PgConnection,
    before: DateTime<Utc>,
    limit: i64,
) -> Result<Vec<Expired>> {
    let rows: Vec<JobRow> = sqlx::query_as(
        "SELECT id, kind, partner_id, user_id, from_date, to_date, GREATEST(part_count, cardinality(file_keys)) AS part_count,
                ledger, side, email, pid, services, status_code, wallet, entry_type
           FROM exports WHERE completed_at < $1 ORDER BY completed_at LIMIT $2",
    )
    .bind(before)
    .bind(limit)
    .fetch_all(conn)
    .await?;
    rows.into_iter()
        .map(|r| {
            let job = r.into_job()?;
            let keys = (1..=job.earlier_parts.max(0) as usize)
                .map(|n| job.part_key(n))
                .collect();
            Ok(Expired { id: job.id, keys })
        })
        .collect()
}

/// Deletes an export's row once its files are gone.
pub async fn remove(conn: &mut PgConnection, id: i64) -> Result<()> {
    sqlx::query("DELETE FROM exports WHERE id = $1")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn fields(e: Error) -> std::collections::BTreeMap<String, String> {
        match e {
            Error::Invalid { fields, .. } => fields,
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    #[test]
    fn date_rules_of_the_spec() {
        let today = d("2026-11-23");
        assert_eq!(
            check_dates(Some("2026-11-01"), Some("2026-11-24"), today).unwrap(),
            (d("2026-11-01"), d("2026-11-24"))
        );
        assert_eq!(
            check_dates(Some("2026-11-23"), Some("2026-11-23"), today).unwrap(),
            (today, today)
        );
        let f = fields(check_dates(Some("2026-11-24"), Some("2026-11-24"), today).unwrap_err());
        assert_eq!(f["from"], "From date cannot be later than today");
        let f = fields(check_dates(Some("2026-11-01"), Some("2026-11-25"), today).unwrap_err());
        assert_eq!(f["to"], "To date cannot be later than tomorrow");
        let f = fields(check_dates(Some("2026-11-10"), Some("2026-11-09"), today).unwrap_err());
        assert_eq!(f["from"], "From date cannot be after To date");
        let f = fields(check_dates(None, Some("yesterday"), today).unwrap_err());
        assert_eq!(f["from"], "From date is required");
        assert_eq!(f["to"], "To date must be a date as YYYY-MM-DD");
        let f = fields(check_dates(Some("1999-12-31"), Some("2026-01-01"), today).unwrap_err());
        assert!(f.contains_key("from"));
    }

    #[test]
    fn ist_days() {
        // 23 Nov 2026 18:29:59 UTC is 23:59:59 IST; a minute later it is the 24th.
        let t = DateTime::parse_from_rfc3339("2026-11-23T18:29:59Z")
            .unwrap()
            .to_utc();
        assert_eq!(today_ist(t), d("2026-11-23"));
        assert_eq!(today_ist(t + chrono::Duration::seconds(1)), d("2026-11-24"));
        assert_eq!(
            day_start(d("2026-11-24")).to_rfc3339(),
            "2026-11-23T18:30:00+00:00"
        );
    }

    #[test]
    fn part_keys_are_deterministic_and_valid_keys() {
        let k = part_key(7, Kind::ApiLogs, d("2026-11-01"), d("2026-11-02"), 3);
        assert_eq!(k, "exports/7/api_logs_2026-11-01_2026-11-02_part3.csv");
        crate::infra::storage::check_key(&k).unwrap();
    }
}
