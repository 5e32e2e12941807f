//! What the reaper asks of IndexedDB: expired ranges removed, offered to `onExpire` or moved to
//! the archive; the archive itself; and eviction under `maxEntries` or a full quota.

use std::cell::Cell;

use indexed_db_futures::object_store::ObjectStore;
use indexed_db_futures::KeyRange;
use js_sys::Array;
#[cfg(feature = "full")]
use js_sys::Reflect;
#[cfg(feature = "full")]
use serde::Serialize;
#[cfg(feature = "full")]
use serde_wasm_bindgen::Serializer;
use wasm_bindgen::prelude::*;
#[cfg(feature = "full")]
use wasm_bindgen_futures::JsFuture;

use super::entries::{instant_bound, pk_at};
use super::records::ArchiveRecord;
use super::runner::{req, Ask, Run};
use super::schema::{ARCHIVE, BY_ITEM, ENTRIES};
use super::Conn;
use crate::core::error::{Error, Result};
use crate::core::reaper::TierStep;
use crate::core::window::Window;
#[cfg(feature = "full")]
use crate::timer::{now_ms, within};

/// Keys are read at most this many per request, and handled as they come: the page turns a
/// request's result into JS values in one task, and large reads made long tasks on a slow CPU
/// (tests/page/jank.test.mjs).
const READ_CHUNK: u32 = 500;

#[wasm_bindgen(module = "/src/js/edge.js")]
extern "C" {
    #[wasm_bindgen(js_name = errorText)]
    fn error_text(e: &JsValue) -> String;
}

/// Where a reaper pass finds one collection's expired records (the key-value entries, a
/// collection's documents, a time series' whole buckets): the records of object store `store`
/// with primary keys in [`lower`, `upper`], named by part `part` of their key. `op` names them in
/// errors.
#[derive(Debug)]
pub struct Expired {
    pub(super) store: &'static str,
    pub(super) op: &'static str,
    pub(super) lower: JsValue,
    pub(super) upper: JsValue,
    pub(super) part: u32,
    /// How to offer them to `onExpire` and/or move them to the archive; `None`: a plain range
    /// delete.
    offer: Option<Offered>,
    /// Milliseconds spent looking records up and deleting them so far (a collection's
    /// `selectMs`, `deleteMs`).
    #[cfg(feature = "full")]
    timing: Cell<(f64, f64)>,
}

/// An [`Offer`], kept by the [`Expired`] it applies to (read by the default entry's hand-off
/// and archive moves only).
#[derive(Debug)]
#[cfg_attr(not(feature = "full"), allow(dead_code))]
struct Offered {
    kind: &'static str,
    name: Option<String>,
    after: Window,
    archive: Option<JsValue>,
    hook: Option<js_sys::Function>,
    now: f64,
    archived: Cell<u32>,
    tier: Option<u32>,
    step: Option<TierStep>,
    through_archive: bool,
}

impl Expired {
    /// The entries expired at `now` (`[]` sorts before every `[expiry, key]`).
    pub fn entries(now: f64) -> Self {
        Expired::range(ENTRIES, "reaping", Array::new().into(), instant_bound(now), 1)
    }

    /// The entries archived with `archiveFor` (`c` = 0) or a collection's archived documents
    /// (`c` = its name) that were keyed by a time at or before `cutoff`: past their delete tier.
    pub fn archived(c: &JsValue, cutoff: f64) -> Self {
        let upper = Array::of3(c, &cutoff.into(), &Array::new()).into();
        Expired::range(ARCHIVE, "reaping the archive", Array::of1(c).into(), upper, 2)
    }

    /// Records of `store` in `[lower, upper]`, named by part `part` of their key.
    pub(super) fn range(store: &'static str, op: &'static str, lower: JsValue, upper: JsValue, part: u32) -> Self {
        Expired {
            store,
            op,
            lower,
            upper,
            part,
            offer: None,
            #[cfg(feature = "full")]
            timing: Cell::new((0.0, 0.0)),
        }
    }

