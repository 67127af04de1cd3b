//! The money and the upstream of one metered call, shared by every way a call is made: the api's
//! `POST /verify/{service}` and Try-it (through its charging task) and the `run_batch` job
//! (row by row, each in a transaction with the row's state).

use std::{sync::Arc, time::Duration};

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, header};
use sqlx::PgPool;

use super::{Call, Caller};
use crate::{
    Result,
    infra::{config::Config, upstream_addr},
    wallets::{self, Owner, WalletKind, charge::Charge},
};

/// The client for upstream calls, with the configured timeout. Its resolver and redirect
/// policy refuse non-public addresses (`infra::upstream_addr`).
pub fn http_client(config: &Config) -> reqwest::Client {
    let policy = upstream_addr::Policy::new(config);
    reqwest::Client::builder()
        .dns_resolver(Arc::new(upstream_addr::CheckedResolver::new(
            policy.clone(),
        )))
        .redirect(upstream_addr::redirect_policy(policy))
        .timeout(config.upstream_timeout)
        .connect_timeout(config.upstream_timeout.min(Duration::from_secs(5)))
        .pool_max_idle_per_host(256)
        .build()
        .expect("building the upstream HTTP client")
}

/// What to charge: the price, for a sandbox call too (README 'Sandbox calls'). The wallets are
/// created on first use, so a user whose wallet was never funded gets 402, not an error.
pub async fn charge_of(
    pool: &PgPool,
    caller: &Caller,
    call: &Call,
    idempotency_key: Option<String>,
) -> Result<Charge> {
    // A sandbox call is free unless the partner charges them (to rehearse the money flow): it
    // is still recorded, at ₹0, with no wallet touched.
    let (amount, user_amount) = if call.sandbox && !caller.charge_sandbox {
        (0, 0)
    } else {
        (call.price.amount_paise, call.price.user_amount_paise)
    };
    let (mut user_wallet_id, mut partner_wallet_id) =
        (caller.user_wallet_id, caller.partner_wallet_id);
    if (user_amount > 0 && user_wallet_id.is_none()) || (amount > 0 && partner_wallet_id.is_none())
    {
        // Boxed: a pool's acquire future is some 14 KB, and this cold path would otherwise size
        // every metered call's task, which is copied whole when it is spawned.
        let (user, partner) = Box::pin(async {
            let mut conn = pool.acquire().await?;
            let user = Owner::User {
                partner_id: caller.partner_id,
                user_id: caller.user_id,
            };
            let user = wallets::wallet_id(&mut conn, user, WalletKind::Api).await?;
            let partner = wallets::wallet_id(
                &mut conn,
                Owner::Partner(caller.partner_id),
                WalletKind::Api,
            )
            .await?;
            Ok::<_, crate::Error>((user, partner))
        })
        .await?;
        (user_wallet_id, partner_wallet_id) = (Some(user), Some(partner));
    }
    Ok(Charge {
        partner_id: caller.partner_id,
        user_id: caller.user_id,
        api_id: call.price.api_id,
        service: call.price.service.clone(),
        pid: call.price.pid.clone(),
        mode: if call.sandbox { "sandbox" } else { "live" },
        amount_paise: amount,
        user_amount_paise: user_amount,
        user_wallet_id,
        partner_wallet_id,
        idempotency_key,
        settled: None,
        // The console's session caller has no key (its id is the user's, negated).
        key_id: (caller.key_id > 0).then_some(caller.key_id),
    })
}

/// How the upstream (or the sample) answered.
pub enum Upstream {
    Answered {
        status: u16,
        body: Bytes,
        vpid: String,
        content_type: Option<HeaderValue>,
    },
    TimedOut,
    Unreachable,
}

impl Upstream {
    /// (kept: a 2xx, the status code recorded on the transaction and the log).
    pub fn outcome(&self) -> (bool, i32) {
        match self {
            Upstream::Answered { status, .. } => ((200..300).contains(status), i32::from(*status)),
            Upstream::TimedOut => (false, 504),
            Upstream::Unreachable => (false, 502),
        }
    }

    /// Why a call that was not a 2xx failed, as the caller is told (the gateway's error, a batch
    /// row's result): `None` for a 2xx.
    pub fn failure(&self) -> Option<String> {
        match self {
            Upstream::Answered { status, .. } if (200..300).contains(status) => None,
            Upstream::Answered { status, .. } => Some(format!(
                "The verification provider answered with status {status}; you were not charged"
            )),
            Upstream::TimedOut => Some(
                "The verification provider did not answer in time; you were not charged".into(),
            ),
            Upstream::Unreachable => {
                Some("The verification provider could not be reached; you were not charged".into())
            }
        }
    }

    pub fn vpid(&self) -> String {
        match self {
            Upstream::Answered { vpid, .. } => vpid.clone(),
            _ => String::new(),
        }
    }
}

/// The catalogue's sample answer (a sandbox call), or the upstream's.
pub async fn answer(
    http: &reqwest::Client,
    config: &Config,
    caller: &Caller,
    call: &Call,
    headers: &HeaderMap,
    input: &serde_json::Map<String, serde_json::Value>,
) -> Upstream {
    if call.sandbox {
        sandbox_answer(&call.endpoint.response_code, input)
    } else {
        upstream(http, config, caller, call, headers, input).await
    }
}

