//! A real S3-compatible server on loopback: `s3s-fs` (the S3 API, SigV4 checks and presigned
//! URLs included, over a scratch folder) served with hyper. Storage tests talk to it through
//! aws-sdk-s3 and plain HTTP exactly as they would to S3; nothing is mocked.

use hyper_util::{
    rt::{TokioExecutor, TokioIo},
    server::conn::auto::Builder as ConnBuilder,
};
use s3s::{auth::SimpleAuth, service::S3ServiceBuilder};
use tokio::{net::TcpListener, sync::oneshot};

use domain::infra::config::S3Config;

pub struct S3Server {
    /// `http://127.0.0.1:{port}`
    pub endpoint: String,
    pub bucket: String,
    pub access_key: String,
    pub secret: String,
    pub root: std::path::PathBuf,
    _stop: oneshot::Sender<()>,
}

impl S3Server {
    /// Starts a server with one empty bucket and one pair of credentials; it stops when the
    /// value is dropped.
    pub async fn start() -> Self {
        let root = crate::scratch_dir("s3");
        let bucket = "kyc-test".to_owned();
        // s3s-fs keeps a bucket as a folder under its root.
        std::fs::create_dir_all(root.join(&bucket)).expect("creating the bucket folder");
        let access_key = format!("AK{}", uuid::Uuid::new_v4().simple());
        let secret = format!("SK{}", uuid::Uuid::new_v4().simple());

        let fs = s3s_fs::FileSystem::new(&root).expect("s3s-fs over the scratch folder");
        let service = {
            let mut b = S3ServiceBuilder::new(fs);
            b.set_auth(SimpleAuth::from_single(access_key.clone(), secret.clone()));
            b.build()
        };
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("binding the S3 port");
        let endpoint = format!("http://{}", listener.local_addr().unwrap());
        let (stop, mut stopped) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let http = ConnBuilder::new(TokioExecutor::new());
            loop {
                let sock = tokio::select! {
                    r = listener.accept() => match r { Ok((s, _)) => s, Err(_) => continue },
                    _ = &mut stopped => break,
                };
                let conn = http
                    .serve_connection(TokioIo::new(sock), service.clone())
                    .into_owned();
                tokio::spawn(async move {
                    let _ = conn.await;
                });
            }
        });
        Self {
            endpoint,
            bucket,
            access_key,
            secret,
            root,
            _stop: stop,
        }
    }

    /// The platform's S3 settings for this server.
    pub fn config(&self) -> S3Config {
        S3Config {
            bucket: self.bucket.clone(),
            region: "us-east-1".into(),
            endpoint: Some(self.endpoint.clone()),
            access_key_id: self.access_key.clone(),
            secret_access_key: self.secret.clone(),
        }
    }
}
