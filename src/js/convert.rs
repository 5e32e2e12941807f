//! JS values in, Rust values out: keys, option objects and expiry inputs, each refused with a
//! message that quotes the value and says what is accepted.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::core::config::{positive_whole, StoreConfig};
use crate::core::entry::ExpirySpec;
use crate::core::error::{Error, Result};
use crate::core::expiry::{ExpiresAtInput, Ttl, TtlInput};
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
        None => format!("{v:?}"),
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
    let known = ["defaultTtl", "reapIntervalMs", "maxRemovesPerRun", "batchSize", "autoReap"];
    let Some(obj) = options("TtlStore.open options", v, &known)? else {
        return Ok(config);
    };
    if let Some(v) = present(prop(&obj, "defaultTtl")) {
        let mut holder = String::new();
        config.default_ttl = Some(Ttl::parse_as("defaultTtl", ttl_input("defaultTtl", &v, &mut holder)?)?);
    }
    let whole = |name: &str, default: u32| -> Result<u32> {
        match present(prop(&obj, name)) {
            None => Ok(default),
            Some(v) => match v.as_f64() {
                Some(n) => positive_whole(name, n),
                None => Err(Error::wrong_type(name, &describe(&v), "a whole number >= 1")),
            },
        }
    };
    config.reap_interval_ms = whole("reapIntervalMs", config.reap_interval_ms)?;
    config.limits = ReapLimits::new(
        whole("batchSize", config.limits.batch_size)?,
        whole("maxRemovesPerRun", config.limits.max_removes_per_run)?,
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
