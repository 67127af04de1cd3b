//! Money as it arrives from outside. An amount is a whole number of paise written as a JSON
//! integer; a string of digits, a fraction, a boolean or an object is not money. This is the one
//! parser every endpoint that takes an amount or a price uses, so what counts as money is decided
//! once, never through `f64` rounding, and a bad value is a field message rather than a refused
//! body.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The largest price anyone may set: ₹1 crore per call.
pub const MAX_PRICE_PAISE: i64 = 1_000_000_000;

/// Above this a single movement is a typo, not a payment: ₹1,000 crore.
pub const MAX_AMOUNT_PAISE: i64 = 1_000_000_000_000;

/// Which of an owner's two wallets: every wallet is one of these (design.md, "Money").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum WalletKind {
    Api,
    Product,
}

impl WalletKind {
    pub const ALL: [WalletKind; 2] = [WalletKind::Api, WalletKind::Product];

    pub fn as_str(self) -> &'static str {
        match self {
            WalletKind::Api => "api",
            WalletKind::Product => "product",
        }
    }

    /// The `{api|product}` of a path; anything else is a path that does not exist.
    pub fn parse(s: &str) -> crate::Result<Self> {
        match s {
            "api" => Ok(WalletKind::Api),
            "product" => Ok(WalletKind::Product),
            _ => Err(crate::Error::NotFound),
        }
    }

    /// The wallet's name on screens and in mails.
    pub fn label(self) -> &'static str {
        match self {
            WalletKind::Api => "API Wallet",
            WalletKind::Product => "Product Wallet",
        }
    }
}

/// A `*_paise` field of a request, classified but not yet judged: [`Paise::price`] and
/// [`Paise::amount`] apply the rules and words of a price and of an amount to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paise {
    /// Absent or null.
    #[default]
    Missing,
    Whole(i64),
    /// A number with a fractional part (1.5), or one beyond what an `i64` holds.
    NotWhole {
        negative: bool,
    },
    /// A non-empty string (even "100"), a boolean, an array or an object.
    NotANumber,
}

impl Paise {
    /// The whole number, if it is one.
    pub fn whole(self) -> Option<i64> {
        match self {
            Paise::Whole(n) => Some(n),
            _ => None,
        }
    }

    /// A price: `0..=MAX_PRICE_PAISE`, in the words of spec part 2, §5.
    pub fn price(self) -> Result<i64, &'static str> {
        match self {
            Paise::Missing => Err("Price is required"),
            Paise::NotANumber => Err("Price must be a number"),
            Paise::NotWhole { negative: true } => Err("Price cannot be negative"),
            Paise::NotWhole { negative: false } => Err("Price must be a whole number of paise"),
            Paise::Whole(n) if n < 0 => Err("Price cannot be negative"),
            Paise::Whole(n) if n > MAX_PRICE_PAISE => Err("Price is too large"),
            Paise::Whole(n) => Ok(n),
        }
    }

    /// A price that may be absent (absent or null clears it): `Ok(None)` then.
    pub fn optional_price(self) -> Result<Option<i64>, &'static str> {
        match self {
            Paise::Missing => Ok(None),
            p => p.price().map(Some),
        }
    }

    /// An amount to credit or debit: `1..=MAX_AMOUNT_PAISE`.
    pub fn amount(self) -> Result<i64, &'static str> {
        match self {
            Paise::Missing => Err("Amount is required"),
            Paise::NotANumber | Paise::NotWhole { .. } => {
                Err("Amount must be a whole number of paise")
            }
            Paise::Whole(n) if n <= 0 => Err("Amount must be greater than zero"),
            Paise::Whole(n) if n > MAX_AMOUNT_PAISE => Err("Amount is too large"),
            Paise::Whole(n) => Ok(n),
        }
    }

    fn classify(v: &serde_json::Value) -> Self {
        use serde_json::Value;
        match v {
            Value::Null => Paise::Missing,
            // An empty form field is a value not given, not a string that claims to be money.
            Value::String(s) if s.trim().is_empty() => Paise::Missing,
            Value::Number(n) => match (n.as_i64(), n.as_f64()) {
                (Some(i), _) => Paise::Whole(i),
                // The contract's money is a JSON integer: `100.0` (or `1e2`) is a float, refused
                // like `1.5`, so a client that computes amounts in floating point finds out
                // before a rounding error moves a paisa.
                (None, Some(f)) => Paise::NotWhole { negative: f < 0.0 },
                (None, None) => Paise::NotWhole { negative: false },
            },
            _ => Paise::NotANumber,
        }
    }
}

impl From<i64> for Paise {
    fn from(n: i64) -> Self {
        Paise::Whole(n)
    }
}

impl<'de> Deserialize<'de> for Paise {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Through `Value`, so that every JSON shape is classified instead of failing the body.
        let v = serde_json::Value::deserialize(d)?;
        Ok(Paise::classify(&v))
    }
}

