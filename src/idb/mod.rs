//! The IndexedDB adapter: the only module that touches IndexedDB.
//!
//! # Layout
//! One object store, `entries`, holds records `{ k, e, v }` (key, expiry as Unix ms with
//! `Infinity` for "never", value as IndexedDB's structured clone stores it). Its in-line primary
//! key is `[e, k]`, so records sort by expiry and **everything expired is one contiguous key
//! range** at the front of the store: a reaper pass reads up to `batch` primary keys below
//! `[now, []]` and removes them with a single `delete(IDBKeyRange)`, which Chromium executes about
//! 15x faster than the same number of per-key deletes (issue 2: 10 000 of 100 000 in 47-72 ms
//! against 750-960 ms). Entries without expiry sort last and cost nothing at reap time. A unique
//! index `by_key` on `k` serves lookups; `keys()`/`values()` walk it to return key order.
//!
//! Because the expiry is part of the primary key, "only entries past their expiry at the moment
//! of deletion are removed" holds by construction: a write that extends an entry moves its record
//! out of the expired range, and the range delete runs in the same transaction as the scan.
//!
//! The price is on writes: a `set` must find the key's old record (`by_key.getKey`) to remove it
//! when the expiry changes. Bulk writes issue every lookup at once and then every put, so that
//! costs one extra request per key, pipelined, not one extra round trip per key.
//! The measured comparison with the key-ordered layout is in `docs/benchmarks.md`.
//!
//! # Requests
//! Opening, upgrading, transactions and commits go through `indexed_db_futures`. Requests that are
//! pipelined by the hundred use `web_sys` directly and await only the last one ([`settle`]):
//! IndexedDB runs a transaction's requests in order, so when the last succeeds all have.

use std::cell::Cell;

use indexed_db_futures::error::Error as IdbError;
use indexed_db_futures::internals::SystemRepr;
use js_sys::{Array, Map, Promise, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbIndex, IdbKeyRange, IdbObjectStore, IdbRequest, IdbTransaction};

use crate::core::entry::{is_live, ExpirySpec, NEVER_MS};
use crate::core::error::{Error, Result};
use crate::core::expiry::Ttl;
use crate::core::text::{find, js_number, quote};
use crate::timer::within;

mod collections;
mod meta;
mod schema;
mod series;

pub use collections::DocWrite;
pub use meta::{collection_key, series_key, Definition};
pub use series::EventsIn;

use schema::{ARCHIVE, BUCKETS, BY_BUCKET, BY_ID, BY_ITEM, BY_KEY, DOCS, ENTRIES, META};

#[wasm_bindgen(module = "/src/idb/glue.js")]
extern "C" {
    fn record(k: &JsValue, e: f64, v: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = recordExpiry)]
    fn record_expiry(r: &JsValue) -> f64;
    #[wasm_bindgen(js_name = recordValue)]
    fn record_value(r: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = pkAt)]
    fn pk_at(pk: &JsValue, n: u32) -> JsValue;
    #[wasm_bindgen(js_name = liveKeys)]
    fn live_keys(pks: &Array, now: f64) -> Array;
    #[wasm_bindgen(js_name = liveValues)]
    fn live_values(recs: &Array, now: f64) -> Array;
    #[wasm_bindgen(js_name = liveEntries)]
    fn live_entries(recs: &Array, now: f64) -> Array;
    #[wasm_bindgen(js_name = lastWins)]
    fn last_wins(keys: &Array) -> Uint32Array;
    fn settle(req: &IdbRequest, timeout_ms: u32) -> Promise;
    fn finish(tx: &IdbTransaction, timeout_ms: u32) -> Promise;
    #[wasm_bindgen(js_name = deleteFound)]
    fn delete_found(store: &IdbObjectStore, index: &IdbIndex, lookup: &Array, n: u32, bound: f64, timeout_ms: u32) -> Promise;
    #[wasm_bindgen(js_name = countRanges)]
    fn count_ranges(db: &web_sys::IdbDatabase, ranges: &Array, timeout_ms: u32) -> Promise;
    #[wasm_bindgen(js_name = reapRange)]
    fn reap_range(store: &IdbObjectStore, lower: &JsValue, upper: &JsValue, limit: u32, into: &Array, n: u32, timeout_ms: u32) -> Promise;
    #[wasm_bindgen(js_name = probeBlobs)]
    fn probe_blobs(db: &web_sys::IdbDatabase, store: &str, timeout_ms: u32) -> Promise;
    #[wasm_bindgen(js_name = blobPath, catch)]
    fn blob_path(v: &JsValue) -> std::result::Result<Option<String>, JsValue>;
    #[wasm_bindgen(js_name = hintedPk)]
    fn hinted_pk(hints: &Map, k: &JsValue) -> JsValue;
    fn hint(hints: &Map, k: &JsValue, e: f64);
    fn unhint(hints: &Map, keys: &Array);
    #[wasm_bindgen(js_name = readLive)]
    fn read_live(hints: &Map, store: &IdbObjectStore, by_key: &IdbIndex, keys: &Array, now: f64, timeout_ms: u32) -> Promise;
    #[wasm_bindgen(js_name = putOver, catch)]
    fn put_over(store: &IdbObjectStore, by_key: &IdbIndex, hints: &Map, guess: &JsValue, old_pk: &JsValue, rec: &JsValue) -> std::result::Result<bool, JsValue>;
    #[wasm_bindgen(js_name = newGuess)]
    fn new_guess(created: bool) -> JsValue;
    fn learn(guess: &JsValue, found: bool);
    #[wasm_bindgen(js_name = offerRange)]
    fn offer_range(db: &web_sys::IdbDatabase, store: &str, lower: &JsValue, upper: &JsValue, limit: u32, how: &JsValue, into: &Array, timeout_ms: u32) -> Promise;
    #[wasm_bindgen(js_name = enforceCap)]
    fn enforce_cap(store: &IdbObjectStore, hints: &Map, cap: u32, own: &Array, now: f64, live_only: bool, timeout_ms: u32) -> Promise;
    #[wasm_bindgen(js_name = makeRoom)]
    fn make_room(db: &web_sys::IdbDatabase, hints: &Map, n: u32, own: &Array, now: f64, live_only: bool, timeout_ms: u32) -> Promise;
    #[wasm_bindgen(js_name = writeTx, catch)]
    fn write_tx_js(db: &web_sys::IdbDatabase, names: &JsValue, work: u32) -> std::result::Result<IdbTransaction, JsValue>;
    #[wasm_bindgen(js_name = archiveRange)]
    fn archive_range(c: &JsValue, cutoff: f64) -> IdbKeyRange;
    #[wasm_bindgen(js_name = archivedValue)]
    fn archived_value(rec: &JsValue, cutoff: f64) -> JsValue;
    #[wasm_bindgen(js_name = storageEstimate)]
    fn storage_estimate() -> Promise;
    #[wasm_bindgen(js_name = persistStorage)]
    fn persist_storage() -> Promise;
}

