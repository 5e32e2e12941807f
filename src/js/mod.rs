//! The wasm-bindgen surface: `TtlStore` as JavaScript sees it (docs/API.md).
//! A method of the key-value API converts its arguments (`convert`) into a verb as data, a
//! [`Read`] or a [`Change`], and one future per kind ([`run_read`], [`TtlStore::change`]) has
//! the store's driver run it ([`Store::read`], [`Store::change`]); the other async methods are
//! a future each over the store's method of their name.
//! [`drive`] runs every future as a Promise, turning errors into JS exceptions
//! ([`Error::into_js`]).
//! Structured results (reports, stats, definitions) are serde views (`view`). Its TypeScript
//! declaration is written by hand in `pkg-template/index.d.ts`, so that it can be strict.

#[cfg(feature = "full")]
mod archive;
mod backup;
#[cfg(feature = "full")]
mod collection;
#[cfg(any(idb_ttl_npm, not(feature = "full")))] pub mod convert; #[cfg(all(not(idb_ttl_npm), feature = "full"))] pub use crate::convert; // one line: lib.rs says why
#[cfg(feature = "full")]
pub mod http;
pub mod storage;
mod view;

#[cfg(feature = "full")]
pub use archive::Archive;
#[cfg(feature = "full")]
pub use collection::{Collection, TimeSeries};

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::core::entry::ExpirySpec;
use crate::core::error::{Error, Result};
use crate::core::modify::{check_by, sum, ExpiryChange, Only};
use crate::idb::{describe_key, Got, Read, Write};
use crate::store::{Change, Store, Updater, EVENT_TYPES};

/// A time-to-live key-value store over one IndexedDB database.
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct TtlStore {
    store: Store,
}

/// `undefined`: what a verb without a result resolves to.
pub(crate) const U: JsValue = JsValue::UNDEFINED;

/// One async method's work: its arguments converted, the store's method awaited.
pub(crate) type Work = Pin<Box<dyn Future<Output = Result<JsValue>>>>;

