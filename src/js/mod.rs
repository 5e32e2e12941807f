//! The wasm-bindgen surface: `TtlStore` as JavaScript sees it (docs/API.md). Each async
//! method is a [`Verb`]: one driver ([`drive`]) converts its arguments (`convert`), calls
//! [`Store`](crate::store::Store), turns errors into JS exceptions ([`Error::into_js`]).
//! Structured results (reports, stats, definitions) are serde views (`view`). Its
//! TypeScript declaration is written by hand in `pkg-template/index.d.ts`, so that it can be strict.

mod archive;
mod backup;
mod collection;
pub mod http;
pub mod convert;
pub mod storage;
mod view;

pub use archive::Archive;
pub use collection::{Collection, TimeSeries};


use js_sys::{Array, Promise};

use collection::{Doc, Series};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::core::entry::ms_to_secs;
use crate::core::error::{Error, Result};
use crate::store::{Store, EVENT_TYPES};

/// A time-to-live key-value store over one IndexedDB database.
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct TtlStore {
    store: Store,
}

impl Verb {
    /// The `{ signal, onProgress }` of long work, with its name in messages.
    fn long(&self) -> Option<(&'static str, &JsValue)> {
        match self {
            Verb::SetMany { options, .. } => Some(("setMany options", options)),
            Verb::Clear { options } => Some(("clear options", options)),
            Verb::Reap { options } => Some(("reap options", options)),
            Verb::Export { options } => Some(("export options", options)),
            Verb::Import { options, .. } => Some(("import options", options)),
            _ => None,
        }
    }
}

/// `undefined`: what a verb without a result resolves to.
pub(crate) const U: JsValue = JsValue::UNDEFINED;

/// Every asynchronous method of the JS surface, as data, with its arguments as the caller gave
/// them: [`drive`] checks and runs them all through one future, so the wasm carries one state
/// machine instead of one per method.
#[derive(Debug)]
pub(crate) enum Verb {
    /// A collection's verb.
    Doc(crate::store::Collection, Doc),
    /// A time series' verb.
    Series(crate::store::Series, Series),
    /// `TtlStore.open(name, options)` (no store yet).
    Open { name: JsValue, options: JsValue },
    /// `TtlStore.destroy(name)` (no store).
    Destroy { name: JsValue },
    Set { key: JsValue, value: JsValue, options: JsValue },
    Delete { key: JsValue },
    Clear { options: JsValue },
    SetMany { entries: JsValue, options: JsValue },
    GetMany { keys: JsValue },
    DeleteMany { keys: JsValue },
    Expire { key: JsValue, options: JsValue },
    Persist { key: JsValue },
    Estimate,
    PersistStorage,
    Collection { name: JsValue, options: JsValue },
    TimeSeries { name: JsValue, options: JsValue },
    Reap { options: JsValue },
    Export { options: JsValue },
    Import { snapshot: JsValue, options: JsValue },
    /// An archive's verbs: `archive` is 0 (the entries') or a collection's name, `keep_ms` how
    /// long its records stay after the time they are keyed by.
    ArchiveGet { archive: JsValue, keep_ms: f64, key: JsValue },
    ArchiveValues { archive: JsValue, keep_ms: f64 },
    ArchiveCount { archive: JsValue, keep_ms: f64 },
    ArchiveClear { archive: JsValue },
    Get { key: JsValue },
    Has { key: JsValue },
    Keys,
    Values,
    Entries,
    Count,
    ExpiresAt { key: JsValue },
    Ttl { key: JsValue, options: JsValue },
    Peek { key: JsValue },
    Shred,
    /// A live view's read (`observe`): `query` as `query_js` made it; `keys`, the touched keys.
    View { query: JsValue, keys: JsValue },
}

/// Runs `verb` on `store` (a collection's or time series' verbs carry their handle).
pub(crate) fn verb(store: Store, verb: Verb) -> Promise {
    drive(Some(store), verb)
}

