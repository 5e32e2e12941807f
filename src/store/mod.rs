//! The store as Rust sees it: one connection, the reaper's state and events, and every
//! operation of the `TtlStore` API in Rust terms. `js/` converts JS arguments into these calls;
//! the browser tests can call them directly.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::{CustomEvent, CustomEventInit, EventTarget};

use crate::core::buckets::SeriesOptions;
use crate::core::config::StoreConfig;
use crate::core::entry::{ExpirySpec, NEVER_MS};
use crate::core::error::{Error, Result};
use crate::core::reaper::{next_pass_in_ms, plan_pass, ArchiveId, OfferKind, PassInput, ReapLimits, ReapReport, ReaperStats, Turn, Whose};
use crate::idb::{Cap, Conn, Definition, Expired, ExpiryChange, Offer, Write};
use crate::channel::Channel;
use crate::timer::{now_ms, sleep, Leadership, ReaperTimer};

mod backup;
mod collection;
mod series;
mod watch;

pub use collection::{Collection, DocIn, DocReader};
pub use backup::{ImportInput, ImportReport, SnapshotData};
pub use series::Series;

/// The events a store dispatches.
pub const EVENT_TYPES: [&str; 4] = ["expired", "change", "error", "evicted"];

/// An open store. Cloning shares it.
#[derive(Debug, Clone)]
pub struct Store(Rc<Inner>);

#[derive(Debug)]
struct Inner {
    name: String,
    config: StoreConfig,
    /// `onExpire`: awaited before expired records leave the live data.
    hook: Option<js_sys::Function>,
    conn: RefCell<Option<Rc<Conn>>>,
    /// Whether `open` created the database.
    created: Cell<bool>,
    closed_why: RefCell<String>,
    stats: RefCell<ReaperStats>,
    paused: Cell<bool>,
    reaping: Cell<bool>,
    /// Whether this member runs the background passes (it holds the reaper lock, or there are
    /// no Web Locks here).
    leader: Cell<bool>,
    /// The request for, or the hold on, the reaper lock; dropping it hands leadership on.
    leadership: RefCell<Option<Leadership>>,
    timer: RefCell<Option<ReaperTimer>>,
    events: EventTarget,
    /// The other members of this database: their events and definition changes.
    channel: RefCell<Option<Channel>>,
    /// One definition per collection / time series, shared by every handle this store gives out,
    /// so a change made through one handle is seen by all.
    collections: RefCell<HashMap<String, Rc<RefCell<collection::State>>>>,
    series: RefCell<HashMap<String, Rc<RefCell<SeriesOptions>>>>,
    /// `watch(key, listener)`: the watched keys, their listeners and the one expiry timer.
    watching: RefCell<Option<watch::Watching>>,
}

impl Store {
    /// Opens (creating if needed) the database `name` and starts the reaper if `auto_reap`.
    pub async fn open(name: &str, config: StoreConfig, hook: Option<js_sys::Function>) -> Result<Store> {
        let events = EventTarget::new().map_err(|e| Error::Storage {
            op: "creating the event target".into(),
            name: "Error".into(),
            message: crate::idb::thrown_text(&e),
        })?;
        let inner = Rc::new(Inner {
            name: name.to_owned(),
            config,
            hook,
            conn: RefCell::new(None),
            created: Cell::new(false),
            closed_why: RefCell::new(String::new()),
            stats: RefCell::new(ReaperStats::default()),
            paused: Cell::new(false),
            reaping: Cell::new(false),
            leader: Cell::new(false),
            leadership: RefCell::new(None),
            timer: RefCell::new(None),
            events,
            channel: RefCell::new(None),
            collections: RefCell::new(HashMap::new()),
            series: RefCell::new(HashMap::new()),
            watching: RefCell::new(None),
        });
        let weak = Rc::downgrade(&inner);
        let conn = Conn::open(name, inner.config.timeout_ms, move |why| {
            if let Some(inner) = weak.upgrade() {
                Store(inner).shut(why);
            }
        })
        .await?;
        inner.created.set(conn.created());
        inner.conn.replace(Some(Rc::new(conn)));
        let store = Store(inner);
        store.join_channel();
        if store.0.config.auto_reap {
            store.seek_leadership();
        }
        Ok(store)
    }

