//! `observe(query, listener)`: live views of the entries. A view's listener gets its live entries
//! `[{ key, value, expiresAt }]` once read, then again after every change to them, whether the
//! change happened in this member or another, and when an entry's expiry comes (not when the
//! reaper removes it). The bookkeeping (views, what an event touches, the merge, the soonest
//! expiry) is `views` in `members.js`, beside `watches`, hearing the same events; here: the reads
//! it asks for (a view's range, or the keys an event touched, never extending an idle entry) and
//! the one timer ([`Timer`]) it sets for the soonest expiry among every view's entries.

use std::rc::{Rc, Weak};

use indexed_db_futures::KeyRange;
use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;

use super::{Inner, Store};
use crate::core::error::Result;
use crate::core::options::ViewQuery;
use crate::core::value::Value;
use crate::idb::{Read, Seen};
use crate::timer::{now_ms, Timer};

#[wasm_bindgen(module = "/src/members.js")]
extern "C" {
    /// A store's live views (`views` in members.js); its methods catch what they call.
    #[derive(Debug, Clone)]
    pub(super) type Views;
    #[wasm_bindgen(js_name = views)]
    fn new_views(
        read: &Closure<dyn FnMut(JsValue, JsValue) -> JsValue>,
        events: &web_sys::EventTarget,
        set_timer: &Closure<dyn Fn(Option<f64>)>,
        now: &Closure<dyn Fn() -> f64>,
    ) -> Views;
    #[wasm_bindgen(method)]
    fn observe(this: &Views, query: &JsValue, listener: &Function) -> Function;
    #[wasm_bindgen(method)]
    fn stats(this: &Views) -> Array;
    /// The timer rang at `now_ms`: the entries expired by then leave their views.
    #[wasm_bindgen(method)]
    fn ring(this: &Views, now_ms: f64);
    #[wasm_bindgen(method)]
    fn close(this: &Views);
}

/// A store's views, with the read they call back, the setter of their timer (which owns it) and
/// the clock, made at its first `observe`.
#[derive(Debug)]
pub(super) struct Observing {
    views: Views,
    _read: Closure<dyn FnMut(JsValue, JsValue) -> JsValue>,
    _set_timer: Closure<dyn Fn(Option<f64>)>,
    _now: Closure<dyn Fn() -> f64>,
}

impl Drop for Observing {
    fn drop(&mut self) {
        self.views.close();
    }
}

/// A key of a view query as IndexedDB compares it.
fn key_js(v: &Value) -> JsValue {
    match v {
        Value::Text(s) => JsValue::from_str(s),
        Value::Number(n) => JsValue::from_f64(*n),
        _ => JsValue::UNDEFINED,
    }
}

/// `query` as the views' bookkeeping reads it (and as the views' read, `js::view_read`, is given
/// it back): `{ prefix }`, `{ keys }` or `{ from, to }`.
pub fn query_js(query: &ViewQuery) -> JsValue {
    let obj = js_sys::Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = js_sys::Reflect::set(&obj, &k.into(), &v);
    };
    match query {
        ViewQuery::Prefix(p) => set("prefix", JsValue::from_str(p)),
        ViewQuery::Keys(ks) => set("keys", ks.iter().map(key_js).collect::<Array>().into()),
        ViewQuery::Range(from, to) => {
            if let Some(f) = from {
                set("from", key_js(f));
            }
            if let Some(t) = to {
                set("to", key_js(t));
            }
        }
    }
    obj.into()
}

/// The string keys starting with `p`: from `p` to its successor (its last UTF-16 unit below
/// U+FFFF plus one, those after it dropped), open at the end; from `p` on when it has none.
fn prefix_range(p: &str) -> KeyRange<JsValue> {
    let mut units: Vec<u16> = p.encode_utf16().collect();
    while units.last() == Some(&0xFFFF) {
        units.pop();
    }
    match units.last_mut() {
        Some(last) => {
            *last += 1;
            KeyRange::Bound(JsValue::from_str(p), false, js_sys::JsString::from_char_code(&units).into(), true)
        }
        None => KeyRange::LowerBound(JsValue::from_str(p), false),
    }
}

impl Store {
    /// Observes `query` (see the module); returns the function that stops it. `read(store,
    /// query, keys)` gives a promise of `[{ key, value, expiresAt }]` (the JS layer's driver runs
    /// it, as it runs every method). The store keeps the `read` of its first view for all of
    /// them, so it must read every kind of query (`view_read` in the JS layer does).
    pub fn observe(&self, query: &JsValue, listener: &Function, read: fn(Store, JsValue, JsValue) -> JsValue) -> Result<Function> {
        self.usable()?;
        // The views made at the first observe, held without a borrow while they are called.
        let made = self.0.observing.borrow().as_ref().map(|o| o.views.clone());
        let views = if let Some(views) = made {
            views
        } else {
            let weak: Weak<Inner> = Rc::downgrade(&self.0);
            let ring = weak.clone();
            let read = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(move |query: JsValue, keys: JsValue| match weak.upgrade() {
                Some(inner) => read(Store(inner), query, keys),
                None => JsValue::UNDEFINED,
            });
            let timer = Timer::new(move |now| {
                // Rung with no borrow held: a listener may observe, stop observing or close the store.
                let views = ring.upgrade().and_then(|inner| inner.observing.borrow().as_ref().map(|o| o.views.clone()));
                if let Some(views) = views {
                    views.ring(now);
                }
            });
            let set_timer = Closure::<dyn Fn(Option<f64>)>::new(move |at_ms: Option<f64>| timer.set(at_ms));
            let now = Closure::<dyn Fn() -> f64>::new(now_ms);
            let views = new_views(&read, &self.0.events, &set_timer, &now);
            self.0.observing.replace(Some(Observing { views: views.clone(), _read: read, _set_timer: set_timer, _now: now }));
            views
        };
        Ok(views.observe(query, listener))
    }

    /// The read of the live entries `query` shows (of `keys` only, when given), in key order,
    /// idle entries not extended ([`Store::read`] runs it).
    pub fn view_read(query: &ViewQuery, keys: Option<Vec<JsValue>>) -> Read {
        Read::view(match (keys, query) {
            (Some(keys), _) => Seen::Keys(keys),
            (None, ViewQuery::Keys(ks)) => Seen::Keys(ks.iter().map(key_js).collect()),
            (None, ViewQuery::Prefix(p)) => Seen::Range(Some(prefix_range(p))),
            (None, ViewQuery::Range(from, to)) => Seen::Range(match (from.as_ref().map(key_js), to.as_ref().map(key_js)) {
                (Some(f), Some(t)) => Some(KeyRange::Bound(f, false, t, false)),
                (Some(f), None) => Some(KeyRange::LowerBound(f, false)),
                (None, Some(t)) => Some(KeyRange::UpperBound(t, false)),
                (None, None) => None,
            }),
        })
    }

    /// How many views, how many entries they show, and when their timer rings (Unix ms).
    pub fn observing(&self) -> (f64, f64, Option<f64>) {
        match self.0.observing.borrow().as_ref() {
            None => (0.0, 0.0, None),
            Some(o) => {
                let s = o.views.stats();
                (s.get(0).as_f64().unwrap_or(0.0), s.get(1).as_f64().unwrap_or(0.0), s.get(2).as_f64())
            }
        }
    }
}
