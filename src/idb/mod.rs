//! The IndexedDB adapter: the only module that touches IndexedDB, through indexed_db_futures.
//!
//! # Layout
//! `entries` holds records `{ k, e, v }` (key, expiry as Unix ms with `Infinity` for "never",
//! value as IndexedDB's structured clone stores it). Its in-line primary key is `[e, k]`, so
//! records sort by expiry and **everything expired is one contiguous key range** at the front of
//! the store: a reaper pass reads up to `batch` primary keys below `[now, []]` and removes them
//! with a single range delete, which Chromium runs far faster than per-key deletes. Entries
//! without expiry sort last and cost nothing at reap time. A unique index `by_key` on `k` serves
//! lookups; `keys()`/`values()` walk it to return key order.
//!
//! Because the expiry is part of the primary key, "only entries past their expiry at the moment
//! of deletion are removed" holds by construction: a write that extends an entry moves its record
//! out of the expired range, and the range delete runs in the same transaction as the scan.
//!
//! The price is on writes: a `set` must remove the key's old record when the expiry changes.
//! Expiry hints (what this connection last saw of a key) and putting first, looking up only when
//! the unique index refuses the put, keep that off the common path. The measured comparison with
//! the key-ordered layout is in `docs/contributing/benchmark-notebook.md`.
//!
//! # Rooms
//! - `schema`: the stores, their versions, opening and upgrading.
//! - `runner`: transactions, awaited requests, commits and the watchdog ([`runner::Run`]).
//! - `records`: the stored records as typed structs (serde-wasm-bindgen).
//! - `entries`, `collections`, `series`, `meta`, `reap`: what each call asks of IndexedDB.

use std::cell::Cell;
use std::rc::Rc;

use indexed_db_futures::database::Database;
use indexed_db_futures::error::Error as IdbError;
use indexed_db_futures::internals::SystemRepr;
use js_sys::{Array, Map};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::core::entry::ExpirySpec;
use crate::core::error::{Error, Result};
use crate::core::text::{find, js_number, quote};

mod collections;
mod entries;
mod meta;
mod read;
mod reap;
mod records;
mod runner;
mod schema;
mod series;

pub use collections::{DocChange, DocWrite};
pub use entries::{Current, Decide, Modify, Pending};
pub use meta::{collection_key, series_key, Definition};
pub use read::{Got, Read, Seen, Step};
pub use reap::{Cap, Expired, Offer};
pub use records::{DocRecord, EntryRecord};
pub use schema::{DOCS as DOCS_STORE, ENTRIES as ENTRIES_STORE};
pub use series::EventsIn;

#[wasm_bindgen]
extern "C" {
    /// The browser's structured clone, the algorithm IndexedDB stores values with.
    #[wasm_bindgen(js_name = structuredClone, catch)]
    fn structured_clone(v: &JsValue) -> std::result::Result<JsValue, JsValue>;
}

#[wasm_bindgen(module = "/src/js/edge.js")]
extern "C" {
    #[wasm_bindgen(js_name = blobPath, catch)]
    fn blob_path(v: &JsValue) -> std::result::Result<Option<String>, JsValue>;
    #[wasm_bindgen(js_name = storageEstimate)]
    fn storage_estimate() -> js_sys::Promise;
    #[wasm_bindgen(js_name = persistStorage)]
    fn persist_storage() -> js_sys::Promise;
}

/// What `estimate()` resolves to.
#[derive(Debug, serde::Serialize)]
struct Estimate {
    #[serde(skip_serializing_if = "Option::is_none")]
    usage: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quota: Option<f64>,
    live: u32,
    expired: u32,
}

/// One write of `set`/`setMany`: validated key and options, the value as given.
#[derive(Debug)]
pub struct Write {
    /// A string or number key.
    pub key: JsValue,
    /// Any structured-cloneable value.
    pub value: JsValue,
    /// The expiry options, resolved against the entry's current state inside the transaction.
    pub spec: ExpirySpec,
}

/// Everything one `import()` writes: entries, then per collection its definition and documents,
/// per time series its definition, events and bucket span.
#[derive(Debug, Default)]
pub struct ImportWrites {
    /// Entries, each with its absolute expiry.
    pub entries: Vec<Write>,
    /// Collections: definition and documents.
    pub collections: Vec<(Definition, Vec<DocWrite>)>,
    /// Time series: definition, events, and the options they are bucketed by.
    pub series: Vec<(Definition, EventsIn, crate::core::buckets::SeriesOptions)>,
}

