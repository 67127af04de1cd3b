//! The api's integration tests, in one binary (one link instead of one per file). Each test
//! spawns a `TestApp` on a fresh database.

mod common;
mod foundation;
mod mail;
mod seed;
mod storage;
mod uploads;
mod catalogue;
mod fixtures;
mod plans;
mod prices;
mod wallets;
mod users;
mod auth;
mod auth_fixtures;
mod client_ip;
mod jobs;
mod sessions;
mod sign_in_attempts;
mod onboarding;
mod logs;
mod queue;
mod partner_smtp;
mod email_addresses;
mod upload_content;
mod security_headers;
mod api_keys; mod visibility; mod settings; mod ip_access; mod ip_hits;
mod gateway;
mod gateway_support;
mod gateway_crash;
mod gateway_hits;
