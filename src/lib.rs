//! # idb-ttl
//!
//! A time-to-live key-value store for the browser, over IndexedDB: entries carry an expiry,
//! reads never return an expired entry, a background reaper removes expired entries in
//! batches, and every tab and worker on the origin sees the others' writes. For Rust web apps
//! (Leptos, Dioxus, Yew, Sycamore, plain wasm-bindgen) compiled to `wasm32-unknown-unknown`;
//! the same crate is the npm package `idb-ttl`, and both read and write one database format.
//!
//! ```toml
//! [dependencies]
//! idb-ttl = { version = "0.1", default-features = false, features = ["full"] }
//! serde = { version = "1", features = ["derive"] }
//! ```
//!
//! `default-features = false` leaves out the JavaScript bindings (feature `js`, what the npm
//! package exports). Feature `full` adds collections of serde documents with a TTL index
//! (`TtlStore::collection`), time series of serde events (`TtlStore::time_series`), and what
//! the store's `archive_for` and `encryption` options need; without it the store is the
//! key-value store alone (the npm package's `idb-ttl/lite`). Feature `leptos` adds a Leptos
//! hook, `leptos::use_entry`.
//!
//! ## Quick start
//!
//! ```no_run
//! # #[cfg(target_arch = "wasm32")]
//! # async fn quick_start() -> Result<(), idb_ttl::Error> {
//! use std::time::Duration;
//! use idb_ttl::{Expiry, Options, TtlStore};
//!
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct Session { user: u32 }
//!
//! let store = TtlStore::open("app-cache", Options::default().auto_reap(true)).await?;
//! store.set("session", &Session { user: 7 }, Expiry::ttl(Duration::from_secs(3600))).await?;
//! store.set("banner", "hello", Expiry::parse("2036-12-24T18:00:00+01:00")?).await?;
//! store.set("token", "abc", Expiry::at_unix(2_114_380_800.0)).await?;
//!
//! let session: Option<Session> = store.get("session").await?; // None once expired
//! let hits: f64 = store.incr("hits", 1.0, Expiry::ttl(Duration::from_secs(60))).await?;
//!
//! // The current value, then every change from any tab, and None at the moment of expiry.
//! let changes = store.watch::<String>("banner");
//! # Ok(()) }
//! ```
//!
//! - [`TtlStore`]: the verbs (`set`, `get`, `has`, `delete`, `ttl`, `expires_at`, `expire`,
//!   `persist`, `keys`, `count`, `get_many`, `set_many`, `clear`, `add`, `replace`, `take`,
//!   `incr`, `update`, `reap`, `close`), `watch` and `events` as `Stream`s.
//! - [`Expiry`]: a ttl, a Unix time, never, or a string (ISO-8601 dates and date-times with
//!   offsets, ISO-8601 and plain durations); a number without a unit (`"3600"`) is refused.
//! - [`Options`]: the store's options (`auto_reap`, `reap_interval`, `timeout`, `default_ttl`,
//!   `max_entries`...).
//! - [`Error`]: one variant per error of the JavaScript API, each message naming the value at
//!   fault.
//! - With `full`: `Collection<D>` (`put`, `get`, `update`, `values`... under a `TtlIndex` on a
//!   field or after the last write, with tiers) and `TimeSeries<E>` (`insert`, `query` by
//!   series and time, whole buckets reaped), with the JavaScript API's checks and messages.
//!
//! The guide, with what differs from the JavaScript API: docs/rust.md in the repository.
#![deny(missing_docs, missing_debug_implementations)]
// The crate page and the Rust API are the users' documentation (`cargo doc`); the internals are
// the contributors', built with private items (`cargo doc --document-private-items --cfg
// idb_ttl_internals`, scripts/docs.sh), where links to them resolve. Without that cfg the
// internal modules are hidden from the page.
#![allow(rustdoc::private_intra_doc_links)]

