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

#[cfg(feature = "full")]
mod collections {
    //! `TtlStore::collection` and `TtlStore::time_series` (feature `full`): serde documents and
    //! events, the JavaScript API's checks and messages, one format with the JavaScript class.

    use super::*;
    use idb_ttl::{Collection, CollectionOptions, Granularity, Query, SeriesOptions, Tier, TimeSeries, TtlIndex};

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Login {
        id: String,
        at: f64,
        #[serde(default)]
        n: u32,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Reading {
        sensor: String,
        at: At,
        celsius: f64,
    }

    /// A reading's time: Unix seconds or an ISO-8601 string, as the series takes both.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(untagged)]
    enum At {
        Secs(f64),
        Iso(String),
    }

    fn secs_now() -> f64 {
        (now() / 1000.0).floor()
    }

    fn login(id: &str, at: f64) -> Login {
        Login { id: id.into(), at, n: 0 }
    }

    #[wasm_bindgen_test]
    async fn a_field_ttl_index_hides_expired_documents_and_every_verb_answers_in_rust_types() {
        let name = db_name("rust-collection");
        let s = open_rust(&name).await;
        let logins: Collection<Login> =
            s.collection("logins", CollectionOptions::default().ttl_index(TtlIndex::field("at", Duration::from_secs(3600)))).await.unwrap();
        assert_eq!((logins.name(), logins.key_path()), ("logins", "id"));
        let t = secs_now();
        logins.put(&login("ada", t)).await.unwrap();
        logins.put_many([&login("bob", t - 7200.0), &login("cy", t - 60.0)]).await.unwrap();
        assert_eq!(logins.get("ada").await.unwrap(), Some(login("ada", t)));
        assert_eq!(logins.get("bob").await.unwrap(), None, "two hours old under a one-hour index: expired, never returned");
        assert_eq!(logins.count().await.unwrap(), 2);
        assert_eq!(logins.values().await.unwrap(), vec![login("ada", t), login("cy", t - 60.0)], "id order, live only");
        assert_eq!(logins.get_many(["cy", "bob", "nobody"]).await.unwrap(), vec![Some(login("cy", t - 60.0)), None, None]);
        assert_eq!(logins.expires_at("ada").await.unwrap(), Some(Some(t + 3600.0)));
        assert_eq!(logins.expires_at("bob").await.unwrap(), None);

        // update: atomic, the TTL field of the new document sets its expiry; None removes it.
        let bumped = logins.update("cy", |d: Option<Login>| d.map(|d| Login { at: t + 60.0, n: d.n + 1, ..d })).await.unwrap();
        assert_eq!(bumped, Some(Login { id: "cy".into(), at: t + 60.0, n: 1 }));
        assert_eq!(logins.expires_at("cy").await.unwrap(), Some(Some(t + 3660.0)));
        let moved = logins.update("cy", |d: Option<Login>| d.map(|d| Login { id: "zed".into(), ..d })).await.unwrap_err();
        assert!(matches!(&moved, Error::InvalidType(m) if m.contains("collection \"logins\" update(\"cy\")") && m.contains("\"zed\"") && m.contains("nothing was written")), "{moved}");
        assert_eq!(logins.get("zed").await.unwrap(), None);
        assert_eq!(logins.update("cy", |_: Option<Login>| None).await.unwrap(), None);
        assert_eq!(logins.get("cy").await.unwrap(), None);

        // Bad documents are refused by the JavaScript API's reader, naming them; nothing written.
        let ms = logins.put_many([&login("dan", t), &login("eve", now())]).await.unwrap_err();
        let text = ms.to_string();
        assert!(matches!(ms, Error::OutOfRange(_)) && text.contains("\"eve\"") && text.contains("after year 9999") && text.contains("unit: \"ms\""), "{text}");
        assert_eq!(logins.get("dan").await.unwrap(), None, "all or nothing");
        let no_id: Collection<Session> = s.collection("logins", CollectionOptions::default()).await.unwrap();
        let e = no_id.put(&Session { user: 1, name: "x".into() }).await.unwrap_err();
        assert!(matches!(&e, Error::InvalidType(m) if m.contains("\"id\"")), "{e}");

        // A document that does not deserialize as D names its collection.
        let wrong: Collection<Session> = s.collection("logins", CollectionOptions::default()).await.unwrap();
        let e = wrong.values().await.unwrap_err();
        assert!(matches!(&e, Error::InvalidType(m) if m.contains("collection \"logins\"")), "{e}");

        assert!(logins.delete("ada").await.unwrap());
        assert!(!logins.delete("ada").await.unwrap());
        logins.put_many([&login("a", t), &login("b", t)]).await.unwrap();
        assert_eq!(logins.delete_many(["a", "b", "bob"]).await.unwrap(), 2, "bob was expired: not counted");
        logins.set_expire_after("P1D").await.unwrap();
        logins.put(&login("old", t - 7200.0)).await.unwrap();
        assert_eq!(logins.get("old").await.unwrap(), Some(login("old", t - 7200.0)), "a day now");
        assert!(logins.drop_ttl_index().await.unwrap());
        assert!(!logins.drop_ttl_index().await.unwrap());
        logins.clear().await.unwrap();
        assert_eq!(logins.count().await.unwrap(), 0);
        s.close();
        destroy(&name).await;
    }

    #[wasm_bindgen_test]
    async fn options_are_checked_by_the_javascript_api_s_rules() {
        let name = db_name("rust-collection-options");
        let s = open_rust(&name).await;
        let bad = |o: CollectionOptions| {
            let s = s.clone();
            async move { s.collection::<Login>("c", o).await.map(|_| ()).unwrap_err().to_string() }
        };
        let e = bad(CollectionOptions::default().ttl_index(TtlIndex::field("at", "3600"))).await;
        assert!(e.contains("\"3600\""), "a number without a unit: {e}");
        let e = bad(CollectionOptions::default().ttl_index(TtlIndex::field("at", "P1D").unit("minutes"))).await;
        assert!(e.contains("ttlIndex.unit") && e.contains("\"minutes\""), "{e}");
        let e = bad(CollectionOptions::default().ttl_index(TtlIndex::field("at", "P1D").schedule("often"))).await;
        assert!(e.contains("often"), "{e}");
        let e = s.collection::<Login>("", CollectionOptions::default()).await.map(|_| ()).unwrap_err().to_string();
        assert!(e.contains("collection name"), "{e}");
        let e = s.time_series::<Reading>("t", SeriesOptions::new("at").expire_after("soon")).await.map(|_| ()).unwrap_err().to_string();
        assert!(e.contains("expireAfter") && e.contains("\"soon\""), "{e}");
        let e = s.time_series::<Reading>("t", SeriesOptions::new("at").bucket_span(0)).await.map(|_| ()).unwrap_err().to_string();
        assert!(e.contains("bucketMaxSpanSeconds"), "{e}");
        // Tiers: archive, then delete.
        let kept: Collection<Login> = s
            .collection("kept", CollectionOptions::default().ttl_index(TtlIndex::field("at", "P1D").tiers([Tier::archive(Duration::from_secs(60)), Tier::delete("P1D")])))
            .await
            .unwrap();
        let t = secs_now();
        kept.put_many([&login("live", t), &login("archived", t - 120.0), &login("gone", t - 90_000.0)]).await.unwrap();
        assert_eq!(kept.values().await.unwrap(), vec![login("live", t)], "archived and deleted documents are not live");
        s.close();
        destroy(&name).await;
    }

    #[wasm_bindgen_test]
    async fn an_automatic_index_expires_documents_after_their_last_write_and_expire_sets_one() {
        let name = db_name("rust-collection-auto");
        let s = open_rust(&name).await;
        let drafts: Collection<Login> =
            s.collection("drafts", CollectionOptions::default().ttl_index(TtlIndex::automatic("PT1H").schedule("@hourly"))).await.unwrap();
        let before = now() / 1000.0;
        drafts.put(&login("d1", 0.0)).await.unwrap();
        let at = drafts.expires_at("d1").await.unwrap().flatten().expect("an expiry");
        assert!(at >= before + 3600.0 && at <= now() / 1000.0 + 3600.0, "{at}");
        assert!(drafts.expire("d1", idb_ttl::Expiry::never()).await.unwrap());
        assert_eq!(drafts.expires_at("d1").await.unwrap(), Some(None), "kept until its next write");
        let e = drafts.expire("d1", idb_ttl::Expiry::keep()).await.unwrap_err();
        assert!(e.to_string().contains("expire(\"d1\") needs a new expiry"), "{e}");
        assert!(drafts.expire("d1", Duration::from_millis(300)).await.unwrap());
        assert!(!drafts.expire("nobody", Duration::from_secs(60)).await.unwrap());
        sleep(400).await;
        assert_eq!(drafts.get("d1").await.unwrap(), None, "expired by expire(), before the reaper");
        assert!(drafts.next_reap_at().await.unwrap().is_some(), "an hourly schedule");
        drafts.pause_reaper().await.unwrap();
        assert_eq!(drafts.next_reap_at().await.unwrap(), None, "paused");
        drafts.resume_reaper().await.unwrap();
        assert!(drafts.next_reap_at().await.unwrap().is_some());
        s.close();
        destroy(&name).await;
    }

    #[wasm_bindgen_test]
    async fn a_time_series_takes_serde_events_and_queries_them_by_series_and_time() {
        let name = db_name("rust-series");
        let s = open_rust(&name).await;
        let temps: TimeSeries<Reading> = s
            .time_series("temps", SeriesOptions::new("at").meta_field("sensor").granularity(Granularity::Seconds).expire_after(Duration::from_secs(86_400)))
            .await
            .unwrap();
        assert_eq!(temps.name(), "temps");
        let t = secs_now();
        let r = |sensor: &str, at: At, celsius: f64| Reading { sensor: sensor.into(), at, celsius };
        temps.insert(&r("s1", At::Secs(t - 30.0), 20.0)).await.unwrap();
        let written = temps
            .insert_many([&r("s1", At::Secs(t - 20.0), 21.0), &r("s2", At::Secs(t - 10.0), 5.0), &r("s1", At::Secs(t - 90_000.0), 1.0), &r("s2", At::Iso("2037-01-01T00:00:00Z".into()), 9.0)])
            .await
            .unwrap();
        assert!(written >= 2, "{written} bucket records");
        assert_eq!(temps.count().await.unwrap(), 4, "the event of 25 hours ago is expired");
        let s1 = temps.query(Query::default().meta(&"s1")).await.unwrap();
        assert_eq!(s1.iter().map(|e| e.celsius).collect::<Vec<_>>(), vec![20.0, 21.0], "oldest first, one series, live only");
        let recent = temps.query(Query::default().from(t - 25.0).to("2036-01-01T00:00:00Z")).await.unwrap();
        assert_eq!(recent.iter().map(|e| e.celsius).collect::<Vec<_>>(), vec![21.0, 5.0]);
        let e = temps.query(Query::default().from(now())).await.unwrap_err().to_string();
        assert!(e.contains("query from") && e.contains("milliseconds"), "{e}");
        let e = temps.insert(&r("s1", At::Secs(now()), 0.0)).await.unwrap_err().to_string();
        assert!(e.starts_with("event 0: \"at\" ") && e.contains("looks like milliseconds"), "{e}");
        let e = temps.insert_many([&r("s1", At::Secs(t), 0.0), &r("s1", At::Iso("yesterday".into()), 0.0)]).await.unwrap_err().to_string();
        assert!(e.contains("insert_many event 1") && e.contains("yesterday"), "{e}");
        assert_eq!(temps.count().await.unwrap(), 4, "nothing written");
        assert_eq!(temps.delete_many(Query::default().meta(&"s2")).await.unwrap(), 2);
        temps.set_granularity(Granularity::Minutes).await.unwrap();
        let e = temps.set_granularity(Granularity::Seconds).await.unwrap_err().to_string();
        assert!(e.contains("granularity \"seconds\" is finer than its \"minutes\"") && e.contains("finer to coarser only"), "{e}");
        assert!(temps.bucket_count().await.unwrap() >= 1);
        temps.clear().await.unwrap();
        assert_eq!(temps.count().await.unwrap(), 0);
        s.close();
        destroy(&name).await;
    }

    #[wasm_bindgen_test]
    async fn collections_and_series_share_one_format_with_the_javascript_class() {
        let name = db_name("rust-collection-format");
        let js_store = open_manual(&name).await;
        let t = secs_now();
        let c = call(&js_store, "collection", &["logins".into(), js("({ ttlIndex: { field: 'at', expireAfter: 3600 } })")]).await;
        call(&c, "putMany", &[js(&format!("[{{ id: 'js', at: {t} }}, {{ id: 'old', at: {} }}]", t - 7200.0))]).await;
        let ts = call(&js_store, "timeSeries", &["temps".into(), js("({ timeField: 'at', metaField: 'sensor' })")]).await;
        call(&ts, "insert", &[js(&format!("({{ sensor: 's1', at: {t}, celsius: 20 }})"))]).await;

        let s = open_rust(&name).await;
        let logins: Collection<Login> = s.collection("logins", CollectionOptions::default()).await.unwrap();
        assert_eq!(logins.values().await.unwrap(), vec![login("js", t)], "the index the JavaScript class made hides the old login");
        logins.put(&Login { id: "rust".into(), at: t, n: 2 }).await.unwrap();
        assert_eq!(json(&call(&c, "get", &["rust".into()]).await), format!(r#"{{"id":"rust","at":{t},"n":2}}"#));
        assert_eq!(num(&call(&c, "expiresAt", &["rust".into()]).await), t + 3600.0);
        let temps: TimeSeries<Reading> = s.time_series("temps", SeriesOptions::new("at").meta_field("sensor")).await.unwrap();
        temps.insert(&Reading { sensor: "s1".into(), at: At::Secs(t + 1.0), celsius: 21.0 }).await.unwrap();
        assert_eq!(temps.query(Query::default()).await.unwrap().iter().map(|r| r.celsius).collect::<Vec<_>>(), vec![20.0, 21.0]);
        assert_eq!(num(&call(&ts, "count", &[]).await), 2.0);
        s.close();
        call(&js_store, "close", &[]).await;
        destroy(&name).await;
    }
}

#[cfg(feature = "full")]
mod rust_md {
    //! docs/rust.md's collections and time series example, as written there.

    use super::*;
    use idb_ttl::{CollectionOptions, Query, SeriesOptions, TtlIndex, TtlStore};

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Login { id: String, at: f64 }

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Reading { sensor: String, at: f64, celsius: f64 }

    async fn track(store: &TtlStore, now: f64) -> Result<(), idb_ttl::Error> {
        // MongoDB's TTL index: each login expires 30 days after its `at` (Unix seconds).
        let logins = store
            .collection::<Login>("logins", CollectionOptions::default().ttl_index(TtlIndex::field("at", "P30D")))
            .await?;
        logins.put(&Login { id: "ada".into(), at: now }).await?;
        let ada: Option<Login> = logins.get("ada").await?;

        // MongoDB's time-series collection: events bucketed per sensor, kept a day.
        let temps = store
            .time_series::<Reading>("temps", SeriesOptions::new("at").meta_field("sensor").expire_after(Duration::from_secs(86_400)))
            .await?;
        temps.insert(&Reading { sensor: "s1".into(), at: now, celsius: 21.5 }).await?;
        let last_hour: Vec<Reading> = temps.query(Query::default().meta(&"s1").from(now - 3600.0)).await?;
        // (the test's checks of what the example got)
        assert_eq!(ada.map(|l| (l.id, l.at)), Some(("ada".to_owned(), now)));
        assert_eq!(last_hour.iter().map(|r| (r.sensor.as_str(), r.at, r.celsius)).collect::<Vec<_>>(), vec![("s1", now, 21.5)]);
        Ok(())
    }

    #[wasm_bindgen_test]
    async fn the_collections_example_of_rust_md_runs_as_written() {
        let name = db_name("rust-md-collections");
        let store = TtlStore::open(&name, Options::default()).await.unwrap();
        track(&store, (now() / 1000.0).floor()).await.unwrap();
        store.close();
        destroy(&name).await;
    }
}
