//! The Rust API (`idb_ttl::TtlStore`, `Expiry`, `Options`, `Error`): every verb, the expiry
//! strings it refuses, `watch` and `events` as streams, the typed errors, and one database
//! format with the JavaScript class (`idb_ttl::js::TtlStore`) on the same database name. The
//! crate page's quick start and the doc examples that need a browser run here as written.

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

use futures_core::Stream;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

use idb_ttl::{Error, Event, Expiry, Key, Options, TtlStore};

use crate::util::*;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Session {
    user: u32,
    name: String,
}

async fn open_rust(name: &str) -> TtlStore {
    TtlStore::open(name, Options::default().auto_reap(false)).await.expect("open")
}

/// The stream's next item, waiting up to [`LONG_MS`]; panics if none comes (`None` inside is
/// an item: the key missing or expired).
async fn next<S: Stream + Unpin>(s: &mut S) -> S::Item {
    let mut late = std::pin::pin!(sleep(LONG_MS));
    std::future::poll_fn(|cx| {
        if let Poll::Ready(item) = Pin::new(&mut *s).poll_next(cx) {
            return Poll::Ready(item.expect("the stream ended"));
        }
        if late.as_mut().poll(cx).is_ready() {
            panic!("no item within {LONG_MS} ms");
        }
        Poll::Pending
    })
    .await
}

/// Whether the stream has an item ready now, after `ms` of quiet.
async fn quiet<S: Stream + Unpin>(s: &mut S, ms: u32) -> bool {
    sleep(ms).await;
    std::future::poll_fn(|cx| Poll::Ready(Pin::new(&mut *s).poll_next(cx).is_pending())).await
}

