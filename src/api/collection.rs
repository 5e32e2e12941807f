//! Collections and time series in Rust terms (feature `full`): [`Collection`] and
//! [`TimeSeries`] over the store's (`store::Collection`, `store::Series`), their options built as
//! the JavaScript API's option objects and checked by the same pure core, their documents and
//! events serialized by serde-wasm-bindgen and read by the same edge readers
//! (`convert::docs`, `convert::events_in`), so both APIs refuse the same input with the same
//! message and share one database format.

use std::marker::PhantomData;
use std::time::Duration;

use js_sys::{Array, Object, Reflect};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;

use super::{deserialize, js_text, serialize, Key, TtlStore};
use crate::convert;
use crate::core::entry::ExpirySpec;
use crate::core::error::{Error, Result};
use crate::core::options;
use crate::core::text::quote;
use crate::core::value::Value;
use crate::idb::describe_key;
use crate::store;

/// A length of time for a TTL index, a tier or a time series: a [`Duration`], or a string the
/// JavaScript API takes there (`"30 days"`, `"PT1H"`, and months and years: `"1 month"`,
/// `"P1Y"`, counted on the UTC calendar). Checked where it is used, naming it.
///
/// ```
/// use std::time::Duration;
/// use idb_ttl::Period;
/// let hour: Period = Duration::from_secs(3600).into();
/// let month: Period = "P1M".into();
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Period(Value);

impl From<Duration> for Period {
    fn from(d: Duration) -> Period {
        Period(Value::Number(d.as_secs_f64()))
    }
}

impl From<&str> for Period {
    fn from(s: &str) -> Period {
        Period(Value::Text(s.to_owned()))
    }
}

impl From<String> for Period {
    fn from(s: String) -> Period {
        Period(Value::Text(s))
    }
}

/// An instant for a time series query: Unix seconds (`f64`) or an ISO-8601 string
/// (`"2026-12-01T00:00:00Z"`). A number that looks like milliseconds is refused by the query.
///
/// ```
/// use idb_ttl::Time;
/// let a: Time = 1_764_547_200.0.into();
/// let b: Time = "2026-12-01T00:00:00Z".into();
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Time(JsValue);

impl From<f64> for Time {
    fn from(secs: f64) -> Time {
        Time(JsValue::from_f64(secs))
    }
}

impl From<&str> for Time {
    fn from(s: &str) -> Time {
        Time(JsValue::from_str(s))
    }
}

/// A record of options, each named as the JavaScript API names it.
#[derive(Debug, Clone, Default, PartialEq)]
struct Fields(Vec<(String, Value)>);

impl Fields {
    fn with(mut self, name: &str, value: Value) -> Fields {
        self.0.retain(|(k, _)| k != name);
        self.0.push((name.to_owned(), value));
        self
    }

    fn without(mut self, name: &str) -> Fields {
        self.0.retain(|(k, _)| k != name);
        self
    }

    fn value(&self) -> Value {
        Value::Record(self.0.clone())
    }
}

/// A collection's TTL index (MongoDB's, with CockroachDB's automatic expiry and YDB's tiers):
/// documents expire [`Period`] after the date in one of their fields, or after their last
/// write. Checked by [`TtlStore::collection`], naming what is wrong.
///
/// ```
/// use std::time::Duration;
/// use idb_ttl::{Tier, TtlIndex};
/// // MongoDB's expireAfterSeconds over a field holding Unix seconds or an ISO-8601 string:
/// let sessions = TtlIndex::field("createdAt", Duration::from_secs(3600));
/// // The field in milliseconds (Date.now() in JavaScript), a monthly schedule:
/// let logs = TtlIndex::field("at", "P1M").unit("ms").schedule("@daily");
/// // Expire each document an hour after its last write:
/// let drafts = TtlIndex::automatic("PT1H");
/// // Archive after a week, delete after a month:
/// let kept = TtlIndex::field("at", "P7D").tiers([Tier::archive("7 days"), Tier::delete("P1M")]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TtlIndex(Fields);

impl TtlIndex {
    /// Documents expire `expire_after` after the date in `field` (a property name or a dotted
    /// path, `"meta.createdAt"`): Unix seconds (in [`unit`](TtlIndex::unit)), or an ISO-8601
    /// string. A document without a date there never expires, as in MongoDB.
    pub fn field(field: &str, expire_after: impl Into<Period>) -> TtlIndex {
        TtlIndex(Fields::default().with("field", Value::Text(field.to_owned())).with("expireAfter", expire_after.into().0))
    }

