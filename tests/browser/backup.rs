//! Backup and restore: export -> JSON -> destroy -> import keeps values and expiries, leaves
//! out what expired meanwhile, and refuses values JSON cannot carry, naming them.

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

#[cfg(feature = "full")]
#[wasm_bindgen_test]
async fn export_destroy_import_round_trip() {
    // 'short' must be exported before it expires: its ttl scaled until it is (issue 39).
    scaled("backup", |k| async move {
        let name = db_name("backup");
        let s = open_manual(&name).await;
        let written = now();
        call(&s, "setMany", &[js(&format!("[['plain', {{ a: [1, 'two', null, true], when: new Date(Date.UTC(2026, 0, 2)) }}, {{ expiresAt: '2099-01-01T00:00:00Z' }}], \
                                 ['forever', 'v'], ['short', 'gone soon', {{ ttl: {} }}], [7, 7, {{ ttl: 3600 }}]]", 0.3 * k))]).await;
        let c = call(&s, "collection", &["docs".into(), js("({ ttlIndex: { field: 'at', expireAfter: 3600 } })")]).await;
        call(&c, "putMany", &[js("[{ id: 'fresh', at: new Date() }, { id: 'never' }, { id: 'old', at: new Date(Date.now() - 7200000) }]")]).await;
        let ts = call(&s, "timeSeries", &["temps".into(), js("({ timeField: 'ts', metaField: 'sensor', expireAfter: 3600 })")]).await;
        call(&ts, "insertMany", &[js("Array.from({ length: 50 }, (_, i) => ({ ts: new Date(Date.now() - i * 60000), sensor: 's' + (i % 2), v: i }))")]).await;
        let live_events = num(&call(&ts, "count", &[]).await);
        let at_before = num(&call(&s, "expiresAt", &[7.into()]).await);

        let snapshot = call(&s, "export", &[]).await;
        in_time(written + 300.0 * k, "the export before 'short' expires")?;
        // Plain JSON: through a string and back.
        let text = js_sys::JSON::stringify(&snapshot).unwrap();
        let snapshot = js_sys::JSON::parse(&String::from(text)).unwrap();
        assert_eq!(field(&snapshot, "format"), "idb-ttl-snapshot");
        sleep((400.0 * k) as u32).await; // 'short' expires between export and import
        destroy(&name).await;

        let s = open_manual(&name).await;
        let report = call(&s, "import", &[snapshot]).await;
        assert_eq!(num(&field(&report, "entries")), 3.0);
        assert_eq!(num(&field(&report, "documents")), 2.0, "the expired document was not exported");
        assert_eq!(num(&field(&report, "skipped")), 1.0, "'short' expired before the import");
        assert!(call(&s, "get", &["short".into()]).await.is_undefined());
        assert_eq!(raw_records(&name).await.length(), 3);
        let plain = call(&s, "get", &["plain".into()]).await;
        assert_eq!(json(&field(&plain, "a")), r#"[1,"two",null,true]"#);
        assert!(field(&plain, "when").is_instance_of::<js_sys::Date>(), "a Date comes back as a Date");
        assert_eq!(num(&call(&s, "expiresAt", &["plain".into()]).await), 4_070_908_800.0);
        assert!(call(&s, "expiresAt", &["forever".into()]).await.is_null());
        assert_eq!(num(&call(&s, "expiresAt", &[7.into()]).await), at_before, "expiry kept to the millisecond");
        let c = call(&s, "collection", &["docs".into(), JsValue::UNDEFINED]).await;
        assert_eq!(json(&call(&c, "ttlIndex", &[]).await), r#"{"field":"at","expireAfter":3600,"unit":"s"}"#);
        assert!(field(&call(&c, "get", &["fresh".into()]).await, "at").is_instance_of::<js_sys::Date>());
        assert!(!call(&c, "get", &["never".into()]).await.is_undefined());
        assert!(call(&c, "get", &["old".into()]).await.is_undefined());
        let ts = call(&s, "timeSeries", &["temps".into(), JsValue::UNDEFINED]).await;
        assert_eq!(num(&call(&ts, "count", &[]).await), live_events);
        destroy(&name).await;
        Ok(())
    })
    .await;
}

/// A collection without a TTL index is exported with `ttlIndex: null` and its documents, and
/// comes back the same.
#[cfg(feature = "full")]
#[wasm_bindgen_test]
async fn a_collection_without_a_ttl_index_round_trips() {
    let name = db_name("backupnottl");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["plain".into(), JsValue::UNDEFINED]).await;
    call(&c, "putMany", &[js("[{ id: 'a', n: 1 }, { id: 'b', n: 2 }]")]).await;
    let snapshot = call(&s, "export", &[]).await;
    let exported: js_sys::Array = field(&snapshot, "collections").unchecked_into();
    assert_eq!(exported.length(), 1);
    assert!(field(&exported.get(0), "ttlIndex").is_null());
    destroy(&name).await;
    let s = open_manual(&name).await;
    let report = call(&s, "import", &[snapshot]).await;
    assert_eq!(num(&field(&report, "documents")), 2.0);
    let c = call(&s, "collection", &["plain".into(), JsValue::UNDEFINED]).await;
    assert!(call(&c, "ttlIndex", &[]).await.is_null());
    assert_eq!(num(&field(&call(&c, "get", &["b".into()]).await, "n")), 2.0);
    destroy(&name).await;
}

/// Windows with months, an automatic index (each document's own expiry, an override among
/// them) and a time series kept for a month are exported as the store holds them and come back
/// the same.
#[cfg(feature = "full")]
#[wasm_bindgen_test]
async fn months_and_automatic_indexes_round_trip_with_each_expiry() {
    let name = db_name("backupmonths");
    let s = open_manual(&name).await;
    let q = call(&s, "collection", &["q".into(), js("({ ttlIndex: { field: 'at', expireAfter: '3 months' } })")]).await;
    call(&q, "put", &[js("({ id: 1, at: '2036-01-31T00:00:00Z' })")]).await;
    let a = call(&s, "collection", &["a".into(), js("({ ttlIndex: { automatic: true, expireAfter: 'P1Y' } })")]).await;
    call(&a, "putMany", &[js("[{ id: 1 }, { id: 2 }]")]).await;
    call(&a, "expire", &[2.into(), js("({ expiresAt: '2037-06-01T00:00:00Z' })")]).await;
    let ts = call(&s, "timeSeries", &["t".into(), js("({ timeField: 'at', expireAfter: '1 month' })")]).await;
    call(&ts, "insert", &[js("({ at: Date.now() / 1000 })")]).await;
    let expiry = |c: JsValue, id: i32| async move { num(&call(&c, "expiresAt", &[id.into()]).await) };
    // 2036-01-31 + 3 months: April 30 has no 31st, so May 1.
    assert_eq!(expiry(q.clone(), 1).await, 2_093_212_800.0);
    let (a1, a2) = (expiry(a.clone(), 1).await, expiry(a.clone(), 2).await);
    assert_eq!(a2, 2_127_427_200.0);
    let snapshot = call(&s, "export", &[]).await;
    let text = json(&snapshot);
    assert!(text.contains(r#""expireAfter":"P3M""#) && text.contains(r#""automatic":true,"expireAfter":"P1Y""#), "{text}");
    assert!(text.contains(r#""expireAfter":"P1M""#), "{text}");
    destroy(&name).await;
    let s = open_manual(&name).await;
    let report = call(&s, "import", &[snapshot]).await;
    assert_eq!((num(&field(&report, "documents")), num(&field(&report, "events"))), (3.0, 1.0));
    let q = call(&s, "collection", &["q".into()]).await;
    let a = call(&s, "collection", &["a".into()]).await;
    assert_eq!(field(&call(&q, "ttlIndex", &[]).await, "expireAfter"), "P3M");
    assert_eq!(expiry(q, 1).await, 2_093_212_800.0);
    assert_eq!(field(&call(&a, "ttlIndex", &[]).await, "automatic"), true);
    assert_eq!((expiry(a.clone(), 1).await, expiry(a, 2).await), (a1, a2), "each document keeps its expiry");
    let ts = call(&s, "timeSeries", &["t".into()]).await;
    assert_eq!(field(&field(&ts, "options"), "expireAfter"), "P1M");
    assert_eq!(num(&call(&ts, "count", &[]).await), 1.0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn values_json_cannot_carry_are_refused_naming_them() {
    let name = db_name("backupbad");
    let s = open_manual(&name).await;
    for (value, parts) in [
        ("({ tags: new Map([[1, 2]]) })", vec!["entry \"k\"", "value.tags is a Map"]),
        ("({ a: [1, undefined] })", vec!["value.a[1] is undefined"]),
        ("new Uint8Array([1])", vec!["value is a Uint8Array"]),
        ("({ n: NaN })", vec!["value.n is NaN"]),
        ("({ z: -0 })", vec!["value.z is -0"]),
        ("({ $date: 'x' })", vec!["shaped like a Date tag"]),
    ] {
        call(&s, "clear", &[]).await;
        call(&s, "set", &["k".into(), js(value), JsValue::UNDEFINED]).await;
        let e = try_call(&s, "export", &[]).await.unwrap_err();
        assert_error(&e, "TypeError", &parts);
    }
    let e = try_call(&s, "import", &[js("({ entries: [] })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["not an idb-ttl snapshot"]);
    let e = try_call(&s, "import", &[js("({ format: 'idb-ttl-snapshot', version: 1, entries: [{ key: {}, value: 1, expiresAt: null }], collections: [], timeSeries: [] })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["snapshot.entries[0]", "key {}"]);
    assert_eq!(raw_records(&name).await.length(), 1, "a refused import wrote nothing");
    destroy(&name).await;
}

/// `import()` applies `set()`'s checks to every expiry, refuses values a snapshot cannot hold by
/// path, and writes all or nothing: a refused import leaves the store as it was, including an
/// existing key of the same name (an `expiresAt: NaN` entry used to delete it and report success).
#[cfg(feature = "full")]
#[wasm_bindgen_test]
async fn import_checks_everything_and_writes_all_or_nothing() {
    let name = db_name("importbad");
    let s = open_manual(&name).await;
    call(&s, "set", &["k".into(), "before".into(), JsValue::UNDEFINED]).await;
    let snap = |entries: &str, collections: &str| {
        js(&format!("({{ format: 'idb-ttl-snapshot', version: 1, database: 'x', exportedAt: 0, entries: {entries}, collections: {collections}, timeSeries: [] }})"))
    };
    let ok_entry = "{ key: 'new', value: 1, expiresAt: null }";
    for (entries, class, parts) in [
        ("[{ key: 'k', value: 1, expiresAt: NaN }]", "RangeError", vec!["snapshot.entries[0].expiresAt NaN", "not a number of seconds"]),
        ("[{ key: 'k', value: 1, expiresAt: Date.now() }]", "RangeError", vec!["snapshot.entries[0].expiresAt", "looks like milliseconds"]),
        ("[{ key: 'k', value: 1, expiresAt: 1e21 }]", "RangeError", vec!["snapshot.entries[0].expiresAt 1e+21", "beyond 9999"]),
        ("[{ key: 'k', value: 1, expiresAt: 1e300 }]", "RangeError", vec!["expiresAt 1e+300"]),
        ("[{ key: 'k', value: 1, expiresAt: '2099-01-01' }]", "TypeError", vec!["snapshot.entries[0].expiresAt is not Unix seconds or null"]),
        ("[{ key: 'k', value: 1 }]", "TypeError", vec!["snapshot.entries[0].expiresAt is missing"]),
        ("[{ key: 'k', value: new Date(0), expiresAt: null }]", "TypeError", vec!["snapshot.entries[0].value is a Date", "{ \"$date\": ISO }"]),
        ("[{ key: 'k', value: { a: new ArrayBuffer(8) }, expiresAt: null }]", "TypeError", vec!["snapshot.entries[0].value.a is an ArrayBuffer"]),
        ("[{ key: 'k', value: [document.createElement('div')], expiresAt: null }]", "TypeError", vec!["snapshot.entries[0].value[0] is an HTMLDivElement"]),
        ("[{ key: 'k', value: { $date: 'never' }, expiresAt: null }]", "TypeError", vec!["a Date tag with no valid date"]),
        ("[{ key: 'k', value: { n: NaN }, expiresAt: null }]", "TypeError", vec!["snapshot.entries[0].value.n is NaN"]),
    ] {
        let e = try_call(&s, "import", &[snap(&format!("[{ok_entry}, {}]", &entries[1..entries.len() - 1]), "[]")]).await.unwrap_err();
        let parts: Vec<&str> = parts.iter().map(|p| if p.starts_with("snapshot.entries[0]") { p.replacen("[0]", "[1]", 1).leak() as &str } else { *p }).collect();
        assert_error(&e, class, &parts);
    }
    // Valid entries, then one collection whose document cannot be keyed: nothing at all is written.
    let bad_doc = "[{ name: 'c', keyPath: 'id', ttlIndex: null, documents: [{ document: { id: 1 }, expiresAt: null }, { document: { id: null }, expiresAt: null }] }]";
    let e = try_call(&s, "import", &[snap(&format!("[{ok_entry}]"), bad_doc)]).await.unwrap_err();
    assert_error(&e, "TypeError", &["snapshot.collections[0].documents 1", "key null"]);
    // A throwing getter in the snapshot: the user's own error, named.
    let e = try_call(&s, "import", &[js("({ format: 'idb-ttl-snapshot', version: 1, get entries() { throw new Error('boom'); } })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["import: the snapshot cannot be read", "Error: boom"]);
    assert_eq!(raw_keys(&name).await, vec![JsValue::from("k")], "a refused import wrote nothing and deleted nothing");
    assert_eq!(call(&s, "get", &["k".into()]).await, "before");
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 0);
    assert_eq!(raw_store(&name, "meta", "getAll").await.length(), 0, "no collection definition either");
    // And a good one writes everything, in one go.
    let good = "[{ name: 'c', keyPath: 'id', ttlIndex: null, documents: [{ document: { id: 1, at: { $date: '2030-01-01T00:00:00Z' } }, expiresAt: null }] }]";
    let report = call(&s, "import", &[snap(&format!("[{ok_entry}]"), good)]).await;
    assert_eq!(json(&report), r#"{"entries":1,"documents":1,"events":0,"skipped":0}"#);
    let c = call(&s, "collection", &["c".into(), JsValue::UNDEFINED]).await;
    assert!(field(&call(&c, "get", &[1.into()]).await, "at").is_instance_of::<js_sys::Date>());
    // A collection that exists with another definition is refused, naming it; nothing written.
    call(&s, "collection", &["d".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    let other = "[{ name: 'd', keyPath: 'id', ttlIndex: { field: 'at', expireAfter: 3600, unit: 's' }, documents: [] }]";
    let e = try_call(&s, "import", &[snap("[{ key: 'z', value: 1, expiresAt: null }]", other)]).await.unwrap_err();
    assert_error(&e, "TypeError", &["collection \"d\" exists here with another keyPath or TTL index"]);
    assert!(call(&s, "get", &["z".into()]).await.is_undefined());
    destroy(&name).await;
}
