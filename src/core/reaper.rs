//! Reaper planning and bookkeeping: which turns one pass runs and in which order, how much it
//! may remove, in which batches, and the counters `stats()` reports. The IndexedDB adapter
//! executes the plan; nothing here does I/O.

#[cfg(feature = "full")]
use crate::core::buckets::SeriesOptions;
use crate::core::error::{Error, Result};
#[cfg(feature = "full")]
use crate::core::ttl_index::TtlIndex;
use crate::core::window::Window;

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
/// ([`ReapLimits::next_batch`]). Fewer transactions drain a backlog faster (docs/contributing/benchmark-notebook.md).
pub const MAX_GROWN_BATCH: u32 = 4_000;
/// Default number of records a reaper step looks up at once (CockroachDB's
/// `ttl_select_batch_size`): a batch of `batchSize` removals reads its keys in such steps.
pub const DEFAULT_SELECT_BATCH_SIZE: u32 = 500;
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
    /// Records looked up per step of a batch (CockroachDB's `ttl_select_batch_size`).
    pub select_batch_size: u32,
}

impl Default for ReapLimits {
    fn default() -> Self {
        ReapLimits {
            batch_size: DEFAULT_BATCH_SIZE,
            fixed_batch: false,
            max_removes_per_run: DEFAULT_MAX_REMOVES_PER_RUN,
            max_removes_per_collection: DEFAULT_MAX_REMOVES_PER_COLLECTION,
            max_removes_per_second: 0,
            select_batch_size: DEFAULT_SELECT_BATCH_SIZE,
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
        Ok(ReapLimits { batch_size, max_removes_per_run, max_removes_per_collection, ..ReapLimits::default() })
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

/// What a pass plans from: the store's options and the definitions it read at its start.
#[derive(Debug, Clone, Default)]
pub struct PassInput<'a> {
    /// Whether `onExpire` was given: every live turn is offered to it.
    pub hook: bool,
    /// `archiveFor` of the key-value entries, in ms.
    pub archive_for_ms: Option<f64>,
    /// Each collection, in the order its turn runs, with its TTL index if it has one.
    #[cfg(feature = "full")]
    pub collections: Vec<(&'a str, Option<&'a TtlIndex>)>,
    /// Each time series, in the order its turn runs.
    #[cfg(feature = "full")]
    pub series: Vec<(&'a str, &'a SeriesOptions)>,
    /// The lite entry's databases hold entries alone: it plans no collection or series turn.
    #[cfg(not(feature = "full"))]
    pub entries_only: core::marker::PhantomData<&'a ()>,
}

/// One turn of a pass: the records of `whose` expired (or, for an archive, past their delete
/// tier) through `through_ms`, and how they leave.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Turn<'a> {
    /// Whose records.
    pub whose: Whose<'a>,
    /// Records keyed by a time at or before this instant (Unix ms) are due.
    pub through_ms: f64,
    /// `None`: a plain range delete; otherwise offered to `onExpire` and/or moved to an archive
    /// first.
    pub offer: Option<OfferPlan<'a>>,
}

/// Whose records a turn removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose<'a> {
    /// The key-value entries, keyed by expiry.
    Entries,
    /// A collection's documents, keyed by their reference time.
    Collection(&'a str),
    /// A time series' whole buckets, keyed by their latest event.
    Series(&'a str),
    /// An archive's records, keyed by the time they were archived under; not live data.
    Archive(ArchiveId<'a>),
    /// A collection's archived documents reaching its archive tier of this index (a chain's
    /// hand-off); not live data.
    Tier(&'a str, u32),
}

/// Which archive records belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveId<'a> {
    /// The key-value entries' (`archiveFor`).
    Entries,
    /// A collection's (an archive tier of its TTL index).
    Collection(&'a str),
}

/// What kind of record a turn offers (`kind` of an `onExpire` record).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferKind {
    /// A key-value entry.
    Entry,
    /// A collection's document.
    Document,
    /// A time series' bucket of events.
    Events,
}

/// How a turn hands its records on before they leave.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OfferPlan<'a> {
    /// What the records are.
    pub kind: OfferKind,
    /// The collection or time series (`None` for entries).
    pub name: Option<&'a str>,
    /// After a record's time, the `expiresAt` it is offered with: its delete tier when it moves
    /// to an archive (infinite: none), its expiry otherwise.
    pub after: Window,
    /// The archive the records move to; `None`: they are deleted.
    pub archive: Option<ArchiveId<'a>>,
    /// Whether `onExpire`, if given, is called with them (a chain of tiers names the tiers
    /// that hand off; everything else hands off).
    pub hands_off: bool,
    /// The tier the records reach (`record.tier`), in a chain that names hand-offs.
    pub tier: Option<u32>,
    /// For records already archived: which ones this turn takes, and what becomes of them.
    pub step: Option<TierStep>,
    /// Records move to the archive even when past its delete tier, so that a chain's later
    /// hand-offs see them (a chain that names hand-offs; elsewhere such records are deleted).
    pub through_archive: bool,
}

/// A tier reached by archived records (YDB's chain): the records that passed hand-off tier
/// `from` (0: just archived) and whose reference is past this tier are handed on, then marked
/// as having passed `to`, or deleted (`to` = `None`, the delete tier). A record never skips a
/// hand-off: one whose earlier hand-off failed is not `from` yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TierStep {
    /// The hand-off tier the records passed last.
    pub from: u32,
    /// The tier they pass now; `None`: deleted.
    pub to: Option<u32>,
}

impl Turn<'_> {
    /// Whether the turn removes live data (not an archive's delete tier).
    pub fn is_live(&self) -> bool {
        !matches!(self.whose, Whose::Archive(_) | Whose::Tier(..))
    }
}

