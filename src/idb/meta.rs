//! Definitions of collections and time series, kept in the `meta` store so that a store opened
//! again (after a reload, in another tab) finds them.

use js_sys::Array;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::runner::Ask;
use super::schema::{ARCHIVE, BUCKETS, DOCS, ENTRIES, META};
use super::Conn;
use crate::core::buckets::{Granularity, SeriesOptions, MAX_BUCKET_BYTES};
use crate::core::error::Result;
use crate::core::ttl_index::{TimeUnit, TtlIndex};
use crate::core::schedule::Schedule;
use crate::core::window::Window;

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

    /// The stored form: a plain object (`ttlIndex`, `keyedBy`, `metaField`, `expireAfterSecs`
    /// are `null` when absent, as every version has stored them).
    pub fn to_js(&self) -> JsValue {
        let stored = match self {
            Definition::Collection { name, key_path, ttl, keyed_by } => StoredDefinition::Collection {
                name,
                key_path,
                ttl_index: ttl.as_ref().map(|t| StoredTtl {
                    field: t.field.clone(),
                    automatic: t.automatic,
                    expire_after_secs: t.expire_after.ms / 1000.0,
                    expire_after_months: t.expire_after.months,
                    unit: t.unit.name().into(),
                    archive_until_secs: t.archive_until.map(|w| w.ms / 1000.0),
                    archive_until_months: t.archive_until.map_or(0, |w| w.months),
                    schedule: t.schedule.as_ref().map(|s| s.text.clone()),
                    paused: t.paused,
                    middle_tiers: t.middle.iter().map(|w| (w.ms / 1000.0, w.months)).collect(),
                    hand_off: t.hand_off.clone(),
                }),
                keyed_by: keyed_by.as_ref().map(|(field, unit)| StoredKeyedBy { field: field.clone(), unit: unit.name().into() }),
            },
            Definition::Series { name, options } => StoredDefinition::Series {
                name,
                time_field: &options.time_field,
                meta_field: options.meta_field.as_deref(),
                granularity: options.granularity.name(),
                bucket_span_secs: match options.granularity {
                    Granularity::Custom(secs) => Some(secs),
                    _ => None,
                },
                max_bucket_bytes: (options.max_bucket_bytes != MAX_BUCKET_BYTES).then_some(options.max_bucket_bytes),
                expire_after_secs: options.expire_after.map(|w| w.ms / 1000.0),
                expire_after_months: options.expire_after.map_or(0, |w| w.months),
            },
        };
        // Plain data: serializing it cannot fail.
        stored.serialize(&serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true)).unwrap_or(JsValue::NULL)
    }

    /// Reads a stored definition; `None` for a record this version does not understand.
    pub fn from_js(v: &JsValue) -> Option<Definition> {
        let read: ReadDefinition = serde_wasm_bindgen::from_value(v.clone()).ok()?;
        match read.kind.as_str() {
            "collection" => {
                let ttl = match read.ttl_index {
                    Some(t) => Some(TtlIndex {
                        field: t.field,
                        automatic: t.automatic,
                        expire_after: window(t.expire_after_months, t.expire_after_secs),
                        unit: TimeUnit::parse(&t.unit).ok()?,
                        // Absent in definitions written before tiers: delete at expireAfter.
                        archive_until: t.archive_until_secs.map(|secs| window(t.archive_until_months, secs)),
                        schedule: match t.schedule {
                            Some(s) => Some(Schedule::parse(&s).ok()?),
                            None => None,
                        },
                        paused: t.paused,
                        middle: t.middle_tiers.into_iter().map(|(secs, months)| window(months, secs)).collect(),
                        hand_off: t.hand_off,
                    }),
                    None => None,
                };
                let keyed_by = match read.keyed_by {
                    Some(k) => Some((k.field, TimeUnit::parse(&k.unit).ok()?)),
                    None => None,
                };
                Some(Definition::Collection { name: read.name, key_path: read.key_path?, ttl, keyed_by })
            }
            "series" => Some(Definition::Series {
                name: read.name,
                options: SeriesOptions {
                    time_field: read.time_field?,
                    meta_field: read.meta_field,
                    granularity: match (read.granularity?.as_str(), read.bucket_span_secs) {
                        ("custom", Some(secs)) => Granularity::Custom(secs),
                        (name, _) => Granularity::parse(name).ok()?,
                    },
                    max_bucket_bytes: read.max_bucket_bytes.unwrap_or(MAX_BUCKET_BYTES),
                    expire_after: read.expire_after_secs.map(|secs| window(read.expire_after_months, secs)),
                },
            }),
            _ => None,
        }
    }
}