    /// Deletes the database `name` and everything in it.
    pub async fn destroy(name: &str) -> Result<()> {
        Conn::destroy(name).await
    }

    /// The database name.
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// Whether `open` created the database (see [`Conn::created`]).
    pub fn is_new(&self) -> bool {
        self.0.created.get()
    }

    /// `Some(the browser's message)` when the browser had deleted a corrupt database and this
    /// open created it again (Chromium's `dataLoss: "total"`).
    pub fn data_loss(&self) -> Option<String> {
        self.conn().ok().and_then(|c| c.data_loss().map(str::to_owned))
    }

    /// The options the store was opened with.
    pub fn config(&self) -> &StoreConfig {
        &self.0.config
    }

    fn conn(&self) -> Result<Rc<Conn>> {
        self.0.conn.borrow().clone().ok_or_else(|| Error::Closed {
            db: self.0.name.clone(),
            why: self.0.closed_why.borrow().clone(),
        })
    }

    /// Stops the reaper and closes the connection; later calls fail with a `Closed` error.
    pub fn close(&self) {
        if let Some(conn) = self.0.conn.borrow().as_ref() {
            conn.close();
        }
        self.shut("close() was called");
    }

    fn shut(&self, why: &str) {
        self.0.timer.replace(None);
        self.0.leadership.replace(None);
        self.0.leader.set(false);
        self.0.channel.replace(None);
        self.0.watching.replace(None);
        if self.0.conn.replace(None).is_some() {
            self.0.closed_why.replace(why.to_owned());
        }
    }

    /// Whether `close()` was called or someone else closed the connection.
    pub fn is_closed(&self) -> bool {
        self.0.conn.borrow().is_none()
    }

    /// Writes `key`; see [`ExpirySpec`] for the options.
    pub async fn set(&self, key: JsValue, value: JsValue, spec: ExpirySpec) -> Result<()> {
        let keys = Array::of1(&key);
        self.set_many(vec![Write { key, value, spec }]).await?;
        self.emit_change("set", keys);
        Ok(())
    }

    /// Writes all of `writes` in one transaction, or none of them.
    /// Under `evictOnQuota`, a write the browser refuses for space is retried after rounds of
    /// eviction (see [`Store::evict_and_retry`]).
    pub async fn set_many(&self, writes: Vec<Write>) -> Result<()> {
        let conn = self.conn()?;
        let mut done = conn.write(&writes, self.0.config.default_ttl.as_ref(), self.cap(), now_ms()).await;
        if self.0.config.evict_on_quota && matches!(done, Err(Error::QuotaExceeded { .. })) {
            done = self.evict_and_retry(&conn, &writes, done).await;
        }
        self.evicted(done?, "maxEntries");
        Ok(())
    }

    /// lscache's policy for a write refused for space: evict (expired entries first, unless
    /// they wait for onExpire or the archive, then the soonest to expire; never one without expiry nor one of
    /// the write's keys) 1, 2, 4... times as many entries as the write puts, retrying after each
    /// round, until it fits or nothing is left to evict. What went is one `"evicted"` event
    /// (reason `"quota"`); a write still refused says how much was evicted.
    async fn evict_and_retry(&self, conn: &Conn, writes: &[Write], refused: Result<Array>) -> Result<Array> {
        let own: Array = writes.iter().map(|w| w.key.clone()).collect();
        let mut gone = Array::new();
        let mut done = refused;
        for round in 0..MAX_EVICT_ROUNDS {
            let n = (writes.len().max(1) as u32).saturating_mul(1 << round);
            let evicted = conn.make_room(n, &own, self.expired_wait(), now_ms()).await?;
            if evicted.length() == 0 {
                break;
            }
            gone = gone.concat(&evicted);
            done = conn.write(writes, self.0.config.default_ttl.as_ref(), self.cap(), now_ms()).await;
            if !matches!(done, Err(Error::QuotaExceeded { .. })) {
                break;
            }
        }
        self.evicted(gone.clone(), "quota");
        done.map_err(|e| match e {
            Error::QuotaExceeded { op, message } => Error::QuotaExceeded {
                op,
                message: format!(
                    "{message} (evictOnQuota evicted {} entries and the browser still refused the write; Chromium counts freed space back only after its storage compacts, so a later retry may fit)",
                    gone.length()
                ),
            },
            e => e,
        })
    }