    /// Documents expire `expire_after` after their last write (CockroachDB's
    /// `ttl_expire_after`); [`Collection::expire`] sets one document's expiry until its next
    /// write.
    pub fn automatic(expire_after: impl Into<Period>) -> TtlIndex {
        TtlIndex(Fields::default().with("automatic", Value::Bool(true)).with("expireAfter", expire_after.into().0))
    }

    /// The unit of numbers in the field: `"s"` (the default), `"ms"`, `"us"` or `"ns"` (YDB's
    /// `Unit`).
    pub fn unit(self, unit: &str) -> TtlIndex {
        TtlIndex(self.0.with("unit", Value::Text(unit.to_owned())))
    }

    /// When the reaper looks at this collection (CockroachDB's `ttl_job_cron`): `"@hourly"`,
    /// `"@daily"`, `"@weekly"`, `"@monthly"` or five CRON fields.
    pub fn schedule(self, cron: &str) -> TtlIndex {
        TtlIndex(self.0.with("schedule", Value::Text(cron.to_owned())))
    }

    /// Tiers instead of one expiry (YDB): the last is a [`Tier::delete`], those before it
    /// [`Tier::archive`]; an archived document moves to the collection's archive. Replaces the
    /// index's `expire_after`.
    pub fn tiers(self, tiers: impl IntoIterator<Item = Tier>) -> TtlIndex {
        TtlIndex(self.0.without("expireAfter").with("tiers", Value::List(tiers.into_iter().map(|t| t.0).collect())))
    }
}

/// One tier of a [`TtlIndex`]: what happens to a document `after` its reference time.
#[derive(Debug, Clone, PartialEq)]
pub struct Tier(Value);

impl Tier {
    fn new(after: Period, action: &str) -> Tier {
        Tier(Value::Record(vec![("after".into(), after.0), ("action".into(), Value::Text(action.into()))]))
    }

    /// The document moves out of the live documents, into the collection's archive.
    pub fn archive(after: impl Into<Period>) -> Tier {
        Tier::new(after.into(), "archive")
    }

    /// The document is deleted.
    pub fn delete(after: impl Into<Period>) -> Tier {
        Tier::new(after.into(), "delete")
    }
}

/// The options of [`TtlStore::collection`]: the document property holding its id (`"id"` by
/// default) and the TTL index, if any.
///
/// ```
/// use std::time::Duration;
/// use idb_ttl::{CollectionOptions, TtlIndex};
/// let options = CollectionOptions::default()
///     .key_path("sid")
///     .ttl_index(TtlIndex::field("lastSeen", Duration::from_secs(1800)));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CollectionOptions(Fields);

impl CollectionOptions {
    /// The document property holding its id (a string or a number); fixed once created.
    pub fn key_path(self, path: &str) -> CollectionOptions {
        CollectionOptions(self.0.with("keyPath", Value::Text(path.to_owned())))
    }

    /// The collection's one TTL index; given for an existing collection it must match, unless
    /// the collection has none.
    pub fn ttl_index(self, index: TtlIndex) -> CollectionOptions {
        CollectionOptions(self.0.with("ttlIndex", index.0.value()))
    }
}

/// A time series' bucket span (MongoDB's `granularity`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Granularity {
    /// 1-hour buckets (the default).
    Seconds,
    /// 1-day buckets.
    Minutes,
    /// 30-day buckets.
    Hours,
}

impl Granularity {
    /// As the JavaScript API names it.
    fn name(self) -> &'static str {
        match self {
            Granularity::Seconds => "seconds",
            Granularity::Minutes => "minutes",
            Granularity::Hours => "hours",
        }
    }
}

/// The options of [`TtlStore::time_series`] (MongoDB's time-series collections): the event
/// field holding its time, and optionally the one naming its series, the bucket span, and how
/// long events live.
///
/// ```
/// use std::time::Duration;
/// use idb_ttl::{Granularity, SeriesOptions};
/// let options = SeriesOptions::new("at")
///     .meta_field("sensor")
///     .granularity(Granularity::Minutes)
///     .expire_after(Duration::from_secs(7 * 86_400));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesOptions(Fields);

