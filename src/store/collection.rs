//! Collections with a TTL index (`store.collection(name, options)`).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::Store;
use crate::core::error::{Error, Result};
use crate::core::text::quote;
use crate::core::ttl_index::{TimeUnit, TtlIndex};
use crate::core::value::Value;
use crate::core::window::Window;
use crate::idb::{Definition, DocRecord, DocWrite};
use crate::timer::now_ms;

/// A collection of documents keyed by a property, optionally with a TTL index. Cloning shares it.
#[derive(Debug, Clone)]
pub struct Collection {
    store: Store,
    name: String,
    key_path: String,
    state: Rc<RefCell<State>>,
}

/// A collection's definition as last read or written; shared by every handle of one store.
#[derive(Debug, Clone, Default)]
pub(super) struct State {
    ttl: Option<TtlIndex>,
    keyed_by: Option<(String, TimeUnit)>,
}

impl State {
    #[cfg(feature = "full")]
    pub(super) fn new(ttl: Option<TtlIndex>, keyed_by: Option<(String, TimeUnit)>) -> State {
        State { ttl, keyed_by }
    }
}

/// A document as the JS edge read it: its id and the value of the field documents are keyed by.
#[derive(Debug)]
pub struct DocIn {
    /// The value at the key path (validated string or number).
    pub id: JsValue,
    /// The TTL field's value, read as a possible date.
    pub field: Value,
    /// The document itself.
    pub doc: JsValue,
}

/// How the JS edge reads documents (`convert::docs`): `(what, documents, key_path,
/// reference_field)`. Passed in, so that the store reads stored documents again (a new TTL
/// index keys them by its field) without depending on the layer above it.
pub type DocReader = fn(&str, &Array, &str, Option<&str>) -> Result<Vec<DocIn>>;

impl Store {
    /// Documents as stored, decrypted when the store encrypts (`undefined` where the key is
    /// gone); as they are otherwise.
    pub(super) async fn open_docs(&self, conn: &crate::idb::Conn, name: &str, ids: &[JsValue], docs: Vec<JsValue>) -> Result<Vec<JsValue>> {
        if !self.encrypted() {
            return Ok(docs);
        }
        let items = ids.iter().zip(docs).map(|(id, d)| super::crypt::doc_item(name, id, d)).collect();
        self.unseal_items(conn, items).await
    }

    /// Encrypts the documents of `writes` when the store encrypts.
    pub(super) async fn seal_docs(&self, conn: &crate::idb::Conn, name: &str, writes: &mut [DocWrite]) -> Result<()> {
        if !self.encrypted() {
            return Ok(());
        }
        let items = writes.iter().map(|w| super::crypt::doc_item(name, &w.id, w.doc.clone())).collect();
        for (w, sealed) in writes.iter_mut().zip(self.seal_items(conn, items).await?) {
            w.doc = sealed;
        }
        Ok(())
    }

    /// The live documents of collection `name` a view shows (of `ids` only, when given), with
    /// how long a document lives after its reference (`None`: no TTL index, nothing expires);
    /// the definition as this store's handles last read it.
    pub async fn view_collection(&self, name: &str, ids: Option<Vec<JsValue>>) -> Result<(Vec<DocRecord>, Option<Window>)> {
        let ttl = self.0.collections.borrow().get(name).and_then(|s| s.borrow().ttl.clone());
        let after = ttl.as_ref().map(|t| t.expire_after);
        let cutoff = ttl.as_ref().map_or(f64::NEG_INFINITY, |t| t.expired_through_ms(now_ms()));
        let conn = self.live().await?;
        let mut recs = conn.view_docs(name, ids.as_deref(), cutoff).await?;
        if self.encrypted() {
            let ids: Vec<JsValue> = recs.iter().map(|r| r.i.clone()).collect();
            let docs = self.open_docs(&conn, name, &ids, recs.iter().map(|r| r.v.clone()).collect()).await?;
            for (r, d) in recs.iter_mut().zip(docs) {
                r.v = d;
            }
            recs.retain(|r| !r.v.is_undefined());
        }
        Ok((recs, after))
    }

