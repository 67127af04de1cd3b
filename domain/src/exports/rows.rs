//! The rows of an export: one query per kind and scope, streamed (never collected), and the CSV
//! they become, with the columns of the screen that lists them (spec part 1 'User Detail';
//! part 2 §2.3 'Wallet transactions') and what a reader needs to check the money: each row's
//! Status and Transaction ID, and who it belongs to. Exports of more than one user add User
//! ID and Email columns, and the super admin's exports of every partner a Partner ID column.
//!
//! A file holds what its screen shows (issue 23): the filter panel's fields, the side of the
//! money (the users' or the partner's), a refunded call at its net ₹0 with the balance after
//! its refund, and for one user's transactions on User Detail the wallet's ledger, where a
//! manual credit, a deduction and a refund are rows of their own.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use futures::stream::BoxStream;
use sqlx::{PgConnection, Postgres, QueryBuilder, Row, postgres::PgRow};

use super::{Job, Kind, Scope, Side, format};
use crate::money;
use crate::wallets::transactions::{Filter, PartnerFilter};

/// One exported row, borrowed from the database's row (no copy of its text). Each kind fills
/// the fields its screen shows; the others are NULL.
#[derive(Debug, Clone, Default)]
pub struct Record<'r> {
    pub created_at: DateTime<Utc>,
    pub partner_id: i64,
    pub user_id: Option<i64>,
    pub pid: Option<&'r str>,
    /// The service, product or description.
    pub label: Option<&'r str>,
    pub status_code: Option<i32>,
    pub amount_paise: i64,
    pub balance_paise: Option<i64>,
    /// `credit` or `debit`.
    pub entry_type: Option<&'r str>,
    /// `api` or `product` (wallet entries).
    pub wallet: Option<&'r str>,
    pub email: Option<&'r str>,
    /// The gateway transaction or the purchase.
    pub transaction_id: Option<i64>,
    /// `pending`, `success`, `failed`, `refunded`, or `refund` for the credit that reversed a
    /// call (ledgers).
    pub status: Option<&'r str>,
}

impl<'r> Record<'r> {
    /// The columns of [`query`]'s statement, by position.
    pub fn from_row(row: &'r PgRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            created_at: row.try_get(0)?,
            partner_id: row.try_get(1)?,
            user_id: row.try_get(2)?,
            pid: row.try_get(3)?,
            label: row.try_get(4)?,
            status_code: row.try_get(5)?,
            amount_paise: row.try_get(6)?,
            balance_paise: row.try_get(7)?,
            entry_type: row.try_get(8)?,
            wallet: row.try_get(9)?,
            email: row.try_get(10)?,
            transaction_id: row.try_get(11)?,
            status: row.try_get(12)?,
        })
    }
}