    /// `maxEntries` as writes apply it.
    fn cap(&self) -> Option<Cap> {
        self.0.config.max_entries.map(|max| Cap { max, live_only: self.expired_wait() })
    }

    /// Whether expired entries wait for the reaper (to be offered to onExpire or archived), so
    /// that neither a cap nor the quota may delete them first.
    fn expired_wait(&self) -> bool {
        self.0.hook.is_some() || self.0.config.archive_for_ms.is_some()
    }

    /// Counts and announces (`"evicted"`, here and in every member) entries a write evicted.
    fn evicted(&self, keys: Array, reason: &str) {
        if keys.length() > 0 {
            self.0.stats.borrow_mut().evicted_total += u64::from(keys.length());
            self.emit("evicted", &plain_object(&[("keys", keys.into()), ("reason", JsValue::from_str(reason))]));
        }
    }

    /// `set_many` followed by its `"change"` event (`set` fires its own with op `"set"`).
    pub async fn set_many_and_notify(&self, writes: Vec<Write>) -> Result<()> {
        let keys: Array = writes.iter().map(|w| w.key.clone()).collect();
        self.set_many(writes).await?;
        self.emit_change("setMany", keys);
        Ok(())
    }

    /// The live value, `undefined` if missing or expired.
    pub async fn get(&self, key: &JsValue) -> Result<JsValue> {
        self.conn()?.get(key, now_ms()).await
    }

    /// Whether `key` has a live entry.
    pub async fn has(&self, key: &JsValue) -> Result<bool> {
        Ok(self.conn()?.live_expiry(key, now_ms()).await?.is_some())
    }

    /// Live values in the order of `keys`.
    pub async fn get_many(&self, keys: &Array) -> Result<Array> {
        self.conn()?.get_many(keys, now_ms()).await
    }

    /// Removes `key`; `true` if it was live.
    pub async fn delete(&self, key: JsValue) -> Result<bool> {
        let keys = Array::of1(&key);
        let removed = self.conn()?.delete_many(&keys, now_ms()).await? > 0;
        self.emit_change("delete", keys);
        Ok(removed)
    }

    /// Removes `keys`; how many were live.
    pub async fn delete_many(&self, keys: Array) -> Result<u32> {
        let removed = self.conn()?.delete_many(&keys, now_ms()).await?;
        self.emit_change("deleteMany", keys);
        Ok(removed)
    }

    /// Removes every entry.
    pub async fn clear(&self) -> Result<()> {
        self.conn()?.clear().await?;
        self.emit_change("clear", Array::new());
        Ok(())
    }

    /// Live keys, in key order.
    pub async fn keys(&self) -> Result<Array> {
        self.conn()?.keys(now_ms()).await
    }

    /// Live values, in key order.
    pub async fn values(&self) -> Result<Array> {
        self.conn()?.values(now_ms()).await
    }

    /// Live `[key, value]` pairs, in key order.
    pub async fn entries(&self) -> Result<Array> {
        self.conn()?.entries(now_ms()).await
    }

    /// Number of live entries.
    pub async fn count(&self) -> Result<u32> {
        self.conn()?.count(now_ms()).await
    }

