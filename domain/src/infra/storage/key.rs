//! Object keys. Every key that reaches a store passes `check_key` first: on the local store a
//! key becomes a path under the storage folder, so anything that could climb out of it
//! (`..`, a leading `/`, a backslash, a NUL) must never get that far.

use crate::{Error, Result};

/// Longest key accepted; S3 allows 1024 bytes, most file systems 255 per segment.
pub const MAX_KEY_LEN: usize = 512;

/// Accepts `[A-Za-z0-9/_.-]` in non-empty `/`-separated segments, none of them starting with
/// a dot (which also rules out `.` and `..`, and keeps the local store's `.tmp` folder private).
pub fn check_key(key: &str) -> Result<&str> {
    let bad = || Error::invalid("key", "Invalid file key");
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(bad());
    }
    if !key
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'_' | b'.' | b'-'))
    {
        return Err(bad());
    }
    for segment in key.split('/') {
        if segment.is_empty() || segment.starts_with('.') || segment.len() > 200 {
            return Err(bad());
        }
    }
    Ok(key)
}

/// Turns a user's file name into one key segment: the last path component only, spaces (and
/// anything else outside the key alphabet) as underscores, at most 100 characters with the
/// extension kept. The spec asks for the spaces; the rest keeps keys safe and URL-clean.
pub fn sanitize_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or("").trim();
    let mut clean: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.len() > 100 {
        let ext = clean
            .rsplit_once('.')
            .map(|(_, e)| e.to_owned())
            .filter(|e| e.len() <= 10);
        clean.truncate(ext.as_ref().map_or(100, |e| 99 - e.len()));
        if let Some(e) = ext {
            clean.push('.');
            clean.push_str(&e);
        }
    }
    clean
}

/// A random 5-letter upper-case prefix: two uploads of `logo.png` get different keys, so a
/// new logo never overwrites (or is cached as) the old one.
pub fn random_prefix() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..5)
        .map(|_| rng.random_range(b'A'..=b'Z') as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_that_could_escape_are_refused() {
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../b",
            "a/./b",
            "a//b",
            "a/",
            ".hidden",
            "a/.tmp/x",
            "a\\b",
            "a b",
            "a\0b",
            "ünï",
            "a?b",
            "a%2e%2e/b",
        ] {
            assert!(check_key(bad).is_err(), "{bad:?} accepted");
        }
        assert!(check_key(&"a".repeat(MAX_KEY_LEN + 1)).is_err());
        for good in [
            "partners/1/logo/ABCDE_my_logo.png",
            "exports/2024-01/x.csv",
            "a",
            "a-b_c.d",
        ] {
            assert_eq!(check_key(good).unwrap(), good);
        }
    }

    #[test]
    fn file_names_become_one_safe_segment() {
        assert_eq!(
            sanitize_file_name("my company logo.png"),
            "my_company_logo.png"
        );
        assert_eq!(sanitize_file_name("../../etc/passwd"), "passwd");
        assert_eq!(
            sanitize_file_name("C:\\Users\\me\\logo (1).jpg"),
            "logo__1_.jpg"
        );
        assert_eq!(sanitize_file_name("ünï.png"), "_n_.png");
        let long = format!("{}.jpeg", "x".repeat(300));
        let s = sanitize_file_name(&long);
        assert_eq!(s.len(), 100);
        assert!(s.ends_with(".jpeg"));
        assert_eq!(sanitize_file_name("   "), "");
    }

    #[test]
    fn prefixes_are_five_upper_case_letters() {
        let p = random_prefix();
        assert_eq!(p.len(), 5);
        assert!(p.bytes().all(|b| b.is_ascii_uppercase()));
    }
}
