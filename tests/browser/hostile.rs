//! No JS exception crosses wasm frames: thousands of calls whose arguments throw when read (a
//! revoked Proxy, a Proxy whose traps throw, a throwing getter, an array whose index getter
//! throws) each reject with a TypeError, calls queued beside them still settle, and the module
//! stays healthy: no stall, no leaked wasm stack (which used to end, after about 2 100 such
//! calls, in "memory access out of bounds" for every call, even TtlStore.open).

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

/// Hostile values that throw when read.
const HOSTILE: &str = r#"(() => {
    const revoked = Proxy.revocable({}, {}); revoked.revoke();
    const boom = () => { throw new Error("boom"); };
    const traps = { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom };
    const throwingArray = new Proxy([1, 2, 3], { get: (t, k) => { if (k === "length") return 3; throw new Error("index boom"); } });
    return [revoked.proxy, new Proxy({}, traps), { get ttl() { throw new Error("getter boom"); } }, throwingArray,
            new Proxy([], traps), Object.defineProperty([1], 0, { get: boom })];
})()"#;

#[wasm_bindgen_test]
async fn thousands_of_throwing_arguments_leave_the_module_healthy() {
    let name = db_name("hostile");
    let s = open_manual(&name).await;
    call(&s, "set", &["a".into(), 1.into(), JsValue::UNDEFINED]).await;
    // A collection and a time series: the default entry's (`undefined` in the lite build, unused).
    let full = cfg!(feature = "full");
    let (c, t) = if full {
        (call(&s, "collection", &["c".into(), JsValue::UNDEFINED]).await, call(&s, "timeSeries", &["t".into(), js("({ timeField: 't' })")]).await)
    } else {
        (JsValue::UNDEFINED, JsValue::UNDEFINED)
    };
    let hostile: Array = js(HOSTILE).unchecked_into();

    // The report's minimal case: a refused call and a normal one issued in the same microtask.
    let get: Function = Reflect::get(&s, &"get".into()).unwrap().unchecked_into();
    let refused: Promise = get.call1(&s, &hostile.get(0)).unwrap().unchecked_into();
    let normal: Promise = get.call1(&s, &"a".into()).unwrap().unchecked_into();
    assert_error(&JsFuture::from(refused).await.unwrap_err(), "TypeError", &["key"]);
    assert_eq!(JsFuture::from(normal).await.unwrap(), 1, "the call beside the refused one settles");

    let memory = || Reflect::get(&Reflect::get(&wasm_bindgen::memory(), &"buffer".into()).unwrap(), &"byteLength".into()).unwrap().as_f64().unwrap();
    let before = memory();
    let mut refusals = 0;
    for round in 0..500 {
        let x = hostile.get(round % hostile.length());
        let calls: [(&JsValue, &str, Vec<JsValue>); 8] = [
            (&s, "set", vec!["k".into(), 1.into(), x.clone()]),
            (&s, "setMany", vec![x.clone()]),
            (&s, "getMany", vec![x.clone()]),
            (&s, "expire", vec!["a".into(), x.clone()]),
            (&s, "import", vec![x.clone()]),
            (&c, "putMany", vec![x.clone()]),
            (&t, "insertMany", vec![x.clone()]),
            (&t, "query", vec![x.clone()]),
        ];
        for (target, method, args) in calls.into_iter().filter(|(target, ..)| full || *target == &s) {
            let e = try_call(target, method, &args).await.expect_err(method);
            assert!(e.is_instance_of::<js_sys::TypeError>(), "{method} round {round}: {}", message(&e));
            refusals += 1;
        }
    }
    assert_eq!(refusals, if full { 4_000 } else { 2_500 });
    let grown = memory() - before;
    assert!(grown <= 1_048_576.0, "wasm memory grew by {grown} bytes over {refusals} refused calls");

    // Everything still works, including opening another store.
    assert_eq!(call(&s, "get", &["a".into()]).await, 1);
    call(&s, "set", &["b".into(), 2.into(), js("({ ttl: 60 })")]).await;
    assert_eq!(call(&s, "get", &["b".into()]).await, 2);
    if full {
        call(&c, "put", &[js("({ id: 1 })")]).await;
        assert_eq!(num(&call(&c, "count", &[]).await), 1.0);
    }
    let other = db_name("hostile-after");
    let s2 = open_manual(&other).await;
    call(&s2, "set", &["x".into(), "y".into(), JsValue::UNDEFINED]).await;
    assert_eq!(call(&s2, "get", &["x".into()]).await, "y");
    call(&s2, "close", &[]).await;
    destroy(&other).await;
    call(&s, "close", &[]).await;
    destroy(&name).await;
}
