//! Batch verification (issue 13): a CSV of inputs for one API, submitted from the portal or with
//! an API key, run row by row by the `run_batch` job through the gateway's own checks and
//! charging (`gateway`, `gateway::call`, `wallets::charge`).
//!
//! A row moves `pending` → `charged` → `success` | `failed` (or `pending` → `failed` when a check
//! refuses it, nothing charged). Each move is written in the transaction that moves its money,
//! and the charge carries the idempotency key `batch:{id}:{row}`: a job killed at any point and
//! resumed, or run twice at once, charges every row at most once. A resumed `charged` row is
//! called again and settled; its one transaction keeps the charge only on success.

use std::net::IpAddr;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Error, Result,
    infra::paging::{List, Page, PageRequest},
    money, webhooks,
};

/// Rows one batch may hold.
pub const MAX_ROWS: usize = 10_000;
/// The largest file accepted (the api's body limit for the upload routes).
pub const MAX_FILE_BYTES: usize = 2 * 1024 * 1024;

/// A batch as its owner sees it: progress while it runs, totals when it ends.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Batch {
    pub id: i64,
    pub service: String,
    /// Every row answered by the catalogue's sample (a sandbox key or mode, or Test api).
    pub sandbox: bool,
    pub file_name: String,
    /// `queued`, `running`, `completed` or `failed`.
    pub status: String,
    pub total_rows: i32,
    /// Rows finished, charged or not.
    pub done_rows: i32,
    /// Rows that succeeded and were charged.
    pub charged_rows: i32,
    /// Rows refused by a check, short of balance, or whose upstream failed (not charged).
    pub failed_rows: i32,
    /// What the user paid for the batch so far.
    pub charged_paise: i64,
    /// The `run_batch` job (`GET /api/v1/jobs/{id}`).
    pub job_id: Option<String>,
    pub error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

const COLUMNS: &str = "id, service, sandbox, file_name, status, total_rows, done_rows, charged_rows, failed_rows, charged_paise,
                       job_id, error, created_at, finished_at";

/// A submitted file, read: its columns and one JSON object per row (blank cells left out).
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub columns: Vec<String>,
    pub rows: Vec<serde_json::Map<String, serde_json::Value>>,
}

/// Reads a CSV whose first line names the API's input fields. Refused with a message on
/// `file`: not UTF-8, not strict CSV (an unbalanced quote, a row of another width than the
/// header: `infra::spreadsheet::read_strict`, naming the line), no header, a blank or repeated
/// column name, a required field without a column, no rows, more than [`MAX_ROWS`].
pub fn parse(bytes: &[u8], required: &[String]) -> Result<Parsed> {
    let bad = |m: String| Error::invalid("file", m);
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Error::TooLarge("The file is larger than 2 MB".into()));
    }
    let text =
        std::str::from_utf8(bytes).map_err(|_| bad("The file is not a UTF-8 CSV file".into()))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = crate::infra::spreadsheet::read_strict(text)
        .map_err(|e| bad(e.0))?
        .into_iter();
    let columns: Vec<String> = records
        .next()
        .map(|r| r.cells.iter().map(|h| h.trim().to_owned()).collect())
        .unwrap_or_default();
    if columns.iter().all(String::is_empty) {
        return Err(bad("The first row must name the columns".into()));
    }
    if columns.iter().any(String::is_empty) {
        return Err(bad("Every column needs a name in the first row".into()));
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = columns.iter().find(|c| !seen.insert(c.as_str())) {
        return Err(bad(format!("The column {dup} appears twice")));
    }
    let missing: Vec<&str> = required
        .iter()
        .filter(|r| !columns.contains(r))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Err(bad(format!(
            "The file has no column for: {}",
            missing.join(", ")
        )));
    }
    let mut rows = Vec::new();
    // The strict reader has refused unbalanced quotes and rows of another width already.
    for record in records {
        let record = record.cells;
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        if rows.len() == MAX_ROWS {
            return Err(bad("A batch holds at most 10,000 rows".into()));
        }
        let row: serde_json::Map<String, serde_json::Value> = columns
            .iter()
            .zip(record.iter())
            .filter(|(_, v)| !v.trim().is_empty())
            .map(|(c, v)| (c.clone(), serde_json::Value::String(v.trim().to_owned())))
            .collect();
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(bad("The file has no rows".into()));
    }
    Ok(Parsed { columns, rows })
}