    /// Adds to the time spent looking up and deleting.
    #[cfg(feature = "full")]
    fn timed(&self, select_ms: f64, delete_ms: f64) {
        let (s, d) = self.timing.get();
        self.timing.set((s + select_ms, d + delete_ms));
    }

    /// Milliseconds spent looking records up and deleting them so far.
    #[cfg(feature = "full")]
    pub fn timings(&self) -> (f64, f64) {
        self.timing.get()
    }

    /// The same records, removed only after `onExpire` accepted them and/or moved to the
    /// archive.
    pub fn offered(self, how: Offer<'_>) -> Self {
        let offer = Offered {
            kind: how.kind,
            name: how.name.map(str::to_owned),
            after: how.after,
            archive: how.archive,
            hook: how.hook.cloned(),
            now: how.now,
            archived: Cell::new(0),
            tier: how.tier,
            step: how.step,
            through_archive: how.through_archive,
        };
        Expired { offer: Some(offer), ..self }
    }

    /// How many records this turn moved to an archive so far (records already past their delete
    /// tier are deleted instead).
    pub fn archived_so_far(&self) -> u32 {
        self.offer.as_ref().map_or(0, |o| o.archived.get())
    }

    fn range_js(&self) -> KeyRange<JsValue> {
        req::range(self.lower.clone(), false, self.upper.clone(), false)
    }
}

/// How one turn of a pass hands its expired records on: what kind of record they are, the
/// archive they move to, and the hook.
#[derive(Debug)]
pub struct Offer<'a> {
    /// `"entry"`, `"document"` or `"events"`.
    pub kind: &'static str,
    /// The collection or time series (`None` for entries).
    pub name: Option<&'a str>,
    /// After a record's time (expiry, reference, latest event), the `expiresAt` it is offered
    /// with: for a delete, when it expired; for an archive move, its delete tier (infinite:
    /// none, offered as `null`).
    pub after: Window,
    /// Moves the records to the archive (`c` = this) instead of deleting them.
    pub archive: Option<JsValue>,
    /// `onExpire`, if given.
    pub hook: Option<&'a js_sys::Function>,
    /// The pass's start (Unix ms): a record whose delete tier is already past then is offered
    /// as a delete and deleted, not archived.
    pub now: f64,
    /// The tier the records reach, given to `onExpire` as `record.tier` (a chain of tiers).
    pub tier: Option<u32>,
    /// For archived records reaching a later tier: which they are, and whether they stay.
    pub step: Option<TierStep>,
    /// Archive even what is past the delete tier (a chain's later hand-offs must see it).
    pub through_archive: bool,
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

#[cfg(feature = "full")]
/// A record as `onExpire` is given it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HandOffRecord<'a> {
    kind: &'static str,
    #[serde(with = "serde_wasm_bindgen::preserve")]
    key: JsValue,
    #[serde(with = "serde_wasm_bindgen::preserve")]
    value: JsValue,
    /// Unix seconds; `null` for never (an archive move without a delete tier).
    expires_at: Option<f64>,
    action: &'static str,
    /// The collection or time series; absent for entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    /// The tier reached, in a chain of tiers that names hand-offs.
    #[serde(skip_serializing_if = "Option::is_none")]
    tier: Option<u32>,
}

#[cfg(feature = "full")]
/// `[key, time, value]` of a record as offered: an entry's key, expiry and value; a document's
/// id, reference time and document; a bucket's identity (meta key, span start, sequence), latest
/// event time and events.
fn item(kind: &str, pk: &JsValue, rec: &JsValue) -> (JsValue, f64, JsValue) {
    let part = |n| pk_at(pk, n);
    let field = |k: &str| Reflect::get(rec, &k.into()).unwrap_or(JsValue::UNDEFINED);
    match kind {
        "entry" => (part(1), part(0).as_f64().unwrap_or(f64::NAN), field("v")),
        "document" => (part(2), part(1).as_f64().unwrap_or(f64::NAN), field("v")),
        _ => {
            let id: Array = [part(2), part(3), part(4)].iter().collect();
            let id = js_sys::JSON::stringify(&id).map(JsValue::from).unwrap_or(JsValue::UNDEFINED);
            (id, part(1).as_f64().unwrap_or(f64::NAN), field("ev"))
        }
    }
}

