//! The six-step wizard after sign-up (/complete-details): 1 basic details (sign-up itself),
//! 2 plan, 3 sub-domain, 4 branding, 5 SMTP (or skip), 6 done. Where a partner stands is
//! derived from its row by [`Progress::step`], the one definition that sign-in, `/me` and
//! `/status` all use.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgConnection;

use crate::{
    Error, Result,
    catalogue::plans::PlanType,
    infra::audit::{self, Actor},
    partners::branding::Theme,
};

/// Which wizard steps are behind the partner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Progress {
    pub plan_done: bool,
    pub subdomain_done: bool,
    pub branding_done: bool,
    pub smtp_done: bool,
}

impl Progress {
    /// The wizard step to show next: 2 no plan chosen, 3 no sub-domain, 4 branding not done,
    /// 5 SMTP neither saved nor skipped, 6 done. Steps are taken in order, so the first one
    /// missing wins even if a later one is somehow done.
    pub fn step(&self) -> u8 {
        if !self.plan_done {
            2
        } else if !self.subdomain_done {
            3
        } else if !self.branding_done {
            4
        } else if !self.smtp_done {
            5
        } else {
            6
        }
    }
}

/// Everything the partner console shows about the signed-in partner.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Profile {
    pub id: i64,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone_number: String,
    pub user_name: String,
    pub is_active: bool,
    pub plan: String,
    pub billing_cycle: Option<String>,
    pub plan_selected_at: Option<DateTime<Utc>>,
    pub subdomain: Option<String>,
    pub subdomain_status: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub logo_key: Option<String>,
    pub favicon_key: Option<String>,
    pub theme_primary: String,
    pub theme_secondary: String,
    pub theme_tertiary: String,
    pub branding_done: bool,
    pub smtp_done: bool,
}

impl Profile {
    pub fn progress(&self) -> Progress {
        Progress {
            plan_done: self.plan_selected_at.is_some(),
            // A claimed name counts while it is being provisioned; a failed one must be redone.
            subdomain_done: self.subdomain.is_some()
                && matches!(self.subdomain_status.as_str(), "pending" | "active"),
            branding_done: self.branding_done,
            smtp_done: self.smtp_done,
        }
    }

    /// The chosen plan; `None` until the partner picked one in the wizard.
    pub fn chosen_plan(&self) -> Option<&str> {
        self.plan_selected_at.map(|_| self.plan.as_str())
    }

    /// The spec's defaults: the user name plus ' - Home' and ' - API KYC Solution'.
    pub fn title_or_default(&self) -> String {
        self.title
            .clone()
            .unwrap_or_else(|| format!("{} - Home", self.user_name))
    }

    pub fn description_or_default(&self) -> String {
        self.description
            .clone()
            .unwrap_or_else(|| format!("{} - API KYC Solution", self.user_name))
    }

    pub fn theme(&self) -> Theme {
        Theme {
            primary: self.theme_primary.clone(),
            secondary: self.theme_secondary.clone(),
            tertiary: self.theme_tertiary.clone(),
        }
    }
}

#[tracing::instrument(skip(conn))]
pub async fn profile(conn: &mut PgConnection, partner_id: i64) -> Result<Profile> {
    sqlx::query_as(
        "SELECT id, first_name, last_name, email::text, phone_number, user_name::text, is_active, plan::text, billing_cycle,
                plan_selected_at, subdomain::text, subdomain_status, title, description, logo_key, favicon_key,
                theme_primary, theme_secondary, theme_tertiary, branding_done, smtp_done
           FROM partners WHERE id = $1",
    )
    .bind(partner_id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Billing {
    Monthly,
    Yearly,
}

impl Billing {
    pub fn as_str(self) -> &'static str {
        match self {
            Billing::Monthly => "monthly",
            Billing::Yearly => "yearly",
        }
    }
}

/// The pricing step: one of the three plan cards and a billing cycle.
pub fn parse_plan_choice(plan: &str, billing: &str) -> Result<(PlanType, Billing)> {
    let mut v = crate::error::Violations::new();
    let plan = match PlanType::parse(plan) {
        Some(p @ (PlanType::Standard | PlanType::Premium | PlanType::Pro)) => Some(p),
        _ => {
            v.add("plan", "Plan must be one of standard, premium, pro");
            None
        }
    };
    let billing = match billing.trim().to_ascii_lowercase().as_str() {
        "monthly" => Some(Billing::Monthly),
        "yearly" => Some(Billing::Yearly),
        _ => {
            v.add("billing", "Billing must be monthly or yearly");
            None
        }
    };
    v.into_result()?;
    Ok((plan.expect("checked"), billing.expect("checked")))
}

/// Records the plan the partner picked (no payment is taken) and moves it to that plan slab.
#[tracing::instrument(skip(conn))]
pub async fn choose_plan(
    conn: &mut PgConnection,
    partner_id: i64,
    plan: PlanType,
    billing: Billing,
) -> Result<()> {
    let before: Option<(String, Option<String>)> =
        sqlx::query_as("SELECT plan::text, billing_cycle FROM partners WHERE id = $1 FOR UPDATE")
            .bind(partner_id)
            .fetch_optional(&mut *conn)
            .await?;
    let (old_plan, old_billing) = before.ok_or(Error::NotFound)?;
    sqlx::query("UPDATE partners SET plan = $2, billing_cycle = $3, plan_selected_at = now(), updated_at = now() WHERE id = $1")
        .bind(partner_id)
        .bind(plan.as_str())
        .bind(billing.as_str())
        .execute(&mut *conn)
        .await?;
    audit::record(
        conn,
        &audit::Record {
            actor: Actor::partner(partner_id),
            action: "partner.choose_plan",
            entity: "partner",
            entity_id: partner_id.to_string(),
            partner_id: Some(partner_id),
            before: Some(serde_json::json!({ "plan": old_plan, "billing_cycle": old_billing })),
            after: Some(
                serde_json::json!({ "plan": plan.as_str(), "billing_cycle": billing.as_str() }),
            ),
        },
    )
    .await?;
    Ok(())
}

/// The SMTP step's Skip: the partner's mail goes out through the platform's mailer.
pub async fn skip_smtp(conn: &mut PgConnection, partner_id: i64) -> Result<()> {
    let done =
        sqlx::query("UPDATE partners SET smtp_done = true, updated_at = now() WHERE id = $1")
            .bind(partner_id)
            .execute(conn)
            .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_follow_the_first_missing_piece() {
        let p = |plan, sub, brand, smtp| Progress {
            plan_done: plan,
            subdomain_done: sub,
            branding_done: brand,
            smtp_done: smtp,
        };
        assert_eq!(p(false, false, false, false).step(), 2);
        assert_eq!(p(false, true, true, true).step(), 2);
        assert_eq!(p(true, false, false, false).step(), 3);
        assert_eq!(p(true, true, false, true).step(), 4);
        assert_eq!(p(true, true, true, false).step(), 5);
        assert_eq!(p(true, true, true, true).step(), 6);
    }

    #[test]
    fn plan_choice() {
        assert!(parse_plan_choice("premium", "Yearly").is_ok());
        assert!(parse_plan_choice("default", "monthly").is_err());
        assert!(parse_plan_choice("gold", "weekly").is_err());
    }
}