/// The select list of a kind's rows, with `t` the table and `u` its user (constant SQL). Money
/// is `side`'s, and a refunded call nets to zero.
fn select(kind: Kind, side: Side, ledger: bool) -> &'static str {
    match (kind, side, ledger) {
        // One user's wallet ledger: every entry, with the call or purchase it names. Manual
        // entries read as the screen's 'Manual credit' / 'Manual debit'.
        (Kind::ApiTransactions, _, true) => {
            "SELECT t.created_at, w.partner_id, w.user_id, c.pid,
                    CASE WHEN t.reason = 'manual' THEN CASE WHEN t.type = 'credit' THEN 'Manual credit' ELSE 'Manual debit' END
                         ELSE COALESCE(c.service, t.reference) END AS label,
                    c.status_code, t.amount_paise, t.balance_after_paise, t.type, NULL::text, NULL::text, c.id,
                    CASE WHEN t.reason = 'refund' THEN 'refund' ELSE c.status END
               FROM wallet_entries t JOIN wallets w ON w.id = t.wallet_id AND w.kind = 'api'
               LEFT JOIN api_transactions c ON t.reason IN ('api_call', 'refund') AND c.user_id = w.user_id
                     AND c.id = CASE WHEN t.reference ~ '^TXN[0-9]{1,18}$' THEN substring(t.reference FROM 4)::bigint END
              WHERE true"
        }
        (Kind::ProductTransactions, _, true) => {
            "SELECT t.created_at, w.partner_id, w.user_id, c.pid,
                    CASE WHEN t.reason = 'manual' THEN CASE WHEN t.type = 'credit' THEN 'Manual credit' ELSE 'Manual debit' END
                         ELSE COALESCE(c.product, t.reference) END AS label,
                    c.status_code, t.amount_paise, t.balance_after_paise, t.type, NULL::text, NULL::text, c.id,
                    CASE WHEN c.id IS NULL THEN NULL ELSE 'success' END
               FROM wallet_entries t JOIN wallets w ON w.id = t.wallet_id AND w.kind = 'product'
               LEFT JOIN LATERAL (SELECT p.id, p.pid, p.product, p.status_code FROM product_transactions p
                                   WHERE t.reason = 'product' AND p.partner_id = w.partner_id AND p.user_id = w.user_id
                                     AND p.pid = t.reference ORDER BY p.id LIMIT 1) c ON true
              WHERE true"
        }
        (Kind::ApiTransactions, Side::User, false) => {
            "SELECT t.created_at, t.partner_id, t.user_id, t.pid, t.service, t.status_code,
                    CASE WHEN t.status = 'refunded' THEN 0 ELSE t.user_amount_paise END, t.remaining_paise,
                    t.amount_type, NULL::text, u.email::text, t.id, t.status
               FROM api_transactions t JOIN end_users u ON u.id = t.user_id WHERE true"
        }
        (Kind::ApiTransactions, Side::Partner, false) => {
            "SELECT t.created_at, t.partner_id, t.user_id, t.pid, t.service, t.status_code,
                    CASE WHEN t.status = 'refunded' THEN 0 ELSE t.amount_paise END, t.partner_remaining_paise,
                    t.amount_type, NULL::text, u.email::text, t.id, t.status
               FROM api_transactions t JOIN end_users u ON u.id = t.user_id WHERE true"
        }
        (Kind::ProductTransactions, Side::User, false) => {
            "SELECT t.created_at, t.partner_id, t.user_id, t.pid, t.product, t.status_code, t.user_amount_paise,
                    t.remaining_paise, t.amount_type, NULL::text, u.email::text, t.id, 'success'
               FROM product_transactions t JOIN end_users u ON u.id = t.user_id WHERE true"
        }
        (Kind::ProductTransactions, Side::Partner, false) => {
            "SELECT t.created_at, t.partner_id, t.user_id, t.pid, t.product, t.status_code, t.amount_paise,
                    t.partner_remaining_paise, t.amount_type, NULL::text, u.email::text, t.id, 'success'
               FROM product_transactions t JOIN end_users u ON u.id = t.user_id WHERE true"
        }
        (Kind::ApiLogs, ..) => {
            "SELECT t.created_at, t.partner_id, t.user_id, t.pid, t.service, t.status_code, t.amount_paise,
                    NULL::bigint, NULL::text, NULL::text, u.email::text, t.transaction_id, NULL::text
               FROM api_logs t JOIN end_users u ON u.id = t.user_id WHERE true"
        }
        (Kind::ProductLogs, ..) => {
            "SELECT t.created_at, t.partner_id, t.user_id, NULL::text, t.description, t.status_code, t.amount_paise,
                    NULL::bigint, NULL::text, NULL::text, u.email::text, NULL::bigint, NULL::text
               FROM product_logs t JOIN end_users u ON u.id = t.user_id WHERE true"
        }
        (Kind::WalletEntries, ..) => {
            "SELECT t.created_at, w.partner_id, w.user_id, NULL::text, NULL::text, NULL::integer,
                    t.amount_paise, t.balance_after_paise, t.type, w.kind, NULL::text, NULL::bigint, NULL::text
               FROM wallet_entries t JOIN wallets w ON w.id = t.wallet_id WHERE true"
        }
    }
}

/// Whether `job` exports a user's wallet ledger (only one user's transactions can be).
fn is_ledger(job: &Job) -> bool {
    job.view.ledger
        && matches!(job.kind, Kind::ApiTransactions | Kind::ProductTransactions)
        && matches!(job.scope, Scope::User { .. })
}

