//! The one check of every e-mail address the platform accepts (sign-up, users, contact form,
//! forgot password, a partner's SMTP sender, …). An address the mailer cannot parse used to be
//! accepted and then failed its mail job eight times; now it is refused at the door with the
//! field's message. The mailer's own parser (`lettre::Address`) decides, plus a refusal of
//! control and bidirectional-override characters, which can make an address read differently
//! from what it is.

use crate::{Error, Result};

pub const INVALID: &str = "Please enter a valid email";

/// Characters that reorder or hide text: the bidi embeddings, overrides and isolates, the
/// directional marks, and zero-width characters.
fn is_deceptive(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{061C}' | '\u{FEFF}')
}

/// True when `s` (already trimmed) is an address the mailer will send to: what
/// `lettre::Address` parses, at most 254 bytes, a dotted domain, and nothing invisible.
pub fn is_valid(s: &str) -> bool {
    if s.is_empty()
        || s.len() > 254
        || s.chars()
            .any(|c| c.is_control() || c.is_whitespace() || is_deceptive(c))
    {
        return false;
    }
    let Ok(address) = s.parse::<lettre::Address>() else {
        return false;
    };
    let domain = address.domain();
    address.user().len() <= 64
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
}

/// `is_valid`, as the field error forms answer with.
pub fn check(field: &str, s: &str) -> Result<()> {
    if is_valid(s) {
        Ok(())
    } else {
        Err(Error::invalid(field, INVALID))
    }
}

/// Text such as a sender's display name: no control or bidi characters either.
pub fn is_plain_line(s: &str) -> bool {
    !s.chars().any(|c| c.is_control() || is_deceptive(c))
}

/// E-mail addresses are compared and stored lower-cased (the column is citext too).
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_mailer_would_refuse_is_refused() {
        for bad in [
            "<script>alert(1)</script>@example.com",
            "user@exa\u{202E}moc.elpmaxe",
            "us\u{202E}er@example.com",
            "user\u{200B}@example.com",
            "a\u{2066}b@example.com",
            "a\0b@example.com",
            "a b@example.com",
            "a\r\nBcc: x@y.z@example.com",
            "plain",
            "@example.com",
            "a@",
            "a@localhost",
            "a@b..com",
            "a@.example.com",
            "a@example.com.",
            "a\"b@example.com",
            "a@exa mple.com",
            "a(b)@example.com",
            "a@@example.com",
            "\u{FEFF}a@example.com",
        ] {
            assert!(!is_valid(bad), "{bad:?} accepted");
        }
        assert!(!is_valid(&format!("{}@example.com", "a".repeat(65))));
        assert!(!is_valid(&format!("a@{}.com", "b".repeat(250))));
        for good in [
            "a@example.com",
            "first.last+tag@sub.example.co.in",
            "o'brien@example.ie",
            "x_y-z@example.museum",
            "用户@例子.广告",
        ] {
            assert!(is_valid(good), "{good:?} refused");
        }
    }
}
