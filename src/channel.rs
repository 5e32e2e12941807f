//! BroadcastChannel: the only module that touches it. The members of one database (tabs,
//! iframes, workers) tell each other of their events and definition changes over a channel
//! named after the database; `members.js` dispatches the events it receives and catches every
//! exception. It reads the time (to keep unsent events a few seconds) from [`now_ms`].

use wasm_bindgen::prelude::*;
use web_sys::EventTarget;

use crate::timer::now_ms;

#[wasm_bindgen(module = "/src/members.js")]
extern "C" {
    #[derive(Debug)]
    type ChannelHandle;
    #[wasm_bindgen(js_name = openChannel)]
    fn open_channel(name: &str, target: &EventTarget, on_definition: &Closure<dyn FnMut(JsValue)>, now: &Closure<dyn Fn() -> f64>) -> Option<ChannelHandle>;
    #[wasm_bindgen(method)]
    fn post(this: &ChannelHandle, kind: &str, detail: &JsValue) -> bool;
    #[wasm_bindgen(method)]
    fn close(this: &ChannelHandle);
}

/// An open channel; dropping it closes it.
#[must_use = "the channel is closed as soon as it is dropped"]
#[derive(Debug)]
pub struct Channel {
    handle: ChannelHandle,
    _on_definition: Closure<dyn FnMut(JsValue)>,
    _now: Closure<dyn Fn() -> f64>,
}

impl Channel {
    /// Joins the channel `name`: other members' `"expired"` and `"change"` events are dispatched
    /// on `target` with `detail.remote = true`, their definition changes (a stored definition
    /// record) go to `on_definition`. `None` where there is no BroadcastChannel: events then stay
    /// in their own context.
    pub fn open(name: &str, target: &EventTarget, on_definition: impl FnMut(JsValue) + 'static) -> Option<Channel> {
        let on_definition = Closure::<dyn FnMut(JsValue)>::new(on_definition);
        let now = Closure::<dyn Fn() -> f64>::new(now_ms);
        let handle = open_channel(name, target, &on_definition, &now)?;
        Some(Channel { handle, _on_definition: on_definition, _now: now })
    }

    /// Sends an event (`kind` and its detail) or a definition (`kind` `"definition"`) to every
    /// other member; `false` if it could not be cloned.
    pub fn post(&self, kind: &str, detail: &JsValue) -> bool {
        self.handle.post(kind, detail)
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        self.handle.close();
    }
}