impl SeriesOptions {
    /// `time_field`: the event field (or dotted path) holding its time, Unix seconds or an
    /// ISO-8601 string.
    pub fn new(time_field: &str) -> SeriesOptions {
        SeriesOptions(Fields::default().with("timeField", Value::Text(time_field.to_owned())))
    }

    /// The event field (or dotted path) naming its series (sensor, ticker...): events are
    /// bucketed per value.
    pub fn meta_field(self, field: &str) -> SeriesOptions {
        SeriesOptions(self.0.with("metaField", Value::Text(field.to_owned())))
    }

    /// The bucket span; later changed with [`TimeSeries::set_granularity`], coarser only.
    pub fn granularity(self, g: Granularity) -> SeriesOptions {
        SeriesOptions(self.0.with("granularity", Value::Text(g.name().into())))
    }

    /// MongoDB's custom bucketing: buckets of `secs` seconds (1 to 31 536 000), their starts
    /// rounded down to a multiple of it. Instead of a granularity.
    pub fn bucket_span(self, secs: u32) -> SeriesOptions {
        let n = Value::Number(secs.into());
        SeriesOptions(self.0.with("bucketMaxSpanSeconds", n.clone()).with("bucketRoundingSeconds", n))
    }

    /// A bucket closes at this many bytes of events (as JSON) as well as at 1 000 events.
    pub fn max_bucket_bytes(self, bytes: u32) -> SeriesOptions {
        SeriesOptions(self.0.with("maxBucketBytes", Value::Number(bytes.into())))
    }

    /// Events expire this long after their time; the reaper removes whole buckets.
    pub fn expire_after(self, after: impl Into<Period>) -> SeriesOptions {
        SeriesOptions(self.0.with("expireAfter", after.into().0))
    }
}

/// Which events a [`TimeSeries::query`] or [`TimeSeries::delete_many`] takes: those of one
/// series (its meta value), between two instants (both included; an absent end is open).
///
/// ```
/// use idb_ttl::Query;
/// let all = Query::default();
/// let one_sensor_today = Query::default().meta(&"s1").from("2026-12-01T00:00:00Z").to(1_764_633_600.0);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Query {
    meta: Option<std::result::Result<JsValue, String>>,
    from: Option<Time>,
    to: Option<Time>,
}

impl Query {
    /// Only the events whose meta field is `meta` (compared as JSON, as they were bucketed).
    pub fn meta<M: Serialize + ?Sized>(mut self, meta: &M) -> Query {
        self.meta = Some(meta.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| js_text(&JsValue::from(e))));
        self
    }

    /// From this instant on (included).
    pub fn from(mut self, at: impl Into<Time>) -> Query {
        self.from = Some(at.into());
        self
    }

    /// Up to this instant (included).
    pub fn to(mut self, at: impl Into<Time>) -> Query {
        self.to = Some(at.into());
        self
    }

    /// As the JavaScript API's `{ meta, from, to }`, checked by the same reader.
    fn read(&self) -> Result<options::Query> {
        let obj = Object::new();
        let set = |k: &str, v: &JsValue| {
            // Our own plain object: setting a property never throws.
            let _ = Reflect::set(&obj, &k.into(), v);
        };
        if let Some(meta) = &self.meta {
            set("meta", meta.as_ref().map_err(|e| Error::InvalidType(format!("query meta does not serialize ({e})")))?);
        }
        for (k, t) in [("from", &self.from), ("to", &self.to)] {
            if let Some(t) = t {
                set(k, &t.0);
            }
        }
        convert::query_options(&obj.into())
    }
}

fn ids<K: Into<Key>>(ids: impl IntoIterator<Item = K>) -> Result<Array> {
    ids.into_iter().map(|k| k.into().to_js()).collect()
}

/// A collection of `D` documents with an optional TTL index ([`TtlStore::collection`]):
/// expired documents are never returned, and the reaper removes them. `D` is any serde type
/// that serializes to an object with its id at the key path. Cloning shares the collection.
///
/// ```no_run
/// # #[cfg(target_arch = "wasm32")]
/// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
/// use idb_ttl::{CollectionOptions, TtlIndex};
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Login { id: String, at: f64 }
/// let logins = store
///     .collection::<Login>("logins", CollectionOptions::default().ttl_index(TtlIndex::field("at", "P30D")))
///     .await?;
/// logins.put(&Login { id: "ada".into(), at: 1_764_547_200.0 }).await?;
/// let ada: Option<Login> = logins.get("ada").await?;
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Collection<D> {
    inner: store::Collection,
    doc: PhantomData<fn() -> D>,
}