/// An open connection to one idb-ttl database.
#[derive(Debug)]
pub struct Conn {
    db: Database,
    name: String,
    /// How long a request or commit may go unanswered before it is aborted (`timeoutMs`).
    timeout_ms: u32,
    /// Whether this open created the database.
    created: bool,
    /// Chromium's `dataLossMessage` when it deleted a corrupt database that this open then
    /// created again (`IDBVersionChangeEvent.dataLoss` "total").
    data_loss: Option<String>,
    /// Whether this session can store Blob and File values; `None` until the first write asks.
    blobs: Cell<Option<bool>>,
    /// The browser closed the connection (its `close` event): a transaction that had not
    /// answered yet never will ([`runner::Run`]'s watchdog gives it up at once).
    lost: Rc<Cell<bool>>,
    /// Expiry hints: key -> the expiry this connection last saw it stored with. They save index
    /// steps; a stale one costs a request, never a wrong answer (`entries.rs`).
    hints: Map,
    /// Extensions of idle entries that reads noted as due and are not written yet: key -> the
    /// new expiry (Unix ms). A read here counts them (`Conn::extend_due` writes them).
    extending: Map,
    /// `false` only while `extending` is empty (it is noted when a read adds to it).
    maybe_due: Cell<bool>,
    /// How often a written key without a hint was stored already, as a moving average: whether
    /// such writes are put at once or looked up first (`entries.rs`).
    found: Cell<f64>,
    /// Cancels a put's `ConstraintError` so that its transaction lives on (`entries.rs`).
    absorb: Closure<dyn FnMut(web_sys::Event)>,
    _on_versionchange: Closure<dyn FnMut()>,
    _on_close: Closure<dyn FnMut()>,
}

impl Drop for Conn {
    /// A store dropped without `close()` (garbage-collected on the JS side) closes its
    /// connection: left open, it would block another tab's upgrade or `destroy()`, with handlers
    /// pointing at closures that no longer exist.
    fn drop(&mut self) {
        self.close();
    }
}

