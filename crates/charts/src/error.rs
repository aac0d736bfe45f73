//! The one error type of this crate. Every message names the offending field (a dotted path
//! such as `birth_info.timezone`), what was wrong with it and how to fix it, so callers can
//! show it to a person unchanged.

/// Why a chart could not be computed. None of these is worth retrying with the same input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChartError {
    /// A required field is absent (or null). `field` is a dotted path like `birth_info.date`;
    /// `hint` says what to put there.
    #[error("{field} is missing: {hint}")]
    MissingField {
        /// Dotted path of the missing field.
        field: String,
        /// What a valid value looks like.
        hint: String,
    },
    /// A field is present but unusable (wrong type, bad format, out of range, unknown zone).
    #[error("{field}: {message}")]
    InvalidField {
        /// Dotted path of the offending field.
        field: String,
        /// What is wrong and how to fix it.
        message: String,
    },
    /// `compute` was asked for a chart type it does not know.
    #[error("unknown compute_type \"{0}\": expected one of {expected}", expected = crate::COMPUTE_TYPES.join(", "))]
    UnknownComputeType(String),
    /// The calendar library rejected a value this crate had already validated. This is a bug
    /// in this crate, reported instead of panicking.
    #[error("calendar computation failed: {0}")]
    Calendar(String),
}

impl ChartError {
    pub(crate) fn missing(field: &str, hint: &str) -> Self {
        Self::MissingField { field: field.to_owned(), hint: hint.to_owned() }
    }

    pub(crate) fn invalid(field: &str, message: impl Into<String>) -> Self {
        Self::InvalidField { field: field.to_owned(), message: message.into() }
    }

    /// The dotted path of the field at fault, when the error is about one field.
    pub fn field(&self) -> Option<&str> {
        match self {
            Self::MissingField { field, .. } | Self::InvalidField { field, .. } => Some(field),
            Self::UnknownComputeType(_) | Self::Calendar(_) => None,
        }
    }
}
