//! The OpenAPI document and a browsable page for it (self-contained: no CDN).

use axum::{Json, response::Html, routing::get};
use utoipa_axum::router::OpenApiRouter;

use crate::AppState;

// The document describes the API, not itself: these two routes stay out of it.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .route(
            "/openapi.json",
            get(|| async { Json(crate::openapi::document()) }),
        )
        .route("/docs", get(|| async { Html(DOCS_PAGE) }))
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
