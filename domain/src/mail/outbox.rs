//! Reading the outbox folder (`MAIL=outbox`): the super admin's Mail page lists it and shows
//! one message; the tests read their mail through [`parse`] too.
//!
//! File names are `{UTC stamp}-{message id}.eml` (see `Mailer::send`), so sorting names sorts
//! by time, and a page of the list reads only its own files.

use std::path::Path;

use base64::Engine;
use chrono::{DateTime, NaiveDateTime, Utc};
use serde::Serialize;

use crate::infra::paging::{Page, PageRequest};

/// One message, decoded: headers and the plain text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct OutboxMail {
    /// The file name: what `GET /superadmin/mail/{id}` takes.
    pub id: String,
    pub to: String,
    pub from: String,
    pub subject: String,
    pub at: Option<DateTime<Utc>>,
    pub text: String,
}

/// A line of the list: the message without its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct OutboxEntry {
    pub id: String,
    pub to: String,
    pub subject: String,
    pub at: Option<DateTime<Utc>>,
}

/// Whether `id` can name a file of the outbox: a plain `.eml` name, nothing that leaves the
/// folder or names a hidden (half-written) file.
pub fn valid_id(id: &str) -> bool {
    id.len() <= 200
        && id.ends_with(".eml")
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_')
        && !id.contains("..")
}

fn names(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut names: Vec<String> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(Result::ok)
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| valid_id(n))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => vec![],
        Err(e) => return Err(e),
    };
    names.sort_unstable_by(|a, b| b.cmp(a));
    Ok(names)
}

/// The messages, newest first, one page of them.
pub async fn list(dir: &Path, req: PageRequest) -> std::io::Result<Page<OutboxEntry>> {
    let dir = dir.to_owned();
    tokio::task::spawn_blocking(move || {
        let all = names(&dir)?;
        let total = all.len() as i64;
        let items = all
            .iter()
            .skip(req.offset().min(total) as usize)
            .take(req.limit() as usize)
            .filter_map(|n| {
                std::fs::read_to_string(dir.join(n))
                    .ok()
                    .map(|raw| parse(n, &raw))
            })
            .map(|m| OutboxEntry {
                id: m.id,
                to: m.to,
                subject: m.subject,
                at: m.at,
            })
            .collect();
        Ok(Page::new(items, total, req))
    })
    .await
    .map_err(std::io::Error::other)?
}

