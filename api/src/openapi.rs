//! The OpenAPI document: the info and shared components below, plus the paths of every route
//! `routes::router()` serves (each declared once, with `routes!`); and the two routes that serve
//! it, `/api/openapi.json` and a browsable page at `/api/docs` (self-contained: no CDN).

use std::sync::LazyLock;

use axum::{Json, Router, extract::State, http::HeaderMap, response::Html, routing::get};
use serde_json::{Value, json};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::{AppState, error::ApiResult, routes, sites};

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
        let mut doc = OpenApiRouter::with_openapi(ApiDoc::openapi())
            .merge(routes::router())
            .into_openapi();
        unique_operation_ids(&mut doc);
        doc
    });
    DOCUMENT.clone()
}

/// Operation ids are the handlers' names, and handlers of different areas share names (`login`
/// of partners and of end users): OpenAPI wants them unique, as generated clients name their
/// methods by them. A shared name gets its area in front (`me_login`, `partner_login`), or its
/// whole path where that is not enough (`partner_users_api_keys_create`).
fn unique_operation_ids(doc: &mut utoipa::openapi::OpenApi) {
    use std::collections::HashMap;
    fn operations(
        doc: &mut utoipa::openapi::OpenApi,
    ) -> impl Iterator<Item = (&String, &mut utoipa::openapi::path::Operation)> {
        doc.paths.paths.iter_mut().flat_map(|(path, item)| {
            [
                item.get.as_mut(),
                item.put.as_mut(),
                item.post.as_mut(),
                item.delete.as_mut(),
                item.patch.as_mut(),
            ]
            .into_iter()
            .flatten()
            .map(move |op| (path, op))
        })
    }
    // The path's fixed segments after `/api/v1`, as an identifier.
    fn segments(path: &str) -> Vec<String> {
        path.trim_start_matches("/api/v1/")
            .split('/')
            .filter(|s| !s.is_empty() && !s.starts_with('{'))
            .map(|s| s.replace('-', "_"))
            .collect()
    }
    let mut uses: HashMap<String, usize> = HashMap::new();
    for (_, op) in operations(doc) {
        if let Some(id) = &op.operation_id {
            *uses.entry(id.clone()).or_default() += 1;
        }
    }
    // Every id in use stays taken; a shared one takes the first free of its candidates.
    let mut taken: std::collections::HashSet<String> = uses.keys().cloned().collect();
    let mut by_area: HashMap<String, usize> = HashMap::new();
    for (path, op) in operations(doc) {
        if let Some(id) = op.operation_id.as_ref().filter(|id| uses[*id] > 1) {
            let area = segments(path).first().cloned().unwrap_or_default();
            *by_area.entry(format!("{area}_{id}")).or_default() += 1;
        }
    }
    for (path, op) in operations(doc) {
        let Some(id) = op.operation_id.clone().filter(|id| uses[id] > 1) else {
            continue;
        };
        let parts = segments(path);
        let area = format!("{}_{id}", parts.first().cloned().unwrap_or_default());
        let whole = format!("{}_{id}", parts.join("_"));
        let chosen = [area.clone(), whole.clone()]
            .into_iter()
            .filter(|c| *c != area || by_area[&area] == 1)
            .find(|c| !taken.contains(c))
            .unwrap_or_else(|| {
                (2..)
                    .map(|n| format!("{whole}_{n}"))
                    .find(|c| !taken.contains(c))
                    .expect("a free name")
            });
        taken.insert(chosen.clone());
        op.operation_id = Some(chosen);
    }
}

// The document describes the API, not itself: these two routes stay out of it, and are
// merged beside `routes::router()` by the app (a plain router, not `routes!`).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/openapi.json", get(openapi))
        .route("/api/docs", get(|| async { Html(DOCS_PAGE) }))
}

/// The paths a partner's end users call: the gateway (and its batches) and their own account.
const END_USER_PATHS: [&str; 2] = ["/api/v1/verify", "/api/v1/me"];

