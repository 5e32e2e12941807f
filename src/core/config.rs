//! Store options, validated once at `open`.

use crate::core::error::{Error, Result};
use crate::core::expiry::Ttl;
use crate::core::reaper::{ReapLimits, DEFAULT_REAP_INTERVAL_MS};
use crate::core::text::js_number;

/// Validated `StoreOptions`.
#[derive(Debug, Clone, PartialEq)]
pub struct StoreConfig {
    /// Expiry for writes that name none.
    pub default_ttl: Option<Ttl>,
    /// Period of the background reaper.
    pub reap_interval_ms: u32,
    /// Batch size and per-pass cap.
    pub limits: ReapLimits,
    /// `false`: only `reap()` removes expired entries.
    pub auto_reap: bool,
    /// How long an IndexedDB request may go unanswered before its transaction is aborted with
    /// a `TimeoutError` (a stuck transaction must not hang the store forever).
    pub timeout_ms: u32,
}

/// Default `timeoutMs`: long enough for a 100 000-entry `setMany` on a slow machine, short
/// enough that a stuck database surfaces as an error a user can act on.
pub const DEFAULT_TIMEOUT_MS: u32 = 30_000;

/// The longest delay `setTimeout` keeps (2^31 - 1 ms, 24.8 days); longer ones fire at once.
pub const MAX_TIMER_MS: u32 = 2_147_483_647;

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            default_ttl: None,
            reap_interval_ms: DEFAULT_REAP_INTERVAL_MS,
            limits: ReapLimits::default(),
            auto_reap: true,
            timeout_ms: DEFAULT_TIMEOUT_MS,
        }
    }
}

/// Checks that an option given as a JS number is a whole number in `1..=u32::MAX`.
pub fn positive_whole(name: &str, v: f64) -> Result<u32> {
    whole_up_to(name, v, u32::MAX)
}

/// Checks that an option given as a JS number is a whole number in `1..=max`.
pub fn whole_up_to(name: &str, v: f64, max: u32) -> Result<u32> {
    if v.is_finite() && v.fract() == 0.0 && v >= 1.0 && v <= f64::from(max) {
        Ok(v as u32)
    } else {
        Err(Error::OutOfRange(format!(
            "{name} {} is not accepted; expected a whole number from 1 to {max}",
            js_number(v),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_positive_numbers_only() {
        assert_eq!(positive_whole("batchSize", 500.0).unwrap(), 500);
        for bad in [0.0, -1.0, 1.5, f64::NAN, f64::INFINITY, 5e9] {
            let e = positive_whole("batchSize", bad).unwrap_err();
            assert!(matches!(&e, Error::OutOfRange(m) if m.starts_with(&format!("batchSize {}", js_number(bad)))), "{e}");
        }
    }
}
