//! TruBank: manual bank-statement verification (spec part 2 §2.6).
//!
//! An end user submits a request through the product API with its API key: a statement it
//! uploaded through a signed link (a PDF under its own folder,
//! `partners/{partner}/users/{user}/statement/…`) and the account summary. The request row, the
//! debits of the user's and the partner's product wallets (at `products::price`) and the
//! product transaction and log are written in one transaction. One upload backs one request:
//! the same file submitted again answers the first request and charges nothing.
//!
//! The partner works through its queue: views the statement (a signed link), then marks the
//! request Verified or Not verified, with an optional file and comment. The decision queues the
//! mail to the user in its own transaction (the payload names the request; the text is built
//! when it is sent).

use chrono::{DateTime, Utc};
use rand::Rng;
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Error, Result,
    catalogue::products,
    error::Violations,
    gateway::Caller,
    infra::audit::{self, Actor},
    infra::paging::{Page, PageRequest},
    infra::queue,
    infra::storage,
    mail::{Email, Mail, SendMail, texts},
    wallets::{self, EntryType, Movement, Owner, Reason, WalletKind},
    webhooks,
};

/// How long the signed links to statements and decision files live; every read signs fresh ones.
pub const LINK_TTL: std::time::Duration = std::time::Duration::from_secs(60 * 60);
const MAX_TEXT: usize = 200;
const MAX_COMMENT: usize = 1000;
const INVALID_FILE: &str = "Invalid file key: upload the file first";

/// The product's own checks on an API-key caller, after the gateway's (key, active user and
/// partner, IP rules): a manual verification is real work for the partner, so it takes a live
/// key and a user with full access, and 'Restrict ALL APIs' holds it back like every API.
pub fn admit(c: &Caller) -> Result<()> {
    if c.key_mode != "live" {
        return Err(Error::Forbidden(
            "Bank statement verification needs a live API key".into(),
        ));
    }
    if !c.full_access {
        return Err(Error::Forbidden(
            "Bank statement verification needs full access".into(),
        ));
    }
    if c.restrict_all_apis {
        return Err(Error::Forbidden(
            "API access is restricted for this account".into(),
        ));
    }
    Ok(())
}

/// Where a request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pending,
    Verified,
    NotVerified,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Verified => "verified",
            Status::NotVerified => "not_verified",
        }
    }

    /// As the screens show it.
    pub fn label(self) -> &'static str {
        match self {
            Status::Pending => "Pending",
            Status::Verified => "Verified",
            Status::NotVerified => "Not verified",
        }
    }

    /// `pending`, `verified`, `not_verified`, or a label ('Not verified'), in any case.
    pub fn parse(s: &str) -> Option<Self> {
        match s
            .trim()
            .to_ascii_lowercase()
            .replace([' ', '-'], "_")
            .as_str()
        {
            "pending" => Some(Status::Pending),
            "verified" => Some(Status::Verified),
            "not_verified" => Some(Status::NotVerified),
            _ => None,
        }
    }
}

impl TryFrom<String> for Status {
    type Error = String;
    fn try_from(s: String) -> std::result::Result<Self, String> {
        Status::parse(&s).ok_or_else(|| format!("unknown request status {s:?}"))
    }
}

/// One request, as the database keeps it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Request {
    pub id: i64,
    pub partner_id: i64,
    pub user_id: i64,
    pub request_id: String,
    pub account_name: String,
    pub account_number: String,
    pub bank_name: String,
    pub file_key: String,
    #[sqlx(try_from = "String")]
    pub status: Status,
    pub comments: Option<String>,
    pub result_file_key: Option<String>,
    pub amount_paise: i64,
    pub user_amount_paise: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub decided_at: Option<DateTime<Utc>>,
}

const COLUMNS: &str = "id, partner_id, user_id, request_id, account_name, account_number, bank_name, file_key, status, comments,
                       result_file_key, amount_paise, user_amount_paise, created_at, updated_at, decided_at";

/// A request as the product API takes it, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    pub account_name: String,
    pub account_number: String,
    pub bank_name: String,
    pub file_key: String,
}

