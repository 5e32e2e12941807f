//! Collections with a TTL index, in the shared `docs` store.
//!
//! Records are `{ c, r, i, v }` keyed `[collection, reference ms, id]`, where the reference is
//! the value of the TTL field (+Infinity for a document that never expires). A document expires
//! at `reference + expireAfter`, so the expired documents of a collection are the key range
//! `[c] ..= [c, now - expireAfter, []]`: changing `expireAfter` moves the cut-off and rewrites
//! nothing, and the reaper removes a batch with one range delete, as for entries.

use indexed_db_futures::object_store::ObjectStore;
use indexed_db_futures::KeyRange;
use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::entries::{last_wins, pk_at};
use super::records::DocRecord;
use super::runner::{req, Ask, Run};
use super::schema::{BY_ID, DOCS};
use super::{describe_key, Conn, Expired};
use crate::core::error::Result;
use crate::core::text::quote;

/// One document to store: its id, its reference time (Unix ms, +Infinity for never) and itself.
#[derive(Debug, Clone)]
pub struct DocWrite {
    /// The value at the collection's key path.
    pub id: JsValue,
    /// The TTL field's value as Unix ms; +Infinity if it is not a date (never expires).
    pub reference_ms: f64,
    /// The document.
    pub doc: JsValue,
}

/// What a read-modify-write of a document does ([`Conn::modify_doc`]).
#[derive(Debug)]
pub enum DocChange {
    /// Nothing: the transaction writes nothing.
    Keep,
    /// Removes the document.
    Delete,
    /// Writes this document.
    Put(DocWrite),
}

fn key2(c: &str, x: &JsValue) -> JsValue {
    Array::of2(&c.into(), x).into()
}

fn key3(c: &str, r: f64, x: &JsValue) -> JsValue {
    Array::of3(&c.into(), &r.into(), x).into()
}

/// `[c]`: sorts before every key of collection `c`.
fn first_of(c: &str) -> JsValue {
    Array::of1(&c.into()).into()
}

/// `[c, []]`: sorts after every key of collection `c` (arrays sort after numbers and strings).
fn after_all_of(c: &str) -> JsValue {
    key2(c, &Array::new())
}

/// Every key of collection `c` (in `docs`, or in `by_id`).
fn all_of(c: &str) -> KeyRange<JsValue> {
    req::range(first_of(c), false, after_all_of(c), false)
}

impl Conn {
    fn put_doc(&self, run: &Run<'_>, store: &ObjectStore<'_>, c: &str, w: &DocWrite) -> Result<()> {
        let rec = DocRecord { c: c.to_owned(), r: w.reference_ms, i: w.id.clone(), v: w.doc.clone() };
        run.put(store, &rec).map(|r| drop(r.track(1))).map_err(|e| self.clone_error(&format!("document {} of collection {}", describe_key(&w.id), quote(c)), e))
    }

    /// `put`/`putMany`: one transaction, all or nothing; the same id twice: the last wins.
    pub async fn put_docs(&self, c: &str, writes: &[DocWrite]) -> Result<()> {
        self.check_docs(c, writes).await?;
        let run = self.begin("writing documents", &[DOCS], true, writes.len() as u32)?;
        let store = run.store(DOCS)?;
        self.put_docs_in(&run, &store, c, writes).await?;
        run.done().await
    }

    pub(super) async fn check_docs(&self, c: &str, writes: &[DocWrite]) -> Result<()> {
        self.check_storable(writes.iter().map(|w| (&w.id, &w.doc)), |id| format!("document {} of collection {}", describe_key(id), quote(c)))
            .await
    }

    /// The requests of `put_docs`, in a transaction the caller commits: every old record looked
    /// up at once, then the ones whose reference changed deleted and every document put.
    pub(super) async fn put_docs_in(&self, run: &Run<'_>, store: &ObjectStore<'_>, c: &str, writes: &[DocWrite]) -> Result<()> {
        let by_id = run.check(store.index(BY_ID))?;
        let order = last_wins(writes.iter().map(|w| &w.id));
        let mut lookups = Vec::with_capacity(order.len());
        for &i in &order {
            lookups.push(run.ask(&by_id, Ask::GetKey(key2(c, &writes[i as usize].id)))?);
        }
        for (&i, old_pk) in order.iter().zip(run.results(&mut lookups).await?) {
            let w = &writes[i as usize];
            if !old_pk.is_undefined() && pk_at(&old_pk, 1).as_f64() != Some(w.reference_ms) {
                run.delete(store, old_pk)?;
            }
            self.put_doc(run, store, c, w)?;
        }
        Ok(())
    }

