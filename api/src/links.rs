//! Links to stored files that a page can show without a session.

use crate::AppState;

/// A signed, long-lived download link of a stored file; `None` when there is no key or the
/// store cannot sign (a profile still loads without its pictures).
///
/// A link into the local store is given without its origin (`/files/…`): a partner's site at
/// `{subdomain}.{PLATFORM_DOMAIN}` then loads its logo and favicon from its own origin, which
/// its Content-Security-Policy (`img-src 'self'`) allows, where the platform's address would be
/// another origin and blocked. The api serves `/files` on every host it answers.
pub async fn signed_link(state: &AppState, key: Option<&str>) -> Option<String> {
    let key = key?;
    match state.storage.public_url_for(key).await {
        Ok(url) => Some(same_origin(&state.config.public_url, url)),
        Err(e) => {
            tracing::warn!(error = %e, "could not sign a branding file link");
            None
        }
    }
}

/// `url` without the platform's origin when it is on it; any other (an S3 link) as it is.
fn same_origin(public_url: &str, url: String) -> String {
    let origin = public_url.trim_end_matches('/');
    match url.strip_prefix(origin) {
        Some(path) if path.starts_with('/') => path.to_owned(),
        _ => url,
    }
}

#[cfg(test)]
mod tests {
    use super::same_origin;

    #[test]
    fn local_links_lose_the_platforms_origin_only() {
        let p = "http://localhost:8080";
        assert_eq!(
            same_origin(p, "http://localhost:8080/files/a/logo.png?sig=1".into()),
            "/files/a/logo.png?sig=1"
        );
        assert_eq!(
            same_origin(
                "http://localhost:8080/",
                "http://localhost:8080/files/x".into()
            ),
            "/files/x"
        );
        // Another port is another origin, and an S3 link stays whole.
        assert_eq!(
            same_origin(p, "http://localhost:80800/files/x".into()),
            "http://localhost:80800/files/x"
        );
        assert_eq!(
            same_origin(p, "https://bucket.s3.amazonaws.com/k?X-Amz=1".into()),
            "https://bucket.s3.amazonaws.com/k?X-Amz=1"
        );
    }
}