/// The tree, room by room (contributors' notes):
/// - [`core`]: pure Rust, no browser and no clock (`now` is an argument): expiry parsing and
///   arithmetic, store options, reaper planning, what read-modify-write verbs decide. Tested on
///   the host with `cargo test`.
/// - `idb`: the IndexedDB adapter, the only module touching IndexedDB, through
///   indexed_db_futures, its records converted by serde-wasm-bindgen (layout notes there).
/// - `timer`: the only module with a clock and timers (`now_ms`; `sleep`, `within`, the reaper's
///   `ReaperTimer`, the watchdog's `deadline`, the watch `Timer`, on gloo-timers), and Web Locks
///   (the reaper's leader among the members of a database; `exclusive`, the turns encrypted
///   read-modify-writes of one key take).
/// - `channel`: the only module touching BroadcastChannel (events across tabs and workers).
/// - `long`: long work's `{ signal, onProgress }`: what a call got through, and stopping it.
/// - `store`: the store in Rust terms: connection, key-value verbs, reaper passes, events.
/// - `api`: the Rust API (`TtlStore`, `Expiry`, `Options`, the streams; with `full`,
///   `Collection` and `TimeSeries`): serde values in, the store's verbs, typed answers out. A
///   thin edge over `store`, beside `js`.
/// - `convert`: JS values in, checked Rust values out, through `src/js/edge.js`'s `catch`
///   bindings: the JavaScript class's arguments, and the documents and events the Rust API
///   serializes (so both APIs refuse the same input with the same message).
/// - `js` (feature `js`): the wasm-bindgen surface, converting JS values (and errors, through
///   `core::error::Error::into_js`), nothing else. Layers call downwards only: js and api,
///   store, idb, core.
///
/// Cargo feature `full` (on by default): collections, time series, tiers and hand-off (the
/// archive, `archiveFor`, `onExpire`), encryption (`{ encryption }`, `shred`) and
/// `ttlFromHeaders`. Without it (`--no-default-features --features js`, the package's
/// `idb-ttl/lite` entry) the crate is the key-value store alone, on the same database format; a
/// lite store refuses a database holding any of those (`StoreUnsupportedError`) rather than half
/// read or reap it. Feature `js` (on by default, and in both npm builds): the JavaScript class
/// surface; a Rust app leaves it out.
mod tree {}

#[cfg_attr(not(idb_ttl_internals), doc(hidden))]
pub mod core;

/// Talc instead of Rust's default dlmalloc: a smaller wasm (one thread, no atomics).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

// The npm build leaves the Rust API out (`--cfg idb_ttl_npm`, scripts/build.sh): nothing of it is
// reachable from the JavaScript exports, yet its mere presence as more callers of the store's
// functions changes rustc's pre-LTO inlining in the crate, and the package grew 208 B gzip.
#[cfg(all(target_arch = "wasm32", not(idb_ttl_npm)))]
mod api;
#[cfg(all(target_arch = "wasm32", not(idb_ttl_npm), feature = "leptos"))]
pub mod leptos;
#[cfg(target_arch = "wasm32")]
#[cfg_attr(not(idb_ttl_internals), doc(hidden))]
pub mod channel;
#[cfg(target_arch = "wasm32")]
#[cfg_attr(not(idb_ttl_internals), doc(hidden))]
pub mod idb;
// JS values in, checked Rust values out, through `src/js/edge.js`: the JavaScript class's
// arguments, and the documents and events the Rust API's collections and time series serialize
// (feature `full`, its only Rust API users). The npm build, which has no Rust API, keeps it as
// `js::convert`, declared on one line of src/js/mod.rs, with its file in src/js/: the wasm's
// panic locations name the file and the lines of js/mod.rs, and symbol order follows the path.
#[cfg(all(target_arch = "wasm32", not(idb_ttl_npm), feature = "full"))]
#[path = "js/convert.rs"]
#[cfg_attr(not(idb_ttl_internals), doc(hidden))]
#[cfg_attr(not(feature = "js"), allow(dead_code))]
pub mod convert;
// The JavaScript bindings (feature `js`): the `TtlStore` class the npm package exports. The npm
// build (`--cfg idb_ttl_npm`) has them too, built with the feature sets it always had (`full`, and
// none for the lite entry; scripts/build.sh says why).
#[cfg(all(target_arch = "wasm32", any(feature = "js", idb_ttl_npm)))]
#[cfg_attr(not(idb_ttl_internals), doc(hidden))]
pub mod js;
#[cfg(target_arch = "wasm32")]
#[cfg_attr(not(idb_ttl_internals), doc(hidden))]
pub mod long;
#[cfg(target_arch = "wasm32")]
#[cfg_attr(not(idb_ttl_internals), doc(hidden))]
pub mod store;
#[cfg(target_arch = "wasm32")]
#[cfg_attr(not(idb_ttl_internals), doc(hidden))]
pub mod timer;

#[cfg(all(target_arch = "wasm32", not(idb_ttl_npm)))]
pub use crate::api::{Event, Expiry, Key, Options, TtlStore};
#[cfg(all(target_arch = "wasm32", not(idb_ttl_npm), feature = "full"))]
pub use crate::api::{Collection, CollectionOptions, Granularity, Period, Query, SeriesOptions, Tier, Time, TimeSeries, TtlIndex};
pub use crate::core::error::{Error, Result};
#[cfg(target_arch = "wasm32")]
#[cfg_attr(not(idb_ttl_internals), doc(hidden))]
pub use crate::store::Store;
