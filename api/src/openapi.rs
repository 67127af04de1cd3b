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
    components(schemas(crate::error::ErrorBody, crate::error::ErrorDetail, domain::wallets::WalletKind, domain::exports::Kind))
)]
pub struct ApiDoc;

pub fn document() -> utoipa::openapi::OpenApi {
    // Built once: the router is assembled only to read its paths.
    static DOCUMENT: LazyLock<utoipa::openapi::OpenApi> = LazyLock::new(|| {
        OpenApiRouter::with_openapi(ApiDoc::openapi())
            .merge(routes::router())
            .into_openapi()
    });
    DOCUMENT.clone()
}
