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
        OpenApiRouter::with_openapi(ApiDoc::openapi())
            .merge(routes::router())
            .into_openapi()
    });
    DOCUMENT.clone()
}
