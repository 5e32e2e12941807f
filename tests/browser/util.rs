//! Helpers for the browser suite: a fresh database per test, calling `TtlStore` methods by name,
//! building JS values from source, and reading IndexedDB directly (not through the store).

#![allow(dead_code)]

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A database name no other test uses.
pub fn db_name(test: &str) -> String {
    format!("idb-ttl-test-{test}-{}", (js_sys::Math::random() * 1e12) as u64)
}

/// Evaluates a JS expression: `js("({ ttl: 0.2 })")`, `js("new Map([[1, 'a']])")`.
pub fn js(src: &str) -> JsValue {
    js_sys::eval(&format!("({src})")).unwrap_or_else(|e| panic!("bad test source {src}: {e:?}"))
}

/// How long one call a helper below awaits may go unanswered before its test fails, naming the
/// call: far above any answer seen on a loaded machine (the store's own `timeoutMs` is 30 s by
/// default), and below the 600 s after which scripts/test.sh stops a browser stage that printed
/// nothing. A call that never answers (a blocked `deleteDatabase`, a request the browser lost)
/// then fails its own test by name and the suite goes on, where the whole engine's stage would
/// otherwise be stopped without a word of which test hung.
const NO_ANSWER_MS: f64 = 300_000.0;

/// Awaits `v` if it is a Promise; panics, naming the call (`what`), if it gets no answer within
/// [`NO_ANSWER_MS`].
async fn resolve(what: impl FnOnce() -> String, v: JsValue) -> Result<JsValue, JsValue> {
    use std::future::Future;
    use std::task::Poll;
    let p = match v.dyn_into::<Promise>() {
        Ok(p) => p,
        Err(v) => return Ok(v),
    };
    let mut answer = std::pin::pin!(JsFuture::from(p));
    // Dropped with this call once it answers, which clears the timer.
    let mut deadline = std::pin::pin!(idb_ttl::timer::sleep(NO_ANSWER_MS));
    let answered = std::future::poll_fn(|cx| match answer.as_mut().poll(cx) {
        Poll::Ready(r) => Poll::Ready(Some(r)),
        Poll::Pending => deadline.as_mut().poll(cx).map(|()| None),
    });
    answered.await.unwrap_or_else(|| panic!("{}: no answer within {} s", what(), NO_ANSWER_MS / 1000.0))
}

/// Opens a store through `TtlStore.open(name, options)`, as a page would.
pub async fn open(name: &str, options: JsValue) -> JsValue {
    try_open(name, options).await.unwrap_or_else(|e| panic!("open {name}: {e:?}"))
}

/// `TtlStore.open` whose error the test wants to see.
pub async fn try_open(name: &str, options: JsValue) -> Result<JsValue, JsValue> {
    resolve(|| format!("TtlStore.open({name:?})"), idb_ttl::js::TtlStore::open(name.into(), options).into()).await
}

/// `TtlStore.open` with a name given as a JS value (a string Rust cannot hold, e.g. a lone
/// surrogate).
pub async fn try_open_js(name: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    resolve(|| "TtlStore.open(<a name Rust cannot hold>)".into(), idb_ttl::js::TtlStore::open(name, options).into()).await
}

/// Opens a store whose reaper never runs on its own.
pub async fn open_manual(name: &str) -> JsValue {
    open(name, js("({ autoReap: false })")).await
}

/// Calls `store[method](...args)` and awaits the result if it is a Promise.
pub async fn try_call(store: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = Reflect::get(store, &method.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .unwrap_or_else(|| panic!("TtlStore has no method {method}"));
    let args: Array = args.iter().collect();
    resolve(|| format!("store.{method}() of {}", json(&Reflect::get(store, &"name".into()).unwrap_or_default())), f.apply(store, &args)?).await
}

/// `try_call` that must succeed.
pub async fn call(store: &JsValue, method: &str, args: &[JsValue]) -> JsValue {
    try_call(store, method, args).await.unwrap_or_else(|e| panic!("{method} failed: {}", message(&e)))
}

/// The error's `name: message`.
pub fn message(e: &JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(err) => format!("{}: {}", String::from(err.name()), String::from(err.message())),
        None => format!("{e:?}"),
    }
}