    /// Opens collection `name`, creating it (with `key_path`, default `"id"`) if new. A TTL
    /// index given here is created if the collection has none (documents already stored are
    /// read again with `read`); a different one is refused.
    pub async fn collection(&self, name: &str, key_path: Option<&str>, ttl: Option<TtlIndex>, read: DocReader) -> Result<Collection> {
        if name.is_empty() {
            return Err(Error::InvalidType("collection name \"\" is not accepted; expected a non-empty string".into()));
        }
        let stored = self.live().await?.definition(&crate::idb::collection_key(name)).await?;
        let (key_path, fresh, is_new) = match stored {
            Some(Definition::Collection { key_path: stored, ttl, keyed_by, .. }) => {
                if let Some(asked) = key_path.filter(|k| *k != stored) {
                    return Err(Error::InvalidType(format!(
                        "collection {} has keyPath {}, not {}; a collection's keyPath cannot change",
                        quote(name),
                        quote(&stored),
                        quote(asked)
                    )));
                }
                (stored, State { ttl, keyed_by }, false)
            }
            _ => (key_path.unwrap_or("id").to_owned(), State::default(), true),
        };
        if let Some(t) = ttl.as_ref().filter(|t| t.field == key_path) {
            return Err(Error::InvalidType(format!(
                "ttlIndex.field {} is the keyPath of collection {}; a document's id cannot be its date (MongoDB refuses _id as a TTL field): name a date field, e.g. \"createdAt\"",
                quote(&t.field),
                quote(name)
            )));
        }
        // Every handle of this store shares one state, refreshed from what is stored now.
        let state = self.0.collections.borrow_mut().entry(name.to_owned()).or_default().clone();
        state.replace(fresh);
        let collection = Collection { store: self.clone(), name: name.to_owned(), key_path, state };
        match (ttl, collection.ttl_index()) {
            (Some(asked), Some(have)) if !asked.same_but_schedule(&have) => {
                return Err(Error::InvalidType(format!(
                    "collection {} already has a TTL index on {} (expireAfter {}, unit {}); a collection has one TTL index: change it with setExpireAfter() or dropTtlIndex() first",
                    quote(name),
                    quote(&have.field),
                    have.expire_after.describe(),
                    have.unit.name()
                )));
            }
            // A schedule given anew replaces the stored one (the pause stays as saved).
            (Some(asked), Some(have)) if asked.schedule != have.schedule => {
                collection.change_index("setSchedule", "expireAfter", &mut |t| t.schedule = asked.schedule.clone()).await?
            }
            (Some(asked), None) => collection.create_ttl_index(asked, read).await?,
            _ if is_new => {
                let state = collection.state.borrow().clone();
                collection.save(state).await?
            }
            _ => {}
        }
        Ok(collection)
    }
}

/// The reference (Unix ms) of document `id` of collection `c` under `index`, whose TTL field
/// holds `v`: +Infinity when it never expires; a date past year 9999 is a RangeError that names
/// the document and says nothing was written.
pub(super) fn doc_reference_ms(index: &TtlIndex, c: &str, id: &JsValue, v: &Value) -> Result<f64> {
    if index.automatic {
        // CockroachDB's crdb_internal_expiration: stamped at every write.
        return Ok(now_ms());
    }
    match index.reference_ms(v) {
        Ok(r) => Ok(r.unwrap_or(f64::INFINITY)),
        Err(Error::OutOfRange(m)) => Err(Error::OutOfRange(format!(
            "document {} of collection {}: {m}. Nothing was written",
            crate::idb::describe_key(id),
            quote(c)
        ))),
        Err(e) => Err(e),
    }
}

/// Documents keyed again per transaction when a TTL index is built over stored ones.
const REKEY_PAGE: u32 = 1000;

/// What tells one sealed document from another (the lite build seals nothing).
#[cfg(feature = "full")]
use super::entries::sealed_token;
#[cfg(not(feature = "full"))]
fn sealed_token(_: &JsValue) -> Vec<u8> {
    Vec::new()
}

impl Collection {
    /// The collection name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The store it belongs to.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The document property holding its id.
    pub fn key_path(&self) -> &str {
        &self.key_path
    }

    /// The field documents are keyed by, if any: the TTL index's, or the dropped one's (`None`
    /// too when they are keyed by their last write, an automatic index's stamp).
    pub fn reference_field(&self) -> Option<String> {
        let state = self.state.borrow();
        let field = state.ttl.as_ref().map(|t| t.field.clone()).or_else(|| state.keyed_by.as_ref().map(|(f, _)| f.clone()));
        field.filter(|f| !f.is_empty())
    }

