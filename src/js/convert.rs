//! JS values in, Rust values out. Every read of a user's value goes through `edge.js` by a
//! `catch` binding: what comes back is plain data (read here as a core [`Value`]) or a TypeError
//! that names the argument, so no JS exception ever unwinds through wasm frames. The options
//! themselves are validated by the pure core (`core::options`).

use js_sys::{Array, Float64Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use crate::core::buckets::SeriesOptions;
use crate::core::config::StoreConfig;
use crate::core::entry::ExpirySpec;
use crate::core::error::{Error, Result};
use crate::core::expiry::{parse_expires_at, ExpiresAtInput};
use crate::core::options::{self, prefix, rename, Query};
use crate::core::text::quote;
use crate::core::ttl_index::TtlIndex;
use crate::core::value::Value;
use crate::core::window::Window;
pub use crate::idb::refused;
use crate::idb::{EventsIn, Write};
use crate::store::DocIn;

#[wasm_bindgen(module = "/src/js/edge.js")]
extern "C" {
    /// Never throws (it catches inside).
    #[wasm_bindgen(js_name = describe)]
    fn describe_js(v: &JsValue) -> String;
    #[wasm_bindgen(catch)]
    fn plain(v: &JsValue, what: &str, keyed: Option<&str>, fns: &JsValue) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = readArray, catch)]
    fn read_array(v: &JsValue, what: &str) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = readEntries, catch)]
    fn read_entries(v: &JsValue) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = readDocs, catch)]
    fn read_docs(docs: &Array, what: &str, key_path: &str, field: Option<&str>) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = readEvents, catch)]
    fn read_events(events: &Array, what: &str, time_field: &str, meta_field: Option<&str>) -> std::result::Result<JsValue, JsValue>;
}

/// A value as a developer would recognise it in a message: `"abc"`, `12`, `NaN`, `{"a":1}`,
/// `5n`, `Date(0)`, `a function`, `an HTMLDivElement`.
pub fn describe(v: &JsValue) -> String {
    describe_js(v)
}

/// Plain data the edge made (a copy, never the user's own object: reading it cannot throw) as a
/// [`Value`]: `null` and `undefined` as `Undefined` (the edge tags a user's `null`), arrays as
/// lists, objects as records of their own enumerable properties or the tagged value they stand
/// for. Read directly rather than through serde-wasm-bindgen's deserializer, whose error path
/// prints floats with `core::fmt` (float formatting the wasm otherwise does without).
pub(crate) fn read(v: &JsValue) -> Value {
    if let Some(n) = v.as_f64() {
        Value::Number(n)
    } else if let Some(b) = v.as_bool() {
        Value::Bool(b)
    } else if let Some(s) = v.as_string() {
        Value::Text(s)
    } else if let Some(items) = v.dyn_ref::<Array>() {
        Value::List(items.iter().map(|x| read(&x)).collect())
    } else if v.is_object() {
        let fields = Object::entries(v.unchecked_ref())
            .iter()
            .map(|e| {
                let e: Array = e.unchecked_into();
                (e.get(0).as_string().unwrap_or_default(), read(&e.get(1)))
            })
            .collect();
        Value::record(fields)
    } else {
        Value::Undefined
    }
}

/// A property of an object the edge made (absent: `undefined`).
pub(crate) fn field(o: &JsValue, name: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(name)).unwrap_or_default()
}

/// An array property of an object the edge made (absent: empty).
pub(crate) fn list(o: &JsValue, name: &str) -> Array {
    field(o, name).dyn_into().unwrap_or_default()
}

/// The argument `v` as plain data; `what` names it in messages.
pub fn value(v: &JsValue, what: &str) -> Result<Value> {
    plain_keyed(v, what, None)
}

fn plain_keyed(v: &JsValue, what: &str, keyed: Option<&str>) -> Result<Value> {
    Ok(read(&plain(v, what, keyed, &JsValue::UNDEFINED).map_err(refused)?))
}

/// A key: a string or a number other than NaN.
pub fn key(v: &JsValue) -> Result<JsValue> {
    match v.as_f64() {
        Some(n) if n.is_nan() => Err(Error::OutOfRange("key NaN is not accepted; expected a string or a number other than NaN".into())),
        Some(_) => Ok(v.clone()),
        None if v.is_string() => Ok(v.clone()),
        None => Err(Error::wrong_type("key", &describe(v), "a string or a number")),
    }
}

