//! The API's structured results (`ReapReport`, `Stats`, `TtlIndexInfo`, `TimeSeriesInfo`,
//! `ImportReport` in `pkg-template/index.d.ts`) as serde views of the core's and the store's
//! types, which serde-wasm-bindgen turns into plain JS objects: properties in field order,
//! `None` as `null`, name-to-count maps as objects.

use serde::ser::Serializer;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[cfg(feature = "full")]
use crate::core::buckets::SeriesOptions;
use crate::core::entry::{Expiry, NEVER_MS};
#[cfg(feature = "full")]
use crate::idb::DocRecord;
use crate::idb::EntryRecord;
use crate::core::reaper::{ReapReport, ReaperStats};
#[cfg(feature = "full")]
use crate::core::ttl_index::{TierAction, TtlIndex};
#[cfg(feature = "full")]
use crate::core::window::{Window, WindowShown};
use crate::store::{ImportReport, Store};

/// `v` as a plain JS object.
pub(super) fn to_js<T: Serialize>(v: &T) -> JsValue {
    let js = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true).serialize_maps_as_objects(true);
    // Cannot fail: the views hold no 64-bit integers and no map with keys other than strings.
    v.serialize(&js).unwrap_throw()
}

/// `ReapReport`: what one reaper pass did.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Report<'a> {
    removed: u32,
    remaining: u32,
    duration_ms: f64,
    collections: Counts<'a>,
    time_series: Counts<'a>,
    archived: u32,
    handed_off: u32,
    hand_off_failed: bool,
    archive_removed: u32,
}

impl<'a> From<&'a ReapReport> for Report<'a> {
    fn from(r: &'a ReapReport) -> Self {
        Report {
            removed: r.removed,
            remaining: r.remaining,
            duration_ms: r.duration_ms,
            collections: Counts(&r.collections),
            time_series: Counts(&r.buckets),
            archived: r.archived,
            handed_off: r.handed_off,
            hand_off_failed: r.hand_off_failed,
            archive_removed: r.archive_removed,
        }
    }
}

/// Counts by name, as an object `{ name: count }`.
struct Counts<'a>(&'a [(String, u32)]);

impl Serialize for Counts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(name, n)| (name, n)))
    }
}

/// `Stats`: the reaper's counters with the store's state. The 64-bit counters go as `f64`:
/// serde-wasm-bindgen refuses a `u64` above 2^53, which `as f64` rounds instead.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Stats<'a> {
    reaper_runs: f64,
    removed_total: f64,
    waiting: u32,
    /// Unix seconds.
    last_run_at: Option<f64>,
    last_run: Option<Report<'a>>,
    reaper_paused: bool,
    leader: bool,
    memory_bytes: f64,
    archived_total: f64,
    handed_off: f64,
    hand_off_waiting: u32,
    hand_off_failures: f64,
    evicted_total: f64,
    watched_keys: f64,
    /// Unix seconds.
    watch_timer_at: Option<f64>,
    idle_extended: f64,
    idle_waiting: u32,
    views: f64,
    view_entries: f64,
    /// Unix seconds.
    view_timer_at: Option<f64>,
}

impl<'a> Stats<'a> {
    /// The counters `s` of `store`'s reaper, with the store's state now.
    pub(super) fn new(s: &'a ReaperStats, store: &Store) -> Self {
        let waiting = s.waiting();
        let (watched_keys, watch_timer_at_ms) = store.watching();
        let (idle_extended, idle_waiting) = store.idle_counts();
        let (views, view_entries, view_timer_at_ms) = store.observing();
        Stats {
            reaper_runs: s.reaper_runs as f64,
            removed_total: s.removed_total as f64,
            waiting,
            last_run_at: s.last_run_end_ms.map(|ms| ms / 1000.0),
            last_run: s.last_run.as_ref().map(Report::from),
            reaper_paused: store.reaper_paused(),
            leader: store.is_leader(),
            memory_bytes: wasm_memory_bytes(),
            archived_total: s.archived_total as f64,
            handed_off: s.handed_off_total as f64,
            hand_off_waiting: if store.hands_off() { waiting } else { 0 },
            hand_off_failures: s.hand_off_failures as f64,
            evicted_total: s.evicted_total as f64,
            watched_keys,
            watch_timer_at: watch_timer_at_ms.map(|ms| ms / 1000.0),
            idle_extended,
            idle_waiting,
            views,
            view_entries,
            view_timer_at: view_timer_at_ms.map(|ms| ms / 1000.0),
        }
    }
}

/// `ttl(key, { detail: true })`: seconds left (`null`: no expiry), and an idle entry's window
/// (seconds) and cap (Unix seconds), `null` where none.
#[derive(Serialize)]
pub(super) struct TtlDetail {
    ttl: Option<f64>,
    idle: Option<f64>,
    cap: Option<f64>,
}

impl TtlDetail {
    pub(super) fn new(x: &Expiry, now_ms: f64) -> Self {
        let secs = |ms: f64| (ms != NEVER_MS).then_some(ms / 1000.0);
        TtlDetail {
            ttl: secs(x.e).map(|e| e - now_ms / 1000.0),
            idle: x.idle.map(|i| i.window_ms / 1000.0),
            cap: x.idle.and_then(|i| secs(i.cap_ms)),
        }
    }
}

