//! The platform's infrastructure, beneath every feature: configuration, the Postgres pool and
//! the job queue's insert, secrets and password hashing, paging, object storage, the audit log,
//! addresses and e-mail addresses, the business day (IST), the sessions table, the worker
//! processes' heartbeats, and planner statistics where autovacuum does not keep them.

pub mod audit;
pub mod config;
pub mod crypto;
pub mod db;
pub mod email_address;
pub mod ist;
pub mod job_attempts;
pub mod job_owners;
pub mod metrics;
pub mod nodelay;
pub mod paging;
pub mod planner_stats;
pub mod public_addr;
pub mod queue;
pub mod sessions;
pub mod spreadsheet;
pub mod storage;
pub mod text;
pub mod upstream_addr;
pub mod worker_processes;
