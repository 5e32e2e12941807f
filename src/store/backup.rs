//! What `export()` reads: every stored entry, document and bucket with the definitions, in
//! one consistent-enough sweep (one transaction per store). Shaping it into a JSON snapshot is
//! the JS edge's job (`js/snapshot.js`).

use js_sys::Array;
use wasm_bindgen::JsValue;

use super::Store;
use crate::core::error::Result;
use crate::idb::Definition;

/// Raw records for a snapshot.
#[derive(Debug)]
pub struct SnapshotData {
    /// Entry records `{ k, e, v }`.
    pub entries: Array,
    /// `[definition, document records]` per collection.
    pub collections: Array,
    /// `[definition, bucket records]` per time series.
    pub series: Array,
}

impl Store {
    /// Reads everything an export needs.
    pub async fn snapshot_data(&self) -> Result<SnapshotData> {
        let conn = self.conn()?;
        let entries = conn.entry_records().await?;
        let (collections, series) = (Array::new(), Array::new());
        for def in conn.definitions().await? {
            match &def {
                Definition::Collection { name, .. } => {
                    let docs: JsValue = conn.doc_records(name).await?.into();
                    collections.push(&Array::of2(&def.to_js(), &docs));
                }
                Definition::Series { name, .. } => {
                    let buckets: JsValue = conn.all_buckets(name).await?.into();
                    series.push(&Array::of2(&def.to_js(), &buckets));
                }
            }
        }
        Ok(SnapshotData { entries, collections, series })
    }
}
