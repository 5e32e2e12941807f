//! `watch(key, listener)`: a key's listeners get its value once read, then its new value when it
//! is written and `undefined` when it is deleted or expires, whether the change happened in this
//! member or another (tab, worker). The bookkeeping (watched keys, listeners, when the soonest
//! watched expiry comes) is `watches` in `members.js`, which hears the store's own events target
//! (this member's events, and the other members' as the channel dispatches them): in JS it is a
//! fraction of the bytes it is in Rust, and every call to a listener is inside a JS try/catch.
//! Here: the read it asks for, and the one timer (a [`Timer`]) it sets for the soonest expiry,
//! which rings it with the time.

use std::rc::{Rc, Weak};

use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;

use super::{Inner, Store};
use crate::core::error::Result;
use crate::timer::Timer;

#[wasm_bindgen(module = "/src/members.js")]
extern "C" {
    /// A store's watched keys (`watches` in members.js); its methods catch what they call.
    #[derive(Debug, Clone)]
    pub(super) type Watches;
    #[wasm_bindgen(js_name = watches)]
    fn new_watches(read: &Closure<dyn FnMut(JsValue) -> JsValue>, events: &web_sys::EventTarget, set_timer: &Closure<dyn Fn(Option<f64>)>) -> Watches;
    #[wasm_bindgen(method)]
    fn watch(this: &Watches, key: &JsValue, listener: &Function) -> Function;
    #[wasm_bindgen(method)]
    fn stats(this: &Watches) -> Array;
    /// The timer rang at `now_ms`: the watched keys expired by then are told.
    #[wasm_bindgen(method)]
    fn ring(this: &Watches, now_ms: f64);
    #[wasm_bindgen(method)]
    fn close(this: &Watches);
}

/// A store's watches, the read they call back and the setter of their timer (which owns the
/// timer, so dropping it stops the timer), made at its first `watch`.
#[derive(Debug)]
pub(super) struct Watching {
    watches: Watches,
    _read: Closure<dyn FnMut(JsValue) -> JsValue>,
    _set_timer: Closure<dyn Fn(Option<f64>)>,
}

impl Drop for Watching {
    fn drop(&mut self) {
        self.watches.close();
    }
}

impl Store {
    /// Watches `key` (see the module); returns the function that stops it. `read(store, key)`
    /// gives `[value, expiresAt]`: promises of `get(key)` and `expiresAt(key)` as the API
    /// answers them (the JS layer's driver runs them, as it runs every method).
    pub fn watch(&self, key: &JsValue, listener: &Function, read: fn(Store, JsValue) -> JsValue) -> Result<Function> {
        self.usable()?;
        // The watches made at the first watch, held without a borrow while they are called.
        let made = self.0.watching.borrow().as_ref().map(|w| w.watches.clone());
        let watches = if let Some(watches) = made {
            watches
        } else {
            let weak: Weak<Inner> = Rc::downgrade(&self.0);
            let ring = weak.clone();
            let read = Closure::<dyn FnMut(JsValue) -> JsValue>::new(move |key: JsValue| match weak.upgrade() {
                Some(inner) => read(Store(inner), key),
                None => JsValue::UNDEFINED,
            });
            let timer = Timer::new(move |now| {
                // Rung with no borrow held: a listener may watch, stop watching or close the store.
                let watches = match ring.upgrade() {
                    Some(inner) => inner.watching.borrow().as_ref().map(|w| w.watches.clone()),
                    None => None,
                };
                if let Some(watches) = watches {
                    watches.ring(now);
                }
            });
            let set_timer = Closure::<dyn Fn(Option<f64>)>::new(move |at_ms: Option<f64>| timer.set(at_ms));
            let watches = new_watches(&read, &self.0.events, &set_timer);
            self.0.watching.replace(Some(Watching { watches: watches.clone(), _read: read, _set_timer: set_timer }));
            watches
        };
        Ok(watches.watch(key, listener))
    }

    /// How many keys are watched, and when the watch timer rings (Unix ms).
    pub fn watching(&self) -> (f64, Option<f64>) {
        match self.0.watching.borrow().as_ref() {
            None => (0.0, None),
            Some(w) => {
                let s = w.watches.stats();
                (s.get(0).as_f64().unwrap_or(0.0), s.get(1).as_f64())
            }
        }
    }
}
