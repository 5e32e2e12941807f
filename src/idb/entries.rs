//! The key-value entries: reads, writes, deletes, expiry changes.
//!
//! Expiry hints: what this connection last saw of each key's expiry, for string and number keys
//! (a JS `Map` compares them as IndexedDB does), at most [`HINTS_MAX`] of them, the one noted
//! longest ago forgotten first (a read that finds the hint right leaves it where it is). A hint
//! lets a read go straight to the record's primary key `[e, k]` instead of through the `by_key`
//! index, and an overwrite delete the old record without looking it up.
//! A hint may be stale (another tab or worker wrote the key, the reaper removed it): a read by a
//! stale primary key finds nothing and asks the index; an overwrite's put fails on the unique
//! index, and is done again after a lookup. Correctness never depends on a hint, only speed.

use indexed_db_futures::object_store::ObjectStore;
use indexed_db_futures::KeyRange;
use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::records::{entry_read, EntryRecord};
use super::reap::Cap;
use super::runner::{Ask, Req, Run};
use super::schema::{BY_KEY, DOCS, BUCKETS, ENTRIES, META};
use super::{describe_key, Conn, ImportWrites, Write};
use crate::core::entry::{is_live, Expiry, NEVER_MS};
use crate::core::error::{Error, Result};
use crate::core::expiry::Ttl;

const HINTS_MAX: u32 = 100_000;

/// The live entry a read-modify-write finds: its value as stored and its expiry.
#[derive(Debug)]
pub struct Current {
    /// The value as stored (sealed, in a store that encrypts).
    pub value: JsValue,
    /// Its expiry, counting an extension due here.
    pub x: Expiry,
}

/// A read-modify-write's decision, made inside its transaction from the live entry found.
pub type Decide<'a> = &'a mut dyn FnMut(Option<Current>) -> Result<Modify>;

/// A boxed future of the adapter.
pub type Pending<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = Result<T>> + 'a>>;

/// What a read-modify-write does with the key ([`Conn::modify`]).
#[derive(Debug)]
pub enum Modify {
    /// Nothing: the transaction writes nothing.
    Keep,
    /// Removes the entry.
    Delete,
    /// Writes this value with this expiry (one already past removes the entry instead).
    Put(JsValue, Expiry),
}

/// How many puts long work (`long`) makes before waiting for them and looking whether it was
/// stopped.
const CHUNK: usize = 1000;

/// After the `n`th put of long work, `put`: at the end of a chunk, waits for it (and so for the
/// chunk) and stops if the call was stopped. A failed put is an answer here: the caller resolves
/// its conflict.
async fn end_of_chunk(run: &Run<'_>, put: &mut Req<'_>, n: usize) -> Result<()> {
    if n.is_multiple_of(CHUNK) {
        let _ = run.settle(put).await?;
        crate::long::check()?;
    }
    Ok(())
}

fn hintable(k: &JsValue) -> bool {
    k.is_string() || k.as_f64().is_some()
}

/// How many entries are live at `now`: a count over the primary-key range after it.
pub(super) fn count_live(now: f64) -> Ask {
    Ask::Count(Some(KeyRange::LowerBound(instant_bound(now), true)))
}

/// `[now, []]`: sorts after every `[now, key]` (arrays sort after strings and numbers), so `<=`
/// it is "expired at `now`" and `>` it is "live at `now`".
pub(super) fn instant_bound(now: f64) -> JsValue {
    Array::of2(&JsValue::from_f64(now), &Array::new()).into()
}

#[wasm_bindgen]
extern "C" {
    /// `[e, key]`: the primary key of `key`'s entry with expiry `e`.
    #[wasm_bindgen(js_namespace = Array, js_name = of)]
    pub(super) fn pk_of(e: f64, key: &JsValue) -> JsValue;
}

/// Part `n` of a compound primary key.
pub(super) fn pk_at(pk: &JsValue, n: u32) -> JsValue {
    pk.unchecked_ref::<Array>().get(n)
}

