//! `Collection` and `TimeSeries` as JavaScript sees them.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::{verb, view, Verb};
use crate::store;

/// A collection of documents with an optional TTL index (`store.collection(name, options)`).
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct Collection {
    pub(crate) inner: store::Collection,
}

/// A collection's verbs with their arguments (run by [`verb`], with the store's own).
#[derive(Debug)]
pub(crate) enum Doc {
    Put { doc: JsValue },
    PutMany { docs: JsValue },
    Get { id: JsValue },
    GetMany { ids: JsValue },
    Delete { id: JsValue },
    DeleteMany { ids: JsValue },
    Count,
    Values,
    Clear,
    SetExpireAfter { expire_after: JsValue },
    SetTiers { tiers: JsValue },
    DropTtlIndex,
}

/// A collection's verbs run by the store's one driver ([`verb`]).
fn doc_verb(c: &Collection, d: Doc) -> Promise {
    verb(c.inner.store().clone(), Verb::Doc(c.inner.clone(), d))
}

/// A time series' verbs with their arguments (run by [`verb`], with the store's own).
#[derive(Debug)]
pub(crate) enum Series {
    Insert { event: JsValue },
    InsertMany { events: JsValue },
    Query { options: JsValue },
    Count,
    BucketCount,
    Clear,
}

/// A time series' verbs run by the store's one driver ([`verb`]).
fn series_verb(t: &TimeSeries, v: Series) -> Promise {
    verb(t.inner.store().clone(), Verb::Series(t.inner.clone(), v))
}

#[wasm_bindgen]
impl Collection {
    /// The collection name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.inner.name().to_owned()
    }

    /// The document property holding its id.
    #[wasm_bindgen(getter, js_name = keyPath)]
    pub fn key_path(&self) -> String {
        self.inner.key_path().to_owned()
    }

    /// A live view of the collection's documents: `listener([{ key: id, value: document,
    /// expiresAt }])` at once, after every change here or in another member, and as each
    /// document expires. Returns the function that stops it.
    pub fn observe(&self, listener: JsValue) -> std::result::Result<js_sys::Function, JsValue> {
        use crate::core::error::Error;
        let f = listener
            .dyn_into::<js_sys::Function>()
            .map_err(|l| Error::wrong_type("observe listener", &super::convert::describe(&l), "a function, (documents) => { ... }").into_js())?;
        let query = crate::store::plain_object(&[("collection", JsValue::from_str(self.inner.name()))]);
        let read = |store: store::Store, query: JsValue, keys: JsValue| verb(store, Verb::View { query, keys }).into();
        self.inner.store().observe(&query, &f, read).map_err(Error::into_js)
    }

    /// Stores a document (replacing one with the same id).
    pub fn put(&self, doc: JsValue) -> Promise {
        doc_verb(self, Doc::Put { doc })
    }

    /// Stores documents in one transaction, all or nothing.
    #[wasm_bindgen(js_name = putMany)]
    pub fn put_many(&self, docs: JsValue) -> Promise {
        doc_verb(self, Doc::PutMany { docs })
    }

    /// The live document with this id, or `undefined`.
    pub fn get(&self, id: JsValue) -> Promise {
        doc_verb(self, Doc::Get { id })
    }

    /// Live documents with these ids, in order, `undefined` where missing or expired.
    #[wasm_bindgen(js_name = getMany)]
    pub fn get_many(&self, ids: JsValue) -> Promise {
        doc_verb(self, Doc::GetMany { ids })
    }

    /// Removes the document with this id; `true` if it was live.
    pub fn delete(&self, id: JsValue) -> Promise {
        doc_verb(self, Doc::Delete { id })
    }

    /// Removes documents; how many were live.
    #[wasm_bindgen(js_name = deleteMany)]
    pub fn delete_many(&self, ids: JsValue) -> Promise {
        doc_verb(self, Doc::DeleteMany { ids })
    }

    /// Number of live documents.
    pub fn count(&self) -> Promise {
        doc_verb(self, Doc::Count)
    }

    /// Live documents in id order.
    pub fn values(&self) -> Promise {
        doc_verb(self, Doc::Values)
    }

    /// Removes every document.
    pub fn clear(&self) -> Promise {
        doc_verb(self, Doc::Clear)
    }

    /// Changes `expireAfter` without rewriting any document (MongoDB `collMod`).
    #[wasm_bindgen(js_name = setExpireAfter)]
    pub fn set_expire_after(&self, expire_after: JsValue) -> Promise {
        doc_verb(self, Doc::SetExpireAfter { expire_after })
    }

    /// Changes the tiers (`[{ after, action }]`) without rewriting any document.
    #[wasm_bindgen(js_name = setTiers)]
    pub fn set_tiers(&self, tiers: JsValue) -> Promise {
        doc_verb(self, Doc::SetTiers { tiers })
    }

    /// The documents past an archive tier, readable until the delete tier.
    #[wasm_bindgen(getter)]
    pub fn archive(&self) -> super::Archive {
        super::Archive { store: self.inner.store().clone(), id: self.inner.name().into(), of: Some(self.inner.clone()) }
    }

    /// The TTL index: `{ field, expireAfter, unit }` (expireAfter in seconds; with an archive
    /// tier, `tiers: [{ after, action }]` too), or `null`.
    #[wasm_bindgen(js_name = ttlIndex)]
    pub fn ttl_index(&self) -> JsValue {
        view::to_js(&self.inner.ttl_index().as_ref().map(view::TtlIndexInfo::from))
    }

    /// Removes the TTL index (documents then never expire); `false` if there was none.
    #[wasm_bindgen(js_name = dropTtlIndex)]
    pub fn drop_ttl_index(&self) -> Promise {
        doc_verb(self, Doc::DropTtlIndex)
    }
}

/// A time series of events stored in buckets (`store.timeSeries(name, options)`).
#[wasm_bindgen(js_name = TimeSeries, skip_typescript)]
#[derive(Debug)]
pub struct TimeSeries {
    pub(crate) inner: store::Series,
}

#[wasm_bindgen(js_class = TimeSeries)]
impl TimeSeries {
    /// The series name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.inner.name().to_owned()
    }

    /// `{ timeField, metaField, granularity, expireAfter }` (expireAfter in seconds or `null`).
    #[wasm_bindgen(getter)]
    pub fn options(&self) -> JsValue {
        view::to_js(&view::SeriesInfo::from(&self.inner.options()))
    }

    /// Appends one event.
    pub fn insert(&self, event: JsValue) -> Promise {
        series_verb(self, Series::Insert { event })
    }

    /// Appends events in one transaction, all or nothing; resolves to the number of bucket
    /// records written.
    #[wasm_bindgen(js_name = insertMany)]
    pub fn insert_many(&self, events: JsValue) -> Promise {
        series_verb(self, Series::InsertMany { events })
    }

    /// Live events with time in `[from, to]` (inclusive; same formats as `expiresAt`), of
    /// one meta value if `meta` is given, oldest first.
    pub fn query(&self, options: JsValue) -> Promise {
        series_verb(self, Series::Query { options })
    }

    /// Number of live events.
    pub fn count(&self) -> Promise {
        series_verb(self, Series::Count)
    }

    /// Number of bucket records stored (including expired ones the reaper has not removed yet).
    #[wasm_bindgen(js_name = bucketCount)]
    pub fn bucket_count(&self) -> Promise {
        series_verb(self, Series::BucketCount)
    }

    /// Removes every event.
    pub fn clear(&self) -> Promise {
        series_verb(self, Series::Clear)
    }
}
