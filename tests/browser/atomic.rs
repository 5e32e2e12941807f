//! Read-modify-write (`add`, `replace`, `take`, `incr`, `update`, `expire` with `only`,
//! `collection.update`): what each does with a live, missing or expired entry, that calls made
//! at once never lose one another's writes, their events, and that bad input is refused with
//! nothing written (the database read with plain IndexedDB after each refusal).

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

/// Starts every call of `calls` at once (no await between them) and gives their results.
async fn all_at_once(s: &JsValue, calls: &str) -> Vec<JsValue> {
    let f: js_sys::Function = js(&format!("(s) => Promise.all({calls})")).unchecked_into();
    let p: js_sys::Promise = f.call1(&JsValue::UNDEFINED, s).unwrap().unchecked_into();
    let out: js_sys::Array = wasm_bindgen_futures::JsFuture::from(p).await.unwrap_or_else(|e| panic!("{}", message(&e))).unchecked_into();
    out.to_vec()
}

#[wasm_bindgen_test]
async fn add_writes_only_where_no_live_entry_is() {
    let name = db_name("add");
    let s = open_manual(&name).await;
    let since = now();
    assert_eq!(call(&s, "add", &["lock".into(), "a".into(), js("({ ttl: 30 })")]).await, true);
    assert_eq!(call(&s, "add", &["lock".into(), "b".into(), js("({ ttl: 30 })")]).await, false);
    assert_eq!(call(&s, "get", &["lock".into()]).await, "a");
    assert_ttl_set(&s, "lock".into(), 30.0, since).await;
    // An expired entry the reaper has not removed counts as absent, and is replaced.
    call(&s, "set", &["old".into(), "stale".into(), js("({ ttl: 0.05 })")]).await;
    sleep(100).await;
    assert_eq!(call(&s, "add", &["old".into(), "new".into(), JsValue::UNDEFINED]).await, true);
    assert_eq!(call(&s, "get", &["old".into()]).await, "new");
    assert_eq!(call(&s, "ttl", &["old".into()]).await, JsValue::NULL);
    assert_eq!(raw_records(&name).await.length(), 2, "the expired record was replaced, not kept beside");
    // 20 adds of one key at once: exactly one wins.
    let won = all_at_once(&s, "Array.from({ length: 20 }, (_, i) => s.add('once', i))").await;
    assert_eq!(won.iter().filter(|w| **w == JsValue::TRUE).count(), 1, "{won:?}");
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn replace_writes_only_over_a_live_entry() {
    let name = db_name("replace");
    let s = open_manual(&name).await;
    assert_eq!(call(&s, "replace", &["cfg".into(), 1.into(), JsValue::UNDEFINED]).await, false);
    assert_eq!(raw_records(&name).await.length(), 0, "a replace of nothing wrote");
    call(&s, "set", &["cfg".into(), 1.into(), js("({ ttl: 100 })")]).await;
    let at = call(&s, "expiresAt", &["cfg".into()]).await;
    assert_eq!(call(&s, "replace", &["cfg".into(), 2.into(), js("({ keepTtl: true })")]).await, true);
    assert_eq!(call(&s, "get", &["cfg".into()]).await, 2);
    assert_eq!(call(&s, "expiresAt", &["cfg".into()]).await, at, "keepTtl kept the expiry");
    assert_eq!(call(&s, "replace", &["cfg".into(), 3.into(), JsValue::UNDEFINED]).await, true);
    assert_eq!(call(&s, "ttl", &["cfg".into()]).await, JsValue::NULL, "a plain replace, like set, has no expiry");
    // Expired and not reaped: absent for replace.
    call(&s, "set", &["gone".into(), 1.into(), js("({ ttl: 0.05 })")]).await;
    sleep(100).await;
    assert_eq!(call(&s, "replace", &["gone".into(), 2.into(), JsValue::UNDEFINED]).await, false);
    assert_eq!(call(&s, "get", &["gone".into()]).await, JsValue::UNDEFINED);
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn take_reads_and_removes_at_once() {
    let name = db_name("take");
    let s = open_manual(&name).await;
    call(&s, "set", &["once".into(), js("({ n: 1 })"), js("({ ttl: 60 })")]).await;
    assert_eq!(json(&call(&s, "take", &["once".into()]).await), "{\"n\":1}");
    assert_eq!(call(&s, "has", &["once".into()]).await, false);
    assert_eq!(raw_records(&name).await.length(), 0);
    assert_eq!(call(&s, "take", &["once".into()]).await, JsValue::UNDEFINED);
    call(&s, "set", &["late".into(), 1.into(), js("({ ttl: 0.05 })")]).await;
    sleep(100).await;
    assert_eq!(call(&s, "take", &["late".into()]).await, JsValue::UNDEFINED, "an expired entry is not taken");
    // Ten takes at once: one gets the value.
    call(&s, "set", &["t".into(), "v".into(), JsValue::UNDEFINED]).await;
    let got = all_at_once(&s, "Array.from({ length: 10 }, () => s.take('t'))").await;
    assert_eq!(got.iter().filter(|v| **v == "v").count(), 1, "{got:?}");
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn incr_counts_from_zero_and_keeps_a_live_entrys_expiry() {
    let name = db_name("incr");
    let s = open_manual(&name).await;
    let since = now();
    assert_eq!(call(&s, "incr", &["hits".into(), JsValue::UNDEFINED, js("({ ttl: 60 })")]).await, 1);
    assert_ttl_set(&s, "hits".into(), 60.0, since).await;
    let at = call(&s, "expiresAt", &["hits".into()]).await;
    // A live key keeps its expiry whatever the options say (Redis INCR).
    assert_eq!(call(&s, "incr", &["hits".into(), 2.into(), js("({ ttl: 5 })")]).await, 3);
    assert_eq!(call(&s, "expiresAt", &["hits".into()]).await, at);
    assert_eq!(call(&s, "incr", &["hits".into(), js("-0.5")]).await, 2.5);
    assert_eq!(call(&s, "incr", &["hits".into()]).await, 3.5);
    // Expired and not reaped: starts again from 0 with the options' expiry.
    call(&s, "set", &["w".into(), 41.into(), js("({ ttl: 0.05 })")]).await;
    sleep(100).await;
    let since = now();
    assert_eq!(call(&s, "incr", &["w".into(), 1.into(), js("({ ttl: 10 })")]).await, 1);
    assert_ttl_set(&s, "w".into(), 10.0, since).await;
    // 200 at once: every number from 1 to 200 once.
    let got = all_at_once(&s, "Array.from({ length: 200 }, () => s.incr('burst'))").await;
    let mut got: Vec<f64> = got.iter().map(num).collect();
    got.sort_by(f64::total_cmp);
    assert_eq!(got, (1..=200).map(f64::from).collect::<Vec<_>>());
    assert_eq!(call(&s, "get", &["burst".into()]).await, 200);
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn incr_takes_the_stores_default_ttl_for_a_new_key() {
    let name = db_name("incrdef");
    let s = open(&name, js("({ autoReap: false, defaultTtl: 50 })")).await;
    let since = now();
    call(&s, "incr", &["n".into()]).await;
    assert_ttl_set(&s, "n".into(), 50.0, since).await;
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn update_writes_what_the_updater_returns_inside_the_transaction() {
    let name = db_name("update");
    let s = open_manual(&name).await;
    // A missing key: the updater gets undefined.
    let first = call(&s, "update", &["list".into(), js("(old) => (old === undefined ? ['first'] : ['wrong'])")]).await;
    assert_eq!(json(&first), "[\"first\"]");
    // 100 at once, each appending: none lost.
    all_at_once(&s, "Array.from({ length: 100 }, (_, i) => s.update('list', (old) => [...old, i]))").await;
    let list = call(&s, "get", &["list".into()]).await;
    assert_eq!(js_sys::Array::from(&list).length(), 101, "{}", json(&list));
    // Expiry: kept; options set it.
    call(&s, "set", &["e".into(), 1.into(), js("({ ttl: 100 })")]).await;
    let at = call(&s, "expiresAt", &["e".into()]).await;
    assert_eq!(call(&s, "update", &["e".into(), js("(n) => n + 1")]).await, 2);
    assert_eq!(call(&s, "expiresAt", &["e".into()]).await, at);
    let since = now();
    call(&s, "update", &["e".into(), js("(n) => n + 1"), js("({ ttl: 5 })")]).await;
    assert_ttl_set(&s, "e".into(), 5.0, since).await;
    // Returning undefined removes the entry.
    assert_eq!(call(&s, "update", &["e".into(), js("() => undefined")]).await, JsValue::UNDEFINED);
    assert_eq!(call(&s, "has", &["e".into()]).await, false);
    // An expired entry is given as undefined.
    call(&s, "set", &["old".into(), "stale".into(), js("({ ttl: 0.05 })")]).await;
    sleep(100).await;
    assert_eq!(call(&s, "update", &["old".into(), js("(v) => String(v)")]).await, "undefined");
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn an_updater_that_throws_or_is_async_writes_nothing() {
    let name = db_name("updbad");
    let s = open_manual(&name).await;
    call(&s, "set", &["k".into(), js("[1]"), js("({ ttl: 100 })")]).await;
    let before = json(&raw_records(&name).await.into());
    // The call rejects with exactly what the updater threw.
    let thrown = js("{ mine: 1 }");
    let thrower: js_sys::Function = js("(e) => () => { throw e; }").unchecked_into();
    let f = thrower.call1(&JsValue::UNDEFINED, &thrown).unwrap();
    let e = try_call(&s, "update", &["k".into(), f]).await.unwrap_err();
    assert!(js_sys::Object::is(&e, &thrown), "rejected with {e:?}, not what was thrown");
    for (updater, parts) in [
        ("async (old) => [...old, 2]", vec!["update(\"k\")", "Promise"]),
        ("(old) => Promise.resolve(old)", vec!["Promise", "nothing was written"]),
        ("() => ({ then() {} })", vec!["thenable"]),
    ] {
        let e = try_call(&s, "update", &["k".into(), js(updater)]).await.unwrap_err();
        assert_error(&e, "TypeError", &parts);
    }
    // A returned value whose `then` cannot be read (a throwing getter, a revoked Proxy): a
    // TypeError naming the call and what was thrown.
    let e = try_call(&s, "update", &["k".into(), js("() => ({ get then() { throw new RangeError('getter'); } })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["update(\"k\")", "then cannot be read", "getter"]);
    let e = try_call(&s, "update", &["k".into(), js("() => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; }")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["update(\"k\")", "then cannot be read"]);
    let e = try_call(&s, "update", &["k".into(), js("() => () => 1")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["\"k\"", "cannot be stored"]);
    for bad in ["'not a function'", "undefined", "({})"] {
        let e = try_call(&s, "update", &["k".into(), js(bad)]).await.unwrap_err();
        assert_error(&e, "TypeError", &["update updater", "a function"]);
    }
    assert_eq!(json(&raw_records(&name).await.into()), before, "a refused update changed the database");
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn expire_only_follows_redis_7s_conditions() {
    let name = db_name("expireonly");
    let s = open_manual(&name).await;
    call(&s, "set", &["t".into(), 1.into(), js("({ ttl: 100 })")]).await;
    call(&s, "set", &["never".into(), 1.into(), JsValue::UNDEFINED]).await;
    let cases = [
        ("t", "({ ttl: 50, only: 'later' })", false),
        ("t", "({ ttl: 200, only: 'later' })", true),
        ("t", "({ ttl: 300, only: 'sooner' })", false),
        ("t", "({ ttl: 150, only: 'sooner' })", true),
        ("t", "({ ttl: 10, only: 'noExpiry' })", false),
        ("t", "({ ttl: 120, only: 'hasExpiry' })", true),
        ("never", "({ ttl: 10, only: 'later' })", false),
        ("never", "({ ttl: 10, only: 'hasExpiry' })", false),
        ("never", "({ ttl: 500, only: 'sooner' })", true),
        ("missing", "({ ttl: 10, only: 'sooner' })", false),
    ];
    // When each key's last expiry that held was set (read before the call).
    let (mut t_since, mut never_since) = (0.0, 0.0);
    for (key, opts, changed) in cases {
        let since = now();
        assert_eq!(call(&s, "expire", &[key.into(), js(opts)]).await, changed, "expire({key}, {opts})");
        match (key, changed) {
            ("t", true) => t_since = since,
            ("never", true) => never_since = since,
            _ => {}
        }
    }
    assert_ttl_set(&s, "t".into(), 120.0, t_since).await;
    assert_ttl_set(&s, "never".into(), 500.0, never_since).await;
    call(&s, "persist", &["never".into()]).await;
    let since = now();
    assert_eq!(call(&s, "expire", &["never".into(), js("({ ttl: 10, only: 'noExpiry' })")]).await, true);
    assert_ttl_set(&s, "never".into(), 10.0, since).await;
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn each_write_is_a_change_event_named_by_its_verb() {
    let name = db_name("rmwevents");
    let s = open_manual(&name).await;
    let seen = listen(&s, "change");
    call(&s, "add", &["a".into(), 1.into()]).await;
    call(&s, "add", &["a".into(), 2.into()]).await; // false: no event
    call(&s, "replace", &["a".into(), 3.into()]).await;
    call(&s, "replace", &["none".into(), 3.into()]).await; // false: no event
    call(&s, "incr", &["a".into()]).await;
    call(&s, "update", &["a".into(), js("(n) => n * 2")]).await;
    call(&s, "expire", &["a".into(), js("({ ttl: 60, only: 'noExpiry' })")]).await;
    call(&s, "expire", &["a".into(), js("({ ttl: 60, only: 'noExpiry' })")]).await; // false: no event
    call(&s, "take", &["a".into()]).await;
    call(&s, "take", &["a".into()]).await; // nothing: no event
    let ops: Vec<String> = seen.iter().map(|d| field(&d, "op").as_string().unwrap()).collect();
    assert_eq!(ops, ["add", "replace", "incr", "update", "expire", "take"]);
    assert!(seen.iter().all(|d| json(&field(&d, "keys")) == "[\"a\"]"));
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn watch_and_observe_see_the_new_values() {
    let name = db_name("rmwwatch");
    let s = open_manual(&name).await;
    call(&s, "set", &["n".into(), 1.into(), js("({ ttl: 60 })")]).await;
    let seen = js_sys::Array::new();
    let sink = seen.clone();
    let f = Closure::<dyn FnMut(JsValue)>::new(move |v: JsValue| {
        sink.push(&v);
    });
    let stop = call(&s, "watch", &["n".into(), f.as_ref().clone()]).await;
    assert!(eventually(|| seen.length() >= 1).await);
    let views = js_sys::Array::new();
    let vsink = views.clone();
    let g = Closure::<dyn FnMut(JsValue)>::new(move |v: JsValue| {
        vsink.push(&v);
    });
    let unobserve = call(&s, "observe", &[js("({ keys: ['n'] })"), g.as_ref().clone()]).await;
    assert!(eventually(|| views.length() >= 1).await);
    call(&s, "incr", &["n".into(), 4.into()]).await;
    assert!(eventually(|| seen.iter().any(|v| v == 5)).await, "watch saw {}", json(&seen.into()));
    assert!(
        eventually(|| views.iter().any(|v| json(&v).contains("\"value\":5"))).await,
        "observe saw {}",
        json(&views.clone().into())
    );
    call(&s, "take", &["n".into()]).await;
    assert!(eventually(|| seen.iter().last().is_some_and(|v| v.is_undefined())).await, "watch saw the take");
    assert!(eventually(|| views.iter().last().is_some_and(|v| js_sys::Array::from(&v).length() == 0)).await, "observe saw the take");
    js_sys::Function::from(stop).call0(&JsValue::UNDEFINED).unwrap();
    js_sys::Function::from(unobserve).call0(&JsValue::UNDEFINED).unwrap();
    drop((f, g));
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn bad_input_is_refused_and_nothing_is_written() {
    let name = db_name("rmwbad");
    let s = open_manual(&name).await;
    call(&s, "set", &["word".into(), "abc".into(), js("({ ttl: 100 })")]).await;
    call(&s, "set", &["n".into(), 1.into(), js("({ ttl: 100 })")]).await;
    call(&s, "set", &["big".into(), js("Number.MAX_VALUE")]).await;
    let before = json(&raw_records(&name).await.into());
    // (verb, arguments, error class, parts of the message)
    let cases: Vec<(&str, &str, &str, Vec<&str>)> = vec![
        ("add", "[{ id: 1 }, 1]", "TypeError", vec!["key {\"id\":1}"]),
        ("add", "['k', 1, { ttl: -5 }]", "RangeError", vec!["ttl -5"]),
        ("add", "['k', 1, { expiresAt: Date.now() }]", "RangeError", vec!["looks like milliseconds"]),
        ("add", "['k', 1, { expire: 5 }]", "TypeError", vec!["add options", "\"expire\""]),
        ("add", "['k', () => 1]", "TypeError", vec!["\"k\"", "cannot be stored"]),
        ("replace", "['n', 2, { ttl: NaN }]", "RangeError", vec!["ttl NaN"]),
        ("replace", "['n', 2, '60']", "TypeError", vec!["replace options \"60\""]),
        ("replace", "['n', () => 1]", "TypeError", vec!["\"n\"", "cannot be stored"]),
        // Refused too where nothing would have been written: no live entry to replace, a live
        // one to add to.
        ("replace", "['missing', () => 1]", "TypeError", vec!["\"missing\"", "cannot be stored"]),
        ("add", "['n', Symbol('s')]", "TypeError", vec!["\"n\"", "cannot be stored"]),
        ("take", "[null]", "TypeError", vec!["key null"]),
        ("take", "[NaN]", "RangeError", vec!["key NaN"]),
        ("incr", "['n', NaN]", "TypeError", vec!["\"n\"", "by NaN", "finite number"]),
        ("incr", "['n', Infinity]", "TypeError", vec!["by Infinity"]),
        ("incr", "['n', '1']", "TypeError", vec!["by \"1\""]),
        ("incr", "['n', 1n]", "TypeError", vec!["by 1n"]),
        ("incr", "['n', null]", "TypeError", vec!["by null"]),
        ("incr", "['n', 1, { keepTtl: true }]", "TypeError", vec!["incr options", "keepTtl"]),
        ("incr", "['n', 1, { ttl: -1 }]", "RangeError", vec!["ttl -1"]),
        ("incr", "['big', 1.7976931348623157e308]", "RangeError", vec!["\"big\"", "Infinity", "not a finite number"]),
        ("incr", "['word']", "TypeError", vec!["\"word\"", "\"abc\"", "not a number"]),
        ("incr", "[[1], 1]", "TypeError", vec!["key [1]"]),
        ("update", "['n', (n) => n + 1, { ttl: 'soon' }]", "TypeError", vec!["\"soon\""]),
        ("update", "['n', (n) => n + 1, { keepTtl: true }]", "TypeError", vec!["update options", "keepTtl"]),
        ("update", "[true, (n) => n]", "TypeError", vec!["key true"]),
        ("expire", "['n', { ttl: 5, only: 'NX' }]", "TypeError", vec!["only \"NX\"", "\"noExpiry\"", "\"sooner\""]),
        ("expire", "['n', { ttl: 5, only: 'gt' }]", "TypeError", vec!["only \"gt\""]),
        ("expire", "['n', { ttl: 5, only: 5 }]", "TypeError", vec!["only 5"]),
        ("expire", "['n', { only: 'later' }]", "TypeError", vec!["needs { ttl }"]),
    ];
    for (verb, args, class, parts) in &cases {
        let args: js_sys::Array = js(args).unchecked_into();
        let e = try_call(&s, verb, &args.to_vec()).await.expect_err(&format!("{verb}{} was accepted", json(&args.clone().into())));
        assert_error(&e, class, parts);
        assert_eq!(json(&raw_records(&name).await.into()), before, "{verb} {parts:?}: a refused call changed the database");
    }
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[cfg(feature = "full")]
#[wasm_bindgen_test]
async fn incr_and_update_in_an_encrypted_store_lose_nothing() {
    let name = db_name("rmwcrypt");
    let s = open(&name, js("({ autoReap: false, encryption: true })")).await;
    // 100 at once on one key, none given up (they take turns), none lost.
    let got = all_at_once(&s, "Array.from({ length: 100 }, () => s.incr('n', 1, { ttl: 60 }))").await;
    let mut got: Vec<f64> = got.iter().map(num).collect();
    got.sort_by(f64::total_cmp);
    assert_eq!(got, (1..=100).map(f64::from).collect::<Vec<_>>());
    assert_eq!(call(&s, "get", &["n".into()]).await, 100);
    all_at_once(&s, "Array.from({ length: 100 }, (_, i) => s.update('list', (old) => [...(old ?? []), i]))").await;
    assert_eq!(js_sys::Array::from(&call(&s, "get", &["list".into()]).await).length(), 100);
    // Stored sealed: no plaintext number in the raw records.
    let raw = raw_records(&name).await;
    assert!(raw.iter().all(|r| !field(&r, "v").as_f64().is_some()), "a value was stored in the clear");
    assert_eq!(call(&s, "add", &["a".into(), "x".into()]).await, true);
    assert_eq!(call(&s, "take", &["a".into()]).await, "x");
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

#[cfg(feature = "full")]
#[wasm_bindgen_test]
async fn collection_update_reads_the_ttl_field_of_the_new_document() {
    let name = db_name("docupdate");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["sessions".into(), js("({ keyPath: 'id', ttlIndex: { field: 'seen', expireAfter: 60 } })")]).await;
    collection_update_at_once().await;
    // Seen 50 s ago: 10 s left.
    call(&c, "put", &[js("({ id: 's1', n: 0, seen: new Date(Date.now() - 50000) })")]).await;
    all_at_once(&c, "Array.from({ length: 20 }, () => s.update('s1', (d) => ({ ...d, n: d.n + 1 })))").await;
    assert_eq!(field(&call(&c, "get", &["s1".into()]).await, "n"), 20);
    // Seen now: the document's expiry moves on.
    let since = now();
    let doc = call(&c, "update", &["s1".into(), js("(d) => ({ ...d, seen: new Date() })")]).await;
    assert_eq!(field(&doc, "n"), 20);
    let rec = raw_store(&name, "docs", "getAll").await.get(0);
    assert!(num(&field(&rec, "r")) >= since, "the reference was read from the new document");
    // A missing document: the updater gets undefined; returning one creates it.
    let made = call(&c, "update", &["s2".into(), js("(d) => (d === undefined ? { id: 's2', n: 1 } : d)")]).await;
    assert_eq!(field(&made, "n"), 1);
    // An id the updater changed: refused, nothing written.
    let before = json(&raw_store(&name, "docs", "getAll").await.into());
    let e = try_call(&c, "update", &["s2".into(), js("(d) => ({ ...d, id: 's3' })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["\"s3\"", "\"s2\"", "nothing was written"]);
    let e = try_call(&c, "update", &["s2".into(), js("() => { throw new SyntaxError('mine'); }")]).await.unwrap_err();
    assert_error(&e, "SyntaxError", &["mine"]);
    let e = try_call(&c, "update", &["s2".into(), js("async (d) => d")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["Promise"]);
    assert_eq!(json(&raw_store(&name, "docs", "getAll").await.into()), before, "a refused collection update changed the database");
    // Returning undefined deletes the document.
    assert_eq!(call(&c, "update", &["s2".into(), js("() => undefined")]).await, JsValue::UNDEFINED);
    assert_eq!(call(&c, "get", &["s2".into()]).await, JsValue::UNDEFINED);
    call(&s, "close", &[]).await;
    destroy(&name).await;
}

/// 50 `collection.update`s of one document at once in an encrypted store: none given up, none lost.
#[cfg(feature = "full")]
async fn collection_update_at_once() {
    let name = db_name("docupdcrypt");
    let s = open(&name, js("({ autoReap: false, encryption: true })")).await;
    let c = call(&s, "collection", &["c".into(), js("({ keyPath: 'id' })")]).await;
    call(&c, "put", &[js("({ id: 1, n: 0 })")]).await;
    all_at_once(&c, "Array.from({ length: 50 }, () => s.update(1, (d) => ({ ...d, n: d.n + 1 })))").await;
    assert_eq!(field(&call(&c, "get", &[1.into()]).await, "n"), 50);
    call(&s, "close", &[]).await;
    destroy(&name).await;
}
