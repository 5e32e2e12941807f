//! JS values in, Rust values out: keys, option objects and expiry inputs, each refused with a
//! message that quotes the value and says what is accepted.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::core::config::{whole_up_to, StoreConfig, MAX_TIMER_MS};
use crate::core::entry::ExpirySpec;
use crate::core::error::{Error, Result};
use crate::core::buckets::SeriesOptions;
use crate::core::expiry::{parse_exact_secs, parse_expires_at, ExpiresAtInput, Ttl, TtlInput};
use crate::core::ttl_index::{FieldValue, TtlIndex};
use crate::idb::EventsIn;
use crate::store::DocIn;
use crate::core::reaper::ReapLimits;
use crate::core::text::quote;
use crate::idb::Write;

/// A value as a developer would recognise it in a message: `"abc"`, `12`, `NaN`, `{"a":1}`,
/// `undefined`, `a function`.
pub fn describe(v: &JsValue) -> String {
    if let Some(s) = v.as_string() {
        return quote(&s);
    }
    if let Some(n) = v.as_f64() {
        return crate::core::text::js_number(n);
    }
    if v.is_undefined() {
        return "undefined".into();
    }
    if v.is_function() {
        return "a function".into();
    }
    if v.is_symbol() {
        return "a symbol".into();
    }
    if let Some(d) = v.dyn_ref::<js_sys::Date>() {
        return format!("Date({})", crate::core::text::js_number(d.get_time()));
    }
    match js_sys::JSON::stringify(v).ok().and_then(|s| s.as_string()) {
        Some(s) if s.chars().count() > 60 => format!("{}...", s.chars().take(57).collect::<String>()),
        Some(s) => s,
        // JSON refused it (a cycle, a BigInt inside): name its kind, without walking it.
        None if Array::is_array(v) => "an array".into(),
        None => "an object".into(),
    }
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

/// An array of keys (`getMany`, `deleteMany`).
pub fn keys(what: &str, v: &JsValue) -> Result<Array> {
    let arr = v.dyn_ref::<Array>().ok_or_else(|| Error::wrong_type(what, &describe(v), "an array of keys"))?;
    for (i, k) in arr.iter().enumerate() {
        key(&k).map_err(|e| prefix(e, &format!("{what}[{i}]: ")))?;
    }
    Ok(arr.clone())
}

fn prefix(e: Error, p: &str) -> Error {
    match e {
        Error::InvalidType(m) => Error::InvalidType(format!("{p}{m}")),
        Error::OutOfRange(m) => Error::OutOfRange(format!("{p}{m}")),
        other => other,
    }
}

/// The properties of an options object, refusing names it does not know: a typo such as
/// `{ expire: 60 }` would otherwise silently store an entry that never expires.
fn options<'a>(what: &str, v: &JsValue, known: &'a [&'a str]) -> Result<Option<Object>> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    let obj = v
        .dyn_ref::<Object>()
        .filter(|_| !v.is_function() && !Array::is_array(v))
        .ok_or_else(|| Error::wrong_type(what, &describe(v), &format!("an object with {}", known.join(", "))))?;
    for name in Object::keys(obj).iter() {
        let name = name.as_string().unwrap_or_default();
        if !known.contains(&name.as_str()) {
            return Err(Error::InvalidType(format!(
                "{what} has an unknown option {}; accepted: {}",
                quote(&name),
                known.join(", ")
            )));
        }
    }
    Ok(Some(obj.clone()))
}

fn prop(obj: &Object, name: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

fn present(v: JsValue) -> Option<JsValue> {
    (!v.is_undefined()).then_some(v)
}

/// Reads a `ttl` value into the parser's input (the string is borrowed from `holder`).
fn ttl_input<'a>(what: &str, v: &JsValue, holder: &'a mut String) -> Result<TtlInput<'a>> {
    if let Some(n) = v.as_f64() {
        return Ok(TtlInput::Seconds(n));
    }
    if let Some(s) = v.as_string() {
        *holder = s;
        return Ok(TtlInput::Text(holder));
    }
    Err(Error::wrong_type(what, &describe(v), "a number of seconds or a duration string such as \"PT10M\", \"90 days\", \"1h 30m\""))
}

fn expires_at_input<'a>(v: &JsValue, holder: &'a mut String) -> Result<ExpiresAtInput<'a>> {
    if let Some(n) = v.as_f64() {
        return Ok(ExpiresAtInput::Seconds(n));
    }
    if let Some(s) = v.as_string() {
        *holder = s;
        return Ok(ExpiresAtInput::Text(holder));
    }
    if let Some(d) = v.dyn_ref::<js_sys::Date>() {
        return Ok(ExpiresAtInput::DateMs(d.get_time()));
    }
    Err(Error::wrong_type("expiresAt", &describe(v), "Unix seconds as a number, an ISO-8601 string or a Date"))
}

