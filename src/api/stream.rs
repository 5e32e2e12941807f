//! The Rust API's streams: a key's values ([`Watch`], over the store's `watch`, which every
//! member's writes and the expiry timer drive) and the store's events ([`Events`], over its
//! event target). Each is a queue that a JS callback fills and `poll_next` drains; dropping the
//! stream stops the callback.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use futures_core::Stream;
use js_sys::{Array, Function, Reflect};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::Key;
use crate::core::error::Error;
use crate::idb::{Got, Read};
use crate::store::Store;

/// What a JS callback delivered and `poll_next` has not yet taken, and the task waiting for it.
#[derive(Debug)]
struct Inbox<T> {
    items: VecDeque<T>,
    waker: Option<Waker>,
}

type Shared<T> = Rc<RefCell<Inbox<T>>>;

fn inbox<T>() -> Shared<T> {
    Rc::new(RefCell::new(Inbox { items: VecDeque::new(), waker: None }))
}

fn deliver<T>(inbox: &Shared<T>, item: T) {
    let waker = {
        let mut inbox = inbox.borrow_mut();
        inbox.items.push_back(item);
        inbox.waker.take()
    };
    if let Some(w) = waker {
        w.wake();
    }
}

fn take<T>(inbox: &Shared<T>, cx: &Context<'_>) -> Option<T> {
    let mut inbox = inbox.borrow_mut();
    let item = inbox.items.pop_front();
    if item.is_none() {
        inbox.waker = Some(cx.waker().clone());
    }
    item
}

/// A promise of what `read` gives (the store's watch reads are promises).
fn promise(store: Store, read: Read) -> JsValue {
    let fut: Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>> = Box::pin(async move {
        match store.read(read).await {
            Ok(Got::Value(v)) => Ok(v),
            Ok(_) => Ok(JsValue::UNDEFINED),
            Err(e) => Err(e.into_js()),
        }
    });
    wasm_bindgen_futures::future_to_promise(fut).into()
}

/// The watch's read: `[peek(key), expiresAt(key)]` as promises (watching does not extend an
/// idle entry).
fn watch_read(store: Store, key: JsValue) -> JsValue {
    let value = promise(store.clone(), Read::get(key.clone(), false));
    Array::of2(&value, &promise(store, Read::expires_at(key))).into()
}

/// A key's values as they change ([`TtlStore::watch`](super::TtlStore::watch)).
pub(crate) struct Watch<V> {
    inbox: Shared<JsValue>,
    /// The function that stops the watch; `None`: the watch could not start (the stream ends).
    stop: Option<Function>,
    _listener: Option<Closure<dyn FnMut(JsValue)>>,
    _v: PhantomData<fn() -> V>,
}

impl<V> Watch<V> {
    pub(crate) fn new(store: &Store, key: &Key) -> Watch<V> {
        let inbox = inbox();
        let started = key.to_js().and_then(|key| {
            let to = inbox.clone();
            let listener = Closure::<dyn FnMut(JsValue)>::new(move |v: JsValue| deliver(&to, v));
            let stop = store.watch(&key, listener.as_ref().unchecked_ref(), watch_read)?;
            Ok::<_, Error>((stop, listener))
        });
        let (stop, listener) = match started {
            Ok((stop, listener)) => (Some(stop), Some(listener)),
            Err(_) => (None, None),
        };
        Watch { inbox, stop, _listener: listener, _v: PhantomData }
    }
}

impl<V> Drop for Watch<V> {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            // The store's own function (members.js); it does not throw, and a catch binding
            // stops anything that would.
            let _ = stop.call0(&JsValue::UNDEFINED);
        }
    }
}

impl<V: DeserializeOwned> Stream for Watch<V> {
    type Item = Option<V>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Option<V>>> {
        if self.stop.is_none() {
            return Poll::Ready(None);
        }
        match take(&self.inbox, cx) {
            Some(v) if v.is_undefined() => Poll::Ready(Some(None)),
            Some(v) => Poll::Ready(Some(serde_wasm_bindgen::from_value(v).ok())),
            None => Poll::Pending,
        }
    }
}

