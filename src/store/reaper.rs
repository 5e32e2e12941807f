//! The reaper in this member: `reap()` runs one pass, planned by `core::reaper::plan_pass` and
//! driven turn by turn, batch by batch, over the adapter's ranges; the background timer; pause,
//! resume and the counters.

use std::rc::{Rc, Weak};

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

use super::{plain_object, Inner, Store};
use crate::core::error::{Error, Result};
use crate::core::reaper::{next_pass_in_ms, plan_pass, ArchiveId, OfferKind, PassInput, ReapLimits, ReapReport, ReaperStats, Turn, Whose};
#[cfg(feature = "full")]
use crate::idb::Definition;
use crate::idb::{Conn, Expired, Offer};
use crate::timer::{now_ms, sleep, ReaperTimer};

impl Store {
    /// Runs one reaper pass now: removes what was expired at the start of the pass (entries, then
    /// the documents of each collection with a TTL index, then the whole expired buckets of each
    /// time series) in batches of `batch_size`, at most `max_removes_per_run` records in all and
    /// `max_removes_per_collection` from any one, then fires `"expired"`.
    ///
    /// With `onExpire`, each batch is offered to it first; if it fails, the pass stops there
    /// (what it offered stays), an `"error"` event carries the `HandOffError`, and the report
    /// says `handOffFailed` (the background passes back off while it keeps failing).
    ///
    /// One pass at a time in this member: a `reap()` called while another pass runs (the
    /// background one, or another `reap()`) waits for it to end first, so this member never
    /// offers the same records twice at once.
    pub async fn reap(&self) -> Result<ReapReport> {
        self.reap_as(false).await
    }

    /// A pass; `background` for the timer's, which reaps a collection with a `schedule` only
    /// when a run of it is due (`reap()` runs everything now).
    async fn reap_as(&self, background: bool) -> Result<ReapReport> {
        while self.0.reaping.get() {
            sleep(PASS_WAIT_MS).await;
        }
        self.0.reaping.set(true);
        let result = self.pass(background).await;
        self.0.reaping.set(false);
        let (report, detail, failure, stopped) = result?;
        let backed_off = self.0.stats.borrow().failed_in_a_row > 0;
        self.0.stats.borrow_mut().record(&report, now_ms());
        if backed_off && !report.hand_off_failed && self.0.timer.borrow().is_some() {
            // The hook answers again: background passes come at their interval from now on, not
            // after what is left of the back-off.
            self.start_timer();
        }
        if report.removed > 0 {
            self.emit("expired", &detail);
        }
        if let Some(e) = failure {
            let records = match &e {
                Error::HandOff { records, .. } => *records,
                _ => 0,
            };
            self.emit("error", &plain_object(&[("error", e.into_js()), ("records", records.into())]));
        }
        // A pass stopped by its call's signal: what it removed stays removed, counted and
        // announced above; the call rejects.
        if stopped {
            return Err(Error::Aborted);
        }
        Ok(report)
    }

