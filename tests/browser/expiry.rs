//! Lazy expiry: no read shows an expired entry, whether or not the reaper ran.

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

#[wasm_bindgen_test]
async fn an_expired_entry_is_gone_from_every_read_before_any_reap() {
    let name = db_name("lazy");
    let s = open(&name, js("({ reapIntervalMs: 50 })")).await;
    call(&s, "pauseReaper", &[]).await;
    // Seen live first with a long ttl, then shortened: the check that it was there does not race
    // its expiry (issue 39); the sleep is a lower bound past the short one.
    call(&s, "setMany", &[js("[['short', 'x', { ttl: 3600 }], ['long', 'y', { ttl: 60 }]]")]).await;
    assert_eq!(call(&s, "get", &["short".into()]).await, "x");
    assert_eq!(call(&s, "expire", &["short".into(), js("({ ttl: 0.2 })")]).await, JsValue::TRUE);
    sleep(300).await;
    assert!(call(&s, "get", &["short".into()]).await.is_undefined());
    assert_eq!(call(&s, "has", &["short".into()]).await, JsValue::FALSE);
    assert_eq!(json(&call(&s, "getMany", &[js("['short', 'long']")]).await), r#"[null,"y"]"#);
    assert_eq!(json(&call(&s, "keys", &[]).await), r#"["long"]"#);
    assert_eq!(json(&call(&s, "values", &[]).await), r#"["y"]"#);
    assert_eq!(json(&call(&s, "entries", &[]).await), r#"[["long","y"]]"#);
    assert_eq!(num(&call(&s, "count", &[]).await), 1.0);
    assert!(call(&s, "expiresAt", &["short".into()]).await.is_undefined());
    assert!(call(&s, "ttl", &["short".into()]).await.is_undefined());
    assert_eq!(call(&s, "expire", &["short".into(), js("({ ttl: 60 })")]).await, JsValue::FALSE);
    assert_eq!(call(&s, "persist", &["short".into()]).await, JsValue::FALSE);
    assert_eq!(call(&s, "delete", &["short".into()]).await, JsValue::FALSE, "an expired entry is not live");
    // Paused, so nothing reaped; the expired record was still stored until delete removed it.
    assert_eq!(num(&js_sys::Reflect::get(&call(&s, "stats", &[]).await, &"reaperRuns".into()).unwrap()), 0.0);
    assert_eq!(raw_records(&name).await.length(), 1);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn keep_ttl_on_an_expired_entry_does_not_revive_its_expiry() {
    let name = db_name("keepexpired");
    let s = open_manual(&name).await;
    call(&s, "set", &["k".into(), 1.into(), js("({ ttl: 0.1 })")]).await;
    sleep(150).await;
    call(&s, "set", &["k".into(), 2.into(), js("({ keepTtl: true })")]).await;
    assert_eq!(call(&s, "get", &["k".into()]).await, 2);
    assert!(call(&s, "expiresAt", &["k".into()]).await.is_null());
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn default_ttl_applies_to_writes_without_expiry() {
    let name = db_name("defaultttl");
    let s = open(&name, js("({ defaultTtl: '2 minutes', autoReap: false })")).await;
    let since = now();
    call(&s, "set", &["a".into(), 1.into(), JsValue::UNDEFINED]).await;
    call(&s, "setMany", &[js("[['b', 2], ['c', 3, { ttl: 5 }]]")]).await;
    for (k, max) in [("a", 120.0), ("b", 120.0), ("c", 5.0)] {
        assert_ttl_set(&s, k.into(), max, since).await;
    }
    destroy(&name).await;
}
