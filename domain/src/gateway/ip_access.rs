//! A partner's IP rules for its users' gateway calls: the allow-list (Whitelist IP, enforced
//! while the partner's Server Security is on) and blocked IPs (always enforced). Both are
//! `(user, ip, comments)` rows of the partner; the spec's rules and messages are in
//! [`IpEntryInput::parse`] and [`Filter::parse`].

use std::net::{IpAddr, Ipv4Addr};

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Error, Result,
    error::Violations,
    infra::audit::{self, Actor},
    infra::paging::{Page, PageRequest},
};

pub const USER_ID_DIGITS: &str = "User ID contains only numeric values.";
pub const INVALID_IP: &str = "Please enter a valid IP address!";
const MAX_COMMENTS: usize = 500;

/// Which list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    Whitelist,
    Blocked,
}

impl List {
    fn table(self) -> &'static str {
        match self {
            List::Whitelist => "ip_whitelist",
            List::Blocked => "blocked_ips",
        }
    }
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct IpEntry {
    pub id: i64,
    pub user_id: i64,
    pub ip: String,
    pub comments: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A user id as the screens send it: a JSON number or a string of digits.
pub fn parse_user_id(
    raw: Option<&serde_json::Value>,
) -> std::result::Result<Option<i64>, &'static str> {
    match raw {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::Number(n)) => n
            .as_i64()
            .filter(|n| *n > 0)
            .map(Some)
            .ok_or(USER_ID_DIGITS),
        Some(serde_json::Value::String(s)) => parse_user_id_str(s),
        Some(_) => Err(USER_ID_DIGITS),
    }
}

fn parse_user_id_str(s: &str) -> std::result::Result<Option<i64>, &'static str> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    if !s.chars().all(|c| c.is_ascii_digit()) {
        return Err(USER_ID_DIGITS);
    }
    // Digits beyond an i64 name no user; treat them as a wrong id rather than a server error.
    s.parse().map(Some).map_err(|_| USER_ID_DIGITS)
}

/// A dotted IPv4 address (the allow-list) or any IP address (blocks: the gateway may see IPv6).
fn parse_ip(s: &str, v4_only: bool) -> Option<IpAddr> {
    let s = s.trim();
    if v4_only {
        s.parse::<Ipv4Addr>().ok().map(IpAddr::V4)
    } else {
        s.parse().ok()
    }
}

/// Add to the allow-list or block: user id (digits), IP and comments, all required.
#[derive(Debug, Clone)]
pub struct IpEntryInput {
    pub user_id: i64,
    pub ip: IpAddr,
    pub comments: String,
}

impl IpEntryInput {
    pub fn parse(
        list: List,
        user_id: Option<&serde_json::Value>,
        ip: &str,
        comments: &str,
    ) -> Result<Self> {
        let mut v = Violations::new();
        let user_id = match parse_user_id(user_id) {
            Ok(Some(id)) => Some(id),
            Ok(None) => {
                v.add("user_id", "User ID is required");
                None
            }
            Err(m) => {
                v.add("user_id", m);
                None
            }
        };
        let parsed = parse_ip(ip, list == List::Whitelist);
        v.check(!ip.trim().is_empty(), "ip", "IP is required");
        v.check(ip.trim().is_empty() || parsed.is_some(), "ip", INVALID_IP);
        let comments = comments.trim();
        v.check(!comments.is_empty(), "comments", "Comments are required");
        v.check(
            comments.chars().count() <= MAX_COMMENTS,
            "comments",
            "Comments must be at most 500 characters",
        );
        v.check(
            crate::infra::text::is_plain_text(comments),
            "comments",
            "Comments contain invalid characters",
        );
        v.into_result()?;
        // The violations above cover a missing user id or IP; this only satisfies the types.
        let (Some(user_id), Some(ip)) = (user_id, parsed) else {
            return Err(Error::invalid("ip", INVALID_IP));
        };
        Ok(Self {
            user_id,
            ip,
            comments: comments.to_owned(),
        })
    }
}

/// The filter panel: user id, IP and date, each optional, each checked.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub user_id: Option<i64>,
    pub ip: Option<IpAddr>,
    pub date: Option<NaiveDate>,
}

impl Filter {
    pub fn parse(user_id: Option<&str>, ip: Option<&str>, date: Option<&str>) -> Result<Self> {
        let mut v = Violations::new();
        let user_id = user_id
            .map(parse_user_id_str)
            .transpose()
            .unwrap_or_else(|m| {
                v.add("user_id", m);
                None
            });
        let ip = ip.map(str::trim).filter(|s| !s.is_empty());
        let parsed_ip = ip.and_then(|s| parse_ip(s, false));
        v.check(ip.is_none() || parsed_ip.is_some(), "ip", INVALID_IP);
        let date = date.map(str::trim).filter(|s| !s.is_empty());
        let parsed_date = date.and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok());
        v.check(
            date.is_none() || parsed_date.is_some(),
            "date",
            "Date must be YYYY-MM-DD",
        );
        v.into_result()?;
        Ok(Self {
            user_id: user_id.flatten(),
            ip: parsed_ip,
            date: parsed_date,
        })
    }
}