/// Asserts `e` is a JS error named `name` whose message contains every part of `parts`.
pub fn assert_error(e: &JsValue, name: &str, parts: &[&str]) {
    let err = e.dyn_ref::<js_sys::Error>().unwrap_or_else(|| panic!("not an Error: {e:?}"));
    let (got_name, msg) = (String::from(err.name()), String::from(err.message()));
    assert_eq!(got_name, name, "wrong error class for: {msg}");
    for p in parts {
        assert!(msg.contains(p), "message {msg:?} lacks {p:?}");
    }
    match name {
        "TypeError" => assert!(e.is_instance_of::<js_sys::TypeError>(), "{msg}"),
        "RangeError" => assert!(e.is_instance_of::<js_sys::RangeError>(), "{msg}"),
        _ => {}
    }
}

/// `n` entries expiring in 0.1 s (`e0`.., values `{ i }`) and `live` entries that do not expire
/// (`live0`..), then waits until the first have expired.
pub async fn fill(s: &JsValue, n: u32, live: u32) {
    let src = format!(
        "[...Array.from({{ length: {n} }}, (_, i) => ['e' + i, {{ i }}, {{ ttl: 0.1 }}]), \
          ...Array.from({{ length: {live} }}, (_, i) => ['live' + i, i])]"
    );
    call(s, "setMany", &[js(&src)]).await;
    sleep(150).await;
}

/// Waits `ms` milliseconds.
pub async fn sleep(ms: u32) {
    idb_ttl::timer::sleep(f64::from(ms)).await;
}

/// Deletes the database after a test.
pub async fn destroy(name: &str) {
    try_destroy(name, JsValue::UNDEFINED).await.unwrap_or_else(|e| panic!("destroy {name}: {}", message(&e)));
}

/// `TtlStore.destroy(name, options)` whose error the test wants to see.
pub async fn try_destroy(name: &str, options: JsValue) -> Result<JsValue, JsValue> {
    resolve(|| format!("TtlStore.destroy({name:?})"), idb_ttl::js::TtlStore::destroy(name.into(), options).into()).await
}

/// Every record physically stored in the `entries` object store, read with plain IndexedDB
/// (no idb-ttl code involved), as `{k, e, v}` objects.
pub async fn raw_records(name: &str) -> Array {
    raw_store(name, "entries", "getAll").await
}

/// `getAll` (records) or `getAllKeys` (primary keys) of object store `store`, with plain IndexedDB.
pub async fn raw_store(name: &str, store: &str, method: &str) -> Array {
    let src = format!(
        r#"new Promise((resolve, reject) => {{
            const open = indexedDB.open({name:?});
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {{
                const db = open.result;
                const req = db.transaction({store:?}).objectStore({store:?}).{method}();
                req.onsuccess = () => {{ db.close(); resolve(req.result); }};
                req.onerror = () => {{ db.close(); reject(req.error); }};
            }};
        }})"#
    );
    resolve(|| format!("plain IndexedDB {method} of {store:?} in {name:?}"), js(&src)).await.expect("raw read").unchecked_into()
}

/// Holds a plain-IndexedDB transaction of `mode` on object store `store` of database `name`
/// open (a chain of requests) until `release(&lock)`. Resolves once the lock is held; the
/// returned object's `released` becomes `true` once the transaction has ended.
pub async fn hold_store(name: &str, store: &str, mode: &str) -> JsValue {
    let src = format!(
        r#"new Promise((resolve, reject) => {{
            const open = indexedDB.open({name:?});
            open.onsuccess = () => {{
                const db = open.result;
                const tx = db.transaction({store:?}, {mode:?});
                const s = tx.objectStore({store:?});
                const state = {{ released: false, stop: false }};
                const spin = () => {{ if (!state.stop) s.count().onsuccess = spin; }};
                s.count().onsuccess = () => {{ spin(); resolve(state); }};
                tx.oncomplete = () => {{ state.released = true; db.close(); }};
            }};
            open.onerror = () => reject(open.error);
        }})"#
    );
    resolve(|| format!("plain IndexedDB lock on {store:?} in {name:?}"), js(&src)).await.expect("hold a lock")
}

