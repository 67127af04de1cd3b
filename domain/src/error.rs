//! The domain's one error type. The api maps it to HTTP in one place (`api/src/error.rs`).

use std::collections::BTreeMap;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("not found")]
    NotFound,
    /// Validation of input, field by field.
    #[error("{message}")]
    Invalid {
        message: String,
        fields: BTreeMap<String, String>,
    },
    /// Something is taken or in the way; `field` names the input at fault when there is one,
    /// so the api answers it as that field's error without reading the message.
    #[error("{message}")]
    Conflict {
        message: String,
        field: Option<&'static str>,
    },
    /// A request that cannot succeed as sent (an expired or used link).
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Forbidden(String),
    /// Forbidden for a reason a client must tell apart from the others (a key's IP or API
    /// list), so it carries an error code of its own.
    #[error("{message}")]
    Denied { code: &'static str, message: String },
    #[error("{0}")]
    Unauthorized(String),
    /// Too many attempts on one account: try again after this many seconds.
    #[error("too many attempts")]
    TooManyAttempts { retry_after_secs: u64 },
    #[error("insufficient balance")]
    InsufficientFunds,
    #[error("{0}")]
    TooLarge(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        Error::Invalid {
            fields: BTreeMap::from([(field.to_owned(), message.clone())]),
            message,
        }
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        Error::Conflict {
            message: message.into(),
            field: None,
        }
    }

    /// A conflict on one input field (an e-mail or a name that is taken).
    pub fn conflict_on(field: &'static str, message: impl Into<String>) -> Self {
        Error::Conflict {
            message: message.into(),
            field: Some(field),
        }
    }
}

/// Collects field errors and turns them into one `Error::Invalid`.
#[derive(Default, Debug)]
pub struct Violations(BTreeMap<String, String>);

impl Violations {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, field: &str, message: impl Into<String>) {
        self.0
            .entry(field.to_owned())
            .or_insert_with(|| message.into());
    }

    pub fn check(&mut self, ok: bool, field: &str, message: &str) {
        if !ok {
            self.add(field, message);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn into_result(self) -> Result<()> {
        match self.0.iter().next() {
            None => Ok(()),
            Some((_, first)) => Err(Error::Invalid {
                message: first.clone(),
                fields: self.0,
            }),
        }
    }
}
