//! Collections with a TTL index: every row of the semantics table, `setExpireAfter` without
//! rewriting documents, one TTL index per collection, definitions that survive a reopen.

use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

/// Ids of the live documents, in id order.
async fn live_ids(c: &JsValue) -> Vec<String> {
    let docs: js_sys::Array = call(c, "values", &[]).await.unchecked_into();
    docs.iter().map(|d| field(&d, "id").as_string().unwrap()).collect()
}

#[wasm_bindgen_test]
async fn every_unit_reads_numeric_references() {
    let name = db_name("units");
    let s = open_manual(&name).await;
    // (unit, factor from seconds)
    for (unit, factor) in [("s", "1"), ("ms", "1e3"), ("us", "1e6"), ("ns", "1e9")] {
        let c = call(&s, "collection", &[format!("c_{unit}").into(), js(&format!("({{ ttlIndex: {{ field: 'at', expireAfter: 60, unit: '{unit}' }} }})"))]).await;
        call(&c, "putMany", &[js(&format!("[{{ id: 'old', at: (Date.now() / 1000 - 120) * {factor} }}, {{ id: 'new', at: (Date.now() / 1000) * {factor} }}]"))]).await;
        assert_eq!(live_ids(&c).await, ["new"], "unit {unit}");
        assert!(call(&c, "get", &["old".into()]).await.is_undefined(), "unit {unit}");
        assert_eq!(num(&call(&c, "count", &[]).await), 1.0);
    }
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn every_field_form_of_the_semantics_table() {
    let name = db_name("semantics");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["events".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    let docs = js(
        "(() => { const old = Date.now() - 120000, now = Date.now(); \
           const iso = (ms) => new Date(ms).toISOString(); \
           const offset = (ms) => iso(ms + 2 * 3600000).replace('Z', '+02:00'); \
           return [ \
             { id: 'iso-z', at: iso(old) }, { id: 'iso-offset', at: offset(old) }, { id: 'iso-naive', at: iso(old).slice(0, 19) }, \
             { id: 'iso-fresh', at: iso(now) }, { id: 'date-old', at: new Date(old) }, { id: 'date-fresh', at: new Date(now) }, \
             { id: 'array-earliest', at: [new Date(now), iso(old), 'junk'] }, { id: 'array-fresh', at: [new Date(now), now / 1000 + 999] }, \
             { id: 'missing' }, { id: 'null', at: null }, { id: 'not-a-date', at: 'not a date' }, { id: 'object', at: {} }, \
             { id: 'bool', at: true }, { id: 'nan', at: NaN } ]; })()",
    );
    call(&c, "putMany", &[docs]).await;
    let want = ["array-fresh", "bool", "date-fresh", "iso-fresh", "missing", "nan", "not-a-date", "null", "object"];
    assert_eq!(live_ids(&c).await, want);
    assert_eq!(num(&call(&c, "count", &[]).await), want.len() as f64);
    assert!(call(&c, "get", &["array-earliest".into()]).await.is_undefined(), "an array expires on its earliest date");
    // The reaper removes the expired documents physically and reports them by collection.
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&field(&report, "collections"), "events")), 5.0);
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), want.len() as u32);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn expire_after_zero_makes_the_field_an_absolute_expiry() {
    let name = db_name("absolute");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["sessions".into(), js("({ keyPath: 'sid', ttlIndex: { field: 'expiresAt', expireAfter: 0 } })")]).await;
    call(&c, "putMany", &[js("[{ sid: 'a', expiresAt: new Date(Date.now() - 1000) }, { sid: 'b', expiresAt: new Date(Date.now() + 3600000) }, { sid: 'c' }]")]).await;
    let docs: js_sys::Array = call(&c, "values", &[]).await.unchecked_into();
    let ids: Vec<String> = docs.iter().map(|d| field(&d, "sid").as_string().unwrap()).collect();
    assert_eq!(ids, ["b", "c"]);
    assert_eq!(field(&call(&c, "ttlIndex", &[]).await, "expireAfter"), 0);
    destroy(&name).await;
}

/// Resolves `true` if `setExpireAfter(secs)` completes while a plain-IndexedDB transaction holds
/// the `docs` store, `false` if it had to wait for that lock to be released. The lock is
/// readonly: a readwrite transaction on `docs` would wait for it in every engine, while
/// `setExpireAfter` (which writes only `meta`) must not. (A readwrite lock would prove nothing in
/// Firefox, which runs one readwrite transaction per database at a time, whatever its stores.)
async fn expire_after_while_docs_are_locked(name: &str, c: &JsValue, secs: u32) -> bool {
    let lock = hold_store(name, "docs", "readonly").await;
    let done = std::cell::Cell::new(false);
    let set = async {
        let result = try_call(c, "setExpireAfter", &[secs.into()]).await;
        done.set(true);
        // Was the documents store still locked when setExpireAfter finished?
        (result, Reflect::get(&lock, &"released".into()).unwrap() != JsValue::TRUE)
    };
    // The lock is held until setExpireAfter is done, or for far longer than it needs on a
    // loaded machine (issue 39): one that waited for it would finish only after the release.
    let stop = async {
        until(LONG_MS, || done.get()).await;
        release(&lock).await;
    };
    let ((result, still_locked), _) = futures_join(set, stop).await;
    result.expect("setExpireAfter");
    still_locked
}