pub struct NewBatch<'a> {
    pub partner_id: i64,
    pub user_id: i64,
    pub key_id: Option<i64>,
    pub service: &'a str,
    pub sandbox: bool,
    pub ip: IpAddr,
    pub file_name: &'a str,
}

/// Writes the batch and its rows on `conn` (the caller's transaction, which also enqueues the
/// job and records it with [`set_job`]).
pub async fn create(conn: &mut PgConnection, b: &NewBatch<'_>, parsed: &Parsed) -> Result<i64> {
    let file_name: String = b.file_name.trim().chars().take(200).collect();
    if !crate::infra::text::is_single_line(&file_name) {
        return Err(Error::invalid(
            "file_name",
            "File name contains invalid characters",
        ));
    }
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO batches (partner_id, user_id, key_id, service, sandbox, ip, file_name, columns, total_rows)
         VALUES ($1, $2, $3, $4, $5, $6::inet, $7, $8, $9) RETURNING id",
    )
    .bind(b.partner_id)
    .bind(b.user_id)
    .bind(b.key_id)
    .bind(b.service)
    .bind(b.sandbox)
    .bind(b.ip.to_string())
    .bind(&file_name)
    .bind(&parsed.columns)
    .bind(i32::try_from(parsed.rows.len()).unwrap_or(i32::MAX))
    .fetch_one(&mut *conn)
    .await?;
    let inputs: Vec<serde_json::Value> = parsed
        .rows
        .iter()
        .cloned()
        .map(serde_json::Value::Object)
        .collect();
    sqlx::query("INSERT INTO batch_rows (batch_id, row_no, input) SELECT $1, n, input FROM UNNEST($2::jsonb[]) WITH ORDINALITY AS x(input, n)")
        .bind(id)
        .bind(&inputs)
        .execute(&mut *conn)
        .await?;
    Ok(id)
}

pub async fn job_id(conn: &mut PgConnection, id: i64) -> Result<Option<String>> {
    Ok(
        sqlx::query_scalar("SELECT job_id FROM batches WHERE id = $1")
            .bind(id)
            .fetch_optional(conn)
            .await?
            .flatten(),
    )
}

pub async fn set_job(conn: &mut PgConnection, id: i64, job_id: &str) -> Result<()> {
    sqlx::query("UPDATE batches SET job_id = $2 WHERE id = $1")
        .bind(id)
        .bind(job_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The user's batches, newest first.
pub async fn list(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    page: PageRequest,
) -> Result<Page<Batch>> {
    List {
        columns: COLUMNS,
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM batches WHERE partner_id = ")
                .push_bind(partner_id)
                .push(" AND user_id = ")
                .push_bind(user_id);
        },
        order_by: "id DESC",
    }
    .fetch(conn, page)
    .await
}

/// One of the user's batches; anyone else's is `NotFound`.
pub async fn find(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    id: i64,
) -> Result<Batch> {
    // COLUMNS is a constant of this module.
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM batches WHERE id = $1 AND partner_id = $2 AND user_id = $3"
    )))
    .bind(id)
    .bind(partner_id)
    .bind(user_id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

/// What the job needs to run a batch.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Run {
    pub id: i64,
    pub partner_id: i64,
    pub user_id: i64,
    pub key_id: Option<i64>,
    pub service: String,
    pub sandbox: bool,
    #[sqlx(try_from = "String")]
    pub ip: Ip,
    pub status: String,
}

/// An address read back from an `inet` column as text.
#[derive(Debug, Clone, Copy)]
pub struct Ip(pub IpAddr);

impl TryFrom<String> for Ip {
    type Error = std::net::AddrParseError;
    fn try_from(s: String) -> std::result::Result<Self, Self::Error> {
        s.parse().map(Ip)
    }
}

