//! The three plan cards of the landing page and the wizard's pricing step (spec part 1 §9), in
//! one place. Prices are rupees per month, in paise: billed monthly, or per month when billed
//! yearly.

use serde::Serialize;

#[derive(Debug, Clone, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct Feature {
    pub text: &'static str,
    pub highlighted: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct PlanCard {
    /// The plan slab the card selects: `standard`, `premium` or `pro`.
    pub id: &'static str,
    pub heading: &'static str,
    /// Per month, billed monthly.
    pub monthly_price_paise: i64,
    /// Per month, billed yearly.
    pub yearly_price_paise: i64,
    pub colour: &'static str,
    pub features: Vec<Feature>,
}

const fn rupees(r: i64) -> i64 {
    r * 100
}

fn f(text: &'static str, highlighted: bool) -> Feature {
    Feature { text, highlighted }
}

pub fn cards() -> Vec<PlanCard> {
    vec![
        PlanCard {
            id: "standard",
            heading: "Standard",
            monthly_price_paise: rupees(10_000),
            yearly_price_paise: rupees(8_000),
            colour: "#6091E2",
            features: vec![
                f("5000 Wallet Credits Monthly", true),
                f("100+ APIs", false),
                f("Over 25% API Discount", true),
                f("Standard Support", false),
            ],
        },
        PlanCard {
            id: "premium",
            heading: "Premium",
            monthly_price_paise: rupees(20_000),
            yearly_price_paise: rupees(17_000),
            colour: "#9462E7",
            features: vec![
                f("10000 Wallet Credits Monthly", true),
                f("40% Discount on All Products", true),
                f("Bank Statement Analyser", false),
                f("Signing", false),
                f("Premium Support", false),
            ],
        },
        PlanCard {
            id: "pro",
            heading: "Pro",
            monthly_price_paise: rupees(30_000),
            yearly_price_paise: rupees(21_000),
            colour: "#00B8B5",
            features: vec![
                f("15000 Wallet Credits Monthly", true),
                f("55% Discount on All Products", true),
                f("Credit Score Checks", false),
                f("Court Case Checks", false),
                f("24x7 Support", false),
                f("Dedicated Manager", false),
            ],
        },
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn prices_of_the_spec() {
        let c = super::cards();
        let p: Vec<_> = c
            .iter()
            .map(|c| {
                (
                    c.id,
                    c.monthly_price_paise / 100,
                    c.yearly_price_paise / 100,
                )
            })
            .collect();
        assert_eq!(
            p,
            [
                ("standard", 10_000, 8_000),
                ("premium", 20_000, 17_000),
                ("pro", 30_000, 21_000)
            ]
        );
    }
}