impl<D> Clone for Collection<D> {
    fn clone(&self) -> Self {
        Collection { inner: self.inner.clone(), doc: PhantomData }
    }
}

/// The verbs are the JavaScript `Collection`'s, with the same checks and messages.
impl<D: Serialize + DeserializeOwned> Collection<D> {
    /// The collection's name.
    pub fn name(&self) -> &str {
        self.inner.name()
    }

    /// The document property holding its id.
    pub fn key_path(&self) -> &str {
        self.inner.key_path()
    }

    fn docs(&self, what: &str, docs: &Array) -> Result<Vec<store::DocIn>> {
        let field = self.inner.reference_field();
        convert::docs(what, docs, self.inner.key_path(), field.as_deref())
    }

    fn doc(&self, v: JsValue) -> Result<Option<D>> {
        if v.is_undefined() {
            return Ok(None);
        }
        deserialize(|| format!("a document of collection {}", quote(self.name())), v).map(Some)
    }

    /// Stores a document, replacing the one with the same id. Its TTL field (if the index has
    /// one) sets its expiry; a date in it that is out of range is refused, naming it.
    pub async fn put(&self, doc: &D) -> Result<()> {
        let docs = self.docs("document", &Array::of1(&serialize("document", doc)?))?;
        self.inner.put_many(docs).await
    }

    /// Stores documents in one transaction, all or nothing.
    pub async fn put_many<'a>(&self, docs: impl IntoIterator<Item = &'a D>) -> Result<()>
    where
        D: 'a,
    {
        let all = docs.into_iter().enumerate().map(|(i, d)| serialize(&format!("put_many document {i}"), d)).collect::<Result<Array>>()?;
        self.inner.put_many(self.docs("put_many document", &all)?).await
    }

    /// The live document with this id, `None` if missing or expired.
    pub async fn get(&self, id: impl Into<Key>) -> Result<Option<D>> {
        self.doc(self.inner.get_many(&Array::of1(&id.into().to_js()?)).await?.get(0))
    }

    /// The live documents with these ids, in order, `None` where missing or expired.
    pub async fn get_many<K: Into<Key>>(&self, ids: impl IntoIterator<Item = K>) -> Result<Vec<Option<D>>> {
        self.inner.get_many(&self::ids(ids)?).await?.iter().map(|v| self.doc(v)).collect()
    }

    /// Removes the document with this id; whether it was live.
    pub async fn delete(&self, id: impl Into<Key>) -> Result<bool> {
        Ok(self.inner.delete_many(&Array::of1(&id.into().to_js()?)).await? > 0)
    }

    /// Removes documents; how many were live.
    pub async fn delete_many<K: Into<Key>>(&self, ids: impl IntoIterator<Item = K>) -> Result<u32> {
        self.inner.delete_many(&self::ids(ids)?).await
    }

    /// The number of live documents.
    pub async fn count(&self) -> Result<u32> {
        self.inner.count().await
    }

    /// The live documents in id order.
    pub async fn values(&self) -> Result<Vec<D>> {
        let name = self.name();
        self.inner.values().await?.iter().map(|v| deserialize(|| format!("a document of collection {}", quote(name)), v)).collect()
    }

    /// Removes every document.
    pub async fn clear(&self) -> Result<()> {
        self.inner.clear().await
    }

    /// When the document expires, Unix seconds: `None` if missing or expired, `Some(None)` if
    /// it never does.
    pub async fn expires_at(&self, id: impl Into<Key>) -> Result<Option<Option<f64>>> {
        Ok(self.inner.expires_at(&id.into().to_js()?).await?.map(|at| at.map(|ms| ms / 1000.0)))
    }

    /// On an automatic TTL index: gives a live document this expiry until its next write
    /// ([`Expiry::ttl`](crate::Expiry::ttl), [`Expiry::at_unix`](crate::Expiry::at_unix),
    /// [`Expiry::never`](crate::Expiry::never) or a parsed one); whether it was live.
    pub async fn expire(&self, id: impl Into<Key>, expiry: impl Into<crate::Expiry>) -> Result<bool> {
        let id = id.into();
        let spec = expiry.into().spec()?;
        if !matches!(spec, ExpirySpec::After(_) | ExpirySpec::At(_)) {
            return Err(Error::InvalidType(format!(
                "collection {} expire({id}) needs a new expiry: Expiry::ttl, Expiry::at_unix or Expiry::parse",
                quote(self.name())
            )));
        }
        let at_ms = spec.resolve(None, None, crate::timer::now_ms())?.e;
        self.inner.expire(id.to_js()?, at_ms).await
    }

    /// `f(current)` (the live document, or `None`), run inside one readwrite transaction
    /// (atomic across tabs), gives the document written and returned (its id unchanged; its
    /// TTL field sets its expiry); `None` removes it (MongoDB `findOneAndUpdate`).
    pub async fn update<F>(&self, id: impl Into<Key>, mut f: F) -> Result<Option<D>>
    where
        F: FnMut(Option<D>) -> Option<D>,
    {
        let id = id.into();
        let key = id.to_js()?;
        let what = || format!("collection {} update({})", quote(self.name()), describe_key(&key));
        let mut call = |current: JsValue| -> Result<Option<store::DocIn>> {
            let Some(new) = f(self.doc(current)?) else { return Ok(None) };
            let d = self.docs("updated document", &Array::of1(&serialize("the updated document", &new)?))?.remove(0);
            if Key::from_js(&d.id).as_ref() != Some(&id) {
                return Err(Error::InvalidType(format!(
                    "{}: the updater returned a document whose {} is {}, not {id}; nothing was written. An update keeps the document's id: put() the new document and delete() the old one to move it",
                    what(),
                    quote(self.key_path()),
                    describe_key(&d.id),
                )));
            }
            Ok(Some(d))
        };
        let v = self.inner.update(key.clone(), &mut call).await?;
        self.doc(v)
    }

    /// Changes the TTL index's `expire_after` without rewriting any document (MongoDB
    /// `collMod`).
    pub async fn set_expire_after(&self, after: impl Into<Period>) -> Result<()> {
        self.inner.set_expire_after(options::expire_after(&after.into().0)?).await
    }

    /// Stops this collection's reaping in every tab until [`resume_reaper`](Collection::resume_reaper)
    /// (CockroachDB's `ttl_pause`), saved in the database; reads still hide expired documents.
    pub async fn pause_reaper(&self) -> Result<()> {
        self.inner.set_paused(true).await
    }

    /// Lets the reaper remove this collection's expired documents again.
    pub async fn resume_reaper(&self) -> Result<()> {
        self.inner.set_paused(false).await
    }

    /// The next scheduled run (Unix seconds), `None` without a schedule or while paused.
    pub async fn next_reap_at(&self) -> Result<Option<f64>> {
        Ok(self.inner.next_reap_at().await?.map(|ms| ms / 1000.0))
    }

    /// Removes the TTL index (documents then never expire); `false` if there was none.
    pub async fn drop_ttl_index(&self) -> Result<bool> {
        self.inner.drop_ttl_index().await
    }
}

