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