/// The statement of `job`'s rows, newest first (as the screens list them): its days (IST), its
/// scope and its screen's filter, every value bound.
pub fn query(job: &Job) -> QueryBuilder<Postgres> {
    let ledger = is_ledger(job);
    let mut q = QueryBuilder::new(select(job.kind, job.view.side, ledger));
    let owner = if ledger || job.kind == Kind::WalletEntries {
        "w"
    } else {
        "t"
    };
    let dates = Filter {
        from: Some(job.from),
        to: Some(job.to),
    };
    dates.push_dates(&mut q, "t.created_at");
    match (job.kind, job.scope) {
        (
            _,
            Scope::User {
                partner_id,
                user_id,
            },
        ) => {
            q.push(format!(" AND {owner}.partner_id = "))
                .push_bind(partner_id);
            q.push(format!(" AND {owner}.user_id = "))
                .push_bind(user_id);
        }
        // A partner's wallet entries are its own wallets'; its other exports cover all its users.
        (Kind::WalletEntries, Scope::Partner(p)) => {
            q.push(" AND w.partner_id = ")
                .push_bind(p)
                .push(" AND w.user_id IS NULL");
        }
        (_, Scope::Partner(p)) => {
            q.push(format!(" AND {owner}.partner_id = ")).push_bind(p);
        }
        (Kind::WalletEntries, Scope::AllPartners) => {
            q.push(" AND w.user_id IS NULL");
        }
        (_, Scope::AllPartners) => {}
    }
    // The wallet-transaction screens' Wallet and Type, and the API logs' Status Code, as their
    // lists apply them (`wallets::entries`, `logs::partner_api_logs`).
    match job.kind {
        Kind::WalletEntries => {
            if let Some(w) = job.view.wallet {
                q.push(" AND w.kind = ").push_bind(w.as_str());
            }
            if let Some(t) = job.view.entry_type {
                q.push(" AND t.type = ").push_bind(t.as_str());
            }
        }
        Kind::ApiLogs => {
            if let Some(code) = job.view.status_code {
                q.push(" AND t.status_code = ").push_bind(code);
            }
        }
        _ => {}
    }
    if !ledger && job.kind != Kind::WalletEntries {
        // The filter panel of the screen, as its list applies it (`PartnerFilter::push`).
        let (pid, service) = match job.kind {
            Kind::ApiTransactions | Kind::ApiLogs => (Some("t.pid"), "t.service"),
            Kind::ProductTransactions => (Some("t.pid"), "t.product"),
            _ => (None, "t.description"),
        };
        PartnerFilter {
            user_id: None,
            email: job.view.email.clone(),
            pid: job.view.pid.clone(),
            service: job.view.services.clone(),
            dates: Filter::default(),
        }
        .push(&mut q, "t.created_at", pid, service);
    }
    q.push(" ORDER BY t.created_at DESC, t.id DESC");
    q
}

/// Streams `query`'s rows in one statement: Postgres sends them as the stream is read, so
/// memory stays flat whatever the count, and one snapshot means a consistent file.
pub fn stream<'c>(
    conn: &'c mut PgConnection,
    query: &'c mut QueryBuilder<Postgres>,
) -> BoxStream<'c, Result<PgRow, sqlx::Error>> {
    query.build().persistent(false).fetch(conn)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Number,
    Date,
    PartnerId,
    UserId,
    Email,
    TransactionId,
    Pid,
    Services,
    Description,
    Wallet,
    StatusCode,
    Status,
    Amount,
    Balance,
    Type,
}

impl Column {
    fn header(self) -> &'static str {
        match self {
            Column::Number => "#",
            Column::Date => "Date (IST)",
            Column::PartnerId => "Partner ID",
            Column::UserId => "User ID",
            Column::Email => "Email",
            Column::TransactionId => "Transaction ID",
            Column::Pid => "PID",
            Column::Services => "Services",
            Column::Description => "Description",
            Column::Wallet => "Wallet",
            Column::StatusCode => "Status Code",
            Column::Status => "Status",
            Column::Amount => "Amount",
            Column::Balance => "Balance",
            Column::Type => "Type",
        }
    }
}

/// The columns of an export, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout(Vec<Column>);

