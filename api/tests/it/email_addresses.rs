//! Every e-mail address the API accepts goes through one check (`domain::infra::email_address`): what
//! the mailer's parser refuses, or what hides control and bidi characters, is a 422 on the
//! field at the door, not a mail job that fails eight times.

use serde_json::json;

use crate::{
    auth_fixtures::{fresh_ip, post_as, put, signed_up, signup_body},
    common::TestApp,
};

const BAD: &[&str] = &[
    "<script>alert(1)</script>@example.com",
    "user\u{202E}moc.elpmaxe@example.com",
    "a\u{2066}b@example.com",
    "zero\u{200B}width@example.com",
    "a\"b@example.com",
    "a@b@example.com",
];
const INVALID: &str = "Please enter a valid email";

#[tokio::test]
async fn addresses_the_mailer_would_refuse_are_422_everywhere() {
    let app = TestApp::spawn_with(|c| c.partner_smtp_allow_private = true).await;
    let p = signed_up(&app, "mailcheck").await;
    for bad in BAD {
        let mut signup = signup_body("newbie");
        signup["email"] = json!(bad);
        let (s, b) = post_as(&app, &fresh_ip(), "/api/v1/partner/signup", &signup, None).await;
        assert_eq!(
            (s, b["error"]["fields"]["email"].as_str()),
            (422, Some(INVALID)),
            "signup {bad:?}: {b}"
        );

        let user = json!({"first_name": "Meera", "last_name": "Nair", "email": bad, "phone_number": "9812345678",
                          "password": "Secret-123", "full_access": false});
        let (s, b) = app
            .post("/api/v1/partner/users", &user, Some(&p.token))
            .await;
        assert_eq!(
            (s, b["error"]["fields"]["email"].as_str()),
            (422, Some(INVALID)),
            "user {bad:?}: {b}"
        );

        let contact =
            json!({"name": "Asha", "email": bad, "mobile": "9876543210", "message": "hi"});
        let (s, b) = post_as(&app, &fresh_ip(), "/api/v1/public/contact", &contact, None).await;
        assert_eq!(
            (s, b["error"]["fields"]["email"].as_str()),
            (422, Some(INVALID)),
            "contact {bad:?}: {b}"
        );

        let forgot = json!({"email": bad, "user_name": "mailcheck"});
        let (s, b) = post_as(
            &app,
            &fresh_ip(),
            "/api/v1/partner/forgot-password",
            &forgot,
            None,
        )
        .await;
        assert_eq!(
            (s, b["error"]["fields"]["email"].as_str()),
            (422, Some(INVALID)),
            "forgot {bad:?}: {b}"
        );

        for from in [bad.to_string(), format!("Acme <{bad}>")] {
            let smtp = json!({"host": "127.0.0.1", "port": 2525, "user": "u", "password": "p", "from": from,
                              "company_name": "Acme", "secure": false, "active": true});
            let (s, b) = put(&app, "/api/v1/partner/smtp", &smtp, Some(&p.token)).await;
            assert_eq!(
                (s, b["error"]["fields"]["from"].as_str()),
                (422, Some("From must be an email address")),
                "from {from:?}: {b}"
            );
        }
    }
    // A bidi override in the sender's display name would show recipients another name.
    let smtp = json!({"host": "127.0.0.1", "port": 2525, "user": "u", "password": "p", "from": "Ac\u{202E}me <a@acme.test>",
                      "company_name": "Acme", "secure": false, "active": true});
    assert_eq!(
        put(&app, "/api/v1/partner/smtp", &smtp, Some(&p.token))
            .await
            .0,
        422
    );
    // Nothing was queued for any of them: no mail job exists but the sign-up's own.
    let queued: i64 = sqlx::query_scalar("SELECT count(*) FROM apalis.jobs")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(queued, 1);

    // Good addresses still pass.
    let user = json!({"first_name": "Meera", "last_name": "Nair", "email": "first.last+kyc@example.co.in", "phone_number": "9812345678",
                      "password": "Secret-123", "full_access": false});
    assert_eq!(
        app.post("/api/v1/partner/users", &user, Some(&p.token))
            .await
            .0,
        201
    );
    let smtp = json!({"host": "127.0.0.1", "port": 2525, "user": "u", "password": "p", "from": "Acme KYC <no-reply@acme.test>",
                      "company_name": "Acme", "secure": false, "active": true});
    assert_eq!(
        put(&app, "/api/v1/partner/smtp", &smtp, Some(&p.token))
            .await
            .0,
        200
    );
}
