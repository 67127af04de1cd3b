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
    },
    wallets::charge::{CallLog, Outcome, Settle},
};

use crate::{
    AppState,
    error::{ApiError, ApiResult},
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

/// A response extension on a sandbox call's answer, for the metrics.
#[derive(Debug, Clone, Copy)]
pub struct SandboxCall;

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
            res.extensions_mut().insert(SandboxCall);
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
    gateway::admit(caller)?;
    let input = parse_input(body)?;
    let call = {
        let mut conn = state.pool.acquire().await?;
        gateway::authorize(&mut conn, caller, service, &input).await?
    };
    if let Err(wait) = state.gateway.check_rate(caller.key_id).await {
        return Err(ApiError::too_many_requests_after(wait));
    }
    let charge = call::charge_of(&state.pool, caller, &call, None).await?;
    let charged_paise = charge.user_amount_paise;
    let transaction_id = match state.gateway.charger.charge(charge).await? {
        Outcome::Charged { transaction_id, .. } => transaction_id,
        _ => return Err(domain::Error::InsufficientFunds.into()),
    };

    let upstream_started = Instant::now();
    let answer = call::answer(
        &state.gateway.http,
        &state.config,
        caller,
        &call,
        headers,
        &input,
    )
    .await;
    let upstream = (!call.sandbox).then(|| upstream_started.elapsed());
    let (success, status_code) = answer.outcome();
    let vid = uuid::Uuid::new_v4().to_string();
    let log = CallLog {
        vid: vid.clone(),
        vpid: answer.vpid(),
        ip: Some(ip),
        latency_ms: i32::try_from(started.elapsed().as_millis()).unwrap_or(i32::MAX),
    };
    let settled = state
        .gateway
        .charger
        .settle(Settle {
            transaction_id,
            success,
            status_code,
            log: Some(log),
        })
        .await;
    let kept = match settled {
        Ok(Outcome::Settled { refunded }) => !refunded,
        // settle_pending refunded it first (the upstream took longer than its bound): free call.
        Ok(_) => false,
        Err(e) => {
            // Still pending: settle_pending refunds it, so the caller is not charged in the end.
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
    let failure = answer.failure().unwrap_or_default();
    let answer = match answer {
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
    };
    Ok(Verified {
        answer,
        transaction_id,
        charged_paise: if kept { charged_paise } else { 0 },
        verification_id: vid,
        sandbox: call.sandbox,
    })
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
