//! The end user's dashboard figures: calls and spend over the last 30 days (IST days, as every
//! screen shows dates), per day and per API, and the success rate.

use serde::Serialize;
use sqlx::PgConnection;

use crate::Result;

/// How many days the dashboard looks back, today included.
pub const DAYS: i32 = 30;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct UsageDay {
    /// The IST day, `YYYY-MM-DD`.
    pub date: String,
    pub calls: i64,
    pub successful: i64,
    /// What the user paid for the day's successful calls.
    pub spend_paise: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct UsageApi {
    pub service: String,
    pub name: String,
    pub calls: i64,
    pub successful: i64,
    pub spend_paise: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Usage {
    pub from: String,
    pub to: String,
    pub calls: i64,
    pub successful: i64,
    pub spend_paise: i64,
    /// Successful calls over settled ones (pending calls are not counted), 0 to 100 with one
    /// decimal; `null` with no settled call.
    pub success_rate: Option<f64>,
    /// Every day of the window, oldest first, days without calls as zeros (a chart wants them).
    pub days: Vec<UsageDay>,
    /// APIs called in the window, most calls first.
    pub apis: Vec<UsageApi>,
}

/// The user's last [`DAYS`] IST days. Scoped by partner and user, so another partner's user id
/// reads nothing.
pub async fn last_30_days(conn: &mut PgConnection, partner_id: i64, user_id: i64) -> Result<Usage> {
    // One window for both statements: the first IST day at its IST midnight.
    const WINDOW: &str = "WITH w AS (
            SELECT (now() AT TIME ZONE 'Asia/Kolkata')::date - ($3 - 1) AS first_day,
                   (now() AT TIME ZONE 'Asia/Kolkata')::date AS last_day),
          t AS (
            SELECT t.*, (t.created_at AT TIME ZONE 'Asia/Kolkata')::date AS day
              FROM api_transactions t, w
             WHERE t.user_id = $2 AND t.partner_id = $1
               AND t.created_at >= (w.first_day::timestamp AT TIME ZONE 'Asia/Kolkata'))";
    let days: Vec<UsageDay> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{WINDOW}
         SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
                count(t.id) AS calls,
                count(t.id) FILTER (WHERE t.status = 'success') AS successful,
                COALESCE(sum(t.user_amount_paise) FILTER (WHERE t.status = 'success'), 0)::bigint AS spend_paise
           FROM w, generate_series(w.first_day, w.last_day, interval '1 day') AS d(day)
           LEFT JOIN t ON t.day = d.day::date
          GROUP BY d.day ORDER BY d.day"
    )))
    .bind(partner_id)
    .bind(user_id)
    .bind(DAYS)
    .fetch_all(&mut *conn)
    .await?;
    let apis: Vec<UsageApi> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{WINDOW}
         SELECT t.service, COALESCE(max(c.name), t.service) AS name,
                count(*) AS calls,
                count(*) FILTER (WHERE t.status = 'success') AS successful,
                COALESCE(sum(t.user_amount_paise) FILTER (WHERE t.status = 'success'), 0)::bigint AS spend_paise
           FROM t LEFT JOIN api_catalogue c ON c.service = t.service
          GROUP BY t.service ORDER BY calls DESC, t.service"
    )))
    .bind(partner_id)
    .bind(user_id)
    .bind(DAYS)
    .fetch_all(&mut *conn)
    .await?;
    let settled: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "{WINDOW} SELECT count(*) FROM t WHERE t.status <> 'pending'"
    )))
    .bind(partner_id)
    .bind(user_id)
    .bind(DAYS)
    .fetch_one(&mut *conn)
    .await?;
    Ok(summarise(days, apis, settled))
}

fn summarise(days: Vec<UsageDay>, apis: Vec<UsageApi>, settled: i64) -> Usage {
    let calls = days.iter().map(|d| d.calls).sum();
    let successful: i64 = days.iter().map(|d| d.successful).sum();
    let spend_paise = days.iter().map(|d| d.spend_paise).sum();
    let success_rate =
        (settled > 0).then(|| (successful as f64 * 1000.0 / settled as f64).round() / 10.0);
    Usage {
        from: days.first().map(|d| d.date.clone()).unwrap_or_default(),
        to: days.last().map(|d| d.date.clone()).unwrap_or_default(),
        calls,
        successful,
        spend_paise,
        success_rate,
        days,
        apis,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn success_rate_is_over_settled_calls_with_one_decimal() {
        let day = |date: &str, calls, successful| UsageDay {
            date: date.into(),
            calls,
            successful,
            spend_paise: successful * 100,
        };
        let u = summarise(
            vec![day("2026-11-01", 2, 1), day("2026-11-02", 1, 1)],
            vec![],
            3,
        );
        assert_eq!(
            (u.calls, u.successful, u.spend_paise, u.success_rate),
            (3, 2, 200, Some(66.7))
        );
        assert_eq!(
            (u.from.as_str(), u.to.as_str()),
            ("2026-11-01", "2026-11-02")
        );
        assert_eq!(
            summarise(vec![day("2026-11-01", 1, 0)], vec![], 0).success_rate,
            None
        );
    }
}
