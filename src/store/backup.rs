//! Backup and restore. An export reads every stored entry, document and bucket with the
//! definitions, page by page ([`Store::export_page`], a transaction each, so a million entries
//! never sit in one array); shaping pages into JSON snapshots is the JS edge's job
//! (`js/snapshot.js`). `import()` writes everything in one transaction, all or nothing, after
//! every value and every expiry was checked (`core::snapshot`).

use js_sys::Array;
use wasm_bindgen::JsValue;

use super::Store;
use crate::core::buckets::SeriesOptions;
use crate::core::entry::{Expiry, ExpirySpec, Idle, NEVER_MS};
use crate::core::error::Result;
#[cfg(feature = "full")]
use crate::core::error::Error;
use crate::core::snapshot::expired;
#[cfg(feature = "full")]
use crate::core::text::quote;
use crate::core::ttl_index::TtlIndex;
use crate::idb::{Definition, EventsIn, ImportWrites, Write};
#[cfg(feature = "full")]
use crate::idb::{collection_key, series_key, DocWrite};
use crate::store::DocIn;
use crate::timer::now_ms;

/// How many records a page of an export holds at most.
pub const PAGE: u32 = 1000;

/// Where an export has got to.
#[derive(Debug)]
pub struct ExportCursor {
    defs: Vec<Definition>,
    /// 0: the entries; `i + 1`: `defs[i]`'s records; past the end: done.
    part: usize,
    /// The key, id or primary key read last in this part (none: from its first).
    after: Option<JsValue>,
}

/// Raw records for a snapshot (a page of an export).
#[derive(Debug)]
pub struct SnapshotData {
    /// Entry records `{ k, e, v }`.
    pub entries: Array,
    /// `[definition, document records]` per collection.
    pub collections: Array,
    /// `[definition, bucket records]` per time series.
    pub series: Array,
}

/// A collection of a snapshot: `(name, keyPath, TTL index, [(document, expiry)])`.
pub type ImportCollection = (String, String, Option<TtlIndex>, Vec<(DocIn, Option<f64>)>);

/// A snapshot checked by the edge: keys, names, options and times validated, expiries parsed
/// (Unix ms, `None` = never).
#[derive(Debug, Default)]
pub struct ImportInput {
    /// `(key, value, expiry, an idle entry's window and cap)`.
    pub entries: Vec<(JsValue, JsValue, Option<f64>, Option<Idle>)>,
    /// `(name, keyPath, TTL index, [(document, expiry)])`.
    pub collections: Vec<ImportCollection>,
    /// `(name, options, events)`.
    pub series: Vec<(String, SeriesOptions, EventsIn)>,
}

/// What an import restored, and what it left out because it had expired since the export.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ImportReport {
    /// Entries written.
    pub entries: u32,
    /// Documents written.
    pub documents: u32,
    /// Events written.
    pub events: u32,
    /// Items left out: expired since the export.
    pub skipped: u32,
}

