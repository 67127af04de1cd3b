//! Links to stored files that a page can show without a session.

use crate::AppState;

/// A signed, long-lived download link of a stored file; `None` when there is no key or the
/// store cannot sign (a profile still loads without its pictures).
pub async fn signed_link(state: &AppState, key: Option<&str>) -> Option<String> {
    let key = key?;
    match state.storage.public_url_for(key).await {
        Ok(url) => Some(url),
        Err(e) => {
            tracing::warn!(error = %e, "could not sign a branding file link");
            None
        }
    }
}