const COLUMNS: &str = "id, user_id, host(ip) AS ip, comments, created_at, updated_at";

/// Adds an entry for a user of the partner (another partner's user: `NotFound`); the same IP
/// twice for one user is a conflict.
pub async fn add(
    conn: &mut PgConnection,
    partner_id: i64,
    list: List,
    e: &IpEntryInput,
    actor: Actor,
) -> Result<IpEntry> {
    crate::partners::tenancy::user_of_partner(conn, partner_id, e.user_id).await?;
    let entry: IpEntry = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {} (partner_id, user_id, ip, comments) VALUES ($1, $2, $3::inet, $4) RETURNING {COLUMNS}",
        list.table()
    )))
    .bind(partner_id)
    .bind(e.user_id)
    .bind(e.ip.to_string())
    .bind(&e.comments)
    .fetch_one(&mut *conn)
    .await
    .map_err(|err| match &err {
        sqlx::Error::Database(d) if d.is_unique_violation() => Error::conflict(match list {
            List::Whitelist => "This IP is already whitelisted for this user",
            List::Blocked => "This IP is already blocked for this user",
        }),
        _ => Error::Db(err),
    })?;
    record(conn, actor, list, "add", partner_id, &entry).await?;
    Ok(entry)
}

/// Removes an entry of the partner by id (unblock, or drop from the allow-list).
pub async fn remove(
    conn: &mut PgConnection,
    partner_id: i64,
    list: List,
    id: i64,
    actor: Actor,
) -> Result<()> {
    let entry: IpEntry = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "DELETE FROM {} WHERE id = $1 AND partner_id = $2 RETURNING {COLUMNS}",
        list.table()
    )))
    .bind(id)
    .bind(partner_id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or(Error::NotFound)?;
    record(conn, actor, list, "remove", partner_id, &entry).await
}

/// The partner's entries, newest first (by last update), narrowed by the filter.
pub async fn list(
    conn: &mut PgConnection,
    partner_id: i64,
    list: List,
    f: &Filter,
    page: PageRequest,
) -> Result<Page<IpEntry>> {
    let ip = f.ip.map(|ip| ip.to_string());
    crate::infra::paging::List {
        columns: COLUMNS,
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM ")
                .push(list.table())
                .push(" WHERE partner_id = ")
                .push_bind(partner_id);
            if let Some(user_id) = f.user_id {
                q.push(" AND user_id = ").push_bind(user_id);
            }
            if let Some(ip) = &ip {
                q.push(" AND ip = ").push_bind(ip.clone()).push("::inet");
            }
            if let Some(date) = f.date {
                q.push(" AND (updated_at AT TIME ZONE 'UTC')::date = ")
                    .push_bind(date);
            }
        },
        order_by: "updated_at DESC, id DESC",
    }
    .fetch(conn, page)
    .await
}

async fn record(
    conn: &mut PgConnection,
    actor: Actor,
    list: List,
    verb: &str,
    partner_id: i64,
    e: &IpEntry,
) -> Result<()> {
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: &format!("{}.{verb}", list.table()),
            entity: list.table(),
            entity_id: e.id.to_string(),
            partner_id: Some(partner_id),
            before: None,
            after: Some(
                serde_json::json!({"user_id": e.user_id, "ip": e.ip, "comments": e.comments}),
            ),
        },
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitelist_rules() {
        let ok = IpEntryInput::parse(
            List::Whitelist,
            Some(&serde_json::json!("42")),
            " 10.0.0.1 ",
            " office ",
        )
        .unwrap();
        assert_eq!(
            (ok.user_id, ok.ip.to_string(), ok.comments.as_str()),
            (42, "10.0.0.1".into(), "office")
        );
        for bad_ip in [
            "10.0.0",
            "10.0.0.256",
            "::1",
            "010.0.0.1",
            "1.2.3.4/24",
            "abc",
        ] {
            let Err(Error::Invalid { fields, .. }) =
                IpEntryInput::parse(List::Whitelist, Some(&serde_json::json!(1)), bad_ip, "c")
            else {
                panic!("{bad_ip}")
            };
            assert_eq!(fields["ip"], INVALID_IP, "{bad_ip}");
        }
        assert!(
            IpEntryInput::parse(
                List::Blocked,
                Some(&serde_json::json!(1)),
                "2001:db8::1",
                "c"
            )
            .is_ok()
        );
        let Err(Error::Invalid { fields, .. }) =
            IpEntryInput::parse(List::Whitelist, Some(&serde_json::json!("4a")), "", " ")
        else {
            panic!()
        };
        assert_eq!(fields["user_id"], USER_ID_DIGITS);
        assert_eq!(fields["ip"], "IP is required");
        assert_eq!(fields["comments"], "Comments are required");
        for raw in [
            serde_json::json!(-1),
            serde_json::json!(1.5),
            serde_json::json!(true),
            serde_json::json!("99999999999999999999"),
        ] {
            assert_eq!(parse_user_id(Some(&raw)), Err(USER_ID_DIGITS), "{raw}");
        }
    }
}
