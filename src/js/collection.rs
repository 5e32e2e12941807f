//! `Collection` and `TimeSeries` as JavaScript sees them.

use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;

use super::{convert, promise};
use crate::store;

/// A collection of documents with an optional TTL index (`store.collection(name, options)`).
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct Collection {
    pub(crate) inner: store::Collection,
}

fn set(o: &Object, k: &str, v: JsValue) {
    let _ = Reflect::set(o, &JsValue::from_str(k), &v);
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

    /// Stores a document (replacing one with the same id).
    pub fn put(&self, doc: JsValue) -> Promise {
        let c = self.inner.clone();
        promise(async move {
            let docs = convert::docs("document", &Array::of1(&doc), c.key_path(), c.reference_field().as_deref())?;
            c.put_many(docs).await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Stores documents in one transaction, all or nothing.
    #[wasm_bindgen(js_name = putMany)]
    pub fn put_many(&self, docs: JsValue) -> Promise {
        let c = self.inner.clone();
        promise(async move {
            let docs = convert::docs_in(&docs, c.key_path(), c.reference_field().as_deref())?;
            c.put_many(docs).await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// The live document with this id, or `undefined`.
    pub fn get(&self, id: JsValue) -> Promise {
        let c = self.inner.clone();
        promise(async move {
            let ids = Array::of1(&convert::key(&id)?);
            Ok(c.get_many(&ids).await?.get(0))
        })
    }

    /// Live documents with these ids, in order, `undefined` where missing or expired.
    #[wasm_bindgen(js_name = getMany)]
    pub fn get_many(&self, ids: JsValue) -> Promise {
        let c = self.inner.clone();
        promise(async move { c.get_many(&convert::keys("getMany ids", &ids)?).await })
    }

    /// Removes the document with this id; `true` if it was live.
    pub fn delete(&self, id: JsValue) -> Promise {
        let c = self.inner.clone();
        promise(async move { Ok(c.delete_many(&Array::of1(&convert::key(&id)?)).await? > 0) })
    }

    /// Removes documents; how many were live.
    #[wasm_bindgen(js_name = deleteMany)]
    pub fn delete_many(&self, ids: JsValue) -> Promise {
        let c = self.inner.clone();
        promise(async move { c.delete_many(&convert::keys("deleteMany ids", &ids)?).await })
    }

    /// Number of live documents.
    pub fn count(&self) -> Promise {
        let c = self.inner.clone();
        promise(async move { c.count().await })
    }

    /// Live documents in id order.
    pub fn values(&self) -> Promise {
        let c = self.inner.clone();
        promise(async move { c.values().await })
    }

    /// Removes every document.
    pub fn clear(&self) -> Promise {
        let c = self.inner.clone();
        promise(async move {
            c.clear().await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Changes `expireAfter` without rewriting any document (MongoDB `collMod`).
    #[wasm_bindgen(js_name = setExpireAfter)]
    pub fn set_expire_after(&self, expire_after: JsValue) -> Promise {
        let c = self.inner.clone();
        promise(async move {
            c.set_expire_after(convert::expire_after(&expire_after)?).await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Changes the tiers (`[{ after, action }]`) without rewriting any document.
    #[wasm_bindgen(js_name = setTiers)]
    pub fn set_tiers(&self, tiers: JsValue) -> Promise {
        let c = self.inner.clone();
        promise(async move {
            let (first, archive_until) = convert::tiers(&tiers)?;
            c.set_tiers(first, archive_until).await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// The documents past an archive tier, readable until the delete tier.
    #[wasm_bindgen(getter)]
    pub fn archive(&self) -> super::Archive {
        super::Archive { store: self.inner.store().clone(), c: self.inner.name().into(), of: Some(self.inner.clone()) }
    }

    /// The TTL index: `{ field, expireAfter, unit }` (expireAfter in seconds; with an archive
    /// tier, `tiers: [{ after, action }]` too), or `null`.
    #[wasm_bindgen(js_name = ttlIndex)]
    pub fn ttl_index(&self) -> JsValue {
        self.inner.ttl_index().map_or(JsValue::NULL, |t| {
            let o = Object::new();
            set(&o, "field", t.field.as_str().into());
            set(&o, "expireAfter", t.expire_after_secs.into());
            set(&o, "unit", t.unit.name().into());
            if t.archive_until_secs.is_some() {
                let tiers: js_sys::Array = t
                    .tiers()
                    .into_iter()
                    .map(|(after, action)| {
                        let tier = Object::new();
                        set(&tier, "after", after.into());
                        set(&tier, "action", if action == crate::core::ttl_index::TierAction::Archive { "archive" } else { "delete" }.into());
                        JsValue::from(tier)
                    })
                    .collect();
                set(&o, "tiers", tiers.into());
            }
            o.into()
        })
    }

    /// Removes the TTL index (documents then never expire); `false` if there was none.
    #[wasm_bindgen(js_name = dropTtlIndex)]
    pub fn drop_ttl_index(&self) -> Promise {
        let c = self.inner.clone();
        promise(async move { c.drop_ttl_index().await })
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
        let o = &self.inner.options();
        let obj = Object::new();
        set(&obj, "timeField", o.time_field.as_str().into());
        set(&obj, "metaField", o.meta_field.as_deref().map_or(JsValue::NULL, JsValue::from));
        set(&obj, "granularity", o.granularity.name().into());
        set(&obj, "expireAfter", o.expire_after_secs.map_or(JsValue::NULL, JsValue::from));
        obj.into()
    }

    /// Appends one event.
    pub fn insert(&self, event: JsValue) -> Promise {
        let s = self.inner.clone();
        promise(async move {
            let events = convert::events_in("event", &Array::of1(&event), &s.options())?;
            s.insert_many(&events).await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Appends events in one transaction, all or nothing; resolves to the number of bucket
    /// records written.
    #[wasm_bindgen(js_name = insertMany)]
    pub fn insert_many(&self, events: JsValue) -> Promise {
        let s = self.inner.clone();
        promise(async move {
            let arr = convert::event_array(&events)?;
            let events = convert::events_in("insertMany event", &arr, &s.options())?;
            s.insert_many(&events).await
        })
    }

    /// Live events with time in `[from, to]` (inclusive; same formats as `expiresAt`), of
    /// one meta value if `meta` is given, oldest first.
    pub fn query(&self, options: JsValue) -> Promise {
        let s = self.inner.clone();
        promise(async move {
            let q = convert::query_options(&options)?;
            s.query(q.meta_key.as_deref(), q.from_ms, q.to_ms).await
        })
    }

    /// Number of live events.
    pub fn count(&self) -> Promise {
        let s = self.inner.clone();
        promise(async move { s.count().await })
    }

    /// Number of bucket records stored (including expired ones the reaper has not removed yet).
    #[wasm_bindgen(js_name = bucketCount)]
    pub fn bucket_count(&self) -> Promise {
        let s = self.inner.clone();
        promise(async move { s.bucket_count().await })
    }

    /// Removes every event.
    pub fn clear(&self) -> Promise {
        let s = self.inner.clone();
        promise(async move {
            s.clear().await?;
            Ok(JsValue::UNDEFINED)
        })
    }
}
