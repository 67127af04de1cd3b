//! The rows of an export: one query per kind and scope, streamed (never collected), and the CSV
//! they become, with the columns of the screen that lists them (spec part 1 'User Detail';
//! part 2 §2.3 'Wallet transactions'). Exports of more than one user add a User ID column, and
//! the super admin's exports of every partner a Partner ID column.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use futures::stream::BoxStream;
use sqlx::{AssertSqlSafe, PgConnection, Row, postgres::PgRow};

use super::{Job, Kind, Scope, day_start, format};
use crate::money;

/// One exported row, borrowed from the database's row (no copy of its text). Each kind fills
/// the fields its screen shows; the others are NULL.
#[derive(Debug, Clone)]
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
}

impl<'r> Record<'r> {
    /// The columns of [`stream`]'s statement, by position.
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
        })
    }
}

/// The rows of `job`, newest first (as the screens list them), in one statement: Postgres
/// sends them as the stream is read, so memory stays flat whatever the count, and one
/// snapshot means a consistent file.
pub fn stream<'c>(
    conn: &'c mut PgConnection,
    job: &Job,
) -> BoxStream<'c, Result<PgRow, sqlx::Error>> {
    let (select, owner) = match job.kind {
        Kind::ApiTransactions => (
            "SELECT t.created_at, t.partner_id, t.user_id, t.pid, t.service AS label, t.status_code, t.user_amount_paise AS amount_paise,
                    t.remaining_paise AS balance_paise, t.amount_type AS entry_type, NULL::text AS wallet
               FROM api_transactions t",
            "t",
        ),
        Kind::ProductTransactions => (
            "SELECT t.created_at, t.partner_id, t.user_id, t.pid, t.product AS label, t.status_code, t.user_amount_paise AS amount_paise,
                    t.remaining_paise AS balance_paise, t.amount_type AS entry_type, NULL::text AS wallet
               FROM product_transactions t",
            "t",
        ),
        Kind::ApiLogs => (
            "SELECT t.created_at, t.partner_id, t.user_id, t.pid, t.service AS label, t.status_code, t.amount_paise,
                    NULL::bigint AS balance_paise, NULL::text AS entry_type, NULL::text AS wallet
               FROM api_logs t",
            "t",
        ),
        Kind::ProductLogs => (
            "SELECT t.created_at, t.partner_id, t.user_id, NULL::text AS pid, t.description AS label, t.status_code, t.amount_paise,
                    NULL::bigint AS balance_paise, NULL::text AS entry_type, NULL::text AS wallet
               FROM product_logs t",
            "t",
        ),
        Kind::WalletEntries => (
            "SELECT t.created_at, w.partner_id, w.user_id, NULL::text AS pid, NULL::text AS label, NULL::integer AS status_code,
                    t.amount_paise, t.balance_after_paise AS balance_paise, t.type AS entry_type, w.kind AS wallet
               FROM wallet_entries t JOIN wallets w ON w.id = t.wallet_id",
            "w",
        ),
    };
    // Only constants of this function go into the text; every value is bound, in this order.
    let mut sql = format!("{select} WHERE t.created_at >= $1 AND t.created_at < $2");
    match (job.kind, job.scope) {
        (_, Scope::User { .. }) => sql.push_str(&format!(
            " AND {owner}.partner_id = $3 AND {owner}.user_id = $4"
        )),
        // A partner's wallet entries are its own wallets'; its other exports cover all its users.
        (Kind::WalletEntries, Scope::Partner(_)) => {
            sql.push_str(" AND w.partner_id = $3 AND w.user_id IS NULL")
        }
        (_, Scope::Partner(_)) => sql.push_str(&format!(" AND {owner}.partner_id = $3")),
        (Kind::WalletEntries, Scope::AllPartners) => sql.push_str(" AND w.user_id IS NULL"),
        (_, Scope::AllPartners) => {}
    }
    sql.push_str(" ORDER BY t.created_at DESC, t.id DESC");
    let to_end = job
        .to
        .succ_opt()
        .map(day_start)
        .unwrap_or(DateTime::<Utc>::MAX_UTC);
    let mut q = sqlx::query(AssertSqlSafe(sql))
        .persistent(false)
        .bind(day_start(job.from))
        .bind(to_end);
    if let Some(p) = job.scope.partner_id() {
        q = q.bind(p);
    }
    if let Some(u) = job.scope.user_id() {
        q = q.bind(u);
    }
    q.fetch(conn)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Number,
    Date,
    PartnerId,
    UserId,
    Pid,
    Services,
    Description,
    Wallet,
    StatusCode,
    Amount,
    Balance,
    Type,
}

impl Column {
    fn header(self) -> &'static str {
        match self {
            Column::Number => "#",
            Column::Date => "Date",
            Column::PartnerId => "Partner ID",
            Column::UserId => "User ID",
            Column::Pid => "PID",
            Column::Services => "Services",
            Column::Description => "Description",
            Column::Wallet => "Wallet",
            Column::StatusCode => "Status Code",
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
    pub fn of(kind: Kind, scope: Scope) -> Layout {
        use Column::*;
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
            cols.push(UserId);
        }
        cols.extend_from_slice(match kind {
            Kind::ApiTransactions | Kind::ProductTransactions => {
                &[Pid, Services, Amount, Balance, Type]
            }
            Kind::ApiLogs => &[Services, StatusCode, Amount],
            Kind::ProductLogs => &[Description, StatusCode, Amount],
            Kind::WalletEntries => &[Wallet, Type, Amount, Balance],
        });
        Layout(cols)
    }

    pub fn headers(&self) -> Vec<&'static str> {
        self.0.iter().map(|c| c.header()).collect()
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
        }
    }

    #[test]
    fn csv_bytes_quote_defuse_and_format() {
        let mut w = RowWriter::new(Layout::of(Kind::ApiTransactions, Scope::Partner(3)));
        w.header().unwrap();
        w.row(1, &rec()).unwrap();
        let bytes = w.take().unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        assert_eq!(
            text,
            "\u{feff}#,Date,User ID,PID,Services,Amount,Balance,Type\n\
             1,Mon Jan 15 2024 10:30:00,42,\"'=HYPERLINK(\"\"http://x\"\")\",\"pan, \"\"verify\"\"\nline two\",\"₹1,23,456.78\",NA,Credit\n"
        );
        assert_eq!(w.buffered(), 0);
    }

    #[test]
    fn layouts_per_scope() {
        assert_eq!(
            Layout::of(
                Kind::ApiLogs,
                Scope::User {
                    partner_id: 1,
                    user_id: 2
                }
            )
            .headers(),
            ["#", "Date", "Services", "Status Code", "Amount"]
        );
        assert_eq!(
            Layout::of(Kind::ProductLogs, Scope::AllPartners).headers(),
            [
                "#",
                "Date",
                "Partner ID",
                "User ID",
                "Description",
                "Status Code",
                "Amount"
            ]
        );
        assert_eq!(
            Layout::of(Kind::WalletEntries, Scope::Partner(1)).headers(),
            ["#", "Date", "Wallet", "Type", "Amount", "Balance"]
        );
        assert_eq!(
            Layout::of(Kind::WalletEntries, Scope::AllPartners).headers(),
            [
                "#",
                "Date",
                "Partner ID",
                "Wallet",
                "Type",
                "Amount",
                "Balance"
            ]
        );
    }
}
