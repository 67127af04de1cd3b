//! `/files/{key}`: the signed links of the local store (the embedded default), served at the top
//! level because a link must work without a session, from an `<img>` tag or a plain PUT. The
//! signature is the only credential: it names the key, the method, the expiry and, for an
//! upload, the content type and the largest body. With S3 configured this route answers 404;
//! links then point at the store itself.

use axum::{
    body::Body,
    extract::{Query, Request, State, rejection::QueryRejection},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use domain::infra::storage::{LinkQuery, LocalStore, local::content_type_for};
use futures::StreamExt;
use tower::ServiceExt;
use tower_http::services::ServeFile;
use utoipa::openapi::{ComponentsBuilder, OpenApiBuilder};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    error::{ApiError, ApiResult},
    extract::Path,
};

pub fn router() -> OpenApiRouter<AppState> {
    // A key holds slashes, so axum needs a catch-all (`{*key}`) where the document names one
    // path parameter (`{key}`): the handlers' document is taken from `routes!` as usual and
    // only their mount point is written here.
    let (schemas, paths, handlers) = routes!(download, upload);
    let doc = OpenApiBuilder::new()
        .paths(paths)
        .components(Some(
            ComponentsBuilder::new().schemas_from_iter(schemas).build(),
        ))
        .build();
    OpenApiRouter::with_openapi(doc).route("/files/{*key}", handlers)
}

fn local(state: &AppState) -> ApiResult<&LocalStore> {
    state.storage.local().ok_or_else(ApiError::not_found)
}

// A missing or malformed query is a link we did not issue: 403 like a bad signature, not 400.
fn link(q: Result<Query<LinkQuery>, QueryRejection>) -> ApiResult<LinkQuery> {
    q.map(|Query(q)| q)
        .map_err(|_| ApiError::forbidden("This link is not valid"))
}

/// Downloads a stored file through a signed GET link (ranges supported). 403 when the link
/// is forged or expired, 404 when nothing is stored under the key.
#[utoipa::path(get, path = "/files/{key}", tag = "files",
    params(("key" = String, Path), ("expires" = i64, Query), ("sig" = String, Query)),
    responses((status = 200, description = "the file"), (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn download(
    State(state): State<AppState>,
    Path(key): Path<String>,
    q: Result<Query<LinkQuery>, QueryRejection>,
    req: Request,
) -> ApiResult<Response> {
    let store = local(&state)?;
    store.verify_get(&key, &link(q)?, chrono::Utc::now())?;
    let path = store.path(&key)?;
    if !tokio::fs::metadata(&path).await.is_ok_and(|m| m.is_file()) {
        return Err(ApiError::not_found());
    }
    let mut res = ServeFile::new(path)
        .oneshot(req)
        .await
        .map_err(ApiError::internal)?
        .map(Body::new);
    let h = res.headers_mut();
    // Our own short list of types, never one guessed from content: an upload named .png that
    // holds HTML must not run as a page on our origin.
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type_for(&key)),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=3600"),
    );
    // A CSV (an export's part) is saved, under its own name, rather than shown as text. Keys
    // hold only checked characters, so the name needs no escaping.
    if key.ends_with(".csv") {
        let name = key.rsplit('/').next().unwrap_or("export.csv");
        if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
            h.insert(header::CONTENT_DISPOSITION, v);
        }
    }
    Ok(res)
}

/// Uploads a file through a signed PUT link from `POST /api/v1/uploads`. The `Content-Type`
/// must be the signed one (else 403) and the body no larger than signed (else 413); the file
/// appears whole or not at all, and only once: a second PUT to the link is 409. Answers 200,
/// as S3 does.
#[utoipa::path(put, path = "/files/{key}", tag = "files",
    params(("key" = String, Path), ("expires" = i64, Query), ("ct" = String, Query), ("max" = u64, Query), ("sig" = String, Query)),
    request_body(content = Vec<u8>, content_type = "application/octet-stream"),
    responses((status = 200, description = "stored"), (status = 403, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
              (status = 413, body = crate::error::ErrorBody)))]
pub async fn upload(
    State(state): State<AppState>,
    Path(key): Path<String>,
    q: Result<Query<LinkQuery>, QueryRejection>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<Response> {
    let store = local(&state)?;
    let grant = store.verify_put(&key, &link(q)?, chrono::Utc::now())?;
    let sent_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if essence(sent_type) != essence(&grant.content_type) {
        return Err(ApiError::forbidden(
            "The Content-Type does not match this link",
        ));
    }
    let too_large = || ApiError::from(domain::Error::TooLarge("File size is too large".into()));
    // Refuse early when the client says how much is coming; count anyway, it may not say.
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > grant.max_size) {
        return Err(too_large());
    }
    // A link works once: refuse at once when its file is already there (and `commit_new`
    // settles a race between two PUTs of the same link).
    if store.exists(&key).await? {
        return Err(domain::Error::conflict(domain::infra::storage::local::LINK_USED).into());
    }
    let mut file = store.begin(&key).await?;
    let mut stream = body.into_data_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| ApiError::bad_request("The upload was interrupted"))?;
        if file.len() + chunk.len() as u64 > grant.max_size {
            // Dropping `file` removes what was written so far.
            return Err(too_large());
        }
        file.write(&chunk).await?;
    }
    file.commit_new().await?;
    Ok(StatusCode::OK.into_response())
}

fn essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}
