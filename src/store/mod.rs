//! The store as Rust sees it: one connection and the state its handles share, opened and
//! closed here, and the two drivers of the key-value API's verbs: [`Store::read`] runs a read
//! ([`Read`]: synchronous steps that say what to ask of IndexedDB, awaited here) and
//! [`Store::change`] a write ([`Change`]). The rest of the `TtlStore` API, in Rust terms, lives by
//! concern: `entries` (the writes' read-modify-write and eviction), `reaper` (passes, timer,
//! pause), `archive`, `members` (events, the channel, leadership), `collection`, `series`,
//! `watch`, `backup`. `js/` converts JS arguments into these calls; the browser tests can call
//! them directly.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::EventTarget;

use crate::channel::Channel;
use crate::core::buckets::SeriesOptions;
use crate::core::config::StoreConfig;
use crate::core::error::{Error, Result};
#[cfg(feature = "full")]
use crate::core::reaper::CollectionCounters;
use crate::core::reaper::ReaperStats;
use crate::idb::{Conn, Got, Read, Step};
use crate::timer::{now_ms, Leadership, ReaperTimer};

mod archive;
mod backup;
mod collection;
#[cfg_attr(not(feature = "full"), path = "crypt_lite.rs")]
mod crypt;
mod entries;
mod idle;
mod members;
mod observe;
mod reaper;
mod series;
mod watch;

pub use collection::{Collection, DocIn, DocReader};
pub use entries::{Change, Updater};
pub use backup::{ExportCursor, ImportInput, ImportReport, SnapshotData};
pub use observe::query_js;
pub use series::Series;

/// The events a store dispatches.
pub const EVENT_TYPES: [&str; 5] = ["expired", "change", "error", "evicted", "reopened"];

/// How many times a read is read again on a new connection when the browser closed the one it
/// was reading on ([`Store::read`]), and a reopening aborted by the browser is tried again.
const REREADS: u32 = 3;

/// How long an `AbortError` waits for the connection's `close` event ([`Store::lost_under`]), ms.
const LOST_WAIT_MS: f64 = 50.0;

