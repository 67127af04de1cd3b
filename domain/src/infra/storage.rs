//! Object storage: partner logos, favicons, QR images, bank statements and exports.
//!
//! Two backends behind one type, chosen by `STORAGE`: a local folder (the embedded default,
//! whose links the api signs and serves itself under `/files`) and any S3 API. Either way the
//! browser uploads and downloads through short-lived signed links, and the stored value is the
//! key, never a URL: links expire, keys do not.

mod key;
pub mod local;
pub mod s3;
pub mod upload;

use std::{collections::BTreeMap, path::Path, time::Duration};

use chrono::{DateTime, Utc};
use serde::Serialize;
use tokio::io::AsyncRead;

use crate::{
    Error, Result,
    infra::config::{Config, StorageConfig},
};
pub use key::{check_key, random_prefix, sanitize_file_name};
pub use local::{LinkQuery, LocalStore, PutGrant};
pub use s3::S3Store;
pub use upload::{UploadPlan, UploadPurpose};

/// How long an upload link stays valid.
pub const UPLOAD_LINK_TTL: Duration = Duration::from_secs(15 * 60);
/// How long the links in partner profiles (logo, favicon) stay valid. SigV4 allows a week at
/// most; pages ask for the profile again long before that.
pub const PUBLIC_LINK_TTL: Duration = Duration::from_secs(7 * 24 * 60 * 60);

/// A signed request the browser makes itself.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Presigned {
    pub url: String,
    pub method: &'static str,
    /// Headers the request must carry exactly as given (the content type is signed).
    pub headers: BTreeMap<String, String>,
    pub expires_at: DateTime<Utc>,
}

#[derive(Clone)]
pub enum Storage {
    Local(LocalStore),
    S3(S3Store),
}

impl Storage {
    /// Builds the store named by the configuration. Nothing is contacted yet: a store that is
    /// down shows up on first use, not as a process that will not start.
    pub fn new(config: &Config) -> Self {
        match &config.storage {
            StorageConfig::Local { dir } => Self::Local(LocalStore::new(
                dir.clone(),
                &config.public_url,
                &config.link_signing_key,
            )),
            StorageConfig::S3(s3) => Self::S3(S3Store::new(s3)),
        }
    }

    /// The local store, whose links the api's `/files` route serves.
    pub fn local(&self) -> Option<&LocalStore> {
        match self {
            Self::Local(l) => Some(l),
            Self::S3(_) => None,
        }
    }

    /// A link to upload `key` with `content_type`. `size` is the size the client declared: the
    /// local store accepts a body up to it, S3 binds the link to exactly that length.
    pub async fn presign_put(
        &self,
        key: &str,
        content_type: &str,
        size: u64,
        ttl: Duration,
    ) -> Result<Presigned> {
        let now = Utc::now();
        match self {
            Self::Local(l) => l.presign_put(key, content_type, size, expiry(now, ttl)?),
            Self::S3(s) => s.presign_put(key, content_type, size, ttl, now).await,
        }
    }

    pub async fn presign_get(&self, key: &str, ttl: Duration) -> Result<Presigned> {
        let now = Utc::now();
        match self {
            Self::Local(l) => l.presign_get(key, expiry(now, ttl)?),
            Self::S3(s) => s.presign_get(key, ttl, now).await,
        }
    }

    /// A long-lived download link for a stored key (logo and favicon URLs in profiles).
    pub async fn public_url_for(&self, key: &str) -> Result<String> {
        Ok(self.presign_get(key, PUBLIC_LINK_TTL).await?.url)
    }

    pub async fn put_bytes(&self, key: &str, bytes: Vec<u8>, content_type: &str) -> Result<()> {
        match self {
            Self::Local(l) => l.put_bytes(key, &bytes).await,
            Self::S3(s) => s.put_bytes(key, bytes, content_type).await,
        }
    }

    /// `Error::NotFound` when there is no such object.
    pub async fn get_bytes(&self, key: &str) -> Result<Vec<u8>> {
        match self {
            Self::Local(l) => l.get_bytes(key).await,
            Self::S3(s) => s.get_bytes(key).await,
        }
    }

    /// Up to `n` bytes from the start of an object; `Error::NotFound` when there is none.
    pub async fn read_head(&self, key: &str, n: usize) -> Result<Vec<u8>> {
        match self {
            Self::Local(l) => l.read_head(key, n).await,
            Self::S3(s) => s.read_head(key, n).await,
        }
    }

    /// Checks an uploaded object before anything uses it (branding, QR, a statement): it must
    /// exist and start with the magic bytes of a format `purpose` allows. A file that does not
    /// is removed, and the answer is a 422 on `field`.
    pub async fn verify_upload(
        &self,
        key: &str,
        purpose: UploadPurpose,
        field: &str,
    ) -> Result<()> {
        let head = match self.read_head(key, 16).await {
            Ok(h) => h,
            Err(Error::NotFound) => return Err(Error::invalid(field, "Please select a file")),
            Err(e) => return Err(e),
        };
        if !purpose.accepts(&head) {
            tracing::warn!(
                key,
                purpose = purpose.as_str(),
                "uploaded file is not the type it claims; removed"
            );
            self.delete(key).await?;
            return Err(Error::invalid(field, purpose.wrong_type_message()));
        }
        Ok(())
    }

    pub async fn exists(&self, key: &str) -> Result<bool> {
        match self {
            Self::Local(l) => l.exists(key).await,
            Self::S3(s) => s.exists(key).await,
        }
    }

    /// Idempotent: deleting a missing object succeeds.
    pub async fn delete(&self, key: &str) -> Result<()> {
        match self {
            Self::Local(l) => l.delete(key).await,
            Self::S3(s) => s.delete(key).await,
        }
    }

    /// Streams a reader of any length into `key` without holding it in memory (S3: multipart
    /// upload). Returns the number of bytes stored.
    pub async fn put_reader(
        &self,
        key: &str,
        reader: &mut (impl AsyncRead + Unpin),
        content_type: &str,
    ) -> Result<u64> {
        match self {
            Self::Local(l) => l.put_reader(key, reader).await,
            Self::S3(s) => s.put_reader(key, reader, content_type).await,
        }
    }

    /// Stores a finished file, e.g. an export a job wrote to a temporary file.
    pub async fn put_file(&self, key: &str, path: &Path, content_type: &str) -> Result<u64> {
        let mut file = tokio::fs::File::open(path).await.map_err(|e| {
            Error::Other(anyhow::Error::new(e).context(format!("opening {}", path.display())))
        })?;
        self.put_reader(key, &mut file, content_type).await
    }
}

fn expiry(now: DateTime<Utc>, ttl: Duration) -> Result<DateTime<Utc>> {
    chrono::Duration::from_std(ttl)
        .ok()
        .and_then(|d| now.checked_add_signed(d))
        .ok_or_else(|| Error::Other(anyhow::anyhow!("link lifetime {ttl:?} out of range")))
}

#[cfg(test)]
mod tests;
