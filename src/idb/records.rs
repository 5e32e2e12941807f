//! The records the object stores hold, as typed structs that serde-wasm-bindgen converts. A
//! user's key, value, document or event is kept as the JS value it is
//! (`serde_wasm_bindgen::preserve`), so IndexedDB's structured clone stores it unchanged. Entry,
//! document and archive records are read back a field at a time, each field one getter call.

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::core::entry::{Expiry, Idle, NEVER_MS};
use crate::core::error::{Error, Result};

/// A key-value entry in `entries`, keyed `[e, k]` (written by serde-wasm-bindgen, read back by
/// [`EntryRecord::read`]).
#[derive(Debug, Serialize)]
pub struct EntryRecord {
    /// The key (a string or a number).
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub k: JsValue,
    /// The expiry, Unix ms; `Infinity` for never.
    pub e: f64,
    /// The value.
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub v: JsValue,
    /// An idle entry's window, ms (absent on other entries).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub i: Option<f64>,
    /// An idle entry's absolute cap, Unix ms (absent without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c: Option<f64>,
}

impl EntryRecord {
    /// The record of `k` with value `v` and expiry `x`.
    pub fn new(k: JsValue, v: JsValue, x: Expiry) -> EntryRecord {
        let i = x.idle.map(|i| i.window_ms);
        let c = x.idle.map(|i| i.cap_ms).filter(|&c| c != NEVER_MS);
        EntryRecord { k, e: x.e, v, i, c }
    }

    /// Its expiry, with an idle entry's window and cap.
    pub fn expiry(&self) -> Expiry {
        Expiry { e: self.e, idle: self.i.map(|window_ms| Idle { window_ms, cap_ms: self.c.unwrap_or(NEVER_MS) }) }
    }
}

#[wasm_bindgen]
extern "C" {
    /// An `entries` record as IndexedDB gives it back, read a field at a time.
    type EntryJs;
    #[wasm_bindgen(method, getter)]
    fn k(this: &EntryJs) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn e(this: &EntryJs) -> f64;
    #[wasm_bindgen(method, getter)]
    fn v(this: &EntryJs) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn i(this: &EntryJs) -> Option<f64>;
    #[wasm_bindgen(method, getter)]
    fn c(this: &EntryJs) -> Option<f64>;
}

/// The expiry and value of a stored `entries` record, all a read of a known key needs: its
/// fields read one by one (no conversion of the whole record). An error names a record
/// without an expiry.
pub fn entry_read(js: &JsValue) -> Result<(Expiry, JsValue)> {
    let rec: &EntryJs = js.unchecked_ref();
    let e = number(rec.e(), "expiry (e)")?;
    let idle = rec.i().map(|window_ms| Idle { window_ms, cap_ms: rec.c().unwrap_or(NEVER_MS) });
    Ok((Expiry { e, idle }, rec.v()))
}

impl EntryRecord {
    /// A stored record read back, its key included ([`entry_read`]).
    pub fn read(js: &JsValue) -> Result<EntryRecord> {
        let (x, v) = entry_read(js)?;
        Ok(EntryRecord::new(js.unchecked_ref::<EntryJs>().k(), v, x))
    }
}

#[wasm_bindgen]
extern "C" {
    /// A `docs` or `archive` record as IndexedDB gives it back, read a field at a time.
    type ItemJs;
    #[wasm_bindgen(method, getter)]
    fn c(this: &ItemJs) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn r(this: &ItemJs) -> f64;
    #[wasm_bindgen(method, getter)]
    fn t(this: &ItemJs) -> f64;
    #[wasm_bindgen(method, getter)]
    fn i(this: &ItemJs) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn v(this: &ItemJs) -> JsValue;
}

/// `n`, or an error naming the record without it when it is not a number.
fn number(n: f64, what: &str) -> Result<f64> {
    if n.is_nan() {
        return Err(unreadable(JsValue::from_str(&format!("a record without a numeric {what}"))));
    }
    Ok(n)
}

impl DocRecord {
    /// A stored record read back, a field at a time.
    pub fn read(js: &JsValue) -> Result<DocRecord> {
        let rec: &ItemJs = js.unchecked_ref();
        let c = rec.c().as_string().ok_or_else(|| unreadable(JsValue::from_str("a document record without its collection (c)")))?;
        Ok(DocRecord { c, r: number(rec.r(), "reference time (r)")?, i: rec.i(), v: rec.v() })
    }
}

impl ArchiveRecord {
    /// A stored record read back, a field at a time.
    pub fn read(js: &JsValue) -> Result<ArchiveRecord> {
        let rec: &ItemJs = js.unchecked_ref();
        Ok(ArchiveRecord { c: rec.c(), t: number(rec.t(), "time (t)")?, i: rec.i(), v: rec.v(), k: 0 })
    }
}

/// A document in `docs`, keyed `[c, r, i]` (read back by [`DocRecord::read`]).
#[derive(Debug, Serialize)]
pub struct DocRecord {
    /// The collection.
    pub c: String,
    /// The reference time (the TTL field as Unix ms; `Infinity`: never expires).
    pub r: f64,
    /// The document's id.
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub i: JsValue,
    /// The document.
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub v: JsValue,
}

/// An archived entry or document in `archive`, keyed `[c, t, i]` (read back by
/// [`ArchiveRecord::read`]).
#[derive(Debug, Serialize)]
pub struct ArchiveRecord {
    /// `0` for the entries, the collection's name for its documents.
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub c: JsValue,
    /// The time the record was keyed by in the live data (expiry, reference).
    pub t: f64,
    /// The key or document id.
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub i: JsValue,
    /// The value or document.
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub v: JsValue,
    /// In a chain of tiers that hands off, the last hand-off tier the record passed (absent: 0,
    /// just archived).
    #[serde(skip_serializing_if = "is_zero")]
    pub k: u32,
}

fn is_zero(k: &u32) -> bool {
    *k == 0
}

/// A bucket of a time series in `buckets`, keyed `[s, l, k, t, q]`: up to 1000 events of one
/// meta value in one span.
#[derive(Debug, Serialize, Deserialize)]
pub struct BucketRecord {
    /// The series.
    pub s: String,
    /// The latest event's time, Unix ms.
    pub l: f64,
    /// The meta value's key (`""` without a meta field).
    pub k: String,
    /// The span's start, Unix ms.
    pub t: f64,
    /// Numbers the buckets of one meta value and span.
    pub q: f64,
    /// The meta value (`null` without one).
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub m: JsValue,
    /// How many events.
    pub n: u32,
    /// Their bytes as JSON (0 in buckets written before sizes were kept).
    #[serde(default)]
    pub b: f64,
    /// Each event's time, Unix ms, parallel to `ev`.
    pub ts: Vec<f64>,
    /// The events, an array.
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub ev: JsValue,
}

/// A stored record read back; an error names a record this version cannot read.
pub fn from_js<T: serde::de::DeserializeOwned>(js: JsValue) -> Result<T> {
    serde_wasm_bindgen::from_value(js).map_err(|e| unreadable(e.into()))
}

fn unreadable(e: JsValue) -> Error {
    Error::Storage { op: "reading a record".into(), name: "DataError".into(), message: super::thrown_text(&e) }
}