fn field(v: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(v, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

/// Copies of `records` with `v` replaced by `values` (in order), those left `undefined` out.
fn opened(records: &Array, values: Vec<JsValue>) -> Array {
    records
        .iter()
        .zip(values)
        .filter(|(_, v)| !v.is_undefined())
        .map(|(r, v)| {
            let copy = js_sys::Object::assign(&js_sys::Object::new(), wasm_bindgen::JsCast::unchecked_ref(&r));
            let _ = js_sys::Reflect::set(&copy, &"v".into(), &v);
            JsValue::from(copy)
        })
        .collect()
}

impl Store {
    /// Starts an export: the definitions as they are now, and for a call told its progress how
    /// many records there are to read.
    pub async fn export_cursor(&self) -> Result<ExportCursor> {
        let conn = self.live().await?;
        if crate::long::tracked() {
            crate::long::total(conn.record_count().await?);
        }
        #[cfg(feature = "full")]
        let defs = conn.definitions().await?;
        // The lite entry's databases hold entries alone (`Store::open` refuses others).
        #[cfg(not(feature = "full"))]
        let defs = Vec::new();
        Ok(ExportCursor { defs, part: 0, after: None })
    }

    /// The next page of an export, up to [`PAGE`] records of one part (the entries, one
    /// collection, one time series), each page read in a transaction of its own; `None` once
    /// everything was read.
    pub async fn export_page(&self, cur: &mut ExportCursor) -> Result<Option<SnapshotData>> {
        crate::long::check()?;
        let conn = self.live().await?;
        let mut data = SnapshotData { entries: Array::new(), collections: Array::new(), series: Array::new() };
        let after = cur.after.take();
        let last = |recs: &Array| recs.get(PAGE - 1);
        let (read, next) = match cur.part.checked_sub(1).map(|i| cur.defs.get(i)) {
            None => {
                let recs = conn.entry_page(after, PAGE).await?;
                let next = (recs.length() == PAGE).then(|| field(&last(&recs), "k"));
                let n = recs.length();
                // An encrypted store exports what it holds decrypted (a snapshot is plain data,
                // the app's to keep safe); a record whose key is gone is left out.
                if self.encrypted() {
                    let keys: Vec<JsValue> = recs.iter().map(|r| field(&r, "k")).collect();
                    let values = self.open_values(&conn, &keys, recs.iter().map(|r| field(&r, "v")).collect()).await?;
                    data.entries = opened(&recs, values);
                } else {
                    data.entries = recs;
                }
                (n, next)
            }
            Some(None) => return Ok(None),
            #[cfg(not(feature = "full"))]
            Some(Some(_)) => return Ok(None),
            #[cfg(feature = "full")]
            Some(Some(def @ Definition::Collection { name, ttl, .. })) => {
                let recs = conn.doc_page(name, after, PAGE).await?;
                // Each document's expiry (Unix ms, +Infinity for never), worked out here where
                // the index's calendar window is known.
                let expiries: Vec<f64> = recs.iter().map(|r| ttl.as_ref().map_or(f64::INFINITY, |t| t.expires_at_ms(field(&r, "r").as_f64().unwrap_or(f64::INFINITY)))).collect();
                let next = (recs.length() == PAGE).then(|| field(&last(&recs), "i"));
                let n = recs.length();
                let docs: JsValue = if self.encrypted() {
                    let ids: Vec<JsValue> = recs.iter().map(|r| field(&r, "i")).collect();
                    let docs = self.open_docs(&conn, name, &ids, recs.iter().map(|r| field(&r, "v")).collect()).await?;
                    opened(&recs, docs).into()
                } else {
                    recs.into()
                };
                data.collections.push(&Array::of3(&def.to_js(), &docs, &js_sys::Float64Array::from(&expiries[..])));
                (n, next)
            }
            #[cfg(feature = "full")]
            Some(Some(def @ Definition::Series { options, .. })) => {
                let recs = conn.bucket_page(def.name(), after, PAGE).await?;
                // [cut-off, then each bucket's expiry] (Unix ms; -Infinity and +Infinity without
                // expireAfter), worked out here where the calendar window is known.
                let mut times = vec![options.expired_through_ms(now_ms()).unwrap_or(f64::NEG_INFINITY)];
                times.extend(recs.iter().map(|b| options.expire_after.map_or(f64::INFINITY, |w| w.after(field(&b, "l").as_f64().unwrap_or(0.0)))));
                // A bucket's primary key, from its record: [s, l, k, t, q].
                let next = (recs.length() == PAGE).then(|| ["s", "l", "k", "t", "q"].iter().map(|f| field(&last(&recs), f)).collect::<Array>().into());
                let n = recs.length();
                data.series.push(&Array::of3(&def.to_js(), &recs, &js_sys::Float64Array::from(&times[..])));
                (n, next)
            }
        };
        crate::long::advance(read);
        match next {
            Some(key) => cur.after = Some(key),
            None => cur.part += 1,
        }
        Ok(Some(data))
    }

    /// Restores a checked snapshot in one transaction, leaving out what has expired since the
    /// export. A collection or time series that exists already must have the snapshot's
    /// definition (a time series may change `expireAfter`, as `timeSeries()` allows).
    pub async fn import(&self, input: ImportInput) -> Result<ImportReport> {
        let now = now_ms();
        let conn = self.live().await?;
        let mut report = ImportReport::default();
        let mut w = ImportWrites::default();
        for (key, value, expiry, idle) in input.entries {
            if expired(expiry, now) {
                report.skipped += 1;
                continue;
            }
            let e = expiry.unwrap_or(NEVER_MS);
            w.entries.push(Write { key, value, spec: ExpirySpec::Stored(Expiry { e, idle }) });
        }
        report.entries = w.entries.len() as u32;

        #[cfg(feature = "full")]
        for (name, key_path, ttl, docs) in input.collections {
            let keyed_by = ttl.as_ref().map(|t| (t.field.clone(), t.unit));
            let def = Definition::Collection { name: name.clone(), key_path, ttl: ttl.clone(), keyed_by };
            match conn.definition(&collection_key(&name)).await? {
                Some(have) if have != def => {
                    return Err(Error::InvalidType(format!(
                        "import: collection {} exists here with another keyPath or TTL index than in the snapshot; import into a store without it, or clear and drop it first",
                        quote(&name)
                    )))
                }
                _ => {}
            }
            let mut writes = Vec::new();
            for (doc, expiry) in docs {
                if expired(expiry, now) {
                    report.skipped += 1;
                    continue;
                }
                let reference_ms = match (&ttl, expiry) {
                    // An automatic index's stamp, given back by the expiry exported (a backup
                    // keeps each document's expiry, as CockroachDB's does).
                    (Some(t), Some(e)) if t.automatic => t.expire_after.before(e),
                    (Some(t), _) => super::collection::doc_reference_ms(t, &name, &doc.id, &doc.field)?,
                    (None, _) => f64::INFINITY,
                };
                writes.push(DocWrite { id: doc.id, reference_ms, doc: doc.doc });
            }
            report.documents += writes.len() as u32;
            w.collections.push((def, writes));
        }

        #[cfg(feature = "full")]
        for (name, options, events) in input.series {
            if let Some(Definition::Series { options: have, .. }) = conn.definition(&series_key(&name)).await? {
                let shape = SeriesOptions { expire_after: have.expire_after, ..options.clone() };
                if shape != have {
                    return Err(Error::InvalidType(format!(
                        "import: time series {} exists here with another timeField, metaField or granularity than in the snapshot",
                        quote(&name)
                    )));
                }
            }
            let cutoff = options.expired_through_ms(now).unwrap_or(f64::NEG_INFINITY);
            let live: Vec<usize> = (0..events.times_ms.len()).filter(|&i| events.times_ms[i] > cutoff).collect();
            report.skipped += (events.times_ms.len() - live.len()) as u32;
            report.events += live.len() as u32;
            let kept = EventsIn {
                events: live.iter().map(|&i| events.events.get(i as u32)).collect(),
                times_ms: live.iter().map(|&i| events.times_ms[i]).collect(),
                meta_keys: live.iter().map(|&i| events.meta_keys[i].clone()).collect(),
                metas: live.iter().map(|&i| events.metas.get(i as u32)).collect(),
                sizes: live.iter().map(|&i| events.sizes[i]).collect(),
            };
            w.series.push((Definition::Series { name, options: options.clone() }, kept, options));
        }

        crate::long::total(report.entries + report.documents + report.events);
        // An encrypted store encrypts what it imports, as it does what it writes.
        self.seal_writes(&conn, &mut w.entries).await?;
        #[cfg(feature = "full")]
        for (def, writes) in &mut w.collections {
            self.seal_docs(&conn, def.name(), writes).await?;
        }
        let evicted = conn.import(&w, self.cap(), now).await?;
        self.evicted(evicted, "maxEntries");
        // Handles of this store see the restored definitions.
        #[cfg(feature = "full")]
        for (def, _) in &w.collections {
            if let (Definition::Collection { ttl, keyed_by, .. }, Some(state)) = (def, self.0.collections.borrow().get(def.name())) {
                state.replace(super::collection::State::new(ttl.clone(), keyed_by.clone()));
            }
        }
        #[cfg(feature = "full")]
        for (def, _, _) in &w.series {
            if let (Definition::Series { options, .. }, Some(shared)) = (def, self.0.series.borrow().get(def.name())) {
                shared.replace(options.clone());
            }
        }
        let keys: Array = w.entries.iter().map(|e| e.key.clone()).collect();
        self.emit_change("import", keys);
        Ok(report)
    }
}