    /// The reference (Unix ms) of a document whose TTL field holds `v`: +Infinity when it never
    /// expires; a RangeError naming the document when its date is past year 9999.
    fn reference_ms(&self, id: &JsValue, v: &Value) -> Result<f64> {
        let state = self.state.borrow();
        let index = match (&state.ttl, &state.keyed_by) {
            (Some(t), _) => t.clone(),
            (None, Some((field, unit))) => TtlIndex {
                field: field.clone(),
                automatic: field.is_empty(),
                expire_after: Window::secs(0.0),
                unit: *unit,
                archive_until: None,
                middle: Vec::new(),
                hand_off: Vec::new(),
                schedule: None,
                paused: false,
            },
            (None, None) => return Ok(f64::INFINITY),
        };
        doc_reference_ms(&index, &self.name, id, v)
    }

    /// Documents with a reference at or before this are expired; -Infinity without a TTL index.
    fn cutoff(&self) -> f64 {
        self.state.borrow().ttl.as_ref().map_or(f64::NEG_INFINITY, |t| t.expired_through_ms(now_ms()))
    }

    fn writes(&self, docs: Vec<DocIn>) -> Result<Vec<DocWrite>> {
        docs.into_iter().map(|d| Ok(DocWrite { reference_ms: self.reference_ms(&d.id, &d.field)?, id: d.id, doc: d.doc })).collect()
    }

    /// Stores documents (replacing those with the same id), all or nothing.
    pub async fn put_many(&self, docs: Vec<DocIn>) -> Result<()> {
        let mut writes = self.writes(docs)?;
        let conn = self.store.live().await?;
        let ids: Array = writes.iter().map(|w| w.id.clone()).collect();
        self.store.seal_docs(&conn, &self.name, &mut writes).await?;
        conn.put_docs(&self.name, &writes).await?;
        self.changed("put", ids);
        Ok(())
    }

    /// `collection.update(id, updater)` (MongoDB `findOneAndUpdate`): `f(current)` (the live
    /// document, `undefined` if none) gives the new document, run inside one transaction; its TTL
    /// field read from it; `None` removes the document. The new document, or `undefined`. In a
    /// store that encrypts, `f` runs between a read and a write made only if the document is
    /// still the one read, again until it is (as [`Store::update`] for entries).
    #[cfg(feature = "full")]
    pub async fn update(&self, id: JsValue, f: &mut dyn FnMut(JsValue) -> Result<Option<DocIn>>) -> Result<JsValue> {
        use crate::idb::DocChange;
        let written = |d: DocIn| -> Result<(DocWrite, JsValue)> {
            let w = self.writes(vec![d])?.remove(0);
            let doc = w.doc.clone();
            Ok((w, doc))
        };
        // In a store that encrypts, such calls on one document take turns in every tab and
        // worker (as for entries).
        let _turn = match self.store.encrypted() {
            true => crate::timer::exclusive(&format!("idb-ttl {} rmw {} {}", self.store.name(), quote(&self.name), crate::idb::describe_key(&id))).await,
            false => None,
        };
        for _ in 0..super::entries::SEALED_TRIES {
            let conn = self.store.live().await?;
            let cutoff = self.cutoff();
            // In a store that encrypts: the token of what was read, and the sealed new document.
            let mut sealed = None;
            if self.store.encrypted() {
                let seen = conn.get_docs(&self.name, &Array::of1(&id), cutoff).await?.get(0);
                let old = self.store.open_docs(&conn, &self.name, std::slice::from_ref(&id), vec![seen.clone()]).await?.pop().unwrap_or_default();
                let mut new = f(old)?.map(written).transpose()?;
                if let Some((w, _)) = &mut new {
                    self.store.seal_docs(&conn, &self.name, std::slice::from_mut(w)).await?;
                }
                sealed = Some((super::entries::sealed_token(&seen), new));
            }
            // Some(the new document, `undefined` if removed) once written.
            let mut outcome = None;
            conn.modify_doc(&self.name, &id, cutoff, &mut |current| {
                let new = match &sealed {
                    Some((token, new)) => {
                        if current.as_ref().map_or_else(Vec::new, super::entries::sealed_token) != *token {
                            return Ok(DocChange::Keep);
                        }
                        new.clone()
                    }
                    None => f(current.unwrap_or_default())?.map(written).transpose()?,
                };
                outcome = Some(new.as_ref().map_or(JsValue::UNDEFINED, |(_, doc)| doc.clone()));
                Ok(new.map_or(DocChange::Delete, |(w, _)| DocChange::Put(w)))
            })
            .await?;
            let Some(doc) = outcome else { continue };
            self.changed("update", Array::of1(&id));
            return Ok(doc);
        }
        Err(Error::Timeout {
            op: format!("updating document {} of collection {} in an encrypted store", crate::idb::describe_key(&id), quote(&self.name)),
            message: format!("other writes (put, delete...) changed it between each of {} reads and writes; retry later", super::entries::SEALED_TRIES),
        })
    }