/// Where a reaper pass finds one collection's expired records (the key-value entries, a
/// collection's documents, a time series' whole buckets): the records of object store `store`
/// with primary keys in [`lower`, `upper`], named by part `part` of their key. `op` names them in
/// errors.
#[derive(Debug)]
pub struct Expired {
    store: &'static str,
    op: &'static str,
    lower: JsValue,
    upper: JsValue,
    part: u32,
    /// How to offer them to `onExpire` and/or move them to the archive (see `offerRange` in
    /// glue.js); `None`: a plain range delete.
    offer: Option<JsValue>,
}

impl Expired {
    /// The entries expired at `now` (`[]` sorts before every `[expiry, key]`).
    pub fn entries(now: f64) -> Self {
        Expired { store: ENTRIES, op: "reaping", lower: Array::new().into(), upper: instant_bound(now), part: 1, offer: None }
    }

    /// The entries archived with `archiveFor` (`c` = 0) or a collection's archived documents
    /// (`c` = its name) that were keyed by a time at or before `cutoff`: past their delete tier.
    pub fn archived(c: &JsValue, cutoff: f64) -> Self {
        let upper = Array::of3(c, &cutoff.into(), &Array::new()).into();
        Expired { store: ARCHIVE, op: "reaping the archive", lower: Array::of1(c).into(), upper, part: 2, offer: None }
    }

    /// The same records, removed only after `onExpire` accepted them and/or moved to the
    /// archive: `how` is an [`Offer`]'s JS form.
    pub fn offered(self, how: JsValue) -> Self {
        Expired { offer: Some(how), ..self }
    }

    /// How many records this turn moved to an archive so far (`offerRange` counts them on the
    /// offer: records already past their delete tier are deleted instead).
    pub fn archived_so_far(&self) -> u32 {
        // Our own plain object: reading it never throws.
        self.offer.as_ref().and_then(|o| js_sys::Reflect::get(o, &"archived".into()).ok()).and_then(|n| n.as_f64()).unwrap_or(0.0) as u32
    }
}

/// How one turn of a pass hands its expired records on (`offerRange` in glue.js): what kind of
/// record they are, where their expiry-like time and key sit in the primary key, the archive
/// they move to, and the hook.
#[derive(Debug)]
pub struct Offer<'a> {
    /// `"entry"`, `"document"` or `"events"`.
    pub kind: &'static str,
    /// The collection or time series (`None` for entries).
    pub name: Option<&'a str>,
    /// Added to a record's time (expiry, reference, latest event) to get the `expiresAt` it is
    /// offered with: for a delete, when it expired; for an archive move, its delete tier
    /// (infinite: none, offered as `null`).
    pub after_ms: f64,
    /// Moves the records to the archive (`c` = this) instead of deleting them.
    pub archive: Option<JsValue>,
    /// `onExpire`, if given.
    pub hook: Option<&'a js_sys::Function>,
    /// The pass's start (Unix ms): a record whose delete tier is already past then is offered
    /// as a delete and deleted, not archived.
    pub now: f64,
}

