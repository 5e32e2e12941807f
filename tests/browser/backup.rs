//! Backup and restore: export -> JSON -> destroy -> import keeps values and expiries, leaves
//! out what expired meanwhile, and refuses values JSON cannot carry, naming them.

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

#[wasm_bindgen_test]
async fn export_destroy_import_round_trip() {
    let name = db_name("backup");
    let s = open_manual(&name).await;
    call(&s, "setMany", &[js("[['plain', { a: [1, 'two', null, true], when: new Date(Date.UTC(2026, 0, 2)) }, { expiresAt: '2099-01-01T00:00:00Z' }], \
                             ['forever', 'v'], ['short', 'gone soon', { ttl: 0.3 }], [7, 7, { ttl: 3600 }]]")]).await;
    let c = call(&s, "collection", &["docs".into(), js("({ ttlIndex: { field: 'at', expireAfter: 3600 } })")]).await;
    call(&c, "putMany", &[js("[{ id: 'fresh', at: new Date() }, { id: 'never' }, { id: 'old', at: new Date(Date.now() - 7200000) }]")]).await;
    let ts = call(&s, "timeSeries", &["temps".into(), js("({ timeField: 'ts', metaField: 'sensor', expireAfter: 3600 })")]).await;
    call(&ts, "insertMany", &[js("Array.from({ length: 50 }, (_, i) => ({ ts: new Date(Date.now() - i * 60000), sensor: 's' + (i % 2), v: i }))")]).await;
    let live_events = num(&call(&ts, "count", &[]).await);
    let at_before = num(&call(&s, "expiresAt", &[7.into()]).await);

    let snapshot = call(&s, "export", &[]).await;
    // Plain JSON: through a string and back.
    let text = js_sys::JSON::stringify(&snapshot).unwrap();
    let snapshot = js_sys::JSON::parse(&String::from(text)).unwrap();
    assert_eq!(field(&snapshot, "format"), "idb-ttl-snapshot");
    sleep(400).await; // 'short' expires between export and import
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