/// [`verb`], and `TtlStore.open` / `TtlStore.destroy` without a store: one non-generic instance
/// of `future_to_promise` for every method, so the wasm carries its machinery once. Long work
/// runs in its tracker's [`scope`](crate::long::scope); a call it stopped rejects with the
/// signal's reason (or what `onProgress` threw).
fn drive(store: Option<Store>, verb: Verb) -> Promise {
    future_to_promise(async move {
        let long = match verb.long() {
            Some((what, options)) => convert::long_options(what, options).map_err(Error::into_js)?,
            None => None,
        };
        if let Some(why) = long.as_ref().and_then(|l| l.aborted_before()) {
            return Err(why);
        }
        match crate::long::scope(long.clone(), perform(store, verb)).await {
            Err(e) => Err(long.and_then(|l| l.stopped()).unwrap_or_else(|| e.into_js())),
            Ok(v) => Ok(v),
        }
    })
}

/// Runs one verb.
async fn perform(store: Option<Store>, verb: Verb) -> Result<JsValue> {
    let Some(store) = store else {
        return Ok(match &verb {
            Verb::Open { name, options } => {
                let name = db_name(name)?;
                let (config, hook) = convert::store_options(options)?;
                TtlStore { store: Store::open(&name, config, hook).await? }.into()
            }
            Verb::Destroy { name } => {
                Store::destroy(&db_name(name)?).await?;
                U
            }
            _ => U,
        });
    };
    // By reference: moving the arguments out of the verb costs the state machine more code.
    Ok(match &verb {
        Verb::Open { .. } | Verb::Destroy { .. } => U,
        Verb::Doc(c, d) => match d {
            // One await of `put_many` for both verbs: a second costs the wasm a copy of its future.
            Doc::Put { doc: docs } | Doc::PutMany { docs } => {
                let field = c.reference_field();
                let docs = match d {
                    Doc::Put { .. } => convert::docs("document", &Array::of1(docs), c.key_path(), field.as_deref())?,
                    _ => convert::docs_in(docs, c.key_path(), field.as_deref())?,
                };
                c.put_many(docs).await?;
                U
            }
            Doc::Get { id } => c.get_many(&Array::of1(&convert::key(id)?)).await?.get(0),
            Doc::GetMany { ids } => c.get_many(&convert::keys("getMany ids", ids)?).await?.into(),
            Doc::Delete { id } => (c.delete_many(&Array::of1(&convert::key(id)?)).await? > 0).into(),
            Doc::DeleteMany { ids } => c.delete_many(&convert::keys("deleteMany ids", ids)?).await?.into(),
            Doc::Count => c.count().await?.into(),
            Doc::Values => c.values().await?.into(),
            Doc::Clear => {
                c.clear().await?;
                U
            }
            Doc::SetExpireAfter { expire_after } => {
                c.set_expire_after(convert::expire_after(expire_after)?).await?;
                U
            }
            Doc::SetTiers { tiers } => {
                let (first, archive_until) = convert::tiers(tiers)?;
                c.set_tiers(first, archive_until).await?;
                U
            }
            Doc::DropTtlIndex => c.drop_ttl_index().await?.into(),
        },
        Verb::Series(s, v) => match v {
            Series::Insert { event } => {
                let events = convert::events_in("event", &Array::of1(event), &s.options())?;
                s.insert_many(&events).await?;
                U
            }
            Series::InsertMany { events } => {
                let arr = convert::event_array(events)?;
                let events = convert::events_in("insertMany event", &arr, &s.options())?;
                s.insert_many(&events).await?.into()
            }
            Series::Query { options } => {
                let q = convert::query_options(options)?;
                s.query(q.meta_key.as_deref(), q.from_ms, q.to_ms).await?.into()
            }
            Series::Count => s.count().await?.into(),
            Series::BucketCount => s.bucket_count().await?.into(),
            Series::Clear => {
                s.clear().await?;
                U
            }
        },
        Verb::Set { key, value, options } => {
            let (key, spec) = (convert::key(key)?, convert::set_options(options)?);
            store.set(key, value.clone(), spec).await?;
            U
        }
        Verb::Delete { key } => store.delete(convert::key(key)?).await?.into(),
        Verb::Clear { .. } => {
            crate::long::total(1);
            store.clear().await?;
            U
        }
        Verb::SetMany { entries, .. } => {
            let writes = convert::set_many_entries(entries)?;
            crate::long::total(writes.len() as u32);
            store.set_many_and_notify(writes).await?;
            U
        }
        Verb::GetMany { keys } => store.get_many(&convert::keys("getMany keys", keys)?).await?.into(),
        Verb::DeleteMany { keys } => store.delete_many(convert::keys("deleteMany keys", keys)?).await?.into(),
        Verb::Expire { key, options } => {
            let (key, spec) = (convert::key(key)?, convert::expire_options(options)?);
            store.expire(key, &spec).await?.into()
        }
        Verb::Persist { key } => store.persist(convert::key(key)?).await?.into(),
        Verb::Estimate => store.estimate().await?,
        Verb::PersistStorage => store.persist_storage().await?.into(),
        Verb::Collection { name, options } => {
            let name = convert::name("collection name", name)?;
            let (key_path, ttl) = convert::collection_options(options)?;
            Collection { inner: store.collection(&name, key_path.as_deref(), ttl, convert::docs).await? }.into()
        }
        Verb::TimeSeries { name, options } => {
            let name = convert::name("time series name", name)?;
            let options = convert::series_options(options)?;
            TimeSeries { inner: store.time_series(&name, options).await? }.into()
        }
        Verb::Reap { .. } => view::to_js(&view::Report::from(&store.reap().await?)),
        Verb::Export { .. } => backup::export(&store).await?,
        Verb::Import { snapshot, .. } => backup::import(&store, snapshot).await?,
        Verb::ArchiveGet { archive, keep_ms, key } => store.archive_get(archive, *keep_ms, &convert::key(key)?).await?,
        Verb::ArchiveValues { archive, keep_ms } => store.archive_values(archive, *keep_ms).await?.into(),
        Verb::ArchiveCount { archive, keep_ms } => store.archive_count(archive, *keep_ms).await?.into(),
        Verb::ArchiveClear { archive } => {
            store.archive_clear(archive).await?;
            U
        }
        Verb::Get { key } => store.get(&convert::key(key)?).await?,
        Verb::Has { key } => store.has(&convert::key(key)?).await?.into(),
        Verb::Keys => store.keys().await?.into(),
        Verb::Values => store.values().await?.into(),
        Verb::Entries => store.entries().await?.into(),
        Verb::Count => store.count().await?.into(),
        Verb::ExpiresAt { key } => seconds_or_null(store.expires_at_ms(&convert::key(key)?).await?),
        Verb::Ttl { key, options } => {
            let key = convert::key(key)?;
            if convert::ttl_options(options)? {
                let now = crate::timer::now_ms();
                store.expiry_detail(&key).await?.map_or(U, |x| view::to_js(&view::TtlDetail::new(&x, now)))
            } else {
                seconds_or_null(store.ttl_ms(&key).await?)
            }
        }
        Verb::Peek { key } => store.peek(&convert::key(key)?).await?,
        Verb::Shred => {
            store.shred().await?;
            U
        }
        Verb::View { query, keys } => {
            let keys = if keys.is_undefined() { None } else { Some(convert::keys("observe keys", keys)?.to_vec()) };
            // A collection's view (`collection.observe`), or the entries'.
            match js_sys::Reflect::get(query, &"collection".into()).ok().and_then(|c| c.as_string()) {
                Some(name) => {
                    let (docs, after) = store.view_collection(&name, keys).await?;
                    docs.iter().map(|d| view::doc_view_entry(d, after)).collect::<Array>().into()
                }
                None => store.view(&convert::view_query(query)?, keys).await?.iter().map(view::view_entry).collect::<Array>().into(),
            }
        }
    })
}