/// A time series of `E` events stored in buckets ([`TtlStore::time_series`], MongoDB's
/// time-series collections): a bucket holds up to 1 000 events of one series and span, and the
/// reaper removes a bucket whole once its latest event has expired. Reads never return an
/// expired event. Cloning shares the series.
///
/// ```no_run
/// # #[cfg(target_arch = "wasm32")]
/// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
/// use std::time::Duration;
/// use idb_ttl::{Query, SeriesOptions};
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Reading { sensor: String, at: f64, celsius: f64 }
/// let temps = store
///     .time_series::<Reading>("temps", SeriesOptions::new("at").meta_field("sensor").expire_after(Duration::from_secs(86_400)))
///     .await?;
/// temps.insert(&Reading { sensor: "s1".into(), at: 1_764_547_200.0, celsius: 21.5 }).await?;
/// let s1: Vec<Reading> = temps.query(Query::default().meta(&"s1")).await?;
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct TimeSeries<E> {
    inner: store::Series,
    event: PhantomData<fn() -> E>,
}

impl<E> Clone for TimeSeries<E> {
    fn clone(&self) -> Self {
        TimeSeries { inner: self.inner.clone(), event: PhantomData }
    }
}

/// The verbs are the JavaScript `TimeSeries`'s, with the same checks and messages.
impl<E: Serialize + DeserializeOwned> TimeSeries<E> {
    /// The series' name.
    pub fn name(&self) -> &str {
        self.inner.name()
    }

