//! The lite entry's `crypt`: no encryption at rest (`{ encryption }` is the default entry's, and
//! a lite store refuses a database holding encryption keys), so nothing is sealed or opened.

use js_sys::Array;
use wasm_bindgen::JsValue;

use super::Store;
use crate::core::error::Result;
use crate::idb::Conn;

/// An entry's item: its value, as it is stored.
pub(super) fn entry_item(_key: &JsValue, value: JsValue) -> JsValue {
    value
}

/// A document's item: the document, as it is stored.
pub(super) fn doc_item(_collection: &str, _id: &JsValue, doc: JsValue) -> JsValue {
    doc
}

impl Store {
    /// Never: the lite entry has no encryption.
    pub fn encrypted(&self) -> bool {
        false
    }

    /// `items` as they are.
    pub(super) async fn seal_items(&self, _conn: &Conn, items: Array) -> Result<Vec<JsValue>> {
        Ok(items.to_vec())
    }

    /// `items` as they are.
    pub(super) async fn unseal_items(&self, _conn: &Conn, items: Array) -> Result<Vec<JsValue>> {
        Ok(items.to_vec())
    }

    /// Nothing to sweep.
    pub(super) async fn sweep_expired_keys(&self) -> Result<()> {
        Ok(())
    }
}