/// The expiry part of an entry's primary key `[e, k]`.
pub(super) fn pk_expiry(pk: &JsValue) -> f64 {
    pk_at(pk, 0).as_f64().unwrap_or(f64::NAN)
}

/// The positions of `keys` to write when a key appears more than once: the last one wins, as if
/// the writes ran one after another. A JS `Map` compares string and number keys as IndexedDB does.
pub(super) fn last_wins<'a>(keys: impl ExactSizeIterator<Item = &'a JsValue> + Clone) -> Vec<u32> {
    if keys.len() < 2 {
        return (0..keys.len() as u32).collect();
    }
    let last = js_sys::Map::new();
    for (i, k) in keys.clone().enumerate() {
        last.set(k, &JsValue::from(i as u32));
    }
    // In order without a sort: each position that is its key's last.
    (0..).zip(keys).filter(|&(i, k)| last.get(k).as_f64() == Some(f64::from(i))).map(|(i, _)| i).collect()
}

/// An error listener for puts that may meet an older record of their key on a unique index: the
/// `ConstraintError` is cancelled, so the transaction lives on and the put is done again after a
/// lookup.
pub(super) fn absorb_constraint_errors() -> Closure<dyn FnMut(web_sys::Event)> {
    Closure::new(|event: web_sys::Event| {
        let refused = event.target().and_then(|t| t.dyn_into::<web_sys::IdbRequest>().ok()).and_then(|r| r.error().ok().flatten());
        if refused.is_some_and(|e| e.name() == "ConstraintError") {
            event.prevent_default();
            event.stop_propagation();
        }
    })
}

impl Conn {
    /// The expiry this connection last saw for `k`, if it knows it (never for a key that is not
    /// [`hintable`]: none is noted).
    pub(super) fn hinted(&self, k: &JsValue) -> Option<f64> {
        self.hints.get(k).as_f64()
    }

    fn hint(&self, k: &JsValue, e: f64) {
        if !hintable(k) {
            return;
        }
        if !self.hints.delete(k) && self.hints.size() >= HINTS_MAX {
            if let Some(Ok(oldest)) = self.hints.keys().into_iter().next() {
                self.hints.delete(&oldest);
            }
        }
        self.hints.set(k, &JsValue::from_f64(e));
    }

    /// How often keys written without a hint were stored already, as a moving average.
    fn learn(&self, found: bool) {
        self.found.set(self.found.get() * 0.95 + if found { 0.05 } else { 0.0 });
    }

    /// The value of `key`'s record `rec` (`undefined`: there is none) read at `now` if it is
    /// live, else `undefined`; the key's hint follows what was read (`hint`: the one the read
    /// went by).
    pub(super) fn live_value(&self, key: &JsValue, rec: JsValue, hint: Option<f64>, now: f64, use_it: bool) -> Result<JsValue> {
        if rec.is_undefined() {
            if hint.is_some() {
                self.hints.delete(key);
            }
            return Ok(JsValue::UNDEFINED);
        }
        let (x, v) = entry_read(&rec)?;
        if hint != Some(x.e) {
            self.hint(key, x.e);
        }
        Ok(if self.live_read(key, &x, now, use_it) { v } else { JsValue::UNDEFINED })
    }

    /// Whether `key`'s record of expiry `x`, read at `now`, is live, counting an extension this
    /// connection has due for it; with `use_it`, a read of an idle entry that moves its expiry on
    /// is noted as due (written by [`Conn::extend_due`]).
    pub(super) fn live_read(&self, key: &JsValue, x: &Expiry, now: f64, use_it: bool) -> bool {
        let Some(idle) = x.idle else { return is_live(x.e, now) };
        let e = self.counting_due(key, x.e);
        if !is_live(e, now) {
            return false;
        }
        if use_it {
            if let Some(target) = idle.extension(e, now) {
                self.extending.set(key, &JsValue::from_f64(target));
                self.maybe_due.set(true);
            }
        }
        true
    }

    /// How many extensions of idle entries are due.
    pub fn extensions_due(&self) -> u32 {
        if !self.maybe_due.get() {
            return 0;
        }
        let n = self.extending.size();
        self.maybe_due.set(n > 0);
        n
    }