impl Submission {
    /// Every field required. The account number is 6 to 20 digits (spaces are dropped); the
    /// file must be one of this user's own statement uploads.
    pub fn parse(
        partner_id: i64,
        user_id: i64,
        account_name: &str,
        account_number: &str,
        bank_name: &str,
        file_key: &str,
    ) -> Result<Self> {
        let mut v = Violations::new();
        let account_name = account_name.trim();
        let bank_name = bank_name.trim();
        let account_number: String = account_number
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let file_key = file_key.trim();
        v.check(
            !account_name.is_empty(),
            "account_name",
            "Account name is required",
        );
        v.check(
            account_name.chars().count() <= MAX_TEXT,
            "account_name",
            "Account name must be at most 200 characters",
        );
        v.check(
            crate::infra::text::is_single_line(account_name),
            "account_name",
            "Account name contains invalid characters",
        );
        if account_number.is_empty() {
            v.add("account_number", "Account number is required");
        } else if !(6..=20).contains(&account_number.len())
            || !account_number.bytes().all(|b| b.is_ascii_digit())
        {
            v.add("account_number", "Account number must be 6 to 20 digits");
        }
        v.check(!bank_name.is_empty(), "bank_name", "Bank name is required");
        v.check(
            bank_name.chars().count() <= MAX_TEXT,
            "bank_name",
            "Bank name must be at most 200 characters",
        );
        v.check(
            crate::infra::text::is_single_line(bank_name),
            "bank_name",
            "Bank name contains invalid characters",
        );
        if file_key.is_empty() {
            v.add("file_key", "Please select a file");
        } else if !file_key.starts_with(&crate::infra::storage::upload::statement_folder(
            partner_id, user_id,
        )) || storage::check_key(file_key).is_err()
        {
            v.add("file_key", INVALID_FILE);
        }
        v.into_result()?;
        Ok(Self {
            account_name: account_name.into(),
            account_number,
            bank_name: bank_name.into(),
            file_key: file_key.into(),
        })
    }

    fn matches(&self, r: &Request) -> bool {
        (
            self.account_name.as_str(),
            self.account_number.as_str(),
            self.bank_name.as_str(),
        ) == (
            r.account_name.as_str(),
            r.account_number.as_str(),
            r.bank_name.as_str(),
        )
    }
}

/// What [`submit`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Submitted {
    /// A new request, charged.
    Created(Request),
    /// The same file and summary came before: the first request, nothing charged again.
    Replayed(Request),
}

/// The request an upload already backs, if any (a retried submission).
pub async fn by_file(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    file_key: &str,
) -> Result<Option<Request>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM bank_statement_requests WHERE file_key = $1 AND partner_id = $2 AND user_id = $3")))
        .bind(file_key)
        .bind(partner_id)
        .bind(user_id)
        .fetch_optional(conn)
        .await?)
}

/// A replay of `s`: the first request when the summary is the same, a conflict otherwise.
pub fn replay_of(s: &Submission, first: Request) -> Result<Submitted> {
    if s.matches(&first) {
        Ok(Submitted::Replayed(first))
    } else {
        Err(Error::conflict(
            "This statement was already submitted with other account details",
        ))
    }
}

/// `TRB` and 12 random upper-case letters and digits: not guessable, and short enough to read
/// out on the phone.
fn new_request_id() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    let tail: String = (0..12)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect();
    format!("TRB{tail}")
}

