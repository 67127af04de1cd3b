//! The shared library of the platform: configuration, the Postgres pool, and per feature the
//! models and SQL (money, pricing, the wallet ledger, storage, mail, secrets).

pub mod auth;
pub mod catalogue;
pub mod error;
pub mod exports;
pub mod gateway;
pub mod infra;
pub mod mail;
pub mod money;
pub mod partners;
pub mod portal;
pub mod seed;
pub mod trubank;
pub mod wallets;
pub mod webhooks;

pub use error::{Error, Result};
pub use sqlx::{PgConnection, PgPool};
