//! This member among the others of its database: events dispatched here and posted to the
//! others over the channel, the others' definition changes adopted, and the reaper lock that
//! makes one member the leader.

use std::rc::{Rc, Weak};

use js_sys::Array;
use wasm_bindgen::prelude::*;
use web_sys::{CustomEvent, CustomEventInit, EventTarget};

#[cfg(feature = "full")]
use super::collection;
use super::{plain_object, Inner, Store};
use crate::channel::Channel;
use crate::idb::Definition;
use crate::timer::Leadership;

impl Store {
    /// The target `addEventListener` forwards to.
    pub fn events(&self) -> &EventTarget {
        &self.0.events
    }

    pub(super) fn emit_change(&self, op: &str, keys: Array) {
        self.emit("change", &plain_object(&[("op", JsValue::from_str(op)), ("keys", keys.into())]));
    }

    /// A `"change"` event for a write to a collection or time series (`within` names which:
    /// `"collection"` or `"timeSeries"`); `keys` are document ids (empty for events).
    pub(super) fn emit_change_in(&self, within: &str, name: &str, op: &str, keys: Array) {
        let fields = [("op", JsValue::from_str(op)), ("keys", keys.into()), (within, JsValue::from_str(name))];
        self.emit("change", &plain_object(&fields));
    }

    /// Dispatches `kind` here and, for `"expired"`, `"change"` and `"evicted"`, in every other
    /// member.
    pub(super) fn emit(&self, kind: &str, detail: &JsValue) {
        if matches!(kind, "expired" | "change" | "evicted") {
            // Before the listeners here run: one of them could change `detail`.
            self.post(kind, detail);
        }
        self.dispatch(kind, detail);
    }

    fn dispatch(&self, kind: &str, detail: &JsValue) {
        let init = CustomEventInit::new();
        init.set_detail(detail);
        if let Ok(event) = CustomEvent::new_with_event_init_dict(kind, &init) {
            // A listener that throws is reported by the browser; it must not fail the write.
            let _ = self.0.events.dispatch_event(&event);
        }
    }

    /// Joins the database's channel: other members' events are dispatched here (`members.js`),
    /// their definition changes adopted by `Store::adopt` (in the default entry).
    pub(super) fn join_channel(&self) {
        #[cfg(feature = "full")]
        let adopt = {
            let weak: Weak<Inner> = Rc::downgrade(&self.0);
            move |def: JsValue| {
                if let (Some(inner), Some(def)) = (weak.upgrade(), Definition::from_js(&def)) {
                    Store(inner).adopt(def);
                }
            }
        };
        // The lite entry has no collections or time series to adopt definitions for.
        #[cfg(not(feature = "full"))]
        let adopt = |_: JsValue| {};
        let channel = Channel::open(&format!("idb-ttl {}", self.0.name), &self.0.events, adopt);
        self.0.channel.replace(channel);
    }

    fn post(&self, kind: &str, detail: &JsValue) {
        if let Some(channel) = self.0.channel.borrow().as_ref() {
            channel.post(kind, detail);
        }
    }

    /// Tells the other members that a collection's or time series' definition changed, so their
    /// handles report and use the new one (the message arrives before the write's `"change"`).
    pub(super) fn definition_saved(&self, def: &Definition) {
        self.post("definition", &def.to_js());
    }

    /// Another member's definition: every handle of this store uses it from now on.
    #[cfg(feature = "full")]
    fn adopt(&self, def: Definition) {
        match def {
            Definition::Collection { name, ttl, keyed_by, .. } => {
                if let Some(state) = self.0.collections.borrow().get(&name) {
                    state.replace(collection::State::new(ttl, keyed_by));
                }
            }
            Definition::Series { name, options } => {
                if let Some(shared) = self.0.series.borrow().get(&name) {
                    shared.replace(options);
                }
            }
        }
    }

    /// Whether this member runs the background passes for the database.
    pub fn is_leader(&self) -> bool {
        self.0.leader.get()
    }

    /// Asks for the database's reaper lock; the member that holds it runs the background passes
    /// (MongoDB's TTL monitor runs on the primary only). Without Web Locks, every member leads:
    /// safe, since a pass removes only what has expired when it runs.
    pub(super) fn seek_leadership(&self) {
        let weak: Weak<Inner> = Rc::downgrade(&self.0);
        let lock = Leadership::request(&format!("idb-ttl reaper {}", self.0.name), move || {
            if let Some(inner) = weak.upgrade() {
                Store(inner).lead();
            }
        });
        match lock {
            Some(lock) => {
                self.0.leadership.replace(Some(lock));
            }
            None => self.lead(),
        }
    }

    fn lead(&self) {
        if self.is_closed() || self.0.paused.get() {
            return;
        }
        self.0.leader.set(true);
        self.start_timer();
    }
}