    /// When document `id` expires (Unix ms): `Some(None)` never, `None` when missing or expired.
    pub async fn expires_at(&self, id: &JsValue) -> Result<Option<Option<f64>>> {
        let ttl = self.ttl_index();
        let live = self.store.live().await?.view_docs(&self.name, Some(std::slice::from_ref(id)), self.cutoff()).await?;
        Ok(live.first().map(|rec| ttl.map(|t| t.expires_at_ms(rec.r)).filter(|e| e.is_finite())))
    }

    /// Gives live document `id` of a collection with an automatic TTL index the expiry `at_ms`
    /// until its next write restamps it (CockroachDB: setting `crdb_internal_expiration`);
    /// whether it was live. One readwrite transaction; the document itself is kept as stored.
    pub async fn expire(&self, id: JsValue, at_ms: f64) -> Result<bool> {
        let Some(ttl) = self.ttl_index().filter(|t| t.automatic) else {
            return Err(Error::InvalidType(format!(
                "collection {}: expire() overrides the expiry an automatic TTL index stamps (ttlIndex: {{ automatic: true, expireAfter }}); {}",
                quote(&self.name),
                match self.ttl_index() {
                    Some(t) => format!("here documents expire by their field {}: write the date there", quote(&t.field)),
                    None => "this collection has no TTL index".into(),
                }
            )));
        };
        let reference_ms = ttl.expire_after.before(at_ms);
        let mut live = false;
        self.store
            .live()
            .await?
            .modify_doc(&self.name, &id, self.cutoff(), &mut |current| {
                let Some(doc) = current else { return Ok(crate::idb::DocChange::Keep) };
                live = true;
                Ok(crate::idb::DocChange::Put(DocWrite { id: id.clone(), reference_ms, doc }))
            })
            .await?;
        if live {
            self.changed("expire", Array::of1(&id));
        }
        Ok(live)
    }

    /// Live documents with `ids`, in order (`undefined` where missing or expired).
    pub async fn get_many(&self, ids: &Array) -> Result<Array> {
        let conn = self.store.live().await?;
        let docs = conn.get_docs(&self.name, ids, self.cutoff()).await?;
        if !self.store.encrypted() {
            return Ok(docs);
        }
        Ok(self.store.open_docs(&conn, &self.name, &ids.to_vec(), docs.to_vec()).await?.into_iter().collect())
    }

    /// Removes documents; how many were live.
    pub async fn delete_many(&self, ids: &Array) -> Result<u32> {
        let live = self.store.live().await?.delete_docs(&self.name, ids, self.cutoff()).await?;
        self.changed("delete", ids.clone());
        Ok(live)
    }

    /// Number of live documents.
    pub async fn count(&self) -> Result<u32> {
        self.store.live().await?.count_docs(&self.name, self.cutoff()).await
    }

    /// Live documents in id order.
    pub async fn values(&self) -> Result<Array> {
        if self.store.encrypted() {
            let (docs, _) = self.store.view_collection(&self.name, None).await?;
            return Ok(docs.into_iter().map(|d| d.v).collect());
        }
        self.store.live().await?.doc_values(&self.name, self.cutoff()).await
    }

    /// Removes every document.
    pub async fn clear(&self) -> Result<()> {
        self.store.live().await?.clear_docs(&self.name).await?;
        self.changed("clear", Array::new());
        Ok(())
    }

    /// The TTL index, if any.
    pub fn ttl_index(&self) -> Option<TtlIndex> {
        self.state.borrow().ttl.clone()
    }

    /// The definition as stored now (another handle or tab may have changed it), also
    /// refreshing this store's shared copy.
    async fn stored(&self) -> Result<State> {
        let fresh = match self.store.live().await?.definition(&crate::idb::collection_key(&self.name)).await? {
            Some(Definition::Collection { ttl, keyed_by, .. }) => State { ttl, keyed_by },
            _ => State::default(),
        };
        self.state.replace(fresh.clone());
        Ok(fresh)
    }