/// The turns of a pass starting at `now_ms`, in the order they run: the entries, each
/// collection with a TTL index, each time series with an expiry, then the archives' delete tiers
/// (entries' first, then each collection's). A turn is offered when there is a hook or it moves
/// records to an archive; the archives' turns offer nothing. An archive whose tier is gone
/// (no `archiveFor`, a TTL index without archive tier) is emptied: its cut-off is `now_ms`.
pub fn plan_pass<'a>(input: &PassInput<'a>, now_ms: f64) -> Vec<Turn<'a>> {
    let hook = input.hook;
    let archive_for_ms = input.archive_for_ms;
    let entries_offer = (hook || archive_for_ms.is_some()).then(|| OfferPlan {
        kind: OfferKind::Entry,
        name: None,
        after: Window { months: 0, ms: archive_for_ms.unwrap_or(0.0) },
        archive: archive_for_ms.map(|_| ArchiveId::Entries),
        hands_off: true,
        tier: None,
        step: None,
        through_archive: false,
    });
    let mut turns = vec![Turn { whose: Whose::Entries, through_ms: now_ms, offer: entries_offer }];
    let archive_turn = |id, through_ms| Turn { whose: Whose::Archive(id), through_ms, offer: None };
    #[cfg_attr(not(feature = "full"), allow(unused_mut))]
    let mut archives = vec![archive_turn(ArchiveId::Entries, now_ms - archive_for_ms.unwrap_or(0.0))];
    // The lite entry's databases hold entries alone: it plans no collection or series turn.
    #[cfg(feature = "full")]
    for &(name, ttl) in &input.collections {
        // A paused collection (ttl_pause) loses nothing, not even its archive's delete tier.
        let Some(ttl) = ttl.filter(|t| !t.paused) else { continue };
        // An archive tier offers each document with its delete tier; without one, with its
        // expiry.
        let (after, archive) = match ttl.archive_until {
            Some(until) => (until, Some(ArchiveId::Collection(name))),
            None => (ttl.expire_after, None),
        };
        // A chain that names hand-offs (YDB): only those tiers go to onExpire, in order.
        let chain = !ttl.hand_off.is_empty();
        let at = |i: u32| chain.then_some(i);
        let doc_offer = |after, archive, i, step| OfferPlan {
            kind: OfferKind::Document,
            name: Some(name),
            after,
            archive,
            hands_off: ttl.hands_off(i),
            tier: at(i),
            step,
            through_archive: chain,
        };
        let offer = ((hook && ttl.hands_off(0)) || archive.is_some()).then_some(doc_offer(after, archive, 0, None));
        turns.push(Turn { whose: Whose::Collection(name), through_ms: ttl.expired_through_ms(now_ms), offer });
        // The archive tiers after the first that hand off, each over the archive.
        let mut passed = 0;
        for (i, w) in (1..).zip(&ttl.middle) {
            if hook && chain && ttl.hands_off(i) {
                let step = Some(TierStep { from: passed, to: Some(i) });
                archives.push(Turn { whose: Whose::Tier(name, i), through_ms: w.before(now_ms), offer: Some(doc_offer(after, None, i, step)) });
                passed = i;
            }
        }
        // The delete tier: a plain range delete, unless it hands off or an earlier archive tier
        // did (then it takes only the records past that tier's hand-off).
        let through_ms = ttl.archive_through_ms(now_ms).unwrap_or(now_ms);
        let d = 1 + ttl.middle.len() as u32;
        let offers = chain && ttl.archive_until.is_some_and(|u| u != crate::core::ttl_index::FOREVER) && ((hook && ttl.hands_off(d)) || passed > 0);
        let offer = offers.then(|| doc_offer(after, None, d, Some(TierStep { from: passed, to: None })));
        archives.push(Turn { whose: Whose::Archive(ArchiveId::Collection(name)), through_ms, offer });
    }
    #[cfg(feature = "full")]
    for &(name, options) in &input.series {
        let Some(through_ms) = options.expired_through_ms(now_ms) else { continue };
        let after = options.expire_after.unwrap_or(Window::secs(0.0));
        let offer = hook.then_some(OfferPlan { kind: OfferKind::Events, name: Some(name), after, archive: None, hands_off: true, tier: None, step: None, through_archive: false });
        turns.push(Turn { whose: Whose::Series(name), through_ms, offer });
    }
    turns.extend(archives);
    turns
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

