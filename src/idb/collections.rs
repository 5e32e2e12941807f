//! Collections with a TTL index, in the shared `docs` store.
//!
//! Records are `{ c, r, i, v }` keyed `[collection, reference ms, id]`, where the reference is
//! the value of the TTL field (+Infinity for a document that never expires). A document expires
//! at `reference + expireAfter`, so the expired documents of a collection are the key range
//! `[c] ..= [c, now - expireAfter, []]`: changing `expireAfter` moves the cut-off and rewrites
//! nothing, and the reaper removes a batch with one range delete, as for entries.

use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbIndex, IdbKeyRange, IdbObjectStore};

use super::{describe_key, index_named, last_wins, pk_at, storage_error, unique, Conn, Expired, BY_ID, DOCS};
use crate::core::error::Result;
use crate::core::text::quote;

#[wasm_bindgen(module = "/src/idb/glue.js")]
extern "C" {
    #[wasm_bindgen(js_name = docRecord)]
    fn doc_record(c: &str, r: f64, i: &JsValue, v: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = liveDocValues)]
    fn live_doc_values(recs: &Array, cutoff: f64) -> Array;
    #[wasm_bindgen(js_name = readDocs)]
    fn read_docs(by_id: &IdbIndex, c: &str, ids: &Array, cutoff: f64, timeout_ms: u32) -> Promise;
    #[wasm_bindgen(js_name = allDocs)]
    pub(super) fn all_docs(recs: &Array) -> Array;
}

/// One document to store: its id, its reference time (Unix ms, +Infinity for never) and itself.
#[derive(Debug)]
pub struct DocWrite {
    /// The value at the collection's key path.
    pub id: JsValue,
    /// The TTL field's value as Unix ms; +Infinity if it is not a date (never expires).
    pub reference_ms: f64,
    /// The document.
    pub doc: JsValue,
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

impl Conn {
    fn doc_error(&self, c: &str, id: &JsValue, e: JsValue) -> crate::core::error::Error {
        self.clone_error(&format!("document {} of collection {}", describe_key(id), quote(c)), e)
    }

    fn docs_range(&self, op: &str, lower: JsValue, lower_open: bool, upper: JsValue) -> Result<IdbKeyRange> {
        self.js(op, IdbKeyRange::bound_with_lower_open_and_upper_open(&lower, &upper, lower_open, false))
    }

    /// Documents of `c` with reference after `cutoff` (live); the whole collection for -Infinity.
    fn live_docs_range(&self, op: &str, c: &str, cutoff: f64) -> Result<IdbKeyRange> {
        self.docs_range(op, key3(c, cutoff, &Array::new()), true, after_all_of(c))
    }

    fn all_docs_range(&self, op: &str, c: &str) -> Result<IdbKeyRange> {
        self.docs_range(op, first_of(c), false, after_all_of(c))
    }

    /// `put`/`putMany`: one transaction, all or nothing; the same id twice: the last wins.
    pub async fn put_docs(&self, c: &str, writes: &[DocWrite]) -> Result<()> {
        let op = "writing documents";
        self.check_docs(c, writes).await?;
        let (tx, store) = self.write_tx(op, DOCS, writes.len() as u32)?;
        self.put_docs_in(op, &store, c, writes).await?;
        self.commit(op, tx).await
    }

    pub(super) async fn check_docs(&self, c: &str, writes: &[DocWrite]) -> Result<()> {
        self.check_storable(writes.iter().map(|w| (&w.id, &w.doc)), |id| format!("document {} of collection {}", describe_key(id), quote(c)))
            .await
    }

    /// The requests of `put_docs`, in a transaction the caller commits.
    pub(super) async fn put_docs_in(&self, op: &str, store: &IdbObjectStore, c: &str, writes: &[DocWrite]) -> Result<()> {
        let by_id = index_named(&store, BY_ID)?;
        let order: Vec<u32> = if writes.len() > 1 {
            let ids: Array = writes.iter().map(|w| w.id.clone()).collect();
            last_wins(&ids).to_vec()
        } else {
            (0..writes.len() as u32).collect()
        };
        let lookups = order
            .iter()
            .map(|&i| self.js(op, by_id.get_key(&key2(c, &writes[i as usize].id))))
            .collect::<Result<Vec<_>>>()?;
        if let Some(last) = lookups.last() {
            self.settle(op, last).await?;
        }
        for (&i, lookup) in order.iter().zip(&lookups) {
            let w = &writes[i as usize];
            let old_pk = self.js(op, lookup.result())?;
            if !old_pk.is_undefined() && pk_at(&old_pk, 1).as_f64() != Some(w.reference_ms) {
                self.js(op, store.delete(&old_pk))?;
            }
            store.put(&doc_record(c, w.reference_ms, &w.id, &w.doc)).map_err(|e| self.doc_error(c, &w.id, e))?;
        }
        Ok(())
    }

