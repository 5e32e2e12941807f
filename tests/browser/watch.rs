//! `store.watch(key, listener)`: the listener gets the key's value once read, its new value at
//! every write and `undefined` once it is deleted or expires, in this member or another (here
//! two stores in one context, each its own member, as in members.rs); an expiry is told when it
//! comes, by the store's one timer, with no reaper pass; a listener that throws changes nothing
//! for the others. The stores here never reap on their own (`autoReap: false`) unless said.

use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

/// A listener that records what it is told (`undefined` included) in the returned array.
fn recorder() -> (JsValue, Array) {
    let seen = Array::new();
    let make: Function = js("(seen) => (v) => { seen.push(v); }").unchecked_into();
    (make.call1(&JsValue::UNDEFINED, &seen).unwrap(), seen)
}

/// `store.watch(key, listener)`; the function that stops it.
fn watch(store: &JsValue, key: &str, listener: &JsValue) -> Function {
    let f: Function = field(store, "watch").unchecked_into();
    f.call2(store, &key.into(), listener).expect("watch").unchecked_into()
}

fn stats(s: &JsValue) -> JsValue {
    let f: Function = field(s, "stats").unchecked_into();
    f.call0(s).expect("stats()")
}

/// What `seen` holds, as JSON (`undefined` as null).
fn told(seen: &Array) -> String {
    json(&seen.iter().map(|v| if v.is_undefined() { JsValue::NULL } else { v }).collect::<Array>().into())
}

