//! Issue 22, finding 7: `/metrics` is answered only on the platform's own host, never on a
//! partner's site, and `scripts/run` gives every `.env` a generated `METRICS_TOKEN`.

use std::process::Command;

use crate::common::TestApp;

#[tokio::test]
async fn metrics_answer_on_the_platform_host_only() {
    let app = TestApp::spawn_with(|c| c.metrics_token = Some("s3cret-metrics-token".into())).await;
    let get = |host: &'static str| {
        let app = &app;
        async move {
            app.client
                .get(app.url("/metrics"))
                .header("host", host)
                .bearer_auth("s3cret-metrics-token")
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    // PUBLIC_URL is http://localhost:8080 and PLATFORM_DOMAIN localhost in the tests.
    for host in [
        "localhost:8080",
        "localhost",
        "127.0.0.1:8080",
        "[::1]:8080",
        "10.0.0.5",
    ] {
        assert_eq!(get(host).await, 200, "{host}");
    }
    for host in ["acme.localhost:8080", "acme.localhost", "evil.example.com"] {
        assert_eq!(get(host).await, 404, "{host}");
    }
}

fn run_ensure_env_file(root: &std::path::Path) {
    let out = Command::new("bash")
        .arg("-c")
        .arg("source scripts/lib.sh && ensure_env_file")
        .current_dir(root)
        .output()
        .expect("bash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn metrics_token(root: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(root.join(".env"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("METRICS_TOKEN="))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_run_command_writes_a_generated_metrics_token() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = testkit::scratch_dir("run-env");
    std::fs::create_dir_all(root.join("scripts")).unwrap();
    std::fs::copy(repo.join("scripts/lib.sh"), root.join("scripts/lib.sh")).unwrap();
    std::fs::copy(repo.join(".env.example"), root.join(".env.example")).unwrap();

    // A fresh .env.
    run_ensure_env_file(&root);
    let first = metrics_token(&root);
    assert_eq!(first.len(), 1, "one METRICS_TOKEN line");
    assert!(
        first[0].len() == 64 && first[0].bytes().all(|b| b.is_ascii_hexdigit()),
        "{first:?}"
    );
    // Run again: kept.
    run_ensure_env_file(&root);
    assert_eq!(metrics_token(&root), first);

    // An .env written before there was a token (commented out, or absent): one is added.
    for older in [
        "JWT_SECRET=x\n# METRICS_TOKEN=\n",
        "JWT_SECRET=x\n",
        "JWT_SECRET=x\nMETRICS_TOKEN=\n",
    ] {
        std::fs::write(root.join(".env"), older).unwrap();
        run_ensure_env_file(&root);
        let t = metrics_token(&root);
        assert_eq!(t.len(), 1, "{older:?}");
        assert_eq!(t[0].len(), 64, "{older:?}");
        assert_ne!(t, first, "a fresh token");
        assert!(
            std::fs::read_to_string(root.join(".env"))
                .unwrap()
                .starts_with("JWT_SECRET=x\n")
        );
    }
}
