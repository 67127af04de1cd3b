//! The onboarding wizard through HTTP: plan, sub-domain (availability, claim, the provisioning
//! job, 409), branding with real uploads, SMTP (sealed, masked, used for partner mail) or skip,
//! the public plan cards and branding, and the branded index.html on a partner's Host.

use std::time::Duration;

use domain::infra::crypto::SecretBox;
use serde_json::{Value, json};

use crate::{
    auth_fixtures::{Session, put, signed_up},
    common::TestApp,
};

async fn step(app: &TestApp, p: &Session) -> Value {
    let (s, b) = app.get("/api/v1/partner/status", Some(&p.token)).await;
    assert_eq!(s, 200, "{b}");
    b
}

/// Uploads a small PNG through `POST /api/v1/uploads` and its signed PUT link; returns the key.
async fn upload(app: &TestApp, p: &Session, purpose: &str) -> String {
    let png = b"\x89PNG\r\n\x1a\nfake-image-bytes".to_vec();
    let body = json!({"purpose": purpose, "file_name": format!("{purpose}.png"), "content_type": "image/png", "size": png.len()});
    let (s, b) = app.post("/api/v1/uploads", &body, Some(&p.token)).await;
    assert_eq!(s, 200, "{b}");
    let url = b["url"]
        .as_str()
        .unwrap()
        .replacen(&app.config.public_url, &app.base, 1);
    let res = app
        .client
        .put(url)
        .header("content-type", "image/png")
        .body(png)
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());
    b["key"].as_str().unwrap().to_owned()
}

fn theme() -> Value {
    json!({"primary": "#0f766e", "secondary": "#7C3AED", "tertiary": "#F59E0B"})
}

