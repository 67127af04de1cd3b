//! Super admins: created by the seed or `api create-superadmin`.

use sqlx::PgPool;

use crate::infra::crypto;

/// Creates the super admin, or resets the password of an existing one when it differs.
/// Running it twice with the same values changes nothing.
pub async fn upsert(pool: &PgPool, email: &str, password: &str) -> anyhow::Result<i64> {
    let email = email.trim().to_lowercase();
    anyhow::ensure!(
        crate::infra::email_address::is_valid(&email),
        "SUPERADMIN_EMAIL {email:?} is not an e-mail address"
    );
    anyhow::ensure!(
        password.len() >= 8,
        "SUPERADMIN_PASSWORD must be at least 8 characters"
    );
    let existing: Option<(i64, String)> =
        sqlx::query_as("SELECT id, password_hash FROM super_admins WHERE email = $1")
            .bind(&email)
            .fetch_optional(pool)
            .await?;
    match existing {
        Some((id, hash)) if crypto::verify_password(password, &hash) => Ok(id),
        Some((id, _)) => {
            sqlx::query("UPDATE super_admins SET password_hash = $2 WHERE id = $1")
                .bind(id)
                .bind(crypto::hash_password(password)?)
                .execute(pool)
                .await?;
            Ok(id)
        }
        None => Ok(sqlx::query_scalar(
            "INSERT INTO super_admins (email, password_hash) VALUES ($1, $2) RETURNING id",
        )
        .bind(&email)
        .bind(crypto::hash_password(password)?)
        .fetch_one(pool)
        .await?),
    }
}

pub async fn email_of(pool: &PgPool, id: i64) -> crate::Result<Option<String>> {
    Ok(
        sqlx::query_scalar("SELECT email::text FROM super_admins WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?,
    )
}
