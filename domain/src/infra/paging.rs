//! Paging of every list in the API: `?page=1&per_page=50` in, and
//! `{items, page, per_page, total, pages}` out (api-contract.md, "Lists").
//!
//! Handlers take [`PageParams`] from the query string (an extractor of its own beside the
//! list's filters) and turn it into a [`PageRequest`] with the screen's default page size.
//! Every list in `domain` is one [`List`]: its select list, its filtered rows (`FROM … WHERE …`
//! with their binds, written once) and its order; [`List::fetch`] counts the rows and reads the
//! page. Paging itself lives only here.
//!
//! Lists of ten million rows (issue 11). `count(*)` over a big partner's rows costs about a
//! second and `OFFSET 49950` reads fifty thousand rows, so a list whose filter the writers'
//! counters cover is fetched with [`List::fetch_counted`] instead:
//!
//! - the total is a sum of `list_counts` rows ([`Counts`]): rows per source, scope (partner
//!   or wallet), IST day, and rolled up per user and label, kept exact by statement-level
//!   triggers in the writers' own transaction (migration `20261124154000_list_counts`);
//! - the same per-day sums say which day the page's first row falls on and how many of that
//!   day's rows come before it, so the page is found by an index-only scan of at most one
//!   day's keys ([`Keys`]), and its rows are read from that key onwards (keyset), bounded
//!   below by the day of its last row.
//!
//! So page 1 and page 1,000 cost about the same and `page` keeps meaning what the contract
//! says. A filter the counters cannot express (a part of a PID, a product log's description)
//! takes [`List::fetch`]: an exact `count(*)` bounded by the list's index.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Deserializer, Serialize};
use sqlx::{FromRow, PgConnection, Postgres, QueryBuilder, postgres::PgRow};

use crate::Result;

/// No list answers more than this many rows at once, whatever the client asks.
pub const MAX_PER_PAGE: i64 = 200;
/// The contract's default page size; screens with a smaller page pass their own.
pub const DEFAULT_PER_PAGE: i64 = 50;

/// The query-string half, for lists without other filters. Numbers are accepted as strings
/// too, so it also works inside `#[serde(flatten)]`, where serde_urlencoded hands every value
/// over as a string. (A handler with filters is simpler with its own `page`/`per_page` fields:
/// any other number beside a flattened struct would hit the same problem.)
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageParams {
    #[serde(default, deserialize_with = "lenient_i64")]
    pub page: Option<i64>,
    #[serde(default, deserialize_with = "lenient_i64")]
    pub per_page: Option<i64>,
}

impl PageParams {
    pub fn with_default(self, default_per_page: i64) -> PageRequest {
        PageRequest::new(self.page, self.per_page, default_per_page)
    }
}

/// A page to fetch, already clamped: `page >= 1`, `1 <= per_page <= MAX_PER_PAGE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    pub page: i64,
    pub per_page: i64,
}

impl PageRequest {
    pub fn new(page: Option<i64>, per_page: Option<i64>, default_per_page: i64) -> Self {
        let per_page = per_page.unwrap_or(default_per_page).clamp(1, MAX_PER_PAGE);
        // A page far past the end answers an empty list, but the offset must stay an i64.
        let page = page.unwrap_or(1).clamp(1, i64::MAX / MAX_PER_PAGE);
        Self { page, per_page }
    }

    pub fn limit(&self) -> i64 {
        self.per_page
    }

    pub fn offset(&self) -> i64 {
        (self.page - 1) * self.per_page
    }
}

impl Default for PageRequest {
    fn default() -> Self {
        Self::new(None, None, DEFAULT_PER_PAGE)
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub page: i64,
    pub per_page: i64,
    pub total: i64,
    pub pages: i64,
}

impl<T> Page<T> {
    pub fn new(items: Vec<T>, total: i64, req: PageRequest) -> Self {
        let pages = if total <= 0 {
            0
        } else {
            (total + req.per_page - 1) / req.per_page
        };
        Self {
            items,
            page: req.page,
            per_page: req.per_page,
            total: total.max(0),
            pages,
        }
    }

    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page {
            items: self.items.into_iter().map(f).collect(),
            page: self.page,
            per_page: self.per_page,
            total: self.total,
            pages: self.pages,
        }
    }
}