#[wasm_bindgen_test]
async fn set_delete_and_expiry_in_this_member_reach_the_listener_without_the_reaper() {
    // The short ttl scaled until the listener is told the value before it expires (issue 39).
    scaled("watch-here", |k| async move {
        let name = db_name("watch-here");
        let s = open_manual(&name).await;
        let (listener, seen) = recorder();
        let stop = watch(&s, "k", &listener);
        assert!(eventually(|| seen.length() == 1).await, "told the current value once read");
        assert!(seen.get(0).is_undefined(), "missing: undefined");

        call(&s, "set", &["k".into(), 1.into(), JsValue::UNDEFINED]).await;
        assert!(eventually(|| seen.length() == 2).await);
        call(&s, "set", &["k".into(), js("({ n: 2 })"), JsValue::UNDEFINED]).await;
        assert!(eventually(|| seen.length() == 3).await);
        call(&s, "delete", &["k".into()]).await;
        assert!(eventually(|| seen.length() == 4).await);
        call(&s, "delete", &["k".into()]).await;
        let written = now();
        call(&s, "setMany", &[js(&format!("[['k', 'many', {{ ttl: {} }}], ['other', 1]]", 0.3 * k))]).await;
        before(written + 300.0 * k, "the value told before its expiry", || seen.length() == 5).await?;
        assert_eq!(told(&seen), r#"[null,1,{"n":2},null,"many"]"#, "a delete of a missing key tells nothing");

        // The expiry comes from the store's timer: no reaper ran, the record is still stored.
        let expires_ms = num(&call(&s, "expiresAt", &["k".into()]).await) * 1000.0;
        assert!(eventually(|| seen.length() == 6).await, "told of the expiry");
        let at = js_sys::Date::now();
        assert!(seen.get(5).is_undefined());
        assert!(at >= expires_ms - 1.0, "told at {at}, before the expiry {expires_ms}");
        assert_eq!(num(&field(&stats(&s), "reaperRuns")), 0.0, "no reaper pass");
        assert!(raw_keys(&name).await.contains(&"k".into()), "the record waits for the reaper; the listener did not");
        assert!(call(&s, "get", &["k".into()]).await.is_undefined(), "and the store reads it as gone");

        stop.call0(&JsValue::UNDEFINED).unwrap();
        stop.call0(&JsValue::UNDEFINED).unwrap(); // twice is harmless
        call(&s, "set", &["k".into(), 7.into(), JsValue::UNDEFINED]).await;
        sleep(100).await;
        assert_eq!(seen.length(), 6, "nothing after stopping");
        assert_eq!(num(&field(&stats(&s), "watchedKeys")), 0.0);
        call(&s, "close", &[]).await;
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn expire_and_persist_move_the_timer() {
    // The short ttl scaled until the persist comes before it ends (issue 39).
    scaled("watch-expire", |k| async move {
        let name = db_name("watch-expire");
        let s = open_manual(&name).await;
        let written = now();
        call(&s, "set", &["k".into(), "v".into(), js(&format!("({{ ttl: {} }})", 0.3 * k))]).await;
        let (listener, seen) = recorder();
        let _stop = watch(&s, "k", &listener);
        before(written + 300.0 * k, "the watch's first read", || seen.length() == 1).await?;
        assert_eq!(seen.get(0), "v");
        call(&s, "persist", &["k".into()]).await;
        in_time(written + 300.0 * k, "the persist before the expiry")?;
        sleep((500.0 * k) as u32).await;
        assert_eq!(seen.length(), 1, "persisted: no expiry, and the value did not change");
        assert!(field(&stats(&s), "watchTimerAt").is_null(), "no timer for a key without expiry");
        let expired_at = now();
        call(&s, "expire", &["k".into(), js(&format!("({{ ttl: {} }})", 0.2 * k))]).await;
        before(expired_at + 200.0 * k, "the timer follows the new expiry", || field(&stats(&s), "watchTimerAt").as_f64().is_some()).await?;
        assert!(eventually(|| seen.length() == 2).await, "told of the expiry expire() set");
        assert!(seen.get(1).is_undefined());
        call(&s, "close", &[]).await;
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn many_watched_keys_share_one_timer_set_for_the_soonest() {
    // The expiries scaled until the watches are set up before the first (issue 39).
    scaled("watch-many", |k| async move {
        let name = db_name("watch-many");
        let s = open_manual(&name).await;
        let n = 100;
        // Key i expires 0.3 s + i * 5 ms from now (times k), written in reverse order.
        let written = now();
        call(&s, "setMany", &[js(&format!("Array.from({{ length: {n} }}, (_, i) => ['k' + ({n} - 1 - i), {n} - 1 - i, {{ ttl: {k} * (0.3 + ({n} - 1 - i) * 0.005) }}])"))]).await;
        let order = Array::new();
        let mut stops = vec![];
        for i in 0..n {
            let make: Function = js("(order, i) => (v) => { if (v === undefined) order.push(i); }").unchecked_into();
            let listener = make.call2(&JsValue::UNDEFINED, &order, &i.into()).unwrap();
            stops.push(watch(&s, &format!("k{i}"), &listener));
        }
        assert_eq!(num(&field(&stats(&s), "watchedKeys")), n as f64);
        let soonest = call(&s, "expiresAt", &["k0".into()]).await;
        in_time(written + 300.0 * k, "the watches before the first expiry")?;
        let soonest = num(&soonest);
        before(written + 300.0 * k, "the timer set before the first expiry", || field(&stats(&s), "watchTimerAt").as_f64().is_some_and(|at| (at - soonest).abs() < 0.002)).await?;
        assert!(eventually(|| order.length() == n).await, "every expiry told ({} of {n})", order.length());
        let got: Vec<u32> = order.iter().map(|v| v.as_f64().unwrap() as u32).collect();
        let mut sorted = got.clone();
        sorted.sort_unstable();
        assert_eq!(got, sorted, "told in expiry order");
        assert!(field(&stats(&s), "watchTimerAt").is_null(), "no timer once nothing watched can expire");
        for stop in stops {
            stop.call0(&JsValue::UNDEFINED).unwrap();
        }
        call(&s, "close", &[]).await;
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn another_members_writes_and_expiries_reach_the_listener() {
    // The short ttl scaled until b is told the value before it expires (issue 39).
    scaled("watch-members", |k| async move {
        let name = db_name("watch-members");
        let a = open_manual(&name).await;
        let b = open_manual(&name).await;
        let (listener, seen) = recorder();
        let _stop = watch(&b, "k", &listener);
        assert!(eventually(|| seen.length() == 1).await);
        call(&a, "set", &["k".into(), "from a".into(), JsValue::UNDEFINED]).await;
        assert!(eventually(|| seen.length() == 2).await, "a's write reaches b's listener");
        call(&a, "delete", &["k".into()]).await;
        assert!(eventually(|| seen.length() == 3).await, "a's delete too");
        let written = now();
        call(&a, "set", &["k".into(), "short".into(), js(&format!("({{ ttl: {} }})", 0.4 * k))]).await;
        before(written + 400.0 * k, "b told the value before its expiry", || seen.length() == 4).await?;
        assert!(eventually(|| seen.length() == 5).await, "the expiry of a's write, told by b's own timer");
        call(&a, "set", &["k".into(), "again".into(), JsValue::UNDEFINED]).await;
        assert!(eventually(|| seen.length() == 6).await);
        call(&a, "clear", &[]).await;
        assert!(eventually(|| seen.length() == 7).await, "a's clear");
        assert_eq!(told(&seen), r#"[null,"from a",null,"short",null,"again",null]"#);
        call(&a, "close", &[]).await;
        call(&b, "close", &[]).await;
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn a_throwing_listener_breaks_neither_the_store_nor_the_other_listeners() {
    // The short ttl scaled until the listener is told the value before it expires (issue 39).
    scaled("watch-throws", |k| async move {
        let name = db_name("watch-throws");
        let s = open_manual(&name).await;
        // The page must not treat the reported exception as a failure of this test.
        let quiet: Function = js("() => { window.__watchErrors = 0; window.addEventListener('error', (e) => { if (String(e.message).includes('listener boom')) { e.preventDefault(); window.__watchErrors++; } }); }").unchecked_into();
        quiet.call0(&JsValue::UNDEFINED).unwrap();
        let boom = js("() => { throw new Error('listener boom'); }");
        let (listener, seen) = recorder();
        let _a = watch(&s, "k", &boom);
        let _b = watch(&s, "k", &listener);
        let written = now();
        call(&s, "set", &["k".into(), 1.into(), js(&format!("({{ ttl: {} }})", 0.2 * k))]).await;
        before(written + 200.0 * k, "the value told before its expiry", || seen.length() >= 2).await?;
        assert!(eventually(|| seen.length() >= 3).await, "the other listener is told everything");
        assert_eq!(told(&seen), "[null,1,null]");
        call(&s, "set", &["j".into(), 2.into(), JsValue::UNDEFINED]).await;
        assert_eq!(call(&s, "get", &["j".into()]).await, 2, "the store works");
        let errors = js("window.__watchErrors").as_f64().unwrap_or(0.0);
        assert!(errors >= 1.0, "the exceptions were reported ({errors})");
        call(&s, "close", &[]).await;
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn bad_arguments_and_a_closed_store_throw() {
    let name = db_name("watch-bad");
    let s = open_manual(&name).await;
    let f: Function = field(&s, "watch").unchecked_into();
    let e = f.call2(&s, &f64::NAN.into(), &js("() => {}")).unwrap_err();
    assert_error(&e, "RangeError", &["key NaN"]);
    let e = f.call2(&s, &js("({})"), &js("() => {}")).unwrap_err();
    assert_error(&e, "TypeError", &["key {}"]);
    let e = f.call2(&s, &"k".into(), &5.into()).unwrap_err();
    assert_error(&e, "TypeError", &["watch listener 5", "a function"]);
    call(&s, "close", &[]).await;
    let e = f.call2(&s, &"k".into(), &js("() => {}")).unwrap_err();
    assert_error(&e, "StoreClosedError", &[]);
    destroy(&name).await;
}
