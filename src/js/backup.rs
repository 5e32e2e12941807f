//! `store.export()`, `store.exportStream()` and `store.import(snapshot)`.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;

use super::convert::{self, list};
#[cfg(feature = "full")]
use super::convert::field;
use super::{run_long, view, TtlStore};
use crate::long::Long;
use crate::store::{ExportCursor, Store};
use crate::core::entry::{Idle, NEVER_MS};
use crate::core::error::{Error, Result};
use crate::core::options::prefix;
#[cfg(feature = "full")]
use crate::core::options::{collection_options, series_options};
use crate::core::snapshot::item_expiry_ms;
#[cfg(feature = "full")]
use crate::core::value::Value;
use crate::store::ImportInput;
use crate::timer::now_ms;

#[wasm_bindgen(module = "/src/js/snapshot.js")]
extern "C" {
    #[wasm_bindgen(js_name = buildSnapshot, catch)]
    fn build_snapshot(db: &str, now: f64, entries: &Array, collections: &Array, series: &Array) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = readSnapshot, catch)]
    fn read_snapshot(snapshot: &JsValue) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = mergeSnapshots, catch)]
    fn merge_snapshots(chunks: &Array) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = readStream, catch)]
    fn read_stream(stream: &JsValue, signal: &JsValue) -> std::result::Result<Promise, JsValue>;
    #[wasm_bindgen(js_name = snapshotStream, catch)]
    fn snapshot_stream(next: &JsValue, stop: &JsValue) -> std::result::Result<JsValue, JsValue>;
}

/// An idle entry's `idle` (window, seconds) and `cap` (Unix seconds or `null`) in a snapshot;
/// `None` for an entry without `idle`.
fn idle_of(at: &str, e: &Array) -> Result<Option<Idle>> {
    if e.get(3).is_undefined() {
        return Ok(None);
    }
    let window_ms = match e.get(3).as_f64() {
        Some(s) if s.is_finite() && s > 0.0 => s * 1000.0,
        _ => return Err(Error::wrong_type(&format!("{at}.idle"), &convert::describe(&e.get(3)), "a positive number of seconds")),
    };
    let cap_ms = item_expiry_ms(&format!("{at}.cap"), &convert::read(&e.get(4)))?.unwrap_or(NEVER_MS);
    Ok(Some(Idle { window_ms, cap_ms }))
}

/// Checks a snapshot as `readSnapshot` decoded it, `{ entries: [[key, value, expiresAt, idle, cap]],
/// collections: [{ name, keyPath, ttlIndex, documents, expiries }], timeSeries: [{ name, options,
/// events }] }`: keys, names, definitions, times and every expiry (as `set()` checks one), naming
/// the item in each refusal.
#[inline(never)]
fn import_input(snapshot: &JsValue) -> Result<ImportInput> {
    let read = read_snapshot(snapshot).map_err(convert::refused)?;
    let mut input = ImportInput::default();
    for (i, e) in list(&read, "entries").iter().enumerate() {
        let e: Array = e.unchecked_into();
        let at = format!("import: snapshot.entries[{i}]");
        let key = convert::key(&e.get(0)).map_err(|e| prefix(e, &format!("{at}: ")))?;
        let expiry = item_expiry_ms(&format!("{at}.expiresAt"), &convert::read(&e.get(2)))?;
        input.entries.push((key, e.get(1), expiry, idle_of(&at, &e)?));
    }
    #[cfg(not(feature = "full"))]
    for part in ["collections", "timeSeries"] {
        if list(&read, part).length() > 0 {
            return Err(Error::InvalidType(format!(
                "import: the snapshot has {part}, which idb-ttl/lite does not have; import it with the default entry: import {{ TtlStore }} from \"idb-ttl\""
            )));
        }
    }
    #[cfg(feature = "full")]
    for (i, c) in list(&read, "collections").iter().enumerate() {
        let at = format!("import: snapshot.collections[{i}]");
        let name = convert::name(&format!("{at}.name"), &field(&c, "name"))?;
        let options = Value::Record(vec![
            ("keyPath".into(), convert::read(&field(&c, "keyPath"))),
            ("ttlIndex".into(), convert::read(&field(&c, "ttlIndex"))),
        ]);
        let (key_path, ttl) = collection_options(&options).map_err(|e| prefix(e, &format!("{at}: ")))?;
        let key_path = key_path.unwrap_or_else(|| "id".into());
        let docs = convert::docs(&format!("{at}.documents"), &list(&c, "documents"), &key_path, ttl.as_ref().and_then(|t| t.field_path()))?;
        let expiries = list(&c, "expiries");
        let mut timed = Vec::with_capacity(docs.len());
        for (j, doc) in (0..).zip(docs) {
            let e = item_expiry_ms(&format!("{at}.documents[{j}].expiresAt"), &convert::read(&expiries.get(j)))?;
            timed.push((doc, e));
        }
        let docs = timed;
        input.collections.push((name, key_path, ttl, docs));
    }
    #[cfg(feature = "full")]
    for (i, t) in list(&read, "timeSeries").iter().enumerate() {
        let at = format!("import: snapshot.timeSeries[{i}]");
        let name = convert::name(&format!("{at}.name"), &field(&t, "name"))?;
        let options = series_options(&convert::read(&field(&t, "options")))
            .map_err(|e| prefix(e, &format!("{at}: ")))?
            .ok_or_else(|| Error::InvalidType(format!("{at} has no options")))?;
        let events = convert::events_in(&format!("{at} event"), &list(&t, "events"), &options)?;
        input.series.push((name, options, events));
    }
    Ok(input)
}

