//! Time series (`store.timeSeries(name, options)`).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Array;

use super::Store;
use crate::core::buckets::SeriesOptions;
use crate::core::error::{Error, Result};
use crate::core::text::quote;
use crate::idb::{series_key, Definition, EventsIn};
use crate::timer::now_ms;

/// A time series of events grouped into buckets. Cloning shares it.
#[derive(Debug, Clone)]
pub struct Series {
    store: Store,
    name: String,
    /// Shared by every handle of one store: `expireAfter` may change through any of them.
    options: Rc<RefCell<SeriesOptions>>,
}

impl Store {
    /// Opens time series `name`, creating it with `options` if new. Given for an existing
    /// series, `options` must match, except `expireAfter`, which is updated (MongoDB `collMod`).
    pub async fn time_series(&self, name: &str, options: Option<SeriesOptions>) -> Result<Series> {
        if name.is_empty() {
            return Err(Error::InvalidType("time series name \"\" is not accepted; expected a non-empty string".into()));
        }
        let conn = self.live().await?;
        let stored = match conn.definition(&series_key(name)).await? {
            Some(Definition::Series { options, .. }) => Some(options),
            _ => None,
        };
        let options = match (stored, options) {
            (Some(have), None) => have,
            (Some(have), Some(mut asked)) => {
                // A granularity coarsened by setGranularity stays: the app's own options, still
                // naming the finer one, open the series as it is now.
                if asked.granularity != have.granularity && asked.granularity.may_become(have.granularity) {
                    asked.granularity = have.granularity;
                }
                let same_shape = SeriesOptions { expire_after: have.expire_after, ..asked.clone() } == have;
                if !same_shape {
                    return Err(Error::InvalidType(format!(
                        "time series {} exists with timeField {}, metaField {}, {} s buckets ({}), maxBucketBytes {}; only expireAfter can change here (the granularity through setGranularity, to a coarser one)",
                        quote(name),
                        quote(&have.time_field),
                        have.meta_field.as_deref().map_or("none".into(), quote),
                        crate::core::text::js_number(have.granularity.span_ms() / 1000.0),
                        quote(have.granularity.name()),
                        have.max_bucket_bytes
                    )));
                }
                if asked != have {
                    let def = Definition::Series { name: name.to_owned(), options: asked.clone() };
                    conn.put_definition(&def).await?;
                    self.definition_saved(&def);
                }
                asked
            }
            (None, Some(asked)) => {
                conn.put_definition(&Definition::Series { name: name.to_owned(), options: asked.clone() }).await?;
                asked
            }
            (None, None) => {
                return Err(Error::InvalidType(format!(
                    "time series {} does not exist yet; create it with store.timeSeries({}, {{ timeField, metaField, granularity, expireAfter }})",
                    quote(name),
                    quote(name)
                )))
            }
        };
        let shared = self.0.series.borrow_mut().entry(name.to_owned()).or_insert_with(|| Rc::new(RefCell::new(options.clone()))).clone();
        shared.replace(options);
        Ok(Series { store: self.clone(), name: name.to_owned(), options: shared })
    }
}

impl Series {
    /// The store it belongs to.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The series name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its options.
    pub fn options(&self) -> SeriesOptions {
        self.options.borrow().clone()
    }

    fn cutoff(&self) -> f64 {
        self.options.borrow().expired_through_ms(now_ms()).unwrap_or(f64::NEG_INFINITY)
    }

    /// Appends events to their buckets, in one transaction; returns the bucket records written.
    pub async fn insert_many(&self, events: &EventsIn) -> Result<u32> {
        let options = self.options();
        let written = self.store.live().await?.insert_events(&self.name, events, &options).await?;
        self.store.emit_change_in("timeSeries", &self.name, "insert", Array::new());
        Ok(written)
    }

    /// Live events with time in `[from_ms, to_ms]` (inclusive), of one meta value if given, oldest first.
    pub async fn query(&self, meta_key: Option<&str>, from_ms: f64, to_ms: f64) -> Result<Array> {
        let conn = self.store.live().await?;
        let span_ms = self.options.borrow().granularity.span_ms();
        conn.query_events(&self.name, meta_key, from_ms, to_ms, self.cutoff(), span_ms).await
    }

    /// Removes the events with time in `[from_ms, to_ms]` (inclusive), of one meta value if
    /// given; how many live ones were removed. A bucket left empty goes.
    pub async fn delete_many(&self, meta_key: Option<&str>, from_ms: f64, to_ms: f64) -> Result<u32> {
        let span_ms = self.options.borrow().granularity.span_ms();
        let removed = self.store.live().await?.delete_events(&self.name, meta_key, from_ms, to_ms, self.cutoff(), span_ms).await?;
        self.store.emit_change_in("timeSeries", &self.name, "deleteMany", Array::new());
        Ok(removed)
    }

    /// Changes the bucket span of new events to `next`, the same or coarser (MongoDB
    /// `collMod` granularity); buckets already written keep theirs.
    pub async fn set_granularity(&self, next: crate::core::buckets::Granularity) -> Result<()> {
        let conn = self.store.live().await?;
        let mut options = match conn.definition(&series_key(&self.name)).await? {
            Some(Definition::Series { options, .. }) => options,
            _ => self.options(),
        };
        if !options.granularity.may_become(next) {
            return Err(Error::InvalidType(format!(
                "time series {}: granularity {} is finer than its {} ({} s buckets); a granularity changes from finer to coarser only, as in MongoDB",
                quote(&self.name),
                quote(next.name()),
                quote(options.granularity.name()),
                crate::core::text::js_number(options.granularity.span_ms() / 1000.0)
            )));
        }
        options.granularity = next;
        let def = Definition::Series { name: self.name.clone(), options: options.clone() };
        conn.put_definition(&def).await?;
        self.store.definition_saved(&def);
        self.options.replace(options);
        self.store.emit_change_in("timeSeries", &self.name, "setGranularity", Array::new());
        Ok(())
    }

    /// Number of live events.
    pub async fn count(&self) -> Result<u32> {
        self.store.live().await?.count_series_events(&self.name, self.cutoff()).await
    }

    /// Number of bucket records stored, expired or not yet reaped.
    pub async fn bucket_count(&self) -> Result<u32> {
        self.store.live().await?.count_buckets(&self.name).await
    }

    /// Removes every event.
    pub async fn clear(&self) -> Result<()> {
        self.store.live().await?.clear_series(&self.name).await?;
        self.store.emit_change_in("timeSeries", &self.name, "clear", Array::new());
        Ok(())
    }
}