/// One message by its file name; `None` when no such file is in the outbox.
pub async fn read(dir: &Path, id: &str) -> std::io::Result<Option<OutboxMail>> {
    if !valid_id(id) {
        return Ok(None);
    }
    match tokio::fs::read_to_string(dir.join(id)).await {
        Ok(raw) => Ok(Some(parse(id, &raw))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Decodes an `.eml` as lettre writes it: unfolded headers (RFC 2047 words decoded), a 7bit,
/// quoted-printable or base64 body, and of a multipart message its `text/plain` part.
pub fn parse(id: &str, raw: &str) -> OutboxMail {
    let (head, body) = split(raw);
    let header = |name: &str| header(&head, name);
    let text = match boundary(&header("Content-Type")) {
        Some(b) => plain_part(body, &b).unwrap_or_default(),
        None => decode_body(&header("Content-Transfer-Encoding"), body),
    };
    let at = id
        .split('-')
        .next()
        .and_then(|stamp| NaiveDateTime::parse_from_str(stamp, "%Y%m%dT%H%M%S%.fZ").ok())
        .map(|t| t.and_utc())
        .or_else(|| {
            DateTime::parse_from_rfc2822(&header("Date"))
                .ok()
                .map(|d| d.with_timezone(&Utc))
        });
    OutboxMail {
        id: id.to_owned(),
        to: words(&header("To")),
        from: words(&header("From")),
        subject: words(&header("Subject")),
        at,
        text: text.replace("\r\n", "\n"),
    }
}

/// Unfolded headers and the body.
fn split(raw: &str) -> (String, &str) {
    let (head, body) = raw
        .split_once("\r\n\r\n")
        .or_else(|| raw.split_once("\n\n"))
        .unwrap_or((raw, ""));
    (
        head.replace("\r\n ", " ")
            .replace("\r\n\t", " ")
            .replace("\n ", " "),
        body,
    )
}

fn header(head: &str, name: &str) -> String {
    head.lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.trim().eq_ignore_ascii_case(name))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_default()
}

fn boundary(content_type: &str) -> Option<String> {
    if !content_type.to_ascii_lowercase().starts_with("multipart/") {
        return None;
    }
    content_type.split(';').find_map(|p| {
        let (k, v) = p.trim().split_once('=')?;
        k.eq_ignore_ascii_case("boundary")
            .then(|| v.trim_matches('"').to_owned())
    })
}

/// The first `text/plain` part of a multipart body (nested parts included).
fn plain_part(body: &str, separator: &str) -> Option<String> {
    let delimiter = format!("--{separator}");
    for part in body.split(delimiter.as_str()).skip(1) {
        if part.starts_with("--") {
            break;
        }
        let part = part.trim_start_matches(['\r', '\n']);
        let (head, inner) = split(part);
        let ct = header(&head, "Content-Type");
        if let Some(b) = boundary(&ct) {
            if let Some(t) = plain_part(inner, &b) {
                return Some(t);
            }
        } else if ct.is_empty() || ct.to_ascii_lowercase().starts_with("text/plain") {
            let inner = inner.trim_end_matches(['\r', '\n']);
            return Some(decode_body(
                &header(&head, "Content-Transfer-Encoding"),
                inner,
            ));
        }
    }
    None
}

fn decode_body(encoding: &str, body: &str) -> String {
    match encoding.to_ascii_lowercase().as_str() {
        "quoted-printable" => String::from_utf8_lossy(&quoted_printable(
            &body.replace("=\r\n", "").replace("=\n", ""),
        ))
        .into_owned(),
        "base64" => {
            let compact: String = body.chars().filter(|c| !c.is_whitespace()).collect();
            String::from_utf8_lossy(
                &base64::engine::general_purpose::STANDARD
                    .decode(compact)
                    .unwrap_or_default(),
            )
            .into_owned()
        }
        _ => body.to_owned(),
    }
}

fn quoted_printable(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'='
            && i + 2 < b.len()
            && let Some(v) = std::str::from_utf8(&b[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// A header value with its RFC 2047 encoded words (`=?utf-8?b?…?=`, `=?utf-8?q?…?=`) decoded;
/// whitespace between two encoded words goes, as the RFC says.
fn words(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    let mut last_was_word = false;
    while let Some(start) = rest.find("=?") {
        let (before, from) = rest.split_at(start);
        let decoded = from[2..].split_once('?').and_then(|(_charset, r)| {
            let (enc, r) = r.split_once('?')?;
            let (text, after) = r.split_once("?=")?;
            let bytes = match enc.to_ascii_lowercase().as_str() {
                "b" => base64::engine::general_purpose::STANDARD
                    .decode(text)
                    .ok()?,
                "q" => quoted_printable(&text.replace('_', " ")),
                _ => return None,
            };
            Some((String::from_utf8_lossy(&bytes).into_owned(), after))
        });
        match decoded {
            Some((text, after)) => {
                if !(last_was_word && before.trim().is_empty()) {
                    out.push_str(before);
                }
                out.push_str(&text);
                rest = after;
                last_was_word = true;
            }
            None => {
                out.push_str(before);
                out.push_str("=?");
                rest = &from[2..];
                last_was_word = false;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::Email;

    fn written(email: &Email) -> String {
        String::from_utf8(
            email
                .to_message("KYC <noreply@kyc.test>")
                .unwrap()
                .formatted(),
        )
        .unwrap()
    }

    #[test]
    fn reads_back_what_lettre_writes() {
        let mut e = Email::new(
            "asha@example.in",
            "Réinitialiser — ₹ 1,000 left on your wallet",
            "Line one\nसमाप्त ".repeat(40),
        );
        let m = parse("20261123T101112.123456Z-abc.eml", &written(&e));
        assert_eq!(m.to, "asha@example.in");
        assert_eq!(m.subject, e.subject);
        assert_eq!(m.text.trim_end(), e.text.replace("\r\n", "\n").trim_end());
        assert_eq!(
            m.at.unwrap().to_rfc3339(),
            "2026-11-23T10:11:12.123456+00:00"
        );
        e.html = Some("<p>html</p>".into());
        e.text = "plain text".into();
        assert_eq!(parse("x.eml", &written(&e)).text, "plain text");
    }

    #[test]
    fn only_plain_names_in_the_folder_are_ids() {
        assert!(valid_id("20261123T101112.123456Z-abc-1.eml"));
        for bad in [
            "../etc/passwd.eml",
            ".x.tmp",
            ".hidden.eml",
            "a/b.eml",
            "x.txt",
            "a..eml",
            "",
        ] {
            assert!(!valid_id(bad), "{bad}");
        }
    }
}