impl Conn {
    /// One reaper batch over `expired`: removes up to `limit` of its records, in key order, in
    /// one transaction, pushes their names (key, id) onto `into` and returns how many (0 when
    /// nothing expired is left).
    /// `select`: how many keys one request looks up (`selectBatchSize`). The time spent looking
    /// up and deleting is added to `expired`'s timings.
    pub async fn reap(&self, expired: &Expired, limit: u32, select: u32, into: &Array) -> Result<u32> {
        #[cfg(feature = "full")]
        if let Some(how) = &expired.offer {
            return self.offer(expired, how, limit, select, into).await;
        }
        #[cfg(feature = "full")]
        let t0 = now_ms();
        let run = self.begin(expired.op, &[expired.store], true, limit)?;
        let store = run.store(expired.store)?;
        let (mut count, mut last) = (0, JsValue::UNDEFINED);
        let mut from = expired.range_js();
        loop {
            let want = select.min(limit - count);
            let got: Array = run.wait(&mut run.ask(&store, Ask::Keys(Some(from), Some(want)))?).await?.unchecked_into();
            for pk in got.iter() {
                into.push(&pk_at(&pk, expired.part));
            }
            count += got.length();
            if got.length() > 0 {
                last = got.get(got.length() - 1);
            }
            if got.length() < want || count == limit {
                break;
            }
            from = req::range(last.clone(), true, expired.upper.clone(), false);
        }
        #[cfg(feature = "full")]
        let t1 = now_ms();
        #[cfg(feature = "full")]
        expired.timed(t1 - t0, 0.0);
        if count == 0 {
            run.wrote_nothing();
            return Ok(0);
        }
        // Everything from `lower` through the last key read: the same transaction, so nothing
        // else is in between.
        run.delete(&store, req::range(expired.lower.clone(), false, last, false))?;
        run.done().await?;
        #[cfg(feature = "full")]
        expired.timed(0.0, now_ms() - t1);
        Ok(count)
    }

