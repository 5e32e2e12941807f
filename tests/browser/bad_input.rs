//! Bad input is refused with a TypeError or RangeError that quotes the value and says what is
//! accepted, and nothing is written.

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

#[wasm_bindgen_test]
async fn bad_set_calls_throw_and_write_nothing() {
    let name = db_name("badset");
    let s = open_manual(&name).await;
    // (key, options, error class, parts of the message)
    let cases: Vec<(JsValue, &str, &str, Vec<&str>)> = vec![
        ("k".into(), "({ expiresAt: Date.now() })", "RangeError", vec!["expiresAt", "looks like milliseconds", "Unix seconds"]),
        ("k".into(), "({ expiresAt: 'next tuesday' })", "TypeError", vec!["\"next tuesday\"", "YYYY-MM-DD"]),
        ("k".into(), "({ expiresAt: '2019-02-30' })", "TypeError", vec!["\"2019-02-30\""]),
        ("k".into(), "({ expiresAt: NaN })", "RangeError", vec!["NaN"]),
        ("k".into(), "({ expiresAt: Infinity })", "RangeError", vec!["Infinity"]),
        ("k".into(), "({ expiresAt: new Date('nope') })", "TypeError", vec!["Invalid Date"]),
        ("k".into(), "({ expiresAt: '10000-01-01' })", "RangeError", vec!["\"10000-01-01\"", "beyond year 9999"]),
        ("k".into(), "({ expiresAt: true })", "TypeError", vec!["expiresAt true", "Unix seconds"]),
        ("k".into(), "({ ttl: -5 })", "RangeError", vec!["ttl -5", "negative"]),
        ("k".into(), "({ ttl: NaN })", "RangeError", vec!["ttl NaN"]),
        ("k".into(), "({ ttl: '3600' })", "TypeError", vec!["\"3600\""]),
        ("k".into(), "({ ttl: 'soon' })", "TypeError", vec!["\"soon\"", "PT10M"]),
        ("k".into(), "({ ttl: { s: 1 } })", "TypeError", vec!["ttl {\"s\":1}"]),
        ("k".into(), "({ ttl: 10, expiresAt: 1798761600 })", "TypeError", vec!["cannot be combined"]),
        ("k".into(), "({ ttl: 10, keepTtl: true })", "TypeError", vec!["keepTtl"]),
        ("k".into(), "({ expire: 60 })", "TypeError", vec!["unknown option \"expire\"", "ttl, expiresAt, keepTtl"]),
        ("k".into(), "'60'", "TypeError", vec!["set options \"60\""]),
        (js("{ id: 1 }"), "undefined", "TypeError", vec!["key {\"id\":1}", "a string or a number"]),
        (JsValue::NULL, "undefined", "TypeError", vec!["key null"]),
        (JsValue::UNDEFINED, "undefined", "TypeError", vec!["key undefined"]),
        (js("NaN"), "undefined", "RangeError", vec!["key NaN"]),
        (js("true"), "undefined", "TypeError", vec!["key true"]),
        (js("(() => { const a = [1]; a.push(a); return a; })()"), "undefined", "TypeError", vec!["key an array"]),
    ];
    for (key, opts, class, parts) in &cases {
        let e = try_call(&s, "set", &[key.clone(), "v".into(), js(opts)]).await.unwrap_err();
        assert_error(&e, class, parts);
    }
    assert_eq!(raw_records(&name).await.length(), 0, "a refused set wrote something");
    // A value that cannot be cloned: refused naming the key; nothing written.
    let e = try_call(&s, "set", &["fn".into(), js("() => 1"), JsValue::UNDEFINED]).await.unwrap_err();
    assert_error(&e, "TypeError", &["\"fn\"", "structured-cloneable"]);
    assert_eq!(raw_records(&name).await.length(), 0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn one_bad_entry_means_set_many_writes_nothing() {
    let name = db_name("badmany");
    let s = open_manual(&name).await;
    call(&s, "set", &["old".into(), "kept".into(), JsValue::UNDEFINED]).await;
    let bad = [
        ("[['a', 1], ['b', 2, { ttl: -1 }], ['c', 3]]", "RangeError", vec!["setMany entry 1", "ttl -1"]),
        ("[['a', 1], ['b']]", "TypeError", vec!["setMany entry 1", "[key, value]"]),
        ("[['a', 1], [{}, 2]]", "TypeError", vec!["setMany entry 1", "key {}"]),
        ("({ a: 1 })", "TypeError", vec!["setMany entries", "an array"]),
        // Caught inside the transaction (the value cannot be cloned): rolled back as a whole.
        ("[['a', 1], ['old', 'changed'], ['f', () => 1]]", "TypeError", vec!["\"f\"", "structured-cloneable"]),
    ];
    for (entries, class, parts) in &bad {
        let e = try_call(&s, "setMany", &[js(entries)]).await.unwrap_err();
        assert_error(&e, class, parts);
    }
    assert_eq!(raw_keys(&name).await, vec![JsValue::from("old")]);
    assert_eq!(call(&s, "get", &["old".into()]).await, "kept");
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn bad_options_and_arguments_elsewhere() {
    let name = db_name("badother");
    for (opts, class, parts) in [
        ("({ reapIntervalMs: 0 })", "RangeError", vec!["reapIntervalMs 0"]),
        ("({ batchSize: 1.5 })", "RangeError", vec!["batchSize 1.5"]),
        ("({ maxRemovesPerRun: -1 })", "RangeError", vec!["maxRemovesPerRun -1"]),
        ("({ autoReap: 'no' })", "TypeError", vec!["autoReap \"no\""]),
        ("({ defaultTtl: -1 })", "RangeError", vec!["defaultTtl -1"]),
        ("({ reapInterval: 5 })", "TypeError", vec!["unknown option \"reapInterval\""]),
    ] {
        let e = try_open(&name, js(opts)).await.unwrap_err();
        assert_error(&e, class, &parts);
    }
    let e = try_open("", JsValue::UNDEFINED).await.unwrap_err();
    assert_error(&e, "TypeError", &["database name \"\""]);
    let s = open_manual(&name).await;
    call(&s, "set", &["k".into(), 1.into(), JsValue::UNDEFINED]).await;
    let e = try_call(&s, "expire", &["k".into(), JsValue::UNDEFINED]).await.unwrap_err();
    assert_error(&e, "TypeError", &["persist(key)"]);
    let e = try_call(&s, "expire", &["k".into(), js("({ ttl: 'forever' })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["\"forever\""]);
    assert!(call(&s, "expiresAt", &["k".into()]).await.is_null(), "a refused expire changed nothing");
    let e = try_call(&s, "getMany", &[js("['a', null]")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["getMany keys[1]", "key null"]);
    let e = try_call(&s, "deleteMany", &["k".into()]).await.unwrap_err();
    assert_error(&e, "TypeError", &["deleteMany keys \"k\"", "an array"]);
    assert_eq!(call(&s, "get", &["k".into()]).await, 1, "a refused deleteMany deleted nothing");
    let e = try_call(&s, "addEventListener", &["expire".into(), js("() => {}")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["event type \"expire\"", "\"expired\""]);
    destroy(&name).await;
}

/// Issue 8: a lone surrogate read as U+FFFD, so "\uD800" and "\uDC00" opened one database.
#[wasm_bindgen_test]
async fn names_with_lone_surrogates_are_refused() {
    for bad in ["'\\uD800'", "'\\uDC00'", "'db\\uD800'"] {
        let e = try_open_js(js(bad), JsValue::UNDEFINED).await.unwrap_err();
        assert_error(&e, "TypeError", &["database name", "lone surrogate"]);
    }
    // Collections and time series are the default entry's.
    if !cfg!(feature = "full") {
        return;
    }
    let s = open_manual(&db_name("surrogates")).await;
    for method in ["collection", "timeSeries"] {
        let e = try_call(&s, method, &[js("'\\uDC00'"), js("({ timeField: 'ts' })")]).await.unwrap_err();
        assert_error(&e, "TypeError", &["lone surrogate"]);
    }
    // The store still works, and well-formed pairs (an emoji) are names like any other.
    let c = call(&s, "collection", &[js("'\\uD83D\\uDE00'")]).await;
    call(&c, "put", &[js("({ id: 1 })")]).await;
    assert_eq!(num(&call(&c, "count", &[]).await), 1.0);
}