    /// Live documents with `ids`, in order, `undefined` where missing or expired.
    pub async fn get_docs(&self, c: &str, ids: &Array, cutoff: f64) -> Result<Array> {
        let op = "reading documents";
        let by_id = index_named(&self.read(op, DOCS)?, BY_ID)?;
        let read = JsFuture::from(read_docs(&by_id, c, ids, cutoff, self.timeout_ms)).await;
        Ok(read.map_err(|e| storage_error(&self.name, op, e))?.unchecked_into())
    }

    /// Removes documents; how many were live.
    pub async fn delete_docs(&self, c: &str, ids: &Array, cutoff: f64) -> Result<u32> {
        let op = "deleting documents";
        let (tx, store) = self.write_tx(op, DOCS, ids.length())?;
        let lookup: Array = unique(ids).iter().map(|id| key2(c, id)).collect();
        let live = self.delete_found(op, &store, &index_named(&store, BY_ID)?, &lookup, 1, cutoff).await?;
        self.commit(op, tx).await?;
        Ok(live)
    }

    /// Number of live documents: one count over a key range.
    pub async fn count_docs(&self, c: &str, cutoff: f64) -> Result<u32> {
        let op = "counting documents";
        let store = self.read(op, DOCS)?;
        let range = self.live_docs_range(op, c, cutoff)?;
        self.count_in(op, &store, &range).await
    }

    pub(super) async fn count_in(&self, op: &str, store: &IdbObjectStore, range: &IdbKeyRange) -> Result<u32> {
        let n = self.settle(op, &self.js(op, store.count_with_key(range.as_ref()))?).await?;
        Ok(n.as_f64().unwrap_or(0.0) as u32)
    }

    /// Live documents in id order.
    pub async fn doc_values(&self, c: &str, cutoff: f64) -> Result<Array> {
        let op = "listing documents";
        let store = self.read(op, DOCS)?;
        let by_id = index_named(&store, BY_ID)?;
        let range = self.docs_range(op, first_of(c), false, after_all_of(c))?;
        let recs: Array = self.settle(op, &self.js(op, by_id.get_all_with_key(range.as_ref()))?).await?.into();
        Ok(live_doc_values(&recs, cutoff))
    }

    /// Every stored document of `c`, expired or not, in id order (for rekeying).
    pub async fn all_doc_values(&self, c: &str) -> Result<Array> {
        Ok(all_docs(&self.doc_records(c).await?))
    }

    /// Every stored record `{ c, r, i, v }` of `c`, in id order (for export).
    pub async fn doc_records(&self, c: &str) -> Result<Array> {
        let op = "reading documents";
        let store = self.read(op, DOCS)?;
        let by_id = index_named(&store, BY_ID)?;
        let range = self.docs_range(op, first_of(c), false, after_all_of(c))?;
        Ok(self.settle(op, &self.js(op, by_id.get_all_with_key(range.as_ref()))?).await?.into())
    }

    /// Removes every document of `c`.
    pub async fn clear_docs(&self, c: &str) -> Result<()> {
        let op = "clearing a collection";
        let (tx, store) = self.write_tx(op, DOCS, u32::MAX)?;
        self.js(op, store.delete(self.all_docs_range(op, c)?.as_ref()))?;
        self.commit(op, tx).await
    }

    /// Replaces every document of `c` by `writes` in one transaction (a TTL index on another
    /// field or unit needs every document keyed again).
    pub async fn replace_docs(&self, c: &str, writes: &[DocWrite]) -> Result<()> {
        let op = "re-keying a collection";
        self.check_storable(writes.iter().map(|w| (&w.id, &w.doc)), |id| format!("document {} of collection {}", describe_key(id), quote(c)))
            .await?;
        let (tx, store) = self.write_tx(op, DOCS, writes.len() as u32)?;
        self.js(op, store.delete(self.all_docs_range(op, c)?.as_ref()))?;
        for w in writes {
            store.put(&doc_record(c, w.reference_ms, &w.id, &w.doc)).map_err(|e| self.doc_error(c, &w.id, e))?;
        }
        self.commit(op, tx).await
    }
}

impl Expired {
    /// The documents of collection `c` whose reference is at or before `cutoff`.
    pub fn docs(c: &str, cutoff: f64) -> Self {
        Expired { store: DOCS, op: "reaping documents", lower: first_of(c), upper: key3(c, cutoff, &Array::new()), part: 2, offer: None }
    }
}
