//! Time series: events land in the expected buckets (read from raw IndexedDB), out-of-order
//! events find their bucket, query bounds are inclusive, expiry removes whole buckets and never
//! shows an expired event.

use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

/// 2026-11-01T00:00:00Z, a day boundary, in Unix seconds.
const T: u64 = 1_761_955_200;

#[wasm_bindgen_test]
async fn ten_thousand_events_over_three_sensors_land_in_twelve_buckets() {
    let name = db_name("buckets");
    let s = open_manual(&name).await;
    let ts = call(&s, "timeSeries", &["temps".into(), js("({ timeField: 'ts', metaField: 'sensor', granularity: 'minutes' })")]).await;
    // Event i: sensor s(i % 3), at T + 5 i seconds: 50 000 s, inside one day.
    let events = js(&format!("Array.from({{ length: 10000 }}, (_, i) => ({{ ts: new Date(({T} + 5 * i) * 1000), sensor: 's' + (i % 3), v: i }}))"));
    let written = call(&ts, "insertMany", &[events]).await;
    // 3 sensors x one day span; 3334 + 3333 + 3333 events, at most 1000 a bucket: 4 each.
    assert_eq!(num(&written), 12.0);
    let raw = raw_store(&name, "buckets", "getAll").await;
    assert_eq!(raw.length(), 12, "bucket records in IndexedDB");
    let sizes: Vec<f64> = raw.iter().map(|b| num(&field(&b, "n"))).collect();
    assert_eq!(sizes.iter().sum::<f64>(), 10_000.0);
    assert!(sizes.iter().all(|&n| n <= 1000.0));
    assert_eq!(num(&call(&ts, "count", &[]).await), 10_000.0);
    assert_eq!(num(&call(&ts, "bucketCount", &[]).await), 12.0);

    // Bounds are inclusive: s0 has an event every 15 s; [T, T + 90] holds 7 of them.
    let q = call(&ts, "query", &[js(&format!("({{ meta: 's0', from: {T}, to: {} }})", T + 90))]).await;
    let q: js_sys::Array = q.unchecked_into();
    let got: Vec<f64> = q.iter().map(|e| num(&field(&e, "v"))).collect();
    assert_eq!(got, [0.0, 3.0, 6.0, 9.0, 12.0, 15.0, 18.0]);
    // ISO bounds and no meta: every sensor.
    let iso = |secs: u64| js(&format!("new Date({secs} * 1000).toISOString()"));
    let opts = js_sys::Object::new();
    Reflect::set(&opts, &"from".into(), &iso(T + 5)).unwrap();
    Reflect::set(&opts, &"to".into(), &iso(T + 20)).unwrap();
    let q: js_sys::Array = call(&ts, "query", &[opts.into()]).await.unchecked_into();
    assert_eq!(q.iter().map(|e| num(&field(&e, "v"))).collect::<Vec<_>>(), [1.0, 2.0, 3.0, 4.0]);

    // Out of order: an s0 event at T + 2 goes into s0's open bucket for that day, and queries
    // return it in time order.
    call(&ts, "insert", &[js(&format!("({{ ts: new Date(({T} + 2) * 1000), sensor: 's0', v: -1 }})"))]).await;
    assert_eq!(raw_store(&name, "buckets", "getAll").await.length(), 12);
    let q: js_sys::Array = call(&ts, "query", &[js(&format!("({{ meta: 's0', from: {T}, to: {} }})", T + 15))]).await.unchecked_into();
    assert_eq!(q.iter().map(|e| num(&field(&e, "v"))).collect::<Vec<_>>(), [0.0, -1.0, 3.0]);
    // An event a day later opens a new span: one more bucket.
    call(&ts, "insert", &[js(&format!("({{ ts: ({T} + 86400), sensor: 's1', v: 'next day' }})"))]).await;
    assert_eq!(num(&call(&ts, "bucketCount", &[]).await), 13.0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn expiry_removes_whole_buckets_and_hides_expired_events_before() {
    let name = db_name("tsexpiry");
    let s = open_manual(&name).await;
    let ts = call(&s, "timeSeries", &["feed".into(), js("({ timeField: 't', metaField: 'src', granularity: 'seconds', expireAfter: '1 hour' })")]).await;
    // One event per source per 10 minutes over the last 5 hours (hour-aligned buckets).
    let events = js(
        "(() => { const now = Date.now(), out = []; \
           for (let m = 0; m < 300; m += 10) for (const src of ['a', 'b']) out.push({ t: new Date(now - m * 60000), src, m }); \
           return out; })()",
    );
    call(&ts, "insertMany", &[events]).await;
    let before = raw_store(&name, "buckets", "getAll").await.length();
    assert!(before >= 10, "5 hours x 2 sources: {before} buckets");
    // Before any reap: only the events of the last hour are visible (an hour ago exactly is expired).
    let live: js_sys::Array = call(&ts, "query", &[js("({})")]).await.unchecked_into();
    let minutes: Vec<f64> = live.iter().map(|e| num(&field(&e, "m"))).collect();
    assert_eq!(live.length(), 12, "{minutes:?}");
    assert!(minutes.iter().all(|&m| m < 60.0));
    assert_eq!(num(&call(&ts, "count", &[]).await), 12.0);
    // A pass removes whole buckets: those whose latest event is older than an hour.
    let report = call(&s, "reap", &[]).await;
    let removed = num(&field(&field(&report, "timeSeries"), "feed"));
    let after = raw_store(&name, "buckets", "getAll").await;
    assert_eq!(after.length() as f64, before as f64 - removed);
    assert!(after.length() <= 4, "at most the current and previous hour per source: {}", after.length());
    // Every remaining bucket still has a live event; the expired events inside them stay hidden.
    let cutoff = js_sys::Date::now() - 3_600_000.0;
    assert!(after.iter().all(|b| num(&field(&b, "l")) > cutoff));
    assert_eq!(num(&call(&ts, "count", &[]).await), 12.0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn series_definitions_and_bad_events() {
    let name = db_name("tsbad");
    let s = open_manual(&name).await;
    let e = try_call(&s, "timeSeries", &["x".into(), JsValue::UNDEFINED]).await.unwrap_err();
    assert_error(&e, "TypeError", &["does not exist yet", "timeField"]);
    let e = try_call(&s, "timeSeries", &["x".into(), js("({ timeField: 't', granularity: 'days' })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["granularity \"days\""]);
    let ts = call(&s, "timeSeries", &["x".into(), js("({ timeField: 't', metaField: 'm', expireAfter: 60 })")]).await;
    for (events, class, parts) in [
        ("[{ t: 1798761600 }, { t: Date.now() }]", "RangeError", vec!["insertMany event 1: \"t\"", "looks like milliseconds"]),
        ("[{ t: '2027-01-01' }, { m: 'no time' }]", "TypeError", vec!["insertMany event 1: \"t\" is undefined"]),
        ("[{ t: 'yesterday' }]", "TypeError", vec!["insertMany event 0: \"t\" \"yesterday\""]),
        ("[{ t: 1798761600, f: () => 1 }]", "TypeError", vec!["structured-cloneable"]),
    ] {
        let e = try_call(&ts, "insertMany", &[js(events)]).await.unwrap_err();
        assert_error(&e, class, &parts);
    }
    assert_eq!(raw_store(&name, "buckets", "getAll").await.length(), 0, "nothing written");
    // Reopening finds the definition; only expireAfter may change.
    call(&s, "close", &[]).await;
    let s = open_manual(&name).await;
    let ts = call(&s, "timeSeries", &["x".into(), JsValue::UNDEFINED]).await;
    assert_eq!(json(&field(&ts, "options")), r#"{"timeField":"t","metaField":"m","granularity":"seconds","bucketMaxSpanSeconds":3600,"bucketRoundingSeconds":3600,"maxBucketBytes":128000,"expireAfter":60}"#);
    let ts = call(&s, "timeSeries", &["x".into(), js("({ timeField: 't', metaField: 'm', expireAfter: 120 })")]).await;
    assert_eq!(field(&field(&ts, "options"), "expireAfter"), 120);
    let e = try_call(&s, "timeSeries", &["x".into(), js("({ timeField: 'time', metaField: 'm' })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["only expireAfter can change"]);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn a_hundred_thousand_events_take_about_a_hundred_records() {
    let name = db_name("ts100k");
    let s = open_manual(&name).await;
    let ts = call(&s, "timeSeries", &["m".into(), js("({ timeField: 't', metaField: 'k', granularity: 'minutes' })")]).await;
    // One event a second from T, round-robin over 4 keys: 100 000 s = day 1 (86 400 events,
    // 21 600 per key: 22 buckets) + 13 600 s of day 2 (3 400 per key: 4 buckets).
    let events = js(&format!("Array.from({{ length: 100000 }}, (_, i) => ({{ t: {T} + i, k: i % 4, x: i }}))"));
    let written = call(&ts, "insertMany", &[events]).await;
    assert_eq!(num(&written), 104.0);
    assert_eq!(raw_store(&name, "buckets", "getAllKeys").await.length(), 104, "IndexedDB records for 100 000 events");
    assert_eq!(num(&call(&ts, "count", &[]).await), 100_000.0);
    destroy(&name).await;
}

/// 2026-11-01T00:00:00Z, a multiple of ten minutes, an hour and a day.
const BASE: f64 = 1_793_491_200.0;

/// The `v` of each event a query returns, as JSON.
fn vs(events: &JsValue) -> String {
    json(&js_sys::Array::from(events).iter().map(|e| field(&e, "v")).collect::<js_sys::Array>().into())
}

#[wasm_bindgen_test]
async fn custom_bucket_spans_as_mongodb_s_bucket_max_span_and_rounding() {
    let name = db_name("customspan");
    let s = open_manual(&name).await;
    let ts = call(&s, "timeSeries", &["c".into(), js("({ timeField: 'at', metaField: 'm', bucketMaxSpanSeconds: 600, bucketRoundingSeconds: 600 })")]).await;
    let options = field(&ts, "options");
    assert!(field(&options, "granularity").is_null());
    assert_eq!((num(&field(&options, "bucketMaxSpanSeconds")), num(&field(&options, "maxBucketBytes"))), (600.0, 128_000.0));
    let events = format!("[0, 300, 599, 600, 1199].map((d, v) => ({{ at: {BASE} + d, m: 'a', v }}))");
    call(&ts, "insertMany", &[js(&events)]).await;
    assert_eq!(num(&call(&ts, "bucketCount", &[]).await), 2.0, "[0, 600) and [600, 1200)");
    assert_eq!(vs(&call(&ts, "query", &[js(&format!("({{ meta: 'a', from: {}, to: {} }})", BASE + 599.0, BASE + 600.0))]).await), "[2,3]");
    for (opts, class, part) in [
        ("({ timeField: 'at', bucketMaxSpanSeconds: 600, bucketRoundingSeconds: 300 })", "TypeError", "must be equal"),
        ("({ timeField: 'at', bucketMaxSpanSeconds: 600 })", "TypeError", "go together"),
        ("({ timeField: 'at', granularity: 'hours', bucketMaxSpanSeconds: 600, bucketRoundingSeconds: 600 })", "TypeError", "not both"),
        ("({ timeField: 'at', bucketMaxSpanSeconds: 0.5, bucketRoundingSeconds: 0.5 })", "RangeError", "bucketMaxSpanSeconds 0.5"),
        ("({ timeField: 'at', maxBucketBytes: 100 })", "RangeError", "maxBucketBytes 100"),
        ("({ timeField: 'at', maxBucketBytes: '1 MB' })", "TypeError", "maxBucketBytes \"1 MB\""),
    ] {
        let e = try_call(&s, "timeSeries", &["bad".into(), js(opts)]).await.unwrap_err();
        assert_error(&e, class, &[part]);
    }
    // The definition survives a reopen.
    call(&s, "close", &[]).await;
    let s = open_manual(&name).await;
    let ts = call(&s, "timeSeries", &["c".into()]).await;
    assert_eq!(num(&field(&field(&ts, "options"), "bucketMaxSpanSeconds")), 600.0);
    call(&ts, "insert", &[js(&format!("({{ at: {BASE} + 1, m: 'a', v: 5 }})"))]).await;
    assert_eq!(num(&call(&ts, "bucketCount", &[]).await), 2.0, "into its span's bucket");
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn granularity_goes_from_finer_to_coarser_and_old_buckets_stay_readable() {
    let name = db_name("setgranularity");
    let s = open_manual(&name).await;
    let ts = call(&s, "timeSeries", &["g".into(), js("({ timeField: 'at', metaField: 'm', granularity: 'seconds' })")]).await;
    call(&ts, "insertMany", &[js(&format!("[{{ at: {BASE} + 4000, m: 'a', v: 1 }}, {{ at: {BASE} + 4010, m: 'a', v: 2 }}]"))]).await;
    assert_eq!(num(&call(&ts, "bucketCount", &[]).await), 1.0);
    call(&ts, "setGranularity", &["hours".into()]).await;
    assert_eq!(field(&field(&ts, "options"), "granularity"), "hours");
    call(&ts, "insert", &[js(&format!("({{ at: {BASE} + 4020, m: 'a', v: 3 }})"))]).await;
    assert_eq!(num(&call(&ts, "bucketCount", &[]).await), 2.0, "new events by the new span");
    let q = format!("({{ meta: 'a', from: {}, to: {} }})", BASE + 4005.0, BASE + 5000.0);
    assert_eq!(vs(&call(&ts, "query", &[js(&q)]).await), "[2,3]", "the finer bucket is still found from inside its span");
    let e = try_call(&ts, "setGranularity", &["minutes".into()]).await.unwrap_err();
    assert_error(&e, "TypeError", &["granularity \"minutes\" is finer than its \"hours\"", "finer to coarser only"]);
    let e = try_call(&ts, "setGranularity", &["days".into()]).await.unwrap_err();
    assert_error(&e, "TypeError", &["granularity \"days\""]);
    // The app's own options, naming the finer granularity, still open it as it is now.
    call(&s, "close", &[]).await;
    let s = open_manual(&name).await;
    let ts = call(&s, "timeSeries", &["g".into(), js("({ timeField: 'at', metaField: 'm', granularity: 'seconds' })")]).await;
    assert_eq!(field(&field(&ts, "options"), "granularity"), "hours");
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn delete_many_removes_events_by_meta_and_time_and_empty_buckets_go() {
    let name = db_name("seriesdelete");
    let s = open_manual(&name).await;
    let ts = call(&s, "timeSeries", &["d".into(), js("({ timeField: 'at', metaField: 'm', granularity: 'seconds' })")]).await;
    let events = format!("[0, 10, 20, 3600, 3610].flatMap((d, i) => [{{ at: {BASE} + d, m: 'a', v: i }}, {{ at: {BASE} + d, m: 'b', v: 10 + i }}])");
    call(&ts, "insertMany", &[js(&events)]).await;
    assert_eq!(num(&call(&ts, "bucketCount", &[]).await), 4.0);
    let removed = call(&ts, "deleteMany", &[js(&format!("({{ meta: 'a', from: {}, to: {} }})", BASE + 5.0, BASE + 3600.0))]).await;
    assert_eq!(num(&removed), 3.0);
    assert_eq!(vs(&call(&ts, "query", &[js("({ meta: 'a' })")]).await), "[0,4]");
    assert_eq!(num(&call(&ts, "count", &[]).await), 7.0);
    // Every event of b in the second hour: its bucket goes.
    assert_eq!(num(&call(&ts, "deleteMany", &[js(&format!("({{ meta: 'b', from: {} }})", BASE + 3000.0))]).await), 2.0);
    assert_eq!(num(&call(&ts, "bucketCount", &[]).await), 3.0);
    assert_eq!(num(&call(&ts, "deleteMany", &[js("({ meta: 'nobody' })")]).await), 0.0);
    assert_eq!(num(&call(&ts, "deleteMany", &[js("({})")]).await), 5.0);
    assert_eq!(num(&call(&ts, "bucketCount", &[]).await), 0.0);
    let e = try_call(&ts, "deleteMany", &[js("({ from: 'yesterday' })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["\"yesterday\""]);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn a_bucket_closes_at_max_bucket_bytes_as_well_as_at_a_thousand_events() {
    let name = db_name("bucketbytes");
    let s = open_manual(&name).await;
    // About 310 bytes of JSON an event: three fit in 1 KiB.
    let small = call(&s, "timeSeries", &["small".into(), js("({ timeField: 'at', maxBucketBytes: 1024 })")]).await;
    assert_eq!(num(&field(&field(&small, "options"), "maxBucketBytes")), 1024.0);
    call(&small, "insertMany", &[js(&format!("Array.from({{ length: 10 }}, (_, i) => ({{ at: {BASE} + i, p: 'x'.repeat(280) }}))"))]).await;
    assert_eq!(num(&call(&small, "bucketCount", &[]).await), 4.0);
    // 2 KiB events under the default 125 KiB: 62 in the first bucket, 38 in the second.
    let big = call(&s, "timeSeries", &["big".into(), js("({ timeField: 'at' })")]).await;
    call(&big, "insertMany", &[js(&format!("Array.from({{ length: 100 }}, (_, i) => ({{ at: {BASE} + i, p: 'x'.repeat(2000) }}))"))]).await;
    assert_eq!(num(&call(&big, "bucketCount", &[]).await), 2.0);
    let buckets: js_sys::Array = raw_store(&name, "buckets", "getAll").await;
    let mut sizes: Vec<f64> = buckets.iter().filter(|b| field(b, "s") == "big").map(|b| num(&field(&b, "n"))).collect();
    sizes.sort_by(f64::total_cmp);
    assert_eq!(sizes, [37.0, 63.0]);
    assert_eq!(num(&call(&big, "count", &[]).await), 100.0);
    destroy(&name).await;
}