    #[cfg(feature = "full")]
    /// One batch of a turn whose records are offered to `onExpire` or moved to the archive:
    /// reads up to `limit` records (in a readonly transaction), hands them to the hook if there
    /// is one and waits for it, then, in a readwrite transaction of its own, deletes exactly those
    /// primary keys (never a range: a record written meanwhile is not touched) and, with an
    /// archive, puts each there. So a record leaves only after the hook accepted it; a crash in
    /// between offers it again (at least once). A hook that throws, rejects or does not answer
    /// within `timeoutMs` fails the batch with a `HandOffError`, and nothing is removed.
    async fn offer(&self, expired: &Expired, how: &Offered, limit: u32, select: u32, into: &Array) -> Result<u32> {
        let name = expired.store;
        let (mut pks, mut recs) = (Vec::new(), Vec::new());
        let t0 = now_ms();
        {
            let run = self.begin(expired.op, &[name], false, 0)?;
            let store = run.store(name)?;
            let mut from = expired.range_js();
            loop {
                let want = select.min(limit - pks.len() as u32);
                let mut read = [run.ask(&store, Ask::Keys(Some(from.clone()), Some(want)))?, run.ask(&store, Ask::All(Some(from), Some(want)))?];
                let [keys, vals]: [JsValue; 2] = run.results(&mut read).await?.try_into().unwrap_or_default();
                let (keys, vals): (Array, Array) = (keys.unchecked_into(), vals.unchecked_into());
                let got = keys.length();
                // A tier of a chain takes the records that passed its previous hand-off only.
                let passed = |rec: &JsValue| how.step.is_none_or(|s| Reflect::get(rec, &"k".into()).ok().and_then(|k| k.as_f64()).unwrap_or(0.0) == f64::from(s.from));
                for (pk, rec) in keys.iter().zip(vals.iter()).filter(|(_, rec)| passed(rec)).take(limit as usize - pks.len()) {
                    pks.push(pk);
                    recs.push(rec);
                }
                if got < want || pks.len() as u32 == limit {
                    break;
                }
                from = req::range(keys.get(got - 1), true, expired.upper.clone(), false);
            }
            run.done().await?;
        }
        expired.timed(now_ms() - t0, 0.0);
        if pks.is_empty() {
            return Ok(0);
        }
        let items: Vec<_> = pks.iter().zip(&recs).map(|(pk, rec)| item(how.kind, pk, rec)).collect();
        // A record whose delete tier is already past (the pass came late: a hook that kept
        // failing) is offered as a delete, and deleted rather than archived.
        let archived: Vec<bool> = items.iter().map(|(_, time, _)| how.archive.is_some() && (how.through_archive || how.after.after(*time) > how.now)).collect();
        // A tier of a chain that keeps its records archived marks them as having passed it.
        let kept = how.step.and_then(|s| s.to);
        if let Some(hook) = &how.hook {
            let records: Vec<HandOffRecord> = items
                .iter()
                .zip(&archived)
                .map(|((key, time, value), &archive)| {
                    let at = how.after.after(*time);
                    HandOffRecord {
                        kind: how.kind,
                        key: key.clone(),
                        value: value.clone(),
                        expires_at: at.is_finite().then_some(at / 1000.0),
                        action: if archive || kept.is_some() { "archive" } else { "delete" },
                        name: how.name.as_deref(),
                        tier: how.tier,
                    }
                })
                .collect();
            let records: Array = records.serialize(&Serializer::new().serialize_missing_as_null(true)).map_err(|e| super::storage_error(&self.name, expired.op, e.into()))?.unchecked_into();
            self.hand_off(hook, &records).await?;
        }
        let names: &[&str] = if how.archive.is_some() { &[name, ARCHIVE] } else { &[name] };
        let t1 = now_ms();
        let run = self.begin(expired.op, names, true, pks.len() as u32)?;
        let from = run.store(name)?;
        for (pk, (i, t, v)) in pks.iter().zip(&items) {
            match kept {
                Some(k) => drop(run.put(&from, &ArchiveRecord { c: pk_at(pk, 0), t: *t, i: i.clone(), v: v.clone(), k }).map_err(|e| run.error(e))?),
                None => drop(run.delete(&from, pk.clone())?),
            }
        }
        if let Some(c) = &how.archive {
            let archive = run.store(ARCHIVE)?;
            let by_item = run.check(archive.index(BY_ITEM))?;
            let mut puts = Vec::new();
            for ((i, t, v), _) in items.iter().zip(&archived).filter(|(_, &a)| a) {
                let rec = ArchiveRecord { c: c.clone(), t: *t, i: i.clone(), v: v.clone(), k: 0 };
                let put = run.put(&archive, &rec).map_err(|e| run.error(e))?;
                put.on_error(self.absorb.as_ref().unchecked_ref());
                puts.push((rec, put));
            }
            // The same key archived again replaces its archived copy (by_item is unique).
            if let Some((_, last)) = puts.last_mut() {
                let _ = run.settle(last).await?;
            }
            let again: Vec<&ArchiveRecord> = puts.iter_mut().filter_map(|(r, p)| p.failed_with("ConstraintError").then_some(&*r)).collect();
            let mut olds = Vec::with_capacity(again.len());
            for r in &again {
                olds.push(run.ask(&by_item, Ask::GetKey(Array::of2(&r.c, &r.i).into()))?);
            }
            for (rec, old) in again.iter().zip(run.results(&mut olds).await?) {
                if !old.is_undefined() {
                    run.delete(&archive, old)?;
                }
                run.put(&archive, *rec).map_err(|e| run.error(e))?;
            }
        }
        run.done().await?;
        expired.timed(0.0, now_ms() - t1);
        how.archived.set(how.archived.get() + archived.iter().filter(|&&a| a).count() as u32);
        for (key, _, _) in &items {
            into.push(key);
        }
        Ok(pks.len() as u32)
    }

