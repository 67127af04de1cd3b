//! The built web app (web/dist). Any path that is not an API path answers index.html, so the
//! browser's router handles deep links such as /dashboard.
//!
//! On a partner's site (`Host: {sub}.{PLATFORM_DOMAIN}`, sub-domain active) the pages' index.html
//! carries the partner's title, favicon and theme colour, so the tab looks right before any
//! script runs (and to link previews that run none), and names the site in
//! `<meta name="portal-site">`: the web app reads it once at start and mounts the end users'
//! portal instead of the platform's pages. The plain page (no marker) is the platform's.

use std::path::{Path, PathBuf};

use axum::{
    extract::{Request, State},
    http::{HeaderMap, header},
    response::{Html, IntoResponse, Response},
    routing::MethodRouter,
};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::{AppState, links, sites};

pub fn service(dist: &Path) -> MethodRouter<AppState> {
    let index = dist.join("index.html");
    if !index.exists() {
        tracing::warn!(dist = %dist.display(), "web app not built; run `npm run build` in web/");
        return axum::routing::get(|| async {
            Html("<!doctype html><title>KYC Platform</title><p>The web app is not built yet: run <code>npm run build</code> in <code>web/</code>.</p>").into_response()
        });
    }
    let files = ServeDir::new(dist)
        .append_index_html_on_directories(true)
        .fallback(ServeFile::new(&index));
    axum::routing::get(move |State(state): State<AppState>, req: Request| {
        let (files, index) = (files.clone(), index.clone());
        async move {
            // Owned copies: a borrowed request (its body is not Sync) cannot live across awaits.
            let (path, headers) = (req.uri().path().to_owned(), req.headers().clone());
            if let Some(page) = branded_page(&state, &index, &path, &headers).await {
                return page;
            }
            match files.oneshot(req).await {
                Ok(res) => res.into_response(),
                Err(never) => match never {},
            }
        }
    })
}

/// A page (not a file such as /assets/app.js) on an active partner site: index.html branded.
async fn branded_page(
    state: &AppState,
    index: &PathBuf,
    path: &str,
    headers: &HeaderMap,
) -> Option<Response> {
    let last = path.rsplit('/').next().unwrap_or("");
    if last.contains('.') && last != "index.html" {
        return None;
    }
    let sub = sites::requested_subdomain(state, None, headers)?;
    let site = match sites::site_branding(state, &sub).await {
        Ok(Some(site)) => site,
        Ok(None) => return None,
        Err(e) => {
            tracing::warn!(error = ?e, "branding lookup failed; serving the plain page");
            return None;
        }
    };
    let html = tokio::fs::read_to_string(index).await.ok()?;
    let favicon = links::signed_link(state, site.favicon_key.as_deref()).await;
    let page = inject(
        &html,
        &site.subdomain,
        &site.title(),
        favicon.as_deref(),
        &site.theme_primary,
        &site.theme(),
    );
    // The page differs per Host and its favicon link expires: never cache it as shared.
    Some(
        (
            [(header::CACHE_CONTROL, "no-cache"), (header::VARY, "Host")],
            Html(page),
        )
            .into_response(),
    )
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// Replaces the `<title>` and the `<link rel="icon">`, and adds the portal's site marker, the
/// theme colour and the three colours as CSS variables, just before `</head>`.
pub fn inject(
    html: &str,
    subdomain: &str,
    title: &str,
    favicon_url: Option<&str>,
    theme_colour: &str,
    theme: &domain::partners::branding::Theme,
) -> String {
    let mut out = html.to_owned();
    let title_tag = format!("<title>{}</title>", escape(title));
    match (out.find("<title>"), out.find("</title>")) {
        (Some(a), Some(b)) if a < b => out.replace_range(a..b + "</title>".len(), &title_tag),
        _ => out = out.replacen("</head>", &format!("{title_tag}</head>"), 1),
    }
    if let Some(url) = favicon_url {
        // Drop the app's placeholder icon so that ours is the only one; ours keeps its id, so the
        // admin shell can still swap it after sign-in.
        if let Some(a) = out.find("<link rel=\"icon\"")
            && let Some(len) = out[a..].find('>')
        {
            out.replace_range(a..a + len + 1, "");
        }
        out = out.replacen(
            "</head>",
            &format!(
                "<link rel=\"icon\" id=\"app-favicon\" href=\"{}\"></head>",
                escape(url)
            ),
            1,
        );
    }
    let extra = format!(
        "<meta name=\"portal-site\" content=\"{}\"><meta name=\"theme-color\" content=\"{}\"><style>:root{{--brand-primary:{};--brand-secondary:{};--brand-tertiary:{}}}</style>",
        escape(subdomain),
        escape(theme_colour),
        escape(&theme.primary),
        escape(&theme.secondary),
        escape(&theme.tertiary)
    );
    out.replacen("</head>", &format!("{extra}</head>"), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn injects_title_icon_and_colours() {
        let html = "<html><head><link rel=\"icon\" id=\"app-favicon\" href=\"data:,\" /><title>KYC Whitelabel</title></head><body></body></html>";
        let theme = domain::partners::branding::Theme {
            primary: "#0F766E".into(),
            secondary: "#7C3AED".into(),
            tertiary: "#F59E0B".into(),
        };
        let out = inject(
            html,
            "demo",
            "Demo <KYC> - Home",
            Some("/files/x?sig=1&e=2"),
            "#0F766E",
            &theme,
        );
        assert!(
            out.contains("<title>Demo &lt;KYC&gt; - Home</title>"),
            "{out}"
        );
        assert!(
            !out.contains("KYC Whitelabel") && !out.contains("data:,"),
            "{out}"
        );
        assert!(
            out.contains("<link rel=\"icon\" id=\"app-favicon\" href=\"/files/x?sig=1&amp;e=2\">"),
            "{out}"
        );
        assert!(
            out.contains("<meta name=\"theme-color\" content=\"#0F766E\">"),
            "{out}"
        );
        assert!(
            out.contains("<meta name=\"portal-site\" content=\"demo\">"),
            "{out}"
        );
        assert!(out.contains("--brand-secondary:#7C3AED"), "{out}");
    }
}