    /// The live entry's expiry in Unix ms: `Some(None)` = no expiry, `None` = missing or expired.
    pub async fn expires_at_ms(&self, key: &JsValue) -> Result<Option<Option<f64>>> {
        let e = self.conn()?.live_expiry(key, now_ms()).await?;
        Ok(e.map(|e| (e != NEVER_MS).then_some(e)))
    }

    /// Milliseconds left: `Some(None)` = no expiry, `None` = missing or expired.
    pub async fn ttl_ms(&self, key: &JsValue) -> Result<Option<Option<f64>>> {
        let now = now_ms();
        let e = self.conn()?.live_expiry(key, now).await?;
        Ok(e.map(|e| (e != NEVER_MS).then_some(e - now)))
    }

    /// Sets a new expiry on a live entry (Redis `EXPIRE`); `false` if missing. An expiry in the
    /// past removes the entry (and still answers `true`).
    pub async fn expire(&self, key: JsValue, spec: &ExpirySpec) -> Result<bool> {
        let changed = self.conn()?.change_expiry(&key, ExpiryChange::Set(spec), now_ms()).await?;
        if changed {
            self.emit_change("expire", Array::of1(&key));
        }
        Ok(changed)
    }

    /// Removes a live entry's expiry (Redis `PERSIST`); `false` if missing or it had none.
    pub async fn persist(&self, key: JsValue) -> Result<bool> {
        let changed = self.conn()?.change_expiry(&key, ExpiryChange::Remove, now_ms()).await?;
        if changed {
            self.emit_change("persist", Array::of1(&key));
        }
        Ok(changed)
    }

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
        while self.0.reaping.get() {
            sleep(PASS_WAIT_MS).await;
        }
        self.0.reaping.set(true);
        let result = self.pass().await;
        self.0.reaping.set(false);
        let (report, detail, failure) = result?;
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
        Ok(report)
    }

    async fn pass(&self) -> Result<(ReapReport, JsValue, Option<Error>)> {
        let conn = self.conn()?;
        let limits = self.0.config.limits;
        let started = now_ms();
        let hook = self.0.hook.as_ref();
        // Definitions are read afresh: another tab may have created or changed a collection.
        let defs = conn.definitions().await?;
        // Which turns, in which order, offered or archived how: core's plan, over these
        // definitions.
        let input = PassInput {
            hook: hook.is_some(),
            archive_for_ms: self.0.config.archive_for_ms,
            collections: defs
                .iter()
                .filter_map(|d| match d {
                    Definition::Collection { name, ttl, .. } => Some((name.as_str(), ttl.as_ref())),
                    Definition::Series { .. } => None,
                })
                .collect(),
            series: defs
                .iter()
                .filter_map(|d| match d {
                    Definition::Series { name, options } => Some((name.as_str(), options)),
                    Definition::Collection { .. } => None,
                })
                .collect(),
        };
        let plan = plan_pass(&input, started);
        let turns: Vec<(&Turn<'_>, Expired)> = plan.iter().map(|turn| (turn, expired(turn, hook, started))).collect();
        let mut report = ReapReport::default();
        let (mut removed, mut capped, mut failure) = (0u32, false, None);
        let (mut keys, doc_ids, buckets) = (JsValue::UNDEFINED, Object::new(), Object::new());
        for (turn, expired) in &turns {
            // After a failed hand-off the live turns wait for the next pass; the archives' delete
            // tiers, which offer nothing, still run.
            if failure.is_some() && turn.is_live() {
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
                Err(e) => return Err(e),
            };
            capped |= hit;
            if !turn.is_live() {
                // Not live data: counted apart, and no "expired" event.
                removed -= here;
                report.archive_removed += here;
                continue;
            }
            if hook.is_some() {
                report.handed_off += here;
            }
            report.archived += expired.archived_so_far();
            match turn.whose {
                Whose::Entries => keys = ids.into(),
                Whose::Collection(name) if here > 0 => {
                    report.collections.push((name.to_owned(), here));
                    let _ = Reflect::set(&doc_ids, &name.into(), &ids);
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
        report.remaining = if capped {
            let live_turns: Vec<Expired> = turns.into_iter().filter(|t| t.0.is_live()).map(|t| t.1).collect();
            conn.count_expired(&live_turns).await?
        } else {
            0
        };
        report.removed = removed;
        // The wall clock may have stepped back during the pass (an NTP correction): never negative.
        report.duration_ms = (now_ms() - started).max(0.0);
        let detail = plain_object(&[("keys", keys), ("collections", doc_ids.into()), ("timeSeries", buckets.into())]);
        Ok((report, detail, failure))
    }

    /// The archived value of `key` (`c`: 0 for the entries, a collection's name), `undefined`
    /// if not archived or past its delete tier, `after_ms` after the time it was keyed by.
    pub async fn archive_get(&self, c: &JsValue, after_ms: f64, key: &JsValue) -> Result<JsValue> {
        self.conn()?.archive_get(c, key, now_ms() - after_ms).await
    }

    /// Archived values not yet at their delete tier, soonest deleted first.
    pub async fn archive_values(&self, c: &JsValue, after_ms: f64) -> Result<Array> {
        self.conn()?.archive_values(c, now_ms() - after_ms).await
    }

    /// How many archived records have not reached their delete tier.
    pub async fn archive_count(&self, c: &JsValue, after_ms: f64) -> Result<u32> {
        self.conn()?.archive_count(c, now_ms() - after_ms).await
    }

    /// How long archived entries stay (`archiveFor`), in ms; 0 without it.
    pub fn entries_archive_ms(&self) -> f64 {
        self.0.config.archive_for_ms.unwrap_or(0.0)
    }

    /// Empties an archive.
    pub async fn archive_clear(&self, c: &JsValue) -> Result<()> {
        self.conn()?.archive_clear(c).await
    }

    /// `navigator.storage.estimate()`'s `usage` and `quota`, with the live and expired entries.
    pub async fn estimate(&self) -> Result<JsValue> {
        self.conn()?.estimate(now_ms()).await
    }

    /// Asks the browser to make the origin's storage persistent (`navigator.storage.persist()`).
    pub async fn persist_storage(&self) -> Result<bool> {
        self.conn()?.persist_storage().await
    }

    /// Whether `onExpire` was given.
    pub fn hands_off(&self) -> bool {
        self.0.hook.is_some()
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

    /// Whether this member runs the background passes for the database.
    pub fn is_leader(&self) -> bool {
        self.0.leader.get()
    }

    /// Asks for the database's reaper lock; the member that holds it runs the background passes
    /// (MongoDB's TTL monitor runs on the primary only). Without Web Locks, every member leads:
    /// safe, since a pass removes only what has expired when it runs.
    fn seek_leadership(&self) {
        let weak: Weak<Inner> = Rc::downgrade(&self.0);
        let lock = Leadership::request(&format!("idb-ttl reaper {}", self.0.name), move || {
            if let Some(inner) = weak.upgrade() {
                Store(inner).lead();
            }
        });
        match lock {
            Some(lock) => {
                self.0.leadership.replace(Some(lock));
            }
            None => self.lead(),
        }
    }

    fn lead(&self) {
        if self.is_closed() || self.0.paused.get() {
            return;
        }
        self.0.leader.set(true);
        self.start_timer();
    }

    fn start_timer(&self) {
        let weak: Weak<Inner> = Rc::downgrade(&self.0);
        let interval = self.0.config.reap_interval_ms;
        let timer = ReaperTimer::start(interval, move || {
            let weak = weak.clone();
            async move {
                let store = Store(weak.upgrade()?);
                // A reap() call under way counts as this pass.
                if !store.0.reaping.get() {
                    if let Err(e) = store.reap().await {
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

    /// The target `addEventListener` forwards to.
    pub fn events(&self) -> &EventTarget {
        &self.0.events
    }

    fn emit_change(&self, op: &str, keys: Array) {
        self.emit("change", &plain_object(&[("op", JsValue::from_str(op)), ("keys", keys.into())]));
    }

    /// A `"change"` event for a write to a collection or time series (`within` names which:
    /// `"collection"` or `"timeSeries"`); `keys` are document ids (empty for events).
    fn emit_change_in(&self, within: &str, name: &str, op: &str, keys: Array) {
        let fields = [("op", JsValue::from_str(op)), ("keys", keys.into()), (within, JsValue::from_str(name))];
        self.emit("change", &plain_object(&fields));
    }

    /// Dispatches `kind` here and, for `"expired"` and `"change"`, in every other member.
    fn emit(&self, kind: &str, detail: &JsValue) {
        if kind != "error" {
            // Before the listeners here run: one of them could change `detail`.
            self.post(kind, detail);
        }
        self.dispatch(kind, detail);
    }

    fn dispatch(&self, kind: &str, detail: &JsValue) {
        let init = CustomEventInit::new();
        init.set_detail(detail);
        if let Ok(event) = CustomEvent::new_with_event_init_dict(kind, &init) {
            // A listener that throws is reported by the browser; it must not fail the write.
            let _ = self.0.events.dispatch_event(&event);
        }
    }
}

impl Store {
    /// Joins the database's channel: other members' events are dispatched here (`members.js`),
    /// their definition changes adopted by [`Store::adopt`].
    fn join_channel(&self) {
        let weak: Weak<Inner> = Rc::downgrade(&self.0);
        let channel = Channel::open(&format!("idb-ttl {}", self.0.name), &self.0.events, move |def| {
            if let (Some(inner), Some(def)) = (weak.upgrade(), Definition::from_js(&def)) {
                Store(inner).adopt(def);
            }
        });
        self.0.channel.replace(channel);
    }

    fn post(&self, kind: &str, detail: &JsValue) {
        if let Some(channel) = self.0.channel.borrow().as_ref() {
            channel.post(kind, detail);
        }
    }

    /// Tells the other members that a collection's or time series' definition changed, so their
    /// handles report and use the new one (the message arrives before the write's `"change"`).
    fn definition_saved(&self, def: &Definition) {
        self.post("definition", &def.to_js());
    }

    /// Another member's definition: every handle of this store uses it from now on.
    fn adopt(&self, def: Definition) {
        match def {
            Definition::Collection { name, ttl, keyed_by, .. } => {
                if let Some(state) = self.0.collections.borrow().get(&name) {
                    state.replace(collection::State::new(ttl, keyed_by));
                }
            }
            Definition::Series { name, options } => {
                if let Some(shared) = self.0.series.borrow().get(&name) {
                    shared.replace(options);
                }
            }
        }
    }
}

/// How often a `reap()` waiting for another pass of this member looks again.
const PASS_WAIT_MS: f64 = 10.0;

/// Rounds of `evictOnQuota` eviction before a write is given up: 1 + 2 + ... + 128 = 255 times
/// the write's entries at most.
const MAX_EVICT_ROUNDS: u32 = 8;

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
    };
    let Some(plan) = &turn.offer else { return expired };
    let kind = match plan.kind {
        OfferKind::Entry => "entry",
        OfferKind::Document => "document",
        OfferKind::Events => "events",
    };
    expired.offered(Offer { kind, name: plan.name, after_ms: plan.after_ms, archive: plan.archive.map(archive_c), hook, now })
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
        let started = now_ms();
        let n = conn.reap(expired, limit, removed_ids).await?;
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

/// A plain JS object with these properties, in this order (event details, reports).
pub fn plain_object(fields: &[(&str, JsValue)]) -> JsValue {
    let obj = Object::new();
    for (k, v) in fields {
        let _ = Reflect::set(&obj, &JsValue::from_str(k), v);
    }
    obj.into()
}