/// The document, with an example body per live API on `POST /verify/{service}` (from the
/// catalogue, so a new API shows at once). On a partner's site it is that partner's reference:
/// only what its end users call, titled with its name, its site as the server.
async fn openapi(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Json<Value>> {
    let mut doc = serde_json::to_value(document()).map_err(crate::error::ApiError::internal)?;
    let mut conn = state.pool.acquire().await?;
    let shapes = domain::catalogue::request_shapes(&mut conn).await?;
    let examples: serde_json::Map<String, Value> = shapes
        .into_iter()
        .map(|s| {
            let body: serde_json::Map<String, Value> = s
                .required_fields
                .iter()
                .map(|f| (f.clone(), Value::String(format!("<{f}>"))))
                .collect();
            (s.service, json!({"summary": s.name, "value": body}))
        })
        .collect();
    if let Some(body) =
        doc.pointer_mut("/paths/~1api~1v1~1verify~1{service}/post/requestBody/content")
        && let Some(content) = body.as_object_mut()
    {
        let json_body = content
            .entry("application/json")
            .or_insert_with(|| json!({"schema": {"type": "object"}}));
        json_body["examples"] = Value::Object(examples);
    }
    drop(conn);
    let site = match sites::requested_subdomain(&state, None, &headers) {
        Some(sub) => sites::site_branding(&state, &sub).await?,
        None => None,
    };
    if let Some(site) = site {
        if let Some(paths) = doc["paths"].as_object_mut() {
            paths.retain(|path, _| END_USER_PATHS.iter().any(|p| path.starts_with(p)));
        }
        let name = site
            .title
            .clone()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| site.user_name.clone());
        doc["info"]["title"] = json!(format!("{name} API"));
        doc["info"]["description"] = json!(format!(
            "The verification API of {name}. Money is integer paise (`*_paise`). Errors: `{{\"error\":{{\"code\",\"message\",\"fields\"}}}}`. The gateway takes your key in `X-Api-Key`."
        ));
        let scheme = if state.config.public_url.starts_with("https://") {
            "https"
        } else {
            "http"
        };
        let host = headers
            .get(http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or_default();
        doc["servers"] = json!([{"url": format!("{scheme}://{host}"), "description": name}]);
    }
    Ok(Json(doc))
}

/// The page's one inline script, which the Content-Security-Policy allows by its hash.
pub fn inline_script() -> &'static str {
    let start = DOCS_PAGE
        .find("<script>")
        .expect("the docs page has its script")
        + "<script>".len();
    let end = DOCS_PAGE.rfind("</script>").expect("closed");
    &DOCS_PAGE[start..end]
}

const DOCS_PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>KYC Platform API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f6f7fb;color:#1d2433}
header{background:#1d2433;color:#fff;padding:16px 24px}h1{margin:0;font-size:20px}
main{max-width:1000px;margin:0 auto;padding:24px}
.op{background:#fff;border:1px solid #dde1ea;border-radius:6px;margin:8px 0;padding:10px 14px}
.m{display:inline-block;min-width:64px;font-weight:700;text-transform:uppercase;font-size:12px}
.get{color:#1f7a3a}.post{color:#1d5fbf}.put{color:#a05a00}.patch{color:#7a3fb0}.delete{color:#b3261e}
code{font-size:14px}h2{margin-top:28px;text-transform:capitalize}small{color:#5b6475}
details pre{background:#f1f3f8;padding:8px;overflow:auto;font-size:12px}
</style></head><body><header><h1>KYC Platform API</h1><small style="color:#c9d1e3">OpenAPI document: <a style="color:#9cc2ff" href="/api/openapi.json">/api/openapi.json</a></small></header>
<main id="root">Loading…</main>
<script>
fetch('/api/openapi.json').then(r=>r.json()).then(doc=>{
  const byTag={};
  for(const [path,item] of Object.entries(doc.paths||{})){
    for(const [method,op] of Object.entries(item)){
      const tag=(op.tags&&op.tags[0])||'other';(byTag[tag]=byTag[tag]||[]).push({path,method,op});
    }
  }
  const title=(doc.info&&doc.info.title)||'API';document.title=title;document.querySelector('h1').textContent=title;
  const root=document.getElementById('root');root.textContent='';
  const p=document.createElement('p');p.textContent=(doc.info&&doc.info.description)||'';root.appendChild(p);
  for(const tag of Object.keys(byTag).sort()){
    const h=document.createElement('h2');h.textContent=tag;root.appendChild(h);
    for(const {path,method,op} of byTag[tag]){
      const d=document.createElement('details');d.className='op';
      const s=document.createElement('summary');
      const m=document.createElement('span');m.className='m '+method;m.textContent=method;
      const c=document.createElement('code');c.textContent=path;
      const t=document.createElement('small');t.textContent='  '+(op.summary||op.description||'');
      s.append(m,c,t);d.appendChild(s);
      const pre=document.createElement('pre');pre.textContent=JSON.stringify(op,null,2);d.appendChild(pre);
      root.appendChild(d);
    }
  }
}).catch(e=>{document.getElementById('root').textContent='Could not load the OpenAPI document: '+e});
</script></body></html>"#;