impl<V> Unpin for Watch<V> {}

impl<V> std::fmt::Debug for Watch<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch").field("watching", &self.stop.is_some()).finish()
    }
}

/// An event of a store ([`TtlStore::events`](super::TtlStore::events)), from this tab or
/// another on the same database. Events of collections and time series are not among them.
///
/// ```
/// use idb_ttl::{Event, Key};
/// let event = Event::Change { op: "set".into(), keys: vec![Key::from("session")] };
/// assert!(matches!(event, Event::Change { ref op, .. } if op == "set"));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// The reaper removed these expired entries.
    Expired {
        /// Their keys.
        keys: Vec<Key>,
    },
    /// A write: `op` is the verb as the JavaScript API names it (`set`, `setMany`, `delete`,
    /// `deleteMany`, `clear`, `expire`, `persist`, `add`, `replace`, `take`, `incr`, `update`).
    Change {
        /// The verb.
        op: String,
        /// The keys it wrote (none for `clear`).
        keys: Vec<Key>,
    },
    /// A write evicted these entries to make room (`reason`: `maxEntries` or `quota`).
    Evicted {
        /// Their keys.
        keys: Vec<Key>,
        /// `"maxEntries"` or `"quota"`.
        reason: String,
    },
}

/// The event kinds [`Events`] listens to.
const KINDS: [&str; 3] = ["expired", "change", "evicted"];

/// A store's events as they happen.
pub(crate) struct Events {
    inbox: Shared<Event>,
    target: web_sys::EventTarget,
    listener: Closure<dyn FnMut(web_sys::Event)>,
}

/// A property of an event's detail (the store's own plain object: reading it never throws).
fn field(o: &JsValue, name: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(name)).unwrap_or_default()
}

fn keys_of(detail: &JsValue) -> Vec<Key> {
    field(detail, "keys").dyn_into::<Array>().map(|a| a.iter().filter_map(|k| Key::from_js(&k)).collect()).unwrap_or_default()
}

/// The event `e` as an [`Event`]; `None` for one of a collection or a time series.
fn event_of(e: &web_sys::Event) -> Option<Event> {
    let detail = e.dyn_ref::<web_sys::CustomEvent>()?.detail();
    let within = !field(&detail, "collection").is_undefined() || (e.type_() == "change" && !field(&detail, "timeSeries").is_undefined());
    if within {
        return None;
    }
    Some(match e.type_().as_str() {
        "expired" => Event::Expired { keys: keys_of(&detail) },
        "change" => Event::Change { op: field(&detail, "op").as_string().unwrap_or_default(), keys: keys_of(&detail) },
        "evicted" => Event::Evicted { keys: keys_of(&detail), reason: field(&detail, "reason").as_string().unwrap_or_default() },
        _ => return None,
    })
}

impl Events {
    pub(crate) fn new(store: &Store) -> Events {
        let inbox = inbox();
        let to = inbox.clone();
        let listener = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            if let Some(event) = event_of(&e) {
                deliver(&to, event);
            }
        });
        let target = store.events().clone();
        for kind in KINDS {
            let _ = target.add_event_listener_with_callback(kind, listener.as_ref().unchecked_ref());
        }
        Events { inbox, target, listener }
    }
}

impl Drop for Events {
    fn drop(&mut self) {
        for kind in KINDS {
            let _ = self.target.remove_event_listener_with_callback(kind, self.listener.as_ref().unchecked_ref());
        }
    }
}

impl Stream for Events {
    type Item = Event;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Event>> {
        match take(&self.inbox, cx) {
            Some(e) => Poll::Ready(Some(e)),
            None => Poll::Pending,
        }
    }
}

impl std::fmt::Debug for Events {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Events").finish_non_exhaustive()
    }
}
