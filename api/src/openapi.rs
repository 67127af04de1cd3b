//! The OpenAPI document, assembled from the `#[utoipa::path]` of every handler.

use utoipa::OpenApi;

use crate::routes;

#[derive(OpenApi)]
#[openapi(
    info(title = "KYC Platform API", version = "1",
         description = "White-label KYC API reselling platform. Money is integer paise (`*_paise`). Errors: `{\"error\":{\"code\",\"message\",\"fields\"}}`. Auth: `Authorization: Bearer <token>`; the gateway takes `X-Api-Key`."),
    paths(
        routes::health::healthz,
        routes::health::readyz,
        routes::public::contact,
        routes::jobs::job_state,
        routes::files::download,
        routes::files::upload,
        routes::uploads::create,
    ),
    components(schemas(crate::error::ErrorBody, crate::error::ErrorDetail))
)]
pub struct ApiDoc;

pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}
