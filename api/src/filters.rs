//! Query strings that more than one route module reads.

use chrono::NaiveDate;
use serde::Deserialize;

/// The dated lists of one end user: its transactions and its logs.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TransactionsQuery {
    /// First day, `YYYY-MM-DD`.
    pub from: Option<NaiveDate>,
    /// Last day (inclusive), `YYYY-MM-DD`.
    pub to: Option<NaiveDate>,
}

/// The filter panel of the partner-wide lists (User Transactions, My Transactions): User ID,
/// Email, PID, Services and Date (`from`, `to`). Blank fields are left out.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PartnerListQuery {
    /// The user's id, digits only.
    pub user_id: Option<String>,
    /// A part of the user's e-mail.
    pub email: Option<String>,
    /// A part of the PID.
    pub pid: Option<String>,
    /// A part of the service key (a product's name or description on product lists).
    pub services: Option<String>,
    /// First day, `YYYY-MM-DD`.
    pub from: Option<NaiveDate>,
    /// Last day (inclusive), `YYYY-MM-DD`.
    pub to: Option<NaiveDate>,
}

impl PartnerListQuery {
    /// The domain filter; a user id that is not a number is the spec's message on the field.
    pub fn parse(self) -> crate::error::ApiResult<domain::wallets::transactions::PartnerFilter> {
        let user_id = match self
            .user_id
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            None => None,
            Some(s) if s.bytes().all(|b| b.is_ascii_digit()) => {
                Some(s.parse::<i64>().map_err(|_| {
                    crate::error::ApiError::field(
                        "user_id",
                        "User ID contains only numeric values.",
                    )
                })?)
            }
            Some(_) => {
                return Err(crate::error::ApiError::field(
                    "user_id",
                    "User ID contains only numeric values.",
                ));
            }
        };
        let text = |s: Option<String>| {
            s.map(|s| s.trim().chars().take(200).collect::<String>())
                .filter(|s| !s.is_empty())
        };
        Ok(domain::wallets::transactions::PartnerFilter {
            user_id,
            email: text(self.email),
            pid: text(self.pid),
            service: text(self.services),
            dates: domain::wallets::transactions::Filter {
                from: self.from,
                to: self.to,
            },
        })
    }
}

/// The filter panel of Whitelist IP, Blocked IPs and IP Hits: User ID, IP and Date.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct IpFilterQuery {
    /// Digits only.
    pub user_id: Option<String>,
    pub ip: Option<String>,
    /// `YYYY-MM-DD`: that day only.
    pub date: Option<String>,
}

impl IpFilterQuery {
    /// The domain filter, with the spec's messages on a bad field.
    pub fn parse(&self) -> crate::error::ApiResult<domain::gateway::ip_access::Filter> {
        Ok(domain::gateway::ip_access::Filter::parse(
            self.user_id.as_deref(),
            self.ip.as_deref(),
            self.date.as_deref(),
        )?)
    }
}

/// The Status Code filter of the API logs: one HTTP status (a refused call's 402, 403, 404,
/// 422, 429, an upstream failure's 502, 504, or 200). Blank is left out.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StatusQuery {
    /// Three digits, 100 to 599.
    pub status_code: Option<String>,
}

impl StatusQuery {
    pub fn parse(&self) -> crate::error::ApiResult<Option<i32>> {
        match self
            .status_code
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            None => Ok(None),
            Some(s) => match s.parse::<i32>() {
                Ok(c) if (100..=599).contains(&c) && s.bytes().all(|b| b.is_ascii_digit()) => {
                    Ok(Some(c))
                }
                _ => Err(crate::error::ApiError::field(
                    "status_code",
                    "Status code is a number from 100 to 599.",
                )),
            },
        }
    }
}
