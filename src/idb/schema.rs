//! The database's schema, declared once: its object stores and indexes, the version that added
//! each, and the upgrade that creates them, run by indexed_db_futures' open.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use indexed_db_futures::database::Database;
use indexed_db_futures::error::OpenDbError;
use indexed_db_futures::factory::DBFactory;
use indexed_db_futures::prelude::*;
use indexed_db_futures::internals::SystemRepr;
use indexed_db_futures::KeyPath;
use wasm_bindgen::prelude::*;

use super::{idb_to_js, storage_error};
use crate::core::error::{Error, Result};
use crate::timer::within;

/// Key-value entries: `{ k, e, v }` keyed `[e, k]` (expiry first, so everything expired is one
/// key range at the front).
pub const ENTRIES: &str = "entries";
/// Unique index on `k`.
pub const BY_KEY: &str = "by_key";
/// Definitions of collections and time series, keyed `"collection:<name>"` / `"series:<name>"`.
pub const META: &str = "meta";
/// Documents of every collection: `{ c, r, i, v }` keyed `[collection, reference ms, id]`.
pub const DOCS: &str = "docs";
/// Unique index on `[c, i]`.
pub const BY_ID: &str = "by_id";
/// Time-series buckets: `{ s, l, k, t, q, m, n, ts, ev }` keyed `[series, latest ms, meta key,
/// span start, sequence]`.
pub const BUCKETS: &str = "buckets";
/// Unique index on `[s, k, t, q]`.
pub const BY_BUCKET: &str = "by_bucket";
/// Archived records: `{ c, t, i, v }` keyed `[c, t, key or id]`, where `c` is `0` for the
/// key-value entries and the collection's name for its documents, and `t` the time the record
/// was keyed by in the live data. Each archive is one key range, and what reached its delete
/// tier is a range at its front.
pub const ARCHIVE: &str = "archive";
/// Unique index on `[c, i]`: one archived record per key.
pub const BY_ITEM: &str = "by_item";

/// The schema's version: 1 entries and meta; 2 docs and buckets (collections, time series, in
/// shared stores keyed by their name first, so creating one needs no version change); 3 archive.
pub const VERSION: u8 = 3;

/// One object store: name, in-line key path, its unique index (name, key path), the version
/// that added it.
struct StoreDef {
    name: &'static str,
    key_path: &'static [&'static str],
    index: Option<(&'static str, &'static [&'static str])>,
    since: u8,
}

const STORES: [StoreDef; 5] = [
    StoreDef { name: ENTRIES, key_path: &["e", "k"], index: Some((BY_KEY, &["k"])), since: 1 },
    StoreDef { name: META, key_path: &[], index: None, since: 1 },
    StoreDef { name: DOCS, key_path: &["c", "r", "i"], index: Some((BY_ID, &["c", "i"])), since: 2 },
    StoreDef { name: BUCKETS, key_path: &["s", "l", "k", "t", "q"], index: Some((BY_BUCKET, &["s", "k", "t", "q"])), since: 2 },
    StoreDef { name: ARCHIVE, key_path: &["c", "t", "i"], index: Some((BY_ITEM, &["c", "i"])), since: 3 },
];

fn key_path(parts: &'static [&'static str]) -> KeyPath<&'static str> {
    match parts {
        [one] => KeyPath::One(one),
        many => many.iter().copied().collect(),
    }
}

/// Creates what versions after `old` added.
fn upgrade(db: &Database, old: f64) -> indexed_db_futures::Result<()> {
    for s in STORES.iter().filter(|s| f64::from(s.since) > old) {
        let store = if s.key_path.is_empty() {
            db.create_object_store(s.name).build()?
        } else {
            db.create_object_store(s.name).with_key_path(key_path(s.key_path)).build()?
        };
        if let Some((name, path)) = s.index {
            store.create_index(name, key_path(path)).with_unique(true).build()?;
        }
    }
    Ok(())
}

/// What opening found: the database, whether this open created it, and what Chromium said when
/// it had deleted a corrupt one (`IDBVersionChangeEvent.dataLoss` "total", `dataLossMessage`).
#[derive(Debug)]
pub struct Opened {
    /// The connection.
    pub db: Database,
    /// It did not exist, or the browser had deleted it.
    pub created: bool,
    /// Chromium's message when it deleted a corrupt database that this open made again.
    pub data_loss: Option<String>,
}

/// Asks IndexedDB for its databases and lets the answer go: asking it something else wakes a
/// stalled one (WebKit; safari-14-idb-fix does the same). Where there is no `databases()` nothing
/// is asked. The future is dropped unawaited: its promise keeps its handlers until it settles, so a
/// rejection is handled, not reported.
fn wake(factory: &DBFactory) {
    drop(factory.databases());
}

