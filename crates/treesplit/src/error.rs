//! Errors a run can end with.

use crate::config::ConfigError;
use std::fmt;

/// Why a run did not produce a result.
#[derive(Debug, Clone, PartialEq)]
pub enum RunError {
    /// The configuration is unusable.
    InvalidConfig(ConfigError),
    /// User code (or a protocol invariant) panicked on a PE; the run was aborted.
    PePanicked {
        /// The PE that panicked.
        pe: usize,
        /// The panic message.
        message: String,
    },
    /// The machine could not run (e.g. a thread could not be spawned).
    Machine(String),
    /// An internal invariant failed: work was lost or duplicated. Always a bug.
    Internal(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::InvalidConfig(m) => write!(f, "invalid configuration: {m}"),
            RunError::PePanicked { pe, message } => write!(f, "PE {pe} panicked: {message}"),
            RunError::Machine(m) => write!(f, "machine error: {m}"),
            RunError::Internal(m) => write!(f, "internal error (a treesplit bug): {m}"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<ConfigError> for RunError {
    fn from(e: ConfigError) -> Self {
        RunError::InvalidConfig(e)
    }
}

/// The text of a panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}