/// Writes the request and charges it, on `conn` (the caller's transaction: a refused debit
/// must roll the row back with it). `InsufficientFunds` when either product wallet is short.
pub async fn submit(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    s: &Submission,
    actor: Actor,
) -> Result<Submitted> {
    let price = products::price(conn, partner_id, products::TRUBANK).await?;
    // A concurrent submission of the same file waits here on the unique index, then finds the
    // first one committed (or, if that one was refused, goes on).
    let inserted: Option<Request> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO bank_statement_requests (partner_id, user_id, request_id, account_name, account_number, bank_name, file_key,
                                              amount_paise, user_amount_paise)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (file_key) DO NOTHING RETURNING {COLUMNS}"
    )))
    .bind(partner_id)
    .bind(user_id)
    .bind(new_request_id())
    .bind(&s.account_name)
    .bind(&s.account_number)
    .bind(&s.bank_name)
    .bind(&s.file_key)
    .bind(price.amount_paise)
    .bind(price.user_amount_paise)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(request) = inserted else {
        let first = by_file(conn, partner_id, user_id, &s.file_key)
            .await?
            .ok_or_else(|| Error::conflict("Please submit the request again"))?;
        return replay_of(s, first);
    };

    // The user's wallet first, then the partner's: the order every charge keeps (wallets.rs).
    let user_wallet = wallets::wallet_id(
        conn,
        Owner::User {
            partner_id,
            user_id,
        },
        WalletKind::Product,
    )
    .await?;
    let partner_wallet =
        wallets::wallet_id(conn, Owner::Partner(partner_id), WalletKind::Product).await?;
    let mut user_balance = None;
    for (wallet_id, amount) in [
        (user_wallet, price.user_amount_paise),
        (partner_wallet, price.amount_paise),
    ] {
        if amount == 0 {
            continue;
        }
        let moved = wallets::apply(
            conn,
            &Movement {
                wallet_id,
                entry_type: EntryType::Debit,
                amount_paise: amount,
                reason: Reason::Product,
                reference: Some(&request.request_id),
                idempotency_key: None,
                actor,
            },
        )
        .await?;
        if wallet_id == user_wallet {
            user_balance = Some(moved.balance_paise);
        }
    }
    if user_balance.is_none() {
        user_balance = Some(
            wallets::balances(
                conn,
                Owner::User {
                    partner_id,
                    user_id,
                },
            )
            .await?
            .product
            .balance_paise,
        );
    }
    sqlx::query(
        "INSERT INTO product_transactions (partner_id, user_id, product, pid, status_code, amount_type, amount_paise, user_amount_paise, remaining_paise)
         VALUES ($1, $2, $3, $4, 200, 'debit', $5, $6, $7)",
    )
    .bind(partner_id)
    .bind(user_id)
    .bind(&price.name)
    .bind(&request.request_id)
    .bind(price.amount_paise)
    .bind(price.user_amount_paise)
    .bind(user_balance)
    .execute(&mut *conn)
    .await?;
    sqlx::query("INSERT INTO product_logs (partner_id, user_id, description, status_code, amount_paise) VALUES ($1, $2, $3, 200, $4)")
        .bind(partner_id)
        .bind(user_id)
        .bind(format!("{} ({})", price.name, request.request_id))
        .bind(price.user_amount_paise)
        .execute(&mut *conn)
        .await?;
    webhooks::emit(
        conn,
        webhooks::Owner::partner(partner_id),
        webhooks::TRUBANK_REQUESTED,
        event_data(&request),
    )
    .await?;
    Ok(Submitted::Created(request))
}

/// A request as webhook events carry it (the account number stays out).
fn event_data(r: &Request) -> serde_json::Value {
    serde_json::json!({
        "request_id": r.request_id,
        "user_id": r.user_id,
        "status": r.status.as_str(),
        "account_name": r.account_name,
        "bank_name": r.bank_name,
        "comments": r.comments,
        "created_at": r.created_at,
        "decided_at": r.decided_at,
    })
}

/// One of the user's own requests by its `request_id`; anyone else's is `NotFound`.
pub async fn of_user(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    request_id: &str,
) -> Result<Request> {
    // Ids are short and alphanumeric; anything else names no request (and a NUL never reaches SQL).
    if request_id.is_empty()
        || request_id.len() > 64
        || !request_id.bytes().all(|b| b.is_ascii_alphanumeric())
    {
        return Err(Error::NotFound);
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM bank_statement_requests WHERE request_id = $1 AND partner_id = $2 AND user_id = $3")))
        .bind(request_id)
        .bind(partner_id)
        .bind(user_id)
        .fetch_optional(conn)
        .await?
        .ok_or(Error::NotFound)
}

/// One request of the partner's queue; another partner's is `NotFound`.
pub async fn get(conn: &mut PgConnection, partner_id: i64, id: i64) -> Result<Request> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM bank_statement_requests WHERE id = $1 AND partner_id = $2"
    )))
    .bind(id)
    .bind(partner_id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

/// The queue's filters.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub status: Option<Status>,
    pub user_id: Option<i64>,
}

