//! My Account's own settings that live beside the partner row: Contact details (phone, e-mail,
//! address; what the partner's site and portal show as its contact).

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

use crate::{
    Error, Result,
    error::Violations,
    infra::audit::{self, Actor},
    infra::text::is_plain_text,
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
