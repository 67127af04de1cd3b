//! What a product costs (design.md, "Money", for what is not a catalogue API).
//!
//! A product (TruBank's manual bank-statement verification, for now) is priced by one rule:
//! the partner pays the product's price (`products.default_price_paise`, set by the platform),
//! and its end user pays that plus the partner's default margin, rounded half up to the paisa:
//! the rule an API follows when neither a selling price nor a user price is set. The per-API
//! prices (plan slabs, customised plans, selling and user prices) name catalogue APIs and do
//! not apply to products.

use serde::Serialize;
use sqlx::PgConnection;

use crate::{Error, Result};

/// TruBank's product key.
pub const TRUBANK: &str = "trubank";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ProductPrice {
    pub product: String,
    pub name: String,
    /// What the partner pays (`amount` of a product transaction).
    pub amount_paise: i64,
    /// What the end user pays (`user_amount`).
    pub user_amount_paise: i64,
}

/// The user's price from the partner's cost and its margin in basis points: the same
/// rounding as `pricing` (half up).
pub fn with_margin(amount_paise: i64, margin_bps: i32) -> i64 {
    amount_paise + (amount_paise * i64::from(margin_bps) + 5000) / 10000
}

/// The prices of `product` for `partner_id`; `NotFound` when either does not exist.
pub async fn price(
    conn: &mut PgConnection,
    partner_id: i64,
    product: &str,
) -> Result<ProductPrice> {
    let row: Option<(String, String, i64, i32)> = sqlx::query_as(
        "SELECT pr.product, pr.name, pr.default_price_paise, p.default_margin_bps
           FROM products pr CROSS JOIN partners p
          WHERE pr.product = $1 AND p.id = $2",
    )
    .bind(product)
    .bind(partner_id)
    .fetch_optional(conn)
    .await?;
    let (product, name, amount_paise, bps) = row.ok_or(Error::NotFound)?;
    Ok(ProductPrice {
        product,
        name,
        amount_paise,
        user_amount_paise: with_margin(amount_paise, bps),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margin_rounds_half_up_like_api_prices() {
        assert_eq!(with_margin(4900, 0), 4900);
        assert_eq!(with_margin(4900, 1250), 5513); // 612.5 rounds up
        assert_eq!(with_margin(4900, 1000), 5390);
        assert_eq!(with_margin(0, 5000), 0);
        assert_eq!(with_margin(1, 4999), 1);
        assert_eq!(with_margin(1, 5000), 2);
    }
}
