//! One metered call through the gateway's pipeline, whoever the caller is: an API key
//! (`routes::verify`) or the portal's signed-in user (its Try-it console). The checks, in
//! design.md's order, are `domain::gateway`; the money is `domain::wallets::charge` through
//! this process's charging task (`crate::gateway`). Check 1 (who calls) is the caller's.

use std::{net::IpAddr, time::Instant};

use axum::{
    body::Bytes,
    http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use domain::{
    gateway::{
        self, Caller,
        call::{self, Upstream},
        hits::Hit,
        logs::Refusal,
        results,
    },
    wallets::charge::{CallLog, Outcome, Settle},
};

use crate::{
    AppState,
    error::{ApiError, ApiResult},
    gateway::Rate,
    metrics::MoneyStep,
};

/// A call that passed every check and was charged, then settled.
pub struct Verified {
    /// The upstream's (or the sample's) answer when it succeeded; else the error the caller
    /// is told (502 or 504), already refunded.
    pub answer: Result<Answered, ApiError>,
    pub transaction_id: i64,
    /// What the user was charged in the end (0 when refunded).
    pub charged_paise: i64,
    pub verification_id: String,
    /// Answered by the catalogue's sample, not the upstream.
    pub sandbox: bool,
}

pub struct Answered {
    pub status: StatusCode,
    pub body: Bytes,
    pub content_type: HeaderValue,
}

impl Verified {
    /// The gateway's HTTP answer: the body with `X-Transaction-Id`, `X-Charged-Paise` and
    /// `X-Verification-Id`.
    pub fn into_response(self) -> Response {
        let mut res = match self.answer {
            Ok(a) => {
                let mut res = (a.status, a.body).into_response();
                res.headers_mut()
                    .insert(header::CONTENT_TYPE, a.content_type);
                res
            }
            Err(e) => e.into_response(),
        };
        let h = res.headers_mut();
        h.insert(
            HeaderName::from_static("x-transaction-id"),
            HeaderValue::from(self.transaction_id),
        );
        h.insert(
            HeaderName::from_static("x-charged-paise"),
            HeaderValue::from(self.charged_paise),
        );
        h.insert(
            HeaderName::from_static("x-verification-id"),
            HeaderValue::from_str(&self.verification_id).expect("a uuid is a header value"),
        );
        if self.sandbox {
            res.extensions_mut().insert(crate::metrics::SandboxCall);
        }
        res
    }
}

/// Runs checks 2 to 5, the rate limit and the charge for a known `caller`, then the upstream
/// (or the sample, for a sandbox call), and settles. A refusal before the charge is an `Err`
/// and moves no money. `headers` are the request's, for the entry's forwarded headers.
pub async fn run(
    state: &AppState,
    caller: &Caller,
    service: &str,
    body: &[u8],
    ip: IpAddr,
    headers: &HeaderMap,
) -> ApiResult<Verified> {
    run_rated(state, caller, service, body, ip, headers).await.1
}

/// [`run`], with where the caller's key stands against its rate limit after the call (for the
/// `X-RateLimit-*` headers of every answer).
pub async fn run_rated(
    state: &AppState,
    caller: &Caller,
    service: &str,
    body: &[u8],
    ip: IpAddr,
    headers: &HeaderMap,
) -> (Rate, ApiResult<Verified>) {
    let started = Instant::now();
    // Every call of a known caller counts, refused or not.
    state.gateway.count_hit(Hit {
        partner_id: caller.partner_id,
        user_id: caller.user_id,
        ip,
        at: chrono::Utc::now(),
    });
    // A real key (the console's session caller has a negative id) shows when it was last used.
    if caller.key_id > 0 {
        state.gateway.note_key_use(caller.key_id);
    }
    let checked = async {
        gateway::admit(caller)?;
        let input = parse_input(body)?;
        // The console (a session caller, no key) reads Postgres: it is not the hot path, and its
        // settings screens expect their changes at once.
        let call = if caller.key_id > 0 {
            state
                .gateway
                .cache
                .authorize(&state.pool, caller, service, &input)
                .await?
        } else {
            // Boxed, as a cold path (see the spawn below).
            Box::pin(async {
                let mut conn = state.pool.acquire().await?;
                gateway::authorize(&mut conn, caller, service, &input).await
            })
            .await?
        };
        Ok::<_, ApiError>((input, call))
    }
    .await;
    let (input, call) = match checked {
        Ok(c) => c,
        Err(e) => {
            refused(state, caller, service, "", ip, &e);
            return (state.gateway.peek_rate(caller.key_id).await, Err(e));
        }
    };
    let rate = state.gateway.check_rate(caller.key_id).await;
    if let Some(wait) = rate.retry_after {
        let e = ApiError::too_many_requests_after(wait);
        refused(state, caller, service, &call.price.pid, ip, &e);
        return (rate, Err(e));
    }
    // From the charge on, the call runs to its settlement whether or not the client waits for
    // it: a client that hangs up is charged for what the upstream did, or refunded at once.
    // A future is as large as its largest state and is copied whole when it moves (into the
    // spawned task, through axum's layers): the cold paths inside (a pool's acquire on a cache
    // miss, the Idempotency-Key claim, Redis) are boxed so that this task is 3.6 KB and the
    // handler's 2.4 KB, where they were 17 and 34 KB and their copies 14% of the api's CPU.
    let task = tokio::spawn(charge_and_call(
        state.clone(),
        caller.clone(),
        call,
        headers.clone(),
        input,
        ip,
        started,
    ));
    let verified = match task.await {
        Ok(v) => v,
        Err(e) => Err(ApiError::from(domain::Error::Other(anyhow::anyhow!(
            "the metered call's task failed: {e}"
        )))),
    };
    (rate, verified)
}

/// The charge, the upstream (or the sample) and the settlement of an authorised call. A sandbox
/// call's answer is known before the charge, so it is charged and settled in one write. The
/// answer is sealed here, in the call's own task, and kept by the charging task with the call's
/// log (`gateway::results`).
async fn charge_and_call(
    state: AppState,
    caller: Caller,
    call: gateway::Call,
    headers: HeaderMap,
    input: serde_json::Map<String, serde_json::Value>,
    ip: IpAddr,
    started: Instant,
) -> ApiResult<Verified> {
    let mut charge = call::charge_of(&state.pool, &caller, &call, None).await?;
    let charged_paise = charge.user_amount_paise;
    let vid = uuid::Uuid::new_v4().to_string();
    let keep = !state.config.gateway.result_retention.is_zero();
    let log = |vpid: String, reply: &Result<Answered, ApiError>| CallLog {
        vid: vid.clone(),
        vpid,
        ip: Some(ip),
        latency_ms: i32::try_from(started.elapsed().as_millis()).unwrap_or(i32::MAX),
        keep,
        sealed: if keep {
            sealed_reply(&state.gateway.secrets, reply)
        } else {
            None
        },
    };
    let insufficient = || {
        let e = ApiError::from(domain::Error::InsufficientFunds);
        refused(
            &state,
            &caller,
            &call.price.service,
            &call.price.pid,
            ip,
            &e,
        );
        Err(e)
    };
    // A sandbox call's answer is known before its charge: a success is charged and settled in
    // one write; a failure (its test value) goes the live way, charged then refunded.
    let known = if call.sandbox {
        let answer = Box::pin(call::answer(
            &state.gateway.http,
            &state.config,
            &caller,
            &call,
            &headers,
            &input,
        ))
        .await;
        if answer.outcome().0 {
            let vpid = answer.vpid();
            let answer = reply(answer);
            charge.settled = Some(log(vpid, &answer));
            let charged = state
                .metrics
                .money_wait(MoneyStep::Charge, state.gateway.charger.charge(charge))
                .await;
            let transaction_id = match charged? {
                Outcome::Charged { transaction_id, .. } => transaction_id,
                _ => return insufficient(),
            };
            state.metrics.gateway_call(
                &call.price.service,
                &call.price.category,
                true,
                None,
                started.elapsed(),
            );
            return Ok(Verified {
                answer,
                transaction_id,
                charged_paise,
                verification_id: vid,
                sandbox: true,
            });
        }
        Some(answer)
    } else {
        None
    };
    let charged = state
        .metrics
        .money_wait(MoneyStep::Charge, state.gateway.charger.charge(charge))
        .await;
    let (transaction_id, charged_under) = match charged? {
        Outcome::Charged {
            transaction_id,
            under,
            ..
        } => (transaction_id, under),
        _ => return insufficient(),
    };

    let upstream_started = Instant::now();
    let answer = match known {
        Some(answer) => answer,
        // Boxed, as the sandbox's above: one allocation a call, and this task's size (copied
        // whole when it is spawned) no longer depends on what reqwest's future weighs.
        None => {
            Box::pin(call::answer(
                &state.gateway.http,
                &state.config,
                &caller,
                &call,
                &headers,
                &input,
            ))
            .await
        }
    };
    let upstream = Some(upstream_started.elapsed());
    let (success, status_code) = answer.outcome();
    let vpid = answer.vpid();
    let answer = reply(answer);
    let settle = state.gateway.charger.settle(Settle {
        transaction_id,
        success,
        status_code,
        log: Some(log(vpid, &answer)),
        charged_under,
    });
    let settled = state.metrics.money_wait(MoneyStep::Settle, settle).await;
    let kept = match settled {
        Ok(Outcome::Settled { refunded }) => !refunded,
        // settle_pending refunded it first (the upstream took longer than its bound): free call.
        Ok(_) => false,
        Err(e) => {
            // Still pending (or lost with its charge in a crash of Postgres): settle_pending
            // refunds it, so the caller is not charged in the end.
            tracing::error!(error = %e, transaction_id, "settling a gateway call failed");
            false
        }
    };
    state.metrics.gateway_call(
        &call.price.service,
        &call.price.category,
        kept,
        upstream,
        started.elapsed(),
    );
    Ok(Verified {
        answer,
        transaction_id,
        charged_paise: if kept { charged_paise } else { 0 },
        verification_id: vid,
        sandbox: call.sandbox,
    })
}

/// What the caller is answered: the upstream's (or the sample's) body on a 2xx, else the error
/// saying it was not charged (502 or 504).
fn reply(answer: Upstream) -> Result<Answered, ApiError> {
    let (success, _) = answer.outcome();
    let failure = answer.failure().unwrap_or_default();
    match answer {
        Upstream::Answered {
            status,
            body,
            content_type,
            ..
        } if success => Ok(Answered {
            status: StatusCode::from_u16(status).unwrap_or(StatusCode::OK),
            body,
            content_type: content_type
                .unwrap_or_else(|| HeaderValue::from_static("application/json")),
        }),
        Upstream::Answered { .. } => Err(ApiError::new(
            StatusCode::BAD_GATEWAY,
            "upstream_error",
            failure,
        )),
        Upstream::TimedOut => Err(ApiError::new(
            StatusCode::GATEWAY_TIMEOUT,
            "upstream_timeout",
            failure,
        )),
        Upstream::Unreachable => Err(ApiError::new(
            StatusCode::BAD_GATEWAY,
            "upstream_unreachable",
            failure,
        )),
    }
}

/// The body of `reply`, sealed for keeping: the one the caller got, so a read by transaction id
/// says what the call said (never an upstream's error body the gateway did not pass on).
fn sealed_reply(
    secrets: &domain::infra::crypto::SecretBox,
    reply: &Result<Answered, ApiError>,
) -> Option<Vec<u8>> {
    match reply {
        Ok(a) => results::seal(secrets, &a.body),
        Err(e) => {
            let body = serde_json::json!({"error": {"code": e.code, "message": e.message}});
            results::seal(secrets, body.to_string().as_bytes())
        }
    }
}

/// Keeps a refusal of a known caller in its API log (401 for an expired key, 402, 403, 404, 422
/// and 429; a malformed body, 400, is not a call of any API).
pub(crate) fn refused(
    state: &AppState,
    caller: &Caller,
    service: &str,
    pid: &str,
    ip: IpAddr,
    e: &ApiError,
) {
    if !matches!(e.status.as_u16(), 401 | 402 | 403 | 404 | 422 | 429) {
        return;
    }
    let reason = if e.fields.is_empty() {
        e.message.clone()
    } else {
        e.fields.values().cloned().collect::<Vec<_>>().join("; ")
    };
    state.gateway.log_refusal(Refusal {
        partner_id: caller.partner_id,
        user_id: caller.user_id,
        service: service.chars().take(100).collect(),
        pid: pid.to_owned(),
        status_code: i32::from(e.status.as_u16()),
        reason,
        ip,
        at: chrono::Utc::now(),
    });
}

/// The request body: a JSON object of input fields (an empty body is an empty object).
fn parse_input(body: &[u8]) -> ApiResult<serde_json::Map<String, serde_json::Value>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Default::default());
    }
    match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(serde_json::Value::Object(m)) => Ok(m),
        Ok(_) => Err(ApiError::bad_request(
            "The body must be a JSON object of input fields",
        )),
        Err(e) => Err(ApiError::bad_request(format!(
            "The body is not valid JSON: {e}"
        ))),
    }
}
