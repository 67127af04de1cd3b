//! The api's integration tests, in one binary (one link instead of one per file). Each test
//! spawns a `TestApp` on a fresh database.

mod common;
mod foundation;
mod mail;
mod seed;
mod storage;
mod uploads;