/// Ends a `hold_store` lock and waits until its transaction has ended.
pub async fn release(lock: &JsValue) {
    Reflect::set(lock, &"stop".into(), &JsValue::TRUE).unwrap();
    while Reflect::get(lock, &"released".into()).unwrap() != JsValue::TRUE {
        sleep(20).await;
    }
}

/// Whether this browser session can store a Blob in IndexedDB at all, asked with plain
/// IndexedDB in a scratch database (WebKit's ephemeral sessions, like Safari Private Browsing,
/// cannot).
pub async fn session_stores_blobs() -> bool {
    let name = db_name("blob-probe");
    let src = format!(
        r#"new Promise((resolve) => {{
            const open = indexedDB.open({name:?});
            open.onupgradeneeded = () => open.result.createObjectStore("s");
            open.onsuccess = () => {{
                const db = open.result;
                const tx = db.transaction("s", "readwrite");
                tx.objectStore("s").put(new Blob(["x"]), 1);
                tx.oncomplete = () => {{ db.close(); indexedDB.deleteDatabase({name:?}); resolve(true); }};
                tx.onabort = () => {{ db.close(); indexedDB.deleteDatabase({name:?}); resolve(false); }};
            }};
        }})"#
    );
    resolve(|| "a Blob written with plain IndexedDB".into(), js(&src)).await.unwrap() == JsValue::TRUE
}

/// Keys of the raw records, in stored (expiry) order.
pub async fn raw_keys(name: &str) -> Vec<JsValue> {
    raw_records(name).await.iter().map(|r| Reflect::get(&r, &"k".into()).unwrap()).collect()
}

/// A JS array from values.
pub fn arr(items: &[JsValue]) -> JsValue {
    items.iter().collect::<Array>().into()
}

/// `JSON.stringify(v)`, for comparing plain values.
pub fn json(v: &JsValue) -> String {
    js_sys::JSON::stringify(v).map(String::from).unwrap_or_else(|_| format!("{v:?}"))
}

/// Strings from a JS array of strings.
pub fn strings(v: &JsValue) -> Vec<String> {
    v.dyn_ref::<Array>().expect("an array").iter().map(|s| s.as_string().expect("a string")).collect()
}

/// `v[name]`.
pub fn field(v: &JsValue, name: &str) -> JsValue {
    Reflect::get(v, &name.into()).unwrap()
}

/// Asserts that `ttl(key)` on `store` answers seconds within `range` (time passes while a test runs).
pub async fn assert_ttl_within(store: &JsValue, key: JsValue, range: std::ops::RangeInclusive<f64>) {
    let left = num(&call(store, "ttl", &[key]).await);
    assert!(range.contains(&left), "ttl {left}, expected {range:?}");
}

/// `v` as a number.
pub fn num(v: &JsValue) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v:?}"))
}

/// Collects the `event.detail` of every event of `kind` the store fires into a JS array.
pub fn listen(store: &JsValue, kind: &str) -> Array {
    let seen = Array::new();
    let sink = seen.clone();
    let f = Closure::<dyn FnMut(JsValue)>::new(move |ev: JsValue| {
        sink.push(&Reflect::get(&ev, &"detail".into()).unwrap());
    });
    let add: Function = Reflect::get(store, &"addEventListener".into()).unwrap().unchecked_into();
    add.call2(store, &kind.into(), f.as_ref()).expect("addEventListener");
    f.forget();
    seen
}

/// Runs two futures concurrently on the single JS thread.
pub async fn futures_join<A: std::future::Future, B: std::future::Future>(a: A, b: B) -> (A::Output, B::Output) {
    let (mut ra, mut rb) = (None, None);
    let mut a = std::pin::pin!(a);
    let mut b = std::pin::pin!(b);
    std::future::poll_fn(|cx| {
        if ra.is_none() {
            if let std::task::Poll::Ready(v) = a.as_mut().poll(cx) {
                ra = Some(v);
            }
        }
        if rb.is_none() {
            if let std::task::Poll::Ready(v) = b.as_mut().poll(cx) {
                rb = Some(v);
            }
        }
        if ra.is_some() && rb.is_some() { std::task::Poll::Ready(()) } else { std::task::Poll::Pending }
    })
    .await;
    (ra.unwrap(), rb.unwrap())
}


