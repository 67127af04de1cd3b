//! The bodies of a sign-in and of a password change, the same for every kind of account: the
//! partners' and super admins' routes (`routes::auth`) and the end users' (`routes::portal`)
//! take these, and `domain::auth` does the rest.

use serde::Deserialize;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct LoginRequest {
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub password: String,
    /// `{id, answer}` (built-in) or a reCAPTCHA token; ignored with `CAPTCHA=off`.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub captcha: serde_json::Value,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ChangePasswordRequest {
    #[serde(default)]
    pub current_password: String,
    #[serde(default)]
    pub new_password: String,
    /// Checked when given.
    #[serde(default)]
    pub confirm_new_password: Option<String>,
}
