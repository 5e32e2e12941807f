//! Errors at the JS edge: `TypeError` and `RangeError` for bad input, an `Error` whose `name`
//! says the cause (`QuotaExceededError`, `StoreClosedError`, `StorageError`) otherwise.

use wasm_bindgen::prelude::*;

use crate::core::error::Error;

/// The JS exception for `e`.
pub fn to_js(e: Error) -> JsValue {
    let message = e.to_string();
    match e {
        Error::InvalidType(_) => js_sys::TypeError::new(&message).into(),
        Error::OutOfRange(_) => js_sys::RangeError::new(&message).into(),
        _ => {
            let err = js_sys::Error::new(&message);
            err.set_name(e.js_name());
            err.into()
        }
    }
}