/// The partner's requests, newest first.
pub async fn list(
    conn: &mut PgConnection,
    partner_id: i64,
    f: &Filter,
    page: PageRequest,
) -> Result<Page<Request>> {
    crate::infra::paging::List {
        columns: COLUMNS,
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM bank_statement_requests WHERE partner_id = ")
                .push_bind(partner_id);
            if let Some(s) = f.status {
                q.push(" AND status = ").push_bind(s.as_str());
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

/// Change Status: Verified or Not verified, with an optional file and comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub status: Status,
    pub comment: Option<String>,
    pub file_key: Option<String>,
}

impl Decision {
    /// The status is required and is Verified or Not verified; the file, when given, is one
    /// of the partner's own statement uploads (`POST /uploads`, purpose `statement`).
    pub fn parse(
        partner_id: i64,
        status: &str,
        comment: Option<&str>,
        file_key: Option<&str>,
    ) -> Result<Self> {
        let mut v = Violations::new();
        let parsed = match Status::parse(status) {
            _ if status.trim().is_empty() => {
                v.add("status", "Status is required");
                None
            }
            Some(s @ (Status::Verified | Status::NotVerified)) => Some(s),
            _ => {
                v.add("status", "Status must be Verified or Not verified");
                None
            }
        };
        let comment = comment.map(str::trim).filter(|c| !c.is_empty());
        v.check(
            comment.is_none_or(|c| c.chars().count() <= MAX_COMMENT),
            "comment",
            "Comment must be at most 1000 characters",
        );
        v.check(
            comment.is_none_or(crate::infra::text::is_plain_text),
            "comment",
            "Comment contains invalid characters",
        );
        let file_key = file_key.map(str::trim).filter(|k| !k.is_empty());
        let folder = format!("partners/{partner_id}/statement/");
        v.check(
            file_key.is_none_or(|k| k.starts_with(&folder) && storage::check_key(k).is_ok()),
            "file_key",
            INVALID_FILE,
        );
        v.into_result()?;
        let Some(status) = parsed else {
            return Err(Error::invalid("status", "Status is required"));
        };
        Ok(Self {
            status,
            comment: comment.map(Into::into),
            file_key: file_key.map(Into::into),
        })
    }
}

/// Records the partner's decision on request `id` and queues the mail to its user, on `conn`
/// (the caller's transaction). A decision replaces the one before, file and comment included.
pub async fn decide(
    conn: &mut PgConnection,
    partner_id: i64,
    id: i64,
    d: &Decision,
    actor: Actor,
) -> Result<Request> {
    let before = sqlx::query_as::<_, (String,)>(
        "SELECT status FROM bank_statement_requests WHERE id = $1 AND partner_id = $2 FOR UPDATE",
    )
    .bind(id)
    .bind(partner_id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or(Error::NotFound)?;
    let r: Request = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE bank_statement_requests
            SET status = $3, comments = $4, result_file_key = $5, decided_at = now(), updated_at = now()
          WHERE id = $1 AND partner_id = $2 RETURNING {COLUMNS}"
    )))
    .bind(id)
    .bind(partner_id)
    .bind(d.status.as_str())
    .bind(&d.comment)
    .bind(&d.file_key)
    .fetch_one(&mut *conn)
    .await?;
    audit::record(conn, &audit::Record {
        actor,
        action: "bank_statement.decide",
        entity: "bank_statement_request",
        entity_id: r.request_id.clone(),
        partner_id: Some(partner_id),
        before: Some(serde_json::json!({ "status": before.0 })),
        after: Some(serde_json::json!({ "status": r.status.as_str(), "comment": r.comments, "file_key": r.result_file_key })),
    })
    .await?;
    queue::push(
        conn,
        &SendMail::of(Mail::BankStatementDecided { request_id: r.id }).via_partner(partner_id),
        None,
    )
    .await?;
    if before.0 != r.status.as_str() {
        webhooks::emit(
            conn,
            webhooks::Owner::user(partner_id, r.user_id),
            webhooks::TRUBANK_STATUS_CHANGED,
            event_data(&r),
        )
        .await?;
    }
    Ok(r)
}