    /// Appends one event; its time (Unix seconds or an ISO-8601 string in the time field) is
    /// checked as an expiry is: one that looks like milliseconds is refused, naming it.
    pub async fn insert(&self, event: &E) -> Result<()> {
        let events = convert::events_in("event", &Array::of1(&serialize("event", event)?), &self.inner.options())?;
        self.inner.insert_many(&events).await?;
        Ok(())
    }

    /// Appends events in one transaction, all or nothing; how many bucket records were written.
    pub async fn insert_many<'a>(&self, events: impl IntoIterator<Item = &'a E>) -> Result<u32>
    where
        E: 'a,
    {
        let all = events.into_iter().enumerate().map(|(i, e)| serialize(&format!("insert_many event {i}"), e)).collect::<Result<Array>>()?;
        let events = convert::events_in("insert_many event", &all, &self.inner.options())?;
        self.inner.insert_many(&events).await
    }

    /// The live events `query` takes, oldest first.
    pub async fn query(&self, query: Query) -> Result<Vec<E>> {
        let q = query.read()?;
        let name = self.name().to_owned();
        self.inner.query(q.meta_key.as_deref(), q.from_ms, q.to_ms).await?.iter().map(|v| deserialize(|| format!("an event of time series {}", quote(&name)), v)).collect()
    }

    /// Removes the events `query` takes; how many live events were removed. A bucket left
    /// empty goes.
    pub async fn delete_many(&self, query: Query) -> Result<u32> {
        let q = query.read()?;
        self.inner.delete_many(q.meta_key.as_deref(), q.from_ms, q.to_ms).await
    }

    /// The number of live events.
    pub async fn count(&self) -> Result<u32> {
        self.inner.count().await
    }

    /// The number of bucket records stored (expired ones the reaper has not removed included).
    pub async fn bucket_count(&self) -> Result<u32> {
        self.inner.bucket_count().await
    }

    /// Buckets new events by `g` from now on, the same or coarser than today's (MongoDB
    /// `collMod`); buckets already written keep their span.
    pub async fn set_granularity(&self, g: Granularity) -> Result<()> {
        self.inner.set_granularity(crate::core::buckets::Granularity::parse(g.name())?).await
    }

    /// Removes every event.
    pub async fn clear(&self) -> Result<()> {
        self.inner.clear().await
    }
}

impl TtlStore {
    /// Opens collection `name` of `D` documents, creating it with `options` if new. Opening an
    /// existing one with a TTL index it lacks builds the index over its documents.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// use idb_ttl::{CollectionOptions, TtlIndex};
    /// #[derive(serde::Serialize, serde::Deserialize)]
    /// struct Draft { id: u32, text: String }
    /// let drafts = store.collection::<Draft>("drafts", CollectionOptions::default().ttl_index(TtlIndex::automatic("P7D"))).await?;
    /// # Ok(()) }
    /// ```
    pub async fn collection<D: Serialize + DeserializeOwned>(&self, name: &str, options: CollectionOptions) -> Result<Collection<D>> {
        let name = convert::name("collection name", &JsValue::from_str(name))?;
        let (key_path, ttl) = options::collection_options(&options.0.value())?;
        let inner = self.store.collection(&name, key_path.as_deref(), ttl, convert::docs).await?;
        Ok(Collection { inner, doc: PhantomData })
    }

    /// Opens time series `name` of `E` events, creating it with `options` if new; given for an
    /// existing one, they must match it.
    ///
    /// ```no_run
    /// # #[cfg(target_arch = "wasm32")]
    /// # async fn example(store: idb_ttl::TtlStore) -> Result<(), idb_ttl::Error> {
    /// use idb_ttl::SeriesOptions;
    /// #[derive(serde::Serialize, serde::Deserialize)]
    /// struct Tick { at: String, price: f64 }
    /// let ticks = store.time_series::<Tick>("ticks", SeriesOptions::new("at").expire_after("P1D")).await?;
    /// # Ok(()) }
    /// ```
    pub async fn time_series<E: Serialize + DeserializeOwned>(&self, name: &str, options: SeriesOptions) -> Result<TimeSeries<E>> {
        let name = convert::name("time series name", &JsValue::from_str(name))?;
        let options = options::series_options(&options.0.value())?;
        Ok(TimeSeries { inner: self.store.time_series(&name, options).await?, event: PhantomData })
    }
}
