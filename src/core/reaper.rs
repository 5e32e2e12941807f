//! Reaper planning and bookkeeping: how much one pass may remove, in which batches, and the
//! counters `stats()` reports. The IndexedDB adapter executes the plan; nothing here does I/O.

use crate::core::error::{Error, Result};

/// Default period of the background reaper (MongoDB's TTL monitor runs every 60 s).
pub const DEFAULT_REAP_INTERVAL_MS: f64 = 60_000.0;
/// Default cap on entries removed by one pass (ArangoDB `--ttl.max-total-removes`).
pub const DEFAULT_MAX_REMOVES_PER_RUN: u32 = 10_000;
/// Default number of entries removed by the first IndexedDB transaction of a pass's turn on
/// one collection; without a `batchSize` option, later batches of a backlog grow from it.
pub const DEFAULT_BATCH_SIZE: u32 = 500;
/// The largest batch a turn's batches grow to without a `batchSize` option: the first is the
/// batch size, and each full one (more may be waiting) doubles the next, up to this (or the batch
/// size, if larger); the rate limit and the pass's and the collection's caps still cut any batch
/// ([`ReapLimits::next_batch`]). Fewer transactions drain a backlog faster (docs/benchmarks.md).
pub const MAX_GROWN_BATCH: u32 = 4_000;
/// Default cap on records removed from one collection (the entries, a collection, a time
/// series) by one pass (ArangoDB `--ttl.max-collection-removes`): no cap beyond the pass's (an
/// unset cap follows a given `maxRemovesPerRun`, see `core::options::store_config`).
pub const DEFAULT_MAX_REMOVES_PER_COLLECTION: u32 = DEFAULT_MAX_REMOVES_PER_RUN;

/// The caps a pass runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReapLimits {
    /// Entries removed by the first transaction of a turn (every transaction, if `fixed`).
    pub batch_size: u32,
    /// `true` when the user gave `batchSize`: batches stay that size.
    pub fixed_batch: bool,
    /// Records removed per pass, across all its batches and collections.
    pub max_removes_per_run: u32,
    /// Records removed per pass from any one collection (the key-value entries count as one).
    pub max_removes_per_collection: u32,
    /// Records removed per second at most, across batches (CockroachDB's
    /// `ttl_delete_rate_limit`); 0: no limit.
    pub max_removes_per_second: u32,
}

impl Default for ReapLimits {
    fn default() -> Self {
        ReapLimits {
            batch_size: DEFAULT_BATCH_SIZE,
            fixed_batch: false,
            max_removes_per_run: DEFAULT_MAX_REMOVES_PER_RUN,
            max_removes_per_collection: DEFAULT_MAX_REMOVES_PER_COLLECTION,
            max_removes_per_second: 0,
        }
    }
}

impl ReapLimits {
    /// Validated limits; all must be at least 1 (a cap of 0 would make `reap()` a silent no-op).
    pub fn new(batch_size: u32, max_removes_per_run: u32, max_removes_per_collection: u32) -> Result<Self> {
        for (name, v) in [
            ("batchSize", batch_size),
            ("maxRemovesPerRun", max_removes_per_run),
            ("maxRemovesPerCollection", max_removes_per_collection),
        ] {
            if v == 0 {
                return Err(Error::OutOfRange(format!(
                    "{name} 0 is not accepted; expected a whole number >= 1 (use pauseReaper() or autoReap: false to stop reaping)"
                )));
            }
        }
        Ok(ReapLimits { batch_size, fixed_batch: false, max_removes_per_run, max_removes_per_collection, max_removes_per_second: 0 })
    }

    /// How many records the next batch may remove, after `removed_in_pass` in this pass and
    /// `removed_here` from the collection at hand; 0 ends that collection's turn.
    /// `turn_batch` counts the batches already run in this turn (all full: a short one ends the
    /// turn), so a backlog's batches grow. Under a rate limit a batch removes at most one
    /// second's worth.
    pub fn next_batch(&self, removed_in_pass: u32, removed_here: u32, turn_batch: u32) -> u32 {
        let per_second = if self.max_removes_per_second == 0 { u32::MAX } else { self.max_removes_per_second };
        let size = if self.fixed_batch {
            self.batch_size
        } else {
            let grown = self.batch_size.saturating_mul(1 << turn_batch.min(16));
            grown.min(MAX_GROWN_BATCH.max(self.batch_size))
        };
        size.min(per_second)
            .min(self.max_removes_per_run.saturating_sub(removed_in_pass))
            .min(self.max_removes_per_collection.saturating_sub(removed_here))
    }

