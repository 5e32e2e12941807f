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
use crate::core::reaper::{next_pass_in_ms, ReapLimits, ReapReport, ReaperStats};
use crate::idb::{Conn, Definition, Expired, ExpiryChange, Write};
use crate::channel::Channel;
use crate::timer::{now_ms, sleep, Leadership, ReaperTimer};

mod backup;
mod collection;
mod series;

pub use collection::{Collection, DocIn};
pub use backup::{ImportInput, ImportReport, SnapshotData};
pub use series::Series;

/// The events a store dispatches.
pub const EVENT_TYPES: [&str; 3] = ["expired", "change", "error"];

/// An open store. Cloning shares it.
#[derive(Debug, Clone)]
pub struct Store(Rc<Inner>);

#[derive(Debug)]
struct Inner {
    name: String,
    config: StoreConfig,
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
}

impl Store {
    /// Opens (creating if needed) the database `name` and starts the reaper if `auto_reap`.
    pub async fn open(name: &str, config: StoreConfig) -> Result<Store> {
        let events = EventTarget::new().map_err(|e| Error::Storage {
            op: "creating the event target".into(),
            name: "Error".into(),
            message: crate::idb::thrown_text(&e),
        })?;
        let inner = Rc::new(Inner {
            name: name.to_owned(),
            config,
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
    pub async fn set_many(&self, writes: Vec<Write>) -> Result<()> {
        let conn = self.conn()?;
        conn.write(&writes, self.0.config.default_ttl.as_ref(), now_ms()).await
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
    pub async fn reap(&self) -> Result<ReapReport> {
        self.0.reaping.set(true);
        let result = self.pass().await;
        self.0.reaping.set(false);
        let (report, detail) = result?;
        self.0.stats.borrow_mut().record(&report, now_ms());
        if report.removed > 0 {
            self.emit("expired", &detail);
        }
        Ok(report)
    }

    async fn pass(&self) -> Result<(ReapReport, JsValue)> {
        let conn = self.conn()?;
        let limits = self.0.config.limits;
        let started = now_ms();
        // Definitions are read afresh: another tab may have created or changed a collection.
        let defs = conn.definitions().await?;
        // The entries first, then each collection with a TTL index, then each time series with
        // an expiry.
        let mut turns = vec![(Whose::Entries, Expired::entries(started))];
        for def in &defs {
            match def {
                Definition::Collection { name, ttl: Some(ttl), .. } => {
                    turns.push((Whose::Collection(name), Expired::docs(name, ttl.expired_through_ms(started))));
                }
                Definition::Series { name, options } => {
                    if let Some(cutoff) = options.expired_through_ms(started) {
                        turns.push((Whose::Series(name), Expired::buckets(name, cutoff)));
                    }
                }
                _ => {}
            }
        }
        let mut report = ReapReport::default();
        let (mut removed, mut capped) = (0u32, false);
        let (mut keys, doc_ids, buckets) = (JsValue::UNDEFINED, Object::new(), Object::new());
        for (whose, expired) in &turns {
            let ids = Array::new();
            let (here, hit) = drain(&conn, limits, &mut removed, expired, &ids).await?;
            capped |= hit;
            match *whose {
                Whose::Entries => keys = ids.into(),
                Whose::Collection(name) if here > 0 => {
                    report.collections.push((name.clone(), here));
                    let _ = Reflect::set(&doc_ids, &name.into(), &ids);
                }
                Whose::Series(name) if here > 0 => {
                    report.buckets.push((name.clone(), here));
                    let _ = Reflect::set(&buckets, &name.into(), &here.into());
                }
                _ => {}
            }
        }
        // Only a pass stopped by a cap can have left expired records behind.
        report.remaining = if capped { conn.count_expired(&turns.into_iter().map(|t| t.1).collect::<Vec<_>>()).await? } else { 0 };
        report.removed = removed;
        // The wall clock may have stepped back during the pass (an NTP correction): never negative.
        report.duration_ms = (now_ms() - started).max(0.0);
        let detail = plain_object(&[("keys", keys), ("collections", doc_ids.into()), ("timeSeries", buckets.into())]);
        Ok((report, detail))
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
                        store.emit("error", &plain_object(&[("error", crate::js::error::to_js(e))]));
                    }
                }
                let next = next_pass_in_ms(interval, store.0.stats.borrow().last_run.as_ref());
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

/// Whose expired records a turn of a pass removes.
enum Whose<'a> {
    Entries,
    Collection(&'a String),
    Series(&'a String),
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