/// A definition as the `meta` store holds it.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum StoredDefinition<'a> {
    Collection {
        name: &'a str,
        #[serde(rename = "keyPath")]
        key_path: &'a str,
        #[serde(rename = "ttlIndex")]
        ttl_index: Option<StoredTtl>,
        #[serde(rename = "keyedBy")]
        keyed_by: Option<StoredKeyedBy>,
    },
    Series {
        name: &'a str,
        #[serde(rename = "timeField")]
        time_field: &'a str,
        #[serde(rename = "metaField")]
        meta_field: Option<&'a str>,
        granularity: &'static str,
        /// A custom span's seconds (`granularity: "custom"`); absent otherwise.
        #[serde(rename = "bucketSpanSecs", skip_serializing_if = "Option::is_none")]
        bucket_span_secs: Option<u32>,
        /// Absent at the default, 125 KiB.
        #[serde(rename = "maxBucketBytes", skip_serializing_if = "Option::is_none")]
        max_bucket_bytes: Option<u32>,
        #[serde(rename = "expireAfterSecs")]
        expire_after_secs: Option<f64>,
        #[serde(rename = "expireAfterMonths", skip_serializing_if = "is_zero")]
        expire_after_months: i64,
    },
}

/// Months are stored only when a window has them (definitions stay as every version wrote them).
fn is_zero(months: &i64) -> bool {
    *months == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A stored window: its months (0 when absent) and exact seconds.
fn window(months: i64, secs: f64) -> Window {
    Window { months, ms: secs * 1000.0 }
}

/// A collection's TTL index as stored.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredTtl {
    field: String,
    /// Absent but for an automatic index (its `field` is `""`).
    #[serde(default, skip_serializing_if = "is_false")]
    automatic: bool,
    expire_after_secs: f64,
    /// Absent without calendar units, as `archiveUntilMonths`.
    #[serde(default, skip_serializing_if = "is_zero")]
    expire_after_months: i64,
    unit: String,
    /// Absent without an archive tier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    archive_until_secs: Option<f64>,
    #[serde(default, skip_serializing_if = "is_zero")]
    archive_until_months: i64,
    /// Absent without a schedule (`ttl_job_cron`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    schedule: Option<String>,
    /// Absent unless paused (`ttl_pause`).
    #[serde(default, skip_serializing_if = "is_false")]
    paused: bool,
    /// The archive tiers between the first and the delete tier, `[secs, months]` each; absent
    /// with none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    middle_tiers: Vec<(f64, i64)>,
    /// The tiers that hand off, by index; absent when none says so.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    hand_off: Vec<u32>,
}

/// The field and unit a collection's documents are keyed by, as stored.
#[derive(Serialize, Deserialize)]
struct StoredKeyedBy {
    field: String,
    unit: String,
}

/// Either kind of stored definition, read back: what one kind lacks is `None`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReadDefinition {
    kind: String,
    name: String,
    #[serde(default)]
    key_path: Option<String>,
    #[serde(default)]
    ttl_index: Option<StoredTtl>,
    #[serde(default)]
    keyed_by: Option<StoredKeyedBy>,
    #[serde(default)]
    time_field: Option<String>,
    #[serde(default)]
    meta_field: Option<String>,
    #[serde(default)]
    granularity: Option<String>,
    #[serde(default)]
    bucket_span_secs: Option<u32>,
    #[serde(default)]
    max_bucket_bytes: Option<u32>,
    #[serde(default)]
    expire_after_secs: Option<f64>,
    #[serde(default)]
    expire_after_months: i64,
}

/// The `meta` key of collection `name`.
pub fn collection_key(name: &str) -> String {
    format!("collection:{name}")
}

