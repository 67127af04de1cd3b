//! The landing page's policies (Privacy policy, Terms and conditions, Cancellation policy): on a
//! partner's site the partner's own text where it wrote one (its sign-up terms), otherwise the
//! platform's. Plain text: a partner's rich text is shown as its words, never as markup.

use serde::Serialize;
use sqlx::PgConnection;

use crate::Result;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    Privacy,
    Terms,
    Cancellation,
}

impl Policy {
    /// The page's address segment: `privacy`, `terms`, `cancellation`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "privacy" => Some(Self::Privacy),
            "terms" => Some(Self::Terms),
            "cancellation" => Some(Self::Cancellation),
            _ => None,
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Self::Privacy => "Privacy policy",
            Self::Terms => "Terms and conditions",
            Self::Cancellation => "Cancellation policy",
        }
    }

    /// The platform's own text, paragraph by paragraph; `contact` is where questions go.
    pub fn platform_text(self, contact: &str) -> Vec<String> {
        let lines: &[&str] = match self {
            Self::Privacy => &[
                "This policy explains what we collect when you use this platform, why, and what you can ask us to do with it.",
                "We collect the details you give us when you sign up or are added as a user (name, e-mail address, phone number, company details), the documents and data you submit for verification, and records of your use of the service (API calls, their results, wallet movements, IP addresses and sign-ins).",
                "We use them to provide the verification services you request, to charge for them, to keep the service secure (rate limits, IP allow-lists and blocks), to meet legal and audit obligations, and to contact you about your account. We do not sell personal data.",
                "Verification requests are passed to the verification providers that answer them, only with the fields that request needs. Storage and e-mail are handled by processors bound to keep the data confidential.",
                "Passwords are stored only as salted hashes and payment secrets are encrypted at rest. Access to the back office is limited to the people who run it, and their actions are logged.",
                "We keep account data while the account is open, and transaction and ledger records for as long as the law requires. You may ask for a copy of your data, its correction, or the closing of your account.",
            ],
            Self::Terms => &[
                "These terms govern the use of this platform's identity-verification services and its web console.",
                "You must give accurate details when you sign up and keep your password and API keys secret. Calls made with your keys are your responsibility.",
                "Use the services only for lawful purposes and only with the consent the law requires of the people whose data you submit. Do not attempt to get around rate limits, IP restrictions or access controls.",
                "Services are paid in advance from your prepaid wallet at the prices shown in your plan. A call is charged when the verification provider answers it successfully; a failed or timed-out call is refunded to the wallet automatically.",
                "We may suspend an account that breaks these terms or puts the service or other users at risk. Results come from third-party sources and are provided as received; we are not liable for decisions you make on them.",
                "We may change these terms; the version on this page is the one in force.",
            ],
            Self::Cancellation => &[
                "You may stop using the services at any time. To close your account, write to us from the e-mail address registered on it.",
                "Wallet top-ups buy credit for future calls. Unused credit is refunded on request when the account is closed, less any amount due, to the original payment method, within 15 working days.",
                "Calls that were answered successfully cannot be cancelled or refunded. Calls that failed or timed out are refunded to the wallet automatically and do not need a request.",
                "If you believe a charge is wrong, write to us within 30 days with the transaction id shown in your transactions list; we will look into it and reverse any charge made in error.",
            ],
        };
        let mut out: Vec<String> = lines.iter().map(|s| (*s).to_owned()).collect();
        out.push(format!("Questions: {contact}."));
        out
    }
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PolicyText {
    pub title: String,
    /// Paragraphs of plain text.
    pub paragraphs: Vec<String>,
    /// `partner` when the partner wrote it, `platform` otherwise.
    pub source: String,
}

/// The text of `policy` on `partner_id`'s site (its own where it wrote one), or the platform's.
pub async fn text(
    conn: &mut PgConnection,
    partner_id: Option<i64>,
    policy: Policy,
    contact: &str,
) -> Result<PolicyText> {
    let own: Option<String> = match (partner_id, policy) {
        (Some(id), Policy::Terms) => {
            sqlx::query_scalar(
                "SELECT terms_text FROM partner_signup_settings WHERE partner_id = $1",
            )
            .bind(id)
            .fetch_optional(conn)
            .await?
        }
        _ => None,
    };
    let paragraphs = own.as_deref().map(paragraphs_of).filter(|p| !p.is_empty());
    Ok(match paragraphs {
        Some(paragraphs) => PolicyText {
            title: policy.title().into(),
            paragraphs,
            source: "partner".into(),
        },
        None => PolicyText {
            title: policy.title().into(),
            paragraphs: policy.platform_text(contact),
            source: "platform".into(),
        },
    })
}

/// The words of a partner's rich text, a paragraph per block: tags dropped, the common entities
/// decoded, blank lines removed.
pub fn paragraphs_of(rich: &str) -> Vec<String> {
    let mut text = String::with_capacity(rich.len());
    let mut rest = rich;
    while let Some(start) = rest.find('<') {
        text.push_str(&rest[..start]);
        let Some(len) = rest[start..].find('>') else {
            rest = "";
            break;
        };
        let tag = rest[start + 1..start + len]
            .trim_start_matches('/')
            .to_ascii_lowercase();
        if [
            "p", "br", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr",
        ]
        .iter()
        .any(|t| {
            tag == *t || tag.starts_with(&format!("{t} ")) || tag.starts_with(&format!("{t}/"))
        }) {
            text.push('\n');
        }
        rest = &rest[start + len + 1..];
    }
    text.push_str(rest);
    let decoded = text
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    decoded
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rich_text_becomes_paragraphs_of_words() {
        assert_eq!(
            paragraphs_of("<p>First&nbsp;rule</p><p><b>Second</b> &amp; last<br>line</p>"),
            vec!["First rule", "Second & last", "line"]
        );
        assert_eq!(
            paragraphs_of("<script>alert(1)</script>"),
            vec!["alert(1)"],
            "markup never survives"
        );
        assert!(paragraphs_of("<p> </p><br/>").is_empty());
        assert_eq!(paragraphs_of("plain\n\ntext"), vec!["plain", "text"]);
    }

    #[test]
    fn every_policy_has_a_platform_text_ending_with_the_contact() {
        for p in [Policy::Privacy, Policy::Terms, Policy::Cancellation] {
            assert_eq!(
                Policy::parse(match p {
                    Policy::Privacy => "privacy",
                    Policy::Terms => "terms",
                    Policy::Cancellation => "cancellation",
                }),
                Some(p)
            );
            let t = p.platform_text("help@example.in");
            assert!(t.len() > 3);
            assert_eq!(t.last().unwrap(), "Questions: help@example.in.");
        }
        assert_eq!(Policy::parse("other"), None);
    }
}
