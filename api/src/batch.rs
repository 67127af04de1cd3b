//! Batch verification's HTTP side, shared by the portal (`/me/batches`) and key holders
//! (`/verify/{service}/batch`): the submission and the result file. The rows run in the
//! `run_batch` job (`jobs::run_batch`).

use axum::{
    body::Body,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use domain::{
    gateway::batches::{self, Batch, NewBatch},
    gateway::{self, Caller},
};
use serde::Deserialize;
use sqlx::Connection;

use crate::{
    AppState,
    error::{ApiError, ApiResult},
};

pub const NOT_ENABLED: &str = "Batch processing is not enabled for your account";

/// `?file_name=` of an upload, shown in the list.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
pub struct Upload {
    /// The uploaded file's name, shown in the list.
    pub file_name: Option<String>,
}

/// The request body, at most `batches::MAX_FILE_BYTES` (413 in the contract's shape past it).
pub async fn read_file(body: Body) -> ApiResult<Vec<u8>> {
    match axum::body::to_bytes(body, batches::MAX_FILE_BYTES).await {
        Ok(b) => Ok(b.to_vec()),
        Err(_) => Err(domain::Error::TooLarge("The file is larger than 2 MB".into()).into()),
    }
}

/// Checks the caller as the gateway would (active, IP, the API's visibility), that the
/// partner's Batch Processing is on, and the file; then writes the batch and queues its job in
/// one transaction.
pub async fn submit(
    state: &AppState,
    caller: &Caller,
    service: &str,
    file: &[u8],
    file_name: &str,
    key_id: Option<i64>,
    ip: std::net::IpAddr,
) -> ApiResult<Batch> {
    gateway::admit(caller)?;
    if !caller.batch_processing {
        return Err(ApiError::forbidden(NOT_ENABLED));
    }
    let mut conn = state.pool.acquire().await?;
    let call = gateway::authorize_service(&mut conn, caller, service).await?;
    let parsed = batches::parse(file, &call.endpoint.required_fields)?;
    let new = NewBatch {
        partner_id: caller.partner_id,
        user_id: caller.user_id,
        key_id,
        service: &call.price.service,
        sandbox: call.sandbox,
        ip,
        file_name,
    };
    let mut tx = conn.begin().await?;
    let id = batches::create(&mut tx, &new, &parsed).await?;
    let job_id = jobs::enqueue(&mut tx, &jobs::RunBatch { batch_id: id }).await?;
    batches::set_job(&mut tx, id, &job_id).await?;
    domain::infra::job_owners::record(&mut tx, &job_id, caller.partner_id).await?;
    tx.commit().await?;
    Ok(batches::find(&mut conn, caller.partner_id, caller.user_id, id).await?)
}

/// The result file of one of the user's batches.
pub async fn result(
    state: &AppState,
    partner_id: i64,
    user_id: i64,
    id: i64,
) -> ApiResult<Response> {
    let csv =
        batches::result_csv(&mut *state.pool.acquire().await?, partner_id, user_id, id).await?;
    let mut res = Body::from(csv).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    h.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"batch-{id}-result.csv\""))
            .expect("ascii"),
    );
    Ok(res)
}