    /// The live entry of `key` as stored (its value sealed, in a store that encrypts), `None` if
    /// missing or expired.
    pub async fn live_entry(&self, key: &JsValue, now: f64) -> Result<Option<Current>> {
        let rec = self.ask("reading an entry", ENTRIES, Some(BY_KEY), Ask::Get(key.clone())).await?;
        if rec.is_undefined() {
            return Ok(None);
        }
        Ok(self.current(key, EntryRecord::read(&rec)?, now))
    }

    /// `key`'s record `rec` as the entry it is at `now`: its expiry counting an extension due
    /// here, `None` once that has passed.
    pub(super) fn current(&self, key: &JsValue, rec: EntryRecord, now: f64) -> Option<Current> {
        let x = Expiry { e: self.counting_due(key, rec.e), ..rec.expiry() };
        is_live(x.e, now).then_some(Current { value: rec.v, x })
    }

    /// A stored expiry `e` of `key`, or the extension due for it here if later.
    pub(super) fn counting_due(&self, key: &JsValue, e: f64) -> f64 {
        self.extending.get(key).as_f64().map_or(e, |d| d.max(e))
    }

    /// `set`/`setMany`: all writes in one transaction, all or nothing. A write whose expiry
    /// resolves to the past removes the key and stores nothing.
    ///
    /// Under a `cap` (`maxEntries`), the same transaction then evicts what is over it and
    /// resolves to the evicted keys (see [`Conn::enforce_cap`]).
    pub async fn write(&self, writes: &[Write], default_ttl: Option<&Ttl>, cap: Option<Cap>, now: f64) -> Result<Array> {
        self.check_entries(writes).await?;
        match self.write_once(writes, default_ttl, cap, now, true).await {
            // A put made at once met an older record of its key (another tab or worker wrote
            // it, or the reaper removed what a hint named): the transaction aborted, nothing was
            // written, and the batch is written again, every old record looked up first.
            Err(Error::Storage { name, .. }) if name == "ConstraintError" => {
                self.learn(true);
                self.write_once(writes, default_ttl, cap, now, false).await
            }
            written => written,
        }
    }

    async fn write_once(&self, writes: &[Write], default_ttl: Option<&Ttl>, cap: Option<Cap>, now: f64, at_once: bool) -> Result<Array> {
        // No probe yet: `write_in` makes one its first request.
        let run = self.begin("writing", &[ENTRIES], true, 0)?;
        let store = run.store(ENTRIES)?;
        self.write_in(&run, &store, writes, default_ttl, now, at_once, cap.is_some()).await?;
        let evicted = self.within_cap(&run, &store, writes, cap, now).await?;
        run.done().await?;
        Ok(evicted)
    }

    async fn within_cap(&self, run: &Run<'_>, store: &ObjectStore<'_>, writes: &[Write], cap: Option<Cap>, now: f64) -> Result<Array> {
        let Some(cap) = cap else { return Ok(Array::new()) };
        let own: Vec<JsValue> = writes.iter().map(|w| w.key.clone()).collect();
        self.enforce_cap(run, store, cap, &own, now).await
    }

    async fn check_entries(&self, writes: &[Write]) -> Result<()> {
        self.check_storable(writes.iter().map(|w| (&w.key, &w.value)), |k| format!("the value for key {}", describe_key(k))).await
    }

