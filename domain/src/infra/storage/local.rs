//! The embedded default store: a folder, with links that the api serves under `/files/{key}`.
//! A link carries its expiry and, for uploads, the content type and the largest size it allows,
//! all under one HMAC-SHA256 with `LINK_SIGNING_KEY`; the api checks it in constant time, so
//! a link cannot be stretched, re-pointed at another key or turned from a GET into a PUT.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::Deserialize;
use tokio::io::{AsyncRead, AsyncWriteExt};

use super::{Presigned, check_key};
use crate::{Error, Result, infra::crypto};

#[derive(Clone)]
pub struct LocalStore {
    dir: PathBuf,
    public_url: String,
    signing_key: Vec<u8>,
}

/// The query string of a link, as the api's `/files` route receives it.
#[derive(Debug, Clone, Deserialize)]
pub struct LinkQuery {
    pub expires: i64,
    pub sig: String,
    /// PUT only: the content type the upload must declare.
    pub ct: Option<String>,
    /// PUT only: the largest body in bytes.
    pub max: Option<u64>,
}

/// What a valid upload link allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PutGrant {
    pub content_type: String,
    pub max_size: u64,
}

impl LocalStore {
    pub fn new(dir: PathBuf, public_url: &str, signing_key: &str) -> Self {
        Self {
            dir,
            public_url: public_url.trim_end_matches('/').to_owned(),
            signing_key: signing_key.as_bytes().to_vec(),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file behind a key; the key is checked, so the path stays inside the folder.
    pub fn path(&self, key: &str) -> Result<PathBuf> {
        Ok(self.dir.join(check_key(key)?))
    }

    // Method, key, expiry, content type and size limit, one per line: none of them can hold a
    // newline (keys are checked, the content type is refused if it has one), so no two
    // different links share a signed string.
    fn string_to_sign(method: &str, key: &str, expires: i64, ct: &str, max: Option<u64>) -> String {
        format!(
            "{method}\n{key}\n{expires}\n{ct}\n{}",
            max.map(|m| m.to_string()).unwrap_or_default()
        )
    }

    fn sign(&self, data: &str) -> String {
        crypto::hmac_hex(&self.signing_key, data.as_bytes())
    }

    pub fn presign_get(&self, key: &str, expires_at: DateTime<Utc>) -> Result<Presigned> {
        check_key(key)?;
        let expires = expires_at.timestamp();
        let sig = self.sign(&Self::string_to_sign("GET", key, expires, "", None));
        let url = format!(
            "{}/files/{key}?expires={expires}&sig={sig}",
            self.public_url
        );
        Ok(Presigned {
            url,
            method: "GET",
            headers: Default::default(),
            expires_at,
        })
    }

    pub fn presign_put(
        &self,
        key: &str,
        content_type: &str,
        max_size: u64,
        expires_at: DateTime<Utc>,
    ) -> Result<Presigned> {
        check_key(key)?;
        if content_type.is_empty() || content_type.chars().any(char::is_control) {
            return Err(Error::invalid("content_type", "Invalid content type"));
        }
        let expires = expires_at.timestamp();
        let sig = self.sign(&Self::string_to_sign(
            "PUT",
            key,
            expires,
            content_type,
            Some(max_size),
        ));
        let url = format!(
            "{}/files/{key}?expires={expires}&ct={}&max={max_size}&sig={sig}",
            self.public_url,
            encode_query_value(content_type)
        );
        let headers = [("Content-Type".to_owned(), content_type.to_owned())].into();
        Ok(Presigned {
            url,
            method: "PUT",
            headers,
            expires_at,
        })
    }

    /// Checks a download link. Expired and forged links are both refused with 403.
    pub fn verify_get(&self, key: &str, q: &LinkQuery, now: DateTime<Utc>) -> Result<()> {
        check_key(key).map_err(|_| forged())?;
        self.verify(
            &Self::string_to_sign("GET", key, q.expires, "", None),
            q,
            now,
        )
    }

    /// Checks an upload link and returns what it allows.
    pub fn verify_put(&self, key: &str, q: &LinkQuery, now: DateTime<Utc>) -> Result<PutGrant> {
        check_key(key).map_err(|_| forged())?;
        let (Some(ct), Some(max)) = (q.ct.as_deref(), q.max) else {
            return Err(forged());
        };
        self.verify(
            &Self::string_to_sign("PUT", key, q.expires, ct, Some(max)),
            q,
            now,
        )?;
        Ok(PutGrant {
            content_type: ct.to_owned(),
            max_size: max,
        })
    }

    fn verify(&self, data: &str, q: &LinkQuery, now: DateTime<Utc>) -> Result<()> {
        // The signature first, so that an expired link and a forged one are told apart only
        // for links we really issued.
        if !crypto::hmac_verify(&self.signing_key, data.as_bytes(), &q.sig) {
            return Err(forged());
        }
        if now.timestamp() > q.expires {
            return Err(Error::Forbidden("This link has expired".into()));
        }
        Ok(())
    }

    pub async fn put_bytes(&self, key: &str, bytes: &[u8]) -> Result<()> {
        let mut up = self.begin(key).await?;
        up.write(bytes).await?;
        up.commit().await
    }

    pub async fn put_reader(
        &self,
        key: &str,
        reader: &mut (impl AsyncRead + Unpin),
    ) -> Result<u64> {
        let mut up = self.begin(key).await?;
        let file = up.file.as_mut().expect("open until commit");
        let n = tokio::io::copy(reader, file).await.map_err(io)?;
        up.len = n;
        up.commit().await?;
        Ok(n)
    }

    pub async fn get_bytes(&self, key: &str) -> Result<Vec<u8>> {
        match tokio::fs::read(self.path(key)?).await {
            Ok(b) => Ok(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Error::NotFound),
            Err(e) => Err(io(e)),
        }
    }

    pub async fn read_head(&self, key: &str, n: usize) -> Result<Vec<u8>> {
        use tokio::io::AsyncReadExt;
        let file = match tokio::fs::File::open(self.path(key)?).await {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Error::NotFound),
            Err(e) => return Err(io(e)),
        };
        let mut head = Vec::with_capacity(n);
        file.take(n as u64)
            .read_to_end(&mut head)
            .await
            .map_err(io)?;
        Ok(head)
    }

    pub async fn exists(&self, key: &str) -> Result<bool> {
        Ok(tokio::fs::metadata(self.path(key)?)
            .await
            .is_ok_and(|m| m.is_file()))
    }

    /// Deleting what is not there is not an error (as on S3).
    pub async fn delete(&self, key: &str) -> Result<()> {
        match tokio::fs::remove_file(self.path(key)?).await {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(e)),
            _ => Ok(()),
        }
    }

