//! The onboarding wizard (/complete-details) for the signed-in partner: profile and progress,
//! plan choice, sub-domain availability and claim, branding, SMTP settings or skip.

use axum::{extract::State, http::StatusCode};
use domain::{
    infra::crypto::SecretBox,
    infra::storage::UploadPurpose,
    partners::branding::{self, BrandingForm, Theme},
    partners::onboarding::{self, Progress},
    partners::partner_smtp::{self, SmtpForm, SmtpView},
    partners::subdomains::{self, Availability},
};
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::PartnerAuth,
    error::{ApiError, ApiResult},
    extract::{Json, Path},
    links::signed_link,
    session::partner_session,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(me))
        .routes(routes!(status))
        .routes(routes!(choose_plan))
        .routes(routes!(subdomain_availability))
        .routes(routes!(claim_subdomain))
        .routes(routes!(save_branding))
        .routes(routes!(get_smtp, save_smtp))
        .routes(routes!(skip_smtp))
        .routes(routes!(test_smtp))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Me {
    pub id: i64,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone_number: String,
    pub user_name: String,
    pub subdomain: Option<String>,
    /// `none`, `pending` (being provisioned), `active` or `failed`.
    pub subdomain_status: String,
    pub onboarding_step: u8,
    /// `standard`, `premium` or `pro`; null until chosen.
    pub plan: Option<String>,
    pub billing_cycle: Option<String>,
    /// The saved title, or the default (user name + ' - Home').
    pub title: String,
    pub description: String,
    pub logo_key: Option<String>,
    pub favicon_key: Option<String>,
    pub logo_url: Option<String>,
    pub favicon_url: Option<String>,
    pub theme: Theme,
    /// The partner's branded site, once it has a sub-domain.
    pub user_dashboard_url: Option<String>,
}

/// The signed-in partner: profile, wizard step, branding (with signed logo and favicon links)
/// and the address of its branded site.
#[utoipa::path(get, path = "/partner/me", tag = "onboarding",
    responses((status = 200, body = Me), (status = 401, body = crate::error::ErrorBody)))]
pub async fn me(auth: PartnerAuth, State(state): State<AppState>) -> ApiResult<Json<Me>> {
    let p = onboarding::profile(&mut *state.pool.acquire().await?, auth.partner_id).await?;
    let logo_url = signed_link(&state, p.logo_key.as_deref()).await;
    let favicon_url = signed_link(&state, p.favicon_key.as_deref()).await;
    Ok(Json(Me {
        id: p.id,
        onboarding_step: p.progress().step(),
        plan: p.chosen_plan().map(str::to_owned),
        title: p.title_or_default(),
        description: p.description_or_default(),
        theme: p.theme(),
        user_dashboard_url: p
            .subdomain
            .as_deref()
            .map(|s| state.config.partner_site_url(s)),
        first_name: p.first_name,
        last_name: p.last_name,
        email: p.email,
        phone_number: p.phone_number,
        user_name: p.user_name,
        subdomain: p.subdomain,
        subdomain_status: p.subdomain_status,
        billing_cycle: p.billing_cycle,
        logo_key: p.logo_key,
        favicon_key: p.favicon_key,
        logo_url,
        favicon_url,
    }))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Status {
    #[serde(flatten)]
    pub progress: Progress,
    pub onboarding_step: u8,
    pub subdomain_status: String,
}

async fn status_of(state: &AppState, partner_id: i64) -> ApiResult<Status> {
    let p = onboarding::profile(&mut *state.pool.acquire().await?, partner_id).await?;
    let progress = p.progress();
    Ok(Status {
        progress,
        onboarding_step: progress.step(),
        subdomain_status: p.subdomain_status,
    })
}

/// Which wizard steps are done, and the step to show next (2 plan … 5 SMTP, 6 done).
#[utoipa::path(get, path = "/partner/status", tag = "onboarding",
    responses((status = 200, body = Status), (status = 401, body = crate::error::ErrorBody)))]
pub async fn status(auth: PartnerAuth, State(state): State<AppState>) -> ApiResult<Json<Status>> {
    Ok(Json(status_of(&state, auth.partner_id).await?))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct PlanRequest {
    /// `standard`, `premium` or `pro`.
    #[serde(default)]
    pub plan: String,
    /// `monthly` or `yearly`.
    #[serde(default)]
    pub billing: String,
}

/// The pricing step: records the chosen plan card and billing cycle (no payment is taken) and
/// puts the partner on that plan's price slab.
#[utoipa::path(post, path = "/partner/plan", tag = "onboarding", request_body = PlanRequest,
    responses((status = 200, body = Status), (status = 422, body = crate::error::ErrorBody)))]
