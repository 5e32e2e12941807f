//! The Rust API: [`TtlStore`], typed, async, over the same store the JavaScript class drives
//! (`store::Store`), on the same database format. A thin edge: keys and values are converted
//! (serde-wasm-bindgen, JSON-compatible: structs and maps as plain objects, as a JavaScript app
//! would store them), each verb becomes the store's [`Read`] or [`Change`], and errors stay
//! [`Error`]s. Nothing here is reachable from the JavaScript exports.

#[cfg(feature = "full")]
mod collection;
mod stream;
mod types;

pub use stream::Event;
use stream::{Events, Watch};
use futures_core::Stream;
pub use types::{Expiry, Key, Options};
#[cfg(feature = "full")]
pub use collection::{Collection, CollectionOptions, Granularity, Period, Query, SeriesOptions, Tier, Time, TimeSeries, TtlIndex};

use std::time::Duration;

use js_sys::Array;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;

use crate::core::entry::ExpirySpec;
use crate::core::error::{Error, Result};
use crate::core::modify::{check_by, sum, ExpiryChange, Only};
use crate::core::options::{store_config, MAX_NAME_CHARS};
use crate::core::text::quote;
use crate::idb::{Got, Read, Write};
use crate::store::{Change, Store, Updater};

/// A time-to-live key-value store over one IndexedDB database: entries carry an expiry, reads
/// never return an expired entry, and a background reaper removes expired entries. Cloning
/// shares the store.
///
/// Values are anything serde serializes; they are stored as JavaScript would store them
/// (structs and maps as plain objects), so the npm package's `TtlStore` on the same origin and
/// database name reads what this one writes, and the other way round.
///
/// ```no_run
/// # #[cfg(target_arch = "wasm32")]
/// # async fn example() -> Result<(), idb_ttl::Error> {
/// use std::time::Duration;
/// use idb_ttl::{Expiry, Options, TtlStore};
///
/// let store = TtlStore::open("app-cache", Options::default()).await?;
/// store.set("greeting", "hello", Expiry::ttl(Duration::from_secs(60))).await?;
/// let greeting: Option<String> = store.get("greeting").await?;
/// assert_eq!(greeting.as_deref(), Some("hello"));
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct TtlStore {
    store: Store,
}

/// `v` as stored: JSON-compatible (maps as plain objects, `None` as `null`, 64-bit integers as
/// numbers where they fit); an error names `what`.
fn serialize<T: Serialize + ?Sized>(what: &str, v: &T) -> Result<JsValue> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| Error::InvalidType(format!("{what} does not serialize ({}); nothing was written", js_text(&JsValue::from(e)))))
}

/// `v` read back as `T`, or an error naming `what`.
fn deserialize<T: DeserializeOwned>(what: impl FnOnce() -> String, v: JsValue) -> Result<T> {
    serde_wasm_bindgen::from_value(v)
        .map_err(|e| Error::InvalidType(format!("{} does not deserialize as {}: {}", what(), std::any::type_name::<T>(), js_text(&JsValue::from(e)))))
}

/// The value of a key-value verb, as stored.
fn to_js<V: Serialize + ?Sized>(what: &str, key: &Key, value: &V) -> Result<JsValue> {
    serialize(&format!("{what}({key}): the value"), value)
}

/// A value as read (`undefined`: none), as `V`.
fn from_js<V: DeserializeOwned>(key: &Key, value: JsValue) -> Result<Option<V>> {
    if value.is_undefined() {
        return Ok(None);
    }
    deserialize(|| format!("the value stored under key {key}"), value).map(Some)
}

/// The message of a serde-wasm-bindgen error (a JS `Error` it made; reading it never throws).
fn js_text(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).or_else(|| e.as_string()).unwrap_or_default()
}

use wasm_bindgen::JsCast;

/// Unix seconds, `null` or `undefined` (the JavaScript API's `expiresAt` and `ttl` answers).
fn secs(v: &JsValue) -> Option<Option<f64>> {
    if v.is_undefined() {
        None
    } else {
        Some(v.as_f64())
    }
}