    /// How long to wait after a batch that removed `removed` records in `took_ms`, so removal
    /// stays under `max_removes_per_second` (0 without a limit).
    pub fn pause_after_ms(&self, removed: u32, took_ms: f64) -> f64 {
        if self.max_removes_per_second == 0 || removed == 0 {
            return 0.0;
        }
        (f64::from(removed) * 1000.0 / f64::from(self.max_removes_per_second) - took_ms).max(0.0)
    }
}

/// The pause before the next background pass when the last one stopped at a cap: expired
/// records are still waiting, so the next pass comes soon (Redis repeats its active-expiry cycle
/// while many keys are expired), but not at once, so the page gets its frames.
pub const BACKLOG_PAUSE_MS: f64 = 50.0;

/// When the next background pass starts after `last` (`None`: no pass yet): a full interval, or
/// [`BACKLOG_PAUSE_MS`] after a pass that left expired records behind. `reap_interval_ms` stays
/// the bound on how late a removal can be.
///
/// After `failed_hand_offs` passes in a row whose `onExpire` failed, passes back off instead:
/// the interval times 2^(n-1), at most [`MAX_HAND_OFF_BACKOFF_MS`] (or the interval, if longer),
/// so a server that is down is not hammered and is tried again once it may be back.
pub fn next_pass_in_ms(reap_interval_ms: f64, last: Option<&ReapReport>, failed_hand_offs: u32) -> f64 {
    if failed_hand_offs > 0 {
        let factor = f64::from(1u32 << (failed_hand_offs - 1).min(30));
        return (reap_interval_ms * factor).min(MAX_HAND_OFF_BACKOFF_MS.max(reap_interval_ms));
    }
    match last {
        Some(report) if report.remaining > 0 => reap_interval_ms.min(BACKLOG_PAUSE_MS),
        _ => reap_interval_ms,
    }
}

/// The longest pause between passes while `onExpire` keeps failing: one hour.
pub const MAX_HAND_OFF_BACKOFF_MS: f64 = 3_600_000.0;

/// What one pass did (`ReapReport` in JS).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReapReport {
    /// Records that left the live data in this pass (deleted or moved to an archive): entries,
    /// documents and buckets.
    pub removed: u32,
    /// Of `removed`, how many were moved to an archive (`archiveFor`, an archive tier).
    pub archived: u32,
    /// Of `removed`, how many `onExpire` accepted.
    pub handed_off: u32,
    /// Whether `onExpire` failed in this pass (the pass stopped there; the records wait).
    pub hand_off_failed: bool,
    /// Archived records deleted at their delete tier.
    pub archive_removed: u32,
    /// Documents removed, per collection (collections with none removed are left out).
    pub collections: Vec<(String, u32)>,
    /// Whole buckets removed, per time series.
    pub buckets: Vec<(String, u32)>,
    /// Expired records still stored after the pass (non-zero when a cap was hit).
    pub remaining: u32,
    /// Wall time of the pass.
    pub duration_ms: f64,
}

/// Counters across passes (`Stats` in JS, together with `reaperPaused`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReaperStats {
    /// Passes completed, background or `reap()`.
    pub reaper_runs: u64,
    /// Entries removed by all passes.
    pub removed_total: u64,
    /// The latest pass, if any.
    pub last_run: Option<ReapReport>,
    /// When the latest pass ended, Unix ms.
    pub last_run_end_ms: Option<f64>,
    /// Records moved to an archive by all passes.
    pub archived_total: u64,
    /// Records `onExpire` accepted, over all passes.
    pub handed_off_total: u64,
    /// Passes whose `onExpire` failed.
    pub hand_off_failures: u64,
    /// Passes in a row, up to the latest, whose `onExpire` failed (the background passes back
    /// off while it is above 0).
    pub failed_in_a_row: u32,
    /// Live entries evicted for `maxEntries` or the browser's quota.
    pub evicted_total: u64,
}

