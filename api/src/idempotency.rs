//! `Idempotency-Key` on the gateway's POSTs (`domain::gateway::idempotency` keeps the keys):
//! [`once`] runs a request's work once per end user, key and request, and answers duplicates
//! with the first answer.

use std::{future::Future, time::Duration};

use axum::{
    body::Body,
    http::{HeaderMap, HeaderName, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use domain::gateway::{
    Caller,
    idempotency::{self, Begin, Stored},
};

use crate::{AppState, error::ApiError};

/// The request header.
pub const HEADER: &str = "idempotency-key";

/// How often a duplicate looks whether the first request has answered.
const POLL: Duration = Duration::from_millis(20);

/// Runs `work` for `caller`'s request (`route` and `body` say what the request is), at most once
/// per `Idempotency-Key`: without the header it simply runs. The work runs to its end even if the
/// client hangs up, and its answer is kept when it moved money or queued work (a 2xx, or an
/// answer with `X-Transaction-Id`); a refusal releases the key. Answers
/// 409 `idempotency_conflict` when the key was used with another request.
pub async fn once<F, Fut>(
    state: &AppState,
    caller: &Caller,
    headers: &HeaderMap,
    route: &str,
    body: &[u8],
    work: F,
) -> Response
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = Response> + Send + 'static,
{
    match headers.get(HEADER) {
        None => work().await,
        // Boxed: the claim's future is large and most calls carry no key; unboxed it would
        // size every call's future, which is moved whole on the hot path.
        Some(key) => Box::pin(keyed(state, caller, key, route, body, work)).await,
    }
}

/// [`once`] for a request with an `Idempotency-Key`.
async fn keyed<F, Fut>(
    state: &AppState,
    caller: &Caller,
    key: &HeaderValue,
    route: &str,
    body: &[u8],
    work: F,
) -> Response
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = Response> + Send + 'static,
{
    let key = match key.to_str().map(str::trim) {
        Ok(k) if !k.is_empty() && k.len() <= idempotency::MAX_KEY_LEN => k.to_owned(),
        _ => {
            return ApiError::bad_request(format!(
                "Idempotency-Key must be 1 to {} visible ASCII characters",
                idempotency::MAX_KEY_LEN
            ))
            .into_response();
        }
    };
    let fingerprint = idempotency::fingerprint(route, body);
    // Past this a claim that never answered belongs to a process that died.
    let abandoned = state.config.gateway.settle_after.as_secs_f64();
    let deadline =
        tokio::time::Instant::now() + state.config.upstream_timeout + Duration::from_secs(5);
    let mut work = Some(work);
    'claim: loop {
        let found = idempotency::begin(
            &state.pool,
            caller.partner_id,
            caller.user_id,
            &key,
            &fingerprint,
            abandoned,
        )
        .await;
        let mut found = match found {
            Ok(f) => f,
            Err(e) => return ApiError::from(e).into_response(),
        };
        while matches!(found, Begin::Running) {
            if tokio::time::Instant::now() >= deadline {
                return ApiError::new(
                    StatusCode::CONFLICT,
                    "idempotency_in_progress",
                    "A request with this Idempotency-Key is still running; retry later",
                )
                .into_response();
            }
            tokio::time::sleep(POLL).await;
            found = match idempotency::look(&state.pool, caller.user_id, &key, &fingerprint).await {
                // Released by the first request (a refusal) while this one waited: claim it.
                Ok(Begin::Run) => continue 'claim,
                Ok(f) => f,
                Err(e) => return ApiError::from(e).into_response(),
            };
        }
        match found {
            Begin::Run => {
                let work = work.take().expect("claimed once: the loop ends here");
                return run(state.clone(), caller.user_id, key, work).await;
            }
            Begin::Replay(stored) => return replay(stored),
            Begin::Conflict => {
                return ApiError::new(
                    StatusCode::CONFLICT,
                    "idempotency_conflict",
                    "This Idempotency-Key was used with another request",
                )
                .into_response();
            }
            Begin::Running => unreachable!("waited for above"),
        }
    }
}

/// The claimed request's work, in a task of its own so that the key is settled whatever the
/// client does.
async fn run<F, Fut>(state: AppState, user_id: i64, key: String, work: F) -> Response
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = Response> + Send + 'static,
{
    let task = tokio::spawn(async move {
        let res = work().await;
        let keep = res.status().is_success() || res.headers().contains_key("x-transaction-id");
        if !keep {
            if let Err(e) = idempotency::release(&state.pool, user_id, &key).await {
                tracing::error!(error = %e, "releasing an idempotency key failed");
            }
            return res;
        }
        let (parts, body) = res.into_parts();
        let body = axum::body::to_bytes(body, usize::MAX)
            .await
            .unwrap_or_default();
        let stored = Stored {
            status_code: i32::from(parts.status.as_u16()),
            headers: sqlx::types::Json(
                parts
                    .headers
                    .iter()
                    // Where the key stands now is told afresh by each answer.
                    .filter(|(n, _)| !n.as_str().starts_with("x-ratelimit-"))
                    .filter_map(|(n, v)| Some((n.to_string(), v.to_str().ok()?.to_owned())))
                    .collect(),
            ),
            body: body.to_vec(),
        };
        if let Err(e) = idempotency::complete(&state.pool, user_id, &key, &stored).await {
            tracing::error!(error = %e, "storing an idempotent answer failed");
        }
        Response::from_parts(parts, Body::from(body))
    });
    match task.await {
        Ok(res) => res,
        Err(e) => ApiError::from(domain::Error::Other(anyhow::anyhow!(
            "an idempotent request's task failed: {e}"
        )))
        .into_response(),
    }
}

fn replay(stored: Stored) -> Response {
    let mut res = Response::new(Body::from(stored.body));
    *res.status_mut() = StatusCode::from_u16(u16::try_from(stored.status_code).unwrap_or(500))
        .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = res.headers_mut();
    for (n, v) in stored.headers.0 {
        if let (Ok(n), Ok(v)) = (HeaderName::try_from(n), HeaderValue::try_from(v)) {
            h.append(n, v);
        }
    }
    h.insert(
        HeaderName::from_static("idempotent-replayed"),
        HeaderValue::from_static("true"),
    );
    res
}