#[wasm_bindgen_test]
async fn quick_start_from_the_crate_page_runs_as_written() {
    let name = db_name("rust-quick-start");
    let run = async {
        let store = TtlStore::open(&name, Options::default().auto_reap(true)).await?;
        store.set("session", &Session { user: 7, name: "ada".into() }, Expiry::ttl(Duration::from_secs(3600))).await?;
        store.set("banner", "hello", Expiry::parse("2036-12-24T18:00:00+01:00")?).await?;
        store.set("token", "abc", Expiry::at_unix(2_114_380_800.0)).await?;
        let session: Option<Session> = store.get("session").await?;
        let hits: f64 = store.incr("hits", 1.0, Expiry::ttl(Duration::from_secs(60))).await?;
        let mut changes = store.watch::<String>("banner");
        Ok::<_, Error>((store, session, hits, next(&mut changes).await))
    };
    let (store, session, hits, banner) = run.await.expect("the quick start");
    assert_eq!(session, Some(Session { user: 7, name: "ada".into() }));
    assert_eq!(hits, 1.0);
    assert_eq!(banner.as_deref(), Some("hello"));
    assert_eq!(store.expires_at("banner").await.unwrap(), Some(Some(2_113_750_800.0)), "18:00 at +01:00 is 17:00Z");
    assert_eq!(store.expires_at("token").await.unwrap(), Some(Some(2_114_380_800.0)));
    store.close();
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn every_verb_answers_in_rust_types() {
    let name = db_name("rust-verbs");
    let s = open_rust(&name).await;
    let hour = Expiry::ttl(Duration::from_secs(3600));
    assert_eq!(s.name(), name);
    assert!(s.is_new());

    // set / get / has / delete
    s.set("a", &Session { user: 1, name: "a".into() }, hour.clone()).await.unwrap();
    assert_eq!(s.get::<Session>("a").await.unwrap(), Some(Session { user: 1, name: "a".into() }));
    assert_eq!(s.get::<Session>("missing").await.unwrap(), None);
    assert!(s.has("a").await.unwrap());
    assert!(!s.has("missing").await.unwrap());
    assert!(s.delete("a").await.unwrap());
    assert!(!s.delete("a").await.unwrap());

    // ttl / expires_at / expire / persist
    s.set("t", "v", hour.clone()).await.unwrap();
    let left = s.ttl("t").await.unwrap().flatten().expect("a ttl");
    assert!(left <= Duration::from_secs(3600) && left > Duration::from_secs(3500), "{left:?}");
    s.set("forever", "v", Expiry::never()).await.unwrap();
    assert_eq!(s.ttl("forever").await.unwrap(), Some(None), "no expiry");
    assert_eq!(s.expires_at("forever").await.unwrap(), Some(None));
    assert_eq!(s.ttl("missing").await.unwrap(), None);
    assert!(s.expire("forever", Expiry::at_unix(2_114_380_800.0)).await.unwrap());
    assert_eq!(s.expires_at("forever").await.unwrap(), Some(Some(2_114_380_800.0)));
    assert!(s.persist("forever").await.unwrap());
    assert!(!s.persist("forever").await.unwrap(), "it has none now");
    assert!(!s.expire("missing", hour.clone()).await.unwrap());
    let e = s.expire("t", Expiry::default()).await.unwrap_err();
    assert!(matches!(e, Error::InvalidType(_)) && e.to_string().contains("persist(\"t\")"), "{e}");

    // keys / count / get_many / set_many (numbers and strings)
    s.set_many([(Key::from(2), 20, hour.clone()), (Key::from("b"), 30, Expiry::never())]).await.unwrap();
    assert_eq!(s.keys().await.unwrap(), vec![Key::Number(2.0), Key::from("b"), Key::from("forever"), Key::from("t")]);
    assert_eq!(s.count().await.unwrap(), 4);
    assert_eq!(s.get_many::<u32, Key>([Key::from(2), Key::from("nope"), Key::from("b")]).await.unwrap(), vec![Some(20), None, Some(30)]);

    // add / replace / take
    assert!(!s.add("b", &1, hour.clone()).await.unwrap(), "b is live");
    assert!(s.add("c", &1, hour.clone()).await.unwrap());
    assert!(s.replace("c", &2, Expiry::keep()).await.unwrap());
    assert!(!s.replace("nope", &2, hour.clone()).await.unwrap());
    assert_eq!(s.take::<u32>("c").await.unwrap(), Some(2));
    assert_eq!(s.take::<u32>("c").await.unwrap(), None);

    // incr / update
    assert_eq!(s.incr("hits", 1.0, Duration::from_secs(60)).await.unwrap(), 1.0);
    assert_eq!(s.incr("hits", 2.5, Duration::from_secs(60)).await.unwrap(), 3.5);
    let e = s.incr("t", 1.0, Expiry::default()).await.unwrap_err();
    assert!(matches!(e, Error::InvalidType(_)) && e.to_string().contains("\"t\""), "{e}");
    assert_eq!(s.get::<String>("t").await.unwrap().as_deref(), Some("v"), "nothing written");
    let cart = s.update("cart", |c: Option<Vec<u32>>| Some([c.unwrap_or_default(), vec![42]].concat()), Expiry::default()).await.unwrap();
    assert_eq!(cart, Some(vec![42]));
    let cart = s.update("cart", |c: Option<Vec<u32>>| Some([c.unwrap_or_default(), vec![7]].concat()), Expiry::default()).await.unwrap();
    assert_eq!(cart, Some(vec![42, 7]));
    assert_eq!(s.update("cart", |_: Option<Vec<u32>>| None, Expiry::default()).await.unwrap(), None);
    assert!(!s.has("cart").await.unwrap(), "None removes");

    // a value that does not deserialize as asked
    let e = s.get::<Session>("b").await.unwrap_err();
    assert!(matches!(e, Error::InvalidType(_)) && e.to_string().contains("\"b\""), "{e}");

    // reap / clear
    s.set("old", &1, Expiry::ttl(Duration::from_millis(1))).await.unwrap();
    sleep(20).await;
    assert_eq!(s.reap().await.unwrap(), 1);
    s.clear().await.unwrap();
    assert_eq!(s.count().await.unwrap(), 0);
    s.close();
    assert!(s.is_closed());
    TtlStore::destroy(&name).await.unwrap();
}

#[wasm_bindgen_test]
async fn expiry_strings_that_do_not_say_their_unit_are_refused_and_nothing_is_written() {
    for text in ["3600", "1700000000000", " 42 ", "1.5"] {
        let e = Expiry::parse(text).unwrap_err();
        assert!(matches!(e, Error::InvalidType(_)), "{text}: {e:?}");
        assert!(e.to_string().contains(&format!("{:?}", text)), "{text}: {e}");
    }
    assert!(Expiry::parse("PT10M").is_ok());
    assert!(Expiry::parse("90 days").is_ok());
    assert!(Expiry::parse("2036-12-24").is_ok());
    assert_eq!(Expiry::parse("1h 30m").unwrap(), Expiry::ttl(Duration::from_secs(5400)));
    let e = Expiry::parse("2036-13-01").unwrap_err();
    assert!(e.to_string().contains("2036-13-01"), "a date's error: {e}");
    let e = Expiry::parse("ten minutes").unwrap_err();
    assert!(e.to_string().contains("ten minutes"), "{e}");

    // Milliseconds given as Unix seconds: refused by the write, nothing written.
    let name = db_name("rust-ms");
    let s = open_rust(&name).await;
    let e = s.set("k", "v", Expiry::at_unix(1_700_000_000_000.0)).await.unwrap_err();
    assert!(matches!(e, Error::OutOfRange(_)) && e.to_string().contains("1700000000000"), "{e}");
    let e = s.set_many([("a", 1, Expiry::never()), ("k", 2, Expiry::at_unix(1_700_000_000_000.0))]).await.unwrap_err();
    assert!(matches!(e, Error::OutOfRange(_)), "{e}");
    assert_eq!(s.count().await.unwrap(), 0, "nothing was written");
    s.close();
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn options_are_checked_by_open() {
    let e = TtlStore::open("", Options::default()).await.unwrap_err();
    assert_eq!(e.js_name(), "TypeError");
    let e = TtlStore::open(&db_name("rust-opt"), Options::default().select_batch_size(0)).await.unwrap_err();
    assert!(matches!(e, Error::OutOfRange(_)) && e.to_string().contains("selectBatchSize 0"), "{e}");
    let name = db_name("rust-opt");
    let s = TtlStore::open(&name, Options::default().auto_reap(false).default_ttl(Duration::from_secs(60)).max_entries(2).timeout(Duration::from_secs(20))).await.unwrap();
    s.set("k", &1, Expiry::default()).await.unwrap();
    let left = s.ttl("k").await.unwrap().flatten().expect("defaultTtl applies");
    assert!(left <= Duration::from_secs(60));
    assert!(s.persist("k").await.unwrap(), "only entries with an expiry are evicted for the cap");
    s.set("j", &1, Expiry::never()).await.unwrap();
    let e = s.set("l", &1, Expiry::never()).await.unwrap_err();
    assert!(matches!(e, Error::CapReached { cap: 2, .. }) && e.js_name() == "QuotaExceededError", "{e:?}");
    s.close();
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn a_closed_store_fails_with_the_closed_variant() {
    let name = db_name("rust-closed");
    let s = open_rust(&name).await;
    s.close();
    let e = s.get::<u32>("k").await.unwrap_err();
    match &e {
        Error::Closed { db, why } => {
            assert_eq!(db, &name);
            assert!(why.contains("close()"), "{why}");
        }
        other => panic!("expected Error::Closed, got {other:?}"),
    }
    assert_eq!(e.js_name(), "StoreClosedError");
    assert!(e.to_string().contains(&name));
    let source: &dyn std::error::Error = &e;
    assert!(source.source().is_none());
    assert!(matches!(s.set("k", &1, Expiry::never()).await, Err(Error::Closed { .. })));
    let mut w = s.watch::<u32>("k");
    let ended = std::future::poll_fn(|cx| Poll::Ready(Pin::new(&mut w).poll_next(cx))).await;
    assert!(matches!(ended, Poll::Ready(None)), "a watch of a closed store ends");
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn watch_yields_the_current_value_then_each_change_then_none_at_expiry() {
    scaled("rust-watch", |k| async move {
        let name = db_name("rust-watch");
        let s = open_rust(&name).await;
        let other = open_rust(&name).await; // another member, as another tab
        s.set("k", &Session { user: 1, name: "a".into() }, Expiry::never()).await.unwrap();
        let mut w = s.watch::<Session>("k");
        assert_eq!(next(&mut w).await, Some(Session { user: 1, name: "a".into() }), "the current value first");
        other.set("k", &Session { user: 2, name: "b".into() }, Expiry::never()).await.unwrap();
        assert_eq!(next(&mut w).await, Some(Session { user: 2, name: "b".into() }), "another member's write");
        let written = now();
        let ttl = 0.3 * k;
        other.set("k", &Session { user: 3, name: "c".into() }, Expiry::ttl(Duration::from_secs_f64(ttl))).await.unwrap();
        let got = next(&mut w).await;
        in_time(written + ttl * 1000.0, "the value told before its expiry")?;
        assert_eq!(got, Some(Session { user: 3, name: "c".into() }));
        assert_eq!(next(&mut w).await, None, "None at the expiry");
        assert!(now() >= written + ttl * 1000.0, "not before it");
        assert_eq!(s.count().await.unwrap(), 0);
        assert!(quiet(&mut w, 100).await, "nothing more, no polling");
        drop(w);
        s.close();
        other.close();
        destroy(&name).await;
        Ok(())
    })
    .await;
}

#[wasm_bindgen_test]
async fn events_stream_writes_from_this_and_other_members() {
    let name = db_name("rust-events");
    let s = open_rust(&name).await;
    let js_store = open_manual(&name).await;
    let mut events = s.events();
    s.set("a", &1, Expiry::never()).await.unwrap();
    assert_eq!(next(&mut events).await, Event::Change { op: "set".into(), keys: vec![Key::from("a")] });
    call(&js_store, "delete", &["a".into()]).await;
    assert_eq!(next(&mut events).await, Event::Change { op: "delete".into(), keys: vec![Key::from("a")] }, "the JavaScript class's write");
    s.set("gone", &1, Expiry::ttl(Duration::from_millis(1))).await.unwrap();
    assert!(matches!(next(&mut events).await, Event::Change { .. }));
    sleep(20).await;
    s.reap().await.unwrap();
    assert_eq!(next(&mut events).await, Event::Expired { keys: vec![Key::from("gone")] });
    s.close();
    call(&js_store, "close", &[]).await;
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn one_database_format_with_the_javascript_class() {
    let name = db_name("rust-format");
    let js_store = open_manual(&name).await;
    call(&js_store, "set", &["from-js".into(), js("({ user: 7, name: 'ada' })"), js("({ expiresAt: 2114380800 })")]).await;
    call(&js_store, "set", &[JsValue::from(5), js("[1, 2, 3]"), JsValue::UNDEFINED]).await;
    call(&js_store, "incr", &["n".into(), JsValue::from(2)]).await;

    let s = open_rust(&name).await;
    assert!(!s.is_new());
    assert_eq!(s.get::<Session>("from-js").await.unwrap(), Some(Session { user: 7, name: "ada".into() }));
    assert_eq!(s.expires_at("from-js").await.unwrap(), Some(Some(2_114_380_800.0)));
    assert_eq!(s.get::<Vec<u8>>(5).await.unwrap(), Some(vec![1, 2, 3]));
    assert_eq!(s.incr("n", 1.0, Expiry::default()).await.unwrap(), 3.0);

    s.set("from-rust", &Session { user: 8, name: "bob".into() }, Expiry::parse("2037-01-01T00:00:00Z").unwrap()).await.unwrap();
    let map: std::collections::BTreeMap<String, u32> = [("x".to_owned(), 1)].into();
    s.set("map", &map, Expiry::ttl(Duration::from_secs(600))).await.unwrap();
    assert_eq!(json(&call(&js_store, "get", &["from-rust".into()]).await), r#"{"user":8,"name":"bob"}"#, "a plain object");
    assert_eq!(num(&call(&js_store, "expiresAt", &["from-rust".into()]).await), 2_114_380_800.0);
    assert_eq!(json(&call(&js_store, "get", &["map".into()]).await), r#"{"x":1}"#, "a map as a plain object");
    assert_eq!(num(&call(&js_store, "get", &["n".into()]).await), 3.0);
    let left = num(&call(&js_store, "ttl", &["map".into()]).await);
    assert!(left > 590.0 && left <= 600.0, "{left}");
    s.close();
    call(&js_store, "close", &[]).await;
    destroy(&name).await;
}
