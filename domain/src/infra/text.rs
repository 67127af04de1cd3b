//! Text that people enter and others read: one rule for what the platform stores as display
//! text (names, titles, descriptions, comments, addresses, file names).
//!
//! Refused: control characters (a NUL byte would even make the database refuse the statement;
//! tab and line feed stay, for multi-line fields) and the Unicode bidirectional controls
//! (embeddings, overrides, isolates and the directional marks): U+202E in a partner's title
//! rendered it reversed on its landing page, and in a comment or a file name it makes text
//! read differently from what it is (`invoice` U+202E `fdp.exe` shows as `invoiceexe.pdf`). Joiners (U+200C, U+200D) stay: Indic
//! scripts and emoji need them.

/// The bidirectional formatting characters: LRE, RLE, PDF, LRO, RLO (U+202A..U+202E), LRI,
/// RLI, FSI, PDI (U+2066..U+2069), and the marks LRM, RLM, ALM.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// Display text the platform may store: no control character but tab and line feed, no
/// bidirectional control. The one check for every display field.
pub fn is_plain_text(s: &str) -> bool {
    !s.chars()
        .any(|c| (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c))
}

/// [`is_plain_text`] on one line: no line feed or tab either (titles, names, file names).
pub fn is_single_line(s: &str) -> bool {
    is_plain_text(s) && !s.contains(['\n', '\t'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_overrides_are_refused() {
        for bad in [
            "Acme\u{202e}gnp.exe",
            "a\u{202a}b",
            "a\u{202d}b",
            "a\u{2066}b\u{2069}",
            "a\u{2067}b",
            "a\u{2068}b",
            "a\u{200f}b",
            "a\u{200e}b",
            "a\u{061c}b",
            "nul\u{0}",
            "bell\u{7}",
            "esc\u{1b}[31m",
            "cr\rlf",
            "c1\u{85}",
        ] {
            assert!(!is_plain_text(bad), "{bad:?} passed");
            assert!(!is_single_line(bad), "{bad:?} passed");
        }
        for good in [
            "Acme KYC",
            "Ravi's bank, Mumbai\nBranch 2",
            "क्षत्रिय",
            "\u{0915}\u{094d}\u{200d}\u{0937}",
            "👩‍💻 Team",
            "مرحبا",
            "",
        ] {
            assert!(is_plain_text(good), "{good:?} refused");
        }
        assert!(is_single_line("Acme KYC"));
        assert!(!is_single_line("two\nlines"));
    }
}
