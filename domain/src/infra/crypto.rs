//! Password hashing (argon2id), secrets at rest (AES-256-GCM), random tokens and HMAC links.

use aes_gcm::{Aes256Gcm, KeyInit, Nonce, aead::Aead};
use argon2::{
    Argon2, PasswordHash, PasswordHasher, PasswordVerifier,
    password_hash::{SaltString, rand_core::OsRng},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::{Digest, Sha256};
use std::sync::{
    LazyLock,
    atomic::{AtomicBool, Ordering},
};
use tokio::sync::Semaphore;

/// Argon2 takes tens of milliseconds of CPU by design. Run on the async threads, a burst of
/// sign-ins stalls every other request on them (the outside test saw `/healthz` take 1.8 s and
/// connections reset). So the api hashes and verifies through `hash_password_pooled` and
/// `verify_password_pooled`: on tokio's blocking threads, at most one per core but one at a
/// time, so a burst queues (asynchronously) and one core stays free for every other request
/// (with a hasher per core, the async threads fought them for CPU: `/healthz` p99 257 ms).
static HASHING: LazyLock<Semaphore> = LazyLock::new(|| {
    Semaphore::new(
        std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1)),
    )
});

/// Bench only (`cargo run -p bench -- signin`): the old way, on the calling async thread, to
/// measure the reference in the same run.
static ON_ASYNC_THREADS: AtomicBool = AtomicBool::new(false);

/// See `ON_ASYNC_THREADS`. Nothing but the benchmark calls this.
pub fn hash_on_async_threads_for_bench(on: bool) {
    ON_ASYNC_THREADS.store(on, Ordering::Relaxed);
}

async fn off_the_async_threads<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    if ON_ASYNC_THREADS.load(Ordering::Relaxed) {
        return Some(work());
    }
    let _permit = HASHING.acquire().await.ok()?;
    tokio::task::spawn_blocking(work).await.ok()
}

/// `hash_password` on the bounded blocking pool. Never call it inside an open transaction: the
/// wait for a permit would hold the connection and its locks.
pub async fn hash_password_pooled(password: &str) -> anyhow::Result<String> {
    let password = password.to_owned();
    off_the_async_threads(move || hash_password(&password))
        .await
        .unwrap_or_else(|| Err(anyhow::anyhow!("hashing a password: the task failed")))
}

/// `verify_password` on the bounded blocking pool (see `hash_password_pooled`).
pub async fn verify_password_pooled(password: &str, hash: &str) -> bool {
    let (password, hash) = (password.to_owned(), hash.to_owned());
    off_the_async_threads(move || verify_password(&password, &hash))
        .await
        .unwrap_or(false)
}

/// Blocking; in async code use `hash_password_pooled`.
pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))
}

/// False for a wrong password and for a malformed stored hash alike. Blocking; in async code
/// use `verify_password_pooled`.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A URL-safe random token of `bytes` random bytes.
pub fn random_token(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    URL_SAFE_NO_PAD.encode(buf)
}

pub fn sha256(data: &[u8]) -> Vec<u8> {
    Sha256::digest(data).to_vec()
}

pub fn sha256_hex(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

pub fn hmac_hex(key: &[u8], data: &[u8]) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(data);
    hex::encode(mac.finalize().into_bytes())
}

/// Compares an HMAC in constant time.
pub fn hmac_verify(key: &[u8], data: &[u8], signature_hex: &str) -> bool {
    let Ok(sig) = hex::decode(signature_hex) else {
        return false;
    };
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(data);
    mac.verify_slice(&sig).is_ok()
}

/// Seals secrets (SMTP passwords, payment keys) with AES-256-GCM: nonce || ciphertext.
#[derive(Clone)]
pub struct SecretBox {
    cipher: Aes256Gcm,
}

impl SecretBox {
    pub fn new(key: &[u8; 32]) -> Self {
        Self {
            cipher: Aes256Gcm::new(key.into()),
        }
    }

    pub fn seal(&self, plaintext: &str) -> Vec<u8> {
        self.seal_bytes(plaintext.as_bytes())
    }