    async fn pass(&self, background: bool) -> Result<(ReapReport, JsValue, Option<Error>, bool)> {
        // What this member's reads extended is written first: it never reaps an entry it read.
        self.extend_now().await;
        // What expired encryption keys encrypted goes, as expired entries do.
        self.sweep_expired_keys().await?;
        let conn = self.live().await?;
        let limits = self.0.config.limits;
        let started = now_ms();
        let hook = self.hook();
        // Definitions are read afresh: another tab may have created or changed a collection.
        #[cfg(feature = "full")]
        let defs = conn.definitions().await?;
        // The lite entry reaps entries alone: a database that came to hold more (a member of the
        // default entry made a collection) fails the pass, and this member stops leading, so
        // that one of the default entry reaps it all.
        #[cfg(not(feature = "full"))]
        if let Err(e) = Store::lite_fits(&self.0.name, &conn).await {
            self.pause_reaper();
            return Err(e);
        }
        // Scheduled collections (ttl_job_cron) whose run is not due wait; `due` are the runs
        // this pass makes.
        #[cfg(feature = "full")]
        let (not_due, mut due) = scheduled_runs(&conn, &defs, background, started).await?;
        #[cfg(not(feature = "full"))]
        let _ = background;
        // Which turns, in which order, offered or archived how: core's plan, over these
        // definitions.
        let input = PassInput {
            hook: hook.is_some(),
            archive_for_ms: self.archive_for_ms(),
            #[cfg(feature = "full")]
            collections: defs
                .iter()
                .filter_map(|d| match d {
                    Definition::Collection { name, ttl, .. } => Some((name.as_str(), ttl.as_ref().filter(|_| !not_due.contains(&name.as_str())))),
                    Definition::Series { .. } => None,
                })
                .collect(),
            #[cfg(feature = "full")]
            series: defs
                .iter()
                .filter_map(|d| match d {
                    Definition::Series { name, options } => Some((name.as_str(), options)),
                    Definition::Collection { .. } => None,
                })
                .collect(),
            #[cfg(not(feature = "full"))]
            entries_only: core::marker::PhantomData,
        };
        let plan = plan_pass(&input, started);
        let turns: Vec<(&Turn<'_>, Expired)> = plan.iter().map(|turn| (turn, expired(turn, hook, started))).collect();
        if crate::long::tracked() {
            let all: Vec<&Expired> = turns.iter().map(|t| &t.1).collect();
            crate::long::total(conn.count_expired(&all).await?);
        }
        let mut report = ReapReport::default();
        let (mut removed, mut capped, mut failure, mut stopped) = (0u32, false, None, false);
        let (mut keys, doc_ids, buckets) = (JsValue::UNDEFINED, Object::new(), Object::new());
        for (turn, expired) in &turns {
            // After a failed hand-off the live turns wait for the next pass; the archives' delete
            // tiers, which offer nothing, still run. A stopped pass stops.
            if stopped {
                break;
            }
            // The hand-offs of a chain's later tiers wait too.
            let hands_off = hook.is_some() && turn.offer.is_some_and(|o| o.hands_off);
            if failure.is_some() && (turn.is_live() || hands_off) {
                continue;
            }
            let ids = Array::new();
            let before = removed;
            let (here, hit) = match drain(&conn, limits, &mut removed, expired, &ids).await {
                Ok(done) => done,
                // onExpire failed: what it was offered stays; so does everything after it.
                Err(e @ Error::HandOff { .. }) => {
                    failure = Some(e);
                    (removed - before, true)
                }
                Err(Error::Aborted) => {
                    stopped = true;
                    (removed - before, true)
                }
                Err(e) => return Err(e),
            };
            capped |= hit;
            // A scheduled run that a cap cut short stays due, so the next pass goes on with it.
            #[cfg(feature = "full")]
            if let (true, Whose::Collection(name)) = (hit, turn.whose) {
                due.retain(|key| *key != reaped_key(name));
            }
            if hands_off {
                report.handed_off += here;
            }
            if !turn.is_live() {
                // Not live data: counted apart, and no "expired" event (a chain's later tier
                // keeps its records archived: nothing removed).
                removed -= here;
                if !matches!(turn.whose, Whose::Tier(..)) {
                    report.archive_removed += here;
                }
                continue;
            }
            report.archived += expired.archived_so_far();
            match turn.whose {
                Whose::Entries => keys = ids.into(),
                Whose::Collection(name) => {
                    #[cfg(feature = "full")]
                    self.0.collection_stats.borrow_mut().entry(name.to_owned()).or_default().record(started, here, expired.timings());
                    if here > 0 {
                        report.collections.push((name.to_owned(), here));
                        let _ = Reflect::set(&doc_ids, &name.into(), &ids);
                    }
                }
                Whose::Series(name) if here > 0 => {
                    report.buckets.push((name.to_owned(), here));
                    let _ = Reflect::set(&buckets, &name.into(), &here.into());
                }
                _ => {}
            }
        }
        report.hand_off_failed = failure.is_some();
        // Only a pass stopped by a cap or a failed hand-off can have left expired records behind
        // (the archive's are not counted: they are no longer live data).
        // (A stopped pass counts nothing more: the call rejects without its report.)
        report.remaining = if capped && !stopped {
            let live_turns: Vec<&Expired> = turns.iter().filter(|t| t.0.is_live()).map(|t| &t.1).collect();
            conn.count_expired(&live_turns).await?
        } else {
            0
        };
        #[cfg(feature = "full")]
        for key in &due {
            conn.put_meta_number(key, started).await?;
        }
        report.removed = removed;
        // The wall clock may have stepped back during the pass (an NTP correction): never negative.
        report.duration_ms = (now_ms() - started).max(0.0);
        let detail = plain_object(&[("keys", keys), ("collections", doc_ids.into()), ("timeSeries", buckets.into())]);
        Ok((report, detail, failure, stopped))
    }

    /// Whether `onExpire` was given.
    pub fn hands_off(&self) -> bool {
        self.hook().is_some()
    }

    /// Reaper counters so far.
    pub fn stats(&self) -> ReaperStats {
        self.0.stats.borrow().clone()
    }

    /// Whether the background reaper is paused.
    pub fn reaper_paused(&self) -> bool {
        self.0.paused.get()
    }

    /// Stops background passes in this member until [`Store::resume_reaper`]; `reap()` still
    /// works. A paused leader hands leadership on, so the other members keep reaping.
    pub fn pause_reaper(&self) {
        self.0.paused.set(true);
        self.0.timer.replace(None);
        self.0.leadership.replace(None);
        self.0.leader.set(false);
    }

    /// Restarts background passes (if the store was opened with `auto_reap`): this member asks
    /// for leadership again.
    pub fn resume_reaper(&self) {
        self.0.paused.set(false);
        if self.0.config.auto_reap && !self.is_closed() && self.0.leadership.borrow().is_none() && !self.0.leader.get() {
            self.seek_leadership();
        }
    }

    pub(super) fn start_timer(&self) {
        let weak: Weak<Inner> = Rc::downgrade(&self.0);
        let interval = self.0.config.reap_interval_ms;
        let timer = ReaperTimer::start(interval, move || {
            let weak = weak.clone();
            async move {
                let store = Store(weak.upgrade()?);
                // A reap() call under way counts as this pass.
                if !store.0.reaping.get() {
                    if let Err(e) = store.reap_as(true).await {
                        store.emit("error", &plain_object(&[("error", e.into_js())]));
                    }
                }
                let stats = store.0.stats.borrow();
                let next = next_pass_in_ms(interval, stats.last_run.as_ref(), stats.failed_in_a_row);
                Some(next)
            }
        });
        self.0.timer.replace(Some(timer));
    }
}

/// Which scheduled collections (CockroachDB's `ttl_job_cron`) a pass leaves alone because no
/// run of theirs is due, and the `meta` keys of those it runs (to be stamped with its start). A
/// background pass reaps one only when a run is due, one missed while no member was open
/// included; the first pass that sees a schedule starts its clock. `reap()` runs everything.
#[cfg(feature = "full")]
async fn scheduled_runs<'d>(conn: &Conn, defs: &'d [Definition], background: bool, started: f64) -> Result<(Vec<&'d str>, Vec<String>)> {
    let (mut not_due, mut due) = (Vec::new(), Vec::new());
    for d in defs {
        if let Definition::Collection { name, ttl: Some(t), .. } = d {
            let Some(schedule) = t.schedule.as_ref().filter(|_| background && !t.paused) else { continue };
            let key = reaped_key(name);
            match conn.meta_number(&key).await? {
                Some(last) if schedule.next_after(last).is_some_and(|next| next <= started) => due.push(key),
                Some(_) => not_due.push(name.as_str()),
                None => {
                    conn.put_meta_number(&key, started).await?;
                    not_due.push(name.as_str());
                }
            }
        }
    }
    Ok((not_due, due))
}

