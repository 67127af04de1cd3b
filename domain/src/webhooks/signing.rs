//! Standard Webhooks signatures: `v1,` + base64 of HMAC-SHA256 over `{id}.{timestamp}.{body}`,
//! keyed with the base64-decoded part of a `whsec_` secret (svix's `cryptography.rs`).

use base64::{Engine, engine::general_purpose::STANDARD};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

pub const SECRET_PREFIX: &str = "whsec_";

/// A fresh secret: `whsec_` and 24 random bytes in base64 (as svix makes them).
pub fn new_secret() -> String {
    let mut key = [0u8; 24];
    rand::rng().fill_bytes(&mut key);
    format!("{SECRET_PREFIX}{}", STANDARD.encode(key))
}

/// The HMAC key of a `whsec_` secret.
pub fn key_of(secret: &str) -> anyhow::Result<Vec<u8>> {
    let b64 = secret.strip_prefix(SECRET_PREFIX).unwrap_or(secret);
    Ok(STANDARD.decode(b64)?)
}

/// One signature, `v1,<base64>`.
pub fn sign(secret: &str, msg_id: &str, timestamp: i64, body: &[u8]) -> anyhow::Result<String> {
    let mut mac =
        <Hmac<Sha256> as Mac>::new_from_slice(&key_of(secret)?).expect("HMAC takes any key length");
    mac.update(format!("{msg_id}.{timestamp}.").as_bytes());
    mac.update(body);
    Ok(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

/// The `webhook-signature` header: one signature per valid secret, space separated (the
/// current secret first; a rolled one while it is still valid).
pub fn header(
    secrets: &[String],
    msg_id: &str,
    timestamp: i64,
    body: &[u8],
) -> anyhow::Result<String> {
    let sigs: anyhow::Result<Vec<String>> = secrets
        .iter()
        .map(|s| sign(s, msg_id, timestamp, body))
        .collect();
    Ok(sigs?.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Standard Webhooks specification's own example (its README and every library's
    /// test suite): this secret, id, timestamp and body give this signature.
    #[test]
    fn the_specifications_example_signs_alike() {
        let sig = sign(
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            br#"{"test": 2432232314}"#,
        )
        .unwrap();
        assert_eq!(sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn secrets_are_fresh_and_decode() {
        let (a, b) = (new_secret(), new_secret());
        assert_ne!(a, b);
        assert!(a.starts_with("whsec_"));
        assert_eq!(key_of(&a).unwrap().len(), 24);
        let h = header(&[a, b], "evt_1", 1, b"{}").unwrap();
        assert_eq!(h.split(' ').count(), 2);
        assert!(h.split(' ').all(|s| s.starts_with("v1,")));
    }
}