/// How often a call waiting for another's reopening looks again, ms.
const REOPEN_WAIT_MS: f64 = 5.0;

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
    /// Each collection's reaper counters in this member (`collection.stats()`).
    #[cfg(feature = "full")]
    collection_stats: RefCell<HashMap<String, CollectionCounters>>,
    /// `watch(key, listener)`: the watched keys, their listeners and the one expiry timer.
    watching: RefCell<Option<watch::Watching>>,
    /// `observe(query, listener)`: the views, their listeners and their one expiry timer.
    observing: RefCell<Option<observe::Observing>>,
    /// The browser closed the connection: the next call opens the database again.
    lost: Cell<bool>,
    /// A call is opening it again; others wait for it.
    reopening: Cell<bool>,
    /// Idle extensions are due and their write is planned (`idle.rs`).
    extending: Cell<bool>,
    /// Idle extensions this member wrote.
    idle_extended: Cell<f64>,
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
            #[cfg(feature = "full")]
            collection_stats: RefCell::new(HashMap::new()),
            watching: RefCell::new(None),
            observing: RefCell::new(None),
            lost: Cell::new(false),
            reopening: Cell::new(false),
            extending: Cell::new(false),
            idle_extended: Cell::new(0.0),
        });
        let conn = Store::connect(&inner).await?;
        #[cfg(not(feature = "full"))]
        if let Err(e) = Store::lite_fits(name, &conn).await {
            conn.close();
            return Err(e);
        }
        inner.created.set(conn.created());
        inner.conn.replace(Some(Rc::new(conn)));
        let store = Store(inner);
        store.join_channel();
        if store.0.config.auto_reap {
            store.seek_leadership();
        }
        Ok(store)
    }

    /// The lite entry holds the key-value store alone: a database with more (collections,
    /// time series, archives, encryption keys) is refused, never half read or half reaped.
    #[cfg(not(feature = "full"))]
    async fn lite_fits(name: &str, conn: &Conn) -> Result<()> {
        let has = conn.beyond_entries().await?;
        match has.split_last() {
            None => Ok(()),
            Some((last, [])) => Err(Error::Unsupported { db: name.to_owned(), has: (*last).to_owned() }),
            Some((last, rest)) => Err(Error::Unsupported { db: name.to_owned(), has: format!("{} and {last}", rest.join(", ")) }),
        }
    }

    /// `onExpire`, a feature of the default entry.
    fn hook(&self) -> Option<&js_sys::Function> {
        if cfg!(feature = "full") {
            self.0.hook.as_ref()
        } else {
            None
        }
    }

    /// `archiveFor` (ms), a feature of the default entry.
    fn archive_for_ms(&self) -> Option<f64> {
        if cfg!(feature = "full") {
            self.0.config.archive_for_ms
        } else {
            None
        }
    }

    /// Deletes the database `name` and everything in it; gives up with a `TimeoutError` after
    /// `timeout_ms` without an answer and as long again after waking IndexedDB.
    pub async fn destroy(name: &str, timeout_ms: u32) -> Result<()> {
        Conn::destroy(name, timeout_ms).await
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

    /// Opens the store's database, with what a connection closed by someone else does: the
    /// browser closing it leaves the store to open it again at its next call, anything else
    /// closes the store.
    async fn connect(inner: &Rc<Inner>) -> Result<Conn> {
        let weak = Rc::downgrade(inner);
        Conn::open(&inner.name, inner.config.timeout_ms, move |why, by_browser| {
            if let Some(inner) = weak.upgrade() {
                if by_browser {
                    Store(inner).lose();
                } else {
                    Store(inner).shut(why);
                }
            }
        })
        .await
    }

    /// The open connection, or the `Closed` error (also while the browser's closing waits for
    /// the next call to open the database again: see [`Store::live`]).
    fn conn(&self) -> Result<Rc<Conn>> {
        self.0.conn.borrow().clone().ok_or_else(|| self.closed())
    }

    fn closed(&self) -> Error {
        Error::Closed { db: self.0.name.clone(), why: self.0.closed_why.borrow().clone() }
    }

    /// The connection for a call: the open one, or, when the browser closed it, a new one (one
    /// open for every call waiting on it), announced by a `"reopened"` event.
    async fn live(&self) -> Result<Rc<Conn>> {
        loop {
            if let Some(conn) = self.0.conn.borrow().clone() {
                return Ok(conn);
            }
            if !self.0.lost.get() {
                return Err(self.closed());
            }
            if self.0.reopening.replace(true) {
                crate::timer::sleep(REOPEN_WAIT_MS).await;
                continue;
            }
            let mut opened = Store::connect(&self.0).await;
            // An open that met the browser still clearing the site's data is aborted ("The
            // connection was closed"): opened again, a few times, once the clearing had a moment.
            for _ in 0..REREADS {
                if !matches!(&opened, Err(Error::Storage { name, .. }) if name == "AbortError") {
                    break;
                }
                crate::timer::sleep(LOST_WAIT_MS).await;
                opened = Store::connect(&self.0).await;
            }
            self.0.reopening.set(false);
            let conn = Rc::new(opened?);
            if !self.0.lost.replace(false) {
                // Closed (close(), another context) while it opened.
                conn.close();
                return Err(self.closed());
            }
            self.0.created.set(conn.created());
            self.0.conn.replace(Some(conn.clone()));
            let data_loss = if conn.data_loss().is_some() { "total" } else { "none" };
            self.emit("reopened", &plain_object(&[("isNew", conn.created().into()), ("dataLoss", data_loss.into())]));
            return Ok(conn);
        }
    }

    /// Runs `read`, the one driver of reads ([`Read`]): it awaits what each step asks (requests of
    /// the entries store, or decryption) and hands the answers to the next, until the read is
    /// done. A read that noted extensions of idle entries has them written soon after. A read
    /// whose connection the browser closed under it (site data cleared) is read again, from its
    /// first step, on a new one: what it asked was never answered or was aborted, and a read
    /// changes nothing.
    pub async fn read(&self, mut read: Read) -> Result<Got> {
        let mut again = REREADS;
        loop {
            let conn = self.live().await?;
            let done = self.read_on(&conn, &mut read).await;
            match &done {
                Err(e) if again > 0 && Store::lost_under(&conn, e).await => {
                    again -= 1;
                    read.restart();
                }
                _ => return done,
            }
        }
    }

    /// Whether `e`, a call's error on `conn`, came of the browser closing `conn`. The browser
    /// aborts its transactions first, then fires its `close` event: an `AbortError` is given a
    /// moment for that event to come.
    async fn lost_under(conn: &Conn, e: &Error) -> bool {
        if !conn.lost() && matches!(e, Error::Storage { name, .. } if name == "AbortError") {
            crate::timer::sleep(LOST_WAIT_MS).await;
        }
        conn.lost()
    }

    /// One try of [`Store::read`], on `conn`.
    async fn read_on(&self, conn: &Conn, read: &mut Read) -> Result<Got> {
        let (now, sealed) = (now_ms(), self.encrypted());
        let mut answers = None;
        loop {
            answers = Some(match read.step(conn, answers, now, sealed)? {
                Step::Ask(asks) => conn.answer(asks).await?,
                Step::Open(values) => self.open_values(conn, read.opening(), values).await?,
                Step::Done(got) => {
                    if read.extends() {
                        self.extend_soon();
                    }
                    return Ok(got);
                }
            });
        }
    }

    /// Runs `change`, the one driver of the write verbs ([`Change`]): what the call resolves to.
    /// Each change is announced by a `"change"` event named by its verb; a change that evicts
    /// under `maxEntries` by an `"evicted"` one.
    pub async fn change(&self, change: Change) -> Result<JsValue> {
        let many = |many: bool, one: &'static str, more: &'static str| if many { more } else { one };
        // An encrypted store's update takes its own connections: see [`Store::update_sealed`].
        #[cfg(feature = "full")]
        if self.encrypted() {
            if let Change::Update(op, key, spec, keep_live, mut f) = change {
                return self.update_sealed(op, key, &spec, keep_live, &mut *f.0).await;
            }
        }
        let conn = self.live().await?;
        Ok(match change {
            Change::Put(writes, m) => {
                crate::long::total(writes.len() as u32);
                let keys: Array = writes.iter().map(|w| w.key.clone()).collect();
                self.set_many(&conn, writes).await?;
                self.emit_change(many(m, "set", "setMany"), keys);
                JsValue::UNDEFINED
            }
            Change::Delete(keys, m) => {
                let removed = conn.delete_many(&keys, now_ms()).await?;
                self.emit_change(many(m, "delete", "deleteMany"), keys);
                if m { removed.into() } else { (removed > 0).into() }
            }
            Change::Clear => {
                crate::long::total(1);
                conn.clear().await?;
                self.emit_change("clear", Array::new());
                JsValue::UNDEFINED
            }
            Change::Expiry(key, how) => self.change_expiry(&conn, key, how).await?.into(),
            Change::PutIf(w, only) => self.put_if(&conn, w, only).await?.into(),
            Change::Take(key) => self.take(&conn, key).await?,
            Change::Update(op, key, spec, keep_live, mut f) => self.update(&conn, op, key, &spec, keep_live, &mut *f.0).await?,
        })
    }

    /// Whether calls can be made: open, or to be opened again at the next call.
    fn usable(&self) -> Result<()> {
        if self.0.lost.get() {
            return Ok(());
        }
        self.conn().map(|_| ())
    }

    /// The browser closed the connection: the next call opens the database again. The reaper,
    /// the channel, watches and views stay, and resume through that call or their own.
    fn lose(&self) {
        if self.0.conn.replace(None).is_some() {
            self.0.lost.set(true);
            self.0.closed_why.replace("the browser closed the connection".into());
        }
    }

    /// Stops the reaper and closes the connection; later calls fail with a `Closed` error.
    pub fn close(&self) {
        self.extend_before_close();
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
        self.0.observing.replace(None);
        let lost = self.0.lost.replace(false);
        if self.0.conn.replace(None).is_some() || lost {
            self.0.closed_why.replace(why.to_owned());
        }
    }

    /// Whether `close()` was called or someone else closed the connection.
    pub fn is_closed(&self) -> bool {
        self.0.conn.borrow().is_none()
    }

    /// `navigator.storage.estimate()`'s `usage` and `quota`, with the live and expired entries.
    pub async fn estimate(&self) -> Result<JsValue> {
        self.live().await?.estimate(now_ms()).await
    }

    /// Asks the browser to make the origin's storage persistent (`navigator.storage.persist()`).
    pub async fn persist_storage(&self) -> Result<bool> {
        self.live().await?.persist_storage().await
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