/// One paged list. `rows` pushes the filtered rows, `FROM … WHERE …` (and a `GROUP BY` for a
/// list of groups), with their values bound by `push_bind` (never formatted into the text); it
/// runs once per query, so the filter and its binds are written once for the count and the page.
pub struct List<F> {
    /// The select list: constant SQL of the caller.
    pub columns: &'static str,
    pub rows: F,
    /// The order: constant SQL ending in a unique column, so pages neither overlap nor skip.
    pub order_by: &'static str,
}

impl<F: Fn(&mut QueryBuilder<Postgres>)> List<F> {
    /// The page `req` asks for, with the total and the page count.
    pub async fn fetch<T>(&self, conn: &mut PgConnection, req: PageRequest) -> Result<Page<T>>
    where
        T: for<'r> FromRow<'r, PgRow> + Send + Unpin,
    {
        let total = self.total(conn).await?;
        let items = self.rows(conn, req).await?;
        Ok(Page::new(items, total, req))
    }

    /// How many rows the filter keeps. Counted over a subquery, so a list of groups counts its
    /// groups; for plain rows Postgres plans it as the bare `count(*)`.
    async fn total(&self, conn: &mut PgConnection) -> Result<i64> {
        let mut q = QueryBuilder::new("SELECT count(*) FROM (SELECT 1 ");
        (self.rows)(&mut q);
        q.push(") AS counted");
        Ok(q.build_query_scalar().fetch_one(conn).await?)
    }

    /// The page `req` asks for, its total summed from the writers' counters and its rows found
    /// through them (module docs). `counts` must select exactly the rows `rows` keeps, `keys`
    /// must too, and the list must be ordered by `keys.time DESC, keys.id DESC`.
    pub async fn fetch_counted<T, K>(
        &self,
        conn: &mut PgConnection,
        req: PageRequest,
        counts: &Counts,
        keys: &Keys<K>,
    ) -> Result<Page<T>>
    where
        T: for<'r> FromRow<'r, PgRow> + Send + Unpin,
        K: Fn(&mut QueryBuilder<Postgres>),
    {
        debug_assert_eq!(
            self.order_by,
            format!("{} DESC, {} DESC", keys.time, keys.id),
            "counted lists page newest first by time and id"
        );
        let days = counts.per_day(conn).await?;
        let total = days.iter().map(|(_, n)| n).sum();
        let Some(at) = Locate::new(&days, req.offset(), req.limit()) else {
            return Ok(Page::new(Vec::new(), total, req));
        };
        let (from, until) = (
            day_start(at.last_day),
            day_start(at.first_day + chrono::Days::new(1)),
        );

        // The page's first key: an index-only walk over at most one day's keys.
        let mut q = QueryBuilder::new(format!("SELECT {}, {} ", keys.time, keys.id));
        (keys.rows)(&mut q);
        q.push(format!(" AND {} >= ", keys.time)).push_bind(from);
        q.push(format!(" AND {} < ", keys.time)).push_bind(until);
        q.push(format!(
            " ORDER BY {} DESC, {} DESC LIMIT 1 OFFSET ",
            keys.time, keys.id
        ))
        .push_bind(at.skip);
        let first: Option<(DateTime<Utc>, i64)> =
            q.build_query_as().fetch_optional(&mut *conn).await?;
        let Some((time, id)) = first else {
            // The rows went away since the counts were read: the list is shorter now.
            return Ok(Page::new(Vec::new(), total, req));
        };

        let mut q = QueryBuilder::new(format!("SELECT {} ", self.columns));
        (self.rows)(&mut q);
        q.push(format!(" AND {} >= ", keys.time)).push_bind(from);
        q.push(format!(" AND {} <= ", keys.time)).push_bind(time);
        q.push(format!(" AND ({} < ", keys.time))
            .push_bind(time)
            .push(format!(" OR {} <= ", keys.id))
            .push_bind(id)
            .push(")");
        q.push(" ORDER BY ").push(self.order_by);
        q.push(" LIMIT ").push_bind(req.limit());
        let items = q.build_query_as().fetch_all(conn).await?;
        Ok(Page::new(items, total, req))
    }

