//! Headers on every response that tell browsers what the platform's pages may do: a
//! Content-Security-Policy that the built web app works under (its own scripts only, images
//! and uploads also at the object store), no framing (clickjacking), no MIME sniffing, a
//! referrer that stops at the origin, and HSTS when `PUBLIC_URL` is https.

use axum::{
    http::{HeaderName, HeaderValue, header},
    response::Response,
};
use base64::Engine;
use domain::infra::config::{Config, StorageConfig};
use sha2::{Digest, Sha256};

#[derive(Clone)]
pub struct SecurityHeaders {
    headers: Vec<(HeaderName, HeaderValue)>,
}

/// The origin browsers talk to for uploads and images when files are on S3.
fn store_origin(config: &Config) -> Option<String> {
    match &config.storage {
        StorageConfig::Local { .. } => None,
        StorageConfig::S3(s3) => Some(match &s3.endpoint {
            Some(e) => {
                let (scheme, rest) = e.split_once("://").unwrap_or(("https", e));
                format!("{scheme}://{}", rest.split('/').next().unwrap_or(rest))
            }
            None => "https://*.amazonaws.com".into(),
        }),
    }
}

/// `'sha256-…'` of an inline script, so a page of ours may run exactly that script.
pub fn script_hash(script: &str) -> String {
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(Sha256::digest(script.as_bytes()))
    )
}

impl SecurityHeaders {
    pub fn new(config: &Config, inline_scripts: &[&str]) -> Self {
        let store = store_origin(config)
            .map(|o| format!(" {o}"))
            .unwrap_or_default();
        let hashes: String = inline_scripts
            .iter()
            .map(|s| format!(" {}", script_hash(s)))
            .collect();
        // Styles: the branded index carries the partner's colours in an inline <style>, and
        // components set style attributes; scripts, the dangerous part, stay locked down.
        let csp = format!(
            "default-src 'self'; script-src 'self'{hashes}; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:{store}; \
             font-src 'self' data:; connect-src 'self'{store}; object-src 'none'; base-uri 'self'; form-action 'self'; \
             frame-ancestors 'none'"
        );
        let mut headers = vec![
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_str(&csp).expect("ASCII policy"),
            ),
            (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
            (
                header::REFERRER_POLICY,
                HeaderValue::from_static("strict-origin-when-cross-origin"),
            ),
        ];
        if config.public_url.starts_with("https://") {
            headers.push((
                header::STRICT_TRANSPORT_SECURITY,
                HeaderValue::from_static("max-age=31536000; includeSubDomains"),
            ));
        }
        Self { headers }
    }

    /// Adds the headers a handler did not set itself.
    pub fn apply(&self, mut res: Response) -> Response {
        let h = res.headers_mut();
        for (name, value) in &self.headers {
            if !h.contains_key(name) {
                h.insert(name.clone(), value.clone());
            }
        }
        res
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn script_hashes_are_csp_sha256_sources() {
        // echo -n "alert(1)" | openssl dgst -sha256 -binary | base64
        assert_eq!(
            super::script_hash("alert(1)"),
            "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='"
        );
    }
}
