//! The OpenAPI document: the info and shared components below, plus the paths of every route
//! `routes::router()` serves (each declared once, with `routes!`).

use std::sync::LazyLock;

use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::routes;

// No `paths(...)` here: they come from the router.
#[derive(OpenApi)]
#[openapi(
    info(title = "KYC Platform API", version = "1",
         description = "White-label KYC API reselling platform. Money is integer paise (`*_paise`). Errors: `{\"error\":{\"code\",\"message\",\"fields\"}}`. Auth: `Authorization: Bearer <token>`; the gateway takes `X-Api-Key`."),
    // Schemas that only query parameters name are not collected from the paths.
    components(schemas(crate::error::ErrorBody, crate::error::ErrorDetail, domain::wallets::WalletKind, domain::exports::Kind)),
    servers((url = "/", description = "This platform, or a partner's site")),
    modifiers(&SecuritySchemes)
)]
pub struct ApiDoc;

/// The schemes the paths name in `security(...)`: without them a generated client sends no
/// key and the document is not valid OpenAPI (a requirement must name a declared scheme).
struct SecuritySchemes;

impl utoipa::Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{
            ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme,
        };
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "api_key",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "X-Api-Key",
                "An end user's gateway key: kyc_live_… or kyc_test_…",
            ))),
        );
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some(
                        "A session token of a partner, a super admin or an end user",
                    ))
                    .build(),
            ),
        );
    }
}

pub fn document() -> utoipa::openapi::OpenApi {
    // Built once: the router is assembled only to read its paths.
    static DOCUMENT: LazyLock<utoipa::openapi::OpenApi> = LazyLock::new(|| {
        let mut doc = OpenApiRouter::with_openapi(ApiDoc::openapi())
            .merge(routes::router())
            .into_openapi();
        unique_operation_ids(&mut doc);
        doc
    });
    DOCUMENT.clone()
}

/// Operation ids are the handlers' names, and handlers of different areas share names (`login`
/// of partners and of end users): OpenAPI wants them unique, as generated clients name their
/// methods by them. A shared name gets its area in front (`me_login`, `partner_login`), or its
/// whole path where that is not enough (`partner_users_api_keys_create`).
fn unique_operation_ids(doc: &mut utoipa::openapi::OpenApi) {
    use std::collections::HashMap;
    fn operations(
        doc: &mut utoipa::openapi::OpenApi,
    ) -> impl Iterator<Item = (&String, &mut utoipa::openapi::path::Operation)> {
        doc.paths.paths.iter_mut().flat_map(|(path, item)| {
            [
                item.get.as_mut(),
                item.put.as_mut(),
                item.post.as_mut(),
                item.delete.as_mut(),
                item.patch.as_mut(),
            ]
            .into_iter()
            .flatten()
            .map(move |op| (path, op))
        })
    }
    // The path's fixed segments after `/api/v1`, as an identifier.
    fn segments(path: &str) -> Vec<String> {
        path.trim_start_matches("/api/v1/")
            .split('/')
            .filter(|s| !s.is_empty() && !s.starts_with('{'))
            .map(|s| s.replace('-', "_"))
            .collect()
    }
    let mut uses: HashMap<String, usize> = HashMap::new();
    for (_, op) in operations(doc) {
        if let Some(id) = &op.operation_id {
            *uses.entry(id.clone()).or_default() += 1;
        }
    }
    // Every id in use stays taken; a shared one takes the first free of its candidates.
    let mut taken: std::collections::HashSet<String> = uses.keys().cloned().collect();
    let mut by_area: HashMap<String, usize> = HashMap::new();
    for (path, op) in operations(doc) {
        if let Some(id) = op.operation_id.as_ref().filter(|id| uses[*id] > 1) {
            let area = segments(path).first().cloned().unwrap_or_default();
            *by_area.entry(format!("{area}_{id}")).or_default() += 1;
        }
    }
    for (path, op) in operations(doc) {
        let Some(id) = op.operation_id.clone().filter(|id| uses[id] > 1) else {
            continue;
        };
        let parts = segments(path);
        let area = format!("{}_{id}", parts.first().cloned().unwrap_or_default());
        let whole = format!("{}_{id}", parts.join("_"));
        let chosen = [area.clone(), whole.clone()]
            .into_iter()
            .filter(|c| *c != area || by_area[&area] == 1)
            .find(|c| !taken.contains(c))
            .unwrap_or_else(|| {
                (2..)
                    .map(|n| format!("{whole}_{n}"))
                    .find(|c| !taken.contains(c))
                    .expect("a free name")
            });
        taken.insert(chosen.clone());
        op.operation_id = Some(chosen);
    }
}
