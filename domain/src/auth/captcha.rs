//! Sign-in and sign-up captchas: the built-in image captcha (default), Google reCAPTCHA when
//! configured, or none (`CAPTCHA=off`, tests only).
//!
//! Built-in: the answer is drawn as jittered, rotated strokes in an SVG (no text nodes, so the
//! answer is not in the markup) over noise curves, with glyphs emitted in random order. Only an
//! HMAC of the answer is stored, with an expiry; a check deletes the challenge in the same
//! statement that reads it, so each captcha is good for exactly one attempt, right or wrong.

use std::{fmt::Write as _, sync::OnceLock, time::Duration};

use base64::{Engine, engine::general_purpose::STANDARD};
use rand::{Rng, seq::SliceRandom};
use serde::Serialize;
use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    Error, Result,
    infra::config::{CaptchaConfig, Config},
    infra::crypto,
};

pub const TTL: Duration = Duration::from_secs(10 * 60);
pub const LENGTH: usize = 5;
pub const REQUIRED: &str = "Please enter the captcha";
pub const WRONG: &str = "Invalid captcha, please try again";

/// No 0/O/Q/D, 1/I/L, 2/Z, 5/S, 6/G, 8/B: nothing a person could misread.
const ALPHABET: &[u8] = b"ACEFHJKMNPRTUVWXY3479";

/// A stroke font on a 4 x 6 grid (y down): each glyph is a few polylines.
fn glyph(c: u8) -> &'static [&'static [(f32, f32)]] {
    match c {
        b'A' => &[&[(0., 6.), (2., 0.), (4., 6.)], &[(1., 3.5), (3., 3.5)]],
        b'C' => &[&[
            (4., 1.),
            (3., 0.),
            (1., 0.),
            (0., 1.),
            (0., 5.),
            (1., 6.),
            (3., 6.),
            (4., 5.),
        ]],
        b'E' => &[
            &[(4., 0.), (0., 0.), (0., 6.), (4., 6.)],
            &[(0., 3.), (3., 3.)],
        ],
        b'F' => &[&[(4., 0.), (0., 0.), (0., 6.)], &[(0., 3.), (3., 3.)]],
        b'H' => &[
            &[(0., 0.), (0., 6.)],
            &[(4., 0.), (4., 6.)],
            &[(0., 3.), (4., 3.)],
        ],
        b'J' => &[
            &[(1., 0.), (4., 0.)],
            &[(3., 0.), (3., 5.), (2., 6.), (1., 6.), (0., 5.)],
        ],
        b'K' => &[
            &[(0., 0.), (0., 6.)],
            &[(4., 0.), (0., 3.5)],
            &[(1.2, 2.8), (4., 6.)],
        ],
        b'M' => &[&[(0., 6.), (0., 0.), (2., 3.), (4., 0.), (4., 6.)]],
        b'N' => &[&[(0., 6.), (0., 0.), (4., 6.), (4., 0.)]],
        b'P' => &[&[
            (0., 6.),
            (0., 0.),
            (3., 0.),
            (4., 1.),
            (4., 2.),
            (3., 3.),
            (0., 3.),
        ]],
        b'R' => &[
            &[
                (0., 6.),
                (0., 0.),
                (3., 0.),
                (4., 1.),
                (4., 2.),
                (3., 3.),
                (0., 3.),
            ],
            &[(2., 3.), (4., 6.)],
        ],
        b'T' => &[&[(0., 0.), (4., 0.)], &[(2., 0.), (2., 6.)]],
        b'U' => &[&[(0., 0.), (0., 5.), (1., 6.), (3., 6.), (4., 5.), (4., 0.)]],
        b'V' => &[&[(0., 0.), (2., 6.), (4., 0.)]],
        b'W' => &[&[(0., 0.), (1., 6.), (2., 2.), (3., 6.), (4., 0.)]],
        b'X' => &[&[(0., 0.), (4., 6.)], &[(4., 0.), (0., 6.)]],
        b'Y' => &[&[(0., 0.), (2., 3.), (4., 0.)], &[(2., 3.), (2., 6.)]],
        b'3' => &[
            &[
                (0., 1.),
                (1., 0.),
                (3., 0.),
                (4., 1.),
                (4., 2.),
                (3., 3.),
                (1.5, 3.),
            ],
            &[(3., 3.), (4., 4.), (4., 5.), (3., 6.), (1., 6.), (0., 5.)],
        ],
        b'4' => &[&[(3., 6.), (3., 0.), (0., 4.), (4., 4.)]],
        b'7' => &[&[(0., 0.), (4., 0.), (1.5, 6.)]],
        b'9' => &[&[
            (4., 3.),
            (1., 3.),
            (0., 2.),
            (0., 1.),
            (1., 0.),
            (3., 0.),
            (4., 1.),
            (4., 5.),
            (3., 6.),
            (1., 6.),
        ]],
        _ => &[],
    }
}

