//! The lite build (`--no-default-features`, `idb-ttl/lite`): the key-value store alone. A database
//! holding what only the default entry reads and reaps (collections, time series, archived
//! records, encryption keys) is refused at `TtlStore.open`, and by a reaper pass when it comes to
//! hold them later; the default entry's options and snapshot parts are refused by name.

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

/// Puts `records` (`[[store, key or undefined, value], ...]`, JS source) into the database
/// `name` with plain IndexedDB, as the default entry would have written them.
async fn raw_put(name: &str, records: &str) {
    let src = format!(
        r#"new Promise((resolve, reject) => {{
            const recs = {records};
            const open = indexedDB.open({name:?});
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {{
                const db = open.result;
                const tx = db.transaction([...new Set(recs.map((r) => r[0]))], "readwrite");
                for (const [store, key, value] of recs) {{
                    if (key === undefined) tx.objectStore(store).put(value); else tx.objectStore(store).put(value, key);
                }}
                tx.oncomplete = () => {{ db.close(); resolve(); }};
                tx.onerror = () => reject(tx.error);
            }};
        }})"#
    );
    let p: js_sys::Promise = js(&src).unchecked_into();
    wasm_bindgen_futures::JsFuture::from(p).await.expect("raw put");
}

/// Creates `name` through a lite store (the one schema of both entries) with one entry.
async fn lite_db_with_an_entry(name: &str) {
    let s = open_manual(name).await;
    call(&s, "set", &["k".into(), "v".into()]).await;
    call(&s, "close", &[]).await;
}

#[wasm_bindgen_test]
async fn a_database_with_the_default_entrys_data_is_refused_naming_it() {
    let name = db_name("lite-refuses");
    lite_db_with_an_entry(&name).await;
    // A collection (its definition and a document) and an encryption key, as the default entry
    // stores them (src/idb/meta.rs, src/idb/schema.rs).
    raw_put(
        &name,
        r#"[["meta", "collection:c", { kind: "collection", name: "c", keyPath: "id", ttlIndex: null, keyedBy: null }],
            ["docs", undefined, { c: "c", r: Infinity, i: 1, v: { id: 1 } }],
            ["meta", "key:1", { id: 1, key: "a CryptoKey", until: Infinity, expires: Infinity }]]"#,
    )
    .await;
    let e = try_open(&name, JsValue::UNDEFINED).await.expect_err("a lite store opened a database with collections");
    assert_error(&e, "StoreUnsupportedError", &[&format!("\"{name}\""), "collections and encryption keys", "idb-ttl/lite", "import { TtlStore } from \"idb-ttl\""]);
    // Nothing was touched: the entry and the default entry's records are all there.
    assert_eq!(raw_records(&name).await.length(), 1);
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 1);
    assert_eq!(raw_store(&name, "meta", "getAll").await.length(), 2);
    destroy(&name).await;

    // Time series and archived records (archiveFor, an archive tier) are named too.
    let name = db_name("lite-refuses-2");
    lite_db_with_an_entry(&name).await;
    raw_put(
        &name,
        r#"[["meta", "series:t", { kind: "series", name: "t", timeField: "ts", metaField: null, granularity: "seconds", expireAfterSecs: null }],
            ["archive", undefined, { c: 0, t: 1, i: "old", v: 1 }]]"#,
    )
    .await;
    let e = try_open(&name, JsValue::UNDEFINED).await.expect_err("a lite store opened a database with a time series");
    assert_error(&e, "StoreUnsupportedError", &["time series and archived records", "idb-ttl/lite"]);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn a_reaper_pass_meeting_them_later_fails_and_stops_leading() {
    let name = db_name("lite-later");
    let s = open(&name, js("({ reapIntervalMs: 60000 })")).await;
    call(&s, "set", &["gone".into(), 1.into(), js("({ ttl: 0.05 })")]).await;
    sleep(100).await;
    // A member of the default entry makes a collection meanwhile.
    raw_put(&name, r#"[["meta", "collection:c", { kind: "collection", name: "c", keyPath: "id", ttlIndex: null, keyedBy: null }]]"#).await;
    let e = try_call(&s, "reap", &[]).await.expect_err("a lite pass over a database with a collection");
    assert_error(&e, "StoreUnsupportedError", &["collections", "idb-ttl/lite"]);
    let stats = call(&s, "stats", &[]).await;
    assert_eq!(field(&stats, "reaperPaused"), JsValue::TRUE, "the lite member stops reaping");
    assert_eq!(field(&stats, "leader"), JsValue::FALSE, "and hands leadership on");
    // Its entries still answer (reads never return an expired entry).
    assert_eq!(call(&s, "get", &["gone".into()]).await, JsValue::UNDEFINED);
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn the_default_entrys_options_and_snapshot_parts_are_refused_by_name() {
    let name = db_name("lite-options");
    for (options, part) in [("({ encryption: true })", "\"encryption\""), ("({ archiveFor: 60 })", "\"archiveFor\""), ("({ onExpire: async () => {} })", "\"onExpire\"")] {
        let e = try_open(&name, js(options)).await.expect_err(options);
        assert_error(&e, "TypeError", &[part, "idb-ttl/lite", "import { TtlStore } from \"idb-ttl\""]);
    }
    let s = open_manual(&name).await;
    for method in ["collection", "timeSeries", "shred"] {
        assert!(js_sys::Reflect::get(&s, &method.into()).unwrap().is_undefined(), "a lite store has no {method}");
    }
    let snapshot = "({ format: 'idb-ttl-snapshot', version: 1, database: 'x', exportedAt: 0, entries: [{ key: 'k', value: 1, expiresAt: null }], \
                    collections: [{ name: 'c', keyPath: 'id', ttlIndex: null, documents: [] }], timeSeries: [] })";
    let e = try_call(&s, "import", &[js(snapshot)]).await.expect_err("a lite import of a snapshot with a collection");
    assert_error(&e, "TypeError", &["collections", "idb-ttl/lite"]);
    assert_eq!(raw_records(&name).await.length(), 0, "all or nothing: not even its entries");
    // A snapshot of entries alone (what a lite export makes) imports.
    let exported = call(&s, "export", &[]).await;
    call(&s, "import", &[exported]).await;
    call(&s, "close", &[]).await;
    destroy(&name).await;
}
