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
    /// `archiveFor`: expired entries move to the archive and are deleted this long after their
    /// expiry (YDB's tiers for the key-value store); `None`: expired entries are deleted.
    pub archive_for_ms: Option<f64>,
    /// `maxEntries`: the most live entries the key-value store keeps (Redis `maxmemory` with
    /// `volatile-ttl`).
    pub max_entries: Option<u32>,
    /// `evictOnQuota`: on a write the browser refuses for space, evict expired data, then the
    /// soonest-to-expire entries, and retry.
    pub evict_on_quota: bool,
    /// Whether `onExpire` was given (the function itself stays on the JS side of the store):
    /// expired records then wait for it, so neither a cap nor the quota evicts them unoffered.
    pub hand_off: bool,
    /// `encryption`: values and documents encrypted at rest; `Some(None)`: one key for ever,
    /// `Some(Some(ms))`: a new key every `keyTtl`.
    pub encryption: Option<Option<f64>>,
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
            archive_for_ms: None,
            max_entries: None,
            evict_on_quota: false,
            hand_off: false,
            encryption: None,
        }
    }
}