const W: f32 = 170.0;
const H: f32 = 56.0;

fn colour(rng: &mut impl Rng) -> String {
    // Dark, saturated enough to read on the light background.
    format!(
        "hsl({},{}%,{}%)",
        rng.random_range(0..360),
        rng.random_range(45..80),
        rng.random_range(22..40)
    )
}

/// Draws `answer` as an SVG document.
pub fn render_svg(answer: &str) -> String {
    let mut rng = rand::rng();
    let mut parts: Vec<String> = Vec::new();
    // Noise curves in the same colours and widths as the glyph strokes.
    for _ in 0..5 {
        let (x0, y0, x1, y1) = (
            rng.random_range(0.0..20.0),
            rng.random_range(5.0..H - 5.0),
            rng.random_range(W - 20.0..W),
            rng.random_range(5.0..H - 5.0),
        );
        let (c1x, c1y, c2x, c2y) = (
            rng.random_range(30.0..80.0),
            rng.random_range(-20.0..H + 20.0),
            rng.random_range(90.0..140.0),
            rng.random_range(-20.0..H + 20.0),
        );
        parts.push(format!(
            r#"<path d="M{x0:.1} {y0:.1}C{c1x:.1} {c1y:.1} {c2x:.1} {c2y:.1} {x1:.1} {y1:.1}" stroke="{}" stroke-width="{:.1}" fill="none"/>"#,
            colour(&mut rng),
            rng.random_range(1.0..2.4)
        ));
    }
    let step = (W - 24.0) / answer.len().max(1) as f32;
    for (i, c) in answer.bytes().enumerate() {
        let (sx, sy) = (rng.random_range(4.4..5.6), rng.random_range(5.2..6.4));
        let angle = rng.random_range(-0.45f32..0.45);
        let skew = rng.random_range(-0.25f32..0.25);
        let (cx, cy) = (
            14.0 + step * (i as f32 + 0.5) + rng.random_range(-3.0..3.0),
            H / 2.0 + rng.random_range(-4.0..4.0),
        );
        let (sin, cos) = angle.sin_cos();
        let mut d = String::new();
        for line in glyph(c) {
            for (k, (gx, gy)) in line.iter().enumerate() {
                // Centre the glyph, scale, skew, rotate, move, then jitter every point.
                let (x, y) = ((gx - 2.0) * sx, (gy - 3.0) * sy);
                let x = x + skew * y;
                let (x, y) = (
                    x * cos - y * sin + cx + rng.random_range(-0.7..0.7),
                    x * sin + y * cos + cy + rng.random_range(-0.7..0.7),
                );
                let _ = write!(d, "{}{x:.1} {y:.1}", if k == 0 { "M" } else { "L" });
            }
        }
        parts.push(format!(
            r#"<path d="{d}" stroke="{}" stroke-width="{:.1}" fill="none" stroke-linecap="round" stroke-linejoin="round"/>"#,
            colour(&mut rng),
            rng.random_range(2.2..3.0)
        ));
    }
    for _ in 0..40 {
        parts.push(format!(
            r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{}"/>"#,
            rng.random_range(0.0..W),
            rng.random_range(0.0..H),
            rng.random_range(0.5..1.6),
            colour(&mut rng)
        ));
    }
    // Document order says nothing about reading order.
    parts.shuffle(&mut rng);
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}"><rect width="100%" height="100%" fill="#f3f5f9"/>{}</svg>"##,
        parts.concat()
    )
}

