//! What a partner earns (the dashboard's earnings): for a period of IST days, the revenue (what
//! its end users paid for successful API calls), the cost (what the partner paid for them) and
//! the margin, per day and per API. Read from `earnings_counts`, which a trigger on
//! `api_transactions` keeps in the writers' own transactions (migration
//! `20261124201100_earnings_counts`), so a period costs a sum over days x APIs, whatever the
//! number of calls. Refunded, failed and pending calls earn nothing.

use chrono::{Duration, NaiveDate};
use serde::Serialize;
use sqlx::PgConnection;

use crate::{Result, error::Violations};

/// The longest period one request may ask for.
pub const MAX_DAYS: i64 = 366;
/// The period shown when none is asked for: the last 30 days, today included.
pub const DEFAULT_DAYS: i64 = 30;

/// A checked period of whole IST days, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub from: NaiveDate,
    pub to: NaiveDate,
}

impl Period {
    /// `from`/`to` as `YYYY-MM-DD`; a missing end is filled from the other (or today) so the
    /// period is the default length. 422 on a field that is not a date, a `from` after `to`,
    /// or more than [`MAX_DAYS`] days.
    pub fn parse(from: Option<&str>, to: Option<&str>, today: NaiveDate) -> Result<Self> {
        let mut v = Violations::new();
        let mut day = |field: &str, label: &str, s: Option<&str>| match s
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            None => None,
            Some(s) => {
                let d = NaiveDate::parse_from_str(s, "%Y-%m-%d").ok();
                if d.is_none() {
                    v.add(field, format!("{label} must be a date (YYYY-MM-DD)"));
                }
                d
            }
        };
        let (f, t) = (day("from", "From", from), day("to", "To", to));
        let span = Duration::days(DEFAULT_DAYS - 1);
        let (from, to) = match (f, t) {
            (Some(f), Some(t)) => (f, t),
            (Some(f), None) => (f, f.checked_add_signed(span).unwrap_or(f)),
            (None, Some(t)) => (t.checked_sub_signed(span).unwrap_or(t), t),
            (None, None) => (today.checked_sub_signed(span).unwrap_or(today), today),
        };
        if v.is_empty() {
            v.check(from <= to, "from", "From must not be after To");
            v.check(
                (to - from).num_days() < MAX_DAYS,
                "to",
                "The period must be at most 366 days",
            );
        }
        v.into_result()?;
        Ok(Self { from, to })
    }

    pub fn days(&self) -> impl Iterator<Item = NaiveDate> + use<> {
        let (from, n) = (self.from, (self.to - self.from).num_days());
        (0..=n).map(move |i| from + Duration::days(i))
    }
}

/// Calls, revenue, cost and margin of a day, an API or the whole period.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Figures {
    pub calls: i64,
    pub revenue_paise: i64,
    pub cost_paise: i64,
    /// revenue − cost; negative when the partner sold below its cost.
    pub margin_paise: i64,
}

impl Figures {
    fn new(calls: i64, revenue_paise: i64, cost_paise: i64) -> Self {
        Self {
            calls,
            revenue_paise,
            cost_paise,
            margin_paise: revenue_paise - cost_paise,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Day {
    pub day: NaiveDate,
    #[serde(flatten)]
    pub figures: Figures,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct ApiEarnings {
    pub service: String,
    /// The catalogue's name; the service key when the API has left the catalogue.
    pub name: String,
    #[serde(flatten)]
    pub figures: Figures,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Earnings {
    pub from: NaiveDate,
    pub to: NaiveDate,
    #[serde(flatten)]
    pub total: Figures,
    /// Every day of the period, oldest first, zeros where nothing was earned.
    pub days: Vec<Day>,
    /// The APIs with successful calls in the period, highest revenue first.
    pub apis: Vec<ApiEarnings>,
}

/// The partner's earnings over `period`.
#[tracing::instrument(skip(conn))]
pub async fn of_partner(
    conn: &mut PgConnection,
    partner_id: i64,
    period: Period,
) -> Result<Earnings> {
    let per_day: Vec<(NaiveDate, i64, i64, i64)> = sqlx::query_as(
        "SELECT day, calls, revenue_paise, cost_paise FROM earnings_counts
          WHERE partner_id = $1 AND service = '' AND day BETWEEN $2 AND $3",
    )
    .bind(partner_id)
    .bind(period.from)
    .bind(period.to)
    .fetch_all(&mut *conn)
    .await?;
    let per_api: Vec<(String, String, i64, i64, i64)> = sqlx::query_as(
        "SELECT e.service, COALESCE(c.name, e.service), e.calls::bigint, e.revenue::bigint, e.cost::bigint
           FROM (SELECT service, sum(calls) AS calls, sum(revenue_paise) AS revenue, sum(cost_paise) AS cost
                   FROM earnings_counts
                  WHERE partner_id = $1 AND service <> '' AND day BETWEEN $2 AND $3
                  GROUP BY service HAVING sum(calls) <> 0) e
           LEFT JOIN api_catalogue c ON c.service = e.service
          ORDER BY e.revenue DESC, e.service",
    )
    .bind(partner_id)
    .bind(period.from)
    .bind(period.to)
    .fetch_all(&mut *conn)
    .await?;
    let by_day: std::collections::HashMap<NaiveDate, Figures> = per_day
        .into_iter()
        .map(|(d, n, r, c)| (d, Figures::new(n, r, c)))
        .collect();
    let days: Vec<Day> = period
        .days()
        .map(|day| Day {
            day,
            figures: by_day.get(&day).copied().unwrap_or_default(),
        })
        .collect();
    let total = days.iter().fold(Figures::default(), |t, d| {
        Figures::new(
            t.calls + d.figures.calls,
            t.revenue_paise + d.figures.revenue_paise,
            t.cost_paise + d.figures.cost_paise,
        )
    });
    let apis = per_api
        .into_iter()
        .map(|(service, name, n, r, c)| ApiEarnings {
            service,
            name,
            figures: Figures::new(n, r, c),
        })
        .collect();
    Ok(Earnings {
        from: period.from,
        to: period.to,
        total,
        days,
        apis,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn periods() {
        let today = d("2026-11-24");
        assert_eq!(
            Period::parse(None, None, today).unwrap(),
            Period {
                from: d("2026-10-26"),
                to: today
            }
        );
        assert_eq!(
            Period::parse(Some("2026-01-01"), Some(" 2026-01-01 "), today)
                .unwrap()
                .days()
                .count(),
            1
        );
        assert_eq!(
            Period::parse(Some("2026-01-01"), None, today).unwrap().to,
            d("2026-01-30")
        );
        assert_eq!(
            Period::parse(Some("2025-01-01"), Some("2025-12-31"), today)
                .unwrap()
                .days()
                .count(),
            365
        );
        let fields = |f: Option<&str>, t: Option<&str>| match Period::parse(f, t, today) {
            Err(crate::Error::Invalid { fields, .. }) => fields.into_keys().collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            fields(Some("2026-13-01"), Some("yesterday")),
            ["from", "to"]
        );
        assert_eq!(fields(Some("2026-02-01"), Some("2026-01-01")), ["from"]);
        assert_eq!(fields(Some("2024-01-01"), Some("2025-01-01")), ["to"]);
    }
}
