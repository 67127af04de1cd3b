//! Any S3 API through aws-sdk-s3: AWS itself, or an S3-compatible store at a custom endpoint
//! (MinIO, R2, the tests' loopback server) with path-style addressing. Links are real SigV4
//! presigned requests, so the browser talks to the store directly and the api never proxies
//! file bytes.

use std::time::Duration;

use aws_credential_types::Credentials;
use aws_sdk_s3::{
    Client,
    config::{BehaviorVersion, Region, RequestChecksumCalculation, ResponseChecksumValidation},
    error::{DisplayErrorContext, SdkError},
    presigning::PresigningConfig,
    primitives::ByteStream,
    types::{CompletedMultipartUpload, CompletedPart},
};
use aws_smithy_http_client::tls;
use chrono::{DateTime, Utc};
use tokio::io::{AsyncRead, AsyncReadExt};

use super::{Presigned, check_key};
use crate::{Error, Result, infra::config::S3Config};

/// Parts of a multipart upload. S3 wants at least 5 MiB for every part but the last.
pub const DEFAULT_PART_SIZE: usize = 8 * 1024 * 1024;
const MIN_PART_SIZE: usize = 5 * 1024 * 1024;

#[derive(Clone)]
pub struct S3Store {
    client: Client,
    bucket: String,
    part_size: usize,
}

