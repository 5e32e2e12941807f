//! `store.export()` and `store.import(snapshot)`.

use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;

use super::{convert, promise, TtlStore};
use crate::core::entry::{ExpirySpec, NEVER_MS};
use crate::core::error::{Error, Result};
use crate::idb::Write;
use crate::timer::now_ms;

#[wasm_bindgen(module = "/src/js/snapshot.js")]
extern "C" {
    #[wasm_bindgen(js_name = buildSnapshot, catch)]
    fn build_snapshot(db: &str, now: f64, entries: &Array, collections: &Array, series: &Array) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = readSnapshot, catch)]
    fn read_snapshot(snapshot: &JsValue, now: f64) -> std::result::Result<JsValue, JsValue>;
}

/// A TypeError thrown by the snapshot code, as our error.
fn refused(e: JsValue) -> Error {
    match e.dyn_ref::<js_sys::Error>() {
        Some(err) => Error::InvalidType(String::from(err.message())),
        None => Error::InvalidType(format!("{e:?}")),
    }
}

fn get(v: &JsValue, k: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
}

#[wasm_bindgen]
impl TtlStore {
    /// A JSON-serialisable snapshot of every live entry, document and time-series event, with
    /// expiries (Unix seconds) and definitions.
    pub fn export(&self) -> Promise {
        let store = self.store.clone();
        promise(async move {
            let data = store.snapshot_data().await?;
            build_snapshot(store.name(), now_ms(), &data.entries, &data.collections, &data.series).map_err(refused)
        })
    }

    /// Restores a snapshot made by `export()`, leaving out what has expired since. Everything is
    /// validated before anything is written; resolves to `{ entries, documents, events, skipped }`.
    pub fn import(&self, snapshot: JsValue) -> Promise {
        let store = self.store.clone();
        promise(async move {
            let plan = read_snapshot(&snapshot, now_ms()).map_err(refused)?;
            let entries: Array = get(&plan, "entries").into();
            let writes = entries
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let e: Array = e.into();
                    let at = |err: Error| match err {
                        Error::InvalidType(m) => Error::InvalidType(format!("import: snapshot.entries[{i}]: {m}")),
                        other => other,
                    };
                    Ok(Write {
                        key: convert::key(&e.get(0)).map_err(at)?,
                        value: e.get(1),
                        spec: ExpirySpec::At(e.get(2).as_f64().map_or(NEVER_MS, |s| s * 1000.0)),
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            let collections: Array = get(&plan, "collections").into();
            let mut prepared = Vec::new();
            for c in collections.iter() {
                let name = get(&c, "name").as_string().unwrap_or_default();
                let options = Object::new();
                Reflect::set(&options, &"keyPath".into(), &get(&c, "keyPath")).ok();
                let ttl = get(&c, "ttlIndex");
                if ttl.is_object() {
                    Reflect::set(&options, &"ttlIndex".into(), &ttl).ok();
                }
                let (key_path, ttl) = convert::collection_options(&options.into())?;
                prepared.push((name, key_path, ttl, get(&c, "documents")));
            }
            let series: Array = get(&plan, "timeSeries").into();
            let mut prepared_series = Vec::new();
            for t in series.iter() {
                let options = convert::series_options(&get(&t, "options"))?;
                prepared_series.push((get(&t, "name").as_string().unwrap_or_default(), options, Array::from(&get(&t, "events"))));
            }

            let (n_entries, mut n_docs, mut n_events) = (writes.len(), 0, 0);
            store.set_many(writes).await?;
            for (name, key_path, ttl, docs) in prepared {
                let c = store.collection(&name, key_path.as_deref(), ttl).await?;
                let docs = convert::docs_in(&docs, c.key_path(), c.reference_field().as_deref())?;
                n_docs += docs.len();
                c.put_many(docs).await?;
            }
            for (name, options, events) in prepared_series {
                let s = store.time_series(&name, options).await?;
                n_events += events.length();
                s.insert_many(&convert::events_in("import event", &events, &s.options())?).await?;
            }
            let report = Object::new();
            Reflect::set(&report, &"entries".into(), &(n_entries as u32).into()).ok();
            Reflect::set(&report, &"documents".into(), &(n_docs as u32).into()).ok();
            Reflect::set(&report, &"events".into(), &n_events.into()).ok();
            Reflect::set(&report, &"skipped".into(), &get(&plan, "skipped")).ok();
            Ok(JsValue::from(report))
        })
    }
}