impl Offer<'_> {
    /// The plain object `offerRange` reads.
    pub fn to_js(&self) -> JsValue {
        let o = js_sys::Object::new();
        let set = |k: &str, v: JsValue| {
            let _ = js_sys::Reflect::set(&o, &k.into(), &v);
        };
        set("kind", self.kind.into());
        set("name", self.name.map_or(JsValue::UNDEFINED, JsValue::from));
        set("after", self.after_ms.into());
        set("archive", self.archive.is_some().into());
        set("c", self.archive.clone().unwrap_or(JsValue::UNDEFINED));
        set("hook", self.hook.map_or(JsValue::UNDEFINED, |h| h.clone().into()));
        set("now", self.now.into());
        set("archived", 0.into());
        o.into()
    }
}

/// `maxEntries` as a write applies it: the cap, and whether expired entries wait for
/// `onExpire` (then only live entries count, and only they are evicted).
#[derive(Debug, Clone, Copy)]
pub struct Cap {
    /// The most live entries kept.
    pub max: u32,
    /// Expired entries wait for `onExpire` or the archive: they are not the cap's to remove.
    pub live_only: bool,
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
    /// Time series: definition, events, bucket span.
    pub series: Vec<(Definition, EventsIn, crate::core::buckets::Granularity)>,
}

/// How `expire`/`persist` change a live entry's expiry.
#[derive(Debug)]
pub enum ExpiryChange<'a> {
    /// `expire(key, options)`.
    Set(&'a ExpirySpec),
    /// `persist(key)`.
    Remove,
}

impl Drop for Conn {
    /// A store dropped without `close()` (garbage-collected on the JS side) closes its
    /// connection: left open, it would block another tab's upgrade or `destroy()`, with handlers
    /// pointing at closures that no longer exist.
    fn drop(&mut self) {
        self.close();
    }
}

/// A readwrite transaction that is aborted when dropped before it completed: a call that fails
/// half-way (a bad value in a batch, a refused put, a timeout) rolls back everything it wrote.
#[derive(Debug)]
struct Tx {
    sys: IdbTransaction,
    completed: bool,
}

impl Tx {
    /// Lets a transaction that wrote nothing end on its own: aborting one costs Chromium more
    /// than letting it commit.
    fn wrote_nothing(mut self) {
        self.completed = true;
    }
}

impl Drop for Tx {
    fn drop(&mut self) {
        if !self.completed {
            // Throws if the browser already ended it; either way nothing more is written.
            let _ = self.sys.abort();
        }
    }
}

/// An open connection to one idb-ttl database.
#[derive(Debug)]
pub struct Conn {
    db: web_sys::IdbDatabase,
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
    /// Expiry hints: key -> the expiry this connection last saw it stored with (`hint` in
    /// glue.js). They save index steps; a stale one costs a request, never a wrong answer.
    hints: Map,
    /// How often a written key without a hint was stored already (`newGuess` in glue.js): whether
    /// such writes are put at once or looked up first.
    guess: JsValue,
    _on_versionchange: Closure<dyn FnMut()>,
    _on_close: Closure<dyn FnMut()>,
}