    /// Changes the TTL window (MongoDB `collMod`): only the definition is written, no document.
    pub async fn set_expire_after(&self, window: Window) -> Result<()> {
        self.change_index("setExpireAfter", "expireAfter", &mut |t| t.expire_after = window).await
    }

    /// Changes the tiers (YDB): only the definition is written, no document (archived ones are
    /// keyed by their reference too, so the delete tier moves with it).
    pub async fn set_tiers(&self, tiers: crate::core::ttl_index::Tiers) -> Result<()> {
        let mut tiers = Some(tiers);
        self.change_index("setTiers", "tiers", &mut |t| t.set_tiers(tiers.take().expect("set once"))).await
    }

    /// Changes the stored TTL index by `f` (its window, tiers, schedule, pause): only the
    /// definition is written, and every member follows. `op` names the change in `"change"`
    /// events; `option` is what the message for a collection without index suggests giving.
    async fn change_index(&self, op: &str, option: &str, f: &mut dyn FnMut(&mut TtlIndex)) -> Result<()> {
        let mut next = self.stored().await?;
        let Some(ttl) = next.ttl.as_mut() else {
            return Err(Error::InvalidType(format!(
                "collection {} has no TTL index to change; create one with store.collection({}, {{ ttlIndex: {{ field, {option} }} }})",
                quote(&self.name),
                quote(&self.name)
            )));
        };
        f(ttl);
        self.save(next).await?;
        self.changed(op, Array::new());
        Ok(())
    }

    /// Pauses or resumes this collection's reaping (CockroachDB's `ttl_pause`), saved in the
    /// database: every member's passes, background or `reap()`, leave its documents alone while
    /// paused, and a store opened later finds it so. Reads still hide expired documents.
    pub async fn set_paused(&self, paused: bool) -> Result<()> {
        self.change_index(if paused { "pauseReaper" } else { "resumeReaper" }, "expireAfter", &mut |t| t.paused = paused).await
    }

    /// When a background pass next reaps the collection by its `schedule` (Unix ms; in the past
    /// when a run is due); `None` without a schedule (every background pass reaps it), when
    /// paused, or without a TTL index.
    pub async fn next_reap_at(&self) -> Result<Option<f64>> {
        let Some(ttl) = self.stored().await?.ttl.filter(|t| !t.paused) else { return Ok(None) };
        let Some(schedule) = ttl.schedule else { return Ok(None) };
        let last = self.store.live().await?.meta_number(&super::reaper::reaped_key(&self.name)).await?;
        Ok(schedule.next_after(last.unwrap_or_else(now_ms)))
    }

    /// `collection.stats()`: live and expired documents counted now, this member's reaper
    /// counters for the collection, and its next scheduled run.
    #[cfg(feature = "full")]
    pub async fn stats(&self) -> Result<(u32, u32, crate::core::reaper::CollectionCounters, Option<f64>)> {
        let live = self.count().await?;
        let expired = match self.ttl_index() {
            Some(t) => self.store.live().await?.count_expired(&[&crate::idb::Expired::docs(&self.name, t.expired_through_ms(now_ms()))]).await?,
            None => 0,
        };
        let counters = self.store.0.collection_stats.borrow().get(&self.name).copied().unwrap_or_default();
        Ok((live, expired, counters, self.next_reap_at().await?))
    }

    /// How long after its reference an archived document stays readable (0 without an
    /// archive tier: then nothing archived is shown).
    pub fn archive_after(&self) -> Window {
        self.state.borrow().ttl.as_ref().and_then(|t| t.archive_until).unwrap_or(Window::secs(0.0))
    }

    /// Removes the TTL index: documents never expire any more (they keep their keys, so adding
    /// the same index back reads them but rewrites none).
    pub async fn drop_ttl_index(&self) -> Result<bool> {
        let mut next = self.stored().await?;
        if next.ttl.take().is_none() {
            return Ok(false);
        }
        self.save(next).await?;
        self.changed("dropTtlIndex", Array::new());
        Ok(true)
    }

