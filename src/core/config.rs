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
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            default_ttl: None,
            reap_interval_ms: DEFAULT_REAP_INTERVAL_MS,
            limits: ReapLimits::default(),
            auto_reap: true,
        }
    }
}

/// Checks that an option given as a JS number is a whole number in `1..=u32::MAX`.
pub fn positive_whole(name: &str, v: f64) -> Result<u32> {
    if v.is_finite() && v.fract() == 0.0 && v >= 1.0 && v <= f64::from(u32::MAX) {
        Ok(v as u32)
    } else {
        Err(Error::OutOfRange(format!(
            "{name} {} is not accepted; expected a whole number from 1 to {}",
            js_number(v),
            u32::MAX
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