/// The options of `set` and of each `setMany` entry.
pub fn set_options(v: &JsValue) -> Result<ExpirySpec> {
    let Some(obj) = options("set options", v, &["ttl", "expiresAt", "keepTtl"])? else {
        return Ok(ExpirySpec::Default);
    };
    let keep = match present(prop(&obj, "keepTtl")) {
        None => false,
        Some(b) => b.as_bool().ok_or_else(|| Error::wrong_type("keepTtl", &describe(&b), "true or false"))?,
    };
    let (mut t, mut a) = (String::new(), String::new());
    let ttl = present(prop(&obj, "ttl")).map(|v| ttl_input("ttl", &v, &mut t)).transpose()?;
    let at = present(prop(&obj, "expiresAt")).map(|v| expires_at_input(&v, &mut a)).transpose()?;
    ExpirySpec::parse(ttl, at, keep)
}

/// The options of `expire(key, options)`.
pub fn expire_options(v: &JsValue) -> Result<ExpirySpec> {
    let obj = options("expire options", v, &["ttl", "expiresAt"])?;
    let (mut t, mut a) = (String::new(), String::new());
    let (ttl, at) = match &obj {
        None => (None, None),
        Some(obj) => (
            present(prop(obj, "ttl")).map(|v| ttl_input("ttl", &v, &mut t)).transpose()?,
            present(prop(obj, "expiresAt")).map(|v| expires_at_input(&v, &mut a)).transpose()?,
        ),
    };
    ExpirySpec::parse_for_expire(ttl, at)
}

/// `StoreOptions`.
pub fn store_options(v: &JsValue) -> Result<StoreConfig> {
    let mut config = StoreConfig::default();
    let known = ["defaultTtl", "reapIntervalMs", "maxRemovesPerRun", "maxRemovesPerCollection", "batchSize", "autoReap", "timeoutMs"];
    let Some(obj) = options("TtlStore.open options", v, &known)? else {
        return Ok(config);
    };
    if let Some(v) = present(prop(&obj, "defaultTtl")) {
        let mut holder = String::new();
        config.default_ttl = Some(Ttl::parse_as("defaultTtl", ttl_input("defaultTtl", &v, &mut holder)?)?);
    }
    let whole_max = |name: &str, default: u32, max: u32| -> Result<u32> {
        match present(prop(&obj, name)) {
            None => Ok(default),
            Some(v) => match v.as_f64() {
                Some(n) => whole_up_to(name, n, max),
                None => Err(Error::wrong_type(name, &describe(&v), "a whole number >= 1")),
            },
        }
    };
    let whole = |name: &str, default: u32| whole_max(name, default, u32::MAX);
    config.timeout_ms = whole_max("timeoutMs", config.timeout_ms, MAX_TIMER_MS)?;
    config.reap_interval_ms = whole("reapIntervalMs", config.reap_interval_ms)?;
    config.limits = ReapLimits::new(
        whole("batchSize", config.limits.batch_size)?,
        whole("maxRemovesPerRun", config.limits.max_removes_per_run)?,
        whole("maxRemovesPerCollection", config.limits.max_removes_per_collection)?,
    )?;
    if let Some(v) = present(prop(&obj, "autoReap")) {
        config.auto_reap = v.as_bool().ok_or_else(|| Error::wrong_type("autoReap", &describe(&v), "true or false"))?;
    }
    Ok(config)
}

/// The entries of `setMany`: `[key, value]` or `[key, value, options]`, all validated before
/// anything is written.
pub fn set_many_entries(v: &JsValue) -> Result<Vec<Write>> {
    let arr = v
        .dyn_ref::<Array>()
        .ok_or_else(|| Error::wrong_type("setMany entries", &describe(v), "an array of [key, value] or [key, value, options]"))?;
    arr.iter()
        .enumerate()
        .map(|(i, entry)| {
            let at = |e: Error| prefix(e, &format!("setMany entry {i}: "));
            let pair = entry
                .dyn_ref::<Array>()
                .filter(|a| (2..=3).contains(&a.length()))
                .ok_or_else(|| at(Error::wrong_type("entry", &describe(&entry), "[key, value] or [key, value, options]")))?;
            Ok(Write {
                key: key(&pair.get(0)).map_err(at)?,
                value: pair.get(1),
                spec: set_options(&pair.get(2)).map_err(at)?,
            })
        })
        .collect()
}