/// One collection's reaper counters in this member (CockroachDB's `ttl_label_metrics`): what
/// its turns removed, when one last ran, and the time they spent looking records up and
/// deleting them.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CollectionCounters {
    /// Documents its turns removed (moved to the archive included).
    pub removed_total: u32,
    /// The start of the last pass that ran its turn (Unix ms).
    pub last_run_at_ms: Option<f64>,
    /// Milliseconds spent looking up expired documents.
    pub select_ms: f64,
    /// Milliseconds spent deleting them.
    pub delete_ms: f64,
}

impl CollectionCounters {
    /// Counts one turn of a pass started at `at_ms`.
    pub fn record(&mut self, at_ms: f64, removed: u32, (select_ms, delete_ms): (f64, f64)) {
        self.removed_total += removed;
        self.last_run_at_ms = Some(at_ms);
        self.select_ms += select_ms;
        self.delete_ms += delete_ms;
    }
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

    /// Plans over collections and series: the default entry's (the lite entry plans entries alone).
    #[cfg(feature = "full")]
    mod plan {
        use super::super::*;
        use crate::core::buckets::Granularity;
        use crate::core::ttl_index::TimeUnit;

        const T: f64 = 1_798_761_600_000.0; // 2027-01-01T00:00:00Z
        const MIN: f64 = 60_000.0;
        const HOUR: f64 = 3_600_000.0;
        const DAY: f64 = 24.0 * HOUR;

        fn ttl(expire_after_secs: f64, archive_until_secs: Option<f64>) -> TtlIndex {
            let (expire_after, archive_until) = (Window::secs(expire_after_secs), archive_until_secs.map(Window::secs));
            let (middle, hand_off) = (Vec::new(), Vec::new());
            TtlIndex { field: "at".into(), automatic: false, expire_after, unit: TimeUnit::Seconds, archive_until, middle, hand_off, schedule: None, paused: false }
        }

        fn series(expire_after_secs: Option<f64>) -> SeriesOptions {
            let expire_after = expire_after_secs.map(Window::secs);
            SeriesOptions { time_field: "ts".into(), meta_field: None, granularity: Granularity::Minutes, max_bucket_bytes: 128_000, expire_after }
        }

        fn plain(whose: Whose<'static>, through_ms: f64) -> Turn<'static> {
            Turn { whose, through_ms, offer: None }
        }

        fn offered(whose: Whose<'static>, through_ms: f64, kind: OfferKind, after_ms: f64, archive: Option<ArchiveId<'static>>) -> Turn<'static> {
            let name = match whose {
                Whose::Collection(n) | Whose::Series(n) => Some(n),
                _ => None,
            };
            let after = Window { months: 0, ms: after_ms };
            Turn { whose, through_ms, offer: Some(OfferPlan { kind, name, after, archive, hands_off: true, tier: None, step: None, through_archive: false }) }
        }

        use ArchiveId as A;
        use OfferKind::{Document, Entry, Events};
        use Whose::{Archive, Collection, Entries, Series};

