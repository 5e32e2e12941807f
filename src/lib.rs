//! idb-ttl: a time-to-live key-value store for the browser, persisting in IndexedDB.
#![deny(missing_docs, missing_debug_implementations)]

pub mod core;

pub use crate::core::error::{Error, Result};