impl Conn {
    /// Opens (creating or upgrading) the database `name`. `on_closed(why)` runs when the
    /// connection is closed by someone else: another tab deleting or upgrading the database
    /// (`versionchange`, we close at once so we never block it) or the browser (`close`).
    pub async fn open(name: &str, timeout_ms: u32, on_closed: impl Fn(&'static str) + Clone + 'static) -> Result<Conn> {
        let op = "opening the database";
        // Another context holding an old version open (or a stuck browser) must not hang open().
        let opened = within(timeout_ms, schema::open(name)).await.ok_or_else(|| Error::Timeout {
            op: op.into(),
            message: format!("no answer within {timeout_ms} ms"),
        })??;
        let schema::Opened { db, created, data_loss } = opened;
        let db: web_sys::IdbDatabase = db.as_sys().clone().unchecked_into();
        let sys = &db;
        let on_versionchange = {
            let (sys, on_closed) = (sys.clone(), on_closed.clone());
            Closure::<dyn FnMut()>::new(move || {
                sys.close();
                on_closed("another tab or worker is deleting or upgrading it");
            })
        };
        let on_close = Closure::<dyn FnMut()>::new(move || on_closed("the browser closed the connection"));
        sys.set_onversionchange(Some(on_versionchange.as_ref().unchecked_ref()));
        sys.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        Ok(Conn {
            db,
            name: name.to_owned(),
            timeout_ms,
            created,
            data_loss,
            blobs: Cell::new(None),
            hints: Map::new(),
            guess: new_guess(created),
            _on_versionchange: on_versionchange,
            _on_close: on_close,
        })
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

    /// Deletes the database `name`; other connections get `versionchange` and close.
    pub async fn destroy(name: &str) -> Result<()> {
        schema::destroy(name).await
    }

    /// Closes the connection; pending transactions finish first.
    pub fn close(&self) {
        let sys = &self.db;
        sys.set_onversionchange(None);
        sys.set_onclose(None);
        sys.close();
    }

    /// The live value of `key`, `undefined` if missing or expired.
    pub async fn get(&self, key: &JsValue, now: f64) -> Result<JsValue> {
        Ok(self.read_live("reading an entry", &Array::of1(key), now).await?.get(0))
    }

    /// Live values of `keys` in their order, `undefined` where missing or expired.
    pub async fn get_many(&self, keys: &Array, now: f64) -> Result<Array> {
        self.read_live("reading entries", keys, now).await
    }

    /// `readLive` in glue.js: by primary key where a hint has it, else through the index.
    async fn read_live(&self, op: &str, keys: &Array, now: f64) -> Result<Array> {
        let store = self.read(op, ENTRIES)?;
        let read = read_live(&self.hints, &store, &index(&store)?, keys, now, self.timeout_ms);
        Ok(JsFuture::from(read).await.map_err(|e| storage_error(&self.name, op, e))?.unchecked_into())
    }

    /// The live entry's expiry (Unix ms, [`NEVER_MS`] for none), `None` if missing or expired.
    pub async fn live_expiry(&self, key: &JsValue, now: f64) -> Result<Option<f64>> {
        let op = "reading an expiry";
        let store = self.read(op, ENTRIES)?;
        let pk = self.settle(op, &self.js(op, index(&store)?.get_key(key))?).await?;
        Ok(live_pk_expiry(&pk, now))
    }

    /// `set`/`setMany`: all writes in one transaction, all or nothing. A write whose expiry
    /// resolves to the past removes the key and stores nothing.
    ///
    /// Under a `cap` (`maxEntries`), the same transaction then evicts what is over it and
    /// resolves to the evicted keys (see `enforceCap` in glue.js).
    pub async fn write(&self, writes: &[Write], default_ttl: Option<&Ttl>, cap: Option<Cap>, now: f64) -> Result<Array> {
        let op = "writing";
        self.check_entries(writes).await?;
        let (tx, store) = self.write_tx(op, ENTRIES, writes.len() as u32)?;
        self.write_in(op, &store, writes, default_ttl, now).await?;
        let evicted = self.within_cap(op, &store, writes, cap, now).await?;
        self.commit(op, tx).await?;
        Ok(evicted)
    }

    /// Evicts, in the write's transaction, the entries over `cap`: from the front of the store
    /// (expired first, then the nearest to expiry), never one without expiry nor one of
    /// `writes`. Fails with [`Error::CapReached`] (the caller's transaction is then aborted)
    /// when only such entries are left.
    async fn within_cap(&self, op: &str, store: &IdbObjectStore, writes: &[Write], cap: Option<Cap>, now: f64) -> Result<Array> {
        let Some(cap) = cap else { return Ok(Array::new()) };
        let own: Array = writes.iter().map(|w| w.key.clone()).collect();
        let evicted = JsFuture::from(enforce_cap(store, &self.hints, cap.max, &own, now, cap.live_only, self.timeout_ms)).await;
        evicted.map(JsCast::unchecked_into).map_err(|e| match e.dyn_ref::<web_sys::DomException>() {
            Some(ex) if ex.name() == "CapReached" => Error::CapReached { cap: cap.max, message: ex.message() },
            _ => storage_error(&self.name, op, e),
        })
    }

    async fn check_entries(&self, writes: &[Write]) -> Result<()> {
        self.check_storable(writes.iter().map(|w| (&w.key, &w.value)), |k| format!("the value for key {}", describe_key(k))).await
    }

    /// The requests of `write`, in a transaction the caller commits.
    async fn write_in(&self, op: &str, store: &IdbObjectStore, writes: &[Write], default_ttl: Option<&Ttl>, now: f64) -> Result<()> {
        let store = store.clone();
        let by_key = index(&store)?;
        // Writing the same key twice in one batch: the last one wins, as if applied in order.
        let order: Vec<u32> = if writes.len() > 1 {
            let keys: Array = writes.iter().map(|w| w.key.clone()).collect();
            last_wins(&keys).to_vec()
        } else {
            (0..writes.len() as u32).collect()
        };
        // When no write's expiry depends on the entry's current one (no keepTtl...), each live
        // write is put at once, without looking up the old record (layout "A2" in
        // docs/benchmarks.md, minus its lookup): the put succeeds when the key is new or its
        // record has that very expiry, and when this connection has seen the key (an expiry
        // hint) its old record is deleted first. Where a record with another expiry is left, the
        // put fails on the unique key index and `putOver` looks the old record up, deletes it
        // and puts again, in the same transaction. The writes that expire at once, keys without
        // a hint while such keys mostly turned out stored already (`putOver`), and all writes of
        // a batch where one needs the current expiry go the long way below.
        let mut expiry: Vec<Option<f64>> = vec![None; writes.len()];
        let mut long_way = order.clone();
        let mut guessed = vec![false; writes.len()];
        if writes.iter().all(|w| !w.spec.needs_current()) {
            for &i in &order {
                expiry[i as usize] = Some(writes[i as usize].spec.resolve(default_ttl, None, now)?);
            }
            long_way.clear();
            for &i in &order {
                let (w, e) = (&writes[i as usize], expiry[i as usize].unwrap_or(NEVER_MS));
                if !is_live(e, now) {
                    long_way.push(i);
                    continue;
                }
                let put = put_over(&store, &by_key, &self.hints, &self.guess, &hinted_pk(&self.hints, &w.key), &record(&w.key, e, &w.value));
                if put.map_err(|err| self.put_error(&w.key, err))? {
                    // Hinted before the commit: if the transaction fails, the hint is stale,
                    // which costs a request later, never a wrong answer.
                    hint(&self.hints, &w.key, e);
                } else {
                    guessed[i as usize] = true;
                    long_way.push(i);
                }
            }
        }
        let lookups = long_way.iter().map(|&i| self.js(op, by_key.get_key(&writes[i as usize].key))).collect::<Result<Vec<_>>>()?;
        if let Some(last) = lookups.last() {
            self.settle(op, last).await?;
        }
        for (&i, lookup) in long_way.iter().zip(&lookups) {
            let w = &writes[i as usize];
            let old_pk = self.js(op, lookup.result())?;
            let old_e = (!old_pk.is_undefined()).then(|| pk_expiry(&old_pk));
            if guessed[i as usize] {
                learn(&self.guess, old_e.is_some());
            }
            let current = old_e.filter(|&e| is_live(e, now));
            // An error here drops `tx` uncommitted: the whole batch rolls back.
            let new_e = match expiry[i as usize] {
                Some(e) => e,
                None => w.spec.resolve(default_ttl, current, now)?,
            };
            if old_e.is_some_and(|e| e != new_e) {
                self.js(op, store.delete(&old_pk))?;
            }
            if is_live(new_e, now) {
                store.put(&record(&w.key, new_e, &w.value)).map_err(|e| self.put_error(&w.key, e))?;
                hint(&self.hints, &w.key, new_e);
            } else {
                self.hints.delete(&w.key);
            }
        }
        Ok(())
    }

    /// `store.import()`: definitions, entries, documents and events in one transaction over
    /// every object store, all or nothing. Every value was checked before the first request.
    pub async fn import(&self, w: &ImportWrites, cap: Option<Cap>, now: f64) -> Result<Array> {
        let op = "importing a snapshot";
        self.check_entries(&w.entries).await?;
        for (def, docs) in &w.collections {
            self.check_docs(def.name(), docs).await?;
        }
        for (def, events, _) in &w.series {
            self.check_events(def.name(), events).await?;
        }
        let names: Array = [ENTRIES, DOCS, BUCKETS, META].iter().map(|n| JsValue::from_str(n)).collect();
        let sys = self.js(op, write_tx_js(self.sys(), &names, u32::MAX))?;
        let tx = Tx { sys, completed: false };
        let store = |name: &str| self.js(op, tx.sys.object_store(name));
        let meta = store(META)?;
        for def in w.collections.iter().map(|(d, _)| d).chain(w.series.iter().map(|(d, _, _)| d)) {
            self.put_definition_in(op, &meta, def)?;
        }
        let entries = store(ENTRIES)?;
        self.write_in(op, &entries, &w.entries, None, now).await?;
        let evicted = self.within_cap(op, &entries, &w.entries, cap, now).await?;
        let docs = store(DOCS)?;
        for (def, writes) in &w.collections {
            self.put_docs_in(op, &docs, def.name(), writes).await?;
        }
        let buckets = store(BUCKETS)?;
        for (def, events, granularity) in &w.series {
            self.insert_events_in(op, &buckets, def.name(), events, *granularity).await?;
        }
        self.commit(op, tx).await?;
        Ok(evicted)
    }

    /// Removes `keys`; returns how many were live.
    pub async fn delete_many(&self, keys: &Array, now: f64) -> Result<u32> {
        let op = "deleting";
        let (tx, store) = self.write_tx(op, ENTRIES, keys.length())?;
        unhint(&self.hints, keys);
        let live = self.delete_found(op, &store, &index(&store)?, &unique(keys).into_iter().collect(), 0, now).await?;
        self.commit(op, tx).await?;
        Ok(live)
    }

    /// `deleteFound` in glue.js: deletes the records `index` maps `lookup` to, in the caller's
    /// transaction, and returns how many were live (part `n` of their primary key, the expiry
    /// or the reference time, after `bound`).
    async fn delete_found(&self, op: &str, store: &IdbObjectStore, index: &IdbIndex, lookup: &Array, n: u32, bound: f64) -> Result<u32> {
        let found = JsFuture::from(delete_found(store, index, lookup, n, bound, self.timeout_ms)).await;
        Ok(found.map_err(|e| storage_error(&self.name, op, e))?.as_f64().unwrap_or(0.0) as u32)
    }

    /// Removes every entry.
    pub async fn clear(&self) -> Result<()> {
        let op = "clearing";
        let (tx, store) = self.write_tx(op, ENTRIES, u32::MAX)?;
        self.hints.clear();
        self.js(op, store.clear())?;
        self.commit(op, tx).await
    }

    /// Live keys in key order.
    pub async fn keys(&self, now: f64) -> Result<Array> {
        let op = "listing keys";
        let store = self.read(op, ENTRIES)?;
        let pks = self.settle(op, &self.js(op, index(&store)?.get_all_keys())?).await?;
        Ok(live_keys(pks.unchecked_ref(), now))
    }

    /// Live values in key order.
    pub async fn values(&self, now: f64) -> Result<Array> {
        Ok(live_values(&self.all_records("listing values").await?, now))
    }

    /// Live `[key, value]` pairs in key order.
    pub async fn entries(&self, now: f64) -> Result<Array> {
        Ok(live_entries(&self.all_records("listing entries").await?, now))
    }

    /// Every stored entry record `{ k, e, v }`, expired or not, in key order (for export).
    pub async fn entry_records(&self) -> Result<Array> {
        self.all_records("reading entries").await
    }

    async fn all_records(&self, op: &str) -> Result<Array> {
        let store = self.read(op, ENTRIES)?;
        Ok(self.settle(op, &self.js(op, index(&store)?.get_all())?).await?.unchecked_into())
    }

    /// Number of live entries: one count over the primary-key range after `now`.
    pub async fn count(&self, now: f64) -> Result<u32> {
        let op = "counting";
        let store = self.read(op, ENTRIES)?;
        let live = self.js(op, IdbKeyRange::lower_bound_with_open(&instant_bound(now), true))?;
        let n = self.settle(op, &self.js(op, store.count_with_key(live.as_ref()))?).await?;
        Ok(n.as_f64().unwrap_or(0.0) as u32)
    }

    /// `expire`/`persist`: changes a live entry's expiry; `false` if there is no live entry (and,
    /// for `persist`, if it had no expiry).
    pub async fn change_expiry(&self, key: &JsValue, change: ExpiryChange<'_>, now: f64) -> Result<bool> {
        let op = "changing an expiry";
        let (tx, store) = self.write_tx(op, ENTRIES, 1)?;
        let rec = self.settle(op, &self.js(op, index(&store)?.get(key))?).await?;
        let live = (!rec.is_undefined()).then(|| record_expiry(&rec)).filter(|&e| is_live(e, now));
        let (old_e, new_e) = match (live, change) {
            (None, _) | (Some(NEVER_MS), ExpiryChange::Remove) => {
                tx.wrote_nothing();
                return Ok(false);
            }
            (Some(old_e), ExpiryChange::Set(spec)) => (old_e, spec.resolve(None, Some(old_e), now)?),
            (Some(old_e), ExpiryChange::Remove) => (old_e, NEVER_MS),
        };
        if new_e != old_e {
            self.js(op, store.delete(&pk_of(key, old_e)))?;
            if is_live(new_e, now) {
                store.put(&record(key, new_e, &record_value(&rec))).map_err(|e| self.put_error(key, e))?;
                hint(&self.hints, key, new_e);
            } else {
                self.hints.delete(key);
            }
        }
        self.commit(op, tx).await?;
        Ok(true)
    }

    /// One reaper batch over `expired`: removes up to `limit` of its records, in key order, in
    /// one transaction, pushes their names (key, id) onto `into` and returns how many (0 when
    /// nothing expired is left).
    pub async fn reap(&self, expired: &Expired, limit: u32, into: &Array) -> Result<u32> {
        let Expired { store: name, op, lower, upper, part, offer } = expired;
        if let Some(how) = offer {
            // Read, offered to onExpire, then removed or archived by primary key in a
            // transaction of their own (`offerRange` in glue.js).
            let n = JsFuture::from(offer_range(self.sys(), name, lower, upper, limit, how, into, self.timeout_ms)).await;
            return Ok(n.map_err(|e| storage_error(&self.name, op, e))?.as_f64().unwrap_or(0.0) as u32);
        }
        let (tx, store) = self.write_tx(op, name, limit)?;
        let removed = JsFuture::from(reap_range(&store, lower, upper, limit, into, *part, self.timeout_ms))
            .await
            .map_err(|e| storage_error(&self.name, op, e))?
            .as_f64()
            .unwrap_or(0.0) as u32;
        if removed == 0 {
            tx.wrote_nothing();
        } else {
            self.commit(op, tx).await?;
        }
        Ok(removed)
    }

    /// How many records are left in all of `expired`: one count request each, in one readonly
    /// transaction.
    pub async fn count_expired(&self, expired: &[Expired]) -> Result<u32> {
        let op = "counting expired records";
        let ranges: Array = expired.iter().map(|e| Array::of3(&e.store.into(), &e.lower, &e.upper)).collect();
        let n = JsFuture::from(count_ranges(self.sys(), &ranges, self.timeout_ms)).await;
        Ok(n.map_err(|e| storage_error(&self.name, op, e))?.as_f64().unwrap_or(0.0) as u32)
    }

    /// The archived value of `key` in archive `c` (0: the entries; a collection's name), or
    /// `undefined` if it is not there or was keyed by a time at or before `cutoff` (past its
    /// delete tier).
    pub async fn archive_get(&self, c: &JsValue, key: &JsValue, cutoff: f64) -> Result<JsValue> {
        let op = "reading the archive";
        let store = self.read(op, ARCHIVE)?;
        let rec = self.settle(op, &self.js(op, index_named(&store, BY_ITEM)?.get(&Array::of2(c, key)))?).await?;
        Ok(archived_value(&rec, cutoff))
    }

    /// Archived values of archive `c` after `cutoff`, soonest deleted first.
    pub async fn archive_values(&self, c: &JsValue, cutoff: f64) -> Result<Array> {
        let op = "reading the archive";
        let store = self.read(op, ARCHIVE)?;
        let recs: Array = self.settle(op, &self.js(op, store.get_all_with_key(&archive_range(c, cutoff)))?).await?.unchecked_into();
        Ok(collections::all_docs(&recs))
    }

    /// How many records archive `c` holds after `cutoff`.
    pub async fn archive_count(&self, c: &JsValue, cutoff: f64) -> Result<u32> {
        let op = "counting the archive";
        let store = self.read(op, ARCHIVE)?;
        let n = self.settle(op, &self.js(op, store.count_with_key(&archive_range(c, cutoff)))?).await?;
        Ok(n.as_f64().unwrap_or(0.0) as u32)
    }

    /// Empties archive `c`.
    pub async fn archive_clear(&self, c: &JsValue) -> Result<()> {
        let op = "clearing the archive";
        let (tx, store) = self.write_tx(op, ARCHIVE, u32::MAX)?;
        self.js(op, store.delete(&archive_range(c, f64::NEG_INFINITY)))?;
        self.commit(op, tx).await
    }

    /// One `evictOnQuota` round (`makeRoom` in glue.js): evicts up to `n` entries from the
    /// front of the expiry order (expired ones too unless `live_only`), never one of `own` nor
    /// one without expiry, in a transaction of its own; resolves to their keys.
    pub async fn make_room(&self, n: u32, own: &Array, live_only: bool, now: f64) -> Result<Array> {
        let done = JsFuture::from(make_room(self.sys(), &self.hints, n, own, now, live_only, self.timeout_ms)).await;
        Ok(done.map_err(|e| storage_error(&self.name, "evicting for space", e))?.unchecked_into())
    }

    /// `navigator.storage.estimate()`'s `{ usage, quota }` (`{}` without a StorageManager) with
    /// `live` and `expired`: the entries live at `now` and those expired but still stored.
    pub async fn estimate(&self, now: f64) -> Result<JsValue> {
        let op = "estimating storage";
        let usage = JsFuture::from(storage_estimate()).await.map_err(|e| storage_error(&self.name, op, e))?;
        let live = self.count(now).await?;
        let expired = self.count_expired(&[Expired::entries(now)]).await?;
        let _ = js_sys::Reflect::set(&usage, &"live".into(), &live.into());
        let _ = js_sys::Reflect::set(&usage, &"expired".into(), &expired.into());
        Ok(usage)
    }

    /// `navigator.storage.persist()`: whether the origin's storage is persistent now.
    pub async fn persist_storage(&self) -> Result<bool> {
        let granted = JsFuture::from(persist_storage()).await.map_err(|e| storage_error(&self.name, "asking for persistent storage", e))?;
        Ok(granted.is_truthy())
    }

    /// A readonly transaction on store `name`: reads need no commit and no completion
    /// listeners (a finished readonly transaction is simply left to end).
    fn read(&self, op: &str, name: &str) -> Result<IdbObjectStore> {
        let tx = self.js(op, self.sys().transaction_with_str(name))?;
        self.js(op, tx.object_store(name))
    }

    /// A readwrite transaction on store `name`, guarded: it is aborted unless [`Conn::commit`]
    /// saw it complete.
    ///
    /// `work` is how many records it may touch (`u32::MAX`: unknown, as for a clear): one that
    /// touches more than one gets the watchdog's probe (`writeTx` in glue.js), so it is never
    /// aborted for being slow once it runs.
    fn write_tx(&self, op: &str, name: &str, work: u32) -> Result<(Tx, IdbObjectStore)> {
        let sys = self.js(op, write_tx_js(self.sys(), &name.into(), work))?;
        let store = self.js(op, sys.object_store(name))?;
        Ok((Tx { sys, completed: false }, store))
    }

    /// Waits for `tx` to complete. It commits on its own once its last request has answered,
    /// as raw IndexedDB code does: no explicit `commit()`, so until then it can still be aborted
    /// (by the watchdog, or by dropping `tx` on an error path) and a write that was refused or
    /// timed out never lands later.
    async fn commit(&self, op: &str, mut tx: Tx) -> Result<()> {
        let done = JsFuture::from(finish(&tx.sys, self.timeout_ms)).await;
        tx.completed = done.is_ok();
        done.map(drop).map_err(|e| storage_error(&self.name, op, e))
    }

    /// The result of `req`, or its error; a `TimeoutError` if it gets no answer in time.
    async fn settle(&self, op: &str, req: &IdbRequest) -> Result<JsValue> {
        JsFuture::from(settle(req, self.timeout_ms)).await.map_err(|e| storage_error(&self.name, op, e))
    }

    /// Refuses, before any request is made, a value this session cannot store: a Blob or File
    /// where the browser refuses them (see `probeBlobs` in glue.js). `what(key)` names a value
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
            match blob_path(value) {
                Ok(None) => {}
                Ok(Some(path)) => return Err(Error::InvalidType(format!("{} holds a Blob or File at {path}: {NO_BLOBS}", what(key)))),
                Err(e) => return Err(Error::InvalidType(format!("{} cannot be stored: {}", what(key), thrown_text(&e)))),
            }
        }
        Ok(())
    }