impl Conn {
    /// Opens (creating or upgrading) the database `name`. `on_closed(why, by_browser)` runs when
    /// the connection is closed by someone else: another tab deleting or upgrading the database
    /// (`versionchange`, we close at once so we never block it), or the browser (`close`: site
    /// data cleared, the backing store shut down; `by_browser`, so the database may be opened
    /// again).
    pub async fn open(name: &str, timeout_ms: u32, on_closed: impl Fn(&'static str, bool) + Clone + 'static) -> Result<Conn> {
        // Another context holding an old version open (or a stuck browser) must not hang open().
        let opened = schema::open(name, timeout_ms).await?;
        let schema::Opened { db, created, data_loss } = opened;
        let sys = db.as_sys().clone();
        let on_versionchange = {
            let (sys, on_closed) = (sys.clone(), on_closed.clone());
            Closure::<dyn FnMut()>::new(move || {
                sys.close();
                on_closed("another tab or worker is deleting or upgrading it", false);
            })
        };
        let lost = Rc::new(Cell::new(false));
        let on_close = {
            let lost = lost.clone();
            Closure::<dyn FnMut()>::new(move || {
                lost.set(true);
                on_closed("the browser closed the connection", true);
            })
        };
        sys.set_onversionchange(Some(on_versionchange.as_ref().unchecked_ref()));
        sys.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        Ok(Conn {
            db,
            name: name.to_owned(),
            timeout_ms,
            created,
            data_loss,
            blobs: Cell::new(None),
            lost,
            hints: Map::new(),
            extending: Map::new(),
            maybe_due: Cell::new(false),
            // A database this open created holds no key yet.
            found: Cell::new(if created { 0.0 } else { 0.5 }),
            absorb: entries::absorb_constraint_errors(),
            _on_versionchange: on_versionchange,
            _on_close: on_close,
        })
    }

    /// Whether the browser closed this connection (site data cleared, its storage shut down):
    /// what was asked of it and failed may be asked again of a new one.
    pub fn lost(&self) -> bool {
        self.lost.get()
    }

    /// Whether opening created the database: it did not exist, or the browser deleted it (after a
    /// crash, under storage pressure, or the user clearing site data).
    pub fn created(&self) -> bool {
        self.created
    }

    /// `Some(message)` when the browser had deleted a corrupt database and this open created it
    /// again (Chromium's `dataLoss: "total"`).
    pub fn data_loss(&self) -> Option<&str> {
        self.data_loss.as_deref()
    }

    /// Deletes the database `name`, giving up after `timeout_ms` twice ([`schema::destroy`]).
    pub async fn destroy(name: &str, timeout_ms: u32) -> Result<()> {
        schema::destroy(name, timeout_ms).await
    }

    /// Closes the connection; pending transactions finish first.
    pub fn close(&self) {
        let sys = self.db.as_sys();
        sys.set_onversionchange(None);
        sys.set_onclose(None);
        sys.close();
    }

    /// `navigator.storage.estimate()`'s `{ usage, quota }` (absent without a StorageManager) with
    /// `live` and `expired`: the entries live at `now` and those expired but still stored.
    pub async fn estimate(&self, now: f64) -> Result<JsValue> {
        let op = "estimating storage";
        let usage = wasm_bindgen_futures::JsFuture::from(storage_estimate()).await.map_err(|e| storage_error(&self.name, op, e))?;
        // Our own plain object from the JS edge: reading it never throws.
        let number = |k: &str| js_sys::Reflect::get(&usage, &k.into()).ok().and_then(|v| v.as_f64());
        let estimate = Estimate { usage: number("usage"), quota: number("quota"), live: self.count(now).await?, expired: self.count_expired(&[&Expired::entries(now)]).await? };
        estimate.serialize(&serde_wasm_bindgen::Serializer::new()).map_err(|e| storage_error(&self.name, op, e.into()))
    }

    /// `navigator.storage.persist()`: whether the origin's storage is persistent now.
    pub async fn persist_storage(&self) -> Result<bool> {
        let granted = wasm_bindgen_futures::JsFuture::from(persist_storage())
            .await
            .map_err(|e| storage_error(&self.name, "asking for persistent storage", e))?;
        Ok(granted.is_truthy())
    }

    /// Refuses, before any request is made, a value this session cannot store: a Blob or File
    /// where the browser refuses them (see [`Conn::blobs_storable`]). `what(key)` names a value
    /// in the message.
    async fn check_storable<'a>(
        &self,
        items: impl IntoIterator<Item = (&'a JsValue, &'a JsValue)>,
        what: impl Fn(&JsValue) -> String,
    ) -> Result<()> {
        if self.blobs_storable().await {
            return Ok(());
        }
        for (key, value) in items {
            no_blob(value, || what(key))?;
        }
        Ok(())
    }

    /// Whether this session can store Blob and File values, asked once per connection. WebKit's
    /// ephemeral sessions (Safari Private Browsing) cannot, and a Blob put failing there while
    /// an earlier request of its transaction is still pending wedges the transaction, and with it
    /// the database, until reload. So the first write asks once, with a throwaway transaction
    /// that keeps nothing.
    async fn blobs_storable(&self) -> bool {
        if let Some(known) = self.blobs.get() {
            return known;
        }
        let ok = self.probe_blobs().await;
        self.blobs.set(Some(ok));
        ok
    }

    async fn probe_blobs(&self) -> bool {
        let op = "checking whether Blob values can be stored";
        // The put alone: in WebKit a Blob put failing while an earlier request of its transaction
        // is pending (the watchdog's probe) wedges the database.
        let Ok(run) = self.begin_as_is(op, &[schema::META]) else { return true };
        let Ok(store) = run.store(schema::META) else { return true };
        let Ok(blob) = web_sys::Blob::new_with_str_sequence(&Array::of1(&"probe".into())) else { return true };
        let Ok(mut put) = run.put_at(&store, blob.into(), "\u{0}blob-probe".into()) else { return true };
        let answer = run.settle(&mut put).await;
        // Nothing is kept: dropping the run aborts the transaction.
        drop(run);
        match answer {
            Ok(Err(e)) => e.dyn_ref::<web_sys::DomException>().is_none_or(|ex| ex.name() != "UnknownError"),
            _ => true,
        }
    }

    fn put_error(&self, key: &JsValue, e: JsValue) -> Error {
        self.clone_error(&format!("the value for key {}", describe_key(key)), e)
    }

    /// Refuses a value IndexedDB could not store (what a put of it would be refused with), for a
    /// call that wrote nothing and so put nothing (`add` over a live entry, `replace` over none):
    /// a bad value is refused whether or not the key is there.
    pub fn check_clonable(&self, key: &JsValue, value: &JsValue) -> Result<()> {
        structured_clone(value).map(drop).map_err(|e| self.put_error(key, e))
    }