    #[cfg(feature = "full")]
    /// Calls `onExpire` with `records` and waits for its promise (or value), at most `timeoutMs`.
    async fn hand_off(&self, hook: &js_sys::Function, records: &Array) -> Result<()> {
        let ms = self.timeout_ms;
        let failed = |message: String| Error::HandOff { records: records.length(), message };
        let answer = hook.call1(&JsValue::UNDEFINED, records).map_err(|e| failed(format!("failed: {}", error_text(&e))))?;
        match within(ms, JsFuture::from(js_sys::Promise::resolve(&answer))).await {
            None => Err(failed(format!("did not answer within {ms} ms (timeoutMs)"))),
            Some(Err(e)) => Err(failed(format!("failed: {}", error_text(&e)))),
            Some(Ok(_)) => Ok(()),
        }
    }

    /// How many records are left in all of `expired`: one count request each, in one readonly
    /// transaction.
    pub async fn count_expired(&self, expired: &[&Expired]) -> Result<u32> {
        // Each store once (a few of them: no sort, whose code would weigh more than this loop).
        let mut names: Vec<&str> = Vec::new();
        for e in expired {
            if !names.contains(&e.store) {
                names.push(e.store);
            }
        }
        let run = self.begin("counting expired records", &names, false, 0)?;
        let mut stores = Vec::with_capacity(names.len());
        for n in &names {
            stores.push(run.store(n)?);
        }
        let mut counts = Vec::with_capacity(expired.len());
        for e in expired {
            counts.push(run.ask(&stores[names.iter().position(|n| *n == e.store).unwrap_or(0)], Ask::Count(Some(e.range_js())))?);
        }
        let n = run.results(&mut counts).await?.iter().map(|n| n.as_f64().unwrap_or(0.0) as u32).sum();
        run.done().await?;
        Ok(n)
    }

    /// Archive `c`'s records keyed by a time after `cutoff` (now minus the delete tier's after:
    /// those not yet at their delete tier; -Infinity: all of them).
    fn archive_range(c: &JsValue, cutoff: f64) -> KeyRange<JsValue> {
        req::range(Array::of3(c, &cutoff.into(), &Array::new()).into(), true, Array::of2(c, &Array::new()).into(), true)
    }

    /// The archived value of `key` in archive `c` (0: the entries; a collection's name), or
    /// `undefined` if it is not there or was keyed by a time at or before `cutoff` (past its
    /// delete tier).
    pub async fn archive_get(&self, c: &JsValue, key: &JsValue, cutoff: f64) -> Result<JsValue> {
        let rec = self.ask("reading the archive", ARCHIVE, Some(BY_ITEM), Ask::Get(Array::of2(c, key).into())).await?;
        if rec.is_undefined() {
            return Ok(JsValue::UNDEFINED);
        }
        let rec = ArchiveRecord::read(&rec)?;
        Ok(if rec.t > cutoff { rec.v } else { JsValue::UNDEFINED })
    }

    /// Archived values of archive `c` after `cutoff`, soonest deleted first.
    pub async fn archive_values(&self, c: &JsValue, cutoff: f64) -> Result<Array> {
        let all: Array = self.ask("reading the archive", ARCHIVE, None, Ask::All(Some(Self::archive_range(c, cutoff)), None)).await?.unchecked_into();
        let values = Array::new();
        for r in all.iter() {
            values.push(&ArchiveRecord::read(&r)?.v);
        }
        Ok(values)
    }

    /// How many records archive `c` holds after `cutoff`.
    pub async fn archive_count(&self, c: &JsValue, cutoff: f64) -> Result<u32> {
        let n = self.ask("counting the archive", ARCHIVE, None, Ask::Count(Some(Self::archive_range(c, cutoff)))).await?;
        Ok(n.as_f64().unwrap_or(0.0) as u32)
    }