#[wasm_bindgen_test]
async fn set_expire_after_on_ten_thousand_documents_rewrites_none() {
    let name = db_name("collmod");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["log".into(), js("({ ttlIndex: { field: 'at', expireAfter: 2000000 } })")]).await;
    // Document i is i * 100 s old (so the test tolerates up to 50 s of its own running time).
    call(&c, "putMany", &[js("Array.from({ length: 10000 }, (_, i) => ({ id: i, at: Date.now() / 1000 - i * 100 }))")]).await;
    assert_eq!(num(&call(&c, "count", &[]).await), 10_000.0);
    let before = json(&raw_store(&name, "docs", "getAllKeys").await.into());
    // 500 050 s: documents 5001.. are older than that.
    assert!(expire_after_while_docs_are_locked(&name, &c, 500_050).await, "setExpireAfter waited for the documents store");
    assert_eq!(num(&call(&c, "count", &[]).await), 5_001.0);
    assert!(call(&c, "get", &[5_001.into()]).await.is_undefined());
    assert!(!call(&c, "get", &[5_000.into()]).await.is_undefined());
    assert_eq!(json(&raw_store(&name, "docs", "getAllKeys").await.into()), before, "no document record changed");
    // Wider again: documents come back (they were never removed).
    assert!(expire_after_while_docs_are_locked(&name, &c, 2_000_000).await);
    assert_eq!(num(&call(&c, "count", &[]).await), 10_000.0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn one_ttl_index_per_collection_and_dropping_it() {
    let name = db_name("oneindex");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    call(&c, "put", &[js("{ id: 1, at: Date.now() / 1000 - 120 }")]).await;
    // The same definition again is fine; another one is refused, naming the existing one.
    call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    let e = try_call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'other', expireAfter: 60 } })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["already has a TTL index on \"at\"", "setExpireAfter", "dropTtlIndex"]);
    assert!(call(&c, "get", &[1.into()]).await.is_undefined());
    assert_eq!(call(&c, "dropTtlIndex", &[]).await, JsValue::TRUE);
    assert!(call(&c, "ttlIndex", &[]).await.is_null());
    assert_eq!(json(&call(&c, "get", &[1.into()]).await), json(&field(&raw_store(&name, "docs", "getAll").await.get(0), "v")));
    assert_eq!(num(&field(&call(&s, "reap", &[]).await, "removed")), 0.0, "no TTL index: nothing expires");
    assert_eq!(call(&c, "dropTtlIndex", &[]).await, JsValue::FALSE);
    let e = try_call(&c, "setExpireAfter", &[10.into()]).await.unwrap_err();
    assert_error(&e, "TypeError", &["has no TTL index"]);
    // The same index back: keys unchanged, the document expires again.
    let before = json(&raw_store(&name, "docs", "getAllKeys").await.into());
    let c = call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    assert_eq!(json(&raw_store(&name, "docs", "getAllKeys").await.into()), before);
    assert!(call(&c, "get", &[1.into()]).await.is_undefined());
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn a_ttl_index_on_another_field_keys_documents_again() {
    let name = db_name("rekey");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["c".into(), JsValue::UNDEFINED]).await;
    call(&c, "putMany", &[js("[{ id: 'a', seen: new Date(Date.now() - 7200000) }, { id: 'b', seen: new Date() }]")]).await;
    assert_eq!(num(&call(&c, "count", &[]).await), 2.0, "no TTL index yet: nothing expires");
    let c = call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'seen', expireAfter: '1 hour' } })")]).await;
    assert_eq!(live_ids(&c).await, ["b"]);
    assert_eq!(field(&call(&c, "ttlIndex", &[]).await, "expireAfter"), 3600);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn collections_are_found_again_after_reopening() {
    let name = db_name("reopencoll");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["c".into(), js("({ keyPath: 'key', ttlIndex: { field: 'at', expireAfter: 30, unit: 'ms' } })")]).await;
    call(&c, "put", &[js("{ key: 'k', at: Date.now(), body: new Map([[1, 2]]) }")]).await;
    call(&s, "close", &[]).await;
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["c".into(), JsValue::UNDEFINED]).await;
    assert_eq!(field(&c, "keyPath"), "key");
    assert_eq!(json(&call(&c, "ttlIndex", &[]).await), r#"{"field":"at","expireAfter":30,"unit":"ms"}"#);
    let doc = call(&c, "get", &["k".into()]).await;
    assert!(field(&doc, "body").is_instance_of::<js_sys::Map>());
    let e = try_call(&s, "collection", &["c".into(), js("({ keyPath: 'id' })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["keyPath \"key\"", "cannot change"]);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn bad_documents_and_definitions_are_refused_with_nothing_written() {
    let name = db_name("baddocs");
    let s = open_manual(&name).await;
    for (opts, class, parts) in [
        ("({ ttlIndex: { field: 'at', expireAfter: -1 } })", "RangeError", vec!["ttlIndex.expireAfter -1"]),
        ("({ ttlIndex: { field: 'at', expireAfter: 1, unit: 'minutes' } })", "TypeError", vec!["\"minutes\""]),
        ("({ ttlIndex: { field: 'at' } })", "TypeError", vec!["needs expireAfter"]),
        ("({ ttlIndex: { feild: 'at', expireAfter: 1 } })", "TypeError", vec!["unknown option \"feild\""]),
        ("({ keyPath: 7 })", "TypeError", vec!["keyPath 7"]),
    ] {
        let e = try_call(&s, "collection", &["c".into(), js(opts)]).await.unwrap_err();
        assert_error(&e, class, &parts);
    }
    let c = call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    let e = try_call(&c, "putMany", &[js("[{ id: 1 }, { name: 'no id' }]")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["putMany document 1", "keyPath \"id\"", "key undefined"]);
    let e = try_call(&c, "put", &["a string".into()]).await.unwrap_err();
    assert_error(&e, "TypeError", &["document \"a string\"", "an object"]);
    let e = try_call(&c, "putMany", &[js("[{ id: 1 }, { id: 2, f: () => 1 }]")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["2", "structured-cloneable"]);
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn every_handle_sees_a_change_made_through_another() {
    let name = db_name("handles");
    let s = open_manual(&name).await;
    let a = call(&s, "collection", &["events".into(), js("({ ttlIndex: { field: 'at', expireAfter: 30 } })")]).await;
    let b = call(&s, "collection", &["events".into(), JsValue::UNDEFINED]).await;
    call(&a, "put", &[js("{ id: 1, at: Date.now() / 1000 - 10 }")]).await;
    call(&b, "setExpireAfter", &[5.into()]).await;
    assert_eq!(num(&call(&a, "count", &[]).await), 0.0, "a sees b's narrower window");
    assert_eq!(field(&call(&a, "ttlIndex", &[]).await, "expireAfter"), 5);
    assert_eq!(call(&b, "dropTtlIndex", &[]).await, JsValue::TRUE);
    // a must not quietly bring the dropped index back.
    let e = try_call(&a, "setExpireAfter", &[60.into()]).await.unwrap_err();
    assert_error(&e, "TypeError", &["has no TTL index"]);
    assert!(call(&b, "ttlIndex", &[]).await.is_null());
    assert_eq!(num(&call(&a, "count", &[]).await), 1.0);
    // The same for a time series' expireAfter.
    let t1 = call(&s, "timeSeries", &["t".into(), js("({ timeField: 't', expireAfter: 3600 })")]).await;
    call(&t1, "insert", &[js("({ t: new Date(Date.now() - 600000) })")]).await;
    let _t2 = call(&s, "timeSeries", &["t".into(), js("({ timeField: 't', expireAfter: 60 })")]).await;
    assert_eq!(num(&call(&t1, "count", &[]).await), 0.0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn collection_and_series_writes_fire_change_events() {
    let name = db_name("collchange");
    let s = open_manual(&name).await;
    let seen = listen(&s, "change");
    let c = call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    call(&c, "putMany", &[js("[{ id: 'x' }, { id: 'y' }]")]).await;
    call(&c, "delete", &["x".into()]).await;
    call(&c, "setExpireAfter", &[120.into()]).await;
    let t = call(&s, "timeSeries", &["t".into(), js("({ timeField: 't' })")]).await;
    call(&t, "insert", &[js("({ t: new Date() })")]).await;
    let got: Vec<String> = seen
        .iter()
        .map(|d| {
            let within = ["collection", "timeSeries"].iter().find_map(|w| field(&d, w).as_string().map(|n| format!("{w}:{n}"))).unwrap_or_default();
            format!("{within} {} {}", field(&d, "op").as_string().unwrap(), json(&field(&d, "keys")))
        })
        .collect();
    assert_eq!(
        got,
        [
            "collection:c createTtlIndex []",
            "collection:c put [\"x\",\"y\"]",
            "collection:c delete [\"x\"]",
            "collection:c setExpireAfter []",
            "timeSeries:t insert []",
        ]
    );
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn reads_and_deletes_by_id_see_only_live_documents_and_deletes_remove_expired_ones_too() {
    let name = db_name("colldelete");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    let old = "new Date(Date.now() - 120000)";
    call(&c, "putMany", &[js(&format!("[{{ id: 'live', at: new Date() }}, {{ id: 'gone', at: {old} }}, {{ id: 2, at: {old} }}, {{ id: 'never' }}]"))]).await;
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 4, "expired documents are stored until reaped");
    // getMany answers in the order asked, repeats included; expired and missing ids are undefined.
    let got: js_sys::Array = call(&c, "getMany", &[js("['never', 'gone', 'live', 2, 'nope', 'never']")]).await.unchecked_into();
    let ids: Vec<String> = got.iter().map(|d| if d.is_undefined() { "-".into() } else { field(&d, "id").as_string().unwrap() }).collect();
    assert_eq!(ids, ["never", "-", "live", "-", "-", "never"]);
    assert!((0..6).all(|i| js_sys::Reflect::has(&got, &i.into()) == Ok(true)), "a dense array, no holes");
    assert_eq!(call(&c, "delete", &["gone".into()]).await, JsValue::FALSE, "an expired document is not live");
    assert_eq!(call(&c, "delete", &["nope".into()]).await, JsValue::FALSE);
    // Duplicates count once; 2 is expired, 'never' has no date and never expires.
    assert_eq!(num(&call(&c, "deleteMany", &[js("['live', 2, 'live', 'never', 'nope']")]).await), 2.0);
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 0, "the expired ones were removed as well");
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn dotted_paths_reach_embedded_fields_in_collections_and_time_series() {
    let name = db_name("paths");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["events".into(), js("({ ttlIndex: { field: 'meta.createdAt', expireAfter: 60 } })")]).await;
    let docs = js(
        "(() => { const old = Date.now() / 1000 - 120, now = Date.now() / 1000; return [ \
           { id: 'old', meta: { createdAt: old } }, { id: 'fresh', meta: { createdAt: now } }, \
           { id: 'array', meta: [{ createdAt: now }, { createdAt: new Date(old * 1000) }] }, \
           { id: 'deep-array', meta: { createdAt: [now, old] } }, \
           { id: 'missing', meta: {} }, { id: 'no-meta' }, { id: 'meta-null', meta: null }, \
           { id: 'flat-name', 'meta.createdAt': old } ]; })()",
    );
    call(&c, "putMany", &[docs]).await;
    // A property literally named "meta.createdAt" is not the path: that document never expires.
    assert_eq!(live_ids(&c).await, ["flat-name", "fresh", "meta-null", "missing", "no-meta"]);
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&field(&report, "collections"), "events")), 3.0, "the reaper removes what the path dates");
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 5);
    // An update is read through the path too.
    call(&c, "update", &["fresh".into(), js("(d) => ({ ...d, meta: { createdAt: Date.now() / 1000 - 3600 } })")]).await;
    assert!(call(&c, "get", &["fresh".into()]).await.is_undefined());
    assert_eq!(field(&call(&c, "ttlIndex", &[]).await, "field"), "meta.createdAt");

    // Time series: the time and the meta value at paths.
    let ts = call(&s, "timeSeries", &["temps".into(), js("({ timeField: 't.at', metaField: 'm.sensor', expireAfter: 60 })")]).await;
    let events = js("[{ t: { at: Date.now() / 1000 - 120 }, m: { sensor: 'a' }, v: 1 }, { t: { at: Date.now() / 1000 }, m: { sensor: 'a' }, v: 2 }, \
                     { t: { at: new Date() }, m: { sensor: 'b' }, v: 3 }]");
    call(&ts, "insertMany", &[events]).await;
    let values = |events: JsValue| json(&js_sys::Array::from(&events).iter().map(|e| field(&e, "v")).collect::<js_sys::Array>().into());
    assert_eq!(values(call(&ts, "query", &[js("({ meta: 'a' })")]).await), "[2]");
    assert_eq!(values(call(&ts, "query", &[js("({ meta: 'b' })")]).await), "[3]");
    assert_eq!(num(&call(&ts, "count", &[]).await), 2.0);
    let e = try_call(&ts, "insert", &[js("({ at: Date.now() / 1000, m: { sensor: 'a' } })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["\"t.at\"", "every event needs its time"]);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn a_date_past_year_9999_is_refused_and_the_collection_stays_byte_for_byte() {
    let name = db_name("year58000");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    call(&c, "putMany", &[js("[{ id: 'keep', at: Date.now() / 1000, n: 1 }, { id: 'other', at: new Date(), n: 2 }]")]).await;
    let before = json(&raw_store(&name, "docs", "getAll").await.into());
    let refused = [
        ("put", js("({ id: 'x', at: Date.now() })"), vec!["document \"x\" of collection \"c\"", "ttlIndex.field \"at\"", "unit \"s\"", "after year 9999", "Date.now()", "unit: \"ms\"", "Nothing was written"]),
        ("putMany", js("[{ id: 'y', at: Date.now() / 1000 }, { id: 'keep', at: BigInt(Date.now()) * 1000000n }]"), vec!["document \"keep\"", "n, which read in unit \"s\"", "unit: \"ns\""]),
        ("putMany", js("[{ id: 'z', at: [Date.now() / 1000, Date.now() * 1000] }]"), vec!["document \"z\"", "unit: \"us\""]),
        ("put", js("({ id: 'w', at: new Date(8.64e15) })"), vec!["Date(8640000000000000)", "after year 9999"]),
    ];
    for (method, arg, parts) in refused {
        let e = try_call(&c, method, &[arg]).await.unwrap_err();
        assert_error(&e, "RangeError", &parts);
    }
    let e = try_call(&c, "update", &["keep".into(), js("(d) => ({ ...d, at: Date.now(), n: 3 })")]).await.unwrap_err();
    assert_error(&e, "RangeError", &["document \"keep\"", "after year 9999"]);
    assert_eq!(json(&raw_store(&name, "docs", "getAll").await.into()), before, "no record changed");
    assert_eq!(live_ids(&c).await, ["keep", "other"]);

    // A BigInt is read in the index's unit: YDB's nanoseconds.
    let ns = call(&s, "collection", &["ns".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60, unit: 'ns' } })")]).await;
    call(&ns, "putMany", &[js("[{ id: 'old', at: BigInt(Date.now() - 120000) * 1000000n }, { id: 'new', at: BigInt(Date.now()) * 1000000n }]")]).await;
    assert_eq!(live_ids(&ns).await, ["new"]);
    let s_big = call(&s, "collection", &["secs".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    call(&s_big, "putMany", &[js("[{ id: 'old', at: BigInt(Math.floor(Date.now() / 1000) - 120) }, { id: 'new', at: BigInt(Math.floor(Date.now() / 1000)) }]")]).await;
    assert_eq!(live_ids(&s_big).await, ["new"]);

    // A TTL index created over stored documents refuses them the same way, and is not created.
    let plain = call(&s, "collection", &["plain".into()]).await;
    call(&plain, "putMany", &[js("[{ id: 1, at: Date.now() / 1000 }, { id: 2, at: Date.now() }]")]).await;
    let stored = json(&raw_store(&name, "docs", "getAll").await.into());
    let e = try_call(&s, "collection", &["plain".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await.unwrap_err();
    assert_error(&e, "RangeError", &["document 2 of collection \"plain\"", "unit: \"ms\""]);
    assert!(call(&call(&s, "collection", &["plain".into()]).await, "ttlIndex", &[]).await.is_null());
    assert_eq!(json(&raw_store(&name, "docs", "getAll").await.into()), stored);

    // A time series' event time in milliseconds is refused too, with nothing inserted.
    let ts = call(&s, "timeSeries", &["t".into(), js("({ timeField: 'ts' })")]).await;
    let e = try_call(&ts, "insertMany", &[js("[{ ts: Date.now() / 1000 }, { ts: Date.now() }]")]).await.unwrap_err();
    assert_error(&e, "RangeError", &["insertMany event 1: \"ts\"", "milliseconds"]);
    assert_eq!(num(&call(&ts, "bucketCount", &[]).await), 0.0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn the_ttl_field_cannot_be_the_key_path() {
    let name = db_name("ttlkeypath");
    let s = open_manual(&name).await;
    for (opts, parts) in [
        ("({ ttlIndex: { field: 'id', expireAfter: 60 } })", vec!["ttlIndex.field \"id\" is the keyPath of collection \"c\"", "createdAt"]),
        ("({ keyPath: 'at', ttlIndex: { field: 'at', expireAfter: 60 } })", vec!["ttlIndex.field \"at\" is the keyPath"]),
    ] {
        let e = try_call(&s, "collection", &["c".into(), js(opts)]).await.unwrap_err();
        assert_error(&e, "TypeError", &parts);
    }
    // Nothing was defined: the collection does not exist yet.
    assert!(!json(&raw_store(&name, "meta", "getAllKeys").await.into()).contains("collection:c"));
    destroy(&name).await;
}

/// Unix seconds of `months` calendar months before now (JavaScript's own month arithmetic),
/// moved by `days`: the tests keep 5 days from every month boundary, where JavaScript (which
/// rolls Feb 31 over into March) and the UTC calendar's rule may differ by up to 3 days.
fn months_ago(months: u32, days: i32) -> String {
    format!("(() => {{ const d = new Date(); d.setUTCMonth(d.getUTCMonth() - {months}); return d.getTime() / 1000 + {days} * 86400; }})()")
}

#[wasm_bindgen_test]
async fn expire_after_and_tiers_take_months_and_years() {
    let name = db_name("months");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: '3 months' } })")]).await;
    assert_eq!(field(&call(&c, "ttlIndex", &[]).await, "expireAfter"), "P3M");
    let docs = format!(
        "[{{ id: 'a-4m', at: {} }}, {{ id: 'b-3m-5d', at: {} }}, {{ id: 'c-3m+5d', at: {} }}, {{ id: 'd-2m', at: {} }}]",
        months_ago(4, 0),
        months_ago(3, -5),
        months_ago(3, 5),
        months_ago(2, 0)
    );
    call(&c, "putMany", &[js(&docs)]).await;
    assert_eq!(live_ids(&c).await, ["c-3m+5d", "d-2m"]);
    // collMod to a year and to weeks: O(1), documents come back or go.
    call(&c, "setExpireAfter", &["P1Y".into()]).await;
    assert_eq!(field(&call(&c, "ttlIndex", &[]).await, "expireAfter"), "P1Y");
    assert_eq!(live_ids(&c).await, ["a-4m", "b-3m-5d", "c-3m+5d", "d-2m"]);
    call(&c, "setExpireAfter", &["3 weeks".into()]).await;
    assert_eq!(num(&field(&call(&c, "ttlIndex", &[]).await, "expireAfter")), 21.0 * 86_400.0);
    assert!(live_ids(&c).await.is_empty());
    // The window survives a reopen (stored with its months).
    call(&c, "setExpireAfter", &["1 year 2 months".into()]).await;
    call(&s, "close", &[]).await;
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["c".into()]).await;
    assert_eq!(field(&call(&c, "ttlIndex", &[]).await, "expireAfter"), "P1Y2M");
    assert_eq!(live_ids(&c).await.len(), 4);

    // Tiers: archived after a month, deleted after a year.
    let t = call(&s, "collection", &["t".into(), js("({ ttlIndex: { field: 'at', tiers: [{ after: '1 month', action: 'archive' }, { after: 'P1Y', action: 'delete' }] } })")]).await;
    let tiers = json(&field(&call(&t, "ttlIndex", &[]).await, "tiers"));
    assert_eq!(tiers, r#"[{"after":"P1M","action":"archive"},{"after":"P1Y","action":"delete"}]"#);
    call(&t, "putMany", &[js(&format!("[{{ id: 'live', at: {} }}, {{ id: 'archived', at: {} }}, {{ id: 'gone', at: {} }}]", months_ago(0, -10), months_ago(2, 0), months_ago(13, 0)))]).await;
    assert_eq!(live_ids(&t).await, ["live"]);
    call(&s, "reap", &[]).await;
    let archived: js_sys::Array = call(&field(&t, "archive"), "values", &[]).await.unchecked_into();
    assert_eq!(json(&archived.iter().map(|d| field(&d, "id")).collect::<js_sys::Array>().into()), r#"["archived"]"#);
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 4 + 1, "c's four and t's live one");
    let e = try_call(&t, "setTiers", &[js("[{ after: '30 days', action: 'archive' }, { after: '1 month', action: 'delete' }]")]).await.unwrap_err();
    assert_error(&e, "RangeError", &["delete tier's after (P1M) must be later than the archive tier's (2592000 s) before it, for every date"]);

    // A time series keeps a month of events.
    let ts = call(&s, "timeSeries", &["ts".into(), js("({ timeField: 'at', expireAfter: '1 month' })")]).await;
    assert_eq!(field(&field(&ts, "options"), "expireAfter"), "P1M");
    call(&ts, "insertMany", &[js(&format!("[{{ at: {} }}, {{ at: {} }}]", months_ago(2, 0), months_ago(0, -10)))]).await;
    assert_eq!(num(&call(&ts, "count", &[]).await), 1.0);
    destroy(&name).await;
}

/// Asserts `collection.expiresAt(id)` (Unix seconds) lies `secs` after a moment between `from`
/// and now (Unix ms).
async fn assert_expires_in(c: &JsValue, id: i32, secs: f64, from: f64) {
    let at = num(&call(c, "expiresAt", &[id.into()]).await);
    let (lo, hi) = (from / 1000.0 + secs - 0.001, now() / 1000.0 + secs + 0.001);
    assert!((lo..=hi).contains(&at), "document {id} expires at {at}, not in {lo}..={hi}");
}

#[wasm_bindgen_test]
async fn an_automatic_index_stamps_every_write_and_one_document_can_be_overridden() {
    let name = db_name("automatic");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["sessions".into(), js("({ ttlIndex: { automatic: true, expireAfter: '30 days' } })")]).await;
    let info = call(&c, "ttlIndex", &[]).await;
    assert_eq!(json(&info), r#"{"automatic":true,"expireAfter":2592000,"unit":"s"}"#);
    let month = 30.0 * 86_400.0;
    let t0 = now();
    call(&c, "putMany", &[js("[{ id: 1, user: 7 }, { id: 2, user: 8 }, { id: 3, user: 9 }]")]).await;
    assert_expires_in(&c, 1, month, t0).await;
    // One document's expiry overridden (crdb_internal_expiration), until its next write.
    let t1 = now();
    assert_eq!(call(&c, "expire", &[1.into(), js("({ ttl: 3600 })")]).await, true);
    assert_expires_in(&c, 1, 3600.0, t1).await;
    let t2 = now();
    call(&c, "put", &[js("({ id: 1, user: 70 })")]).await;
    assert_expires_in(&c, 1, month, t2).await;
    call(&c, "expire", &[3.into(), js("({ expiresAt: '2036-01-01T00:00:00Z' })")]).await;
    assert_eq!(num(&call(&c, "expiresAt", &[3.into()]).await), 2_082_758_400.0);
    let t3 = now();
    call(&c, "update", &[3.into(), js("(d) => ({ ...d, seen: true })")]).await;
    assert_expires_in(&c, 3, month, t3).await;
    // An expiry in the past ends the document at once; a missing or expired one is not live.
    assert_eq!(call(&c, "expire", &[2.into(), js("({ expiresAt: Date.now() / 1000 - 1 })")]).await, true);
    assert!(call(&c, "get", &[2.into()]).await.is_undefined());
    assert!(call(&c, "expiresAt", &[2.into()]).await.is_undefined());
    assert_eq!(call(&c, "expire", &[2.into(), js("({ ttl: 60 })")]).await, false);
    assert_eq!(call(&c, "expire", &[99.into(), js("({ ttl: 60 })")]).await, false);
    assert_eq!(num(&call(&c, "count", &[]).await), 2.0);
    // collMod: O(1), the stamps stay and the window moves.
    let before = json(&raw_store(&name, "docs", "getAllKeys").await.into());
    call(&c, "setExpireAfter", &[3600.into()]).await;
    assert_eq!(json(&raw_store(&name, "docs", "getAllKeys").await.into()), before, "no document rewritten");
    assert_expires_in(&c, 1, 3600.0, t2).await;
    // The reaper removes what expired; the definition survives a reopen.
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&field(&report, "collections"), "sessions")), 1.0);
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 2);
    call(&s, "close", &[]).await;
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["sessions".into()]).await;
    assert_eq!(field(&call(&c, "ttlIndex", &[]).await, "automatic"), true);
    let t4 = now();
    call(&c, "put", &[js("({ id: 5 })")]).await;
    assert_expires_in(&c, 5, 3600.0, t4).await;

    // Bad input: refused, naming what is accepted.
    let e = try_call(&s, "collection", &["x".into(), js("({ ttlIndex: { automatic: true, field: 'at', expireAfter: 60 } })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["ttlIndex.automatic: true stamps", "give no field"]);
    let e = try_call(&s, "collection", &["x".into(), js("({ ttlIndex: { expireAfter: 60 } })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["ttlIndex.field undefined", "automatic: true"]);
    let e = try_call(&c, "expire", &[1.into(), js("({})")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["needs { ttl } or { expiresAt }"]);
    let e = try_call(&c, "expire", &[1.into(), js("({ ttl: -5 })")]).await.unwrap_err();
    assert_error(&e, "RangeError", &["ttl -5"]);
    let e = try_call(&c, "expire", &[1.into(), js("({ expiresAt: Date.now() })")]).await.unwrap_err();
    assert_error(&e, "RangeError", &["milliseconds"]);
    let by_field = call(&s, "collection", &["f".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    call(&by_field, "put", &[js("({ id: 1, at: Date.now() / 1000 })")]).await;
    let e = try_call(&by_field, "expire", &[1.into(), js("({ ttl: 60 })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["expire() overrides", "by their field \"at\""]);
    assert!((num(&call(&by_field, "expiresAt", &[1.into()]).await) - (now() / 1000.0 + 60.0)).abs() < 120.0);
    let plain = call(&s, "collection", &["p".into()]).await;
    call(&plain, "put", &[js("({ id: 1 })")]).await;
    assert!(call(&plain, "expiresAt", &[1.into()]).await.is_null(), "no TTL index: never");
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn a_ttl_index_over_many_documents_is_built_page_by_page_with_progress_and_right_reads_throughout() {
    let name = db_name("ttlbuild");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["c".into()]).await;
    // 4 500 documents, every third two hours old.
    call(&c, "putMany", &[js("Array.from({ length: 4500 }, (_, i) => ({ id: i, at: Date.now() / 1000 - (i % 3 === 0 ? 7200 : 0) }))")]).await;
    let seen = js("({ progress: [], counts: [] })");
    let long = js("({})");
    js_sys::Reflect::set(&long, &"onProgress".into(), &js("(p) => globalThis.__buildProgress.push(p)")).unwrap();
    js_sys::Reflect::set(&js_sys::global(), &"__buildProgress".into(), &field(&seen, "progress")).unwrap();
    let done = std::cell::Cell::new(false);
    let build = async {
        let r = try_call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: 3600 } })"), long.clone()]).await;
        done.set(true);
        r
    };
    // Reads while it builds: the collection has no TTL index until the call resolves.
    let reads = async {
        let mut counts = Vec::new();
        while !done.get() {
            counts.push(num(&call(&c, "count", &[]).await));
            // A write meanwhile is keyed by the new index: two hours old, it is expired once built.
            if counts.len() == 1 {
                call(&c, "put", &[js("({ id: 'during', at: Date.now() / 1000 - 7200 })")]).await;
            }
        }
        counts
    };
    let (built, counts) = futures_join(build, reads).await;
    built.expect("the index is built");
    assert!(counts.iter().all(|&n| n == 4500.0 || n == 4501.0), "no document expired before the index exists: {counts:?}");
    assert_eq!(num(&call(&c, "count", &[]).await), 3000.0, "every third and the one written meanwhile expired");
    assert!(call(&c, "get", &["during".into()]).await.is_undefined());
    // Told at most every 100 ms while the pages ran: checked, then moved, twice the documents.
    let progress: Vec<(f64, f64)> = field(&seen, "progress").unchecked_into::<js_sys::Array>().iter().map(|p| (num(&field(&p, "done")), num(&field(&p, "total")))).collect();
    assert!(!progress.is_empty(), "told its progress at least once");
    assert!(progress.iter().all(|&(done, total)| done <= total && (9000.0..=9002.0).contains(&total)), "{progress:?}");
    assert!(progress.windows(2).all(|w| w[1].0 > w[0].0), "done grows: {progress:?}");
    // Every record is keyed by its field now: the reaper removes the expired ones by range.
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&field(&report, "collections"), "c")), 1501.0);

    // Stopped half way: the index is not created, nothing expires, and building it again works.
    let d = call(&s, "collection", &["d".into()]).await;
    call(&d, "putMany", &[js("Array.from({ length: 3000 }, (_, i) => ({ id: i, at: Date.now() / 1000 - (i % 2 ? 7200 : 0) }))")]).await;
    let stop = js("(() => { const c = new AbortController(); return { signal: c.signal, onProgress: (p) => { if (p.done > 0) c.abort(new Error('stopped by the test')); } }; })()");
    let e = try_call(&s, "collection", &["d".into(), js("({ ttlIndex: { field: 'at', expireAfter: 3600 } })"), stop]).await.unwrap_err();
    assert_eq!(message(&e), "Error: stopped by the test", "rejects with the signal's reason");
    let d = call(&s, "collection", &["d".into()]).await;
    assert!(call(&d, "ttlIndex", &[]).await.is_null());
    assert_eq!(num(&call(&d, "count", &[]).await), 3000.0);
    call(&s, "collection", &["d".into(), js("({ ttlIndex: { field: 'at', expireAfter: 3600 } })")]).await;
    assert_eq!(num(&call(&d, "count", &[]).await), 1500.0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn another_member_writing_while_an_index_is_built_keys_its_writes_by_it() {
    let name = db_name("ttlbuild2");
    let s = open_manual(&name).await;
    let other = open_manual(&name).await;
    let c = call(&s, "collection", &["c".into()]).await;
    call(&c, "putMany", &[js("Array.from({ length: 4500 }, (_, i) => ({ id: i, at: Date.now() / 1000 }))")]).await;
    let theirs = call(&other, "collection", &["c".into()]).await;
    js_sys::Reflect::set(&js_sys::global(), &"__otherCollection".into(), &theirs).unwrap();
    // Once the documents are being moved (past the check of all 4 500), the other member writes
    // document 0 again, two hours old: its page was moved already, so only its own keying counts.
    let long = js(
        "(() => { const w = { wrote: null }; globalThis.__otherWrite = w; \
           return { onProgress: (p) => { if (p.done > 4500 && !w.wrote) \
             w.wrote = globalThis.__otherCollection.put({ id: 0, at: Date.now() / 1000 - 7200 }); } }; })()",
    );
    call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: 3600 } })"), long]).await;
    let wrote = field(&js("globalThis.__otherWrite"), "wrote");
    if !wrote.is_null() {
        wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(wrote)).await.expect("the other member's write");
    } else {
        // The build outran the progress ticks: the other member writes once it sees the index.
        let sees = || !js("globalThis.__otherCollection.ttlIndex()").is_null();
        assert!(eventually(sees).await, "the other member follows the new definition");
        call(&theirs, "put", &[js("({ id: 0, at: Date.now() / 1000 - 7200 })")]).await;
    }
    assert!(call(&c, "get", &[0.into()]).await.is_undefined(), "the other member's two-hour-old write is expired");
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&field(&report, "collections"), "c")), 1.0, "and reaped: it is keyed by its date");
    destroy(&name).await;
}