impl Serialize for Paise {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Paise::Whole(n) => s.serialize_i64(*n),
            _ => s.serialize_none(),
        }
    }
}

/// The decimal digits of `n` into `buf`, returning the used tail: no allocation, for writers
/// that run once per row of a million-row export.
pub fn digits(buf: &mut [u8; 20], mut n: u64) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[i..]).expect("ascii digits")
}

/// `₹1,23,456.78` from 12345678 paise, as `Intl.NumberFormat('en-IN', {currency: 'INR'})`
/// writes it on the screens (a minus before the sign for a negative amount): the one rupee
/// formatter, of the mails and the exports. Appends to `out`, a buffer the caller may reuse.
pub fn write_rupees(out: &mut String, paise: i64) {
    if paise < 0 {
        out.push('-');
    }
    let p = paise.unsigned_abs();
    out.push('₹');
    let mut buf = [0; 20];
    let s = digits(&mut buf, p / 100);
    // The last three digits, then groups of two.
    let len = s.len();
    if len <= 3 {
        out.push_str(s);
    } else {
        let head = &s[..len - 3];
        let first = head.len() % 2;
        if first == 1 {
            out.push_str(&head[..1]);
        }
        for (i, pair) in head.as_bytes()[first..].chunks(2).enumerate() {
            if i > 0 || first == 1 {
                out.push(',');
            }
            out.push_str(std::str::from_utf8(pair).expect("ascii digits"));
        }
        out.push(',');
        out.push_str(&s[len - 3..]);
    }
    out.push('.');
    let cents = p % 100;
    out.push((b'0' + (cents / 10) as u8) as char);
    out.push((b'0' + (cents % 10) as u8) as char);
}

/// [`write_rupees`] as a new string (mail texts).
pub fn format_inr(paise: i64) -> String {
    let mut s = String::new();
    write_rupees(&mut s, paise);
    s
}

#[cfg(test)]
mod tests {
    use super::Paise;

    fn parse(json: &str) -> Paise {
        #[derive(serde::Deserialize)]
        struct Body {
            #[serde(default)]
            p: Paise,
        }
        serde_json::from_str::<Body>(json).unwrap().p
    }

    #[test]
    fn only_json_integers_are_money() {
        assert_eq!(parse(r#"{"p": 100}"#), Paise::Whole(100));
        assert_eq!(
            parse(r#"{"p": 100.0}"#),
            Paise::NotWhole { negative: false }
        );
        assert_eq!(parse(r#"{"p": 1e2}"#), Paise::NotWhole { negative: false });
        assert_eq!(parse(r#"{"p": -3}"#), Paise::Whole(-3));
        assert_eq!(parse(r#"{}"#), Paise::Missing);
        assert_eq!(parse(r#"{"p": null}"#), Paise::Missing);
        assert_eq!(parse(r#"{"p": "100"}"#), Paise::NotANumber);
        assert_eq!(parse(r#"{"p": " "}"#), Paise::Missing);
        assert_eq!(parse(r#"{"p": "1e3"}"#), Paise::NotANumber);
        assert_eq!(parse(r#"{"p": true}"#), Paise::NotANumber);
        assert_eq!(parse(r#"{"p": [1]}"#), Paise::NotANumber);
        assert_eq!(parse(r#"{"p": {"a": 1}}"#), Paise::NotANumber);
        assert_eq!(parse(r#"{"p": 1.5}"#), Paise::NotWhole { negative: false });
        assert_eq!(parse(r#"{"p": -0.5}"#), Paise::NotWhole { negative: true });
        assert_eq!(
            parse(r#"{"p": 1e300}"#),
            Paise::NotWhole { negative: false }
        );
        assert_eq!(
            parse(r#"{"p": 18446744073709551615}"#),
            Paise::NotWhole { negative: false }
        );
    }

    #[test]
    fn prices_and_amounts_have_their_own_rules_and_words() {
        assert_eq!(Paise::Whole(0).price(), Ok(0));
        assert_eq!(
            Paise::Whole(0).amount(),
            Err("Amount must be greater than zero")
        );
        assert_eq!(Paise::Whole(-1).price(), Err("Price cannot be negative"));
        assert_eq!(
            Paise::NotWhole { negative: true }.price(),
            Err("Price cannot be negative")
        );
        assert_eq!(Paise::NotANumber.price(), Err("Price must be a number"));
        assert_eq!(
            Paise::NotANumber.amount(),
            Err("Amount must be a whole number of paise")
        );
        assert_eq!(Paise::Missing.price(), Err("Price is required"));
        assert_eq!(Paise::Missing.optional_price(), Ok(None));
        assert_eq!(
            Paise::Whole(1_000_000_001).price(),
            Err("Price is too large")
        );
        assert_eq!(Paise::Whole(i64::MAX).amount(), Err("Amount is too large"));
    }
}