    /// A put refused because its value cannot be cloned; `what` names the value.
    fn clone_error(&self, what: &str, e: JsValue) -> Error {
        match e.dyn_ref::<web_sys::DomException>() {
            Some(ex) if ex.name() == "DataCloneError" => Error::InvalidType(format!(
                "{what} cannot be stored: {}; IndexedDB stores structured-cloneable values (objects, arrays, Date, Map, Set, Blob, typed arrays...), not functions, symbols or DOM nodes",
                ex.message()
            )),
            // Not a DOMException: the value's own code threw while being cloned (a getter, a
            // Proxy trap); the user's error, not a storage failure.
            None => Error::InvalidType(format!("{what} cannot be stored: reading it threw {}", thrown_text(&e))),
            _ => storage_error(&self.name, "writing", e),
        }
    }
}


/// Refuses a value holding a Blob or File, for a session that cannot store them; `what()` names
/// the value in the message.
fn no_blob(value: &JsValue, what: impl FnOnce() -> String) -> Result<()> {
    match blob_path(value) {
        Ok(None) => Ok(()),
        Ok(Some(path)) => Err(Error::InvalidType(format!("{} holds a Blob or File at {path}: {NO_BLOBS}", what()))),
        Err(e) => Err(Error::InvalidType(format!("{} cannot be stored: {}", what(), thrown_text(&e)))),
    }
}

/// A key as it would appear in JS source, for error messages.
pub fn describe_key(key: &JsValue) -> String {
    match (key.as_string(), key.as_f64()) {
        (Some(s), _) => quote(&s),
        (_, Some(n)) => js_number(n),
        _ => "(a key)".into(),
    }
}

/// An indexed_db_futures error as the JS value it stands for: the DOMException, or what JS threw.
/// Not through its `Display`, which prints the floats of its number-parsing errors.
pub(crate) fn idb_to_js(e: IdbError) -> JsValue {
    match e {
        IdbError::DomException(d) => d.into(),
        IdbError::Unknown(e) => e.into(),
        IdbError::MissingData(_) => JsValue::from_str("IndexedDB answered without the data asked for"),
        IdbError::Serialisation(_) => JsValue::from_str("a value could not be converted"),
    }
}

/// Why a Blob or File cannot be stored in a private session.
const NO_BLOBS: &str = "this browser session cannot store Blob or File values in IndexedDB (Safari Private Browsing and other ephemeral sessions refuse them); store the bytes instead (await blob.arrayBuffer()) or keep the Blob out of the store";

/// The text of something JS threw: an Error's `name: message`, or the value as a string.
pub fn thrown_text(e: &JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(err) => format!("{}: {}", String::from(err.name()), String::from(err.message())),
        None => e.as_string().unwrap_or_else(|| "a non-Error value was thrown".into()),
    }
}

/// What JS code of ours threw when reading a user's value (a TypeError or RangeError naming it,
/// carrying the user's own error) as our error.
pub fn refused(e: JsValue) -> Error {
    let text = thrown_text(&e);
    let split = find(&text, ": ").and_then(|i| Some((text.get(..i)?, text.get(i + 2..)?)));
    match split {
        Some(("TypeError", m)) => Error::InvalidType(m.to_owned()),
        Some(("RangeError", m)) => Error::OutOfRange(m.to_owned()),
        _ => Error::InvalidType(text),
    }
}

/// Maps a failure from IndexedDB to the error type, by the DOMException's name.
pub(crate) fn storage_error(db: &str, op: &str, err: JsValue) -> Error {
    let Some(ex) = err.dyn_ref::<web_sys::DomException>() else {
        let message = err.as_string().unwrap_or_else(|| thrown_text(&err));
        return Error::Storage { op: op.into(), name: "Error".into(), message };
    };
    let (name, message) = (ex.name(), ex.message());
    match name.as_str() {
        "QuotaExceededError" => Error::QuotaExceeded { op: op.into(), message },
        // WebKit's ephemeral sessions (Safari Private Browsing) refuse Blob and File values.
        "UnknownError" if find(&message, "Blob/File").is_some() => Error::InvalidType(format!("{NO_BLOBS}; ({message})")),
        "InvalidStateError" if find(&message, "clos").is_some() => Error::Closed { db: db.into(), why: message },
        _ => Error::Storage { op: op.into(), name, message },
    }
}
