//! Signing in and proving who one is, for every kind of account: captchas, the per-account
//! sign-in limit, one-time links (verification, reset) and the super admins.

pub mod accounts;
pub mod captcha;
pub mod passwords;
pub mod sign_in;
pub mod sign_in_attempts;
pub mod superadmins;
pub mod tokens;