impl TtlStore {
    /// Opens (creating if needed) the IndexedDB database `name` and, unless
    /// [`Options::auto_reap`] is `false`, starts the background reaper.
    ///
    /// Fails with [`Error::Unavailable`] where there is no IndexedDB (server-side rendering, a
    /// browser with storage off), [`Error::InvalidType`]/[`Error::OutOfRange`] naming a bad
    /// option, [`Error::Timeout`] if the browser does not answer.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example() -> Result<(), idb_ttl::Error> {
    /// use idb_ttl::{Options, TtlStore};
    /// let store = TtlStore::open("app-cache", Options::default().auto_reap(true)).await?;
    /// # Ok(()) }
    /// ```
    pub async fn open(name: &str, options: Options) -> Result<TtlStore> {
        if name.is_empty() {
            return Err(Error::wrong_type("database name", "\"\"", "a non-empty string"));
        }
        if name.encode_utf16().count() > MAX_NAME_CHARS {
            return Err(Error::OutOfRange(format!("database name {} is longer than {MAX_NAME_CHARS} characters; use a shorter name", quote(name))));
        }
        let config = store_config(&options.value())?;
        Ok(TtlStore { store: Store::open(name, config, None).await? })
    }

    /// Deletes the database `name` and everything in it (close its stores first). Another
    /// tab's or worker's connection that does not close when asked (another library's) holds
    /// the deletion back: after 30 s without an answer, and 30 s more after waking IndexedDB,
    /// it fails with [`Error::Timeout`], and the deletion stays queued until that connection
    /// closes.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example() -> Result<(), idb_ttl::Error> {
    /// idb_ttl::TtlStore::destroy("app-cache").await?;
    /// # Ok(()) }
    /// ```
    pub async fn destroy(name: &str) -> Result<()> {
        Store::destroy(name, crate::core::config::DEFAULT_TIMEOUT_MS).await
    }

    /// The database name.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) {
    /// assert_eq!(store.name(), "app-cache");
    /// # }
    /// ```
    pub fn name(&self) -> &str {
        self.store.name()
    }

