//! Paging of every list in the API: `?page=1&per_page=50` in, and
//! `{items, page, per_page, total, pages}` out (api-contract.md, "Lists").
//!
//! Handlers take [`PageParams`] from the query string (an extractor of its own beside the
//! list's filters) and turn it into a [`PageRequest`] with the screen's default page size.
//! Every list in `domain` is one [`List`]: its select list, its filtered rows (`FROM … WHERE …`
//! with their binds, written once) and its order; [`List::fetch`] counts the rows and reads the
//! page. Paging itself lives only here.
//!
//! The seam for lists of ten million rows (issue 11): [`List::total`] is the one place that
//! counts and [`List::rows`] the one place that reads by `OFFSET`. Keyset paging becomes a
//! cursor in [`PageRequest`] that `rows` turns into a `WHERE (order keys) < (cursor)` instead of
//! the offset; totals kept by the writers become a source of `total` other than `count(*)`.
//! Neither is built: no list needs it yet.

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
        let pages = if total <= 0 { 0 } else { (total + req.per_page - 1) / req.per_page };
        Self { items, page: req.page, per_page: req.per_page, total: total.max(0), pages }
    }

    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page { items: self.items.into_iter().map(f).collect(), page: self.page, per_page: self.per_page, total: self.total, pages: self.pages }
    }
}

/// One paged list. `rows` pushes the filtered rows, `FROM … WHERE …`, with their values bound
/// by `push_bind` (never formatted into the text); it runs once per query, so the filter and its
/// binds are written once for the count and the page.
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

    /// How many rows the filter keeps.
    async fn total(&self, conn: &mut PgConnection) -> Result<i64> {
        let mut q = QueryBuilder::new("SELECT count(*) ");
        (self.rows)(&mut q);
        Ok(q.build_query_scalar().fetch_one(conn).await?)
    }

    /// The rows of one page, in order.
    async fn rows<T>(&self, conn: &mut PgConnection, req: PageRequest) -> Result<Vec<T>>
    where
        T: for<'r> FromRow<'r, PgRow> + Send + Unpin,
    {
        let mut q = QueryBuilder::new(format!("SELECT {} ", self.columns));
        (self.rows)(&mut q);
        q.push(" ORDER BY ").push(self.order_by);
        q.push(" LIMIT ").push_bind(req.limit()).push(" OFFSET ").push_bind(req.offset());
        Ok(q.build_query_as().fetch_all(conn).await?)
    }
}

/// `%text%` for `ILIKE`, with the text's own `%`, `_` and `\` matched literally; `None` for a
/// blank search.
pub fn contains_pattern(text: Option<&str>) -> Option<String> {
    let t = text.map(str::trim).filter(|t| !t.is_empty())?;
    Some(format!("%{}%", t.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")))
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
        Some(Raw::Str(s)) => s.trim().parse().map(Some).map_err(|_| serde::de::Error::custom(format!("{s:?} is not a whole number"))),
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
    fn params_accept_numbers_and_strings() {
        let p: PageParams = serde_json::from_str(r#"{"page":"2","per_page":10}"#).unwrap();
        assert_eq!(p, PageParams { page: Some(2), per_page: Some(10) });
        let p: PageParams = serde_json::from_str(r#"{"page":""}"#).unwrap();
        assert_eq!(p.page, None);
        assert!(serde_json::from_str::<PageParams>(r#"{"page":"x"}"#).is_err());
    }
}