/// The `meta` key of time series `name`.
pub fn series_key(name: &str) -> String {
    format!("series:{name}")
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

    /// The encryption keys stored (`meta` keys `key:<id>`): `{ id, key, until }` records, `key` a
    /// non-extractable CryptoKey, `until` when writes stop using it (Unix ms, `Infinity`: never).
    pub async fn crypto_keys(&self) -> Result<Array> {
        let range = super::runner::req::range("key:".into(), false, "key:\u{FFFF}".into(), false);
        Ok(self.ask("reading the encryption keys", META, None, Ask::All(Some(range), None)).await?.unchecked_into())
    }

    /// Stores a new encryption key record under id `id`, unless another member stored one
    /// under that id first (both read the same keys and made a key at once): then that one,
    /// which the caller uses instead.
    pub async fn put_crypto_key(&self, id: u32, record: JsValue) -> Result<Option<JsValue>> {
        let run = self.begin("saving an encryption key", &[META], true, 1)?;
        let store = run.store(META)?;
        let key: JsValue = format!("key:{id}").into();
        let there = run.wait(&mut run.ask(&store, Ask::Get(key.clone()))?).await?;
        if !there.is_undefined() {
            run.wrote_nothing();
            return Ok(Some(there));
        }
        run.put_at(&store, record, key)?;
        run.done().await?;
        Ok(None)
    }

    /// Removes the encryption key records `ids`.
    pub async fn delete_crypto_keys(&self, ids: &[u32]) -> Result<()> {
        let run = self.begin("removing expired encryption keys", &[META], true, ids.len() as u32)?;
        let store = run.store(META)?;
        for id in ids {
            run.delete(&store, JsValue::from(format!("key:{id}")))?;
        }
        run.done().await
    }

    /// Up to `limit` records of `name` (entries or documents) after primary key `after`, those
    /// encrypted under one of the keys `ids` removed, in one transaction: the removed records'
    /// `[collection or undefined, key or id]`, and the last primary key read (`None`: the end).
    pub async fn sweep_sealed(&self, name: &'static str, ids: &[u32], after: Option<JsValue>, limit: u32) -> Result<(Vec<(JsValue, JsValue)>, Option<JsValue>)> {
        let run = self.begin("removing what an expired key encrypted", &[name], true, u32::MAX)?;
        let store = run.store(name)?;
        let range = after.map(|pk| indexed_db_futures::KeyRange::LowerBound(pk, true));
        let mut reqs = vec![run.ask(&store, Ask::All(range.clone(), Some(limit)))?, run.ask(&store, Ask::Keys(range, Some(limit)))?];
        let answers = run.results(&mut reqs).await?;
        let (recs, pks) = (Array::from(&answers[0]), Array::from(&answers[1]));
        let field = |v: &JsValue, f: &str| js_sys::Reflect::get(v, &f.into()).unwrap_or(JsValue::UNDEFINED);
        let mut removed = Vec::new();
        for (rec, pk) in recs.iter().zip(pks.iter()) {
            let x = field(&field(&rec, "v"), "x").as_f64();
            if x.is_some_and(|x| ids.contains(&(x as u32))) {
                run.delete(&store, pk)?;
                let id = if name == ENTRIES { field(&rec, "k") } else { field(&rec, "i") };
                removed.push((if name == ENTRIES { JsValue::UNDEFINED } else { field(&rec, "c") }, id));
            }
        }
        let last = (pks.length() == limit).then(|| pks.get(limit - 1));
        run.done().await?;
        Ok((removed, last))
    }

    /// `shred()`: every encryption key and everything it encrypted (entries, documents), gone in
    /// one transaction. Definitions and time series stay.
    pub async fn shred(&self) -> Result<()> {
        self.hints.clear();
        self.extending.clear();
        let run = self.begin("shredding", &[META, ENTRIES, DOCS], true, u32::MAX)?;
        let keys = super::runner::req::range("key:".into(), false, "key:\u{FFFF}".into(), false);
        run.delete(&run.store(META)?, keys)?;
        run.clear(&run.store(ENTRIES)?)?;
        run.clear(&run.store(DOCS)?)?;
        run.done().await
    }

    /// What the database holds beyond key-value entries, which only the default entry reads and
    /// reaps: `"collections"`, `"time series"`, `"archived records"`, `"encryption keys"` (in that
    /// order; empty: entries alone). One readonly transaction of counts.
    pub async fn beyond_entries(&self) -> Result<Vec<&'static str>> {
        let mut run = self.begin("reading what the database holds", &[META, DOCS, BUCKETS, ARCHIVE], false, 0)?;
        let mut reqs = Vec::with_capacity(6);
        {
            let meta = run.store(META)?;
            for prefix in ["collection:", "series:", "key:"] {
                let range = super::runner::req::range(prefix.into(), false, format!("{prefix}\u{FFFF}").into(), false);
                reqs.push(run.ask(&meta, Ask::Count(Some(range)))?);
            }
            for name in [DOCS, BUCKETS, ARCHIVE] {
                reqs.push(run.ask(&run.store(name)?, Ask::Count(None))?);
            }
        }
        run.commit_now();
        let n: Vec<bool> = run.results(&mut reqs).await?.iter().map(|c| c.as_f64().unwrap_or(0.0) > 0.0).collect();
        let found = [("collections", n[0] || n[3]), ("time series", n[1] || n[4]), ("archived records", n[5]), ("encryption keys", n[2])];
        Ok(found.into_iter().filter(|f| f.1).map(|f| f.0).collect())
    }

    /// A number kept in `meta` under `key` (when a scheduled collection was last reaped).
    pub async fn meta_number(&self, key: &str) -> Result<Option<f64>> {
        Ok(self.ask("reading when a collection was reaped", META, None, Ask::Get(key.into())).await?.as_f64())
    }

    /// Keeps `value` in `meta` under `key`.
    pub async fn put_meta_number(&self, key: &str, value: f64) -> Result<()> {
        let run = self.begin("saving when a collection was reaped", &[META], true, 1)?;
        run.put_at(&run.store(META)?, value.into(), key.into())?;
        run.done().await
    }

    /// Stores (or replaces) a definition.
    pub async fn put_definition(&self, def: &Definition) -> Result<()> {
        let run = self.begin("saving a collection definition", &[META], true, 1)?;
        run.put_at(&run.store(META)?, def.to_js(), def.key().into())?;
        run.done().await
    }
}
