//! The wasm half of `store.asyncStorage(options)`, the `{ getItem, setItem, removeItem, entries }`
//! storage object of TanStack Query's persisters. The object itself is a few lines of JS over the
//! store's own methods (`pkg-template/index.js`: smaller than a wasm class with four async
//! methods); what needs the expiry parser or the messages of the rest of the API is here.

use js_sys::{Array, JsString};
use wasm_bindgen::prelude::*;

use super::convert;
use crate::core::error::Error;
use crate::core::value::Value;

/// `asyncStorage(options)`'s options, checked: `[prefix, ttl, idle]`, `ttl` and `idle` as given
/// (`undefined` for none: without either, the store's `defaultTtl`). Bad options throw a
/// `TypeError` or `RangeError`.
#[wasm_bindgen(js_name = asyncStorageOptions, skip_typescript)]
pub fn async_storage_options(options: JsValue) -> Result<Array, JsValue> {
    let (prefix, ttl, idle) = convert::async_storage_options(&options).map_err(Error::into_js)?;
    let given = |v: Option<Value>| match v {
        Some(Value::Number(n)) => JsValue::from_f64(n),
        Some(Value::Text(s)) => JsValue::from_str(&s),
        _ => JsValue::UNDEFINED,
    };
    Ok(Array::of3(&JsValue::from_str(&prefix), &given(ttl), &given(idle)))
}

/// The store's key for `key` under a non-empty `prefix`: the two joined; a key that is not a
/// string throws a `TypeError` naming it.
#[wasm_bindgen(js_name = storageKey, skip_typescript)]
pub fn storage_key(prefix: &str, key: JsValue) -> Result<JsValue, JsValue> {
    match key.dyn_ref::<JsString>() {
        Some(k) => Ok(JsString::from(prefix).concat(k).into()),
        None => Err(Error::into_js(Error::wrong_type("asyncStorage key", &convert::describe(&key), "a string (the storage has a prefix)"))),
    }
}