#[tokio::test]
async fn the_wizard_steps_from_plan_to_done() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "wizard").await;
    let s = step(&app, &p).await;
    assert_eq!(
        s,
        json!({"plan_done": false, "subdomain_done": false, "branding_done": false, "smtp_done": false, "onboarding_step": 2, "subdomain_status": "none"})
    );
    let (_, me) = app.get("/api/v1/partner/me", Some(&p.token)).await;
    assert_eq!(me["title"], "wizard - Home");
    assert_eq!(me["description"], "wizard - API KYC Solution");
    assert_eq!(
        me["theme"],
        json!({"primary": "#6091E2", "secondary": "#9462E7", "tertiary": "#00FFFB"})
    );
    assert_eq!(
        (
            me["plan"].clone(),
            me["subdomain"].clone(),
            me["user_dashboard_url"].clone()
        ),
        (Value::Null, Value::Null, Value::Null)
    );

    // Step 2: the plan.
    let (s, b) = app
        .post(
            "/api/v1/partner/plan",
            &json!({"plan": "gold", "billing": "weekly"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 422);
    assert!(
        b["error"]["fields"]["plan"].is_string() && b["error"]["fields"]["billing"].is_string(),
        "{b}"
    );
    let (s, b) = app
        .post(
            "/api/v1/partner/plan",
            &json!({"plan": "premium", "billing": "yearly"}),
            Some(&p.token),
        )
        .await;
    assert_eq!((s, b["onboarding_step"].as_i64()), (200, Some(3)), "{b}");
    let (_, me) = app.get("/api/v1/partner/me", Some(&p.token)).await;
    assert_eq!(
        (me["plan"].as_str(), me["billing_cycle"].as_str()),
        (Some("premium"), Some("yearly"))
    );

    // Step 3: the sub-domain, claimed and provisioned by the job.
    let (s, b) = put(
        &app,
        "/api/v1/partner/subdomain",
        &json!({"subdomain": " Wizard-KYC "}),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 202, "{b}");
    assert_eq!(b["subdomain"], "wizard-kyc");
    assert_eq!(b["url"], "http://wizard-kyc.localhost:8080");
    let job_id = b["job_id"].as_str().unwrap().to_owned();
    let new_token = b["token"].as_str().unwrap().to_owned();
    let s = step(&app, &p).await;
    assert_eq!(
        (
            s["onboarding_step"].as_i64(),
            s["subdomain_status"].as_str()
        ),
        (Some(4), Some("pending"))
    );
    app.run_pending_jobs().await;
    let job = app
        .wait_for_job(&job_id, "done", Duration::from_secs(20))
        .await;
    assert_eq!(job["kind"], "provision_subdomain");
    assert_eq!(step(&app, &p).await["subdomain_status"], "active");
    let provisioned: bool = sqlx::query_scalar(
        "SELECT subdomain_provisioned_at IS NOT NULL FROM partners WHERE id = $1",
    )
    .bind(p.id)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert!(provisioned);
    let (_, me) = app.get("/api/v1/partner/me", Some(&new_token)).await;
    assert_eq!(me["user_dashboard_url"], "http://wizard-kyc.localhost:8080");

    // Step 4: branding, with files uploaded through signed links.
    let logo = upload(&app, &p, "logo").await;
    let favicon = upload(&app, &p, "favicon").await;
    let branding = |logo: &str, favicon: &str, theme: Value| json!({"title": "Wizard KYC - Home", "description": "Checks", "logo_key": logo, "favicon_key": favicon, "theme": theme});
    let (s, b) = put(&app, "/api/v1/partner/branding", &json!({}), Some(&p.token)).await;
    assert_eq!(s, 422);
    for f in [
        "title",
        "description",
        "logo_key",
        "favicon_key",
        "theme.primary",
        "theme.secondary",
        "theme.tertiary",
    ] {
        assert!(b["error"]["fields"][f].is_string(), "{f}: {b}");
    }
    let (s, b) = put(
        &app,
        "/api/v1/partner/branding",
        &branding(&favicon, &logo, theme()),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 422, "logo and favicon swapped: {b}");
    let (s, b) = put(
        &app,
        "/api/v1/partner/branding",
        &branding("partners/1/logo/ABCDE_x.png", &favicon, theme()),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 422, "another partner's key: {b}");
    let (s, b) = put(
        &app,
        "/api/v1/partner/branding",
        &branding(
            &format!("partners/{}/logo/NEVER_up.png", p.id),
            &favicon,
            theme(),
        ),
        Some(&p.token),
    )
    .await;
    assert_eq!(
        (s, b["error"]["fields"]["logo_key"].as_str()),
        (422, Some("Please select a file")),
        "not uploaded: {b}"
    );
    let (s, b) = put(
        &app,
        "/api/v1/partner/branding",
        &branding(
            &logo,
            &favicon,
            json!({"primary": "red", "secondary": "#12345", "tertiary": "#GGGGGG"}),
        ),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 422, "{b}");
    let (s, b) = put(
        &app,
        "/api/v1/partner/branding",
        &branding(&logo, &favicon, theme()),
        Some(&p.token),
    )
    .await;
    assert_eq!((s, b["onboarding_step"].as_i64()), (200, Some(5)), "{b}");
    let (_, me) = app.get("/api/v1/partner/me", Some(&p.token)).await;
    assert_eq!(me["title"], "Wizard KYC - Home");
    assert_eq!(me["theme"]["primary"], "#0F766E");
    let logo_url = me["logo_url"].as_str().expect("a signed logo link");
    // A local-store link has no origin, so a partner's site loads it from its own (its CSP).
    assert!(logo_url.starts_with("/files/"), "{logo_url}");
    let res = app
        .client
        .get(format!("{}{logo_url}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);

    // Step 5: skipped.
    let (s, b) = app
        .post("/api/v1/partner/smtp/skip", &json!({}), Some(&p.token))
        .await;
    assert_eq!((s, b["onboarding_step"].as_i64()), (200, Some(6)), "{b}");
    let login = crate::auth_fixtures::login(&app, &p.email, crate::auth_fixtures::PASSWORD).await;
    assert_eq!(
        login["partner"],
        json!({"id": p.id, "user_name": "wizard", "subdomain": "wizard-kyc", "onboarding_step": 6})
    );
}

#[tokio::test]
async fn subdomain_availability_claims_and_409() {
    let app = TestApp::spawn().await;
    let a = signed_up(&app, "alpha").await;
    let b = signed_up(&app, "bravo").await;
    let avail = |p: &Session, name: &str| {
        let path = format!("/api/v1/subdomains/{name}");
        let token = p.token.clone();
        let app = &app;
        async move { app.get(&path, Some(&token)).await }
    };
    let (s, r) = avail(&a, "acme").await;
    assert_eq!(
        (s, r),
        (
            200,
            json!({"available": true, "message": "This username is available."})
        )
    );
    for name in ["www", "api", "admin", "app", "mail", "superadmin", "static"] {
        let (_, r) = avail(&a, name).await;
        assert_eq!(
            r,
            json!({"available": false, "message": "This username is not available."}),
            "{name}"
        );
    }
    for bad in ["ab", "-acme", "acme-", "a_b_c", &"a".repeat(41), "%20%20"] {
        let (s, r) = avail(&a, bad).await;
        assert_eq!(
            (s, r["available"].as_bool()),
            (200, Some(false)),
            "{bad}: {r}"
        );
    }
    let (s, _) = app.get("/api/v1/subdomains/acme", None).await;
    assert_eq!(s, 401);

    let (s, r) = put(
        &app,
        "/api/v1/partner/subdomain",
        &json!({"subdomain": "acme"}),
        Some(&a.token),
    )
    .await;
    assert_eq!(s, 202, "{r}");
    let first_job = r["job_id"].as_str().unwrap().to_owned();
    assert_eq!(avail(&a, "acme").await.1["available"], true, "own name");
    assert_eq!(avail(&b, "ACME").await.1["available"], false);
    let (s, r) = put(
        &app,
        "/api/v1/partner/subdomain",
        &json!({"subdomain": "Acme"}),
        Some(&b.token),
    )
    .await;
    assert_eq!(s, 409, "{r}");
    assert_eq!(
        r["error"]["fields"]["subdomain"],
        "This username is not available."
    );
    let (s, _) = put(
        &app,
        "/api/v1/partner/subdomain",
        &json!({"subdomain": "admin"}),
        Some(&b.token),
    )
    .await;
    assert_eq!(s, 409);
    for bad in [
        json!({}),
        json!({"subdomain": "a"}),
        json!({"subdomain": 7}),
        json!({"subdomain": "a.b.c"}),
    ] {
        let (s, r) = put(&app, "/api/v1/partner/subdomain", &bad, Some(&b.token)).await;
        assert_eq!(s, 422, "{bad}: {r}");
    }

    // A change of name frees the old one and re-provisions; a stale job does nothing.
    let (_, r) = put(
        &app,
        "/api/v1/partner/subdomain",
        &json!({"subdomain": "acme-two"}),
        Some(&a.token),
    )
    .await;
    app.run_pending_jobs().await;
    app.wait_for_job(&first_job, "done", Duration::from_secs(20))
        .await;
    app.wait_for_job(
        r["job_id"].as_str().unwrap(),
        "done",
        Duration::from_secs(20),
    )
    .await;
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT subdomain::text, subdomain_status FROM partners WHERE id = $1")
            .bind(a.id)
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
    assert_eq!(rows, [("acme-two".to_owned(), "active".to_owned())]);
    let (s, _) = put(
        &app,
        "/api/v1/partner/subdomain",
        &json!({"subdomain": "acme"}),
        Some(&b.token),
    )
    .await;
    assert_eq!(s, 202, "the old name is free again");
    let audit: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM audit_log WHERE action = 'partner.subdomain_provisioned'",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(
        audit, 1,
        "the first claim's job found its name replaced and did nothing"
    );
}

#[tokio::test]
async fn smtp_password_is_sealed_masked_and_used_for_partner_mail() {
    // The test's SMTP server listens on loopback, which partners may use only with this.
    let app = TestApp::spawn_with(|c| c.partner_smtp_allow_private = true).await;
    let p = signed_up(&app, "mailer").await;
    let smtp = testkit::SmtpServer::start().await;
    let (s, v) = app.get("/api/v1/partner/smtp", Some(&p.token)).await;
    assert_eq!(s, 200);
    assert_eq!(
        (
            v["configured"].as_bool(),
            v["secure"].as_bool(),
            v["active"].as_bool()
        ),
        (Some(false), Some(true), Some(true))
    );

    let (s, b) = put(&app, "/api/v1/partner/smtp", &json!({}), Some(&p.token)).await;
    assert_eq!(s, 422);
    for f in [
        "host",
        "port",
        "user",
        "from",
        "company_name",
        "secure",
        "active",
    ] {
        assert!(b["error"]["fields"][f].is_string(), "{f}: {b}");
    }
    let settings = |password: &str| {
        json!({"host": "127.0.0.1", "port": smtp.port, "user": "mailer@acme.test", "password": password,
               "from": "no-reply@acme.test", "company_name": "Acme KYC", "secure": false, "active": true})
    };
    let (s, b) = put(&app, "/api/v1/partner/smtp", &settings(""), Some(&p.token)).await;
    assert_eq!(
        (s, b["error"]["fields"]["password"].as_str()),
        (422, Some("Password is required")),
        "{b}"
    );
    let (s, v) = put(
        &app,
        "/api/v1/partner/smtp",
        &settings("sup3r-secret-pw"),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["password"], "********");
    assert!(!v.to_string().contains("sup3r-secret-pw"));
    let (_, v) = app.get("/api/v1/partner/smtp", Some(&p.token)).await;
    assert_eq!(
        (
            v["configured"].as_bool(),
            v["password"].as_str(),
            v["host"].as_str()
        ),
        (Some(true), Some("********"), Some("127.0.0.1"))
    );
    assert!(!v.to_string().contains("sup3r-secret-pw"));
    assert_eq!(
        app.get("/api/v1/partner/status", Some(&p.token)).await.1["smtp_done"],
        true
    );

    // At rest: ciphertext that opens with ENCRYPTION_KEY, never the plaintext.
    let sealed: Vec<u8> =
        sqlx::query_scalar("SELECT password_enc FROM partner_smtp WHERE partner_id = $1")
            .bind(p.id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert!(!sealed.windows(15).any(|w| w == b"sup3r-secret-pw"));
    assert_eq!(
        SecretBox::new(&app.config.encryption_key)
            .open(&sealed)
            .unwrap(),
        "sup3r-secret-pw"
    );

    // An empty password on PUT keeps the stored one.
    let mut keep = settings("");
    keep["company_name"] = json!("Acme KYC Ltd");
    let (s, _) = put(&app, "/api/v1/partner/smtp", &keep, Some(&p.token)).await;
    assert_eq!(s, 200);
    let sealed: Vec<u8> =
        sqlx::query_scalar("SELECT password_enc FROM partner_smtp WHERE partner_id = $1")
            .bind(p.id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert_eq!(
        SecretBox::new(&app.config.encryption_key)
            .open(&sealed)
            .unwrap(),
        "sup3r-secret-pw"
    );

    // Mail on the partner's behalf goes through its server, authenticated with the password;
    // the job payload never holds it.
    let mail = domain::mail::Email::new("enduser@example.in", "Welcome", "Hello from Acme");
    let job_id = jobs::enqueue_now(&app.db.pool, &jobs::SendMail::for_partner(mail, p.id))
        .await
        .unwrap();
    let payload: String =
        sqlx::query_scalar("SELECT convert_from(job, 'UTF8') FROM apalis.jobs WHERE id = $1")
            .bind(&job_id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert!(!payload.contains("sup3r-secret-pw"), "{payload}");
    app.run_pending_jobs().await;
    app.wait_for_job(&job_id, "done", Duration::from_secs(20))
        .await;
    let got = smtp.received();
    assert_eq!(got.len(), 1);
    assert!(
        got[0].contains("From: \"Acme KYC Ltd\" <no-reply@acme.test>")
            || got[0].contains("From: Acme KYC Ltd <no-reply@acme.test>"),
        "{}",
        got[0]
    );
    assert_eq!(smtp.auths(), ["mailer@acme.test:sup3r-secret-pw"]);
    assert!(
        !testkit::outbox(&app.config)
            .iter()
            .any(|m| m.contains("enduser@example.in")),
        "not through the platform mailer"
    );
}

#[tokio::test]
async fn public_plan_cards_are_the_specs() {
    let app = TestApp::spawn().await;
    let (s, cards) = app.get("/api/v1/public/plans", None).await;
    assert_eq!(s, 200);
    let prices: Vec<(String, i64, i64)> = cards
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["heading"].as_str().unwrap().to_owned(),
                c["monthly_price_paise"].as_i64().unwrap(),
                c["yearly_price_paise"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        prices,
        [
            ("Standard".into(), 1_000_000, 800_000),
            ("Premium".into(), 2_000_000, 1_700_000),
            ("Pro".into(), 3_000_000, 2_100_000)
        ]
    );
    assert!(
        cards[0]["features"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["highlighted"] == true)
    );
    assert_eq!(cards[2]["id"], "pro");
}

/// A provisioned, branded partner like the seed's demo partner.
async fn demo_like(app: &TestApp) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash, email_verified_at,
                               subdomain, subdomain_status, title, description, branding_done, theme_primary, theme_secondary, theme_tertiary)
         VALUES ('Demo', 'Partner', 'demo@example.in', '9876543210', 'demo', 'x', now(), 'demo', 'active',
                 'Demo KYC - Home', 'Demo KYC - API KYC Solution', true, '#0F766E', '#7C3AED', '#F59E0B') RETURNING id",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn branding_by_subdomain_or_host_and_the_branded_index() {
    let dist = testkit::scratch_dir("dist");
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><html><head><link rel=\"icon\" id=\"app-favicon\" href=\"data:,\" /><title>KYC Whitelabel</title></head><body><div id=root></div></body></html>",
    )
    .unwrap();
    std::fs::create_dir_all(dist.join("assets")).unwrap();
    std::fs::write(dist.join("assets/app.js"), "console.log(1)").unwrap();
    let app = TestApp::spawn_with(|c| c.web_dist = dist.clone()).await;
    let id = demo_like(&app).await;
    let favicon = format!("partners/{id}/favicon/ABCDE_f.png");
    domain::infra::storage::Storage::new(&app.config)
        .put_bytes(&favicon, b"png".to_vec(), "image/png")
        .await
        .unwrap();
    sqlx::query("UPDATE partners SET favicon_key = $2 WHERE id = $1")
        .bind(id)
        .bind(&favicon)
        .execute(&app.db.pool)
        .await
        .unwrap();

    let (s, b) = app
        .get("/api/v1/public/branding?subdomain=demo", None)
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["title"], "Demo KYC - Home");
    assert_eq!(b["description"], "Demo KYC - API KYC Solution");
    assert_eq!(
        b["theme"],
        json!({"primary": "#0F766E", "secondary": "#7C3AED", "tertiary": "#F59E0B"})
    );
    assert!(b["favicon_url"].as_str().unwrap().contains(&favicon));
    assert_eq!(b["logo_url"], Value::Null);
    let by_host: Value = app
        .client
        .get(app.url("/api/v1/public/branding"))
        .header("host", "demo.localhost:8080")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(by_host["title"], "Demo KYC - Home");
    for q in ["?subdomain=nope", "?subdomain=%00%01"] {
        let (s, _) = app.get(&format!("/api/v1/public/branding{q}"), None).await;
        assert_eq!(s, 404, "{q}");
    }
    // The platform's own address has no partner to brand: nothing, and no error.
    for q in ["", "?subdomain="] {
        let res = app
            .client
            .get(app.url(&format!("/api/v1/public/branding{q}")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 204, "{q}");
    }
    sqlx::query("UPDATE partners SET subdomain_status = 'pending'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(
        app.get("/api/v1/public/branding?subdomain=demo", None)
            .await
            .0,
        404,
        "not yet provisioned"
    );
    sqlx::query("UPDATE partners SET subdomain_status = 'active'")
        .execute(&app.db.pool)
        .await
        .unwrap();

    // The partner's site: index.html carries its title, favicon and colour before any script.
    for path in ["/", "/auth", "/dashboard"] {
        let res = app
            .client
            .get(app.url(path))
            .header("host", "demo.localhost:8080")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        let html = res.text().await.unwrap();
        assert!(
            html.contains("<title>Demo KYC - Home</title>"),
            "{path}: {html}"
        );
        assert!(
            html.contains("<meta name=\"theme-color\" content=\"#0F766E\">"),
            "{html}"
        );
        assert!(
            html.contains(&format!(
                "<link rel=\"icon\" id=\"app-favicon\" href=\"/files/{favicon}"
            )),
            "{html}"
        );
        assert!(!html.contains("KYC Whitelabel"));
    }
    let js = app
        .client
        .get(app.url("/assets/app.js"))
        .header("host", "demo.localhost:8080")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(js, "console.log(1)");
    for host in ["localhost:8080", "unknown.localhost:8080"] {
        let html = app
            .client
            .get(app.url("/"))
            .header("host", host)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            html.contains("<title>KYC Whitelabel</title>"),
            "{host}: {html}"
        );
    }
}

#[tokio::test]
async fn onboarding_needs_a_partner_session_and_bad_bodies_never_500() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "fuzzy").await;
    for path in [
        "/api/v1/partner/me",
        "/api/v1/partner/status",
        "/api/v1/partner/smtp",
    ] {
        assert_eq!(app.get(path, None).await.0, 401, "{path}");
        assert_eq!(app.get(path, Some("garbage")).await.0, 401, "{path}");
        assert_eq!(
            app.get(path, Some(&app.superadmin_token())).await.0,
            403,
            "{path}"
        );
    }
    let bodies = [
        json!(null),
        json!([]),
        json!("x"),
        json!({"port": "x", "secure": "yes", "theme": 5, "plan": []}),
        json!({"port": 1e20, "title": "t".repeat(50_000)}),
        json!({"plan": "\u{0}", "billing": "\u{0}", "subdomain": "ab\u{0}c", "title": "\u{0}", "description": "\u{0}", "logo_key": "\u{0}",
               "favicon_key": "\u{0}", "theme": {"primary": "\u{0}", "secondary": "", "tertiary": ""}, "host": "\u{0}", "port": 25,
               "user": "\u{0}", "password": "\u{0}", "from": "a\u{0}@b.co", "company_name": "\u{0}", "secure": true, "active": true,
               "current_password": "\u{0}", "new_password": "\u{0}"}),
    ];
    for (method, path) in [
        ("POST", "/api/v1/partner/plan"),
        ("PUT", "/api/v1/partner/subdomain"),
        ("PUT", "/api/v1/partner/branding"),
        ("PUT", "/api/v1/partner/smtp"),
        ("POST", "/api/v1/partner/change-password"),
    ] {
        for body in &bodies {
            let req = if method == "PUT" {
                app.client.put(app.url(path))
            } else {
                app.client.post(app.url(path))
            };
            let res = req.bearer_auth(&p.token).json(body).send().await.unwrap();
            let s = res.status().as_u16();
            let b: Value = res.json().await.unwrap_or(Value::Null);
            assert!((400..500).contains(&s), "{method} {path} {body}: {s} {b}");
            assert!(b["error"]["message"].is_string(), "{b}");
        }
    }
    let (s, _) = app
        .get(
            &format!("/api/v1/subdomains/{}", "x".repeat(3000)),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn a_partner_site_serves_its_own_api_reference() {
    let app = TestApp::spawn().await;
    demo_like(&app).await;
    crate::fixtures::api(&app, "pan_lookup", 500).await;
    let doc_on = |host: Option<&'static str>| {
        let mut req = app.client.get(app.url("/api/openapi.json"));
        if let Some(h) = host {
            req = req.header("host", h);
        }
        async move { req.send().await.unwrap().json::<Value>().await.unwrap() }
    };

    // The platform's document: every path, an example body per live API.
    let doc = doc_on(None).await;
    let examples = &doc["paths"]["/api/v1/verify/{service}"]["post"]["requestBody"]["content"]["application/json"]
        ["examples"];
    assert!(examples["pan_lookup"]["value"].is_object(), "{examples}");
    assert!(doc["paths"].get("/api/v1/partner/login").is_some());

    // The partner's site: only what its end users call, under its name and its address.
    let doc = doc_on(Some("demo.localhost:8080")).await;
    let paths: Vec<&String> = doc["paths"].as_object().unwrap().keys().collect();
    assert!(
        paths.iter().any(|p| p.starts_with("/api/v1/verify")),
        "{paths:?}"
    );
    assert!(
        paths.iter().any(|p| p.starts_with("/api/v1/me")),
        "{paths:?}"
    );
    assert!(
        paths
            .iter()
            .all(|p| p.starts_with("/api/v1/verify") || p.starts_with("/api/v1/me")),
        "{paths:?}"
    );
    assert_eq!(doc["info"]["title"], "Demo KYC - Home API");
    assert_eq!(doc["servers"][0]["url"], "http://demo.localhost:8080");
    assert!(
        doc["paths"]["/api/v1/verify/{service}"]["post"]["requestBody"]["content"]
            ["application/json"]["examples"]["pan_lookup"]
            .is_object()
    );
}
