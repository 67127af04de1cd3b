//! Planner statistics for the tables that changed, where nothing else keeps them (issue 21).
//!
//! A plan is made once and kept: by PL/pgSQL for `charge_group`'s statements, by Postgres for
//! every foreign-key check (per connection), by sqlx for every prepared statement. It is made
//! again when its tables' statistics change, which is autovacuum's ANALYZE; with autovacuum off
//! (as on the CI machines, `/etc/postgresql/15/main/conf.d/90-ci.conf`) that never happens.
//! Then a plan made while a table was small stays for the connection's life, which for the
//! charging tasks is the api process's. Measured: the foreign-key check of every charged call
//! and every API log (`end_users (partner_id, id)`) was planned on a fresh platform as a scan of
//! `end_users_partner_created_idx` (the tie between two one-row estimates went that way), which
//! reads every end user of the partner: 0.01 ms per check at first, 3.5 to 7 ms per check once
//! the partner had 100,000 users, twice per call on the gateway's hot path.
//!
//! [`analyze_changed`] analyses each table changed by more rows than autovacuum's own analyse
//! threshold (`autovacuum_analyze_threshold` + `autovacuum_analyze_scale_factor` × rows), and
//! nothing else: where autovacuum runs, it has done so already and this finds nothing to do.
//! New statistics make every session plan its statements on the table again.

use sqlx::PgPool;

use crate::Result;

/// Analyses the tables of the current schema changed past the threshold since their last
/// analyse, most changed first; returns their names. The counts come from the statistics
/// system, which backends report at most once a second, so a change shows here a moment later.
pub async fn analyze_changed(pool: &PgPool) -> Result<Vec<String>> {
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT quote_ident(s.schemaname) || '.' || quote_ident(s.relname)
           FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
          WHERE s.schemaname = current_schema()
            AND s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::bigint
                + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0)
          ORDER BY s.n_mod_since_analyze DESC, 1",
    )
    .fetch_all(pool)
    .await?;
    for table in &tables {
        // Audited: the name comes from the catalogue through `quote_ident` above, and ANALYZE
        // takes no parameters.
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("ANALYZE {table}")))
            .execute(pool)
            .await?;
    }
    Ok(tables)
}