    /// Starts writing `key`: bytes go to a temporary file that `commit` renames into place, so
    /// a reader never sees half a file and an abandoned upload leaves nothing behind.
    pub async fn begin(&self, key: &str) -> Result<LocalUpload> {
        let target = self.path(key)?;
        let tmp_dir = self.dir.join(".tmp");
        tokio::fs::create_dir_all(&tmp_dir).await.map_err(io)?;
        let tmp = tmp_dir.join(uuid::Uuid::new_v4().simple().to_string());
        let file = tokio::fs::File::create(&tmp).await.map_err(io)?;
        Ok(LocalUpload {
            tmp,
            target,
            file: Some(file),
            len: 0,
        })
    }
}

/// A file being written; dropped without `commit`, its temporary file is removed.
pub struct LocalUpload {
    tmp: PathBuf,
    target: PathBuf,
    file: Option<tokio::fs::File>,
    len: u64,
}

impl LocalUpload {
    pub async fn write(&mut self, chunk: &[u8]) -> Result<()> {
        self.file
            .as_mut()
            .expect("open until commit")
            .write_all(chunk)
            .await
            .map_err(io)?;
        self.len += chunk.len() as u64;
        Ok(())
    }

    /// Bytes written so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Like `commit`, but never replaces a file: an upload link works once. A hard link
    /// either creates the name or fails because it exists, with no window in between.
    /// `Error::Conflict` when the key is taken.
    pub async fn commit_new(mut self) -> Result<()> {
        let mut file = self.file.take().expect("committed once");
        file.flush().await.map_err(io)?;
        file.sync_all().await.map_err(io)?;
        drop(file);
        if let Some(parent) = self.target.parent() {
            tokio::fs::create_dir_all(parent).await.map_err(io)?;
        }
        let linked = tokio::fs::hard_link(&self.tmp, &self.target).await;
        let _ = tokio::fs::remove_file(&self.tmp).await;
        match linked {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                Err(Error::conflict(LINK_USED))
            }
            Err(e) => Err(io(e)),
        }
    }

    pub async fn commit(mut self) -> Result<()> {
        let mut file = self.file.take().expect("committed once");
        file.flush().await.map_err(io)?;
        file.sync_all().await.map_err(io)?;
        drop(file);
        if let Some(parent) = self.target.parent() {
            tokio::fs::create_dir_all(parent).await.map_err(io)?;
        }
        tokio::fs::rename(&self.tmp, &self.target).await.map_err(io)
    }
}

impl Drop for LocalUpload {
    fn drop(&mut self) {
        if self.file.is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

pub const LINK_USED: &str = "This upload link has already been used";

fn forged() -> Error {
    Error::Forbidden("This link is not valid".into())
}

fn io(e: std::io::Error) -> Error {
    Error::Other(anyhow::Error::new(e).context("local storage"))
}

/// Percent-encodes everything but RFC 3986's unreserved characters.
fn encode_query_value(v: &str) -> String {
    v.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The content type a stored file is served with, from its extension. Only a fixed list of
/// harmless types: nothing stored is ever served as HTML or SVG, whatever its name.
pub fn content_type_for(key: &str) -> &'static str {
    let ext = key
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "ico" => "image/x-icon",
        "pdf" => "application/pdf",
        "csv" => "text/csv; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "json" => "application/json",
        "zip" => "application/zip",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        _ => "application/octet-stream",
    }
}