    /// Whether this session can store Blob and File values, asked once per connection.
    async fn blobs_storable(&self) -> bool {
        if let Some(known) = self.blobs.get() {
            return known;
        }
        let ok = JsFuture::from(probe_blobs(self.sys(), META, self.timeout_ms)).await.ok().and_then(|v| v.as_bool()).unwrap_or(true);
        self.blobs.set(Some(ok));
        ok
    }

    fn sys(&self) -> &web_sys::IdbDatabase {
        &self.db
    }

    fn js<T>(&self, op: &str, r: std::result::Result<T, JsValue>) -> Result<T> {
        r.map_err(|e| storage_error(&self.name, op, e))
    }

    fn put_error(&self, key: &JsValue, e: JsValue) -> Error {
        self.clone_error(&format!("the value for key {}", describe_key(key)), e)
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

fn index(store: &IdbObjectStore) -> Result<IdbIndex> {
    index_named(store, BY_KEY)
}

fn index_named(store: &IdbObjectStore, name: &str) -> Result<IdbIndex> {
    store.index(name).map_err(|e| storage_error(&store.name(), "opening an index", e))
}

/// `[now, []]`: sorts after every `[now, key]` (arrays sort after strings and numbers), so
/// `<=` it is "expired at `now`" and `>` it is "live at `now`".
fn instant_bound(now: f64) -> JsValue {
    Array::of2(&JsValue::from_f64(now), &Array::new()).into()
}

fn pk_of(key: &JsValue, e: f64) -> JsValue {
    Array::of2(&JsValue::from_f64(e), key).into()
}

fn live_pk_expiry(pk: &JsValue, now: f64) -> Option<f64> {
    (!pk.is_undefined()).then(|| pk_expiry(pk)).filter(|&e| is_live(e, now))
}

/// A key as it would appear in JS source, for error messages.
pub fn describe_key(key: &JsValue) -> String {
    match (key.as_string(), key.as_f64()) {
        (Some(s), _) => quote(&s),
        (_, Some(n)) => js_number(n),
        _ => "(a key)".into(),
    }
}

/// An indexed_db_futures error as the JS value it stands for. Not through its `Display`, which
/// prints the floats of its number-parsing errors with `core::fmt` (issue 19).
pub(crate) fn idb_to_js(e: IdbError) -> JsValue {
    match e {
        IdbError::DomException(d) => d.into(),
        IdbError::Unknown(e) => JsValue::from_str(&format!("Generic JS error: {e}")),
        IdbError::MissingData(e) => JsValue::from_str(&format!("Missing data: {e}")),
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

/// Maps a failure from IndexedDB to the error type, by the DOMException's name.
pub(crate) fn storage_error(db: &str, op: &str, err: JsValue) -> Error {
    let Some(ex) = err.dyn_ref::<web_sys::DomException>() else {
        let message = err.as_string().unwrap_or_else(|| thrown_text(&err));
        return Error::Storage { op: op.into(), name: "Error".into(), message };
    };
    let (name, message) = (ex.name(), ex.message());
    match name.as_str() {
        "QuotaExceededError" => Error::QuotaExceeded { op: op.into(), message },
        // Raised by the watchdog in glue.js.
        "TimeoutError" => Error::Timeout { op: op.into(), message },
        // Raised by `offerRange` in glue.js when onExpire failed; it counts the records.
        "HandOffError" => {
            let records = js_sys::Reflect::get(&err, &"records".into()).ok().and_then(|n| n.as_f64()).unwrap_or(0.0) as u32;
            Error::HandOff { records, message }
        }
        // WebKit's ephemeral sessions (Safari Private Browsing) refuse Blob and File values.
        "UnknownError" if find(&message, "Blob/File").is_some() => Error::InvalidType(format!("{NO_BLOBS}; ({message})")),
        "InvalidStateError" if find(&message, "clos").is_some() => Error::Closed { db: db.into(), why: message },
        _ => Error::Storage { op: op.into(), name, message },
    }
}

/// The expiry part of an entry's primary key `[e, k]`.
fn pk_expiry(pk: &JsValue) -> f64 {
    pk_at(pk, 0).as_f64().unwrap_or(f64::NAN)
}

/// `keys` without repeats, each at its last position (the order repeated writes would apply in).
fn unique(keys: &Array) -> Vec<JsValue> {
    if keys.length() > 1 {
        last_wins(keys).to_vec().into_iter().map(|i| keys.get(i)).collect()
    } else {
        keys.iter().collect()
    }
}
