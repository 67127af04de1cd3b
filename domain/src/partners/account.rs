//! My Account's own settings that live beside the partner row: Contact details (phone, e-mail,
//! address; what the partner's site and portal show as its contact) and the Profile (the
//! partner's own name, sign-in e-mail and phone).

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

use super::{EMAIL_TAKEN, Identity};
use crate::{
    Error, Result,
    error::Violations,
    infra::audit::{self, Actor},
    infra::text::is_plain_text,
    mail::{Mail, SendMail},
};

/// Contact details: phoneNumber, email, address (spec part 2, §2.7), all required.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ContactDetails {
    pub phone_number: String,
    pub email: String,
    pub address: String,
}

impl ContactDetails {
    /// Trimmed, every field required: a phone of 7 to 15 digits (an optional leading +), an
    /// e-mail the mailer accepts, an address of at most 500 characters.
    pub fn parse(phone_number: &str, email: &str, address: &str) -> Result<Self> {
        let (phone_number, email, address) = (phone_number.trim(), email.trim(), address.trim());
        let mut v = Violations::new();
        let digits = phone_number.strip_prefix('+').unwrap_or(phone_number);
        if phone_number.is_empty() {
            v.add("phone_number", "Phone number is required");
        } else if !(7..=15).contains(&digits.len()) || !digits.bytes().all(|b| b.is_ascii_digit()) {
            v.add("phone_number", "Phone number must be 7 to 15 digits");
        }
        if email.is_empty() {
            v.add("email", "Email is required");
        } else if let Err(Error::Invalid { message, .. }) =
            crate::infra::email_address::check("email", email)
        {
            v.add("email", message);
        }
        if address.is_empty() {
            v.add("address", "Address is required");
        } else {
            v.check(
                address.chars().count() <= 500,
                "address",
                "Address must be at most 500 characters",
            );
            v.check(
                is_plain_text(address),
                "address",
                "Address contains invalid characters",
            );
        }
        v.into_result()?;
        Ok(Self {
            phone_number: phone_number.to_owned(),
            email: email.to_lowercase(),
            address: address.to_owned(),
        })
    }
}

/// The partner's contact details; `NotFound` until it saves them (the screen shows an empty form).
pub async fn contact_details(conn: &mut PgConnection, partner_id: i64) -> Result<ContactDetails> {
    sqlx::query_as(
        "SELECT phone_number, email, address FROM partner_contact_details WHERE partner_id = $1",
    )
    .bind(partner_id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

/// Saves them whole, with an audit row of the change.
pub async fn save_contact_details(
    conn: &mut PgConnection,
    partner_id: i64,
    c: &ContactDetails,
    actor: Actor,
) -> Result<ContactDetails> {
    let before = contact_details(conn, partner_id).await.ok();
    sqlx::query(
        "INSERT INTO partner_contact_details (partner_id, phone_number, email, address) VALUES ($1, $2, $3, $4)
         ON CONFLICT (partner_id) DO UPDATE SET phone_number = EXCLUDED.phone_number, email = EXCLUDED.email,
                                                address = EXCLUDED.address, updated_at = now()",
    )
    .bind(partner_id)
    .bind(&c.phone_number)
    .bind(&c.email)
    .bind(&c.address)
    .execute(&mut *conn)
    .await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "update",
            entity: "contact_details",
            entity_id: partner_id.to_string(),
            partner_id: Some(partner_id),
            before: before.map(|b| serde_json::json!(b)),
            after: Some(serde_json::json!(c)),
        },
    )
    .await?;
    Ok(c.clone())
}

/// My Account, Profile: the partner's own name, e-mail (its sign-in) and phone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Profile {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone_number: String,
    /// Shown, not changed here: it names the account in mails and its reset form.
    pub user_name: String,
}

pub async fn profile(conn: &mut PgConnection, partner_id: i64) -> Result<Profile> {
    sqlx::query_as(
        "SELECT first_name, last_name, email::text AS email, phone_number, user_name::text AS user_name
           FROM partners WHERE id = $1",
    )
    .bind(partner_id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

/// Saves the profile whole. The e-mail signs the partner in, so it stays unique among
/// partners: another partner's address is a conflict on `email` (checked first for the
/// message, and by the unique index for two saves at once). Audited with what it replaced; a
/// new address also queues a notice to the old one, in the caller's transaction.
pub async fn save_profile(
    conn: &mut PgConnection,
    partner_id: i64,
    p: &Identity,
    actor: Actor,
) -> Result<Profile> {
    let before = profile(conn, partner_id).await?;
    let taken: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM partners WHERE email = $1 AND id <> $2)")
            .bind(&p.email)
            .bind(partner_id)
            .fetch_one(&mut *conn)
            .await?;
    if taken {
        return Err(Error::conflict_on("email", EMAIL_TAKEN));
    }
    let after: Profile = sqlx::query_as(
        "UPDATE partners SET first_name = $2, last_name = $3, email = $4, phone_number = $5, updated_at = now()
          WHERE id = $1
          RETURNING first_name, last_name, email::text AS email, phone_number, user_name::text AS user_name",
    )
    .bind(partner_id)
    .bind(&p.first_name)
    .bind(&p.last_name)
    .bind(&p.email)
    .bind(&p.phone_number)
    .fetch_one(&mut *conn)
    .await
    .map_err(|e| match &e {
        sqlx::Error::Database(d) if d.constraint() == Some("partners_email_key") => {
            Error::conflict_on("email", EMAIL_TAKEN)
        }
        _ => Error::Db(e),
    })?;
    if before.email != after.email {
        let notice = SendMail::of(Mail::PartnerEmailChanged {
            partner_id,
            old_email: before.email.clone(),
        });
        crate::infra::queue::push(conn, &notice, None).await?;
    }
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "partner.profile_update",
            entity: "partner",
            entity_id: partner_id.to_string(),
            partner_id: Some(partner_id),
            before: Some(serde_json::json!(before)),
            after: Some(serde_json::json!(after)),
        },
    )
    .await?;
    Ok(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contact_rules() {
        assert!(
            ContactDetails::parse(" 9876543210 ", "Ops@Acme.in", "1 MG Road")
                .is_ok_and(|c| c.email == "ops@acme.in" && c.phone_number == "9876543210")
        );
        let Err(Error::Invalid { fields, .. }) = ContactDetails::parse("", "", "") else {
            panic!()
        };
        assert_eq!(fields.len(), 3);
        let Err(Error::Invalid { fields, .. }) =
            ContactDetails::parse("98x", "not-mail", "a\u{0}b")
        else {
            panic!()
        };
        assert_eq!(
            fields.keys().collect::<Vec<_>>(),
            ["address", "email", "phone_number"]
        );
    }
}
