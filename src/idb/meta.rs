//! Definitions of collections and time series, kept in the `meta` store so that a store opened
//! again (after a reload, in another tab) finds them.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

use super::runner::Ask;
use super::schema::META;
use super::Conn;
use crate::core::buckets::{Granularity, SeriesOptions};
use crate::core::error::Result;
use crate::core::ttl_index::{TimeUnit, TtlIndex};

/// A stored definition.
#[derive(Debug, Clone, PartialEq)]
pub enum Definition {
    /// `store.collection(name, { keyPath, ttlIndex })`.
    Collection {
        /// Collection name.
        name: String,
        /// The document property holding its id.
        key_path: String,
        /// The TTL index, if any.
        ttl: Option<TtlIndex>,
        /// The field and unit the stored documents are keyed by (kept when the TTL index is
        /// dropped, so adding the same one back rewrites nothing).
        keyed_by: Option<(String, TimeUnit)>,
    },
    /// `store.timeSeries(name, options)`.
    Series {
        /// Series name.
        name: String,
        /// Its options.
        options: SeriesOptions,
    },
}

impl Definition {
    /// The `meta` key: `"collection:<name>"` or `"series:<name>"`.
    pub fn key(&self) -> String {
        match self {
            Definition::Collection { name, .. } => collection_key(name),
            Definition::Series { name, .. } => series_key(name),
        }
    }

    /// The collection's or series' name.
    pub fn name(&self) -> &str {
        match self {
            Definition::Collection { name, .. } | Definition::Series { name, .. } => name,
        }
    }

    /// The stored form: a plain object.
    pub fn to_js(&self) -> JsValue {
        let o = Object::new();
        match self {
            Definition::Collection { name, key_path, ttl, keyed_by } => {
                set(&o, "kind", "collection".into());
                set(&o, "name", name.into());
                set(&o, "keyPath", key_path.into());
                let ttl_js = ttl.as_ref().map_or(JsValue::NULL, |t| {
                    let x = Object::new();
                    set(&x, "field", t.field.as_str().into());
                    set(&x, "expireAfterSecs", t.expire_after_secs.into());
                    set(&x, "unit", t.unit.name().into());
                    if let Some(until) = t.archive_until_secs {
                        set(&x, "archiveUntilSecs", until.into());
                    }
                    x.into()
                });
                set(&o, "ttlIndex", ttl_js);
                let keyed_js = keyed_by.as_ref().map_or(JsValue::NULL, |(field, unit)| {
                    let x = Object::new();
                    set(&x, "field", field.as_str().into());
                    set(&x, "unit", unit.name().into());
                    x.into()
                });
                set(&o, "keyedBy", keyed_js);
            }
            Definition::Series { name, options } => {
                set(&o, "kind", "series".into());
                set(&o, "name", name.into());
                set(&o, "timeField", options.time_field.as_str().into());
                set(&o, "metaField", options.meta_field.as_deref().map_or(JsValue::NULL, JsValue::from));
                set(&o, "granularity", options.granularity.name().into());
                set(&o, "expireAfterSecs", options.expire_after_secs.map_or(JsValue::NULL, JsValue::from));
            }
        }
        o.into()
    }

    /// Reads a stored definition; `None` for a record this version does not understand.
    pub fn from_js(v: &JsValue) -> Option<Definition> {
        let name = text(v, "name")?;
        match text(v, "kind")?.as_str() {
            "collection" => {
                let ttl_js = get(v, "ttlIndex");
                let ttl = if ttl_js.is_object() {
                    Some(TtlIndex {
                        field: text(&ttl_js, "field")?,
                        expire_after_secs: get(&ttl_js, "expireAfterSecs").as_f64()?,
                        unit: TimeUnit::parse(&text(&ttl_js, "unit")?).ok()?,
                        // Absent in definitions written before tiers: delete at expireAfter.
                        archive_until_secs: get(&ttl_js, "archiveUntilSecs").as_f64(),
                    })
                } else {
                    None
                };
                let keyed_js = get(v, "keyedBy");
                let keyed_by = if keyed_js.is_object() {
                    Some((text(&keyed_js, "field")?, TimeUnit::parse(&text(&keyed_js, "unit")?).ok()?))
                } else {
                    None
                };
                Some(Definition::Collection { name, key_path: text(v, "keyPath")?, ttl, keyed_by })
            }
            "series" => Some(Definition::Series {
                name,
                options: SeriesOptions {
                    time_field: text(v, "timeField")?,
                    meta_field: text(v, "metaField"),
                    granularity: Granularity::parse(&text(v, "granularity")?).ok()?,
                    expire_after_secs: get(v, "expireAfterSecs").as_f64(),
                },
            }),
            _ => None,
        }
    }
}

/// The `meta` key of collection `name`.
pub fn collection_key(name: &str) -> String {
    format!("collection:{name}")
}

/// The `meta` key of time series `name`.
pub fn series_key(name: &str) -> String {
    format!("series:{name}")
}

fn set(o: &Object, k: &str, v: JsValue) {
    let _ = Reflect::set(o, &JsValue::from_str(k), &v);
}

fn get(v: &JsValue, k: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
}

fn text(v: &JsValue, k: &str) -> Option<String> {
    get(v, k).as_string()
}

impl Conn {
    /// Every stored definition.
    pub async fn definitions(&self) -> Result<Vec<Definition>> {
        let all: Array = self.ask("reading collection definitions", META, None, Ask::All(None, None)).await?.unchecked_into();
        Ok(all.iter().filter_map(|d| Definition::from_js(&d)).collect())
    }

    /// The definition stored under `key`, if any.
    pub async fn definition(&self, key: &str) -> Result<Option<Definition>> {
        Ok(Definition::from_js(&self.ask("reading a collection definition", META, None, Ask::Get(key.into())).await?))
    }

    /// Stores (or replaces) a definition.
    pub async fn put_definition(&self, def: &Definition) -> Result<()> {
        let run = self.begin("saving a collection definition", &[META], true, 1)?;
        run.put_at(&run.store(META)?, def.to_js(), def.key().into())?;
        run.done().await
    }
}
