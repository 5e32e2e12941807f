//! BroadcastChannel: the only module that touches it. The members of one database (tabs,
//! iframes, workers) tell each other of their events and definition changes over a channel
//! named after the database (`channel.js` catches every exception).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/channel.js")]
extern "C" {
    #[derive(Debug)]
    type ChannelHandle;
    #[wasm_bindgen(js_name = openChannel)]
    fn open_channel(name: &str, on_message: &Closure<dyn FnMut(JsValue)>) -> Option<ChannelHandle>;
    #[wasm_bindgen(method)]
    fn post(this: &ChannelHandle, data: &JsValue) -> bool;
    #[wasm_bindgen(method)]
    fn close(this: &ChannelHandle);
}

/// An open channel; dropping it closes it.
#[must_use = "the channel is closed as soon as it is dropped"]
#[derive(Debug)]
pub struct Channel {
    handle: ChannelHandle,
    _on_message: Closure<dyn FnMut(JsValue)>,
}

impl Channel {
    /// Joins the channel `name`; `on_message` gets what other members post (a structured clone).
    /// `None` where there is no BroadcastChannel: events then stay in their own context.
    pub fn open(name: &str, on_message: impl FnMut(JsValue) + 'static) -> Option<Channel> {
        let on_message = Closure::<dyn FnMut(JsValue)>::new(on_message);
        let handle = open_channel(name, &on_message)?;
        Some(Channel { handle, _on_message: on_message })
    }

    /// Sends `data` to every other member; `false` if it could not be cloned.
    pub fn post(&self, data: &JsValue) -> bool {
        self.handle.post(data)
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        self.handle.close();
    }
}
