//! One module per feature, each with its own `router()`.

pub mod account;
pub mod api_keys;
pub mod auth;
pub mod branding;
pub mod catalogue;
pub mod clients;
pub mod contact;
pub mod earnings;
pub mod exports;
pub mod files;
pub mod health;
pub mod ip_access;
pub mod ip_hits;
pub mod jobs;
pub mod logs;
pub mod mail;
pub mod metrics;
pub mod onboarding;
pub mod payment_settings;
pub mod plan_cards;
pub mod plans;
pub mod policies;
pub mod portal;
pub mod pricing;
pub mod settings;
pub mod signup_customization;
pub mod transactions;
pub mod trubank;
pub mod uploads;
pub mod users;
pub mod verify;
pub mod visibility;
pub mod wallets;
pub mod web;
pub mod webhooks;

use utoipa_axum::router::OpenApiRouter;

use crate::{AppState, error::ApiError};

/// Every route the document describes: the probes, the signed file links and `/api`. A route is
/// declared once, with `routes!` on its `#[utoipa::path]` handler, so the router and the OpenAPI
/// document cannot drift (`openapi::document` is built from this).
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(health::router())
        .merge(metrics::router())
        .merge(files::router())
        .nest("/api", api_router())
}

/// Everything under `/api`.
fn api_router() -> OpenApiRouter<AppState> {
    let v1 = OpenApiRouter::new()
        .merge(contact::router())
        .merge(plan_cards::router())
        .merge(policies::router())
        .merge(auth::router())
        .merge(onboarding::router())
        .merge(branding::router())
        .merge(jobs::router())
        .merge(exports::router())
        .merge(catalogue::router())
        .merge(plans::router())
        .merge(pricing::router())
        .merge(transactions::router())
        .merge(account::router())
        .merge(signup_customization::router())
        .merge(payment_settings::router())
        .merge(earnings::router())
        .merge(logs::router())
        .merge(mail::router())
        .merge(uploads::router())
        .merge(wallets::router())
        .merge(users::router())
        .merge(clients::router())
        .merge(api_keys::router())
        .merge(visibility::router())
        .merge(settings::router())
        .merge(ip_access::router())
        .merge(ip_hits::router())
        .merge(verify::router())
        .merge(trubank::router())
        .merge(portal::router())
        .merge(webhooks::router());
    OpenApiRouter::new()
        .nest("/v1", v1)
        .fallback(|| async { ApiError::not_found() })
}

#[cfg(test)]
mod tests {
    //! Guard rails read from the source, because an axum router cannot list its routes: a v1
    //! route declared with axum's own `.route(...)` would be served but missing from the
    //! document, and a route module imported by another is a library in disguise.

    use std::path::PathBuf;

    /// Modules mounted outside `/api/v1`, which may use axum's routing directly.
    const OUTSIDE_V1: [&str; 5] = ["mod.rs", "files.rs", "health.rs", "metrics.rs", "web.rs"];

    fn route_modules() -> Vec<(String, String)> {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/routes");
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                for inner in std::fs::read_dir(&path).unwrap() {
                    let p = inner.unwrap().path();
                    out.push((
                        p.strip_prefix(&dir).unwrap().display().to_string(),
                        std::fs::read_to_string(&p).unwrap(),
                    ));
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push((
                    path.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read_to_string(&path).unwrap(),
                ));
            }
        }
        assert!(
            out.len() > 10,
            "found only {} route modules in {}",
            out.len(),
            dir.display()
        );
        out
    }

    /// The part of a file before its `#[cfg(test)]` module.
    fn code(text: &str) -> &str {
        text.split("#[cfg(test)]").next().unwrap()
    }

    #[test]
    fn every_v1_route_is_declared_with_routes_so_the_document_lists_it() {
        let undocumented = [
            ".route(",
            ".route_service(",
            ".nest_service(",
            "Router::new",
            "axum::routing",
            "MethodRouter",
            "OpenApiRouter::from",
            "with_openapi(",
        ];
        for (name, text) in route_modules()
            .iter()
            .filter(|(n, _)| !OUTSIDE_V1.contains(&n.as_str()))
        {
            let plain_axum = code(text).replace("OpenApiRouter::new", "");
            for pattern in undocumented {
                assert!(
                    !plain_axum.contains(pattern),
                    "routes/{name} uses `{pattern}`: declare its routes with `.routes(routes!(handler))`"
                );
            }
            if !name.contains('/') {
                assert!(
                    code(text).contains("routes!("),
                    "routes/{name} declares no route with `routes!`"
                );
            }
        }
    }

    #[test]
    fn every_documented_v1_handler_is_served() {
        // `routes!` puts a handler in the router and the document at once, so the document's
        // operations under /api/v1 are exactly the handlers the v1 modules mount; an annotated
        // handler left out of `routes!` would make these counts differ.
        let annotated: usize = route_modules()
            .iter()
            .filter(|(n, _)| !OUTSIDE_V1.contains(&n.as_str()))
            .map(|(_, text)| code(text).matches("#[utoipa::path(").count())
            .sum();
        let doc = serde_json::to_value(crate::openapi::document()).unwrap();
        let documented: usize = doc["paths"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(path, _)| path.starts_with("/api/v1/"))
            .map(|(_, item)| {
                item.as_object()
                    .unwrap()
                    .keys()
                    .filter(|k| ["get", "put", "post", "delete", "patch"].contains(&k.as_str()))
                    .count()
            })
            .sum();
        assert_eq!(
            annotated, documented,
            "v1 handlers with #[utoipa::path] vs operations under /api/v1 in the document"
        );
        assert!(
            documented > 60,
            "only {documented} operations under /api/v1"
        );
    }

    #[test]
    fn route_modules_do_not_import_each_other() {
        for (name, text) in route_modules() {
            if name == "mod.rs" {
                continue;
            }
            for pattern in ["routes::", "super::"] {
                assert!(
                    !code(&text).contains(pattern),
                    "routes/{name} imports a sibling (`{pattern}`): move what is shared into an api module of its own"
                );
            }
        }
    }

    #[test]
    fn every_v1_module_is_mounted() {
        let mounted = std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/routes/mod.rs"),
        )
        .unwrap();
        for (name, _) in route_modules()
            .iter()
            .filter(|(n, _)| !OUTSIDE_V1.contains(&n.as_str()) && !n.contains('/'))
        {
            let module = name.trim_end_matches(".rs");
            assert!(
                mounted.contains(&format!(".merge({module}::router())")),
                "routes/{name} is not merged into /api/v1"
            );
        }
    }
}