impl Layout {
    pub fn of(job: &Job) -> Layout {
        use Column::*;
        let (kind, scope) = (job.kind, job.scope);
        let mut cols = vec![Number, Date];
        if scope == Scope::AllPartners {
            cols.push(PartnerId);
        }
        // A partner's wallet entries are the partner's own: no user to name.
        let many_users = !matches!(
            (kind, scope),
            (_, Scope::User { .. }) | (Kind::WalletEntries, _)
        );
        if many_users {
            cols.extend_from_slice(&[UserId, Email]);
        }
        cols.extend_from_slice(match kind {
            Kind::ApiTransactions if is_ledger(job) => {
                &[TransactionId, Pid, Services, Status, Amount, Balance, Type]
            }
            Kind::ProductTransactions if is_ledger(job) => {
                &[TransactionId, Pid, Services, Status, Amount, Balance, Type]
            }
            Kind::ApiTransactions => &[
                TransactionId,
                Pid,
                Services,
                StatusCode,
                Status,
                Amount,
                Balance,
                Type,
            ],
            Kind::ProductTransactions => {
                &[TransactionId, Pid, Services, Status, Amount, Balance, Type]
            }
            Kind::ApiLogs => &[TransactionId, Services, StatusCode, Amount],
            Kind::ProductLogs => &[Description, StatusCode, Amount],
            Kind::WalletEntries => &[Wallet, Type, Amount, Balance],
        });
        Layout(cols)
    }

    pub fn headers(&self) -> Vec<&'static str> {
        self.0.iter().map(|c| c.header()).collect()
    }
}

/// The words of a status, as the screens show them.
fn status_text(status: &str) -> &str {
    match status {
        "success" => "Success",
        "refunded" => "Refunded",
        "pending" => "Pending",
        "failed" => "Failed",
        "refund" => "Refund",
        other => other,
    }
}

/// Writes rows as CSV into a buffer the caller drains ([`RowWriter::take`]) as it fills.
pub struct RowWriter {
    layout: Layout,
    csv: csv::Writer<Sink>,
    out: Arc<Mutex<Vec<u8>>>,
    cell: String,
}