    /// Creates a TTL index; documents are keyed again only if they were keyed by another field or unit.
    async fn create_ttl_index(&self, ttl: TtlIndex, read: DocReader) -> Result<()> {
        let stored = self.stored().await?;
        if crate::long::tracked() {
            let n = self.store.live().await?.count_docs(&self.name, f64::NEG_INFINITY).await?;
            crate::long::total(2 * n);
        }
        // Every stored document is checked first: one refused leaves everything as it was.
        self.rekey(&ttl, read, false).await?;
        // Every member keys its writes by the new index from now on (an automatic one keys them
        // by their last write, as field ""); the index itself is saved once every stored
        // document is moved, so until then none counts as expired. Documents keyed already
        // (the same index dropped and given again) are not rewritten; a build that stopped half
        // way is finished by the next one, which checks every document again.
        let keyed_by = Some((ttl.field.clone(), ttl.unit));
        if stored.keyed_by != keyed_by {
            self.save(State { keyed_by: keyed_by.clone(), ttl: None }).await?;
        }
        self.rekey(&ttl, read, true).await?;
        self.save(State { keyed_by, ttl: Some(ttl) }).await?;
        self.changed("createTtlIndex", Array::new());
        Ok(())
    }

    fn changed(&self, op: &str, ids: Array) {
        self.store.emit_change_in("collection", &self.name, op, ids);
    }

    /// Checks (`moving` false: a date past year 9999 refuses the index) or keys (`moving`)
    /// every stored document by `index`'s reference, as ArangoDB builds a TTL index in the
    /// background: a page of [`REKEY_PAGE`] at a time, each in a transaction of its own, told to
    /// a call's `onProgress` and stopped by its `signal`; only documents whose reference changed
    /// are written. In an encrypted store a page is read and decrypted first, and a document
    /// written again in between is left to its writer's keying.
    async fn rekey(&self, index: &TtlIndex, read: DocReader, moving: bool) -> Result<()> {
        let conn = self.store.live().await?;
        // Each document's new reference (`None` where it cannot be read: a shredded key).
        let references = |recs: &[crate::idb::DocRecord], docs: &[JsValue]| -> Result<Vec<Option<f64>>> {
            let readable: Vec<usize> = (0..docs.len()).filter(|&i| !docs[i].is_undefined()).collect();
            let given: Array = readable.iter().map(|&i| docs[i].clone()).collect();
            let mut out = vec![None; recs.len()];
            for (&i, d) in readable.iter().zip(read("stored document", &given, &self.key_path, index.field_path())?) {
                out[i] = Some(doc_reference_ms(index, &self.name, &recs[i].i, &d.field)?);
            }
            Ok(out)
        };
        let mut after = None;
        loop {
            crate::long::check()?;
            let (n, last) = if self.store.encrypted() {
                let page: Vec<crate::idb::DocRecord> = conn.doc_page(&self.name, after.clone(), REKEY_PAGE).await?.iter().map(|r| crate::idb::DocRecord::read(&r)).collect::<Result<_>>()?;
                let ids: Vec<JsValue> = page.iter().map(|r| r.i.clone()).collect();
                let docs = self.store.open_docs(&conn, &self.name, &ids, page.iter().map(|r| r.v.clone()).collect()).await?;
                let refs = references(&page, &docs)?;
                if moving {
                    // What was read, by id: its sealed value's token and its new reference.
                    let seen: std::collections::HashMap<String, (Vec<u8>, Option<f64>)> =
                        page.iter().zip(&refs).map(|(r, to)| (crate::idb::describe_key(&r.i), (sealed_token(&r.v), *to))).collect();
                    conn.rekey_page(&self.name, after.clone(), REKEY_PAGE, &mut |now| {
                        Ok(now.iter().map(|r| seen.get(&crate::idb::describe_key(&r.i)).filter(|(token, _)| *token == sealed_token(&r.v)).and_then(|(_, to)| *to)).collect())
                    })
                    .await?;
                }
                (page.len() as u32, page.last().map(|r| r.i.clone()))
            } else {
                conn.rekey_page(&self.name, after.clone(), REKEY_PAGE, &mut |recs| {
                    let refs = references(recs, &recs.iter().map(|r| r.v.clone()).collect::<Vec<_>>())?;
                    Ok(if moving { refs } else { vec![None; recs.len()] })
                })
                .await?
            };
            crate::long::advance(n);
            if n < REKEY_PAGE {
                break;
            }
            after = last;
        }
        Ok(())
    }

    async fn save(&self, next: State) -> Result<()> {
        let def = Definition::Collection {
            name: self.name.clone(),
            key_path: self.key_path.clone(),
            ttl: next.ttl.clone(),
            keyed_by: next.keyed_by.clone(),
        };
        self.store.live().await?.put_definition(&def).await?;
        self.store.definition_saved(&def);
        self.state.replace(next);
        Ok(())
    }
}