/// An entry as a live view shows it: `{ key, value, expiresAt }` (Unix seconds, `null`: none),
/// with `at`, the expiry in Unix ms as stored (`Infinity`: none), which the views compare with
/// the clock (seconds times 1000 need not give it back exactly) and do not show.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ViewEntry {
    #[serde(with = "serde_wasm_bindgen::preserve")]
    key: JsValue,
    #[serde(with = "serde_wasm_bindgen::preserve")]
    value: JsValue,
    expires_at: Option<f64>,
    at: f64,
}

/// `rec` as a view shows it.
pub(super) fn view_entry(rec: &EntryRecord) -> JsValue {
    to_js(&ViewEntry { key: rec.k.clone(), value: rec.v.clone(), expires_at: (rec.e != NEVER_MS).then_some(rec.e / 1000.0), at: rec.e })
}

#[cfg(feature = "full")]
/// A document as a collection's live view shows it: its id as `key`; `expiresAt` its reference
/// plus the TTL index's window (`after`), `null` without either.
pub(super) fn doc_view_entry(rec: &DocRecord, after: Option<Window>) -> JsValue {
    let at = after.map(|w| w.after(rec.r)).filter(|at| at.is_finite());
    to_js(&ViewEntry { key: rec.i.clone(), value: rec.v.clone(), expires_at: at.map(|ms| ms / 1000.0), at: at.unwrap_or(NEVER_MS) })
}

/// The size of the module's WebAssembly memory (shared by every store of the page).
fn wasm_memory_bytes() -> f64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    memory.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as f64
}

#[cfg(feature = "full")]
/// A window as read back: seconds, or an ISO-8601 duration when it has months or years.
#[derive(Serialize)]
#[serde(untagged)]
enum Span {
    Secs(f64),
    Text(String),
}

#[cfg(feature = "full")]
impl From<Window> for Span {
    fn from(w: Window) -> Span {
        match w.shown() {
            WindowShown::Secs(s) => Span::Secs(s),
            WindowShown::Text(t) => Span::Text(t),
        }
    }
}

#[cfg(feature = "full")]
/// `TtlIndexInfo`: the TTL index as stored, `expireAfter` in seconds (an ISO-8601 duration with
/// months or years); `tiers` only with an archive tier.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct TtlIndexInfo<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    automatic: bool,
    expire_after: Span,
    unit: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    tiers: Option<Vec<Tier>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    schedule: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    paused: bool,
}

#[cfg(feature = "full")]
/// `CollectionStats`: `collection.stats()`, times in Unix seconds.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct CollectionStats {
    pub(super) live: u32,
    pub(super) expired: u32,
    pub(super) removed_total: u32,
    pub(super) last_run_at: Option<f64>,
    pub(super) next_run_at: Option<f64>,
    pub(super) select_ms: f64,
    pub(super) delete_ms: f64,
}

#[cfg(feature = "full")]
/// `TtlTierInfo`: `after` in seconds (or an ISO-8601 duration).
#[derive(Serialize)]
struct Tier {
    after: Span,
    action: &'static str,
    #[serde(rename = "handOff", skip_serializing_if = "std::ops::Not::not")]
    hand_off: bool,
}

#[cfg(feature = "full")]
impl<'a> From<&'a TtlIndex> for TtlIndexInfo<'a> {
    fn from(t: &'a TtlIndex) -> Self {
        let tier = |(after, action, hand_off): (Window, TierAction, bool)| Tier {
            after: after.into(),
            action: if action == TierAction::Archive { "archive" } else { "delete" },
            hand_off,
        };
        TtlIndexInfo {
            field: t.field_path(),
            automatic: t.automatic,
            expire_after: t.expire_after.into(),
            unit: t.unit.name(),
            tiers: (t.archive_until.is_some() || !t.hand_off.is_empty()).then(|| t.tiers().into_iter().map(tier).collect()),
            schedule: t.schedule.as_ref().map(|s| s.text.as_str()),
            paused: t.paused,
        }
    }
}

#[cfg(feature = "full")]
/// `TimeSeriesInfo`: a time series' options, `expireAfter` in seconds (or an ISO-8601 duration).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct SeriesInfo<'a> {
    time_field: &'a str,
    meta_field: Option<&'a str>,
    /// `null` with a custom span.
    granularity: Option<&'static str>,
    bucket_max_span_seconds: f64,
    bucket_rounding_seconds: f64,
    max_bucket_bytes: u32,
    expire_after: Option<Span>,
}

#[cfg(feature = "full")]
impl<'a> From<&'a SeriesOptions> for SeriesInfo<'a> {
    fn from(o: &'a SeriesOptions) -> Self {
        SeriesInfo {
            time_field: &o.time_field,
            meta_field: o.meta_field.as_deref(),
            granularity: (!matches!(o.granularity, crate::core::buckets::Granularity::Custom(_))).then(|| o.granularity.name()),
            bucket_max_span_seconds: o.granularity.span_ms() / 1000.0,
            bucket_rounding_seconds: o.granularity.span_ms() / 1000.0,
            max_bucket_bytes: o.max_bucket_bytes,
            expire_after: o.expire_after.map(Span::from),
        }
    }
}

/// `ImportReport`: what an import wrote and what it left out.
#[derive(Serialize)]
pub(super) struct Imported {
    entries: u32,
    documents: u32,
    events: u32,
    skipped: u32,
}

impl From<ImportReport> for Imported {
    fn from(r: ImportReport) -> Self {
        Imported { entries: r.entries, documents: r.documents, events: r.events, skipped: r.skipped }
    }
}