impl S3Store {
    pub fn new(cfg: &S3Config) -> Self {
        // rustls with ring: no OpenSSL and no aws-lc (which needs cmake and a C toolchain).
        let http = aws_smithy_http_client::Builder::new()
            .tls_provider(tls::Provider::Rustls(
                tls::rustls_provider::CryptoMode::Ring,
            ))
            .build_https();
        let credentials = Credentials::new(
            &cfg.access_key_id,
            &cfg.secret_access_key,
            None,
            None,
            "kyc-platform-config",
        );
        let mut b = aws_sdk_s3::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new(cfg.region.clone()))
            .credentials_provider(credentials)
            .http_client(http)
            // Checksums only where S3 demands them: S3-compatible stores vary in support, and
            // a checksum header in a presigned PUT would bind the link to an empty body.
            .request_checksum_calculation(RequestChecksumCalculation::WhenRequired)
            .response_checksum_validation(ResponseChecksumValidation::WhenRequired);
        if let Some(endpoint) = &cfg.endpoint {
            // Compatible stores rarely have wildcard DNS for virtual-hosted buckets.
            b = b.endpoint_url(endpoint).force_path_style(true);
        }
        Self {
            client: Client::from_conf(b.build()),
            bucket: cfg.bucket.clone(),
            part_size: DEFAULT_PART_SIZE,
        }
    }

    /// Smaller parts for tests; S3's own minimum still holds.
    pub fn with_part_size(mut self, bytes: usize) -> Self {
        self.part_size = bytes.max(MIN_PART_SIZE);
        self
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    pub fn bucket(&self) -> &str {
        &self.bucket
    }

    /// A presigned PUT bound to the content type, the exact length and `If-None-Match: *`: S3
    /// refuses a body of another size or type with 403, and a second upload with 412.
    pub async fn presign_put(
        &self,
        key: &str,
        content_type: &str,
        size: u64,
        ttl: Duration,
        now: DateTime<Utc>,
    ) -> Result<Presigned> {
        let req = self
            .client
            .put_object()
            .bucket(&self.bucket)
            .key(check_key(key)?)
            .content_type(content_type)
            .content_length(i64::try_from(size).map_err(|_| Error::TooLarge("File size is too large".into()))?)
            // Signed, so the browser must send it: S3 then refuses a second PUT to the same
            // key (412), and an upload link works once.
            .if_none_match("*")
            .presigned(presigning(ttl, now)?)
            .await
            .map_err(|e| other("presigning a PUT", e))?;
        // Browsers set Content-Length themselves and refuse to be told it.
        let headers = req
            .headers()
            .filter(|(k, _)| !k.eq_ignore_ascii_case("content-length"))
            .map(|(k, v)| {
                (
                    if k.eq_ignore_ascii_case("content-type") {
                        "Content-Type".into()
                    } else {
                        k.to_owned()
                    },
                    v.to_owned(),
                )
            })
            .collect();
        Ok(Presigned {
            url: req.uri().to_owned(),
            method: "PUT",
            headers,
            expires_at: expiry(now, ttl),
        })
    }

    pub async fn presign_get(
        &self,
        key: &str,
        ttl: Duration,
        now: DateTime<Utc>,
    ) -> Result<Presigned> {
        let req = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(check_key(key)?)
            .presigned(presigning(ttl, now)?)
            .await
            .map_err(|e| other("presigning a GET", e))?;
        Ok(Presigned {
            url: req.uri().to_owned(),
            method: "GET",
            headers: Default::default(),
            expires_at: expiry(now, ttl),
        })
    }

    pub async fn put_bytes(&self, key: &str, bytes: Vec<u8>, content_type: &str) -> Result<()> {
        self.client
            .put_object()
            .bucket(&self.bucket)
            .key(check_key(key)?)
            .content_type(content_type)
            .body(ByteStream::from(bytes))
            .send()
            .await
            .map_err(|e| other("PutObject", e))?;
        Ok(())
    }

    pub async fn get_bytes(&self, key: &str) -> Result<Vec<u8>> {
        let out = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(check_key(key)?)
            .send()
            .await
            .map_err(|e| {
                if e.as_service_error().is_some_and(|s| s.is_no_such_key()) {
                    Error::NotFound
                } else {
                    other("GetObject", e)
                }
            })?;
        let data = out
            .body
            .collect()
            .await
            .map_err(|e| Error::Other(anyhow::anyhow!("reading an S3 object: {e}")))?;
        Ok(data.into_bytes().to_vec())
    }

    pub async fn read_head(&self, key: &str, n: usize) -> Result<Vec<u8>> {
        let out = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(check_key(key)?)
            .range(format!("bytes=0-{}", n.max(1) - 1))
            .send()
            .await
            .map_err(|e| {
                if e.as_service_error().is_some_and(|s| s.is_no_such_key()) {
                    Error::NotFound
                } else {
                    other("GetObject", e)
                }
            })?;
        let data = out
            .body
            .collect()
            .await
            .map_err(|e| Error::Other(anyhow::anyhow!("reading an S3 object: {e}")))?;
        let mut head = data.into_bytes().to_vec();
        head.truncate(n);
        Ok(head)
    }

    pub async fn exists(&self, key: &str) -> Result<bool> {
        match self
            .client
            .head_object()
            .bucket(&self.bucket)
            .key(check_key(key)?)
            .send()
            .await
        {
            Ok(_) => Ok(true),
            Err(e) if e.as_service_error().is_some_and(|s| s.is_not_found()) => Ok(false),
            Err(e) => Err(other("HeadObject", e)),
        }
    }

    pub async fn delete(&self, key: &str) -> Result<()> {
        self.client
            .delete_object()
            .bucket(&self.bucket)
            .key(check_key(key)?)
            .send()
            .await
            .map_err(|e| other("DeleteObject", e))?;
        Ok(())
    }

    /// Streams `reader` into `key` holding one part in memory at a time: a single PutObject
    /// when it fits in one part, a multipart upload otherwise (aborted if any part fails, so
    /// no orphaned parts keep costing storage).
    pub async fn put_reader(
        &self,
        key: &str,
        reader: &mut (impl AsyncRead + Unpin),
        content_type: &str,
    ) -> Result<u64> {
        check_key(key)?;
        let first = read_part(reader, self.part_size).await?;
        if first.len() < self.part_size {
            let n = first.len() as u64;
            self.put_bytes(key, first, content_type).await?;
            return Ok(n);
        }
        let created = self
            .client
            .create_multipart_upload()
            .bucket(&self.bucket)
            .key(key)
            .content_type(content_type)
            .send()
            .await
            .map_err(|e| other("CreateMultipartUpload", e))?;
        let upload_id = created
            .upload_id()
            .ok_or_else(|| Error::Other(anyhow::anyhow!("S3 returned no upload id")))?
            .to_owned();
        match self.upload_parts(key, &upload_id, first, reader).await {
            Ok(n) => Ok(n),
            Err(e) => {
                let abort = self
                    .client
                    .abort_multipart_upload()
                    .bucket(&self.bucket)
                    .key(key)
                    .upload_id(&upload_id)
                    .send()
                    .await;
                if let Err(a) = abort {
                    tracing::warn!(error = %DisplayErrorContext(&a), "aborting a failed multipart upload");
                }
                Err(e)
            }
        }
    }

    async fn upload_parts(
        &self,
        key: &str,
        upload_id: &str,
        first: Vec<u8>,
        reader: &mut (impl AsyncRead + Unpin),
    ) -> Result<u64> {
        let mut parts = Vec::new();
        let mut total = 0u64;
        let mut chunk = first;
        loop {
            let number = parts.len() as i32 + 1;
            total += chunk.len() as u64;
            let out = self
                .client
                .upload_part()
                .bucket(&self.bucket)
                .key(key)
                .upload_id(upload_id)
                .part_number(number)
                .body(ByteStream::from(chunk))
                .send()
                .await
                .map_err(|e| other("UploadPart", e))?;
            parts.push(
                CompletedPart::builder()
                    .part_number(number)
                    .set_e_tag(out.e_tag().map(str::to_owned))
                    .build(),
            );
            chunk = read_part(reader, self.part_size).await?;
            if chunk.is_empty() {
                break;
            }
        }
        self.client
            .complete_multipart_upload()
            .bucket(&self.bucket)
            .key(key)
            .upload_id(upload_id)
            .multipart_upload(
                CompletedMultipartUpload::builder()
                    .set_parts(Some(parts))
                    .build(),
            )
            .send()
            .await
            .map_err(|e| other("CompleteMultipartUpload", e))?;
        Ok(total)
    }
}

/// Reads until `size` bytes or the end, whichever comes first.
async fn read_part(reader: &mut (impl AsyncRead + Unpin), size: usize) -> Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(size);
    reader
        .take(size as u64)
        .read_to_end(&mut buf)
        .await
        .map_err(|e| Error::Other(anyhow::Error::new(e).context("reading an upload")))?;
    Ok(buf)
}

fn presigning(ttl: Duration, now: DateTime<Utc>) -> Result<PresigningConfig> {
    PresigningConfig::builder()
        .start_time(now.into())
        .expires_in(ttl)
        .build()
        .map_err(|e| Error::Other(anyhow::anyhow!("presigning config: {e}")))
}

fn expiry(now: DateTime<Utc>, ttl: Duration) -> DateTime<Utc> {
    now + chrono::Duration::from_std(ttl).unwrap_or(chrono::Duration::MAX)
}

fn other<E, R>(op: &str, e: SdkError<E, R>) -> Error
where
    E: std::error::Error + Send + Sync + 'static,
    R: std::fmt::Debug + Send + Sync + 'static,
{
    // DisplayErrorContext walks the whole source chain: "service error" alone says nothing.
    Error::Other(anyhow::anyhow!("S3 {op}: {}", DisplayErrorContext(&e)))
}