        #[test]
        fn turns_follow_the_hook_and_the_archives() {
            let (minute, tiered, forever) = (ttl(60.0, None), ttl(60.0, Some(3_600.0)), ttl(60.0, Some(f64::INFINITY)));
            let (hourly, endless) = (series(Some(3_600.0)), series(None));
            let input = |hook, archive_for_ms, collections, series| PassInput { hook, archive_for_ms, collections, series };
            // (case, input, expected turns in order)
            let table: Vec<(&str, PassInput<'_>, Vec<Turn<'_>>)> = vec![
                (
                    "nothing defined: the entries and their (empty) archive",
                    input(false, None, vec![], vec![]),
                    vec![plain(Entries, T), plain(Archive(A::Entries), T)],
                ),
                (
                    "no hook, no archive: plain range deletes",
                    input(false, None, vec![("docs", Some(&minute))], vec![("events", &hourly)]),
                    vec![
                        plain(Entries, T),
                        plain(Collection("docs"), T - MIN),
                        plain(Series("events"), T - HOUR),
                        plain(Archive(A::Entries), T),
                        plain(Archive(A::Collection("docs")), T),
                    ],
                ),
                (
                    "a hook only: every live turn is offered, nothing archived",
                    input(true, None, vec![("docs", Some(&minute))], vec![("events", &hourly)]),
                    vec![
                        offered(Entries, T, Entry, 0.0, None),
                        offered(Collection("docs"), T - MIN, Document, MIN, None),
                        offered(Series("events"), T - HOUR, Events, HOUR, None),
                        plain(Archive(A::Entries), T),
                        plain(Archive(A::Collection("docs")), T),
                    ],
                ),
                (
                    "archiveFor on the entries, no hook: the entries move to archive 0",
                    input(false, Some(DAY), vec![], vec![]),
                    vec![offered(Entries, T, Entry, DAY, Some(A::Entries)), plain(Archive(A::Entries), T - DAY)],
                ),
                (
                    "archiveFor and a hook",
                    input(true, Some(DAY), vec![], vec![]),
                    vec![offered(Entries, T, Entry, DAY, Some(A::Entries)), plain(Archive(A::Entries), T - DAY)],
                ),
                (
                    "an archive tier moves documents, offered with their delete tier; none deletes them",
                    input(false, None, vec![("tiered", Some(&tiered)), ("plain", Some(&minute))], vec![]),
                    vec![
                        plain(Entries, T),
                        offered(Collection("tiered"), T - MIN, Document, HOUR, Some(A::Collection("tiered"))),
                        plain(Collection("plain"), T - MIN),
                        plain(Archive(A::Entries), T),
                        plain(Archive(A::Collection("tiered")), T - HOUR),
                        plain(Archive(A::Collection("plain")), T),
                    ],
                ),
                (
                    "an archive tier without delete tier keeps its archive",
                    input(true, None, vec![("kept", Some(&forever))], vec![]),
                    vec![
                        offered(Entries, T, Entry, 0.0, None),
                        offered(Collection("kept"), T - MIN, Document, f64::INFINITY, Some(A::Collection("kept"))),
                        plain(Archive(A::Entries), T),
                        plain(Archive(A::Collection("kept")), f64::NEG_INFINITY),
                    ],
                ),
                (
                    "a collection without TTL index and a series without expireAfter have no turn",
                    input(true, None, vec![("untimed", None)], vec![("endless", &endless)]),
                    vec![offered(Entries, T, Entry, 0.0, None), plain(Archive(A::Entries), T)],
                ),
                (
                    "collections in the given order, then series, then every archive",
                    input(
                        false,
                        Some(MIN),
                        vec![("b", Some(&minute)), ("untimed", None), ("a", Some(&tiered))],
                        vec![("z", &hourly), ("endless", &endless), ("y", &hourly)],
                    ),
                    vec![
                        offered(Entries, T, Entry, MIN, Some(A::Entries)),
                        plain(Collection("b"), T - MIN),
                        offered(Collection("a"), T - MIN, Document, HOUR, Some(A::Collection("a"))),
                        plain(Series("z"), T - HOUR),
                        plain(Series("y"), T - HOUR),
                        plain(Archive(A::Entries), T - MIN),
                        plain(Archive(A::Collection("b")), T),
                        plain(Archive(A::Collection("a")), T - HOUR),
                    ],
                ),
            ];
            for (case, input, want) in table {
                assert_eq!(plan_pass(&input, T), want, "{case}");
            }
        }

