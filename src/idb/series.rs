//! Time series in the shared `buckets` store (MongoDB time-series collections).
//!
//! A bucket record `{ s, l, k, t, q, m, n, ts, ev }` holds up to 1000 events of one meta value
//! (`k` its key, `m` the value) in one span starting at `t`; `q` numbers the buckets of the same
//! meta and span. It is keyed `[series, latest event ms, k, t, q]`, so the buckets whose latest
//! event is past `now - expireAfter` are one key range, removed whole by the reaper: one record
//! per bucket, not one per event. The unique index `by_bucket` (`[s, k, t, q]`) finds the bucket
//! an event belongs to.

use indexed_db_futures::object_store::ObjectStore;
use indexed_db_futures::KeyRange;
use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::records::{from_js, BucketRecord};
use super::runner::{req, Ask, Run};
use super::schema::{BUCKETS, BY_BUCKET};
use super::{Conn, Expired};
use crate::core::buckets::{fill, group, SeriesOptions};
use crate::core::error::Result;
use crate::core::text::quote;

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
    /// Each event's bytes as JSON (what closes a bucket at `maxBucketBytes`).
    pub sizes: Vec<f64>,
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

/// Every bucket of series `s`.
fn all_of(s: &str) -> KeyRange<JsValue> {
    req::range(s_key(s), false, s_end(s), false)
}

/// The buckets of `s` that may hold events at or after `from_ms` and (with a meta key) at or
/// before `to_ms`: by `by_bucket` for one meta value, where a bucket starts less than a span
/// before its first event (`span_ms`, the longest a bucket of the series spans: granularity
/// only grows), else by primary key, whose latest event is at or after `from_ms`.
fn bucket_range(s: &str, meta_key: Option<&str>, from_ms: f64, to_ms: f64, span_ms: f64) -> KeyRange<JsValue> {
    match meta_key {
        Some(k) => {
            let lower = arr(&[s.into(), k.into(), (from_ms - span_ms).into()]);
            req::range(lower, true, arr(&[s.into(), k.into(), to_ms.into(), Array::new().into()]), false)
        }
        None => req::range(arr(&[s.into(), from_ms.into()]), false, s_end(s), false),
    }
}

impl Conn {
    /// Removes the events of `s` with time in `[from_ms, to_ms]` (of one meta value when given)
    /// in one transaction: each bucket holding some is written again without them, or removed
    /// when none is left. Returns how many live ones (time after `cutoff`) were removed.
    pub async fn delete_events(&self, s: &str, meta_key: Option<&str>, from_ms: f64, to_ms: f64, cutoff: f64, span_ms: f64) -> Result<u32> {
        let run = self.begin("deleting events", &[BUCKETS], true, 0)?;
        let store = run.store(BUCKETS)?;
        let range = bucket_range(s, meta_key, from_ms, to_ms, span_ms);
        let found = match meta_key {
            Some(_) => run.wait(&mut run.ask(&run.check(store.index(BY_BUCKET))?, Ask::All(Some(range), None))?).await?,
            None => run.wait(&mut run.ask(&store, Ask::All(Some(range), None))?).await?,
        };
        let mut removed = 0;
        let mut wrote = false;
        for b in found.unchecked_into::<Array>().iter() {
            let b: BucketRecord = from_js(b)?;
            let gone = |t: f64| t >= from_ms && t <= to_ms;
            if !b.ts.iter().any(|&t| gone(t)) {
                continue;
            }
            removed += b.ts.iter().filter(|&&t| gone(t) && t > cutoff).count() as u32;
            run.delete(&store, arr(&[b.s.as_str().into(), b.l.into(), b.k.as_str().into(), b.t.into(), b.q.into()]))?;
            wrote = true;
            let ev: &Array = b.ev.unchecked_ref();
            let kept: Vec<usize> = (0..b.ts.len()).filter(|&i| !gone(b.ts[i])).collect();
            if kept.is_empty() {
                continue;
            }
            let ts: Vec<f64> = kept.iter().map(|&i| b.ts[i]).collect();
            let rec = BucketRecord {
                l: ts.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                n: kept.len() as u32,
                // The bytes left, in proportion (a bucket keeps no size per event).
                b: b.b * kept.len() as f64 / b.ts.len() as f64,
                ev: kept.iter().map(|&i| ev.get(i as u32)).collect::<Array>().into(),
                ts,
                ..b
            };
            run.put(&store, &rec).map_err(|e| self.clone_error(&format!("an event of time series {}", quote(s)), e))?;
        }
        if !wrote {
            run.wrote_nothing();
            return Ok(0);
        }
        run.done().await?;
        Ok(removed)
    }

