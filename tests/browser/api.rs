//! Every member of the `TtlStore` API, through the JS object.

use js_sys::{Array, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

#[wasm_bindgen_test]
async fn set_get_has_delete() {
    let name = db_name("basic");
    let s = open_manual(&name).await;
    assert!(call(&s, "get", &["missing".into()]).await.is_undefined());
    call(&s, "set", &["a".into(), js("({ n: 1 })"), JsValue::UNDEFINED]).await;
    assert_eq!(json(&call(&s, "get", &["a".into()]).await), r#"{"n":1}"#);
    assert_eq!(call(&s, "has", &["a".into()]).await, JsValue::TRUE);
    assert_eq!(call(&s, "has", &["b".into()]).await, JsValue::FALSE);
    // Number keys are distinct from string keys.
    call(&s, "set", &[1.into(), "one".into(), JsValue::UNDEFINED]).await;
    assert!(call(&s, "get", &["1".into()]).await.is_undefined());
    assert_eq!(call(&s, "get", &[1.into()]).await, "one");
    assert_eq!(call(&s, "delete", &["a".into()]).await, JsValue::TRUE);
    assert_eq!(call(&s, "delete", &["a".into()]).await, JsValue::FALSE);
    assert!(call(&s, "get", &["a".into()]).await.is_undefined());
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn plain_set_replaces_the_expiry_and_keep_ttl_keeps_it() {
    let name = db_name("keepttl");
    let s = open_manual(&name).await;
    call(&s, "set", &["k".into(), 1.into(), js("({ ttl: 100 })")]).await;
    let at = num(&call(&s, "expiresAt", &["k".into()]).await);
    call(&s, "set", &["k".into(), 2.into(), js("({ keepTtl: true })")]).await;
    assert_eq!(num(&call(&s, "expiresAt", &["k".into()]).await), at);
    assert_eq!(call(&s, "get", &["k".into()]).await, 2);
    call(&s, "set", &["k".into(), 3.into(), JsValue::UNDEFINED]).await;
    assert!(call(&s, "expiresAt", &["k".into()]).await.is_null(), "a plain set removes the expiry");
    // keepTtl on a new key: no expiry.
    call(&s, "set", &["new".into(), 1.into(), js("({ keepTtl: true })")]).await;
    assert!(call(&s, "expiresAt", &["new".into()]).await.is_null());
    // One record per key whatever the expiry changes were.
    assert_eq!(raw_records(&name).await.length(), 2);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn expiry_formats_are_stored_as_unix_seconds() {
    let name = db_name("formats");
    let s = open_manual(&name).await;
    let cases = [
        (js("({ expiresAt: 1798761600 })"), 1_798_761_600.0),
        (js("({ expiresAt: 1798761600.5 })"), 1_798_761_600.5),
        (js("({ expiresAt: '2027-01-01' })"), 1_798_761_600.0),
        (js("({ expiresAt: '2027-01-01T00:00:00' })"), 1_798_761_600.0),
        (js("({ expiresAt: '2027-01-01T01:30:00.250+01:30' })"), 1_798_761_600.25),
        (js("({ expiresAt: '2026-12-31T22:00:00-02:00' })"), 1_798_761_600.0),
        (js("({ expiresAt: new Date(Date.UTC(2027, 0, 1)) })"), 1_798_761_600.0),
    ];
    for (i, (opts, want)) in cases.iter().enumerate() {
        let key = JsValue::from(format!("k{i}"));
        call(&s, "set", &[key.clone(), "v".into(), opts.clone()]).await;
        assert_eq!(num(&call(&s, "expiresAt", &[key]).await), *want, "case {i}: {}", json(opts));
    }
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn ttl_strings_and_seconds() {
    let name = db_name("ttl");
    let s = open_manual(&name).await;
    for (opts, secs) in [("({ ttl: 90 })", 90.0), ("({ ttl: 'PT10M' })", 600.0), ("({ ttl: '1h 30m' })", 5400.0), ("({ ttl: 'P1DT2H' })", 93_600.0), ("({ ttl: '90 days' })", 7_776_000.0)] {
        let since = now();
        call(&s, "set", &["k".into(), "v".into(), js(opts)]).await;
        assert_ttl_set(&s, "k".into(), secs, since).await;
    }
    assert!(call(&s, "ttl", &["missing".into()]).await.is_undefined());
    call(&s, "set", &["forever".into(), "v".into(), JsValue::UNDEFINED]).await;
    assert!(call(&s, "ttl", &["forever".into()]).await.is_null());
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn a_past_expiry_stores_nothing_and_removes_the_key() {
    let name = db_name("past");
    let s = open_manual(&name).await;
    call(&s, "set", &["k".into(), "v".into(), JsValue::UNDEFINED]).await;
    call(&s, "set", &["k".into(), "w".into(), js("({ expiresAt: '2001-01-01' })")]).await;
    assert!(call(&s, "get", &["k".into()]).await.is_undefined());
    call(&s, "set", &["z".into(), "v".into(), js("({ ttl: 0 })")]).await;
    assert_eq!(raw_records(&name).await.length(), 0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn many_at_once_and_listing_in_key_order() {
    let name = db_name("many");
    let s = open_manual(&name).await;
    call(&s, "setMany", &[js("[['b', 2, { ttl: 3600 }], ['a', 1], ['c', 3, { expiresAt: '2099-01-01' }], [5, 'five']]")]).await;
    // Key order (numbers before strings), not expiry order.
    assert_eq!(json(&call(&s, "keys", &[]).await), r#"[5,"a","b","c"]"#);
    assert_eq!(json(&call(&s, "values", &[]).await), r#"["five",1,2,3]"#);
    assert_eq!(json(&call(&s, "entries", &[]).await), r#"[[5,"five"],["a",1],["b",2],["c",3]]"#);
    assert_eq!(num(&call(&s, "count", &[]).await), 4.0);
    let got = call(&s, "getMany", &[js("['c', 'missing', 'a']")]).await;
    let got: Array = got.unchecked_into();
    assert_eq!(got.get(0), 3);
    assert!(got.get(1).is_undefined());
    assert_eq!(got.get(2), 1);
    // Dense, as `keys.map(get)` would be: a missing key is an `undefined` element, not a hole
    // (forEach, Object.keys and structured clone skip holes).
    assert_eq!(Reflect::has(&got, &1.into()), Ok(true));
    assert_eq!(num(&call(&s, "deleteMany", &[js("['a', 'b', 'nope', 'a']")]).await), 2.0);
    assert_eq!(json(&call(&s, "keys", &[]).await), r#"[5,"c"]"#);
    // The same key twice in one setMany: the last one wins.
    call(&s, "setMany", &[js("[['d', 1, { ttl: 60 }], ['d', 2, { ttl: 120 }]]")]).await;
    assert_eq!(call(&s, "get", &["d".into()]).await, 2);
    assert!(num(&call(&s, "ttl", &["d".into()]).await) > 100.0);
    call(&s, "clear", &[]).await;
    assert_eq!(num(&call(&s, "count", &[]).await), 0.0);
    assert_eq!(raw_records(&name).await.length(), 0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn expire_and_persist() {
    let name = db_name("expire");
    let s = open_manual(&name).await;
    assert_eq!(call(&s, "expire", &["missing".into(), js("({ ttl: 10 })")]).await, JsValue::FALSE);
    call(&s, "set", &["k".into(), js("({ deep: [1, 2] })"), JsValue::UNDEFINED]).await;
    assert_eq!(call(&s, "persist", &["k".into()]).await, JsValue::FALSE, "no expiry to remove");
    let since = now();
    assert_eq!(call(&s, "expire", &["k".into(), js("({ ttl: 50 })")]).await, JsValue::TRUE);
    assert_ttl_set(&s, "k".into(), 50.0, since).await;
    assert_eq!(call(&s, "expire", &["k".into(), js("({ expiresAt: '2099-01-01T00:00:00Z' })")]).await, JsValue::TRUE);
    assert_eq!(num(&call(&s, "expiresAt", &["k".into()]).await), 4_070_908_800.0);
    assert_eq!(call(&s, "persist", &["k".into()]).await, JsValue::TRUE);
    assert!(call(&s, "expiresAt", &["k".into()]).await.is_null());
    assert_eq!(json(&call(&s, "get", &["k".into()]).await), r#"{"deep":[1,2]}"#, "value kept");
    // An expire into the past removes the entry.
    assert_eq!(call(&s, "expire", &["k".into(), js("({ ttl: 0 })")]).await, JsValue::TRUE);
    assert!(call(&s, "get", &["k".into()]).await.is_undefined());
    assert_eq!(raw_records(&name).await.length(), 0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn change_events_name_the_operation_and_keys() {
    let name = db_name("events");
    let s = open_manual(&name).await;
    let seen = listen(&s, "change");
    call(&s, "set", &["a".into(), 1.into(), JsValue::UNDEFINED]).await;
    call(&s, "setMany", &[js("[['b', 2], ['c', 3]]")]).await;
    call(&s, "delete", &["a".into()]).await;
    call(&s, "clear", &[]).await;
    let ops: Vec<String> = seen.iter().map(|d| Reflect::get(&d, &"op".into()).unwrap().as_string().unwrap()).collect();
    assert_eq!(ops, ["set", "setMany", "delete", "clear"]);
    assert_eq!(json(&Reflect::get(&seen.get(1), &"keys".into()).unwrap()), r#"["b","c"]"#);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn structured_clone_values_round_trip() {
    let name = db_name("clone");
    let s = open_manual(&name).await;
    let value = js("{ when: new Date(Date.UTC(2026, 10, 21)), map: new Map([[1, 'a'], ['b', { c: 2 }]]), set: new Set([1, 2]), \
                    bytes: new Uint8Array([1, 2, 255]), floats: new Float64Array([0.5, -1]), \
                    nested: [null, undefined, NaN, -0, 1n] }");
    call(&s, "set", &["v".into(), value, js("({ ttl: 60 })")]).await;
    // A Blob round-trips wherever the session can store one (not in WebKit's private sessions:
    // tests/browser/resilience.rs checks the refusal there).
    let blobs = session_stores_blobs().await;
    if blobs {
        call(&s, "set", &["b".into(), js("{ blob: new Blob(['hello'], { type: 'text/plain' }) }")]).await;
    }
    call(&s, "close", &[]).await;
    let s = open_manual(&name).await;
    let got = call(&s, "get", &["v".into()]).await;
    let check = js_sys::Function::new_with_args(
        "v",
        "return v.when instanceof Date && v.when.getTime() === Date.UTC(2026, 10, 21) \
         && v.map instanceof Map && v.map.get(1) === 'a' && v.map.get('b').c === 2 \
         && v.set instanceof Set && v.set.has(2) \
         && v.bytes instanceof Uint8Array && v.bytes.join() === '1,2,255' \
         && v.floats instanceof Float64Array && v.floats[0] === 0.5 \
         && v.nested.length === 5 && v.nested[1] === undefined && Number.isNaN(v.nested[2]) && Object.is(v.nested[3], -0) && v.nested[4] === 1n",
    );
    assert_eq!(check.call1(&JsValue::NULL, &got).unwrap(), JsValue::TRUE, "round trip lost something");
    if blobs {
        let got = call(&s, "get", &["b".into()]).await;
        let text_of = js_sys::Function::new_with_args(
            "v",
            "return v.blob instanceof Blob && v.blob.type === 'text/plain' && v.blob.size === 5 ? v.blob.text() : 'not the Blob'",
        );
        let text: JsValue = wasm_bindgen_futures::JsFuture::from(text_of.call1(&JsValue::NULL, &got).unwrap().unchecked_into::<js_sys::Promise>())
            .await
            .unwrap();
        assert_eq!(text, "hello");
    }
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn entries_survive_close_and_reopen_with_their_expiry() {
    let name = db_name("reopen");
    let s = open_manual(&name).await;
    call(&s, "set", &["a".into(), "kept".into(), js("({ expiresAt: '2099-06-01T12:00:00Z' })")]).await;
    call(&s, "set", &["b".into(), "forever".into(), JsValue::UNDEFINED]).await;
    call(&s, "close", &[]).await;
    // A closed store refuses work with a typed error.
    let e = try_call(&s, "get", &["a".into()]).await.unwrap_err();
    assert_error(&e, "StoreClosedError", &[&name, "close() was called", "TtlStore.open"]);
    let s = open_manual(&name).await;
    assert_eq!(call(&s, "get", &["a".into()]).await, "kept");
    assert_eq!(num(&call(&s, "expiresAt", &["a".into()]).await), 4_083_998_400.0);
    assert_eq!(call(&s, "get", &["b".into()]).await, "forever");
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn destroy_closes_open_stores_and_deletes_everything() {
    let name = db_name("destroy");
    let s = open_manual(&name).await;
    call(&s, "set", &["a".into(), 1.into(), JsValue::UNDEFINED]).await;
    // Not blocked by our own open connection: it closes on versionchange.
    destroy(&name).await;
    let e = try_call(&s, "get", &["a".into()]).await.unwrap_err();
    assert_error(&e, "StoreClosedError", &["another tab or worker"]);
    let s = open_manual(&name).await;
    assert!(call(&s, "get", &["a".into()]).await.is_undefined());
    destroy(&name).await;
}

/// `isNew` tells a database this open created from one that was there: an app expecting data can
/// notice that the browser lost it (Chromium can wipe an origin's IndexedDB after a crash).
#[wasm_bindgen_test]
async fn is_new_tells_a_created_database_from_an_existing_one() {
    let name = db_name("isnew");
    let s = open_manual(&name).await;
    assert_eq!(field(&s, "isNew"), true, "the first open creates it");
    call(&s, "set", &["k".into(), 1.into(), JsValue::UNDEFINED]).await;
    call(&s, "close", &[]).await;
    let s = open_manual(&name).await;
    assert_eq!(field(&s, "isNew"), false, "opened again: it was there");
    assert_eq!(call(&s, "get", &["k".into()]).await, 1);
    call(&s, "close", &[]).await;
    destroy(&name).await; // as the browser would, clearing site data
    let s = open_manual(&name).await;
    assert_eq!(field(&s, "isNew"), true, "deleted, then created again");
    assert!(call(&s, "get", &["k".into()]).await.is_undefined());
    destroy(&name).await;
}

/// A single `set` is put at once, without looking up the old record (issue 10). Over a record
/// this connection never saw, with another expiry, the put fails on the unique key index and the
/// write goes the long way: the old record removed, the new one stored, one record per key.
#[wasm_bindgen_test]
async fn a_single_write_over_a_record_this_connection_never_saw() {
    let name = db_name("unseen");
    // `b` creates the database, so it puts keys it has no hint for at once.
    let b = open_manual(&name).await;
    let a = open_manual(&name).await;
    call(&a, "set", &["k".into(), "old".into(), js("({ ttl: 3600 })")]).await;
    call(&a, "set", &["soon".into(), "old".into(), js("({ ttl: 0.05 })")]).await;
    call(&a, "close", &[]).await;
    sleep(100).await;

    let since = now();
    call(&b, "set", &["k".into(), "new".into(), js("({ ttl: 60 })")]).await;
    assert_eq!(call(&b, "get", &["k".into()]).await, "new");
    assert_ttl_set(&b, "k".into(), 60.0, since).await;
    // "soon" expired but was not reaped: its record is in the way of the new one.
    call(&b, "set", &["soon".into(), "again".into(), js("({ ttl: 60 })")]).await;
    assert_eq!(call(&b, "get", &["soon".into()]).await, "again");
    // The same expiry as the stored record: the put replaces it.
    call(&b, "set", &["at".into(), 1.into(), js("({ expiresAt: 4102444800 })")]).await;
    call(&b, "close", &[]).await;
    let c = open_manual(&name).await;
    call(&c, "set", &["at".into(), 2.into(), js("({ expiresAt: 4102444800 })")]).await;
    assert_eq!(call(&c, "get", &["at".into()]).await, 2);
    let keys = raw_keys(&name).await;
    assert_eq!(keys.len(), 3, "one record per key: {keys:?}");
    call(&c, "close", &[]).await;
    destroy(&name).await;
}

/// A set put at once (no lookup) over a record it did not know of: the put meets the other
/// record on the unique key index, the transaction aborts with nothing written, and the set is
/// written again with a lookup. Here for a stale hint (the key rewritten by another connection)
/// and for a key the connection took for new (it created the database).
#[wasm_bindgen_test]
async fn a_set_over_a_record_another_connection_wrote_is_written_again() {
    let name = db_name("put-over");
    let a = open_manual(&name).await;
    let b = open_manual(&name).await;
    call(&a, "set", &["k".into(), "a1".into(), js("({ ttl: 60 })")]).await;
    call(&b, "set", &["k".into(), "b1".into(), js("({ ttl: 120 })")]).await;
    let since = now();
    call(&a, "set", &["k".into(), "a2".into(), js("({ ttl: 180 })")]).await;
    assert_eq!(call(&b, "get", &["k".into()]).await, "a2");
    assert_ttl_set(&b, "k".into(), 180.0, since).await;
    // `a` created the database: a key it has no hint for is taken for new and put at once.
    call(&b, "set", &["n".into(), "b1".into(), js("({ ttl: 60 })")]).await;
    let since = now();
    call(&a, "set", &["n".into(), "a1".into(), js("({ ttl: 240 })")]).await;
    assert_eq!(call(&b, "get", &["n".into()]).await, "a1");
    assert_ttl_set(&a, "n".into(), 240.0, since).await;
    assert_eq!(raw_keys(&name).await.len(), 2, "one record per key");
    call(&a, "close", &[]).await;
    call(&b, "close", &[]).await;
    destroy(&name).await;
}

/// `setMany` puts every write at once too, without lookups (issue 10). Where a put fails on the
/// unique key index, over a record this connection never saw, that write looks the old record up
/// and goes again in the same transaction; a connection that found such keys stored already looks
/// them up first. Either way every key ends with one record and the batch's values.
#[wasm_bindgen_test]
async fn set_many_over_records_this_connection_never_saw() {
    let name = db_name("unseen-many");
    // `b` creates the database, so it expects keys it has no hint for to be new, and puts them
    // at once; `a` then writes keys `b` never sees.
    let b = open_manual(&name).await;
    let a = open_manual(&name).await;
    let old = "[['moved', 'old', { ttl: 3600 }], ['same', 'old', { expiresAt: 4102444800 }], \
               ['gone', 'old', { ttl: 3600 }], ['soon', 'old', { ttl: 0.05 }], [7, 'old', { ttl: 3600 }]]";
    call(&a, "setMany", &[js(old)]).await;
    call(&a, "close", &[]).await;
    sleep(100).await;

    let new = "[['moved', 'new', { ttl: 60 }], ['same', 'new', { expiresAt: 4102444800 }], \
               ['gone', 'new', { ttl: 0 }], ['soon', 'new'], ['fresh', 'new', { ttl: 60 }], \
               [7, 'new', { ttl: 60 }], ['fresh', 'newer', { ttl: 120 }]]";
    let check = |s: JsValue, since: f64| async move {
        let got = call(&s, "getMany", &[js("['moved', 'same', 'gone', 'soon', 'fresh', 7]")]).await;
        assert_eq!(json(&got), r#"["new","new",null,"new","newer","new"]"#);
        assert_ttl_set(&s, "moved".into(), 60.0, since).await;
        assert_ttl_set(&s, "fresh".into(), 120.0, since).await;
        assert!(call(&s, "expiresAt", &["soon".into()]).await.is_null(), "a write without expiry stores none");
    };
    let since = now();
    call(&b, "setMany", &[js(new)]).await;
    check(b.clone(), since).await;
    let keys = raw_keys(&name).await;
    assert_eq!(keys.len(), 5, "one record per live key: {keys:?}");

    // Seen keys now: new expiries go by the hints.
    call(&b, "setMany", &[js("[['moved', 'again', { ttl: 30 }], ['fresh', 'again', { ttl: 30 }], [7, 'again', { ttl: 30 }]]")]).await;
    let got = call(&b, "getMany", &[js("['moved', 'fresh', 7, 'same']")]).await;
    assert_eq!(json(&got), r#"["again","again","again","new"]"#);
    assert_eq!(raw_records(&name).await.length(), 5);
    call(&b, "close", &[]).await;

    // A connection to an existing database looks keys it has no hint for up first.
    let c = open_manual(&name).await;
    call(&c, "setMany", &[js(old)]).await;
    let since = now();
    call(&c, "setMany", &[js(new)]).await;
    check(c.clone(), since).await;
    assert_eq!(raw_records(&name).await.length(), 5);
    call(&c, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn update_keeps_the_expiry_whenever_its_options_name_none() {
    let name = db_name("updkeep");
    let s = open_manual(&name).await;
    let append = js("(old) => [...(old ?? []), 1]");
    for (i, options) in [JsValue::UNDEFINED, JsValue::NULL, js("({})"), js("({ ttl: undefined })")].into_iter().enumerate() {
        let key = JsValue::from(format!("k{i}"));
        call(&s, "set", &[key.clone(), js("[]"), js("({ ttl: 100 })")]).await;
        let at = num(&call(&s, "expiresAt", &[key.clone()]).await);
        call(&s, "update", &[key.clone(), append.clone(), options.clone()]).await;
        assert_eq!(call(&s, "expiresAt", &[key.clone()]).await, JsValue::from_f64(at), "update options #{i} (undefined, null, {{}}, {{ ttl: undefined }}): the expiry is kept");
        assert_eq!(json(&call(&s, "get", &[key]).await), "[1]");
    }
    // Options that name an expiry set it.
    let since = now();
    call(&s, "update", &["k0".into(), append, js("({ ttl: 5 })")]).await;
    assert_ttl_set(&s, "k0".into(), 5.0, since).await;
    call(&s, "close", &[]).await;
    destroy(&name).await;
}
