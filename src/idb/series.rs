//! Time series in the shared `buckets` store (MongoDB time-series collections).
//!
//! A bucket record `{ s, l, k, t, q, m, n, ts, ev }` holds up to 1000 events of one meta value
//! (`k` its key, `m` the value) in one span starting at `t`; `q` numbers the buckets of the same
//! meta and span. It is keyed `[series, latest event ms, k, t, q]`, so the buckets whose latest
//! event is past `now - expireAfter` are one key range, removed whole by the reaper: one record
//! per bucket, not one per event. The unique index `by_bucket` (`[s, k, t, q]`) finds the bucket
//! an event belongs to.

use js_sys::{Array, Float64Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{IdbCursorDirection, IdbCursorWithValue, IdbKeyRange, IdbObjectStore};

use super::{index_named, Conn, Expired, BUCKETS, BY_BUCKET};
use crate::core::buckets::{fill, group, Granularity};
use crate::core::error::Result;
use crate::core::text::quote;

#[wasm_bindgen(module = "/src/idb/glue.js")]
extern "C" {
    #[wasm_bindgen(js_name = bucketRecord)]
    fn bucket_record(s: &str, k: &str, t: f64, q: f64, m: &JsValue, ts: &JsValue, ev: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = appendToBucket)]
    fn append_to_bucket(b: &JsValue, times: &Float64Array, events: &Array, from: u32, to: u32) -> JsValue;
    #[wasm_bindgen(js_name = bucketPart)]
    fn bucket_part(b: &JsValue, name: &str) -> JsValue;
    #[wasm_bindgen(js_name = eventsIn)]
    fn events_in(buckets: &Array, from: f64, to: f64, cutoff: f64) -> Array;
    #[wasm_bindgen(js_name = countEvents)]
    fn count_events(buckets: &Array, cutoff: f64) -> u32;
}

/// Events to insert, with their times and meta keys already read and validated.
#[derive(Debug)]
pub struct EventsIn {
    /// The events, as given.
    pub events: Array,
    /// Each event's time, Unix ms.
    pub times_ms: Vec<f64>,
    /// Each event's meta key (`""` without a meta field).
    pub meta_keys: Vec<String>,
    /// Each event's meta value (`null` without one).
    pub metas: Array,
}

fn arr(items: &[JsValue]) -> JsValue {
    items.iter().collect::<Array>().into()
}

fn s_key(s: &str) -> JsValue {
    arr(&[s.into()])
}

fn s_end(s: &str) -> JsValue {
    arr(&[s.into(), Array::new().into()])
}

impl Conn {
    fn bound(&self, op: &str, lower: &JsValue, lower_open: bool, upper: &JsValue) -> Result<IdbKeyRange> {
        self.js(op, IdbKeyRange::bound_with_lower_open_and_upper_open(lower, upper, lower_open, false))
    }

    /// Appends events to their buckets (creating buckets as needed) in one transaction; returns
    /// how many bucket records were written.
    pub async fn insert_events(&self, s: &str, input: &EventsIn, granularity: Granularity) -> Result<u32> {
        let op = "inserting events";
        self.check_events(s, input).await?;
        let (tx, store) = self.write_tx(op, BUCKETS, input.events.length())?;
        let written = self.insert_events_in(op, &store, s, input, granularity).await?;
        self.commit(op, tx).await?;
        Ok(written)
    }

    pub(super) async fn check_events(&self, s: &str, input: &EventsIn) -> Result<()> {
        let events = JsValue::from(&input.events);
        self.check_storable([(&JsValue::UNDEFINED, &events)], |_| format!("an event of time series {}", quote(s))).await
    }