    /// A read-modify-write of document `id` of `c` in one readwrite transaction (as
    /// [`Conn::modify`] for entries): `decide` is given the live document (`None` if missing or
    /// its reference is at or before `cutoff`) and what it decides is written before the commit.
    /// One caller (`collection.update`), so not boxed.
    pub async fn modify_doc(&self, c: &str, id: &JsValue, cutoff: f64, decide: &mut dyn FnMut(Option<JsValue>) -> Result<DocChange>) -> Result<()> {
        let blobs = self.blobs_storable().await;
        let run = self.begin("updating a document", &[DOCS], true, 0)?;
        let store = run.store(DOCS)?;
        let by_id = run.check(store.index(BY_ID))?;
        let rec = run.wait(&mut run.ask(&by_id, Ask::Get(key2(c, id)))?).await?;
        let rec = if rec.is_undefined() { None } else { Some(DocRecord::read(&rec)?) };
        let old = rec.as_ref().map(|r| r.r);
        let change = match decide(rec.filter(|r| r.r > cutoff).map(|r| r.v)) {
            Ok(decided) => decided,
            Err(e) => {
                run.wrote_nothing();
                return Err(e);
            }
        };
        let put = match change {
            DocChange::Keep => {
                run.wrote_nothing();
                return Ok(());
            }
            DocChange::Delete => None,
            DocChange::Put(w) => {
                if !blobs {
                    super::no_blob(&w.doc, || format!("document {} of collection {}", describe_key(id), quote(c)))?;
                }
                Some(w)
            }
        };
        if let Some(old) = old.filter(|&old| put.as_ref().is_none_or(|w| w.reference_ms != old)) {
            run.delete(&store, key3(c, old, id))?;
        }
        if let Some(w) = put {
            self.put_doc(&run, &store, c, &w)?;
        }
        run.done().await
    }

    /// Live documents with `ids`, in order, `undefined` where missing or expired: every id
    /// looked up at once through the `by_id` index.
    pub async fn get_docs(&self, c: &str, ids: &Array, cutoff: f64) -> Result<Array> {
        let asks = ids.iter().map(|id| (Some(BY_ID), Ask::Get(key2(c, &id)))).collect();
        let recs = self.read("reading documents", DOCS, asks).await?;
        // Dense: `undefined` where missing or expired, not a hole.
        let mut out = Vec::with_capacity(recs.len());
        for rec in recs {
            let rec: Option<DocRecord> = if rec.is_undefined() { None } else { Some(DocRecord::read(&rec)?) };
            out.push(rec.filter(|r| r.r > cutoff).map_or(JsValue::UNDEFINED, |r| r.v));
        }
        Ok(out.into_iter().collect())
    }

    /// Removes documents; how many were live.
    pub async fn delete_docs(&self, c: &str, ids: &Array, cutoff: f64) -> Result<u32> {
        let ids: Vec<JsValue> = ids.iter().collect();
        let lookup = last_wins(ids.iter()).into_iter().map(|i| key2(c, &ids[i as usize])).collect();
        self.delete_found("deleting documents", DOCS, BY_ID, lookup, 1, cutoff).await
    }

    /// Number of live documents: one count over a key range.
    pub async fn count_docs(&self, c: &str, cutoff: f64) -> Result<u32> {
        let live = req::range(key3(c, cutoff, &Array::new()), true, after_all_of(c), false);
        Ok(self.ask("counting documents", DOCS, None, Ask::Count(Some(live))).await?.as_f64().unwrap_or(0.0) as u32)
    }

    /// Live documents in id order.
    pub async fn doc_values(&self, c: &str, cutoff: f64) -> Result<Array> {
        let recs = self.doc_records(c).await?;
        let mut out = Vec::with_capacity(recs.length() as usize);
        for r in recs.iter() {
            let r = DocRecord::read(&r)?;
            if r.r > cutoff {
                out.push(r.v);
            }
        }
        Ok(out.into_iter().collect())
    }

