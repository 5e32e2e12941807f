//! `store.archive` and `collection.archive` as JavaScript sees them: the records that reached
//! an archive tier (`archiveFor`, `ttlIndex.tiers`), readable until their delete tier.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::{run, U};
use crate::core::window::Window;
use crate::store::{Collection, Store};

/// One archive: the key-value entries' (`id` = 0) or a collection's (`id` = its name).
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct Archive {
    pub(crate) store: Store,
    pub(crate) id: JsValue,
    /// The collection, for an archive of documents: its tiers say how long they stay.
    pub(crate) of: Option<Collection>,
}

impl Archive {
    /// Store, archive, and how long its records stay after the time they were keyed by (read
    /// at the call: the tiers may have changed).
    fn parts(&self) -> (Store, JsValue, Window) {
        let after = self.of.as_ref().map_or_else(|| self.store.entries_archive(), Collection::archive_after);
        (self.store.clone(), self.id.clone(), after)
    }
}

#[wasm_bindgen]
impl Archive {
    /// The archived value of `key`, `undefined` if not archived or past its delete tier.
    pub fn get(&self, key: JsValue) -> Promise {
        let (store, archive, keep_ms) = self.parts();
        run(async move { store.archive_get(&archive, keep_ms, &super::convert::key(&key)?).await })
    }

    /// Archived values, the soonest to be deleted first.
    pub fn values(&self) -> Promise {
        let (store, archive, keep_ms) = self.parts();
        run(async move { Ok(store.archive_values(&archive, keep_ms).await?.into()) })
    }

    /// How many records the archive holds.
    pub fn count(&self) -> Promise {
        let (store, archive, keep_ms) = self.parts();
        run(async move { Ok(store.archive_count(&archive, keep_ms).await?.into()) })
    }

    /// Empties the archive.
    pub fn clear(&self) -> Promise {
        let (store, archive, _) = self.parts();
        run(async move {
            store.archive_clear(&archive).await?;
            Ok(U)
        })
    }
}