pub async fn run_of(conn: &mut PgConnection, id: i64) -> Result<Option<Run>> {
    Ok(sqlx::query_as("SELECT id, partner_id, user_id, key_id, service, sandbox, host(ip) AS ip, status FROM batches WHERE id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await?)
}

/// Marks the batch running (a resumed one stays running).
pub async fn start(conn: &mut PgConnection, id: i64) -> Result<()> {
    sqlx::query(
        "UPDATE batches SET status = 'running' WHERE id = $1 AND status IN ('queued', 'running')",
    )
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Ends the batch: `completed` once every row is done, else `failed` with `error`.
/// The first time only, a `batch.completed` event carries the batch to the user's endpoints.
pub async fn finish(conn: &mut PgConnection, id: i64, error: Option<&str>) -> Result<()> {
    let mut tx = sqlx::Connection::begin(conn).await?;
    let owner: Option<(i64, i64)> = sqlx::query_as(
        "UPDATE batches SET status = CASE WHEN $2::text IS NULL THEN 'completed' ELSE 'failed' END, error = $2, finished_at = now()
          WHERE id = $1 AND status IN ('queued', 'running') RETURNING partner_id, user_id",
    )
    .bind(id)
    .bind(error)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some((partner_id, user_id)) = owner {
        let batch = find(&mut tx, partner_id, user_id, id).await?;
        let data = serde_json::to_value(&batch).map_err(|e| Error::Other(e.into()))?;
        webhooks::emit(
            &mut tx,
            webhooks::Owner::user(partner_id, user_id),
            webhooks::BATCH_COMPLETED,
            data,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A row still to run: `pending`, or `charged` by a run that stopped before it settled.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OpenRow {
    pub row_no: i32,
    pub input: sqlx::types::Json<serde_json::Map<String, serde_json::Value>>,
    pub status: String,
    pub transaction_id: Option<i64>,
}

/// The next open rows after `after`, in file order.
pub async fn open_rows(
    conn: &mut PgConnection,
    id: i64,
    after: i32,
    limit: i64,
) -> Result<Vec<OpenRow>> {
    Ok(sqlx::query_as(
        "SELECT row_no, input, status, transaction_id FROM batch_rows
          WHERE batch_id = $1 AND row_no > $2 AND status IN ('pending', 'charged') ORDER BY row_no LIMIT $3",
    )
    .bind(id)
    .bind(after)
    .bind(limit)
    .fetch_all(conn)
    .await?)
}

/// The idempotency key of a row's charge.
pub fn charge_key(batch_id: i64, row_no: i32) -> String {
    format!("batch:{batch_id}:{row_no}")
}

/// Records the row's charge, on the transaction that made it.
pub async fn mark_charged(
    conn: &mut PgConnection,
    batch_id: i64,
    row_no: i32,
    transaction_id: i64,
) -> Result<()> {
    sqlx::query("UPDATE batch_rows SET status = 'charged', transaction_id = $3 WHERE batch_id = $1 AND row_no = $2 AND status = 'pending'")
        .bind(batch_id)
        .bind(row_no)
        .bind(transaction_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// How a row ended.
#[derive(Debug, Clone)]
pub struct RowEnd {
    pub success: bool,
    pub status_code: i32,
    pub transaction_id: Option<i64>,
    pub charged_paise: i64,
    pub response: Option<serde_json::Value>,
    pub error: Option<String>,
}

/// Ends an open row and counts it on its batch, once: a row already ended (by a twin run) is
/// left as it is.
pub async fn end_row(
    conn: &mut PgConnection,
    batch_id: i64,
    row_no: i32,
    end: &RowEnd,
) -> Result<()> {
    let ended = sqlx::query(
        "UPDATE batch_rows SET status = $3, status_code = $4, transaction_id = COALESCE($5, transaction_id), charged_paise = $6,
                response = $7, error = $8
          WHERE batch_id = $1 AND row_no = $2 AND status IN ('pending', 'charged')",
    )
    .bind(batch_id)
    .bind(row_no)
    .bind(if end.success { "success" } else { "failed" })
    .bind(end.status_code)
    .bind(end.transaction_id)
    .bind(end.charged_paise)
    .bind(&end.response)
    .bind(&end.error)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if ended == 1 {
        sqlx::query(
            "UPDATE batches SET done_rows = done_rows + 1, charged_rows = charged_rows + $2::int, failed_rows = failed_rows + (1 - $2::int),
                    charged_paise = charged_paise + $3
              WHERE id = $1",
        )
        .bind(batch_id)
        .bind(i32::from(end.success))
        .bind(end.charged_paise)
        .execute(conn)
        .await?;
    }
    Ok(())
}

/// A settled transaction's status and what its user paid (the amount kept, if it succeeded).
pub async fn transaction_kept(conn: &mut PgConnection, transaction_id: i64) -> Result<(bool, i64)> {
    let (status, user_amount): (String, i64) =
        sqlx::query_as("SELECT status, user_amount_paise FROM api_transactions WHERE id = $1")
            .bind(transaction_id)
            .fetch_one(conn)
            .await?;
    Ok(if status == "success" {
        (true, user_amount)
    } else {
        (false, 0)
    })
}

#[derive(Debug, Clone, sqlx::FromRow)]
struct ResultRow {
    row_no: i32,
    input: sqlx::types::Json<serde_json::Map<String, serde_json::Value>>,
    status: String,
    status_code: Option<i32>,
    transaction_id: Option<i64>,
    charged_paise: i64,
    response: Option<serde_json::Value>,
    error: Option<String>,
}

/// The result file: the input columns, then each row's status, status code, transaction,
/// amount charged, and the answer (JSON) or the error.
pub async fn result_csv(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    id: i64,
) -> Result<Vec<u8>> {
    let columns: Vec<String> = sqlx::query_scalar(
        "SELECT columns FROM batches WHERE id = $1 AND partner_id = $2 AND user_id = $3",
    )
    .bind(id)
    .bind(partner_id)
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or(Error::NotFound)?;
    let rows: Vec<ResultRow> = sqlx::query_as(
        "SELECT row_no, input, status, status_code, transaction_id, charged_paise, response, error
           FROM batch_rows WHERE batch_id = $1 ORDER BY row_no",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["Row".to_owned()];
    header.extend(columns.iter().cloned());
    header.extend(
        [
            "Status",
            "Status Code",
            "Transaction ID",
            "Amount Charged",
            "Result",
        ]
        .map(String::from),
    );
    // Column names and cells are the user's text: neutralised like every CSV the platform writes.
    let safe = |v: &str| crate::infra::spreadsheet::cell(v).into_owned();
    let header: Vec<String> = header.iter().map(|h| safe(h)).collect();
    w.write_record(&header).map_err(anyhow::Error::from)?;
    for r in rows {
        let mut rec = vec![r.row_no.to_string()];
        rec.extend(columns.iter().map(|c| {
            r.input
                .get(c)
                .and_then(|v| v.as_str())
                .unwrap_or("")
                .to_owned()
        }));
        let status = match r.status.as_str() {
            "success" => "Success",
            "failed" => "Failed",
            _ => "Pending",
        };
        let mut amount = String::new();
        money::write_rupees(&mut amount, r.charged_paise);
        rec.push(status.to_owned());
        rec.push(r.status_code.map(|c| c.to_string()).unwrap_or_default());
        rec.push(r.transaction_id.map(|t| t.to_string()).unwrap_or_default());
        rec.push(amount);
        rec.push(match (r.response, r.error) {
            (_, Some(e)) => e,
            (Some(v), None) => v.to_string(),
            (None, None) => String::new(),
        });
        w.write_record(rec.iter().map(|c| safe(c)))
            .map_err(anyhow::Error::from)?;
    }
    Ok(w.into_inner()
        .map_err(|e| anyhow::anyhow!("writing the result file: {e}"))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(fields: &[&str]) -> Vec<String> {
        fields.iter().map(|f| (*f).to_owned()).collect()
    }

    #[test]
    fn rows_become_objects_without_blank_cells() {
        let p = parse(
            "\u{feff}id_number, name\nABCDE1234F,Asha\n,\n X1 ,\n".as_bytes(),
            &req(&["id_number"]),
        )
        .unwrap();
        assert_eq!(p.columns, ["id_number", "name"]);
        assert_eq!(p.rows.len(), 2, "the blank line is skipped");
        assert_eq!(
            serde_json::Value::Object(p.rows[0].clone()),
            serde_json::json!({"id_number": "ABCDE1234F", "name": "Asha"})
        );
        assert_eq!(
            serde_json::Value::Object(p.rows[1].clone()),
            serde_json::json!({"id_number": "X1"})
        );
    }

    #[test]
    fn bad_files_are_refused_naming_the_problem() {
        let msg = |b: &str, r: &[&str]| match parse(b.as_bytes(), &req(r)) {
            Err(Error::Invalid { fields, .. }) => fields["file"].clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            msg("name\nAsha\n", &["id_number"]),
            "The file has no column for: id_number"
        );
        assert_eq!(msg("id_number\n", &["id_number"]), "The file has no rows");
        assert_eq!(
            msg("id_number,,x\n1,2,3\n", &[]),
            "Every column needs a name in the first row"
        );
        assert_eq!(msg("a,a\n1,2\n", &[]), "The column a appears twice");
        assert_eq!(
            msg("a\n1,2\n", &[]),
            "Row 2 has 2 cells but the file has 1 columns"
        );
        assert!(matches!(
            parse(&[0xff, 0xfe, 0x00], &[]),
            Err(Error::Invalid { .. })
        ));
        let many = format!("a\n{}", "1\n".repeat(MAX_ROWS + 1));
        assert_eq!(msg(&many, &[]), "A batch holds at most 10,000 rows");
    }
}
