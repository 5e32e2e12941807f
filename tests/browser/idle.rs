//! Idle expiry (`{ idle }`): an entry expires a window after its last read, never past its cap;
//! `peek` reads without extending; reads never return an entry whose window has passed; the
//! extension written once per moment, seen by other connections, never lost to the reaper.

use js_sys::{Array, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

async fn detail(s: &JsValue, key: &str) -> JsValue {
    call(s, "ttl", &[key.into(), js("({ detail: true })")]).await
}

#[wasm_bindgen_test]
async fn an_idle_entry_lives_a_window_after_its_last_read() {
    // Every time here scales with the window (k s) until the reads fit in it (issue 39).
    scaled("idle", |k| async move {
        let name = db_name("idle");
        let s = open_manual(&name).await;
        let mut last = (now(), 0.0);
        call(&s, "set", &["session".into(), "token".into(), js(&format!("({{ idle: {k} }})"))]).await;
        let rec = raw_records(&name).await.get(0);
        assert_eq!(num(&field(&rec, "i")), 1000.0 * k, "the window is stored beside the expiry");
        assert!(field(&rec, "c").is_undefined(), "no cap given, none stored");
        for _ in 0..3 {
            // Half a window, three times: without the reads it would have expired by the second.
            sleep((500.0 * k) as u32).await;
            let t = now();
            let got = call(&s, "get", &["session".into()]).await;
            in_time(last.0 + 1000.0 * k, "a read within a window of the one before")?;
            assert_eq!(got, "token");
            last = (t, now());
        }
        sleep((150.0 * k) as u32).await;
        let t = now();
        let left = call(&s, "ttl", &["session".into()]).await;
        in_time(last.0 + 1000.0 * k, "ttl() within the window")?;
        let left = num(&left);
        // A window after the last read, as measured around the read and this call.
        let (low, high) = ((last.0 + 1000.0 * k - now()) / 1000.0, (last.1 + 1000.0 * k - t) / 1000.0);
        assert!(left >= low - 0.002 && left <= high + 0.002, "extended to a window after the last read: {left}, not in {low}..{high}");
        assert_eq!(raw_records(&name).await.length(), 1, "an extension moves the record, never copies it");
        sleep((1100.0 * k) as u32).await;
        assert!(call(&s, "get", &["session".into()]).await.is_undefined(), "a window without a read: gone");
        assert_eq!(raw_records(&name).await.length(), 1, "gone before any reap");
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn peek_reads_without_extending() {
    scaled("idlepeek", |k| async move {
        let name = db_name("idlepeek");
        let s = open_manual(&name).await;
        let written = now();
        call(&s, "set", &["k".into(), "v".into(), js(&format!("({{ idle: {} }})", 0.8 * k))]).await;
        sleep((400.0 * k) as u32).await;
        let got = call(&s, "peek", &["k".into()]).await;
        in_time(written + 800.0 * k, "the peek within the window")?;
        assert_eq!(got, "v");
        sleep((500.0 * k) as u32).await;
        assert!(call(&s, "peek", &["k".into()]).await.is_undefined(), "peek did not move the window on");
        assert!(call(&s, "get", &["k".into()]).await.is_undefined(), "nor can a get revive it");
        assert_eq!(stat(&s, "idleExtended"), 0.0);
        assert!(call(&s, "peek", &["missing".into()]).await.is_undefined());
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn the_cap_bounds_every_extension() {
    scaled("idlecap", |k| async move {
        let name = db_name("idlecap");
        let s = open_manual(&name).await;
        let written = now();
        call(&s, "set", &["k".into(), 1.into(), js(&format!("({{ idle: {k}, ttl: {} }})", 1.4 * k))]).await;
        let d = detail(&s, "k").await;
        assert_eq!(num(&field(&d, "idle")), k);
        let cap = num(&field(&d, "cap"));
        assert!(cap >= written / 1000.0 + 1.4 * k - 0.002 && cap <= now() / 1000.0 + 1.4 * k, "cap {cap}");
        sleep((700.0 * k) as u32).await;
        let got = call(&s, "get", &["k".into()]).await;
        in_time(written + 1000.0 * k, "the read within the window")?;
        assert_eq!(got, 1);
        sleep((150.0 * k) as u32).await;
        let at = call(&s, "expiresAt", &["k".into()]).await;
        in_time(cap * 1000.0, "expiresAt() before the cap")?;
        let at = num(&at);
        assert!((at - cap).abs() < 0.001, "extended to the cap, not past it: {at} vs {cap}");
        sleep((350.0 * k) as u32).await;
        let got = call(&s, "get", &["k".into()]).await;
        in_time(cap * 1000.0, "the read before the cap")?;
        assert_eq!(got, 1, "within the cap");
        sleep((400.0 * k) as u32).await;
        assert!(call(&s, "get", &["k".into()]).await.is_undefined(), "read all along, gone at the cap");
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn reads_in_a_hot_loop_write_one_extension() {
    scaled("idlehot", |k| async move {
        let name = db_name("idlehot");
        let s = open_manual(&name).await;
        let changes = listen(&s, "change");
        // Capped 0.1 s past the window: the first read after 0.3 s extends each to its cap, and no
        // later read has anything to extend, however long the loop takes (a loop of reads outlasting
        // a tenth of an uncapped window would rightly extend again).
        let written = now();
        call(&s, "setMany", &[js(&format!("[['a', 1, {{ idle: {w}, ttl: {c} }}], ['b', 2, {{ idle: {w}, ttl: {c} }}], ['plain', 3]]", w = 2.0 * k, c = 2.1 * k))]).await;
        sleep((300.0 * k) as u32).await;
        for i in 0..100 {
            call(&s, "get", &["a".into()]).await;
            call(&s, "getMany", &[js("['b', 'plain']")]).await;
            if i == 0 {
                in_time(written + 2000.0 * k, "the first reads within the window")?;
            }
        }
        assert!(stat(&s, "idleWaiting") <= 2.0);
        assert!(eventually(|| stat(&s, "idleExtended") >= 2.0).await, "the extensions are written");
        sleep(100).await;
        assert_eq!(stat(&s, "idleExtended"), 2.0, "200 reads, one write of the two idle keys");
        let extends: Vec<JsValue> = changes.iter().filter(|d| field(d, "op") == "extend").collect();
        assert_eq!(extends.len(), 1, "one \"change\" for the batch");
        assert_eq!(json(&field(&extends[0], "keys")), r#"["a","b"]"#);
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn values_and_entries_extend_keys_do_not() {
    scaled("idlelists", |k| async move {
        let name = db_name("idlelists");
        let s = open_manual(&name).await;
        let written = now();
        call(&s, "setMany", &[js(&format!("[['a', 1, {{ idle: {w} }}], ['b', 2, {{ idle: {w} }}]]", w = 0.8 * k))]).await;
        sleep((400.0 * k) as u32).await;
        let keys = call(&s, "keys", &[]).await;
        in_time(written + 800.0 * k, "keys() within the window")?;
        assert_eq!(json(&keys), r#"["a","b"]"#);
        assert_eq!(stat(&s, "idleWaiting"), 0.0, "keys() returns no entry");
        let read = now();
        let values = call(&s, "values", &[]).await;
        in_time(written + 800.0 * k, "values() within the window")?;
        assert_eq!(json(&values), "[1,2]");
        assert_eq!(stat(&s, "idleWaiting"), 2.0);
        sleep((500.0 * k) as u32).await;
        let entries = call(&s, "entries", &[]).await;
        in_time(read + 800.0 * k, "entries() within the window values() began")?;
        assert_eq!(json(&entries), r#"[["a",1],["b",2]]"#, "values() extended both");
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn another_connection_sees_an_extension_once_written() {
    scaled("idletabs", |k| async move {
        let name = db_name("idletabs");
        let (a, b) = (open_manual(&name).await, open_manual(&name).await);
        let b_changes = listen(&b, "change");
        let written = now();
        call(&a, "set", &["k".into(), "v".into(), js(&format!("({{ idle: {k} }})"))]).await;
        sleep((500.0 * k) as u32).await;
        // Both read it at once: both write an extension, the record is moved once each, never doubled.
        let read = now();
        let (x, y) = futures_join(call(&a, "get", &["k".into()]), call(&b, "get", &["k".into()])).await;
        in_time(written + 1000.0 * k, "the reads within the window")?;
        assert_eq!((x, y), ("v".into(), "v".into()));
        assert!(eventually(|| b_changes.iter().any(|d| field(&d, "op") == "extend" && field(&d, "remote") == JsValue::TRUE)).await);
        // Whatever extension each read made due is written (one read may find the other's
        // already stored, and have none to write).
        assert!(eventually(|| stat(&a, "idleWaiting") == 0.0 && stat(&b, "idleWaiting") == 0.0).await, "the extensions due are written");
        sleep((200.0 * k) as u32).await;
        assert_eq!(raw_records(&name).await.length(), 1);
        sleep((400.0 * k) as u32).await;
        // 1.1 windows after the write, 0.6 after the reads.
        let (pb, pa) = (call(&b, "peek", &["k".into()]).await, call(&a, "peek", &["k".into()]).await);
        in_time(read + 1000.0 * k, "the peeks within the window of the reads")?;
        assert_eq!(pb, "v");
        assert_eq!(pa, "v");
        sleep((600.0 * k) as u32).await;
        assert!(call(&b, "peek", &["k".into()]).await.is_undefined());
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn a_reaper_pass_writes_what_this_member_read_first() {
    scaled("idlereap", |k| async move {
        let name = db_name("idlereap");
        let s = open_manual(&name).await;
        let written = now();
        call(&s, "setMany", &[js(&format!("[['read', 1, {{ idle: {} }}], ['unread', 2, {{ ttl: {} }}]]", 0.5 * k, 0.3 * k))]).await;
        sleep((350.0 * k) as u32).await;
        let read = now();
        let got = call(&s, "get", &["read".into()]).await;
        in_time(written + 500.0 * k, "the read within the window")?;
        assert_eq!(got, 1);
        // At once, before the extension's own write is due: the pass writes it first.
        let report = call(&s, "reap", &[]).await;
        in_time(read + 500.0 * k, "the pass within the window of the read")?;
        assert_eq!(num(&field(&report, "removed")), 1.0, "only the expired one");
        assert_eq!(stat(&s, "idleExtended"), 1.0);
        let e = num(&field(&raw_records(&name).await.get(0), "e"));
        assert!(e >= read + 500.0 * k - 1.0, "the stored expiry moved on to a window after the read: {e}");
        sleep((300.0 * k) as u32).await;
        let got = call(&s, "peek", &["read".into()]).await;
        in_time(read + 500.0 * k, "the peek within the window of the read")?;
        assert_eq!(got, 1, "past its first window");
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn an_expired_idle_entry_is_never_returned_nor_extended() {
    let name = db_name("idleexpired");
    let s = open_manual(&name).await;
    call(&s, "set", &["k".into(), 1.into(), js("({ idle: 0.2 })")]).await;
    sleep(250).await;
    assert!(call(&s, "get", &["k".into()]).await.is_undefined());
    assert!(json(&call(&s, "getMany", &[js("['k']")]).await) == "[null]");
    assert_eq!(json(&call(&s, "values", &[]).await), "[]");
    assert_eq!(stat(&s, "idleWaiting"), 0.0, "a read of an expired entry extends nothing");
    assert_eq!(raw_records(&name).await.length(), 1, "not reaped yet");
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn expire_keep_ttl_and_persist_carry_or_drop_the_window() {
    let name = db_name("idleverbs");
    let s = open_manual(&name).await;
    call(&s, "set", &["k".into(), 1.into(), js("({ ttl: 60 })")]).await;
    assert!(field(&detail(&s, "k").await, "idle").is_null(), "a plain entry has no window");
    let since = now();
    assert_eq!(call(&s, "expire", &["k".into(), js("({ idle: '10 min', expiresAt: Date.now() / 1000 + 3600 })")]).await, JsValue::TRUE);
    let d = detail(&s, "k").await;
    assert_eq!(num(&field(&d, "idle")), 600.0);
    let left = num(&field(&d, "ttl"));
    assert!(left >= 600.0 - (now() - since) / 1000.0 - 0.002 && left <= 600.0, "{left}");
    call(&s, "set", &["k".into(), 2.into(), js("({ keepTtl: true })")]).await;
    let d = detail(&s, "k").await;
    assert_eq!(num(&field(&d, "idle")), 600.0, "keepTtl keeps the window");
    assert!(!field(&d, "cap").is_null(), "and the cap");
    assert_eq!(call(&s, "persist", &["k".into()]).await, JsValue::TRUE);
    assert_eq!(json(&detail(&s, "k").await), r#"{"ttl":null,"idle":null,"cap":null}"#);
    assert!(detail(&s, "missing").await.is_undefined());
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn bad_idle_options_are_refused_and_write_nothing() {
    let name = db_name("idlebad");
    let s = open_manual(&name).await;
    let cases: [(&str, &str, &[&str]); 6] = [
        ("({ idle: -1 })", "RangeError", &["idle -1"]),
        ("({ idle: NaN })", "RangeError", &["idle NaN"]),
        ("({ idle: 'soon' })", "TypeError", &["idle", "\"soon\""]),
        ("({ idle: true })", "TypeError", &["idle true", "seconds"]),
        ("({ idle: 60, keepTtl: true })", "TypeError", &["cannot be combined with idle"]),
        ("({ idle: 60, ttl: 1, expiresAt: 2e9 })", "TypeError", &["cannot be combined"]),
    ];
    for (options, class, parts) in cases {
        let e = try_call(&s, "set", &["k".into(), 1.into(), js(options)]).await.expect_err(options);
        assert_error(&e, class, parts);
        let e = try_call(&s, "setMany", &[Array::of2(&js("['ok', 1]"), &Array::of3(&"k".into(), &1.into(), &js(options))).into()]).await.expect_err(options);
        assert_error(&e, class, &["setMany entry 1"]);
    }
    assert_eq!(raw_records(&name).await.length(), 0, "no partial write");
    let e = try_call(&s, "ttl", &["k".into(), js("({ detail: 1 })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["detail 1", "true or false"]);
    let e = try_call(&s, "ttl", &["k".into(), js("({ details: true })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["unknown option \"details\"", "detail"]);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn a_watch_follows_an_extension() {
    scaled("idlewatch", |k| async move {
        let name = db_name("idlewatch");
        let s = open_manual(&name).await;
        let written = now();
        call(&s, "set", &["k".into(), "v".into(), js(&format!("({{ idle: {} }})", 0.6 * k))]).await;
        let seen = Array::new();
        let sink = seen.clone();
        let f = Closure::<dyn FnMut(JsValue)>::new(move |v: JsValue| {
            sink.push(&v);
        });
        let watch: js_sys::Function = Reflect::get(&s, &"watch".into()).unwrap().unchecked_into();
        let stop: js_sys::Function = watch.call2(&s, &"k".into(), f.as_ref()).unwrap().unchecked_into();
        before(written + 600.0 * k, "the watch's first read", || seen.length() == 1).await?;
        sleep((300.0 * k) as u32).await;
        let read = now();
        let got = call(&s, "get", &["k".into()]).await;
        in_time(written + 600.0 * k, "the read within the window")?;
        assert_eq!(got, "v");
        // The extension written (and so announced) before the old expiry.
        before(written + 600.0 * k, "the extension's write", || stat(&s, "idleExtended") >= 1.0).await?;
        sleep((450.0 * k) as u32).await;
        let told = json(&seen);
        in_time(read + 600.0 * k, "the look within the new window")?;
        assert_eq!(told, r#"["v"]"#, "past the old expiry, the watch knows of the extension");
        assert!(eventually(|| seen.length() == 2).await);
        assert!(seen.get(1).is_undefined(), "then told it expired");
        assert_eq!(stat(&s, "idleExtended"), 1.0, "watching read it without extending it");
        stop.call0(&JsValue::UNDEFINED).unwrap();
        drop(f);
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn export_and_import_keep_an_idle_entry_idle() {
    let (from, to) = (db_name("idleexport"), db_name("idleimport"));
    let s = open_manual(&from).await;
    let written = now();
    call(&s, "setMany", &[js("[['sid', 'a', { idle: 60, ttl: 3600 }], ['open', 'b', { idle: '2 min' }], ['plain', 'c', { ttl: 600 }]]")]).await;
    let snapshot = call(&s, "export", &[]).await;
    let entries: Array = field(&snapshot, "entries").unchecked_into();
    let by_key = |k: &str| entries.iter().find(|e| field(e, "key") == k).unwrap();
    assert_eq!(num(&field(&by_key("sid"), "idle")), 60.0);
    let cap = num(&field(&by_key("sid"), "cap"));
    assert!(cap >= written / 1000.0 + 3600.0 - 0.002 && cap <= now() / 1000.0 + 3600.0, "cap {cap}");
    assert!(field(&by_key("open"), "cap").is_null(), "no cap: null");
    assert!(field(&by_key("plain"), "idle").is_undefined(), "a plain entry's snapshot is as before");
    // Through JSON, as a backup travels.
    let text = js_sys::JSON::stringify(&snapshot).unwrap();
    let t = open_manual(&to).await;
    call(&t, "import", &[js_sys::JSON::parse(&String::from(text)).unwrap()]).await;
    let d = call(&t, "ttl", &["sid".into(), js("({ detail: true })")]).await;
    assert_eq!(num(&field(&d, "idle")), 60.0);
    assert!((num(&field(&d, "cap")) - cap).abs() < 0.001);
    assert_eq!(num(&field(&call(&t, "ttl", &["open".into(), js("({ detail: true })")]).await, "idle")), 120.0);
    assert!(field(&call(&t, "ttl", &["plain".into(), js("({ detail: true })")]).await, "idle").is_null());
    // A snapshot's idle is checked like any of its times, and a bad one imports nothing.
    for bad in ["-1", "'soon'", "0"] {
        let src = format!("({{ format: 'idb-ttl-snapshot', version: 1, database: 'x', exportedAt: 0, entries: [{{ key: 'k', value: 1, expiresAt: null, idle: {bad} }}], collections: [], timeSeries: [] }})");
        let snap = js(&src);
        Reflect::set(&snap, &"format".into(), &field(&snapshot, "format")).unwrap();
        let e = try_call(&t, "import", &[snap]).await.unwrap_err();
        assert_error(&e, "TypeError", &["snapshot.entries[0].idle", "a positive number of seconds"]);
    }
    assert!(call(&t, "peek", &["k".into()]).await.is_undefined());
    destroy(&from).await;
    destroy(&to).await;
}

#[wasm_bindgen_test]
async fn close_writes_the_extensions_due() {
    scaled("idleclose", |k| async move {
        let name = db_name("idleclose");
        let a = open_manual(&name).await;
        let written = now();
        call(&a, "set", &["w".into(), 1.into(), js(&format!("({{ idle: {} }})", 2.0 * k))]).await;
        sleep((500.0 * k) as u32).await;
        let read = now();
        let got = call(&a, "get", &["w".into()]).await;
        in_time(written + 2000.0 * k, "the read within the window")?;
        assert_eq!(got, 1);
        // At once, before the extension's own write: close() writes it.
        call(&a, "close", &[]).await;
        let b = open_manual(&name).await;
        let left = call(&b, "ttl", &["w".into()]).await;
        in_time(read + 2000.0 * k, "ttl() within the window of the read")?;
        let left = num(&left);
        let low = (read + 2000.0 * k - now()) / 1000.0;
        assert!(left >= low - 0.002, "extended at the read, kept through close(): {left} < {low}");
        destroy(&name).await;
        Ok(())
    })
    .await;
}

/// `Date.now()` moved forward by `ms` until dropped (a user setting the clock, NTP correcting it).
struct ClockAhead(js_sys::Function);

impl ClockAhead {
    fn by(ms: f64) -> ClockAhead {
        ClockAhead(js(&format!("(() => {{ const real = Date.now; Date.now = () => real.call(Date) + {ms}; return () => {{ Date.now = real; }}; }})()")).into())
    }
}

impl Drop for ClockAhead {
    fn drop(&mut self) {
        let _ = self.0.call0(&JsValue::UNDEFINED);
    }
}

/// The store's timers count on a clock that only goes forward: a wall clock moved forward past
/// a timer armed before the move (the watchdog of a write, `timeoutMs` 5 min) does not hold back
/// what is set after it. The extension a read notes is written in a moment, not once that timer
/// would have rung.
#[wasm_bindgen_test]
async fn a_wall_clock_moved_forward_does_not_hold_back_the_extensions() {
    let name = db_name("idleclock");
    let s = open(&name, js("({ autoReap: false, timeoutMs: 300000 })")).await;
    call(&s, "set", &["k".into(), "v".into(), js("({ idle: 3600 })")]).await;
    {
        // Seven minutes into a window of an hour: a read extends the entry.
        let _ahead = ClockAhead::by(420_000.0);
        assert_eq!(call(&s, "get", &["k".into()]).await, "v");
        assert_eq!(stat(&s, "idleWaiting"), 1.0, "the read noted its extension as due");
        // Waited on the browser's own timer and clock: the store's timers are what is tested.
        let since = num(&js("performance.now()"));
        while stat(&s, "idleWaiting") != 0.0 && num(&js("performance.now()")) - since < f64::from(LONG_MS) {
            wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(js("new Promise((r) => setTimeout(r, 10))"))).await.unwrap();
        }
        assert_eq!(stat(&s, "idleWaiting"), 0.0, "the extension was not written within {LONG_MS} ms");
        assert_eq!(stat(&s, "idleExtended"), 1.0);
    }
    call(&s, "close", &[]).await;
    destroy(&name).await;
}
