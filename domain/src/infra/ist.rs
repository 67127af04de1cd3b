//! The platform's one business day: India's (design.md, "Time"). Date filters select IST
//! days, the counters behind the lists count IST days (migration `20261126140002_ist_days`),
//! and screens and files print IST with the zone; storage stays UTC. India has kept UTC+05:30
//! without daylight saving since 1945, so a fixed offset is exact for every stored time.

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};

/// The zone's name, as Postgres and browsers know it.
pub const ZONE: &str = "Asia/Kolkata";

/// UTC+05:30.
pub fn offset() -> FixedOffset {
    FixedOffset::east_opt(5 * 3600 + 30 * 60).expect("a valid offset")
}

/// The IST day an instant falls on.
pub fn day_of(at: DateTime<Utc>) -> NaiveDate {
    at.with_timezone(&offset()).date_naive()
}

/// Today in India.
pub fn today() -> NaiveDate {
    day_of(Utc::now())
}

/// The first instant of an IST day (18:30 UTC the day before).
pub fn day_start(day: NaiveDate) -> DateTime<Utc> {
    day.and_hms_opt(0, 0, 0)
        .expect("midnight exists")
        .and_local_timezone(offset())
        .single()
        .expect("a fixed offset is unambiguous")
        .to_utc()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_turn_at_ist_midnight() {
        let t = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().to_utc();
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        assert_eq!(day_of(t("2026-11-25T18:29:59Z")), d("2026-11-25"));
        assert_eq!(day_of(t("2026-11-25T18:30:00Z")), d("2026-11-26"));
        assert_eq!(day_start(d("2026-11-26")), t("2026-11-25T18:30:00Z"));
    }
}