    /// The requests of `insert_events`, in a transaction the caller commits.
    pub(super) async fn insert_events_in(
        &self,
        op: &str,
        store: &IdbObjectStore,
        s: &str,
        input: &EventsIn,
        granularity: Granularity,
    ) -> Result<u32> {
        let pairs: Vec<(String, f64)> = input.meta_keys.iter().cloned().zip(input.times_ms.iter().copied()).collect();
        let groups = group(&pairs, granularity);
        let by_bucket = index_named(&store, BY_BUCKET)?;
        // The last bucket of every (meta, span), found all at once.
        let lookups = groups
            .iter()
            .map(|g| {
                let lower = arr(&[s.into(), g.meta_key.as_str().into(), g.start_ms.into()]);
                let upper = arr(&[s.into(), g.meta_key.as_str().into(), g.start_ms.into(), Array::new().into()]);
                let range = self.bound(op, &lower, false, &upper)?;
                self.js(op, by_bucket.open_cursor_with_range_and_direction(range.as_ref(), IdbCursorDirection::Prev))
            })
            .collect::<Result<Vec<_>>>()?;
        if let Some(last) = lookups.last() {
            self.settle(op, last).await?;
        }
        let mut written = 0;
        for (g, lookup) in groups.iter().zip(&lookups) {
            let cursor = self.js(op, lookup.result())?.dyn_into::<IdbCursorWithValue>().ok();
            let last = match &cursor {
                Some(c) => Some((self.js(op, c.value())?, self.js(op, c.primary_key())?)),
                None => None,
            };
            let (in_last, last_q) = match &last {
                Some((b, _)) => (bucket_part(b, "n").as_f64().unwrap_or(0.0) as u32, bucket_part(b, "q").as_f64().unwrap_or(0.0)),
                None => (0, -1.0),
            };
            let times: Float64Array = g.events.iter().map(|&i| input.times_ms[i]).collect::<Vec<_>>().as_slice().into();
            let events: Array = g.events.iter().map(|&i| input.events.get(i as u32)).collect();
            let meta = input.metas.get(g.events[0] as u32);
            let mut from = 0u32;
            for (n, size) in fill(in_last, g.events.len()).into_iter().enumerate() {
                if size == 0 {
                    continue;
                }
                let to = from + size as u32;
                let (onto, q) = match (&last, n) {
                    (Some((b, pk)), 0) => {
                        // The bucket's key holds its latest time, which may change: move it.
                        self.js(op, store.delete(pk))?;
                        (b.clone(), last_q)
                    }
                    // New buckets continue the sequence of the span's last one (or start at 0).
                    _ => (JsValue::UNDEFINED, last_q.max(0.0) + n as f64),
                };
                let parts = append_to_bucket(&onto, &times, &events, from, to);
                let rec = bucket_record(s, &g.meta_key, g.start_ms, q, &meta, &bucket_part(&parts, "ts"), &bucket_part(&parts, "ev"));
                store.put(&rec).map_err(|e| self.clone_error(&format!("an event of time series {}", quote(s)), e))?;
                written += 1;
                from = to;
            }
        }
        Ok(written)
    }

    /// Live events (time after `cutoff`) with time in `[from_ms, to_ms]`, oldest first; only the
    /// buckets of `meta_key` when given.
    pub async fn query_events(
        &self,
        s: &str,
        meta_key: Option<&str>,
        from_ms: f64,
        to_ms: f64,
        cutoff: f64,
        granularity: Granularity,
    ) -> Result<Array> {
        let op = "querying events";
        let store = self.read(op, BUCKETS)?;
        let req = match meta_key {
            Some(k) => {
                let start = if from_ms.is_finite() { granularity.bucket_start_ms(from_ms) } else { from_ms };
                let lower = arr(&[s.into(), k.into(), start.into()]);
                let upper = arr(&[s.into(), k.into(), to_ms.into(), Array::new().into()]);
                let range = self.bound(op, &lower, false, &upper)?;
                index_named(&store, BY_BUCKET)?.get_all_with_key(range.as_ref())
            }
            None => {
                // Buckets whose latest event is before `from` hold nothing in range.
                let lower = arr(&[s.into(), from_ms.max(cutoff).into()]);
                let range = self.bound(op, &lower, false, &s_end(s))?;
                store.get_all_with_key(range.as_ref())
            }
        };
        let buckets: Array = self.settle(op, &self.js(op, req)?).await?.into();
        Ok(events_in(&buckets, from_ms, to_ms, cutoff))
    }

    /// Number of live events.
    pub async fn count_series_events(&self, s: &str, cutoff: f64) -> Result<u32> {
        let op = "counting events";
        let store = self.read(op, BUCKETS)?;
        let lower = arr(&[s.into(), cutoff.into(), Array::new().into()]);
        let range = self.bound(op, &lower, true, &s_end(s))?;
        let buckets: Array = self.settle(op, &self.js(op, store.get_all_with_key(range.as_ref()))?).await?.into();
        Ok(count_events(&buckets, cutoff))
    }

    /// Number of bucket records stored for `s`, expired or not.
    pub async fn count_buckets(&self, s: &str) -> Result<u32> {
        let op = "counting buckets";
        let store = self.read(op, BUCKETS)?;
        let range = self.bound(op, &s_key(s), false, &s_end(s))?;
        self.count_in(op, &store, &range).await
    }

    /// Every bucket record of `s` (for export).
    pub async fn all_buckets(&self, s: &str) -> Result<Array> {
        let op = "reading buckets";
        let store = self.read(op, BUCKETS)?;
        let range = self.bound(op, &s_key(s), false, &s_end(s))?;
        Ok(self.settle(op, &self.js(op, store.get_all_with_key(range.as_ref()))?).await?.into())
    }

    /// Removes every bucket of `s`.
    pub async fn clear_series(&self, s: &str) -> Result<()> {
        let op = "clearing a time series";
        let (tx, store) = self.write_tx(op, BUCKETS, u32::MAX)?;
        self.js(op, store.delete(self.bound(op, &s_key(s), false, &s_end(s))?.as_ref()))?;
        self.commit(op, tx).await
    }
}

impl Expired {
    /// The buckets of time series `s` whose latest event is at or before `cutoff`: whole buckets.
    pub fn buckets(s: &str, cutoff: f64) -> Self {
        Expired { store: BUCKETS, op: "reaping buckets", lower: s_key(s), upper: arr(&[s.into(), cutoff.into(), Array::new().into()]), part: 0, offer: None }
    }
}