/// The sandbox's test values (README, "Sandbox calls"): any input field holding one of them
/// decides the answer, whatever the API.
pub const SANDBOX_NOT_FOUND: &str = "TEST_NOT_FOUND";
pub const SANDBOX_UPSTREAM_FAILURE: &str = "TEST_UPSTREAM_FAILURE";

/// A sandbox call's answer, by the documented test values: `TEST_UPSTREAM_FAILURE` in any field
/// fails as an upstream would (502, so the call is refunded); `TEST_NOT_FOUND` finds no record
/// (200, `status: not_found`); anything else succeeds with the catalogue's sample, the input's
/// values in the sample's fields of the same names, and a fresh `request_id`.
pub fn sandbox_answer(
    sample: &serde_json::Value,
    input: &serde_json::Map<String, serde_json::Value>,
) -> Upstream {
    let holds = |value: &str| input.values().any(|v| v.as_str() == Some(value));
    let request_id = uuid::Uuid::new_v4().to_string();
    let (status, body) = if holds(SANDBOX_UPSTREAM_FAILURE) {
        (
            502,
            serde_json::json!({"error": "The verification source failed (sandbox test value)", "request_id": request_id}),
        )
    } else if holds(SANDBOX_NOT_FOUND) {
        (
            200,
            serde_json::json!({"status": "not_found", "message": "No record matches the input (sandbox test value)", "request_id": request_id}),
        )
    } else {
        let mut body = sample.clone();
        echo_input(&mut body, input);
        if let Some(obj) = body.as_object_mut() {
            obj.insert("request_id".into(), serde_json::Value::String(request_id));
        }
        (200, body)
    };
    Upstream::Answered {
        status,
        body: Bytes::from(serde_json::to_vec(&body).unwrap_or_default()),
        vpid: String::new(),
        content_type: None,
    }
}

/// The input's values in the sample's fields of the same names, at any depth.
fn echo_input(value: &mut serde_json::Value, input: &serde_json::Map<String, serde_json::Value>) {
    match value {
        serde_json::Value::Object(obj) => {
            for (k, v) in obj.iter_mut() {
                match input.get(k) {
                    Some(given) if !v.is_object() && !v.is_array() => *v = given.clone(),
                    _ => echo_input(v, input),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| echo_input(v, input)),
        _ => {}
    }
}

/// The upstream call: the partner's base URL when switched on, else the catalogue's, plus the
/// entry's endpoint; its parameters as a JSON body (POST) or query (GET), its headers from the
/// request's headers or, failing that, its fields.
async fn upstream(
    http: &reqwest::Client,
    config: &Config,
    caller: &Caller,
    call: &Call,
    headers: &HeaderMap,
    input: &serde_json::Map<String, serde_json::Value>,
) -> Upstream {
    let base = caller
        .base_url
        .as_deref()
        .unwrap_or(&config.upstream_base_url)
        .trim_end_matches('/');
    let url = format!("{base}{}", call.endpoint.endpoint);
    if caller.base_url.is_some()
        && let Err(e) = upstream_addr::precheck(&url, &upstream_addr::Policy::new(config))
    {
        tracing::warn!(error = %e, partner_id = caller.partner_id, "client API base URL refused");
        return Upstream::Unreachable;
    }
    let names = call.endpoint.params();
    let params: serde_json::Map<String, serde_json::Value> = if names.is_empty() {
        input.clone()
    } else {
        names
            .iter()
            .filter_map(|n| input.get(*n).map(|v| ((*n).to_owned(), v.clone())))
            .collect()
    };
    let mut req = if call.endpoint.method == "get" {
        let query: Vec<(String, String)> = params
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    match v {
                        serde_json::Value::String(s) => s.clone(),
                        other => other.to_string(),
                    },
                )
            })
            .collect();
        http.get(&url).query(&query)
    } else {
        http.post(&url).json(&params)
    };
    for name in call.endpoint.headers() {
        let value = headers.get(name).cloned().or_else(|| {
            input
                .get(name)
                .and_then(|v| v.as_str())
                .and_then(|s| HeaderValue::from_str(s).ok())
        });
        if let (Ok(n), Some(v)) = (HeaderName::from_bytes(name.as_bytes()), value) {
            req = req.header(n, v);
        }
    }
    match req.send().await {
        Ok(res) => {
            let status = res.status().as_u16();
            let vpid = res
                .headers()
                .get("x-request-id")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .chars()
                .take(100)
                .collect();
            let content_type = res.headers().get(header::CONTENT_TYPE).cloned();
            match res.bytes().await {
                Ok(body) => Upstream::Answered {
                    status,
                    body,
                    vpid,
                    content_type,
                },
                Err(e) if e.is_timeout() => Upstream::TimedOut,
                Err(_) => Upstream::Unreachable,
            }
        }
        Err(e) if e.is_timeout() => Upstream::TimedOut,
        Err(e) => {
            tracing::warn!(error = %e, %url, "upstream call failed");
            Upstream::Unreachable
        }
    }
}
