//! The landing page's contact form.

use sqlx::{Connection, PgConnection};

use crate::{
    Result,
    error::Violations,
    mail::{Email, Mail, SendMail},
};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactForm {
    pub name: String,
    pub email: String,
    pub mobile: String,
    pub message: String,
}

impl ContactForm {
    /// Rules of the spec: name, email (an e-mail) and phone required, phone at most 10
    /// characters, message optional.
    pub fn parse(name: &str, email: &str, mobile: &str, message: &str) -> Result<Self> {
        let (name, email, mobile, message) =
            (name.trim(), email.trim(), mobile.trim(), message.trim());
        let mut v = Violations::new();
        v.check(!name.is_empty(), "name", "Name is required");
        v.check(name.chars().count() <= 100, "name", "Name is too long");
        v.check(!email.is_empty(), "email", "Email is required");
        v.check(
            email.is_empty() || crate::infra::email_address::is_valid(email),
            "email",
            crate::infra::email_address::INVALID,
        );
        v.check(!mobile.is_empty(), "mobile", "Phone is required");
        v.check(
            mobile.chars().count() <= 10,
            "mobile",
            "Phone must be at most 10 characters",
        );
        v.check(
            mobile.chars().all(|c| c.is_ascii_digit()),
            "mobile",
            "Phone must contain digits only",
        );
        v.check(
            message.chars().count() <= 5000,
            "message",
            "Message is too long",
        );
        // Control characters (a NUL above all) would make the mail unbuildable on every retry.
        for (field, value) in [("name", name), ("email", email), ("mobile", mobile)] {
            v.check(
                crate::infra::text::is_single_line(value),
                field,
                "Please remove special characters",
            );
        }
        v.check(
            crate::infra::text::is_plain_text(&message.replace("\r\n", "\n")),
            "message",
            "Please remove special characters",
        );
        v.into_result()?;
        Ok(Self {
            name: name.into(),
            email: email.into(),
            mobile: mobile.into(),
            message: message.into(),
        })
    }

    /// Keeps the enquiry and queues its mail (by id) in one transaction; returns the job id.
    pub async fn submit(&self, conn: &mut PgConnection) -> Result<String> {
        let mut tx = conn.begin().await?;
        let id: i64 = sqlx::query_scalar("INSERT INTO contact_requests (name, email, mobile, message) VALUES ($1, $2, $3, $4) RETURNING id")
            .bind(&self.name)
            .bind(&self.email)
            .bind(&self.mobile)
            .bind(&self.message)
            .fetch_one(&mut *tx)
            .await?;
        let job_id = crate::infra::queue::push(
            &mut tx,
            &SendMail::of(Mail::Contact { request_id: id }),
            None,
        )
        .await?;
        tx.commit().await?;
        job_id
            .ok_or_else(|| crate::Error::Other(anyhow::anyhow!("an unkeyed job is always queued")))
    }

    /// A kept enquiry, for its mail; `None` once it is gone.
    pub async fn get(conn: &mut PgConnection, id: i64) -> Result<Option<Self>> {
        Ok(sqlx::query_as::<_, (String, String, String, String)>(
            "SELECT name, email, mobile, message FROM contact_requests WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(conn)
        .await?
        .map(|(name, email, mobile, message)| Self {
            name,
            email,
            mobile,
            message,
        }))
    }

    pub fn to_email(&self, provider_address: &str) -> Email {
        let text = format!(
            "New enquiry from the website contact form.\n\nName: {}\nEmail: {}\nPhone: {}\n\nMessage:\n{}\n",
            self.name,
            self.email,
            self.mobile,
            if self.message.is_empty() {
                "(none)"
            } else {
                &self.message
            }
        );
        let mut e = Email::new(
            provider_address,
            format!("Contact form: {}", self.name),
            text,
        );
        e.reply_to = Some(self.email.clone());
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        assert!(ContactForm::parse("Asha", "asha@example.in", "9876543210", "").is_ok());
        let err = |r: Result<ContactForm>| match r {
            Err(crate::Error::Invalid { fields, .. }) => fields,
            other => panic!("expected invalid, got {other:?}"),
        };
        let f = err(ContactForm::parse("", "", "", ""));
        assert_eq!(f.len(), 3);
        let f = err(ContactForm::parse("A", "not-an-email", "98765432101", ""));
        assert_eq!(f["email"], "Please enter a valid email");
        assert_eq!(f["mobile"], "Phone must be at most 10 characters");
        assert!(err(ContactForm::parse("A", "a@b.co", "98x", "")).contains_key("mobile"));
        assert!(err(ContactForm::parse("A\0", "a@b.co", "98", "")).contains_key("name"));
        assert!(err(ContactForm::parse("A", "a@b.co", "98", "hi\u{7}")).contains_key("message"));
        assert!(ContactForm::parse("A", "a@b.co", "98", "line one\nline two").is_ok());
    }
}