    /// The rows of one page, in order.
    async fn rows<T>(&self, conn: &mut PgConnection, req: PageRequest) -> Result<Vec<T>>
    where
        T: for<'r> FromRow<'r, PgRow> + Send + Unpin,
    {
        let mut q = QueryBuilder::new(format!("SELECT {} ", self.columns));
        (self.rows)(&mut q);
        q.push(" ORDER BY ").push(self.order_by);
        q.push(" LIMIT ")
            .push_bind(req.limit())
            .push(" OFFSET ")
            .push_bind(req.offset());
        Ok(q.build_query_as().fetch_all(conn).await?)
    }
}

/// The counters that make a list's total (migration `20261124154000_list_counts`): the rows of
/// `source` in `scopes` (partners, or wallets for `wallet_entries`), of `users` (`None`: all),
/// with one of `labels` (`None`: any), on the IST days `from..=to`. An empty `users` or
/// `labels` matches nothing.
#[derive(Debug, Clone)]
pub struct Counts {
    pub source: &'static str,
    pub scopes: Vec<i64>,
    pub users: Option<Vec<i64>>,
    pub labels: Option<Vec<String>>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
}

impl Counts {
    /// Rows per day, newest first, days without rows left out.
    async fn per_day(&self, conn: &mut PgConnection) -> Result<Vec<(NaiveDate, i64)>> {
        if self.scopes.is_empty()
            || self.users.as_ref().is_some_and(Vec::is_empty)
            || self.labels.as_ref().is_some_and(Vec::is_empty)
        {
            return Ok(Vec::new());
        }
        // The roll-up rows are user 0 and label '', so "all" is one more key, not a sum.
        let users = self.users.clone().unwrap_or_else(|| vec![0]);
        let labels = self.labels.clone().unwrap_or_else(|| vec![String::new()]);
        let mut q =
            QueryBuilder::new("SELECT day, sum(n)::bigint FROM list_counts WHERE source = ");
        q.push_bind(self.source);
        q.push(" AND scope = ANY(")
            .push_bind(self.scopes.clone())
            .push(")");
        q.push(" AND user_id = ANY(").push_bind(users).push(")");
        q.push(" AND label = ANY(").push_bind(labels).push(")");
        if let Some(from) = self.from {
            q.push(" AND day >= ").push_bind(from);
        }
        if let Some(to) = self.to {
            q.push(" AND day <= ").push_bind(to);
        }
        q.push(" GROUP BY day HAVING sum(n) > 0 ORDER BY day DESC");
        Ok(q.build_query_as().fetch_all(conn).await?)
    }
}

/// How a counted list finds its page's first row: `rows` pushes `FROM … WHERE …` over the
/// list's table alone, naming only columns of the index that orders it (so Postgres walks the
/// index without the table), and keeps the same rows as the list.
pub struct Keys<K> {
    pub rows: K,
    /// The order's columns, constant SQL: a timestamp and the unique id.
    pub time: &'static str,
    pub id: &'static str,
}

/// Where a page falls among per-day counts (newest first): the day of its first row, how many
/// rows of that day come before it, and the day of its last row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Locate {
    first_day: NaiveDate,
    skip: i64,
    last_day: NaiveDate,
}

impl Locate {
    /// `None` when the page starts past the last row.
    fn new(days: &[(NaiveDate, i64)], offset: i64, limit: i64) -> Option<Self> {
        let mut before = 0;
        let mut first = None;
        for &(day, n) in days {
            if first.is_none() && offset < before + n {
                first = Some((day, offset - before));
            }
            before += n;
            if let Some((first_day, skip)) = first
                && offset + limit <= before
            {
                return Some(Self {
                    first_day,
                    skip,
                    last_day: day,
                });
            }
        }
        let (first_day, skip) = first?;
        Some(Self {
            first_day,
            skip,
            last_day: days.last()?.0,
        })
    }
}