impl ReaperStats {
    /// Accounts for a pass that ended at `ended_ms`.
    pub fn record(&mut self, report: &ReapReport, ended_ms: f64) {
        self.reaper_runs += 1;
        self.removed_total += u64::from(report.removed);
        self.archived_total += u64::from(report.archived);
        self.handed_off_total += u64::from(report.handed_off);
        if report.hand_off_failed {
            self.hand_off_failures += 1;
            self.failed_in_a_row += 1;
        } else {
            self.failed_in_a_row = 0;
        }
        self.last_run = Some(report.clone());
        self.last_run_end_ms = Some(ended_ms);
    }

    /// Expired records still stored after the latest pass (an estimate: more expire every
    /// moment, and other members' passes remove some).
    pub fn waiting(&self) -> u32 {
        self.last_run.as_ref().map_or(0, |r| r.remaining)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_fill_up_to_the_cap_then_stop() {
        // (batch, pass cap, collection cap, removed in pass, removed here, expected next batch)
        let table = [
            (500, 10_000, 10_000, 0, 0, 500),
            (500, 10_000, 10_000, 9_800, 0, 200),
            (500, 10_000, 10_000, 10_000, 0, 0),
            (500, 10_000, 10_000, 12_000, 0, 0),
            (500, 300, 10_000, 0, 0, 300),
            (1, 3, 3, 2, 2, 1),
            (7, 20, 20, 14, 14, 6),
            // The collection cap ends one collection's turn while the pass goes on.
            (500, 10_000, 1_000, 4_000, 800, 200),
            (500, 10_000, 1_000, 4_000, 1_000, 0),
            (500, 10_000, 1_000, 4_000, 0, 500),
        ];
        for (batch, cap, per, done, here, want) in table {
            let l = ReapLimits::new(batch, cap, per).unwrap();
            let l = ReapLimits { fixed_batch: true, ..l };
            assert_eq!(l.next_batch(done, here, 3), want, "batch {batch} cap {cap}/{per} done {done}/{here}");
        }
    }

    #[test]
    fn a_pass_is_split_into_the_expected_batches() {
        let batches = |l: ReapLimits| {
            let (mut removed, mut batches) = (0, vec![]);
            loop {
                let n = l.next_batch(removed, removed, batches.len() as u32);
                if n == 0 {
                    return batches;
                }
                batches.push(n);
                removed += n;
            }
        };
        let fixed = ReapLimits { fixed_batch: true, ..ReapLimits::new(500, 1_200, 1_200).unwrap() };
        assert_eq!(batches(fixed), vec![500, 500, 200]);
        // Without batchSize a backlog's batches double up to MAX_GROWN_BATCH.
        assert_eq!(batches(ReapLimits::new(500, 10_000, 10_000).unwrap()), vec![500, 1000, 2000, 4000, 2500]);
        assert_eq!(batches(ReapLimits::new(500, 1_200, 1_200).unwrap()), vec![500, 700]);
        // A batchSize above the growth cap is not shrunk.
        let big = ReapLimits { fixed_batch: true, ..ReapLimits::new(10_000, 100_000, 100_000).unwrap() };
        assert_eq!(batches(big).len(), 10);
    }

    #[test]
    fn zero_limits_are_refused_with_their_name() {
        let e = ReapLimits::new(0, 10, 10).unwrap_err();
        assert!(matches!(&e, Error::OutOfRange(m) if m.contains("batchSize 0")), "{e}");
        let e = ReapLimits::new(10, 0, 10).unwrap_err();
        assert!(matches!(&e, Error::OutOfRange(m) if m.contains("maxRemovesPerRun 0")), "{e}");
        let e = ReapLimits::new(10, 10, 0).unwrap_err();
        assert!(matches!(&e, Error::OutOfRange(m) if m.contains("maxRemovesPerCollection 0")), "{e}");
    }

    #[test]
    fn stats_accumulate_runs() {
        let mut s = ReaperStats::default();
        assert_eq!((s.waiting(), s.last_run_end_ms), (0, None));
        s.record(&ReapReport { removed: 3, remaining: 0, duration_ms: 1.5, ..Default::default() }, 1_000.0);
        s.record(&ReapReport { removed: 0, remaining: 2, duration_ms: 0.5, ..Default::default() }, 2_000.0);
        assert_eq!(s.reaper_runs, 2);
        assert_eq!(s.removed_total, 3);
        assert_eq!(s.waiting(), 2);
        assert_eq!(s.last_run_end_ms, Some(2_000.0));
    }

    #[test]
    fn a_rate_limit_caps_batches_and_paces_them() {
        let mut l = ReapLimits::new(500, 10_000, 10_000).unwrap();
        assert_eq!((l.next_batch(0, 0, 0), l.pause_after_ms(500, 20.0)), (500, 0.0), "no limit by default");
        l.max_removes_per_second = 100;
        assert_eq!(l.next_batch(0, 0, 5), 100, "a batch is at most one second's worth");
        assert_eq!(l.pause_after_ms(100, 30.0), 970.0);
        assert_eq!(l.pause_after_ms(50, 30.0), 470.0);
        assert_eq!(l.pause_after_ms(100, 1500.0), 0.0, "a slow batch needs no pause");
        assert_eq!(l.pause_after_ms(0, 0.0), 0.0);
        l.max_removes_per_second = 2_000;
        assert_eq!(l.next_batch(0, 0, 0), 500);
        // 10 000 removals at 2 000/s: batches of 500, each followed by what is left of 250 ms.
        assert_eq!(l.pause_after_ms(500, 40.0), 210.0);
    }

    #[test]
    fn passes_come_soon_while_a_backlog_waits() {
        let capped = ReapReport { removed: 10_000, remaining: 90_000, ..Default::default() };
        let drained = ReapReport { removed: 10, remaining: 0, ..Default::default() };
        assert_eq!(next_pass_in_ms(60_000.0, None, 0), 60_000.0);
        assert_eq!(next_pass_in_ms(60_000.0, Some(&drained), 0), 60_000.0);
        assert_eq!(next_pass_in_ms(60_000.0, Some(&capped), 0), BACKLOG_PAUSE_MS);
        assert_eq!(next_pass_in_ms(10.0, Some(&capped), 0), 10.0, "never later than the interval");
    }

    #[test]
    fn failing_hand_offs_back_off_doubling_up_to_an_hour() {
        let failed = ReapReport { hand_off_failed: true, remaining: 30, ..Default::default() };
        // (interval, failures in a row, expected pause)
        let table = [
            (1_000.0, 1, 1_000.0),
            (1_000.0, 2, 2_000.0),
            (1_000.0, 3, 4_000.0),
            (1_000.0, 12, 2_048_000.0),
            (1_000.0, 13, MAX_HAND_OFF_BACKOFF_MS),
            (1_000.0, 500, MAX_HAND_OFF_BACKOFF_MS),
            // An interval longer than the cap is never shortened.
            (7_200_000.0, 3, 7_200_000.0),
            (50.0, 4, 400.0),
        ];
        for (interval, n, want) in table {
            assert_eq!(next_pass_in_ms(interval, Some(&failed), n), want, "interval {interval}, {n} failures");
        }
        // A waiting backlog does not hurry a failing hook.
        assert_eq!(next_pass_in_ms(60_000.0, Some(&failed), 1), 60_000.0);
    }

    #[test]
    fn stats_count_hand_offs_and_failures_in_a_row() {
        let mut s = ReaperStats::default();
        let ok = ReapReport { removed: 5, handed_off: 5, archived: 2, ..Default::default() };
        let failed = ReapReport { removed: 1, handed_off: 1, hand_off_failed: true, remaining: 4, ..Default::default() };
        s.record(&failed, 1.0);
        s.record(&failed, 2.0);
        assert_eq!((s.hand_off_failures, s.failed_in_a_row, s.handed_off_total), (2, 2, 2));
        s.record(&ok, 3.0);
        assert_eq!((s.hand_off_failures, s.failed_in_a_row, s.handed_off_total, s.archived_total), (2, 0, 7, 2));
        assert_eq!(s.removed_total, 7);
    }
}