/// Waits up to `ms` for `cond`, checking every 10 ms; whether it held.
pub async fn until(ms: u32, mut cond: impl FnMut() -> bool) -> bool {
    for _ in 0..ms / 10 {
        if cond() {
            return true;
        }
        sleep(10).await;
    }
    cond()
}

/// The number `name` of `store.stats()`.
pub fn stat(store: &JsValue, name: &str) -> f64 {
    let stats = Function::from(Reflect::get(store, &"stats".into()).unwrap()).call0(store).unwrap();
    num(&field(&stats, name))
}

/// A deadline for waiting on something a test checks happens (not how fast): far above what it
/// needs on a slow or loaded machine (issue 39). Reached only when the thing never happens.
pub const LONG_MS: u32 = 60_000;

/// Waits up to [`LONG_MS`] for `cond`; whether it held.
pub async fn eventually(cond: impl FnMut() -> bool) -> bool {
    until(LONG_MS, cond).await
}

/// The clock the store reads (`Date.now()`), Unix ms.
pub fn now() -> f64 {
    js_sys::Date::now()
}

/// Asserts that `ttl(key)` answers what a write of `secs` seconds made at or after `since`
/// (Unix ms, read before the write) leaves: at most `secs`, and no less than `secs` minus the
/// time measured since `since` (so a slow machine widens the bound by exactly its slowness).
pub async fn assert_ttl_set(store: &JsValue, key: JsValue, secs: f64, since: f64) {
    let left = num(&call(store, "ttl", &[key]).await);
    let spent = (now() - since) / 1000.0;
    assert!(left <= secs && left >= secs - spent - 0.002, "ttl {left}, expected {secs} s less at most the {spent} s spent since the write");
}

/// What a timing scenario found: `Err` means a step outlasted the time the scenario gave it, so
/// the run cannot judge the behaviour (the machine was too slow for this scale), not that the
/// behaviour was wrong.
pub type Timed = Result<(), String>;

/// `Err` (too slow to judge) once the clock has reached `deadline` (Unix ms): a step meant to end
/// before it did not. Call it after the step and before asserting on what the step returned.
pub fn in_time(deadline: f64, what: &str) -> Timed {
    let late = now() - deadline;
    if late < 0.0 { Ok(()) } else { Err(format!("{what}: {late} ms late")) }
}

/// Waits for `cond` until `deadline` (Unix ms): `Ok` once it holds, `Err` (too slow to judge) if
/// the deadline came first.
pub async fn before(deadline: f64, what: &str, mut cond: impl FnMut() -> bool) -> Timed {
    while now() < deadline {
        if cond() {
            return Ok(());
        }
        sleep(5).await;
    }
    Err(format!("{what}: not before its deadline"))
}

/// Runs a scenario whose checks depend on steps fitting inside short ttls, idle windows or key
/// lifetimes, with every such time multiplied by `scale` (1, then 4, then 16): a run that finds
/// its steps too slow for its times (an `Err` from [`in_time`]) is run again slower, so the
/// verdict depends on the behaviour, not the machine's speed (issue 39). On a quiet machine the
/// first run decides. Assertions inside fail at once, at any scale.
pub async fn scaled<F, Fut>(what: &str, mut scenario: F)
where
    F: FnMut(f64) -> Fut,
    Fut: std::future::Future<Output = Timed>,
{
    let mut why = Vec::new();
    for scale in [1.0, 4.0, 16.0] {
        match scenario(scale).await {
            Ok(()) => return,
            Err(e) => {
                wasm_bindgen_test::console_log!("{what}: too slow to judge at scale {scale} ({e}); again slower");
                why.push(format!("scale {scale}: {e}"));
            }
        }
    }
    panic!("{what}: not judged at any scale (too slow a machine, or what was awaited never came): {why:?}");
}
