//! `store.archive` and `collection.archive` as JavaScript sees them: the records that reached
//! an archive tier (`archiveFor`, `ttlIndex.tiers`), readable until their delete tier.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::{convert, promise};
use crate::store::Store;

/// One archive: the key-value entries' (`c` = 0) or a collection's (`c` = its name).
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct Archive {
    pub(crate) store: Store,
    pub(crate) c: JsValue,
}

#[wasm_bindgen]
impl Archive {
    /// The archived value of `key`, `undefined` if not archived or past its delete tier.
    pub fn get(&self, key: JsValue) -> Promise {
        let (store, c) = (self.store.clone(), self.c.clone());
        promise(async move { store.archive_get(&c, &convert::key(&key)?).await })
    }

    /// Archived values, the soonest to be deleted first.
    pub fn values(&self) -> Promise {
        let (store, c) = (self.store.clone(), self.c.clone());
        promise(async move { store.archive_values(&c).await })
    }

    /// How many records the archive holds.
    pub fn count(&self) -> Promise {
        let (store, c) = (self.store.clone(), self.c.clone());
        promise(async move { store.archive_count(&c).await })
    }

    /// Empties the archive.
    pub fn clear(&self) -> Promise {
        let (store, c) = (self.store.clone(), self.c.clone());
        promise(async move {
            store.archive_clear(&c).await?;
            Ok(JsValue::UNDEFINED)
        })
    }
}
