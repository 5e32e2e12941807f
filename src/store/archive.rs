//! The archives as the API reads them: what `archiveFor` and a TTL index's archive tier moved
//! out of the live data, until its delete tier.

use js_sys::Array;
use wasm_bindgen::JsValue;

use super::Store;
use crate::core::error::Result;
use crate::core::window::Window;
use crate::timer::now_ms;

impl Store {
    /// The archived value of `key` (`c`: 0 for the entries, a collection's name), `undefined`
    /// if not archived or past its delete tier, `after` the time it was keyed by.
    pub async fn archive_get(&self, c: &JsValue, after: Window, key: &JsValue) -> Result<JsValue> {
        self.live().await?.archive_get(c, key, after.before(now_ms())).await
    }

    /// Archived values not yet at their delete tier, soonest deleted first.
    pub async fn archive_values(&self, c: &JsValue, after: Window) -> Result<Array> {
        self.live().await?.archive_values(c, after.before(now_ms())).await
    }

    /// How many archived records have not reached their delete tier.
    pub async fn archive_count(&self, c: &JsValue, after: Window) -> Result<u32> {
        self.live().await?.archive_count(c, after.before(now_ms())).await
    }

    /// How long archived entries stay (`archiveFor`); 0 without it.
    pub fn entries_archive(&self) -> Window {
        Window { months: 0, ms: self.archive_for_ms().unwrap_or(0.0) }
    }

    /// Empties an archive.
    pub async fn archive_clear(&self, c: &JsValue) -> Result<()> {
        self.live().await?.archive_clear(c).await
    }
}