/// The CSV writer's output. `csv::Writer` lends its writer only by shared reference, so the
/// buffer is shared with [`RowWriter`], which drains it; the lock is taken once per 8 KiB the
/// writer flushes, never per row.
struct Sink(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The UTF-8 byte order mark: without it, spreadsheets read '₹' as three odd characters.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

impl RowWriter {
    pub fn new(layout: Layout) -> Self {
        // Quote a field only when it needs it (commas, quotes, newlines); quotes are doubled.
        let out = Arc::new(Mutex::new(Vec::with_capacity(256 * 1024)));
        let csv = csv::WriterBuilder::new()
            .quote_style(csv::QuoteStyle::Necessary)
            .from_writer(Sink(out.clone()));
        Self {
            layout,
            csv,
            out,
            cell: String::with_capacity(64),
        }
    }

    /// Starts a file: the byte order mark and the header row.
    pub fn header(&mut self) -> csv::Result<()> {
        self.csv.flush()?;
        self.buffer().extend_from_slice(BOM);
        self.csv.write_record(self.layout.headers())
    }

    /// Row `n` (the running number of the whole export, from 1).
    pub fn row(&mut self, n: u64, r: &Record<'_>) -> csv::Result<()> {
        for i in 0..self.layout.0.len() {
            let col = self.layout.0[i];
            self.cell.clear();
            let c = &mut self.cell;
            match col {
                Column::Number => format::number(c, n),
                Column::Date => format::date(c, r.created_at),
                Column::PartnerId => format::number(c, r.partner_id as u64),
                Column::UserId => match r.user_id {
                    Some(u) => format::number(c, u as u64),
                    None => c.push('_'),
                },
                Column::Email => match r.email {
                    Some(e) if !e.is_empty() => format::text(c, e),
                    _ => c.push('_'),
                },
                Column::TransactionId => match r.transaction_id {
                    Some(t) => format::number(c, t.max(0) as u64),
                    None => c.push('_'),
                },
                Column::Status => match r.status {
                    Some(st) => format::text(c, status_text(st)),
                    None => c.push('_'),
                },
                Column::Pid => match r.pid {
                    Some(p) if !p.is_empty() => format::text(c, p),
                    _ => c.push('_'),
                },
                Column::Services | Column::Description => format::text(c, r.label.unwrap_or("")),
                Column::Wallet => c.push_str(match r.wallet {
                    Some("api") => "API",
                    Some("product") => "Product",
                    _ => "_",
                }),
                Column::StatusCode => match r.status_code {
                    Some(s) => format::number(c, s.max(0) as u64),
                    None => c.push_str("Pending"),
                },
                Column::Amount => money::write_rupees(c, r.amount_paise),
                // The screens show 'NA' for a balance that was not recorded.
                Column::Balance => match r.balance_paise {
                    Some(b) => money::write_rupees(c, b),
                    None => c.push_str("NA"),
                },
                Column::Type => c.push_str(if r.entry_type == Some("credit") {
                    "Credit"
                } else {
                    "Debit"
                }),
            }
            self.csv.write_field(self.cell.as_bytes())?;
        }
        self.csv.write_record(None::<&[u8]>)
    }

    fn buffer(&self) -> std::sync::MutexGuard<'_, Vec<u8>> {
        self.out.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Bytes handed to the buffer since the last `take` (the CSV writer may hold up to 8 KiB
    /// more until it flushes).
    pub fn buffered(&self) -> usize {
        self.buffer().len()
    }

    /// Drains what has been written so far.
    pub fn take(&mut self) -> csv::Result<Vec<u8>> {
        self.csv.flush()?;
        Ok(std::mem::replace(
            &mut *self.buffer(),
            Vec::with_capacity(256 * 1024),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec() -> Record<'static> {
        Record {
            created_at: DateTime::parse_from_rfc3339("2024-01-15T05:00:00Z")
                .unwrap()
                .to_utc(),
            partner_id: 3,
            user_id: Some(42),
            pid: Some("=HYPERLINK(\"http://x\")"),
            label: Some("pan, \"verify\"\nline two"),
            status_code: Some(200),
            amount_paise: 12_345_678,
            balance_paise: None,
            entry_type: Some("credit"),
            wallet: None,
            email: Some("a@b.in"),
            transaction_id: Some(77),
            status: Some("refunded"),
        }
    }

    fn job(kind: Kind, scope: Scope, ledger: bool) -> Job {
        let day = chrono::NaiveDate::from_ymd_opt(2024, 1, 15).unwrap();
        Job {
            id: 1,
            kind,
            scope,
            from: day,
            to: day,
            view: super::super::View {
                ledger,
                ..Default::default()
            },
            earlier_parts: 0,
        }
    }

    const ONE: Scope = Scope::User {
        partner_id: 1,
        user_id: 2,
    };

    #[test]
    fn csv_bytes_quote_defuse_and_format() {
        let mut w = RowWriter::new(Layout::of(&job(
            Kind::ApiTransactions,
            Scope::Partner(3),
            false,
        )));
        w.header().unwrap();
        w.row(1, &rec()).unwrap();
        let bytes = w.take().unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        assert_eq!(
            text,
            "\u{feff}#,Date (IST),User ID,Email,Transaction ID,PID,Services,Status Code,Status,Amount,Balance,Type\n\
             1,Mon Jan 15 2024 10:30:00,42,a@b.in,77,\"'=HYPERLINK(\"\"http://x\"\")\",\"pan, \"\"verify\"\"\nline two\",200,Refunded,\"₹1,23,456.78\",NA,Credit\n"
        );
        assert_eq!(w.buffered(), 0);
    }

    #[test]
    fn layouts_per_scope() {
        let headers = |kind, scope, ledger| Layout::of(&job(kind, scope, ledger)).headers();
        assert_eq!(
            headers(Kind::ApiLogs, ONE, false),
            [
                "#",
                "Date (IST)",
                "Transaction ID",
                "Services",
                "Status Code",
                "Amount"
            ]
        );
        assert_eq!(
            headers(Kind::ApiTransactions, ONE, true),
            [
                "#",
                "Date (IST)",
                "Transaction ID",
                "PID",
                "Services",
                "Status",
                "Amount",
                "Balance",
                "Type"
            ]
        );
        // Only one user's transactions are a ledger.
        assert_eq!(
            headers(Kind::ProductTransactions, Scope::Partner(1), true),
            [
                "#",
                "Date (IST)",
                "User ID",
                "Email",
                "Transaction ID",
                "PID",
                "Services",
                "Status",
                "Amount",
                "Balance",
                "Type"
            ]
        );
        assert_eq!(
            headers(Kind::ProductLogs, Scope::AllPartners, false),
            [
                "#",
                "Date (IST)",
                "Partner ID",
                "User ID",
                "Email",
                "Description",
                "Status Code",
                "Amount"
            ]
        );
        assert_eq!(
            headers(Kind::WalletEntries, Scope::Partner(1), false),
            ["#", "Date (IST)", "Wallet", "Type", "Amount", "Balance"]
        );
        assert_eq!(
            headers(Kind::WalletEntries, Scope::AllPartners, false),
            [
                "#",
                "Date (IST)",
                "Partner ID",
                "Wallet",
                "Type",
                "Amount",
                "Balance"
            ]
        );
    }
}