/// Midnight IST of `day`: the lists' date filters and the counters' days are IST days
/// (`infra::ist`).
pub fn day_start(day: NaiveDate) -> DateTime<Utc> {
    super::ist::day_start(day)
}

/// `AND`s `from..=to` (IST days) to `column`, a timestamp (constant SQL of the caller).
pub fn push_days(
    q: &mut QueryBuilder<Postgres>,
    column: &str,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) {
    if let Some(from) = from {
        q.push(format!(" AND {column} >= "))
            .push_bind(day_start(from));
    }
    if let Some(to) = to.and_then(|t| t.checked_add_days(chrono::Days::new(1))) {
        q.push(format!(" AND {column} < ")).push_bind(day_start(to));
    }
}

/// `%text%` for `ILIKE`, with the text's own `%`, `_` and `\` matched literally; `None` for a
/// blank search.
pub fn contains_pattern(text: Option<&str>) -> Option<String> {
    let t = text.map(str::trim).filter(|t| !t.is_empty())?;
    Some(format!(
        "%{}%",
        t.replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    ))
}

fn lenient_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Int(i64),
        Str(String),
    }
    match Option::<Raw>::deserialize(d)? {
        None => Ok(None),
        Some(Raw::Int(n)) => Ok(Some(n)),
        Some(Raw::Str(s)) if s.trim().is_empty() => Ok(None),
        Some(Raw::Str(s)) => s
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| serde::de::Error::custom(format!("{s:?} is not a whole number"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamps_and_counts_pages() {
        let r = PageRequest::new(Some(0), Some(1000), 50);
        assert_eq!((r.page, r.per_page, r.offset()), (1, MAX_PER_PAGE, 0));
        let r = PageRequest::new(Some(3), None, 10);
        assert_eq!((r.limit(), r.offset()), (10, 20));
        assert_eq!(Page::new(vec![1], 21, r).pages, 3);
        assert_eq!(Page::<i32>::new(vec![], 0, r).pages, 0);
        assert_eq!(PageRequest::new(Some(-5), Some(0), 50).per_page, 1);
    }

    #[test]
    fn locates_pages_among_days() {
        let d = |n: u32| NaiveDate::from_ymd_opt(2026, 11, n).unwrap();
        let days = [(d(20), 30), (d(19), 10), (d(17), 25)];
        let at = |offset, limit| {
            Locate::new(&days, offset, limit).map(|l| (l.first_day, l.skip, l.last_day))
        };
        assert_eq!(at(0, 10), Some((d(20), 0, d(20))));
        assert_eq!(
            at(20, 10),
            Some((d(20), 20, d(20))),
            "the page ends on the day's last row"
        );
        assert_eq!(at(25, 10), Some((d(20), 25, d(19))));
        assert_eq!(at(30, 10), Some((d(19), 0, d(19))));
        assert_eq!(
            at(35, 50),
            Some((d(19), 5, d(17))),
            "a short last page ends on the last day"
        );
        assert_eq!(at(64, 10), Some((d(17), 24, d(17))));
        assert_eq!(at(65, 10), None, "past the end");
        assert_eq!(Locate::new(&[], 0, 10), None);
    }

    #[test]
    fn params_accept_numbers_and_strings() {
        let p: PageParams = serde_json::from_str(r#"{"page":"2","per_page":10}"#).unwrap();
        assert_eq!(
            p,
            PageParams {
                page: Some(2),
                per_page: Some(10)
            }
        );
        let p: PageParams = serde_json::from_str(r#"{"page":""}"#).unwrap();
        assert_eq!(p.page, None);
        assert!(serde_json::from_str::<PageParams>(r#"{"page":"x"}"#).is_err());
    }
}