        #[test]
        fn archive_turns_come_last_and_only_they_are_not_live() {
            let (minute, hourly) = (ttl(60.0, Some(120.0)), series(Some(1.0)));
            let input = PassInput { hook: true, archive_for_ms: Some(MIN), collections: vec![("c", Some(&minute))], series: vec![("s", &hourly)] };
            let live: Vec<bool> = plan_pass(&input, T).iter().map(Turn::is_live).collect();
            assert_eq!(live, [true, true, true, false, false]);
            assert!(plan_pass(&input, T).iter().all(|t| t.is_live() != t.offer.is_none()), "archive turns offer nothing, live ones here all do");
        }

        #[test]
        fn a_chain_of_tiers_hands_off_only_where_it_says_in_order_and_never_skips_one() {
            use crate::core::ttl_index::{tiers_windows, TierAction::{Archive as A_, Delete}};
            let mut chain = ttl(60.0, None);
            let w = |ms: f64| Window { months: 0, ms };
            chain.set_tiers(tiers_windows(&[(w(MIN), A_, true), (w(HOUR), A_, false), (w(2.0 * HOUR), A_, true), (w(DAY), Delete, false)]).unwrap());
            let doc = |after, archive, hands_off, tier, step| Some(OfferPlan { kind: Document, name: Some("c"), after, archive, hands_off, tier: Some(tier), step, through_archive: true });
            let with_hook = PassInput { hook: true, archive_for_ms: None, collections: vec![("c", Some(&chain))], series: vec![] };
            let want = vec![
                offered(Entries, T, Entry, 0.0, None),
                Turn { whose: Collection("c"), through_ms: T - MIN, offer: doc(w(DAY), Some(A::Collection("c")), true, 0, None) },
                plain(Archive(A::Entries), T),
                Turn { whose: Whose::Tier("c", 2), through_ms: T - 2.0 * HOUR, offer: doc(w(DAY), None, true, 2, Some(TierStep { from: 0, to: Some(2) })) },
                // The delete tier hands nothing off, but takes only what passed tier 2's hand-off.
                Turn { whose: Archive(A::Collection("c")), through_ms: T - DAY, offer: doc(w(DAY), None, false, 3, Some(TierStep { from: 2, to: None })) },
            ];
            assert_eq!(plan_pass(&with_hook, T), want);
            // Without a hook, nothing is handed off: archived, then deleted by range.
            let no_hook = PassInput { hook: false, ..with_hook };
            let turns = plan_pass(&no_hook, T);
            assert_eq!(turns.len(), 4);
            assert_eq!(turns[3], plain(Archive(A::Collection("c")), T - DAY));
        }

        #[test]
        fn a_paused_collection_has_no_turn_not_even_its_archive_s() {
            let mut paused = ttl(60.0, Some(3_600.0));
            paused.paused = true;
            let running = ttl(60.0, None);
            let input = PassInput { hook: false, archive_for_ms: None, collections: vec![("p", Some(&paused)), ("r", Some(&running))], series: vec![] };
            let whose: Vec<Whose<'_>> = plan_pass(&input, T).iter().map(|t| t.whose).collect();
            assert_eq!(whose, [Whose::Entries, Whose::Collection("r"), Whose::Archive(ArchiveId::Entries), Whose::Archive(ArchiveId::Collection("r"))]);
        }

        #[test]
        fn cutoffs_move_with_now() {
            let (minute, hourly) = (ttl(60.0, Some(3_600.0)), series(Some(3_600.0)));
            let input = PassInput { hook: false, archive_for_ms: Some(DAY), collections: vec![("c", Some(&minute))], series: vec![("s", &hourly)] };
            // (now, expected cut-off of each turn in order)
            let table = [
                (T, [T, T - MIN, T - HOUR, T - DAY, T - HOUR]),
                (T + 1_500.0, [T + 1_500.0, T + 1_500.0 - MIN, T + 1_500.0 - HOUR, T + 1_500.0 - DAY, T + 1_500.0 - HOUR]),
                (0.0, [0.0, -MIN, -HOUR, -DAY, -HOUR]),
            ];
            for (now, want) in table {
                let got: Vec<f64> = plan_pass(&input, now).iter().map(|t| t.through_ms).collect();
                assert_eq!(got, want, "now {now}");
            }
        }
    }
}
