//! Store options, validated once at `open`.

use crate::core::expiry::Ttl;
use crate::core::reaper::{ReapLimits, DEFAULT_REAP_INTERVAL_MS};

/// Validated `StoreOptions`.
#[derive(Debug, Clone, PartialEq)]
pub struct StoreConfig {
    /// Expiry for writes that name none.
    pub default_ttl: Option<Ttl>,
    /// Period of the background reaper (any whole number of ms up to 2^53 - 1: timers longer
    /// than `setTimeout`'s 24.8 days are chained).
    pub reap_interval_ms: f64,
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