/// A copy of the array `v`, or a TypeError saying what was expected (`accepted`).
fn array(what: &str, v: &JsValue, accepted: &str) -> Result<Array> {
    let copy = read_array(v, what).map_err(refused)?;
    if copy.is_undefined() {
        return Err(Error::wrong_type(what, &describe(v), accepted));
    }
    Ok(copy.into())
}

/// An array of keys (`getMany`, `deleteMany`), each checked.
pub fn keys(what: &str, v: &JsValue) -> Result<Array> {
    let arr = array(what, v, "an array of keys")?;
    for (i, k) in arr.iter().enumerate() {
        key(&k).map_err(|e| prefix(e, &format!("{what}[{i}]: ")))?;
    }
    Ok(arr)
}

/// A name (database, collection, time series): a non-empty, well-formed string of at most
/// [`MAX_NAME`] UTF-16 units. A lone surrogate would read as U+FFFD, and two names would meet.
pub fn name(what: &str, v: &JsValue) -> Result<String> {
    let Some(s) = v.dyn_ref::<js_sys::JsString>() else {
        return Err(Error::wrong_type(what, &describe(v), "a non-empty string"));
    };
    if s.length() == 0 {
        return Err(Error::wrong_type(what, "\"\"", "a non-empty string"));
    }
    if !s.is_valid_utf16() {
        return Err(Error::InvalidType(format!(
            "{what} {} has a lone surrogate (half of a UTF-16 pair), which IndexedDB would store as U+FFFD, so two different names would open the same data; use a well-formed string",
            describe(v)
        )));
    }
    if s.length() > MAX_NAME {
        return Err(Error::OutOfRange(format!(
            "{what} {} is longer than {MAX_NAME} characters; use a shorter name",
            describe(v)
        )));
    }
    Ok(String::from(s))
}

/// The longest name accepted, in UTF-16 units (engines differ in what they store beyond).
pub const MAX_NAME: u32 = 1000;

/// The options of `set`.
pub fn set_options(v: &JsValue) -> Result<ExpirySpec> {
    set_options_as("set options", v)
}

/// Options as `set`'s, named `what` (`"add options"`).
pub fn set_options_as(what: &str, v: &JsValue) -> Result<ExpirySpec> {
    options::set_options(what, &value(v, what)?)
}

/// The options of `asyncStorage(options)`: key prefix and the `ttl` of each `setItem`, checked.
pub fn async_storage_options(v: &JsValue) -> Result<(String, Option<Value>, Option<Value>)> {
    options::async_storage_options(&value(v, "asyncStorage options")?)
}

/// The query of `observe(query, listener)`.
pub fn view_query(v: &JsValue) -> Result<crate::core::options::ViewQuery> {
    options::view_query(&value(v, "observe query")?)
}

/// The options of `ttl(key, options)`: whether the detail is asked for.
pub fn ttl_options(v: &JsValue) -> Result<bool> {
    options::ttl_options(&value(v, "ttl options")?)
}

/// The options of `expire(key, options)`: the new expiry and its condition (`only`).
pub fn expire_options(v: &JsValue) -> Result<(ExpirySpec, Option<crate::core::modify::ExpireIf>)> {
    options::expire_options(&value(v, "expire options")?)
}

/// The options of `incr`/`update` (`what`: `"incr options"`).
pub fn modify_options(what: &str, v: &JsValue) -> Result<ExpirySpec> {
    options::modify_options(what, &value(v, what)?)
}

/// `StoreOptions`.
/// `TtlStore.open`'s options, and `onExpire` (a function, kept as it is).
pub fn store_options(v: &JsValue) -> Result<(StoreConfig, Option<js_sys::Function>)> {
    let fns = js_sys::Object::new();
    let data = read(&plain(v, "TtlStore.open options", None, &fns).map_err(refused)?);
    #[cfg(not(feature = "full"))]
    if let Value::Record(fields) = &data {
        if let Some((name, _)) = fields.iter().find(|(k, _)| ["archiveFor", "encryption", "onExpire"].contains(&k.as_str())) {
            return Err(Error::InvalidType(format!(
                "TtlStore.open options has {}, which idb-ttl/lite does not have (archiveFor, encryption and onExpire are the default entry's); import {{ TtlStore }} from \"idb-ttl\" for them",
                quote(name)
            )));
        }
    }
    let config = options::store_config(&data)?;
    // Our own plain object: reading it never throws.
    let hook = js_sys::Reflect::get(&fns, &"onExpire".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if config.hand_off && hook.is_none() {
        return Err(Error::wrong_type(
            "onExpire",
            &shown(&data, "onExpire"),
            "a function, async (records) => { ... }, that resolves once the records are kept elsewhere",
        ));
    }
    Ok((config, hook))
}

/// `TtlStore.destroy(name, options)`'s options: its `timeoutMs`.
pub fn destroy_options(v: &JsValue) -> Result<u32> {
    let fns = js_sys::Object::new();
    options::destroy_timeout(&read(&plain(v, "TtlStore.destroy options", None, &fns).map_err(refused)?))
}

/// How the edge showed option `name` of an options object (empty if it has none).
fn shown(data: &Value, name: &str) -> String {
    match data {
        Value::Record(fields) => fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.describe()).unwrap_or_default(),
        _ => String::new(),
    }
}

