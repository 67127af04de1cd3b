//! How an exported cell reads: dates in IST as the screens show them (the first 24 characters
//! of a JavaScript date string, spec part 1 §9), rupees (`money::write_rupees`), and text a
//! spreadsheet will not run as a formula. Each writes into a reused buffer: a million rows must
//! not mean millions of small allocations.

use std::fmt::Write;

use chrono::{DateTime, Utc};

use crate::money::digits;

const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// IST is UTC+05:30, with no daylight saving.
const IST_SECS: i64 = 5 * 3600 + 30 * 60;

/// `Mon Jan 15 2024 10:30:00`, in IST. Done on the integer clock (no time-zone lookup, no
/// formatter): it runs once per exported row.
pub fn date(out: &mut String, at: DateTime<Utc>) {
    let secs = at.timestamp() + IST_SECS;
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    // 1 Jan 1970 was a Thursday (3 with Monday as 0).
    out.push_str(DAYS[(days + 3).rem_euclid(7) as usize]);
    out.push(' ');
    out.push_str(MONTHS[(m - 1) as usize]);
    out.push(' ');
    two(out, d as u64);
    out.push(' ');
    if (1000..=9999).contains(&y) {
        number(out, y as u64);
    } else {
        let _ = write!(out, "{y:04}");
    }
    out.push(' ');
    two(out, (sod / 3600) as u64);
    out.push(':');
    two(out, (sod / 60 % 60) as u64);
    out.push(':');
    two(out, (sod % 60) as u64);
}

/// Year, month (1-12) and day of a count of days since 1 Jan 1970 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn two(out: &mut String, n: u64) {
    out.push((b'0' + (n / 10 % 10) as u8) as char);
    out.push((b'0' + (n % 10) as u8) as char);
}

/// A whole number as digits alone (ids, counts, codes), so a spreadsheet reads it as a number.
pub fn number(out: &mut String, n: u64) {
    out.push_str(digits(&mut [0; 20], n));
}

/// Text from a person or an upstream, made safe for a spreadsheet by the platform's one rule
/// (`infra::spreadsheet::neutralise`: a leading apostrophe on what could run as a formula).
/// Commas, quotes and newlines are the CSV writer's to quote.
pub fn text(out: &mut String, value: &str) {
    crate::infra::spreadsheet::neutralise(out, value);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_in_ist_as_the_screens_show_them() {
        let mut s = String::new();
        date(
            &mut s,
            DateTime::parse_from_rfc3339("2024-01-15T05:00:00Z")
                .unwrap()
                .to_utc(),
        );
        assert_eq!(s, "Mon Jan 15 2024 10:30:00");
        s.clear();
        date(
            &mut s,
            DateTime::parse_from_rfc3339("2026-11-23T18:45:09Z")
                .unwrap()
                .to_utc(),
        );
        assert_eq!(s, "Tue Nov 24 2026 00:15:09");
        // Agrees with chrono across leap years, month ends and centuries.
        for t in (-2_000_000_000_i64..4_000_000_000).step_by(7_777_777) {
            let at = DateTime::from_timestamp(t, 0).unwrap();
            s.clear();
            date(&mut s, at);
            assert_eq!(
                s,
                at.with_timezone(&crate::exports::ist())
                    .format("%a %b %d %Y %H:%M:%S")
                    .to_string(),
                "{t}"
            );
        }
    }

    #[test]
    fn formula_leading_text_is_defused() {
        for (input, out) in [
            ("=1+2", "'=1+2"),
            ("+91", "'+91"),
            ("-2", "'-2"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("pan,1", "pan,1"),
            ("a=b", "a=b"),
        ] {
            let mut s = String::new();
            text(&mut s, input);
            assert_eq!(s, out);
        }
    }
}
