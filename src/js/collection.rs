//! `Collection` and `TimeSeries` as JavaScript sees them.

use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;

use super::{convert, run, view, U};
use crate::core::error::{Error, Result};
use crate::core::text::quote;
use crate::idb::describe_key;
use crate::store;

/// A collection of documents with an optional TTL index (`store.collection(name, options)`).
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct Collection {
    pub(crate) inner: store::Collection,
}

/// A collection's work run by the driver: `f` given the collection.
fn doc_work<F: std::future::Future<Output = Result<JsValue>> + 'static>(c: &Collection, f: impl FnOnce(store::Collection) -> F) -> Promise {
    run(f(c.inner.clone()))
}

/// Whether two ids (strings or numbers) are the same IndexedDB key.
fn same_key(a: &JsValue, b: &JsValue) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a.as_string() == b.as_string(),
        _ => false,
    }
}

/// A time series' work run by the driver: `f` given the series.
fn series_work<F: std::future::Future<Output = Result<JsValue>> + 'static>(t: &TimeSeries, f: impl FnOnce(store::Series) -> F) -> Promise {
    run(f(t.inner.clone()))
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
            .map_err(|l| Error::wrong_type("observe listener", &convert::describe(&l), "a function, (documents) => { ... }").into_js())?;
        let query = crate::store::plain_object(&[("collection", JsValue::from_str(self.inner.name()))]);
        self.inner.store().observe(&query, &f, super::view_read).map_err(Error::into_js)
    }

    /// Stores a document (replacing one with the same id).
    pub fn put(&self, doc: JsValue) -> Promise {
        doc_work(self, |c| async move {
            let field = c.reference_field();
            c.put_many(convert::docs("document", &Array::of1(&doc), c.key_path(), field.as_deref())?).await?;
            Ok(U)
        })
    }

    /// Stores documents in one transaction, all or nothing.
    #[wasm_bindgen(js_name = putMany)]
    pub fn put_many(&self, docs: JsValue) -> Promise {
        doc_work(self, |c| async move {
            let field = c.reference_field();
            c.put_many(convert::docs_in(&docs, c.key_path(), field.as_deref())?).await?;
            Ok(U)
        })
    }

    /// `updater(document)` (the live document, or `undefined`), run synchronously inside one
    /// transaction, gives the document written (its id must stay `id`; its TTL field sets its
    /// expiry) and resolved; `undefined` removes the document (MongoDB `findOneAndUpdate`).
    pub fn update(&self, id: JsValue, updater: JsValue) -> Promise {
        let c = self.inner.clone();
        let thrown = super::Thrown::default();
        super::run_thrown(thrown.clone(), async move {
            let id = convert::key(&id)?;
            let f = super::updater("collection update updater", &updater)?;
            let field = c.reference_field();
            let what = || format!("collection {} update({})", quote(c.name()), describe_key(&id));
            let mut call = |current| {
                let doc = super::call_updater(&f, current, &thrown, &what)?;
                if doc.is_undefined() {
                    return Ok(None);
                }
                let d = convert::docs("updated document", &Array::of1(&doc), c.key_path(), field.as_deref())?.remove(0);
                if !same_key(&d.id, &id) {
                    return Err(Error::InvalidType(format!(
                        "{}: the updater returned a document whose {} is {}, not {}; nothing was written. An update keeps the document's id: put() the new document and delete() the old one to move it",
                        what(),
                        quote(c.key_path()),
                        describe_key(&d.id),
                        describe_key(&id)
                    )));
                }
                Ok(Some(d))
            };
            c.update(id.clone(), &mut call).await
        })
    }

    /// The live document with this id, or `undefined`.
    pub fn get(&self, id: JsValue) -> Promise {
        doc_work(self, |c| async move { Ok(c.get_many(&Array::of1(&convert::key(&id)?)).await?.get(0)) })
    }

    /// When the document expires: Unix seconds, `null` if never, `undefined` if missing or expired.
    #[wasm_bindgen(js_name = expiresAt)]
    pub fn expires_at(&self, id: JsValue) -> Promise {
        doc_work(self, |c| async move {
            Ok(match c.expires_at(&convert::key(&id)?).await? {
                None => U,
                Some(None) => JsValue::NULL,
                Some(Some(ms)) => (ms / 1000.0).into(),
            })
        })
    }

    /// On an automatic TTL index: gives a live document the expiry `{ ttl }` or `{ expiresAt }`
    /// until its next write; `false` if it was missing or expired.
    pub fn expire(&self, id: JsValue, options: JsValue) -> Promise {
        doc_work(self, |c| async move {
            let id = convert::key(&id)?;
            let at_ms = convert::doc_expire_at_ms(&options, crate::timer::now_ms())?;
            Ok(c.expire(id, at_ms).await?.into())
        })
    }

    /// Live documents with these ids, in order, `undefined` where missing or expired.
    #[wasm_bindgen(js_name = getMany)]
    pub fn get_many(&self, ids: JsValue) -> Promise {
        doc_work(self, |c| async move { Ok(c.get_many(&convert::keys("getMany ids", &ids)?).await?.into()) })
    }

    /// Removes the document with this id; `true` if it was live.
    pub fn delete(&self, id: JsValue) -> Promise {
        doc_work(self, |c| async move { Ok((c.delete_many(&Array::of1(&convert::key(&id)?)).await? > 0).into()) })
    }

    /// Removes documents; how many were live.
    #[wasm_bindgen(js_name = deleteMany)]
    pub fn delete_many(&self, ids: JsValue) -> Promise {
        doc_work(self, |c| async move { Ok(c.delete_many(&convert::keys("deleteMany ids", &ids)?).await?.into()) })
    }

    /// Number of live documents.
    pub fn count(&self) -> Promise {
        doc_work(self, |c| async move { Ok(c.count().await?.into()) })
    }

    /// Live documents in id order.
    pub fn values(&self) -> Promise {
        doc_work(self, |c| async move { Ok(c.values().await?.into()) })
    }

    /// Removes every document.
    pub fn clear(&self) -> Promise {
        doc_work(self, |c| async move {
            c.clear().await?;
            Ok(U)
        })
    }

    /// Changes `expireAfter` without rewriting any document (MongoDB `collMod`).
    #[wasm_bindgen(js_name = setExpireAfter)]
    pub fn set_expire_after(&self, expire_after: JsValue) -> Promise {
        doc_work(self, |c| async move {
            c.set_expire_after(convert::expire_after(&expire_after)?).await?;
            Ok(U)
        })
    }

    /// Changes the tiers (`[{ after, action }]`) without rewriting any document.
    #[wasm_bindgen(js_name = setTiers)]
    pub fn set_tiers(&self, tiers: JsValue) -> Promise {
        doc_work(self, |c| async move {
            c.set_tiers(convert::tiers(&tiers)?).await?;
            Ok(U)
        })
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

    /// Stops this collection's reaping in every member until `resumeReaper()` (CockroachDB's
    /// `ttl_pause`), saved in the database.
    #[wasm_bindgen(js_name = pauseReaper)]
    pub fn pause_reaper(&self) -> Promise {
        doc_work(self, |c| async move {
            c.set_paused(true).await?;
            Ok(U)
        })
    }

    /// Lets the reaper remove this collection's expired documents again.
    #[wasm_bindgen(js_name = resumeReaper)]
    pub fn resume_reaper(&self) -> Promise {
        doc_work(self, |c| async move {
            c.set_paused(false).await?;
            Ok(U)
        })
    }

    /// The next scheduled run (Unix seconds), or `null` without a schedule or while paused.
    #[wasm_bindgen(js_name = nextReapAt)]
    pub fn next_reap_at(&self) -> Promise {
        doc_work(self, |c| async move { Ok(c.next_reap_at().await?.map_or(JsValue::NULL, |ms| (ms / 1000.0).into())) })
    }

    /// `{ live, expired, removedTotal, lastRunAt, nextRunAt, selectMs, deleteMs }`.
    pub fn stats(&self) -> Promise {
        doc_work(self, |c| async move {
            let (live, expired, n, next) = c.stats().await?;
            let secs = |ms: Option<f64>| ms.map(|ms| ms / 1000.0);
            Ok(view::to_js(&view::CollectionStats {
                live,
                expired,
                removed_total: n.removed_total,
                last_run_at: secs(n.last_run_at_ms),
                next_run_at: secs(next),
                select_ms: n.select_ms,
                delete_ms: n.delete_ms,
            }))
        })
    }

    /// Removes the TTL index (documents then never expire); `false` if there was none.
    #[wasm_bindgen(js_name = dropTtlIndex)]
    pub fn drop_ttl_index(&self) -> Promise {
        doc_work(self, |c| async move { Ok(c.drop_ttl_index().await?.into()) })
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
        series_work(self, |s| async move {
            s.insert_many(&convert::events_in("event", &Array::of1(&event), &s.options())?).await?;
            Ok(U)
        })
    }

    /// Appends events in one transaction, all or nothing; resolves to the number of bucket
    /// records written.
    #[wasm_bindgen(js_name = insertMany)]
    pub fn insert_many(&self, events: JsValue) -> Promise {
        series_work(self, |s| async move {
            let events = convert::events_in("insertMany event", &convert::event_array(&events)?, &s.options())?;
            Ok(s.insert_many(&events).await?.into())
        })
    }

    /// Live events with time in `[from, to]` (inclusive; same formats as `expiresAt`), of
    /// one meta value if `meta` is given, oldest first.
    pub fn query(&self, options: JsValue) -> Promise {
        series_work(self, |s| async move {
            let q = convert::query_options(&options)?;
            Ok(s.query(q.meta_key.as_deref(), q.from_ms, q.to_ms).await?.into())
        })
    }

    /// Number of live events.
    pub fn count(&self) -> Promise {
        series_work(self, |s| async move { Ok(s.count().await?.into()) })
    }

    /// Removes the events with time in `[from, to]` (inclusive; either open when absent), of one
    /// meta value if `meta` is given; resolves to how many live events were removed. A bucket
    /// left empty goes.
    #[wasm_bindgen(js_name = deleteMany)]
    pub fn delete_many(&self, options: JsValue) -> Promise {
        series_work(self, |s| async move {
            let q = convert::query_options(&options)?;
            Ok(s.delete_many(q.meta_key.as_deref(), q.from_ms, q.to_ms).await?.into())
        })
    }

    /// Buckets new events by `granularity` from now on, the same or coarser than today's
    /// (MongoDB `collMod`); buckets already written keep their span.
    #[wasm_bindgen(js_name = setGranularity)]
    pub fn set_granularity(&self, granularity: JsValue) -> Promise {
        series_work(self, |s| async move {
            s.set_granularity(convert::granularity(&granularity)?).await?;
            Ok(U)
        })
    }

    /// Number of bucket records stored (including expired ones the reaper has not removed yet).
    #[wasm_bindgen(js_name = bucketCount)]
    pub fn bucket_count(&self) -> Promise {
        series_work(self, |s| async move { Ok(s.bucket_count().await?.into()) })
    }

    /// Removes every event.
    pub fn clear(&self) -> Promise {
        series_work(self, |s| async move {
            s.clear().await?;
            Ok(U)
        })
    }
}