/// `{ signal, onProgress }` of long work (`what`: "setMany options"): the call's tracker, if
/// either is given.
pub fn long_options(what: &str, v: &JsValue) -> Result<Option<std::rc::Rc<crate::long::Long>>> {
    let found = Object::new();
    let data = read(&plain(v, what, None, &found).map_err(refused)?);
    let [signal, progress] = options::long_options(what, &data)?;
    // Our own plain object: reading it never throws.
    let got = |name: &str| Reflect::get(&found, &name.into()).unwrap_or_default();
    let signal = match signal {
        false => None,
        true => Some(got("signal").dyn_into::<web_sys::AbortSignal>().map_err(|_| {
            Error::wrong_type("signal", &shown(&data, "signal"), "an AbortSignal (new AbortController().signal, or AbortSignal.timeout(ms))")
        })?),
    };
    let on_progress = match progress {
        false => None,
        true => Some(got("onProgress").dyn_into::<js_sys::Function>().map_err(|_| {
            Error::wrong_type("onProgress", &shown(&data, "onProgress"), "a function, ({ done, total }) => { ... }")
        })?),
    };
    Ok(crate::long::Long::new(signal, on_progress))
}

/// `{ keyPath, ttlIndex }` of `store.collection`.
pub fn collection_options(v: &JsValue) -> Result<(Option<String>, Option<TtlIndex>)> {
    options::collection_options(&value(v, "collection options")?)
}

/// `{ timeField, metaField, granularity, expireAfter }` of `store.timeSeries`.
pub fn series_options(v: &JsValue) -> Result<Option<SeriesOptions>> {
    options::series_options(&value(v, "timeSeries options")?)
}

/// `expireAfter` of `setExpireAfter(v)`.
pub fn expire_after(v: &JsValue) -> Result<Window> {
    options::expire_after(&value(v, "expireAfter")?)
}

/// The expiry of `collection.expire(id, options)`, Unix ms from `now_ms`.
pub fn doc_expire_at_ms(v: &JsValue, now_ms: f64) -> Result<f64> {
    Ok(options::doc_expire_options(&value(v, "expire options")?)?.resolve(None, None, now_ms)?.e)
}

/// The argument of `setGranularity(granularity)`.
pub fn granularity(v: &JsValue) -> Result<crate::core::buckets::Granularity> {
    match value(v, "granularity")? {
        Value::Text(s) => crate::core::buckets::Granularity::parse(&s),
        other => Err(Error::wrong_type("granularity", &other.describe(), "\"seconds\", \"minutes\" or \"hours\"")),
    }
}

/// `tiers` of `setTiers(tiers)`.
pub fn tiers(v: &JsValue) -> Result<crate::core::ttl_index::Tiers> {
    options::tiers_option("tiers", &value(v, "tiers")?)
}

/// `{ meta, from, to }` of `query` (`meta` replaced by its grouping key in the edge).
pub fn query_options(v: &JsValue) -> Result<Query> {
    options::query_options(&plain_keyed(v, "query options", Some("meta"))?)
}

