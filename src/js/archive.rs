//! `store.archive` and `collection.archive` as JavaScript sees them: the records that reached
//! an archive tier (`archiveFor`, `ttlIndex.tiers`), readable until their delete tier.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::{convert, promise};
use crate::store::{Collection, Store};

/// One archive: the key-value entries' (`c` = 0) or a collection's (`c` = its name).
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct Archive {
    pub(crate) store: Store,
    pub(crate) c: JsValue,
    /// The collection, for an archive of documents: its tiers say how long they stay.
    pub(crate) of: Option<Collection>,
}

impl Archive {
    /// Store, archive, and how long its records stay after the time they were keyed by (read
    /// at the call: the tiers may have changed).
    fn parts(&self) -> (Store, JsValue, f64) {
        let after = self.of.as_ref().map_or_else(|| self.store.entries_archive_ms(), Collection::archive_after_ms);
        (self.store.clone(), self.c.clone(), after)
    }
}

#[wasm_bindgen]
impl Archive {
    /// The archived value of `key`, `undefined` if not archived or past its delete tier.
    pub fn get(&self, key: JsValue) -> Promise {
        let (store, c, after) = self.parts();
        promise(async move { store.archive_get(&c, after, &convert::key(&key)?).await })
    }

    /// Archived values, the soonest to be deleted first.
    pub fn values(&self) -> Promise {
        let (store, c, after) = self.parts();
        promise(async move { store.archive_values(&c, after).await })
    }

    /// How many records the archive holds.
    pub fn count(&self) -> Promise {
        let (store, c, after) = self.parts();
        promise(async move { store.archive_count(&c, after).await })
    }

    /// Empties the archive.
    pub fn clear(&self) -> Promise {
        let (store, c, _) = self.parts();
        promise(async move {
            store.archive_clear(&c).await?;
            Ok(JsValue::UNDEFINED)
        })
    }
}