    /// [`SecretBox::seal`] for data that need not be text (an upstream's answer).
    pub fn seal_bytes(&self, plaintext: &[u8]) -> Vec<u8> {
        let mut nonce = [0u8; 12];
        rand::rng().fill_bytes(&mut nonce);
        let mut out = nonce.to_vec();
        out.extend(
            self.cipher
                .encrypt(Nonce::from_slice(&nonce), plaintext)
                .expect("AES-GCM encryption does not fail for in-memory data"),
        );
        out
    }

    pub fn open(&self, sealed: &[u8]) -> anyhow::Result<String> {
        Ok(String::from_utf8(self.open_bytes(sealed)?)?)
    }

    pub fn open_bytes(&self, sealed: &[u8]) -> anyhow::Result<Vec<u8>> {
        // The nonce and the 16-byte tag: an empty plaintext seals to 28 bytes.
        anyhow::ensure!(sealed.len() >= 12 + 16, "sealed secret too short");
        let (nonce, ciphertext) = sealed.split_at(12);
        self.cipher
            .decrypt(Nonce::from_slice(nonce), ciphertext)
            .map_err(|_| anyhow::anyhow!("secret does not open with this ENCRYPTION_KEY"))
    }
}

/// Shows the last 4 characters only.
pub fn mask(secret: &str) -> String {
    let n = secret.chars().count();
    let tail: String = secret.chars().skip(n.saturating_sub(4)).collect();
    format!("{}{}", "*".repeat(n.saturating_sub(4).min(8)), tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "current_thread")]
    async fn hashing_runs_off_the_async_thread_at_most_one_per_core() {
        use std::sync::{Arc, atomic::AtomicUsize};
        let caller = std::thread::current().id();
        let (running, peak) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let tasks: Vec<_> = (0..12)
            .map(|_| {
                let (running, peak) = (running.clone(), peak.clone());
                tokio::spawn(off_the_async_threads(move || {
                    peak.fetch_max(running.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    running.fetch_sub(1, Ordering::SeqCst);
                    std::thread::current().id()
                }))
            })
            .collect();
        // While they run, this (only) async thread is free: a timer fires on time.
        let t = std::time::Instant::now();
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        assert!(
            t.elapsed() < std::time::Duration::from_millis(150),
            "the async thread was blocked for {:?}",
            t.elapsed()
        );
        for task in tasks {
            assert_ne!(
                task.await.unwrap().unwrap(),
                caller,
                "argon2 ran on the async thread"
            );
        }
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let peak = peak.load(Ordering::SeqCst);
        assert!(
            (1..=cores).contains(&peak),
            "{peak} hashes at once on {cores} cores"
        );
    }

    #[tokio::test]
    async fn pooled_hash_and_verify_agree_with_the_blocking_ones() {
        let h = hash_password_pooled("S3cret-pass").await.unwrap();
        assert!(verify_password("S3cret-pass", &h));
        assert!(verify_password_pooled("S3cret-pass", &h).await);
        assert!(!verify_password_pooled("wrong", &h).await);
        assert!(!verify_password_pooled("S3cret-pass", "not a hash").await);
    }

    #[test]
    fn password_round_trip() {
        let h = hash_password("S3cret-pass").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("S3cret-pass", &h));
        assert!(!verify_password("s3cret-pass", &h));
        assert!(!verify_password("x", "not a hash"));
    }

    #[test]
    fn secret_box_round_trip_and_tamper() {
        let b = SecretBox::new(&[7u8; 32]);
        let sealed = b.seal("smtp-password");
        assert_ne!(sealed, b.seal("smtp-password"), "nonces differ");
        assert_eq!(b.open(&sealed).unwrap(), "smtp-password");
        let mut bad = sealed.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(b.open(&bad).is_err());
        assert!(SecretBox::new(&[8u8; 32]).open(&sealed).is_err());
    }

    #[test]
    fn hmac_and_mask() {
        let sig = hmac_hex(b"k", b"data");
        assert!(hmac_verify(b"k", b"data", &sig));
        assert!(!hmac_verify(b"k", b"datA", &sig));
        assert!(!hmac_verify(b"k", b"data", "zz"));
        assert_eq!(mask("abcdefgh"), "****efgh");
        assert_eq!(mask("ab"), "ab");
    }
}
