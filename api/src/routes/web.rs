//! The built web app (web/dist). Any path that is not an API path answers index.html, so the
//! browser's router handles deep links such as /dashboard.

use std::path::Path;

use axum::{
    response::{Html, IntoResponse},
    routing::{MethodRouter, get_service},
};
use tower_http::services::{ServeDir, ServeFile};

use crate::AppState;

pub fn service(dist: &Path) -> MethodRouter<AppState> {
    let index = dist.join("index.html");
    if !index.exists() {
        tracing::warn!(dist = %dist.display(), "web app not built; run `npm run build` in web/");
        return axum::routing::get(|| async {
            Html("<!doctype html><title>KYC Platform</title><p>The web app is not built yet: run <code>npm run build</code> in <code>web/</code>.</p>").into_response()
        });
    }
    get_service(ServeDir::new(dist).append_index_html_on_directories(true).fallback(ServeFile::new(index)))
}