    /// Empties archive `c`.
    pub async fn archive_clear(&self, c: &JsValue) -> Result<()> {
        self.change("clearing the archive", ARCHIVE, Some(Self::archive_range(c, f64::NEG_INFINITY))).await
    }

    /// `maxEntries`, in the write's transaction, after its puts: while the store holds more than
    /// `cap` entries (live ones only, when `live_only`: expired ones then wait for onExpire),
    /// evicts entries from the front. Returns the evicted keys; fails with
    /// [`Error::CapReached`] when only entries it never evicts are left (the caller's
    /// transaction is then aborted: nothing is written).
    pub(super) async fn enforce_cap(&self, run: &Run<'_>, store: &ObjectStore<'_>, cap: Cap, own: &[JsValue], now: f64) -> Result<Array> {
        let counted = cap.live_only.then(|| KeyRange::LowerBound(instant_bound(now), true));
        let n = run.wait(&mut run.ask(store, Ask::Count(counted))?).await?.as_f64().unwrap_or(0.0) as u32;
        if n <= cap.max {
            return Ok(Array::new());
        }
        let over = n - cap.max;
        let evicted = self.evict_front(run, store, over, own, now, cap.live_only).await?;
        if evicted.length() < over {
            let waiting = if cap.live_only { ", expired entries waiting for onExpire" } else { "" };
            return Err(Error::CapReached {
                cap: cap.max,
                message: format!("{} more would have to go, and only entries without an expiry{waiting} or written by this call are left", over - evicted.length()),
            });
        }
        Ok(evicted)
    }

    /// One `evictOnQuota` round: evicts up to `n` entries from the front of the expiry order
    /// (expired ones too unless `live_only`), never one of `own` nor one without expiry, in a
    /// transaction of its own; resolves to their keys. After a quota refusal Firefox makes the
    /// next readwrite transaction of the connection a "cleanup" one, where puts throw and deletes
    /// are allowed and counted back at once: this is that transaction.
    pub async fn make_room(&self, n: u32, own: &Array, live_only: bool, now: f64) -> Result<Array> {
        let run = self.begin_as_is("evicting for space", &[ENTRIES])?;
        let store = run.store(ENTRIES)?;
        let own: Vec<JsValue> = own.iter().collect();
        let evicted = self.evict_front(&run, &store, n, &own, now, live_only).await?;
        run.done().await?;
        Ok(evicted)
    }

    /// Deletes up to `n` entries from the front of the store, which is expiry order: expired
    /// ones first (unless `live_only`), then the nearest to expiry; never one of `own` (the
    /// call's keys) and never one without expiry (they sort last, after `[Infinity]`). Returns
    /// their keys.
    async fn evict_front(&self, run: &Run<'_>, store: &ObjectStore<'_>, n: u32, own: &[JsValue], now: f64, live_only: bool) -> Result<Array> {
        let mine = js_sys::Set::new(&JsValue::UNDEFINED);
        for k in own {
            mine.add(k);
        }
        let never: JsValue = Array::of1(&f64::INFINITY.into()).into();
        let evicted = Array::new();
        let mut from =
            if live_only { req::range(instant_bound(now), true, never.clone(), true) } else { KeyRange::UpperBound(never.clone(), true) };
        while evicted.length() < n {
            let got: Array = run.wait(&mut run.ask(store, Ask::Keys(Some(from), Some(READ_CHUNK)))?).await?.unchecked_into();
            for pk in got.iter() {
                if evicted.length() >= n {
                    break;
                }
                let key = pk_at(&pk, 1);
                if mine.has(&key) {
                    continue;
                }
                run.delete(store, pk)?;
                self.hints.delete(&key);
                evicted.push(&key);
            }
            if got.length() < READ_CHUNK {
                break;
            }
            from = req::range(got.get(got.length() - 1), true, never.clone(), true);
        }
        Ok(evicted)
    }
}
