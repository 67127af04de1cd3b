//! Signing in and proving who one is, for every kind of account: captchas, the per-account
//! sign-in limit, one-time links (verification, reset) and the super admins.

pub mod captcha;
pub mod sign_in_attempts;
pub mod superadmins;
pub mod tokens;