    /// Appends events to their buckets (creating buckets as needed) in one transaction; returns
    /// how many bucket records were written.
    pub async fn insert_events(&self, s: &str, input: &EventsIn, options: &SeriesOptions) -> Result<u32> {
        self.check_events(s, input).await?;
        let run = self.begin("inserting events", &[BUCKETS], true, input.events.length())?;
        let store = run.store(BUCKETS)?;
        let written = self.insert_events_in(&run, &store, s, input, options).await?;
        run.done().await?;
        Ok(written)
    }

    pub(super) async fn check_events(&self, s: &str, input: &EventsIn) -> Result<()> {
        let events = JsValue::from(&input.events);
        self.check_storable([(&JsValue::UNDEFINED, &events)], |_| format!("an event of time series {}", quote(s))).await
    }

    /// The requests of `insert_events`, in a transaction the caller commits.
    pub(super) async fn insert_events_in(&self, run: &Run<'_>, store: &ObjectStore<'_>, s: &str, input: &EventsIn, options: &SeriesOptions) -> Result<u32> {
        let pairs: Vec<(String, f64)> = input.meta_keys.iter().cloned().zip(input.times_ms.iter().copied()).collect();
        let groups = group(&pairs, options.granularity);
        let by_bucket = run.check(store.index(BY_BUCKET))?;
        // The last bucket of every (meta, span), found all at once: `[bucket, primary key]`.
        let mut lookups = Vec::with_capacity(groups.len());
        for g in &groups {
            let lower = arr(&[s.into(), g.meta_key.as_str().into(), g.start_ms.into()]);
            let upper = arr(&[s.into(), g.meta_key.as_str().into(), g.start_ms.into(), Array::new().into()]);
            lookups.push(run.last(&by_bucket, req::range(lower, false, upper, false))?);
        }
        let mut found = Vec::with_capacity(lookups.len());
        for last in run.results(&mut lookups).await? {
            found.push(if last.is_undefined() {
                None
            } else {
                let last: &Array = last.unchecked_ref();
                Some((from_js::<BucketRecord>(last.get(0))?, last.get(1)))
            });
        }
        let mut written = 0;
        for (g, last) in groups.iter().zip(found) {
            let (in_last, bytes_last, last_q) = last.as_ref().map_or((0, 0.0, -1.0), |(b, _)| (b.n, b.b, b.q));
            let mut last = last;
            let mut from = 0;
            let sizes: Vec<f64> = g.events.iter().map(|&i| input.sizes.get(i).copied().unwrap_or(0.0)).collect();
            for (n, size) in fill(in_last, bytes_last, &sizes, options.max_bucket_bytes).into_iter().enumerate() {
                if size == 0 {
                    continue;
                }
                let to = from + size;
                let (mut ts, ev, q, mut bytes) = match (last.take(), n) {
                    (Some((b, pk)), 0) => {
                        // The bucket's key holds its latest time, which may change: move it.
                        run.delete(store, pk)?;
                        (b.ts, b.ev.unchecked_into::<Array>().slice(0, b.n), last_q, b.b)
                    }
                    // New buckets continue the sequence of the span's last one (or start at 0).
                    _ => (Vec::new(), Array::new(), last_q.max(0.0) + n as f64, 0.0),
                };
                for (&i, size) in g.events[from..to].iter().zip(&sizes[from..to]) {
                    ts.push(input.times_ms[i]);
                    ev.push(&input.events.get(i as u32));
                    bytes += size;
                }
                let rec = BucketRecord {
                    s: s.to_owned(),
                    l: ts.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    k: g.meta_key.clone(),
                    t: g.start_ms,
                    q,
                    m: input.metas.get(g.events[0] as u32),
                    n: ev.length(),
                    b: bytes,
                    ts,
                    ev: ev.into(),
                };
                let items = rec.n;
                run.put(store, &rec).map_err(|e| self.clone_error(&format!("an event of time series {}", quote(s)), e))?.track(items);
                written += 1;
                from = to;
            }
        }
        Ok(written)
    }