    /// The live document records of `c` (of `ids` only, when given) whose reference is after
    /// `cutoff`, as a view shows them.
    pub async fn view_docs(&self, c: &str, ids: Option<&[JsValue]>, cutoff: f64) -> Result<Vec<DocRecord>> {
        let recs: Vec<JsValue> = match ids {
            Some(ids) => {
                let asks = ids.iter().map(|id| (Some(BY_ID), Ask::Get(key2(c, id)))).collect();
                self.read("reading a view", DOCS, asks).await?
            }
            None => self.doc_records(c).await?.iter().collect(),
        };
        let mut live = Vec::new();
        for r in recs.into_iter().filter(|r| !r.is_undefined()) {
            let r = DocRecord::read(&r)?;
            if r.r > cutoff {
                live.push(r);
            }
        }
        Ok(live)
    }

    /// Every stored record `{ c, r, i, v }` of `c`, in id order (for export).
    pub async fn doc_records(&self, c: &str) -> Result<Array> {
        Ok(self.ask("reading documents", DOCS, Some(BY_ID), Ask::All(Some(all_of(c)), None)).await?.unchecked_into())
    }

    /// Up to `limit` stored records `{ c, r, i, v }` of `c`, expired or not, in id order after
    /// id `after` (from the first without): a page of an export.
    pub async fn doc_page(&self, c: &str, after: Option<JsValue>, limit: u32) -> Result<Array> {
        let range = match after {
            Some(id) => req::range(key2(c, &id), true, after_all_of(c), false),
            None => all_of(c),
        };
        Ok(self.ask("reading documents", DOCS, Some(BY_ID), Ask::All(Some(range), Some(limit))).await?.unchecked_into())
    }

    /// Removes every document of `c`.
    pub async fn clear_docs(&self, c: &str) -> Result<()> {
        self.change("clearing a collection", DOCS, Some(all_of(c))).await
    }

    /// One page of keying documents again (a TTL index built over stored ones), in a readwrite
    /// transaction of its own: up to `limit` document records of `c` after id `after` (from the
    /// first without), `decide` given them at once and answering each one's new reference
    /// (`None`: to be left as it is); those whose reference changed are moved to their new key.
    /// Returns how many records the page held and the last id (where the next page starts).
    pub async fn rekey_page(&self, c: &str, after: Option<JsValue>, limit: u32, decide: &mut dyn FnMut(&[DocRecord]) -> Result<Vec<Option<f64>>>) -> Result<(u32, Option<JsValue>)> {
        let run = self.begin("keying documents by a new TTL index", &[DOCS], true, limit)?;
        let store = run.store(DOCS)?;
        let by_id = run.check(store.index(BY_ID))?;
        let range = match after {
            Some(id) => req::range(key2(c, &id), true, after_all_of(c), false),
            None => all_of(c),
        };
        let page: Array = run.wait(&mut run.ask(&by_id, Ask::All(Some(range), Some(limit)))?).await?.unchecked_into();
        let mut recs = Vec::with_capacity(page.length() as usize);
        for r in page.iter() {
            recs.push(DocRecord::read(&r)?);
        }
        let moves = match decide(&recs) {
            Ok(moves) => moves,
            Err(e) => {
                run.wrote_nothing();
                return Err(e);
            }
        };
        let mut wrote = false;
        for (rec, to) in recs.iter().zip(moves) {
            if let Some(r) = to.filter(|r| *r != rec.r) {
                run.delete(&store, key3(c, rec.r, &rec.i))?;
                // Not tracked: the caller tells the page's progress.
                let moved = DocRecord { c: c.to_owned(), r, i: rec.i.clone(), v: rec.v.clone() };
                run.put(&store, &moved).map_err(|e| self.clone_error(&format!("document {} of collection {}", describe_key(&rec.i), quote(c)), e))?;
                wrote = true;
            }
        }
        let last = recs.last().map(|r| r.i.clone());
        if wrote {
            run.done().await?;
        } else {
            run.wrote_nothing();
        }
        Ok((recs.len() as u32, last))
    }
}

impl Expired {
    /// The documents of collection `c` whose reference is at or before `cutoff`.
    pub fn docs(c: &str, cutoff: f64) -> Self {
        Expired::range(DOCS, "reaping documents", first_of(c), key3(c, cutoff, &Array::new()), 2)
    }
}