fn random_answer() -> String {
    let mut rng = rand::rng();
    (0..LENGTH)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Answers compare upper-cased without spaces: the check is case-insensitive.
fn normalize(answer: &str) -> String {
    answer
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase()
}

fn answer_mac(config: &Config, id: Uuid, answer: &str) -> Vec<u8> {
    hex::decode(crypto::hmac_hex(
        config.jwt_secret.as_bytes(),
        format!("captcha:{id}:{}", normalize(answer)).as_bytes(),
    ))
    .expect("hmac_hex is hex")
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Challenge {
    pub id: Uuid,
    /// `data:image/svg+xml;base64,…`
    pub image: String,
}

/// A new built-in challenge. Expired ones are swept on the way (the table is unlogged and small).
pub async fn issue(pool: &PgPool, config: &Config) -> Result<Challenge> {
    let answer = random_answer();
    let id = store(pool, config, &answer).await?;
    Ok(Challenge {
        id,
        image: format!(
            "data:image/svg+xml;base64,{}",
            STANDARD.encode(render_svg(&answer))
        ),
    })
}

/// Stores a challenge with a known answer (`issue` uses a random one; tests a fixed one).
pub async fn store(pool: &PgPool, config: &Config, answer: &str) -> Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query("DELETE FROM captchas WHERE expires_at < now()")
        .execute(pool)
        .await?;
    sqlx::query("INSERT INTO captchas (id, answer_hash, expires_at) VALUES ($1, $2, now() + $3 * interval '1 second')")
        .bind(id)
        .bind(answer_mac(config, id, answer))
        .bind(TTL.as_secs_f64())
        .execute(pool)
        .await?;
    Ok(id)
}

/// Checks the `captcha` field of a sign-in or sign-up under the configured mode. Every check of
/// a built-in challenge uses it up. Fails with a field error on `captcha`.
pub async fn verify(pool: &PgPool, config: &Config, value: &serde_json::Value) -> Result<()> {
    match &config.captcha {
        CaptchaConfig::Off => Ok(()),
        CaptchaConfig::Builtin => {
            let id = value
                .get("id")
                .and_then(|v| v.as_str())
                .and_then(|s| Uuid::parse_str(s.trim()).ok());
            let answer = value.get("answer").and_then(|v| v.as_str()).unwrap_or("");
            let Some(id) = id else {
                return Err(Error::invalid("captcha", REQUIRED));
            };
            let stored: Option<(Vec<u8>, bool)> = sqlx::query_as(
                "DELETE FROM captchas WHERE id = $1 RETURNING answer_hash, expires_at > now()",
            )
            .bind(id)
            .fetch_optional(pool)
            .await?;
            if normalize(answer).is_empty() {
                return Err(Error::invalid("captcha", REQUIRED));
            }
            match stored {
                Some((mac, true)) if mac == answer_mac(config, id, answer) => Ok(()),
                _ => Err(Error::invalid("captcha", WRONG)),
            }
        }
        CaptchaConfig::Recaptcha { secret } => {
            let token = value.as_str().map(str::trim).unwrap_or("");
            if token.is_empty() {
                return Err(Error::invalid("captcha", REQUIRED));
            }
            if recaptcha_ok(secret, token).await? {
                Ok(())
            } else {
                Err(Error::invalid("captcha", WRONG))
            }
        }
    }
}

const SITEVERIFY: &str = "https://www.google.com/recaptcha/api/siteverify";

async fn recaptcha_ok(secret: &str, token: &str) -> Result<bool> {
    static CLIENT: OnceLock<reqwest::Client> = OnceLock::new();
    let client = CLIENT.get_or_init(|| {
        reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .unwrap_or_default()
    });
    let body = format!(
        "secret={}&response={}",
        form_encode(secret),
        form_encode(token)
    );
    let res = client
        .post(SITEVERIFY)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .map_err(|e| Error::Other(anyhow::anyhow!("reCAPTCHA siteverify: {e}")))?;
    let json: serde_json::Value = res
        .json()
        .await
        .map_err(|e| Error::Other(anyhow::anyhow!("reCAPTCHA siteverify answer: {e}")))?;
    Ok(json
        .get("success")
        .and_then(|v| v.as_bool())
        .unwrap_or(false))
}

fn form_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_letter_has_strokes_and_the_svg_hides_the_text() {
        for &c in ALPHABET {
            assert!(!glyph(c).is_empty(), "{}", c as char);
        }
        let svg = render_svg("ACE79");
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(!svg.contains("<text") && !svg.contains("ACE79"));
        assert_ne!(render_svg("ACE79"), svg, "random every time");
    }

    #[test]
    fn answers_compare_loosely() {
        assert_eq!(normalize(" ac e7 9"), "ACE79");
        assert_eq!(form_encode("a b&c=d"), "a%20b%26c%3Dd");
    }
}
