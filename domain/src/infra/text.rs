//! Text that people enter and others read: one rule for what the platform stores.

/// Text that Postgres can store and people can read: no control characters (a NUL byte would
/// even make the database refuse the statement).
pub fn is_plain_text(s: &str) -> bool {
    !s.chars().any(|c| c.is_control() && c != '\n' && c != '\t')
}