    /// Every bucket of `s` in `range` (of `by_bucket` with `index`, else of the store).
    async fn buckets(&self, op: &'static str, range: KeyRange<JsValue>, index: bool) -> Result<Vec<BucketRecord>> {
        let all: Array = self.ask(op, BUCKETS, index.then_some(BY_BUCKET), Ask::All(Some(range), None)).await?.unchecked_into();
        let mut buckets = Vec::with_capacity(all.length() as usize);
        for b in all.iter() {
            buckets.push(from_js(b)?);
        }
        Ok(buckets)
    }

    /// Live events (time after `cutoff`) with time in `[from_ms, to_ms]`, oldest first; only the
    /// buckets of `meta_key` when given.
    pub async fn query_events(&self, s: &str, meta_key: Option<&str>, from_ms: f64, to_ms: f64, cutoff: f64, span_ms: f64) -> Result<Array> {
        let buckets = self.buckets("querying events", bucket_range(s, meta_key, from_ms.max(cutoff), to_ms, span_ms), meta_key.is_some()).await?;
        let mut hits: Vec<(f64, JsValue)> = Vec::new();
        for b in &buckets {
            let ev: &Array = b.ev.unchecked_ref();
            for (i, &t) in b.ts.iter().enumerate() {
                if t >= from_ms && t <= to_ms && t > cutoff {
                    hits.push((t, ev.get(i as u32)));
                }
            }
        }
        hits.sort_by(|a, b| a.0.total_cmp(&b.0));
        Ok(hits.into_iter().map(|(_, e)| e).collect())
    }

    /// Number of live events.
    pub async fn count_series_events(&self, s: &str, cutoff: f64) -> Result<u32> {
        let live = req::range(arr(&[s.into(), cutoff.into(), Array::new().into()]), true, s_end(s), false);
        let buckets = self.buckets("counting events", live, false).await?;
        Ok(buckets.iter().map(|b| b.ts.iter().filter(|&&t| t > cutoff).count() as u32).sum())
    }

    /// Number of bucket records stored for `s`, expired or not.
    pub async fn count_buckets(&self, s: &str) -> Result<u32> {
        Ok(self.ask("counting buckets", BUCKETS, None, Ask::Count(Some(all_of(s)))).await?.as_f64().unwrap_or(0.0) as u32)
    }

    /// Up to `limit` bucket records of `s`, expired or not, in primary-key order after `after`
    /// (from the first without): a page of an export.
    pub async fn bucket_page(&self, s: &str, after: Option<JsValue>, limit: u32) -> Result<Array> {
        let range = match after {
            Some(pk) => req::range(pk, true, s_end(s), false),
            None => all_of(s),
        };
        Ok(self.ask("reading buckets", BUCKETS, None, Ask::All(Some(range), Some(limit))).await?.unchecked_into())
    }

    /// Removes every bucket of `s`.
    pub async fn clear_series(&self, s: &str) -> Result<()> {
        self.change("clearing a time series", BUCKETS, Some(all_of(s))).await
    }
}

impl Expired {
    /// The buckets of time series `s` whose latest event is at or before `cutoff`: whole buckets.
    pub fn buckets(s: &str, cutoff: f64) -> Self {
        Expired::range(BUCKETS, "reaping buckets", s_key(s), arr(&[s.into(), cutoff.into(), Array::new().into()]), 0)
    }
}