/// The mail telling the user about the decision, built when it is sent; `None` when the
/// request or its user is gone.
pub async fn decision_mail(conn: &mut PgConnection, id: i64) -> Result<Option<Email>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        email: String,
        first_name: String,
        request_id: String,
        account_number: String,
        bank_name: String,
        comments: Option<String>,
        #[sqlx(try_from = "String")]
        status: Status,
    }
    let row: Option<Row> = sqlx::query_as(
        "SELECT u.email::text AS email, u.first_name, r.request_id, r.account_number, r.bank_name, r.comments, r.status
           FROM bank_statement_requests r JOIN end_users u ON u.id = r.user_id AND u.partner_id = r.partner_id
          WHERE r.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| {
        texts::bank_statement_decided(
            &r.email,
            &r.first_name,
            &r.request_id,
            &r.account_number,
            &r.bank_name,
            r.status.label(),
            r.comments.as_deref(),
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(e: Error) -> std::collections::BTreeMap<String, String> {
        match e {
            Error::Invalid { fields, .. } => fields,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn submissions_are_checked() {
        let ok = Submission::parse(
            3,
            9,
            " Asha Rao ",
            "5010 0123 4590",
            " HDFC Bank ",
            "partners/3/users/9/statement/ABCDE_s.pdf",
        )
        .unwrap();
        assert_eq!(
            (
                ok.account_name.as_str(),
                ok.account_number.as_str(),
                ok.bank_name.as_str()
            ),
            ("Asha Rao", "501001234590", "HDFC Bank")
        );
        let f = fields(Submission::parse(3, 9, "", "12ab", " ", "").unwrap_err());
        assert_eq!(f["account_name"], "Account name is required");
        assert_eq!(f["account_number"], "Account number must be 6 to 20 digits");
        assert_eq!(f["bank_name"], "Bank name is required");
        assert_eq!(f["file_key"], "Please select a file");
        // Another user's, another partner's or a climbing key: not this user's upload.
        for key in [
            "partners/3/users/8/statement/A_s.pdf",
            "partners/4/users/9/statement/A_s.pdf",
            "partners/3/users/9/statement/../../x.pdf",
            "partners/3/statement/A_s.pdf",
        ] {
            assert_eq!(
                fields(Submission::parse(3, 9, "A", "123456", "B", key).unwrap_err())["file_key"],
                INVALID_FILE,
                "{key}"
            );
        }
        assert!(
            Submission::parse(
                3,
                9,
                "A",
                "123456789012345678901",
                "B",
                "partners/3/users/9/statement/A_s.pdf"
            )
            .is_err()
        );
    }

    #[test]
    fn decisions_are_checked() {
        assert_eq!(
            Decision::parse(3, "Not verified", Some("  "), None).unwrap(),
            Decision {
                status: Status::NotVerified,
                comment: None,
                file_key: None
            }
        );
        let d = Decision::parse(
            3,
            "verified",
            Some(" ok "),
            Some("partners/3/statement/AB_r.pdf"),
        )
        .unwrap();
        assert_eq!(
            (d.status, d.comment.as_deref(), d.file_key.as_deref()),
            (
                Status::Verified,
                Some("ok"),
                Some("partners/3/statement/AB_r.pdf")
            )
        );
        assert_eq!(
            fields(Decision::parse(3, "", None, None).unwrap_err())["status"],
            "Status is required"
        );
        assert_eq!(
            fields(Decision::parse(3, "pending", None, None).unwrap_err())["status"],
            "Status must be Verified or Not verified"
        );
        assert_eq!(
            fields(Decision::parse(3, "maybe", None, None).unwrap_err())["status"],
            "Status must be Verified or Not verified"
        );
        assert_eq!(
            fields(
                Decision::parse(3, "verified", None, Some("partners/4/statement/AB_r.pdf"))
                    .unwrap_err()
            )["file_key"],
            INVALID_FILE
        );
        assert!(Decision::parse(3, "verified", Some(&"x".repeat(1001)), None).is_err());
    }

    #[test]
    fn request_ids_look_alike() {
        let id = new_request_id();
        assert_eq!(id.len(), 15);
        assert!(
            id.starts_with("TRB")
                && id[3..]
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        );
        assert_ne!(new_request_id(), id);
    }
}