pub async fn choose_plan(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<PlanRequest>,
) -> ApiResult<Json<Status>> {
    let (plan, billing) = onboarding::parse_plan_choice(&req.plan, &req.billing)?;
    let mut tx = state.pool.begin().await?;
    onboarding::choose_plan(&mut tx, auth.partner_id, plan, billing).await?;
    tx.commit().await?;
    Ok(Json(status_of(&state, auth.partner_id).await?))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SubdomainAvailability {
    pub available: bool,
    /// 'This username is available.', 'This username is not available.' or why the name is
    /// not a valid sub-domain.
    pub message: String,
}

/// Whether a sub-domain can be claimed: valid (3 to 40 of a-z, 0-9, hyphens), not reserved,
/// and free (or already this partner's).
#[utoipa::path(get, path = "/subdomains/{name}", tag = "onboarding", params(("name" = String, Path)),
    responses((status = 200, body = SubdomainAvailability), (status = 401, body = crate::error::ErrorBody)))]
pub async fn subdomain_availability(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<SubdomainAvailability>> {
    let a =
        subdomains::availability(&mut *state.pool.acquire().await?, auth.partner_id, &name).await?;
    Ok(Json(match a {
        Availability::Available => SubdomainAvailability {
            available: true,
            message: subdomains::AVAILABLE.into(),
        },
        Availability::Unavailable => SubdomainAvailability {
            available: false,
            message: subdomains::NOT_AVAILABLE.into(),
        },
        Availability::Invalid(m) => SubdomainAvailability {
            available: false,
            message: m,
        },
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct SubdomainRequest {
    #[serde(default)]
    pub subdomain: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SubdomainClaimed {
    pub job_id: String,
    pub subdomain: String,
    /// The site's address once the job has activated it.
    pub url: String,
    /// A fresh session carrying the new sub-domain.
    pub token: String,
}

/// Claims a sub-domain (lower-cased). The name is reserved for the partner in the same
/// transaction that enqueues the `provision_subdomain` job, which activates it; poll
/// `/api/v1/jobs/{job_id}` or `/partner/status`. A change of name re-provisions. 409 when taken.
#[utoipa::path(put, path = "/partner/subdomain", tag = "onboarding", request_body = SubdomainRequest,
    responses((status = 202, body = SubdomainClaimed), (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn claim_subdomain(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<SubdomainRequest>,
) -> ApiResult<(StatusCode, Json<SubdomainClaimed>)> {
    let name = subdomains::parse(&req.subdomain)?;
    let mut tx = state.pool.begin().await?;
    subdomains::claim(&mut tx, auth.partner_id, &name).await?;
    let job_id = jobs::enqueue(
        &mut tx,
        &jobs::ProvisionSubdomain {
            partner_id: auth.partner_id,
            subdomain: name.clone(),
        },
    )
    .await?;
    domain::infra::job_owners::record(&mut tx, &job_id, auth.partner_id).await?;
    let session = partner_session(&state, &mut tx, auth.partner_id).await?;
    tx.commit().await?;
    let url = state.config.partner_site_url(&name);
    Ok((
        StatusCode::ACCEPTED,
        Json(SubdomainClaimed {
            job_id,
            subdomain: name,
            url,
            token: session.token,
        }),
    ))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct BrandingRequest {
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// A key from `POST /api/v1/uploads` with purpose `logo`.
    #[serde(default)]
    pub logo_key: String,
    /// A key from `POST /api/v1/uploads` with purpose `favicon`.
    #[serde(default)]
    pub favicon_key: String,
    #[serde(default)]
    pub theme: Option<Theme>,
}

/// Step 4: title, description, logo, favicon and three `#RRGGBB` colours, all required. The
/// files must be this partner's own uploads, already stored.
#[utoipa::path(put, path = "/partner/branding", tag = "onboarding", request_body = BrandingRequest,
    responses((status = 200, body = Status), (status = 422, body = crate::error::ErrorBody)))]
pub async fn save_branding(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<BrandingRequest>,
) -> ApiResult<Json<Status>> {
    let empty = Theme {
        primary: String::new(),
        secondary: String::new(),
        tertiary: String::new(),
    };
    let form = BrandingForm::parse(
        auth.partner_id,
        &req.title,
        &req.description,
        &req.logo_key,
        &req.favicon_key,
        req.theme.as_ref().unwrap_or(&empty),
    )?;
    // The stored bytes, not the declared type, decide: a page or a script is removed here.
    for (field, key, purpose) in [
        ("logo_key", &form.logo_key, UploadPurpose::Logo),
        ("favicon_key", &form.favicon_key, UploadPurpose::Favicon),
    ] {
        state.storage.verify_upload(key, purpose, field).await?;
    }
    let mut tx = state.pool.begin().await?;
    branding::save(&mut tx, auth.partner_id, &form).await?;
    tx.commit().await?;
    Ok(Json(status_of(&state, auth.partner_id).await?))
}

/// The partner's SMTP settings, the password masked (never in clear). `configured: false`
/// with the form's defaults when none are saved.
#[utoipa::path(get, path = "/partner/smtp", tag = "onboarding",
    responses((status = 200, body = SmtpView), (status = 401, body = crate::error::ErrorBody)))]
pub async fn get_smtp(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<SmtpView>> {
    Ok(Json(
        partner_smtp::view(&mut *state.pool.acquire().await?, auth.partner_id).await?,
    ))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct SmtpRequest {
    #[serde(default)]
    pub host: String,
    #[serde(default)]
    pub port: Option<i64>,
    #[serde(default)]
    pub user: String,
    /// Empty keeps the stored password.
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub from: String,
    #[serde(default)]
    pub company_name: String,
    #[serde(default)]
    pub secure: Option<bool>,
    #[serde(default)]
    pub active: Option<bool>,
}

/// Step 5 (and My Account): saves the SMTP settings, the password sealed with AES-256-GCM, and
/// marks the step done. Mail to the partner's end users then goes through this server.
#[utoipa::path(put, path = "/partner/smtp", tag = "onboarding", request_body = SmtpRequest,
    responses((status = 200, body = SmtpView), (status = 422, body = crate::error::ErrorBody)))]
pub async fn save_smtp(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<SmtpRequest>,
) -> ApiResult<Json<SmtpView>> {
    let form = SmtpForm::parse(
        &req.host,
        req.port,
        &req.user,
        &req.password,
        &req.from,
        &req.company_name,
        req.secure,
        req.active,
    )?;
    // DNS before the transaction: a slow answer must not hold a connection open.
    partner_smtp::check_host(
        &form.host,
        form.port,
        state.config.partner_smtp_allow_private,
    )
    .await?;
    let secrets = SecretBox::new(&state.config.encryption_key);
    let mut tx = state.pool.begin().await?;
    let view = partner_smtp::save(&mut tx, &secrets, auth.partner_id, &form).await?;
    tx.commit().await?;
    Ok(Json(view))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SmtpTestQueued {
    pub job_id: String,
}

/// 'Send test mail': queues one message through the saved settings to the partner's own
/// address; poll `GET /api/v1/jobs/{job_id}` for `done`, or `failed` with the server's answer
/// in `last_error` (never the password). 422 when no settings are saved.
#[utoipa::path(post, path = "/partner/smtp/test", tag = "onboarding",
    responses((status = 202, body = SmtpTestQueued), (status = 401, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn test_smtp(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<(StatusCode, Json<SmtpTestQueued>)> {
    let mut tx = state.pool.begin().await?;
    if !partner_smtp::view(&mut tx, auth.partner_id)
        .await?
        .configured
    {
        return Err(ApiError::field("host", "Save the SMTP settings first"));
    }
    let job_id = jobs::enqueue(
        &mut tx,
        &jobs::SmtpTest {
            partner_id: auth.partner_id,
        },
    )
    .await?;
    // The partner polls this job: it must be able to see it, and only it.
    domain::infra::job_owners::record(&mut tx, &job_id, auth.partner_id).await?;
    tx.commit().await?;
    Ok((StatusCode::ACCEPTED, Json(SmtpTestQueued { job_id })))
}

/// Step 5's Skip: no own mail server; the step counts as done.
#[utoipa::path(post, path = "/partner/smtp/skip", tag = "onboarding",
    responses((status = 200, body = Status), (status = 401, body = crate::error::ErrorBody)))]
pub async fn skip_smtp(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<Status>> {
    onboarding::skip_smtp(&mut *state.pool.acquire().await?, auth.partner_id).await?;
    Ok(Json(status_of(&state, auth.partner_id).await?))
}
