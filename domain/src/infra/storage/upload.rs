//! What a partner may upload (spec part 1 §5, part 2 §5): the type and size rules per purpose,
//! with the spec's messages, and the key the file is stored under. The browser checks the same
//! rules; these are the ones that count.

use super::key::{random_prefix, sanitize_file_name};
use crate::{Error, Result};

const KB: u64 = 1024;
const MB: u64 = 1024 * 1024;
const IMAGE_TYPES: &[&str] = &["image/png", "image/jpeg"];
const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadPurpose {
    Logo,
    Favicon,
    /// The QR image of a partner's manual payment settings.
    Qr,
    /// A bank statement of a manual (TruBank) verification.
    Statement,
}

impl UploadPurpose {
    pub fn parse(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "logo" => Ok(Self::Logo),
            "favicon" => Ok(Self::Favicon),
            "qr" => Ok(Self::Qr),
            "statement" => Ok(Self::Statement),
            _ => Err(Error::invalid(
                "purpose",
                "Purpose must be one of logo, favicon, qr, statement",
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Logo => "logo",
            Self::Favicon => "favicon",
            Self::Qr => "qr",
            Self::Statement => "statement",
        }
    }

    /// The largest file accepted, in bytes.
    pub fn max_size(self) -> u64 {
        match self {
            Self::Logo | Self::Qr => MB,
            Self::Favicon => 10 * KB,
            Self::Statement => 10 * MB,
        }
    }

    fn too_large_message(self) -> &'static str {
        match self {
            Self::Logo | Self::Qr => {
                "File size is too large. Please select a file smaller than 1MB."
            }
            Self::Favicon => "File size is too large. Please select a file smaller than 10KB.",
            Self::Statement => "File size is too large. Please select a file smaller than 10MB.",
        }
    }

    /// Whether a stored file's first bytes are a format this purpose allows: PNG or JPEG for
    /// images, PDF for statements. The declared type is the browser's word; these bytes are
    /// what a page will really load (an HTML page or an SVG with a script under an `image/png`
    /// link must never become a partner's logo).
    pub fn accepts(self, head: &[u8]) -> bool {
        const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";
        const JPEG: &[u8] = b"\xff\xd8\xff";
        const PDF: &[u8] = b"%PDF-";
        match self {
            Self::Statement => head.starts_with(PDF),
            _ => head.starts_with(PNG) || head.starts_with(JPEG),
        }
    }

    /// The message when a stored file is not what it claims: the spec's wrong-type message.
    pub fn wrong_type_message(self) -> &'static str {
        self.allowed().2
    }

    fn allowed(
        self,
    ) -> (
        &'static [&'static str],
        &'static [&'static str],
        &'static str,
    ) {
        match self {
            Self::Statement => (&["application/pdf"], &["pdf"], "Please select a PDF file"),
            _ => (
                IMAGE_TYPES,
                IMAGE_EXTENSIONS,
                "Please select a png, jpg or jpeg file",
            ),
        }
    }
}

/// An accepted upload: where it goes and what the link will be bound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadPlan {
    pub purpose: UploadPurpose,
    pub key: String,
    pub content_type: String,
    pub size: u64,
}

impl UploadPlan {
    /// Checks in the order a person fixes things: a file at all (422), its type (422), then its
    /// size (413). The key is `partners/{partner}/{purpose}/{PREFIX}_{file_name}`, spaces in the
    /// name turned into underscores as the spec asks.
    pub fn new(
        partner_id: i64,
        purpose: UploadPurpose,
        file_name: &str,
        content_type: &str,
        size: u64,
    ) -> Result<Self> {
        Self::in_folder(
            &format!("partners/{partner_id}/{}/", purpose.as_str()),
            purpose,
            file_name,
            content_type,
            size,
        )
    }

    /// An end user's bank statement (TruBank), with the same rules, under
    /// `partners/{partner}/users/{user}/statement/`: a request may name only its user's files.
    pub fn user_statement(
        partner_id: i64,
        user_id: i64,
        file_name: &str,
        content_type: &str,
        size: u64,
    ) -> Result<Self> {
        Self::in_folder(
            &crate::infra::storage::upload::statement_folder(partner_id, user_id),
            UploadPurpose::Statement,
            file_name,
            content_type,
            size,
        )
    }

    fn in_folder(
        folder: &str,
        purpose: UploadPurpose,
        file_name: &str,
        content_type: &str,
        size: u64,
    ) -> Result<Self> {
        let name = sanitize_file_name(file_name);
        if name.is_empty() || size == 0 {
            return Err(Error::invalid("file_name", "Please select a file"));
        }
        let (types, extensions, wrong_type) = purpose.allowed();
        // Parameters such as `; charset=` mean nothing for these types.
        let mut content_type = content_type
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        // A non-standard name some browsers and tools use; the link is signed with the real one.
        if content_type == "image/jpg" {
            content_type = "image/jpeg".into();
        }
        let ext = name
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        if !types.contains(&content_type.as_str()) || !extensions.contains(&ext.as_str()) {
            return Err(Error::invalid("content_type", wrong_type));
        }
        if size > purpose.max_size() {
            return Err(Error::TooLarge(purpose.too_large_message().into()));
        }
        let key = format!("{folder}{}_{name}", random_prefix());
        Ok(Self {
            purpose,
            key,
            content_type,
            size,
        })
    }
}

/// The folder of a user's statements: a request may only name a file in it.
pub fn statement_folder(partner_id: i64, user_id: i64) -> String {
    format!("partners/{partner_id}/users/{user_id}/statement/")
}