/// Opens `name` at [`VERSION`], creating or upgrading its stores. An open that gets no answer
/// within `timeout_ms` wakes IndexedDB and waits as long again for the same request (a second
/// request could race it into two connections or two upgrades), then gives up with a
/// `TimeoutError`.
pub async fn open(name: &str, timeout_ms: u32) -> Result<Opened> {
    let op = "opening the database";
    let created = Rc::new(Cell::new(false));
    let upgraded = created.clone();
    let factory = DBFactory::new().map_err(|e| open_error(name, op, e))?;
    let mut req = factory
        .open_db(name)
        .with_version(VERSION)
        .with_on_upgrade_needed(move |event, db| {
            upgraded.set(event.old_version() < 1.0);
            upgrade(&db, event.old_version())
        })
        .build()
        .map_err(|e| open_error(name, op, e))?;
    // indexed_db_futures' event has no `dataLoss` (Chromium only): read from the same event.
    let data_loss = Rc::new(RefCell::new(None));
    let seen = data_loss.clone();
    let on_upgrade = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
        let get = |k: &str| js_sys::Reflect::get(&event, &k.into()).unwrap_or(JsValue::UNDEFINED);
        let loss = get("dataLoss").as_string().filter(|l| l != "none");
        *seen.borrow_mut() = loss.map(|l| get("dataLossMessage").as_string().filter(|m| !m.is_empty()).unwrap_or(l));
    });
    let target: web_sys::EventTarget = req.as_sys().clone().unchecked_into();
    let _ = target.add_event_listener_with_callback("upgradeneeded", on_upgrade.as_ref().unchecked_ref());
    let mut answer = within(timeout_ms, &mut req).await;
    // No answer: IndexedDB is asked something else every 100 ms (the timer's, gloo-timers) while
    // the open waits `timeout_ms` more.
    let mut waited = 0;
    while answer.is_none() && waited < timeout_ms {
        wake(&factory);
        let step = (timeout_ms - waited).min(100);
        answer = within(step, &mut req).await;
        waited += step;
    }
    let _ = target.remove_event_listener_with_callback("upgradeneeded", on_upgrade.as_ref().unchecked_ref());
    let Some(db) = answer else {
        // The request given up on goes on in the background: a connection it opens later is
        // closed, so it blocks no other open. An upgrade it runs first is a versionchange
        // transaction, whole or not at all, so it leaves no half schema.
        wasm_bindgen_futures::spawn_local(async move {
            if let Ok(db) = req.await {
                db.close();
            }
        });
        return Err(Error::Timeout {
            op: op.into(),
            message: format!(
                "no answer within {timeout_ms} ms, nor within {timeout_ms} ms more after IndexedDB was woken (indexedDB.databases()), so the open was given up; a tab or worker that keeps an older version of this database open blocks it until closed"
            ),
        });
    };
    let db = db.map_err(|e| open_error(name, op, e))?;
    let created = created.get();
    let data_loss = if created { data_loss.take() } else { None };
    Ok(Opened { db, created, data_loss })
}

/// Deletes the database `name`; other connections get `versionchange` (idb-ttl's close at once).
/// A deletion that gets no answer within `timeout_ms` wakes IndexedDB and waits as long again, as
/// [`open`] does, then gives up with a `TimeoutError`. IndexedDB cannot take a deletion back: the
/// request stays queued and deletes the database once the connections keeping it open close.
pub async fn destroy(name: &str, timeout_ms: u32) -> Result<()> {
    let op = "deleting the database";
    let factory = DBFactory::new().map_err(|e| open_error(name, op, e))?;
    let mut req = factory.delete_db(name).map_err(|e| storage_error(name, op, idb_to_js(e)))?;
    let mut answer = within(timeout_ms, &mut req).await;
    let mut waited = 0;
    while answer.is_none() && waited < timeout_ms {
        wake(&factory);
        let step = (timeout_ms - waited).min(100);
        answer = within(step, &mut req).await;
        waited += step;
    }
    match answer {
        Some(done) => done.map_err(|e| storage_error(name, op, idb_to_js(e))),
        None => Err(Error::Timeout {
            op: op.into(),
            message: format!(
                "no answer within {timeout_ms} ms, nor within {timeout_ms} ms more after IndexedDB was woken (indexedDB.databases()), so destroy() stopped waiting; a tab or worker keeps the database open and did not close it on versionchange (another library's connection, or a page of an older version): the deletion stays queued and happens once it closes"
            ),
        }),
    }
}

/// Opening or deleting a database failed: no IndexedDB here, or what the browser said.
fn open_error(name: &str, op: &str, e: OpenDbError) -> Error {
    match e {
        OpenDbError::Base(e) => storage_error(name, op, idb_to_js(e)),
        OpenDbError::UnsupportedEnvironment | OpenDbError::NullFactory => Error::Unavailable,
        OpenDbError::VersionZero => Error::Storage { op: op.into(), name: "OpenError".into(), message: "Version cannot be zero".into() },
    }
}