/// Unix ms or "no expiry" as the API reports them: seconds, `null`, or `undefined` if missing.
fn seconds_or_null(v: Option<Option<f64>>) -> JsValue {
    match v {
        None => JsValue::UNDEFINED,
        Some(None) => JsValue::NULL,
        Some(Some(ms)) => JsValue::from_f64(ms_to_secs(ms)),
    }
}

#[wasm_bindgen]
impl TtlStore {
    /// Opens (creating if needed) the IndexedDB database `name`.
    pub fn open(name: JsValue, options: JsValue) -> Promise {
        drive(None, Verb::Open { name, options })
    }

    /// Deletes the whole database `name`.
    pub fn destroy(name: JsValue) -> Promise {
        drive(None, Verb::Destroy { name })
    }

    /// The database name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.store.name().to_owned()
    }

    /// `true` if opening created the database: it did not exist, or the browser deleted it
    /// (a crash, storage pressure, the user clearing site data). An app that expected data can
    /// tell it was lost.
    #[wasm_bindgen(getter, js_name = isNew)]
    pub fn is_new(&self) -> bool {
        self.store.is_new()
    }

    /// `"total"` when the browser had deleted a corrupt database and this open created it again
    /// (Chromium's `IDBVersionChangeEvent.dataLoss`), else `"none"`.
    #[wasm_bindgen(getter, js_name = dataLoss)]
    pub fn data_loss(&self) -> String {
        if self.store.data_loss().is_some() { "total" } else { "none" }.into()
    }

    /// The browser's reason for a `dataLoss` of `"total"`, else `""`.
    #[wasm_bindgen(getter, js_name = dataLossMessage)]
    pub fn data_loss_message(&self) -> String {
        self.store.data_loss().unwrap_or_default()
    }

    /// The entries' archive (`archiveFor`): expired entries, readable until their delete tier.
    #[wasm_bindgen(getter)]
    pub fn archive(&self) -> Archive {
        Archive { store: self.store.clone(), id: JsValue::from_f64(0.0), of: None }
    }

    /// `navigator.storage.estimate()`'s `usage` and `quota` with the live and expired entries.
    pub fn estimate(&self) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Estimate)
    }

    /// Asks for persistent storage (`navigator.storage.persist()`); whether it is granted.
    #[wasm_bindgen(js_name = persistStorage)]
    pub fn persist_storage(&self) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::PersistStorage)
    }

    /// Writes `value` under `key`, resolving once committed.
    pub fn set(&self, key: JsValue, value: JsValue, options: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Set { key, value, options })
    }

    /// The value, or `undefined` if missing or expired; an idle entry's window starts again.
    pub fn get(&self, key: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Get { key })
    }

    /// Destroys the encryption key (`{ encryption: true }`): everything it encrypted is unreadable
    /// in every tab at once, and removed.
    pub fn shred(&self) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Shred)
    }

    /// Like `get`, without extending an idle entry.
    pub fn peek(&self, key: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Peek { key })
    }

    /// Whether `key` has a live entry.
    pub fn has(&self, key: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Has { key })
    }

    /// Removes `key`; `true` if a live entry was removed.
    pub fn delete(&self, key: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Delete { key })
    }

    /// Removes every entry. `{ signal, onProgress }` as for `setMany`.
    pub fn clear(&self, options: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Clear { options })
    }

    /// Writes `[key, value]` / `[key, value, options]` entries in one transaction, all or nothing.
    /// `{ signal, onProgress }`: aborting writes nothing; `onProgress({ done, total })` at most
    /// every 100 ms.
    #[wasm_bindgen(js_name = setMany)]
    pub fn set_many(&self, entries: JsValue, options: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::SetMany { entries, options })
    }

    /// Values in the order of `keys`, `undefined` where missing or expired.
    #[wasm_bindgen(js_name = getMany)]
    pub fn get_many(&self, keys: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::GetMany { keys })
    }

    /// Removes `keys`; how many live entries were removed.
    #[wasm_bindgen(js_name = deleteMany)]
    pub fn delete_many(&self, keys: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::DeleteMany { keys })
    }

    /// Live keys in key order.
    pub fn keys(&self) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Keys)
    }

    /// Live values in key order.
    pub fn values(&self) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Values)
    }

    /// Live `[key, value]` pairs in key order.
    pub fn entries(&self) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Entries)
    }

    /// Number of live entries.
    pub fn count(&self) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Count)
    }

    /// Unix seconds; `null` = no expiry; `undefined` = missing or expired.
    #[wasm_bindgen(js_name = expiresAt)]
    pub fn expires_at(&self, key: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::ExpiresAt { key })
    }

    /// Seconds left; `null` = no expiry; `undefined` = missing or expired. With
    /// `{ detail: true }`: `{ ttl, idle, cap }`.
    pub fn ttl(&self, key: JsValue, options: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Ttl { key, options })
    }

    /// Sets or changes the expiry of a live entry; `false` if missing.
    pub fn expire(&self, key: JsValue, options: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Expire { key, options })
    }

    /// Removes the expiry; `false` if missing or it had none.
    pub fn persist(&self, key: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Persist { key })
    }

    /// Opens collection `name` (`{ keyPath, ttlIndex: { field, expireAfter, unit } }`), creating it if new.
    pub fn collection(&self, name: JsValue, options: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Collection { name, options })
    }

    /// Opens time series `name` (`{ timeField, metaField, granularity, expireAfter }`), creating it if new.
    #[wasm_bindgen(js_name = timeSeries)]
    pub fn time_series(&self, name: JsValue, options: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::TimeSeries { name, options })
    }

    /// Runs one reaper pass now. `{ signal, onProgress }`: aborting keeps what was removed.
    pub fn reap(&self, options: JsValue) -> Promise {
        let store = self.store.clone();
        verb(store, Verb::Reap { options })
    }

    /// Reaper counters.
    pub fn stats(&self) -> JsValue {
        view::to_js(&view::Stats::new(&self.store.stats(), &self.store))
    }

    /// Stops the background reaper.
    #[wasm_bindgen(js_name = pauseReaper)]
    pub fn pause_reaper(&self) {
        self.store.pause_reaper();
    }

    /// Restarts the background reaper.
    #[wasm_bindgen(js_name = resumeReaper)]
    pub fn resume_reaper(&self) {
        self.store.resume_reaper();
    }

    /// Stops the reaper and closes the database.
    pub fn close(&self) {
        self.store.close();
    }

    /// Listens for `"expired"`, `"change"` or `"error"`.
    #[wasm_bindgen(js_name = addEventListener)]
    pub fn add_event_listener(&self, kind: JsValue, listener: JsValue) -> std::result::Result<(), JsValue> {
        let (kind, f) = listener_args(&kind, &listener).map_err(Error::into_js)?;
        self.store.events().add_event_listener_with_callback(&kind, f)
    }

    /// Watches `key`: `listener(value)` gets its value once read, then its new value at every
    /// write and `undefined` once it is deleted or expires, here or in another member. Returns
    /// the function that stops watching.
    pub fn watch(&self, key: JsValue, listener: JsValue) -> std::result::Result<js_sys::Function, JsValue> {
        let key = convert::key(&key).map_err(Error::into_js)?;
        let f = listener
            .dyn_into::<js_sys::Function>()
            .map_err(|l| Error::wrong_type("watch listener", &convert::describe(&l), "a function, (value) => { ... }").into_js())?;
        // The watch's read: `peek` (watching is not using: an idle entry is not extended) and
        // `expiresAt`, two of the driver's verbs, rather than a verb of its own (a larger driver).
        let read = |store: Store, key: JsValue| {
            let value = verb(store.clone(), Verb::Peek { key: key.clone() });
            js_sys::Array::of2(&value, &verb(store, Verb::ExpiresAt { key })).into()
        };
        self.store.watch(&key, &f, read).map_err(Error::into_js)
    }

    /// A live view of the entries `query` names (`{ prefix }`, `{ keys }` or `{ from, to }`):
    /// `listener(entries)` gets them at once and after every change, here or in another member,
    /// and as each expires. Returns the function that stops it.
    pub fn observe(&self, query: JsValue, listener: JsValue) -> std::result::Result<js_sys::Function, JsValue> {
        let query = convert::view_query(&query).map_err(Error::into_js)?;
        let f = listener
            .dyn_into::<js_sys::Function>()
            .map_err(|l| Error::wrong_type("observe listener", &convert::describe(&l), "a function, (entries) => { ... }").into_js())?;
        let read = |store: Store, query: JsValue, keys: JsValue| verb(store, Verb::View { query, keys }).into();
        self.store.observe(&crate::store::query_js(&query), &f, read).map_err(Error::into_js)
    }

    /// Removes a listener added with `addEventListener`.
    #[wasm_bindgen(js_name = removeEventListener)]
    pub fn remove_event_listener(&self, kind: JsValue, listener: JsValue) -> std::result::Result<(), JsValue> {
        let (kind, f) = listener_args(&kind, &listener).map_err(Error::into_js)?;
        self.store.events().remove_event_listener_with_callback(&kind, f)
    }
}

fn db_name(v: &JsValue) -> Result<String> {
    convert::name("database name", v)
}

fn listener_args<'a>(kind: &JsValue, listener: &'a JsValue) -> Result<(String, &'a js_sys::Function)> {
    let kind = kind
        .as_string()
        .filter(|k| EVENT_TYPES.contains(&k.as_str()))
        .ok_or_else(|| Error::wrong_type("event type", &convert::describe(kind), "\"expired\", \"change\", \"error\", \"evicted\" or \"reopened\""))?;
    let f = listener
        .dyn_ref::<js_sys::Function>()
        .ok_or_else(|| Error::wrong_type("listener", &convert::describe(listener), "a function"))?;
    Ok((kind, f))
}