/// The `meta` key keeping when scheduled collection `name` was last reaped (Unix ms).
pub(super) fn reaped_key(name: &str) -> String {
    format!("reaped:{name}")
}

/// How often a `reap()` waiting for another pass of this member looks again.
const PASS_WAIT_MS: f64 = 10.0;

/// The `c` of the key-value entries' records in the archive store (collections use their name).
const ENTRIES_ARCHIVE: f64 = 0.0;

/// The adapter's range for one turn of the plan, offered as the plan says (`now`: the pass's
/// start).
fn expired(turn: &Turn<'_>, hook: Option<&js_sys::Function>, now: f64) -> Expired {
    let expired = match turn.whose {
        Whose::Entries => Expired::entries(turn.through_ms),
        Whose::Collection(name) => Expired::docs(name, turn.through_ms),
        Whose::Series(name) => Expired::buckets(name, turn.through_ms),
        Whose::Archive(id) => Expired::archived(&archive_c(id), turn.through_ms),
        Whose::Tier(name, _) => Expired::archived(&JsValue::from_str(name), turn.through_ms),
    };
    let Some(plan) = &turn.offer else { return expired };
    let kind = match plan.kind {
        OfferKind::Entry => "entry",
        OfferKind::Document => "document",
        OfferKind::Events => "events",
    };
    let hook = hook.filter(|_| plan.hands_off);
    expired.offered(Offer { kind, name: plan.name, after: plan.after, archive: plan.archive.map(archive_c), hook, now, tier: plan.tier, step: plan.step, through_archive: plan.through_archive })
}

/// The `c` an archive's records are stored under.
fn archive_c(id: ArchiveId<'_>) -> JsValue {
    match id {
        ArchiveId::Entries => JsValue::from_f64(ENTRIES_ARCHIVE),
        ArchiveId::Collection(name) => JsValue::from_str(name),
    }
}

/// Removes `expired`'s records batch by batch under the pass's caps and its rate limit,
/// pushing the removed keys or ids onto `removed_ids` (for buckets, their series' name:
/// unused). Returns how many were removed here and whether a cap (rather than running out of
/// expired records) ended the turn.
async fn drain(conn: &Conn, limits: ReapLimits, removed_in_pass: &mut u32, expired: &Expired, removed_ids: &Array) -> Result<(u32, bool)> {
    let (mut here, mut batches) = (0, 0);
    loop {
        let limit = limits.next_batch(*removed_in_pass, here, batches);
        batches += 1;
        if limit == 0 {
            return Ok((here, true));
        }
        crate::long::check()?;
        let started = now_ms();
        // A batch failing because its call was stopped (its transaction aborted): stopped, and
        // the keys it read are not removed.
        let had = removed_ids.length();
        let n = conn.reap(expired, limit, limits.select_batch_size, removed_ids).await.map_err(|e| {
            removed_ids.set_length(had);
            crate::long::check().err().unwrap_or(e)
        })?;
        crate::long::advance(n);
        here += n;
        *removed_in_pass += n;
        if n < limit {
            return Ok((here, false));
        }
        // maxRemovesPerSecond: wait out what is left of this batch's share of the second.
        let pause = limits.pause_after_ms(n, now_ms() - started);
        if pause > 0.0 {
            sleep(pause).await;
        }
    }
}