#[wasm_bindgen]
impl TtlStore {
    /// A JSON-serialisable snapshot of every live entry, document and time-series event, with
    /// expiries (Unix seconds) and definitions. `{ signal, onProgress }` as for `setMany`.
    pub fn export(&self, options: JsValue) -> Promise {
        let store = self.store.clone();
        run_long("export options", options, async move { export(&store).await })
    }

    /// The same snapshot as a `ReadableStream` of snapshots of up to 1 000 items each (each one
    /// importable alone), read page by page as the stream is read.
    #[wasm_bindgen(js_name = exportStream)]
    pub fn export_stream(&self, options: JsValue) -> std::result::Result<JsValue, JsValue> {
        let long = convert::long_options("exportStream options", &options).map_err(Error::into_js)?;
        // The cursor (none before the first page) and the call's tracker, until the stream ends.
        type Pages = Rc<RefCell<Option<(Option<ExportCursor>, Option<Rc<Long>>)>>>;
        let state: Pages = Rc::new(RefCell::new(Some((None, long))));
        // Cancelled: a page read meanwhile is not kept, nor its tracker (and its ticker).
        let cancelled = Rc::new(std::cell::Cell::new(false));
        let (store, pages, stopped) = (self.store.clone(), state.clone(), cancelled.clone());
        let next = Closure::<dyn FnMut() -> Promise>::new(move || {
            let (store, state, cancelled) = (store.clone(), pages.clone(), stopped.clone());
            super::promise(Box::pin(async move {
                // Ended (read through, failed or cancelled): nothing more.
                let Some((cur, long)) = state.take() else { return Ok(JsValue::NULL) };
                let page = crate::long::scope(long.clone(), async {
                    let mut cur = match cur {
                        Some(cur) => cur,
                        None => store.export_cursor().await?,
                    };
                    let page = store.export_page(&mut cur).await?;
                    Ok::<_, Error>((cur, page))
                });
                match page.await {
                    Ok((cur, Some(data))) => {
                        if !cancelled.get() {
                            state.replace(Some((Some(cur), long)));
                        }
                        build_snapshot(store.name(), now_ms(), &data.entries, &data.collections, &data.series).map_err(|e| convert::refused(e).into_js())
                    }
                    Ok((_, None)) => Ok(JsValue::NULL),
                    Err(e) => Err(long.and_then(|l| l.stopped()).unwrap_or_else(|| e.into_js())),
                }
            }))
        });
        let stop = Closure::<dyn FnMut()>::new(move || {
            cancelled.set(true);
            drop(state.take());
        });
        snapshot_stream(&next.into_js_value(), &stop.into_js_value())
    }

    /// Restores a snapshot made by `export()` (or the stream `exportStream()` gives), leaving out
    /// what has expired since. Everything is checked before anything is written, and everything
    /// is written in one transaction: all or nothing. Resolves to `{ entries, documents, events,
    /// skipped }`.
    pub fn import(&self, snapshot: JsValue, options: JsValue) -> Promise {
        let store = self.store.clone();
        run_long("import options", options, async move { import(&store, &snapshot).await })
    }
}

/// `export()`: every page, as one snapshot.
async fn export(store: &Store) -> Result<JsValue> {
    let mut cur = store.export_cursor().await?;
    let chunks = Array::new();
    while let Some(data) = store.export_page(&mut cur).await? {
        chunks.push(&build_snapshot(store.name(), now_ms(), &data.entries, &data.collections, &data.series).map_err(convert::refused)?);
    }
    merge_snapshots(&chunks).map_err(convert::refused)
}

/// `import()`; a stream is read to its end first (all or nothing).
async fn import(store: &Store, snapshot: &JsValue) -> Result<JsValue> {
    let read;
    let snapshot = if snapshot.is_instance_of::<web_sys::ReadableStream>() {
        let reading = read_stream(snapshot, &crate::long::signal()).map_err(convert::refused)?;
        read = wasm_bindgen_futures::JsFuture::from(reading).await.map_err(|e| {
            // The signal's reason, as the stream reader threw it: the call was stopped.
            crate::long::check().err().unwrap_or_else(|| convert::refused(e))
        })?;
        &read
    } else {
        snapshot
    };
    let input = import_input(snapshot);
    let r = store.import(input?).await?;
    Ok(view::to_js(&view::Imported::from(r)))
}