    fn put_entry(&self, run: &Run<'_>, store: &ObjectStore<'_>, w: &Write, x: Expiry) -> Result<Req<'static>> {
        // A write replaces the entry: an extension a read of the old one noted is void.
        self.extending.delete(&w.key);
        run.put(store, &EntryRecord::new(w.key.clone(), w.value.clone(), x)).map(|r| r.track(1)).map_err(|err| self.put_error(&w.key, err))
    }

    /// The requests of `write`, in a transaction the caller commits.
    ///
    /// With `at_once`, when no write's expiry depends on the entry's current one (no keepTtl...),
    /// each live write is put at once, without looking up the old record: the put succeeds when
    /// the key is new or its record has that very expiry, and when this connection has seen the
    /// key (a hint) its old record is deleted first. Writes that expire at once, keys without a
    /// hint while such keys mostly turned out stored already, and every write of a batch where
    /// one needs the current expiry are looked up first. Where a put made at once meets a
    /// record with another expiry, it fails on the unique key index: when the transaction lives
    /// on after the puts (the batch looks something up, or the caller has `more` requests to
    /// make), that error is cancelled and the put done again after a lookup in this
    /// transaction; otherwise nothing is awaited before the commit, so the error aborts the
    /// transaction and [`Conn::write`] writes the batch again the long way.
    // Eight arguments: the transaction and its store, the batch and its defaults, and the two
    // answers only the caller has (whether to put at once, whether it makes more requests).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn write_in(
        &self,
        run: &Run<'_>,
        store: &ObjectStore<'_>,
        writes: &[Write],
        default_ttl: Option<&Ttl>,
        now: f64,
        at_once: bool,
        more: bool,
    ) -> Result<()> {
        let by_key = run.check(store.index(BY_KEY))?;
        let order = last_wins(writes.iter().map(|w| &w.key));
        let mut expiry: Vec<Option<Expiry>> = vec![None; writes.len()];
        let mut long_way = order.clone();
        let mut guessed = vec![false; writes.len()];
        // Writes put at once: the write, and the old record a hint names.
        let mut fast: Vec<(usize, Option<JsValue>)> = Vec::new();
        if at_once && writes.iter().all(|w| !w.spec.needs_current()) {
            long_way.clear();
            for &i in &order {
                let (i, w) = (i as usize, &writes[i as usize]);
                let x = w.spec.resolve(default_ttl, None, now)?;
                expiry[i] = Some(x);
                if !is_live(x.e, now) {
                    long_way.push(i as u32);
                    continue;
                }
                match self.hinted(&w.key).map(|e| pk_of(e, &w.key)) {
                    Some(old) => fast.push((i, Some(old))),
                    None if self.found.get() >= 0.5 => {
                        guessed[i] = true;
                        long_way.push(i as u32);
                    }
                    None => {
                        self.learn(false);
                        fast.push((i, None));
                    }
                }
            }
        }
        // The transaction lives on after the puts (lookups to wait for, or `more` requests of the
        // caller's): a put's conflict is resolved in it.
        // Long work (`long`) goes a chunk at a time, so that stopping it finds few requests under
        // way: aborting thousands costs WebKit more than its watchdog waits.
        let tracked = crate::long::tracked();
        let cancel = more || tracked || !long_way.is_empty();
        let mut puts = Vec::with_capacity(fast.len());
        for (i, old) in fast {
            let w = &writes[i];
            // The transaction's first request is its probe: a hinted old record's delete, or a
            // count before a put (`Conn::write` begins without one).
            match old {
                Some(old) => run.probe_with(run.delete(store, old)?),
                None => run.ensure_probe(store)?,
            }
            let x = expiry[i].unwrap_or(Expiry::at(NEVER_MS));
            let put = self.put_entry(run, store, w, x)?;
            if cancel {
                put.on_error(self.absorb.as_ref().unchecked_ref());
            }
            // Hinted before the commit: if the transaction fails, the hint is stale, which
            // costs a request later, never a wrong answer.
            self.hint(&w.key, x.e);
            puts.push((i, put));
            if tracked {
                let n = puts.len();
                if let Some((_, last)) = puts.last_mut() {
                    end_of_chunk(run, last, n).await?;
                }
            }
        }
        // keepTtl reads the record (an idle entry keeps its window and cap); others its key.
        let mut lookups = Vec::with_capacity(long_way.len());
        for &i in &long_way {
            let w = &writes[i as usize];
            lookups.push(run.ask(&by_key, if w.spec.needs_current() { Ask::Get(w.key.clone()) } else { Ask::GetKey(w.key.clone()) })?);
        }
        if !cancel {
            return Ok(());
        }
        let old_pks = if lookups.is_empty() {
            if let Some((_, last)) = puts.last_mut() {
                let _ = run.settle(last).await?;
            }
            Vec::new()
        } else {
            run.results(&mut lookups).await?
        };
        // Puts that met an older record of their key: look it up, delete it, put again.
        let conflicts: Vec<usize> = puts.iter_mut().filter_map(|(i, put)| put.failed_with("ConstraintError").then_some(*i)).collect();
        if !conflicts.is_empty() {
            self.learn(true);
            let mut olds = Vec::with_capacity(conflicts.len());
            for &i in &conflicts {
                olds.push(run.ask(&by_key, Ask::GetKey(writes[i].key.clone()))?);
            }
            for (&i, old_pk) in conflicts.iter().zip(run.results(&mut olds).await?) {
                if !old_pk.is_undefined() {
                    run.delete(store, old_pk)?;
                }
                self.put_entry(run, store, &writes[i], expiry[i].unwrap_or(Expiry::at(NEVER_MS)))?;
            }
        }
        let mut written = 0;
        for (&i, found) in long_way.iter().zip(old_pks) {
            let (i, w) = (i as usize, &writes[i as usize]);
            // A primary key, or (keepTtl) the record.
            let old = if found.is_undefined() {
                None
            } else if w.spec.needs_current() {
                let rec = EntryRecord::read(&found)?;
                Some((pk_of(rec.e, &w.key), rec.expiry()))
            } else {
                let e = pk_expiry(&found);
                Some((found, Expiry::at(e)))
            };
            if guessed[i] {
                self.learn(old.is_some());
            }
            let current = old.as_ref().map(|(_, x)| *x).filter(|x| is_live(x.e, now));
            // An error here drops the run uncommitted: the whole batch rolls back.
            let new = match expiry[i] {
                Some(x) => x,
                None => w.spec.resolve(default_ttl, current, now)?,
            };
            if let Some((old_pk, x)) = old {
                if x.e != new.e {
                    run.delete(store, old_pk)?;
                }
            }
            if is_live(new.e, now) {
                let mut put = self.put_entry(run, store, w, new)?;
                written += 1;
                if tracked {
                    end_of_chunk(run, &mut put, written).await?;
                }
                self.hint(&w.key, new.e);
            } else {
                self.hints.delete(&w.key);
            }
        }
        Ok(())
    }

    /// `store.import()`: definitions, entries, documents and events in one transaction over
    /// every object store, all or nothing. Every value was checked before the first request.
    pub async fn import(&self, w: &ImportWrites, cap: Option<Cap>, now: f64) -> Result<Array> {
        self.check_entries(&w.entries).await?;
        #[cfg(feature = "full")]
        for (def, docs) in &w.collections {
            self.check_docs(def.name(), docs).await?;
        }
        #[cfg(feature = "full")]
        for (def, events, _) in &w.series {
            self.check_events(def.name(), events).await?;
        }
        let run = self.begin("importing a snapshot", &[ENTRIES, DOCS, BUCKETS, META], true, u32::MAX)?;
        #[cfg(feature = "full")]
        let meta = run.store(META)?;
        #[cfg(feature = "full")]
        for def in w.collections.iter().map(|(d, _)| d).chain(w.series.iter().map(|(d, _, _)| d)) {
            run.put_at(&meta, def.to_js(), def.key().into())?;
        }
        let entries = run.store(ENTRIES)?;
        self.write_in(&run, &entries, &w.entries, None, now, false, true).await?;
        let evicted = self.within_cap(&run, &entries, &w.entries, cap, now).await?;
        #[cfg(feature = "full")]
        let docs = run.store(DOCS)?;
        #[cfg(feature = "full")]
        for (def, writes) in &w.collections {
            self.put_docs_in(&run, &docs, def.name(), writes).await?;
        }
        #[cfg(feature = "full")]
        let buckets = run.store(BUCKETS)?;
        #[cfg(feature = "full")]
        for (def, events, options) in &w.series {
            self.insert_events_in(&run, &buckets, def.name(), events, options).await?;
        }
        run.done().await?;
        Ok(evicted)
    }

    /// Removes `keys`; returns how many were live.
    pub async fn delete_many(&self, keys: &Array, now: f64) -> Result<u32> {
        let keys: Vec<JsValue> = keys.iter().collect();
        for k in &keys {
            self.hints.delete(k);
            self.extending.delete(k);
        }
        let lookup: Vec<JsValue> = last_wins(keys.iter()).into_iter().map(|i| keys[i as usize].clone()).collect();
        self.delete_found("deleting", ENTRIES, BY_KEY, lookup, 0, now).await
    }

    /// Removes the records of `store` that index `index` maps `lookups` to, looked up all at once,
    /// in one transaction; returns how many were live: part `n` of their primary key (the expiry
    /// of an entry, the reference time of a document) after `bound`.
    pub(super) async fn delete_found(&self, op: &str, name: &str, index: &str, lookups: Vec<JsValue>, n: u32, bound: f64) -> Result<u32> {
        let run = self.begin(op, &[name], true, lookups.len() as u32)?;
        let store = run.store(name)?;
        let index = run.check(store.index(index))?;
        let mut found = Vec::with_capacity(lookups.len());
        for k in lookups {
            found.push(run.ask(&index, Ask::GetKey(k))?);
        }
        let mut live = 0;
        for pk in run.results(&mut found).await? {
            if pk.is_undefined() {
                continue;
            }
            if pk_at(&pk, n).as_f64().is_some_and(|t| t > bound) {
                live += 1;
            }
            run.delete(&store, pk)?;
        }
        run.done().await?;
        Ok(live)
    }

    /// Removes every entry.
    pub async fn clear(&self) -> Result<()> {
        self.hints.clear();
        self.extending.clear();
        self.change("clearing", ENTRIES, None).await
    }

    /// How many records the entries, documents and buckets stores hold, expired or not: what an
    /// export reads.
    pub async fn record_count(&self) -> Result<u32> {
        let mut n = 0.0;
        for name in [ENTRIES, DOCS, BUCKETS] {
            n += self.ask("counting records", name, None, Ask::Count(None)).await?.as_f64().unwrap_or(0.0);
        }
        Ok(n as u32)
    }

    /// Up to `limit` stored entry records `{ k, e, v }`, expired or not, in key order after key
    /// `after` (from the first without): a page of an export.
    pub async fn entry_page(&self, after: Option<JsValue>, limit: u32) -> Result<Array> {
        let range = after.map(|k| KeyRange::LowerBound(k, true));
        Ok(self.ask("reading entries", ENTRIES, Some(BY_KEY), Ask::All(range, Some(limit))).await?.unchecked_into())
    }

    /// Number of live entries: one count over the primary-key range after `now`.
    pub async fn count(&self, now: f64) -> Result<u32> {
        Ok(self.ask("counting", ENTRIES, None, count_live(now)).await?.as_f64().unwrap_or(0.0) as u32)
    }

    /// A read-modify-write of `key` in one readwrite transaction: its record read, `decide`
    /// given the live entry (`None` if missing or expired; an expired record counts as absent
    /// and is replaced or removed with it), and what it decides written before the commit.
    /// `decide` runs synchronously inside the transaction, so nothing else writes the key in
    /// between, in any tab or worker; it returns what it found through what it captures. An
    /// error of `decide` (or a value that cannot be stored) writes nothing. Under a `cap`, a put
    /// evicts what is over it (the evicted keys are returned).
    pub fn modify<'a>(&'a self, op: &'static str, key: &'a JsValue, cap: Option<Cap>, now: f64, decide: Decide<'a>) -> Pending<'a, Array> {
        // Boxed: one copy of the body for every verb, not one inlined in each.
        Box::pin(self.modify_in(op, key, cap, now, decide))
    }

    async fn modify_in(&self, op: &'static str, key: &JsValue, cap: Option<Cap>, now: f64, decide: Decide<'_>) -> Result<Array> {
        let blobs = self.blobs_storable().await;
        // No probe: the read, awaited under the watchdog, is the first request and says the
        // transaction runs.
        let run = self.begin(op, &[ENTRIES], true, 0)?;
        let store = run.store(ENTRIES)?;
        let by_key = run.check(store.index(BY_KEY))?;
        let rec = run.wait(&mut run.ask(&by_key, Ask::Get(key.clone()))?).await?;
        let rec = if rec.is_undefined() { None } else { Some(EntryRecord::read(&rec)?) };
        let stored = rec.as_ref().map(|r| r.e);
        let live = rec.and_then(|r| self.current(key, r, now));
        let change = match decide(live) {
            Ok(decided) => decided,
            Err(e) => {
                run.wrote_nothing();
                return Err(e);
            }
        };
        let put = match change {
            Modify::Keep => {
                run.wrote_nothing();
                return Ok(Array::new());
            }
            Modify::Delete => None,
            Modify::Put(value, x) if is_live(x.e, now) => {
                if !blobs {
                    super::no_blob(&value, || format!("the value for key {}", describe_key(key)))?;
                }
                Some((value, x))
            }
            // An expiry already past: stores nothing and removes the key, as `set` does.
            Modify::Put(..) => None,
        };
        self.extending.delete(key);
        if let Some(old) = stored.filter(|&old| put.as_ref().is_none_or(|(_, x)| x.e != old)) {
            run.delete(&store, pk_of(old, key))?;
        }
        let mut evicted = Array::new();
        match put {
            Some((value, x)) => {
                // A put refused here (a value that cannot be cloned) drops the run uncommitted:
                // the delete above is rolled back with it.
                run.put(&store, &EntryRecord::new(key.clone(), value, x)).map_err(|e| self.put_error(key, e))?;
                self.hint(key, x.e);
                if let Some(cap) = cap {
                    evicted = self.enforce_cap(&run, &store, cap, std::slice::from_ref(key), now).await?;
                }
            }
            None => {
                self.hints.delete(key);
            }
        }
        run.done().await?;
        Ok(evicted)
    }

    /// Writes the extensions of idle entries that reads noted as due, in one transaction: each
    /// record is read again there and moved on only if it is still an idle entry expiring before
    /// its new expiry (another tab may have extended, rewritten or deleted it, or the reaper
    /// removed it meanwhile; those are left as they are), never past the end of the window
    /// the record has now. The keys extended. Due extensions are forgotten either way (a read
    /// notes them again).
    pub async fn extend_due(&self, now: f64) -> Result<Array> {
        let due: Vec<(JsValue, f64)> = self.extending.entries().into_iter().filter_map(|kv| {
            let kv: Array = kv.ok()?.unchecked_into();
            Some((kv.get(0), kv.get(1).as_f64()?))
        }).collect();
        if due.is_empty() {
            return Ok(Array::new());
        }
        let written = self.extend_in(&due, now).await;
        // Noted again meanwhile (a later read): written by the next flush.
        for (key, target) in &due {
            if self.extending.get(key).as_f64() == Some(*target) {
                self.extending.delete(key);
            }
        }
        written
    }

    async fn extend_in(&self, due: &[(JsValue, f64)], now: f64) -> Result<Array> {
        let run = self.begin("extending idle entries", &[ENTRIES], true, due.len() as u32)?;
        let store = run.store(ENTRIES)?;
        let by_key = run.check(store.index(BY_KEY))?;
        let mut found = Vec::with_capacity(due.len());
        for (k, _) in due {
            found.push(run.ask(&by_key, Ask::Get(k.clone()))?);
        }
        let extended = Array::new();
        for ((key, target), rec) in due.iter().zip(run.results(&mut found).await?) {
            if rec.is_undefined() {
                continue;
            }
            let rec = EntryRecord::read(&rec)?;
            let Some(idle) = rec.expiry().idle else { continue };
            let e = target.min(idle.deadline(now));
            if rec.e >= e {
                continue;
            }
            run.delete(&store, pk_of(rec.e, key))?;
            run.put(&store, &EntryRecord { e, ..rec }).map_err(|err| self.put_error(key, err))?;
            self.hint(key, e);
            extended.push(key);
        }
        run.done().await?;
        Ok(extended)
    }
}