/// Runs `work` as a Promise: the driver of every async method. `long`: the method's
/// `{ signal, onProgress }` and their name in messages; the work then runs in its tracker's
/// [`scope`](crate::long::scope), and a call it stopped rejects with the signal's reason (or
/// what `onProgress` threw).
fn drive(long: Option<(&'static str, JsValue)>, thrown: Option<Thrown>, work: Work) -> Promise {
    promise(Box::pin(async move {
        if let Some(thrown) = thrown {
            return work.await.map_err(|e| thrown.take().unwrap_or_else(|| e.into_js()));
        }
        let long = match &long {
            Some((what, options)) => convert::long_options(what, options).map_err(Error::into_js)?,
            None => None,
        };
        if let Some(why) = long.as_ref().and_then(|l| l.aborted_before()) {
            return Err(why);
        }
        match crate::long::scope(long.clone(), work).await {
            Err(e) => Err(long.and_then(|l| l.stopped()).unwrap_or_else(|| e.into_js())),
            Ok(v) => Ok(v),
        }
    }))
}

/// A Promise of `fut`: the one `future_to_promise` of the crate (each future type given to it is
/// a copy of its code).
pub(crate) fn promise(fut: Pin<Box<dyn Future<Output = std::result::Result<JsValue, JsValue>>>>) -> Promise {
    future_to_promise(fut)
}

/// `work` run by [`drive`].
pub(crate) fn run(work: impl Future<Output = Result<JsValue>> + 'static) -> Promise {
    drive(None, None, Box::pin(work))
}

/// `work` run by [`drive`] as long work, with its `{ signal, onProgress }` in `options`.
fn run_long(what: &'static str, options: JsValue, work: impl Future<Output = Result<JsValue>> + 'static) -> Promise {
    drive(Some((what, options)), None, Box::pin(work))
}

/// What a user's function threw during a call (an `update` updater): the call rejects with it.
pub(crate) type Thrown = Rc<Cell<Option<JsValue>>>;

/// `work` run by [`drive`], rejecting with what `thrown` caught if it failed after catching.
#[cfg(feature = "full")]
pub(crate) fn run_thrown(thrown: Thrown, work: impl Future<Output = Result<JsValue>> + 'static) -> Promise {
    drive(None, Some(thrown), Box::pin(work))
}

/// Calls an updater (`update`) with the current value through a catch binding, inside the
/// transaction: what it throws goes to `thrown` (the call rejects with it), and a Promise or any
/// thenable it returns is refused, since no transaction can wait for one. `what` names the call.
pub(crate) fn call_updater(f: &js_sys::Function, current: JsValue, thrown: &Thrown, what: &dyn Fn() -> String) -> Result<JsValue> {
    let caught = |e: JsValue| {
        thrown.set(Some(e));
        Error::Aborted
    };
    let value = f.call1(&JsValue::UNDEFINED, &current).map_err(caught)?;
    if value.is_object() || value.is_function() {
        let then = js_sys::Reflect::get(&value, &"then".into()).map_err(|e| {
            Error::InvalidType(format!("{}: the updater returned {}, whose then cannot be read (it threw {}); nothing was written", what(), convert::describe(&value), crate::idb::thrown_text(&e)))
        })?;
        if then.is_function() {
            return Err(Error::InvalidType(format!(
                "{}: the updater returned a Promise (or another thenable), which a transaction cannot wait for; nothing was written. Make it synchronous: await what it needs before calling, then return the new value",
                what()
            )));
        }
    }
    Ok(value)
}

/// An updater argument: a function.
pub(crate) fn updater(what: &str, f: &JsValue) -> Result<js_sys::Function> {
    f.clone().dyn_into::<js_sys::Function>().map_err(|f| Error::wrong_type(what, &convert::describe(&f), "a function, (current) => newValue"))
}

/// Runs `read` ([`Read`], or the error converting the call's arguments gave) by
/// [`Store::read`]: the one future of every read verb.
fn run_read(store: Store, read: Result<Read>) -> Promise {
    run(async move { read_result(store.read(read?).await?) })
}

/// What a read resolved to, as the call resolves to it.
fn read_result(got: Got) -> Result<JsValue> {
    Ok(match got {
        Got::Value(v) => v,
        Got::Detail(x, now) => x.map_or(U, |x| view::to_js(&view::TtlDetail::new(&x, now))),
        Got::Records(recs) => recs.iter().map(view::view_entry).collect::<Array>().into(),
    })
}

#[wasm_bindgen]
impl TtlStore {
    /// Opens (creating if needed) the IndexedDB database `name`.
    pub fn open(name: JsValue, options: JsValue) -> Promise {
        run(async move {
            let name = db_name(&name)?;
            let (config, hook) = convert::store_options(&options)?;
            Ok(TtlStore { store: Store::open(&name, config, hook).await? }.into())
        })
    }

    /// Deletes the whole database `name`; `options.timeoutMs` bounds the wait for other
    /// connections to close.
    pub fn destroy(name: JsValue, options: JsValue) -> Promise {
        run(async move {
            let name = db_name(&name)?;
            Store::destroy(&name, convert::destroy_options(&options)?).await?;
            Ok(U)
        })
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

    /// `navigator.storage.estimate()`'s `usage` and `quota` with the live and expired entries.
    pub fn estimate(&self) -> Promise {
        let store = self.store.clone();
        run(async move { store.estimate().await })
    }

    /// Asks for persistent storage (`navigator.storage.persist()`); whether it is granted.
    #[wasm_bindgen(js_name = persistStorage)]
    pub fn persist_storage(&self) -> Promise {
        let store = self.store.clone();
        run(async move { Ok(store.persist_storage().await?.into()) })
    }

    /// Writes `value` under `key`, resolving once committed.
    pub fn set(&self, key: JsValue, value: JsValue, options: JsValue) -> Promise {
        self.change(None, None, convert::key(&key).and_then(|key| Ok(Change::Put(vec![Write { key, value, spec: convert::set_options(&options)? }], false))))
    }

    /// The value, or `undefined` if missing or expired; an idle entry's window starts again.
    pub fn get(&self, key: JsValue) -> Promise {
        self.read(convert::key(&key).map(|k| Read::get(k, true)))
    }

    /// Like `get`, without extending an idle entry.
    pub fn peek(&self, key: JsValue) -> Promise {
        self.read(convert::key(&key).map(|k| Read::get(k, false)))
    }

    /// Whether `key` has a live entry.
    pub fn has(&self, key: JsValue) -> Promise {
        self.read(convert::key(&key).map(Read::has))
    }

    /// Removes `key`; `true` if a live entry was removed.
    pub fn delete(&self, key: JsValue) -> Promise {
        self.change(None, None, convert::key(&key).map(|key| Change::Delete(Array::of1(&key), false)))
    }

    /// Removes every entry. `{ signal, onProgress }` as for `setMany`.
    pub fn clear(&self, options: JsValue) -> Promise {
        self.change(Some(("clear options", options)), None, Ok(Change::Clear))
    }

    /// Writes `[key, value]` / `[key, value, options]` entries in one transaction, all or nothing.
    /// `{ signal, onProgress }`: aborting writes nothing; `onProgress({ done, total })` at most
    /// every 100 ms.
    #[wasm_bindgen(js_name = setMany)]
    pub fn set_many(&self, entries: JsValue, options: JsValue) -> Promise {
        self.change(Some(("setMany options", options)), None, convert::set_many_entries(&entries).map(|writes| Change::Put(writes, true)))
    }

    /// Values in the order of `keys`, `undefined` where missing or expired.
    #[wasm_bindgen(js_name = getMany)]
    pub fn get_many(&self, keys: JsValue) -> Promise {
        self.read(convert::keys("getMany keys", &keys).map(|keys| Read::get_many(&keys)))
    }

    /// Removes `keys`; how many live entries were removed.
    #[wasm_bindgen(js_name = deleteMany)]
    pub fn delete_many(&self, keys: JsValue) -> Promise {
        self.change(None, None, convert::keys("deleteMany keys", &keys).map(|keys| Change::Delete(keys, true)))
    }

    /// Live keys in key order.
    pub fn keys(&self) -> Promise {
        self.read(Ok(Read::keys()))
    }

    /// Live values in key order.
    pub fn values(&self) -> Promise {
        self.read(Ok(Read::values()))
    }

    /// Live `[key, value]` pairs in key order.
    pub fn entries(&self) -> Promise {
        self.read(Ok(Read::entries()))
    }

    /// Number of live entries.
    pub fn count(&self) -> Promise {
        self.read(Ok(Read::count()))
    }

    /// Unix seconds; `null` = no expiry; `undefined` = missing or expired.
    #[wasm_bindgen(js_name = expiresAt)]
    pub fn expires_at(&self, key: JsValue) -> Promise {
        self.read(convert::key(&key).map(Read::expires_at))
    }

    /// Seconds left; `null` = no expiry; `undefined` = missing or expired. With
    /// `{ detail: true }`: `{ ttl, idle, cap }`.
    pub fn ttl(&self, key: JsValue, options: JsValue) -> Promise {
        self.read(convert::key(&key).and_then(|k| Ok(Read::ttl(k, convert::ttl_options(&options)?))))
    }

    /// Sets or changes the expiry of a live entry, on the condition `only` if given
    /// (`"noExpiry"`, `"hasExpiry"`, `"later"`, `"sooner"`); `false` if missing or it does not hold.
    pub fn expire(&self, key: JsValue, options: JsValue) -> Promise {
        self.change(None, None, convert::key(&key).and_then(|key| {
            let (spec, only) = convert::expire_options(&options)?;
            Ok(Change::Expiry(key, ExpiryChange::Set(spec, only)))
        }))
    }

    /// Writes only where no live entry is (Redis `SET NX`); whether it wrote.
    pub fn add(&self, key: JsValue, value: JsValue, options: JsValue) -> Promise {
        self.put_if(key, value, options, Only::Absent)
    }

    /// Writes only over a live entry (Redis `SET XX`); whether it wrote.
    pub fn replace(&self, key: JsValue, value: JsValue, options: JsValue) -> Promise {
        self.put_if(key, value, options, Only::Present)
    }

    /// The live value, removed at once (Redis `GETDEL`); `undefined` if missing or expired.
    pub fn take(&self, key: JsValue) -> Promise {
        self.change(None, None, convert::key(&key).map(Change::Take))
    }

    /// Adds `by` (default 1) to a number entry, atomically; the new number. A missing or expired
    /// key starts from 0 with `options`' expiry; a live one keeps its own (Redis `INCR`).
    pub fn incr(&self, key: JsValue, by: JsValue, options: JsValue) -> Promise {
        self.change(None, None, convert::key(&key).and_then(|key| {
            let k = describe_key(&key);
            let by = if by.is_undefined() { 1.0 } else { check_by(&k, by.as_f64(), || convert::describe(&by))? };
            let spec = convert::modify_options("incr options", &options)?;
            let add = move |current: JsValue| {
                let n = match current.as_f64() {
                    _ if current.is_undefined() => None,
                    Some(n) => Some(n),
                    None => {
                        return Err(Error::InvalidType(format!(
                            "incr({k}): the value stored under key {k} is {}, not a number; nothing was written. incr adds to numbers only: use update(key, fn) for other values, or delete the key first",
                            convert::describe(&current)
                        )))
                    }
                };
                Ok(JsValue::from_f64(sum(&k, n, by)?))
            };
            Ok(Change::Update("incr", key, spec, true, Updater(Box::new(add))))
        }))
    }

    /// `updater(current)` (the live value, or `undefined`), run synchronously inside one
    /// transaction, gives the value written and resolved; `undefined` removes the entry. The
    /// expiry is kept unless `options` give one.
    pub fn update(&self, key: JsValue, updater: JsValue, options: JsValue) -> Promise {
        let thrown = Thrown::default();
        let change = convert::key(&key).and_then(|key| {
            let f = self::updater("update updater", &updater)?;
            // Options that name no expiry (none, `null`, `{}`) keep the entry's.
            let spec = match convert::modify_options("update options", &options)? {
                ExpirySpec::Default => ExpirySpec::Keep,
                spec => spec,
            };
            let (thrown, k) = (thrown.clone(), key.clone());
            let what = move || format!("update({})", describe_key(&k));
            let call = move |current| call_updater(&f, current, &thrown, &what);
            Ok(Change::Update("update", key, spec, false, Updater(Box::new(call))))
        });
        self.change(None, Some(thrown), change)
    }

    /// Removes the expiry; `false` if missing or it had none.
    pub fn persist(&self, key: JsValue) -> Promise {
        self.change(None, None, convert::key(&key).map(|key| Change::Expiry(key, ExpiryChange::Remove)))
    }

    /// Runs one reaper pass now. `{ signal, onProgress }`: aborting keeps what was removed.
    pub fn reap(&self, options: JsValue) -> Promise {
        let store = self.store.clone();
        run_long("reap options", options, async move { Ok(view::to_js(&view::Report::from(&store.reap().await?))) })
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
        // `expiresAt`, as the API answers them.
        let read = |store: Store, key: JsValue| {
            let value = run_read(store.clone(), Ok(Read::get(key.clone(), false)));
            Array::of2(&value, &run_read(store, Ok(Read::expires_at(key)))).into()
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
        self.store.observe(&crate::store::query_js(&query), &f, view_read).map_err(Error::into_js)
    }

    /// Removes a listener added with `addEventListener`.
    #[wasm_bindgen(js_name = removeEventListener)]
    pub fn remove_event_listener(&self, kind: JsValue, listener: JsValue) -> std::result::Result<(), JsValue> {
        let (kind, f) = listener_args(&kind, &listener).map_err(Error::into_js)?;
        self.store.events().remove_event_listener_with_callback(&kind, f)
    }
}

/// The default entry's verbs: encryption, collections, time series, the archive.
#[cfg(feature = "full")]
#[wasm_bindgen]
impl TtlStore {
    /// The entries' archive (`archiveFor`): expired entries, readable until their delete tier.
    #[wasm_bindgen(getter)]
    pub fn archive(&self) -> Archive {
        Archive { store: self.store.clone(), id: JsValue::from_f64(0.0), of: None }
    }

    /// Destroys the encryption key (`{ encryption: true }`): everything it encrypted is unreadable
    /// in every tab at once, and removed.
    pub fn shred(&self) -> Promise {
        let store = self.store.clone();
        run(async move {
            store.shred().await?;
            Ok(U)
        })
    }

    /// Opens collection `name` (`{ keyPath, ttlIndex: { field, expireAfter, unit } }`), creating it if new.
    pub fn collection(&self, name: JsValue, options: JsValue, long: JsValue) -> Promise {
        let store = self.store.clone();
        // Long work when a TTL index is built over stored documents: `{ signal, onProgress }`.
        run_long("collection progress options", long, async move {
            let name = convert::name("collection name", &name)?;
            let (key_path, ttl) = convert::collection_options(&options)?;
            Ok(Collection { inner: store.collection(&name, key_path.as_deref(), ttl, convert::docs).await? }.into())
        })
    }

    /// Opens time series `name` (`{ timeField, metaField, granularity, expireAfter }`), creating it if new.
    #[wasm_bindgen(js_name = timeSeries)]
    pub fn time_series(&self, name: JsValue, options: JsValue) -> Promise {
        let store = self.store.clone();
        run(async move {
            let name = convert::name("time series name", &name)?;
            let options = convert::series_options(&options)?;
            Ok(TimeSeries { inner: store.time_series(&name, options).await? }.into())
        })
    }
}

impl TtlStore {
    /// A read verb ([`Read`]) run by [`run_read`].
    fn read(&self, read: Result<Read>) -> Promise {
        run_read(self.store.clone(), read)
    }

    /// A write verb ([`Change`], or the error converting the call's arguments gave) run by
    /// [`Store::change`], as long work with `long`'s `{ signal, onProgress }` when given, rejecting
    /// with what `thrown` caught when given (an updater's exception): the one future of every
    /// write verb.
    fn change(&self, long: Option<(&'static str, JsValue)>, thrown: Option<Thrown>, change: Result<Change>) -> Promise {
        let store: Store = self.store.clone();
        drive(long, thrown, Box::pin(async move { store.change(change?).await }))
    }

    fn put_if(&self, key: JsValue, value: JsValue, options: JsValue, only: Only) -> Promise {
        let what = if only == Only::Absent { "add options" } else { "replace options" };
        self.change(None, None, convert::key(&key).and_then(|key| Ok(Change::PutIf(Write { key, value, spec: convert::set_options_as(what, &options)? }, only))))
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

/// The read of every live view of a store (`store.observe`, `collection.observe`; the store keeps
/// one): a promise of the view's `[{ key, value, expiresAt }]`, of `keys` only when given. A query
/// with a `collection` (this crate's own plain object: reading it never throws) views its
/// documents, any other the entries.
fn view_read(store: Store, query: JsValue, keys: JsValue) -> JsValue {
    run(async move {
        let keys = if keys.is_undefined() { None } else { Some(convert::keys("observe keys", &keys)?.to_vec()) };
        #[cfg(feature = "full")]
        if let Some(name) = js_sys::Reflect::get(&query, &"collection".into()).ok().and_then(|c| c.as_string()) {
            let (docs, after) = store.view_collection(&name, keys).await?;
            return Ok(docs.iter().map(|d| view::doc_view_entry(d, after)).collect::<Array>().into());
        }
        let read = Store::view_read(&convert::view_query(&query)?, keys);
        read_result(store.read(read).await?)
    })
    .into()
}
