//! The shared library of the platform: configuration, the Postgres pool, and per feature the
//! models and SQL (money, pricing, the wallet ledger, storage, mail, secrets).

pub mod account;
pub mod api_keys;
pub mod audit;
pub mod branding;
pub mod captcha;
pub mod catalogue;
pub mod clients;
pub mod config;
pub mod contact;
pub mod crypto;
pub mod db;
pub mod email_address;
pub mod error;
pub mod exports;
pub mod gateway;
pub mod ip_access;
pub mod ip_hits;
pub mod job_owners;
pub mod logs;
pub mod mail;
pub mod money;
pub mod onboarding;
pub mod paging;
pub mod partner_smtp;
pub mod partners;
pub mod plan_cards;
pub mod plans;
pub mod public_addr;
pub mod pricing;
pub mod queue;
pub mod seed;
pub mod sessions;
pub mod settings;
pub mod sign_in_attempts;
pub mod storage;
pub mod subdomains;
pub mod superadmins;
pub mod tenancy;
pub mod tokens;
pub mod transactions;
pub mod users;
pub mod visibility;
pub mod wallets;

pub use error::{Error, Result};
pub use sqlx::{PgConnection, PgPool};