#[wasm_bindgen(module = "/src/js/convert.js")]
extern "C" {
    #[wasm_bindgen(js_name = readEvents)]
    fn read_events(events: &Array, time_field: &str, meta_field: Option<String>) -> JsValue;
    #[wasm_bindgen(js_name = metaKey)]
    fn meta_key(m: &JsValue) -> String;
}

/// A document field read as a possible date (see `core::ttl_index`).
pub fn field_value(doc: &JsValue, field: &str) -> FieldValue {
    to_field_value(&prop_of(doc, field), true)
}

fn to_field_value(v: &JsValue, top: bool) -> FieldValue {
    if let Some(n) = v.as_f64() {
        FieldValue::Number(n)
    } else if let Some(s) = v.as_string() {
        FieldValue::Text(s)
    } else if let Some(d) = v.dyn_ref::<js_sys::Date>() {
        FieldValue::DateMs(d.get_time())
    } else if let (true, Some(a)) = (top, v.dyn_ref::<Array>()) {
        FieldValue::Array(a.iter().map(|i| to_field_value(&i, false)).collect())
    } else if Array::is_array(v) {
        FieldValue::Array(Vec::new())
    } else {
        FieldValue::Other
    }
}

fn prop_of(v: &JsValue, name: &str) -> JsValue {
    if v.is_object() {
        Reflect::get(v, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// A document for `put`: an object with a string or number id at `key_path`.
pub fn doc_in(what: &str, doc: &JsValue, key_path: &str, reference_field: Option<&str>) -> Result<DocIn> {
    if !doc.is_object() || Array::is_array(doc) || doc.is_function() {
        return Err(Error::wrong_type(what, &describe(doc), &format!("an object with an id at {}", quote(key_path))));
    }
    let id = prop_of(doc, key_path);
    let id = key(&id).map_err(|e| prefix(e, &format!("{what} id at keyPath {}: ", quote(key_path))))?;
    let field = reference_field.map_or(FieldValue::Other, |f| field_value(doc, f));
    Ok(DocIn { id, field, doc: doc.clone() })
}

/// The documents of `putMany`, all validated before anything is written.
pub fn docs_in(v: &JsValue, key_path: &str, reference_field: Option<&str>) -> Result<Vec<DocIn>> {
    let arr = v.dyn_ref::<Array>().ok_or_else(|| Error::wrong_type("putMany documents", &describe(v), "an array of documents"))?;
    arr.iter().enumerate().map(|(i, d)| doc_in(&format!("putMany document {i}"), &d, key_path, reference_field)).collect()
}

/// `{ keyPath, ttlIndex: { field, expireAfter, unit } }` of `store.collection`.
pub fn collection_options(v: &JsValue) -> Result<(Option<String>, Option<TtlIndex>)> {
    let Some(obj) = options("collection options", v, &["keyPath", "ttlIndex"])? else {
        return Ok((None, None));
    };
    let key_path = match present(prop(&obj, "keyPath")) {
        None => None,
        Some(k) => Some(k.as_string().filter(|s| !s.is_empty()).ok_or_else(|| {
            Error::wrong_type("keyPath", &describe(&k), "the name of the property holding each document's id, e.g. \"id\"")
        })?),
    };
    let ttl = match present(prop(&obj, "ttlIndex")) {
        None => None,
        Some(t) => Some(ttl_index_options(&t)?),
    };
    Ok((key_path, ttl))
}

fn ttl_index_options(v: &JsValue) -> Result<TtlIndex> {
    let obj = options("ttlIndex", v, &["field", "expireAfter", "unit"])?
        .ok_or_else(|| Error::wrong_type("ttlIndex", &describe(v), "{ field, expireAfter, unit? }"))?;
    let field = prop(&obj, "field").as_string().ok_or_else(|| {
        Error::wrong_type("ttlIndex.field", &describe(&prop(&obj, "field")), "the name of a document field, e.g. \"createdAt\"")
    })?;
    let after = present(prop(&obj, "expireAfter"))
        .ok_or_else(|| Error::InvalidType("ttlIndex needs expireAfter: seconds or a duration such as \"90 days\" (0: the field is the expiry time)".into()))?;
    let unit = match present(prop(&obj, "unit")) {
        None => None,
        Some(u) => Some(u.as_string().ok_or_else(|| Error::wrong_type("ttlIndex.unit", &describe(&u), "\"s\", \"ms\", \"us\" or \"ns\""))?),
    };
    let mut holder = String::new();
    TtlIndex::new(&field, ttl_input("ttlIndex.expireAfter", &after, &mut holder)?, unit.as_deref())
}

/// `expireAfter` of `setExpireAfter(v)`: exact seconds.
pub fn expire_after(v: &JsValue) -> Result<f64> {
    let mut holder = String::new();
    parse_exact_secs("expireAfter", ttl_input("expireAfter", v, &mut holder)?)
}

/// `{ timeField, metaField, granularity, expireAfter }` of `store.timeSeries`.
pub fn series_options(v: &JsValue) -> Result<Option<SeriesOptions>> {
    let Some(obj) = options("timeSeries options", v, &["timeField", "metaField", "granularity", "expireAfter"])? else {
        return Ok(None);
    };
    let text = |name: &str| -> Result<Option<String>> {
        match present(prop(&obj, name)) {
            None => Ok(None),
            Some(x) => x.as_string().map(Some).ok_or_else(|| Error::wrong_type(name, &describe(&x), "a string")),
        }
    };
    let time_field = text("timeField")?.ok_or_else(|| {
        Error::InvalidType("timeSeries options need timeField: the name of the event field holding its time".into())
    })?;
    let mut holder = String::new();
    let after = present(prop(&obj, "expireAfter"));
    let after = after.as_ref().map(|a| ttl_input("expireAfter", a, &mut holder)).transpose()?;
    SeriesOptions::new(&time_field, text("metaField")?.as_deref(), text("granularity")?.as_deref(), after).map(Some)
}

/// Events of `insert`/`insertMany`: each an object with a valid time in `timeField`.
pub fn events_in(what: &str, events: &Array, options: &SeriesOptions) -> Result<EventsIn> {
    let read = read_events(events, &options.time_field, options.meta_field.clone());
    let kinds: js_sys::Uint8Array = Reflect::get(&read, &"kinds".into()).unwrap_or_default().unchecked_into();
    let values: js_sys::Float64Array = Reflect::get(&read, &"values".into()).unwrap_or_default().unchecked_into();
    let raw: Array = Reflect::get(&read, &"raw".into()).unwrap_or_default().unchecked_into();
    let meta_keys: Array = Reflect::get(&read, &"metaKeys".into()).unwrap_or_default().unchecked_into();
    let metas: Array = Reflect::get(&read, &"metas".into()).unwrap_or_default().unchecked_into();
    let (kinds, values) = (kinds.to_vec(), values.to_vec());
    let field = quote(&options.time_field);
    let times_ms = (0..kinds.len())
        .map(|i| {
            let input = match kinds[i] {
                0 => ExpiresAtInput::Seconds(values[i]),
                1 => ExpiresAtInput::DateMs(values[i]),
                _ => match raw.get(i as u32).as_string() {
                    Some(s) => return parse_expires_at(ExpiresAtInput::Text(&s)).map_err(|e| rename(e, i, what, &field)),
                    None => {
                        return Err(Error::InvalidType(format!(
                            "{what} {i}: {field} is {}; every event needs its time there: Unix seconds, an ISO-8601 string or a Date",
                            describe(&raw.get(i as u32))
                        )))
                    }
                },
            };
            parse_expires_at(input).map_err(|e| rename(e, i, what, &field))
        })
        .collect::<Result<Vec<f64>>>()?;
    let meta_keys = meta_keys.iter().map(|k| k.as_string().unwrap_or_default()).collect();
    Ok(EventsIn { events: events.clone(), times_ms, meta_keys, metas })
}

/// The parser names the value `expiresAt`; for an event it is the event's time field.
fn rename(e: Error, i: usize, what: &str, field: &str) -> Error {
    let name = format!("{what} {i}: {field}");
    match e {
        Error::InvalidType(m) => Error::InvalidType(m.replacen("expiresAt", &name, 1)),
        Error::OutOfRange(m) => Error::OutOfRange(m.replacen("expiresAt", &name, 1)),
        other => other,
    }
}

/// `{ meta, from, to }` of `query`: the meta value's key, and the bounds as Unix ms (inclusive;
/// missing bounds are open).
pub fn query_options(v: &JsValue) -> Result<(Option<String>, f64, f64)> {
    let Some(obj) = options("query options", v, &["meta", "from", "to"])? else {
        return Ok((None, f64::NEG_INFINITY, f64::INFINITY));
    };
    let meta = present(prop(&obj, "meta")).map(|m| meta_key(&m));
    let bound = |name: &str, open: f64| -> Result<f64> {
        let Some(b) = present(prop(&obj, name)) else { return Ok(open) };
        let mut holder = String::new();
        parse_expires_at(expires_at_input(&b, &mut holder)?).map_err(|e| match e {
            Error::InvalidType(m) => Error::InvalidType(m.replacen("expiresAt", &format!("query {name}"), 1)),
            Error::OutOfRange(m) => Error::OutOfRange(m.replacen("expiresAt", &format!("query {name}"), 1)),
            other => other,
        })
    };
    Ok((meta, bound("from", f64::NEG_INFINITY)?, bound("to", f64::INFINITY)?))
}
