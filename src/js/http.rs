//! `ttlFromHeaders(headers, now?)`: a response's freshness lifetime (`core::http`), for storing
//! it with its expiry. The header strings are read by `edge.js`; the rules are the core's.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::convert::{describe, refused};
use crate::core::error::{Error, Result};
use crate::core::http::{now_secs, ttl_secs, Fields};
use crate::timer::now_ms;

#[wasm_bindgen(module = "/src/js/edge.js")]
extern "C" {
    #[wasm_bindgen(js_name = readHeaders, catch)]
    fn read_headers(headers: &JsValue) -> std::result::Result<JsValue, JsValue>;
}

/// The seconds a response with `headers` stays fresh, or `undefined` if it must not be stored.
#[wasm_bindgen(js_name = ttlFromHeaders, skip_typescript)]
pub fn ttl_from_headers(headers: JsValue, now: JsValue) -> std::result::Result<Option<f64>, JsValue> {
    ttl(&headers, &now).map_err(Error::into_js)
}

fn ttl(headers: &JsValue, now: &JsValue) -> Result<Option<f64>> {
    let read = read_headers(headers).map_err(refused)?;
    if read.is_undefined() {
        return Err(Error::wrong_type("ttlFromHeaders headers", &describe(headers), "a Headers (response.headers) or a plain object of header strings"));
    }
    let now = match now.as_f64() {
        Some(n) => now_secs(n)?,
        None if now.is_undefined() => now_ms() / 1000.0,
        None => return Err(Error::wrong_type("ttlFromHeaders now", &describe(now), "Unix seconds as a number, e.g. Date.now() / 1000, or nothing for the clock")),
    };
    let read = Array::from(&read);
    let [cache_control, age, expires, date] = [0, 1, 2, 3].map(|i| read.get(i).as_string());
    let f = Fields { cache_control: cache_control.as_deref(), age: age.as_deref(), expires: expires.as_deref(), date: date.as_deref() };
    Ok(ttl_secs(&f, now))
}