/// The entries of `setMany`: `[key, value]` or `[key, value, options]`, all validated before
/// anything is written.
pub fn set_many_entries(v: &JsValue) -> Result<Vec<Write>> {
    let read = read_entries(v).map_err(refused)?;
    if read.is_undefined() {
        return Err(Error::wrong_type("setMany entries", &describe(v), "an array of [key, value] or [key, value, options]"));
    }
    // { keys, values, options, bad, shown }: `bad`, the index of an entry of another shape, or -1.
    if let Some(bad) = field(&read, "bad").as_f64().filter(|b| *b >= 0.0) {
        let e = Error::wrong_type("entry", &field(&read, "shown").as_string().unwrap_or_default(), "[key, value] or [key, value, options]");
        return Err(prefix(e, &format!("setMany entry {}: ", bad as u32)));
    }
    let (keys, values, options) = (list(&read, "keys"), list(&read, "values"), list(&read, "options"));
    let mut writes = Vec::with_capacity(options.length() as usize);
    for i in 0..options.length() {
        let at = |e: Error| prefix(e, &format!("setMany entry {i}: "));
        writes.push(Write {
            key: key(&keys.get(i)).map_err(at)?,
            value: values.get(i),
            spec: options::set_options("options", &self::read(&options.get(i))).map_err(at)?,
        });
    }
    Ok(writes)
}

/// Documents for `put` (`what` = `"document"`) or `putMany` (`"putMany document"`): objects
/// with a string or number id at `key_path`; the value of `reference_field`, if any, read as a
/// possible date.
pub fn docs(what: &str, docs: &Array, key_path: &str, reference_field: Option<&str>) -> Result<Vec<DocIn>> {
    // { ids, fields, bad, shown }: `bad`, the index of a document that is not an object, or -1.
    let read = read_docs(docs, what, key_path, reference_field).map_err(refused)?;
    let label = |i: usize| if docs.length() == 1 && (what == "document" || what == "updated document") { what.to_owned() } else { format!("{what} {i}") };
    if let Some(bad) = field(&read, "bad").as_f64().filter(|b| *b >= 0.0) {
        let shown = field(&read, "shown").as_string().unwrap_or_default();
        return Err(Error::wrong_type(&label(bad as usize), &shown, &format!("an object with an id at {}", quote(key_path))));
    }
    let (ids, fields) = (list(&read, "ids"), list(&read, "fields"));
    let mut out = Vec::with_capacity(docs.length() as usize);
    for i in 0..docs.length() {
        let id = key(&ids.get(i)).map_err(|e| prefix(e, &format!("{} id at keyPath {}: ", label(i as usize), quote(key_path))))?;
        out.push(DocIn { id, field: self::read(&fields.get(i)), doc: docs.get(i) });
    }
    Ok(out)
}

/// The documents of `putMany`: an array, each document checked.
pub fn docs_in(v: &JsValue, key_path: &str, reference_field: Option<&str>) -> Result<Vec<DocIn>> {
    docs("putMany document", &array("putMany documents", v, "an array of documents")?, key_path, reference_field)
}

/// The events of `insertMany`: an array.
pub fn event_array(v: &JsValue) -> Result<Array> {
    array("insertMany events", v, "an array of events")
}

/// Events of `insert`/`insertMany`: each an object with a valid time in `timeField`.
pub fn events_in(what: &str, events: &Array, options: &SeriesOptions) -> Result<EventsIn> {
    let read = read_events(events, what, &options.time_field, options.meta_field.as_deref()).map_err(refused)?;
    // { kinds, values, raw, metaKeys, metas, sizes }, one of each per event.
    let kinds = field(&read, "kinds").unchecked_into::<Uint8Array>().to_vec();
    let values = field(&read, "values").unchecked_into::<Float64Array>().to_vec();
    let raw = list(&read, "raw");
    let field = quote(&options.time_field);
    let mut times_ms = Vec::with_capacity(kinds.len());
    for (i, &kind) in kinds.iter().enumerate() {
        let name = format!("{what} {i}: {field}");
        let text = raw.get(i as u32).as_string();
        let input = match (kind, &text) {
            (0, _) => ExpiresAtInput::Seconds(values[i]),
            (1, _) => ExpiresAtInput::DateMs(values[i]),
            (2, Some(s)) => ExpiresAtInput::Text(s),
            (_, shown) => {
                return Err(Error::InvalidType(format!(
                    "{name} is {}; every event needs its time there: Unix seconds, an ISO-8601 string or a Date",
                    shown.as_deref().unwrap_or("undefined")
                )))
            }
        };
        times_ms.push(parse_expires_at(input).map_err(|e| rename(e, &name))?);
    }
    let meta_keys = list(&read, "metaKeys").iter().map(|k| k.as_string().unwrap_or_default()).collect();
    let sizes = self::field(&read, "sizes").unchecked_into::<Float64Array>().to_vec();
    Ok(EventsIn { events: events.clone(), times_ms, meta_keys, metas: list(&read, "metas"), sizes })
}