    /// Whether opening created the database (it did not exist, or the browser had deleted it).
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) {
    /// if store.is_new() { /* nothing cached yet */ }
    /// # }
    /// ```
    pub fn is_new(&self) -> bool {
        self.store.is_new()
    }

    async fn value(&self, read: Read) -> Result<JsValue> {
        Ok(match self.store.read(read).await? {
            Got::Value(v) => v,
            _ => JsValue::UNDEFINED,
        })
    }

    async fn change(&self, change: Change) -> Result<JsValue> {
        self.store.change(change).await
    }

    /// Writes `value` under `key` with `expiry`, resolving once committed. An expiry in the past
    /// removes the key.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// use std::time::Duration;
    /// use idb_ttl::Expiry;
    /// #[derive(serde::Serialize)]
    /// struct Session { user: u32 }
    /// store.set("session", &Session { user: 7 }, Expiry::ttl(Duration::from_secs(3600))).await?;
    /// store.set("banner", "hello", Expiry::parse("2036-12-24T18:00:00+01:00")?).await?;
    /// store.set("theme", "dark", Expiry::never()).await?;
    /// # Ok(()) }
    /// ```
    pub async fn set<V: Serialize + ?Sized>(&self, key: impl Into<Key>, value: &V, expiry: impl Into<Expiry>) -> Result<()> {
        let key = key.into();
        let spec = expiry.into().spec()?;
        let value = to_js("set", &key, value)?;
        self.change(Change::Put(vec![Write { key: key.to_js()?, value, spec }], false)).await?;
        Ok(())
    }

    /// The live value under `key`, `None` if missing or expired; an idle entry's window starts
    /// again. A stored value that does not deserialize as `V` is an [`Error::InvalidType`].
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// #[derive(serde::Deserialize)]
    /// struct Session { user: u32 }
    /// let session: Option<Session> = store.get("session").await?;
    /// # Ok(()) }
    /// ```
    pub async fn get<V: DeserializeOwned>(&self, key: impl Into<Key>) -> Result<Option<V>> {
        let key = key.into();
        let v = self.value(Read::get(key.to_js()?, true)).await?;
        from_js(&key, v)
    }

    /// Whether `key` has a live entry.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// if !store.has("session").await? { /* sign in again */ }
    /// # Ok(()) }
    /// ```
    pub async fn has(&self, key: impl Into<Key>) -> Result<bool> {
        Ok(self.value(Read::has(key.into().to_js()?)).await?.as_bool().unwrap_or(false))
    }

    /// Removes `key`; whether a live entry was removed.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// let was_there: bool = store.delete("session").await?;
    /// # Ok(()) }
    /// ```
    pub async fn delete(&self, key: impl Into<Key>) -> Result<bool> {
        let key = key.into().to_js()?;
        Ok(self.change(Change::Delete(Array::of1(&key), false)).await?.as_bool().unwrap_or(false))
    }

    /// The time left: `None` if missing or expired, `Some(None)` if it never expires.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// if let Some(Some(left)) = store.ttl("session").await? {
    ///     assert!(left.as_secs() <= 3600);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn ttl(&self, key: impl Into<Key>) -> Result<Option<Option<Duration>>> {
        let v = self.value(Read::ttl(key.into().to_js()?, false)).await?;
        Ok(secs(&v).map(|left| left.map(|s| Duration::from_secs_f64(s.max(0.0)))))
    }

    /// The expiry as Unix seconds: `None` if missing or expired, `Some(None)` if it never
    /// expires.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// let at: Option<Option<f64>> = store.expires_at("session").await?;
    /// # Ok(()) }
    /// ```
    pub async fn expires_at(&self, key: impl Into<Key>) -> Result<Option<Option<f64>>> {
        let v = self.value(Read::expires_at(key.into().to_js()?)).await?;
        Ok(secs(&v))
    }

    /// Sets a live entry's expiry (Redis `EXPIRE`; an expiry in the past removes it); `false`
    /// if the key is missing or expired. `Expiry::default()` and `Expiry::keep()` name no new
    /// expiry and are refused: to remove one, [`persist`](TtlStore::persist).
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// use std::time::Duration;
    /// store.expire("session", Duration::from_secs(600)).await?;
    /// # Ok(()) }
    /// ```
    pub async fn expire(&self, key: impl Into<Key>, expiry: impl Into<Expiry>) -> Result<bool> {
        let key = key.into();
        let spec = expiry.into().spec()?;
        if matches!(spec, ExpirySpec::Default | ExpirySpec::Keep) {
            return Err(Error::InvalidType(format!(
                "expire({key}) needs a new expiry (Expiry::ttl, Expiry::at_unix, Expiry::parse, Expiry::idle); to remove an expiry use persist({key})"
            )));
        }
        Ok(self.change(Change::Expiry(key.to_js()?, ExpiryChange::Set(spec, None))).await?.as_bool().unwrap_or(false))
    }

    /// Removes a live entry's expiry (Redis `PERSIST`); `false` if missing or it had none.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// store.persist("session").await?;
    /// # Ok(()) }
    /// ```
    pub async fn persist(&self, key: impl Into<Key>) -> Result<bool> {
        let key = key.into().to_js()?;
        Ok(self.change(Change::Expiry(key, ExpiryChange::Remove)).await?.as_bool().unwrap_or(false))
    }

    /// The live keys, in IndexedDB's order (numbers, then strings).
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// for key in store.keys().await? { /* ... */ }
    /// # Ok(()) }
    /// ```
    pub async fn keys(&self) -> Result<Vec<Key>> {
        let v = self.value(Read::keys()).await?;
        Ok(v.dyn_into::<Array>().map(|a| a.iter().filter_map(|k| Key::from_js(&k)).collect()).unwrap_or_default())
    }

    /// The number of live entries.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// let n: usize = store.count().await?;
    /// # Ok(()) }
    /// ```
    pub async fn count(&self) -> Result<usize> {
        Ok(self.value(Read::count()).await?.as_f64().unwrap_or(0.0) as usize)
    }

    /// The live values of `keys`, in their order, `None` where missing or expired; one
    /// transaction.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// let values: Vec<Option<String>> = store.get_many(["a", "b"]).await?;
    /// # Ok(()) }
    /// ```
    pub async fn get_many<V: DeserializeOwned, K: Into<Key>>(&self, keys: impl IntoIterator<Item = K>) -> Result<Vec<Option<V>>> {
        let keys: Vec<Key> = keys.into_iter().map(Into::into).collect();
        let js = keys.iter().map(Key::to_js).collect::<Result<Array>>()?;
        let values = self.value(Read::get_many(&js)).await?;
        let values: Array = values.dyn_into().unwrap_or_default();
        keys.iter().zip(values.iter()).map(|(k, v)| from_js(k, v)).collect()
    }

    /// Writes every `(key, value, expiry)` in one transaction: all or none.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// use std::time::Duration;
    /// use idb_ttl::Expiry;
    /// let minute = Expiry::ttl(Duration::from_secs(60));
    /// store.set_many([("a", 1, minute.clone()), ("b", 2, minute)]).await?;
    /// # Ok(()) }
    /// ```
    pub async fn set_many<K: Into<Key>, V: Serialize, E: Into<Expiry>>(&self, entries: impl IntoIterator<Item = (K, V, E)>) -> Result<()> {
        let mut writes = Vec::new();
        for (key, value, expiry) in entries {
            let key = key.into();
            let spec = expiry.into().spec()?;
            let value = to_js("set_many", &key, &value)?;
            writes.push(Write { key: key.to_js()?, value, spec });
        }
        self.change(Change::Put(writes, true)).await?;
        Ok(())
    }

    /// Removes every entry.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// store.clear().await?;
    /// # Ok(()) }
    /// ```
    pub async fn clear(&self) -> Result<()> {
        self.change(Change::Clear).await?;
        Ok(())
    }

    async fn put_if<V: Serialize + ?Sized>(&self, what: &str, key: Key, value: &V, expiry: Expiry, only: Only) -> Result<bool> {
        let spec = expiry.spec()?;
        let value = to_js(what, &key, value)?;
        Ok(self.change(Change::PutIf(Write { key: key.to_js()?, value, spec }, only)).await?.as_bool().unwrap_or(false))
    }

    /// Writes only where no live entry is (Redis `SET NX`), atomically; whether it wrote.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// use std::time::Duration;
    /// let got_the_lock = store.add("lock", "tab-1", Duration::from_secs(10)).await?;
    /// # Ok(()) }
    /// ```
    pub async fn add<V: Serialize + ?Sized>(&self, key: impl Into<Key>, value: &V, expiry: impl Into<Expiry>) -> Result<bool> {
        self.put_if("add", key.into(), value, expiry.into(), Only::Absent).await
    }

    /// Writes only over a live entry (Redis `SET XX`), atomically; whether it wrote.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// let refreshed = store.replace("session", "new", idb_ttl::Expiry::keep()).await?;
    /// # Ok(()) }
    /// ```
    pub async fn replace<V: Serialize + ?Sized>(&self, key: impl Into<Key>, value: &V, expiry: impl Into<Expiry>) -> Result<bool> {
        self.put_if("replace", key.into(), value, expiry.into(), Only::Present).await
    }

    /// Reads and removes the live entry at once (Redis `GETDEL`); `None` if missing or expired.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// let once: Option<String> = store.take("one-time-code").await?;
    /// # Ok(()) }
    /// ```
    pub async fn take<V: DeserializeOwned>(&self, key: impl Into<Key>) -> Result<Option<V>> {
        let key = key.into();
        let v = self.change(Change::Take(key.to_js()?)).await?;
        from_js(&key, v)
    }

    /// Adds `by` to a number entry in one transaction (atomic across tabs); the new number. A
    /// missing or expired key starts from 0 with `expiry`; a live one keeps its own (Redis
    /// `INCR`). A stored value that is not a number is an [`Error::InvalidType`], nothing
    /// written.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// use std::time::Duration;
    /// let hits: f64 = store.incr("hits", 1.0, Duration::from_secs(60)).await?;
    /// # Ok(()) }
    /// ```
    pub async fn incr(&self, key: impl Into<Key>, by: f64, expiry: impl Into<Expiry>) -> Result<f64> {
        let key = key.into();
        let k = key.to_string();
        let by = check_by(&k, Some(by), || crate::core::text::js_number(by))?;
        let spec = expiry.into().spec()?;
        let add = move |current: JsValue| {
            let n = match current.as_f64() {
                _ if current.is_undefined() => None,
                Some(n) => Some(n),
                None => {
                    return Err(Error::InvalidType(format!(
                        "incr({k}): the value stored under key {k} is a {}, not a number; nothing was written. incr adds to numbers only: use update for other values, or delete the key first",
                        current.js_typeof().as_string().unwrap_or_default()
                    )))
                }
            };
            Ok(JsValue::from_f64(sum(&k, n, by)?))
        };
        let v = self.change(Change::Update("incr", key.to_js()?, spec, true, Updater(Box::new(add)))).await?;
        Ok(v.as_f64().unwrap_or(0.0))
    }

    /// `f(current)` (the live value, or `None`), run inside one readwrite transaction (atomic
    /// across tabs), gives the value written and returned; `None` removes the entry. The entry
    /// keeps its expiry unless `expiry` names one (`Expiry::default()` keeps it). A stored
    /// value that does not deserialize as `V` is an [`Error::InvalidType`], nothing written.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// let cart: Option<Vec<u32>> = store
    ///     .update("cart", |cart: Option<Vec<u32>>| Some([cart.unwrap_or_default(), vec![42]].concat()), idb_ttl::Expiry::default())
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub async fn update<V, F>(&self, key: impl Into<Key>, mut f: F, expiry: impl Into<Expiry>) -> Result<Option<V>>
    where
        V: Serialize + DeserializeOwned,
        F: FnMut(Option<V>) -> Option<V> + 'static,
    {
        let key = key.into();
        let spec = match expiry.into().spec()? {
            ExpirySpec::Default => ExpirySpec::Keep,
            spec => spec,
        };
        let k = key.clone();
        let call = move |current: JsValue| -> Result<JsValue> {
            let current: Option<V> = from_js(&k, current)?;
            match f(current) {
                None => Ok(JsValue::UNDEFINED),
                Some(new) => to_js("update", &k, &new),
            }
        };
        let v = self.change(Change::Update("update", key.to_js()?, spec, false, Updater(Box::new(call)))).await?;
        from_js(&key, v)
    }

    /// Runs one reaper pass now; how many expired records it removed.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// let removed: u32 = store.reap().await?;
    /// # Ok(()) }
    /// ```
    pub async fn reap(&self) -> Result<u32> {
        Ok(self.store.reap().await?.removed)
    }

    /// Stops the reaper, ends the watches and closes the database; later calls fail with
    /// [`Error::Closed`].
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) {
    /// store.close();
    /// assert!(matches!(store.count().await, Err(idb_ttl::Error::Closed { .. })));
    /// # }
    /// ```
    pub fn close(&self) {
        self.store.close();
    }

    /// Whether the store is closed ([`close`](TtlStore::close), or another tab deleting or
    /// upgrading the database).
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) {
    /// store.close();
    /// assert!(store.is_closed());
    /// # }
    /// ```
    pub fn is_closed(&self) -> bool {
        self.store.is_closed()
    }

    /// The value of `key` as it changes: its current value first, then its new value at every
    /// write from any tab or worker, and `None` when it is deleted or at the moment it expires.
    /// A value that does not deserialize as `V` shows as `None`. Dropping the stream stops
    /// watching; on a closed store (or a `NaN` key) it ends at once. Use with any `Stream`
    /// combinator crate (`futures::StreamExt::next`), or poll it.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) {
    /// use futures_util::StreamExt;
    /// let mut session = store.watch::<String>("session");
    /// while let Some(value) = session.next().await {
    ///     // Some(value) while live, None once deleted or expired
    /// }
    /// # }
    /// ```
    pub fn watch<V: DeserializeOwned + 'static>(&self, key: impl Into<Key>) -> impl Stream<Item = Option<V>> + Unpin + 'static {
        Watch::<V>::new(&self.store, &key.into())
    }

    /// The store's events as they happen, in this tab and the others on the same database:
    /// [`Event::Expired`] (the reaper removed expired entries), [`Event::Change`] (a write) and
    /// [`Event::Evicted`]. Dropping the stream stops listening.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) {
    /// use futures_util::StreamExt;
    /// let mut events = store.events();
    /// while let Some(event) = events.next().await {
    ///     if let idb_ttl::Event::Expired { keys } = event { /* ... */ }
    /// }
    /// # }
    /// ```
    pub fn events(&self) -> impl Stream<Item = Event> + Unpin + 'static {
        Events::new(&self.store)
    }
}
