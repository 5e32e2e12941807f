//! # idb-ttl
//!
//! A time-to-live key-value store for the browser: entries carry an expiry, reads never return an
//! expired entry, and a background reaper removes expired entries from IndexedDB in batches.
//!
//! ```js
//! import init, { TtlStore } from "idb-ttl";   // init() only with --target web
//! await init();
//! const store = await TtlStore.open("app-cache", { reapIntervalMs: 60_000 });
//! await store.set("session", { user: 7 }, { ttl: 3600 });                      // seconds from now
//! await store.set("banner", "hello", { expiresAt: "2026-12-24T18:00:00+01:00" }); // ISO-8601
//! await store.get("session");   // the value, or undefined once expired
//! ```
//!
//! The tree, room by room:
//! - [`core`]: pure Rust, no browser and no clock (`now` is an argument): expiry parsing and
//!   arithmetic, store options, reaper planning, what read-modify-write verbs decide. Tested on
//!   the host with `cargo test`.
//! - `idb`: the IndexedDB adapter, the only module touching IndexedDB, through
//!   indexed_db_futures, its records converted by serde-wasm-bindgen (layout notes there).
//! - `timer`: the only module with a clock and timers (`now_ms`; `sleep`, `within`, the reaper's
//!   `ReaperTimer`, the watchdog's `deadline`, the watch `Timer`, on gloo-timers), and Web Locks
//!   (the reaper's leader among the members of a database; `exclusive`, the turns encrypted
//!   read-modify-writes of one key take).
//! - `channel`: the only module touching BroadcastChannel (events across tabs and workers).
//! - `long`: long work's `{ signal, onProgress }`: what a call got through, and stopping it.
//! - `store`: the store in Rust terms: connection, key-value verbs, reaper passes, events.
//! - `js`: the wasm-bindgen surface, converting JS values (and errors, through
//!   `core::error::Error::into_js`), nothing else. Layers call downwards only: js, store, idb, core.
//!
//! Cargo feature `full` (on by default): collections, time series, tiers and hand-off (the
//! archive, `archiveFor`, `onExpire`), encryption (`{ encryption }`, `shred`) and
//! `ttlFromHeaders`. Without it (`--no-default-features`, the package's `idb-ttl/lite` entry) the
//! crate is the key-value store alone, on the same database format; a lite store refuses a
//! database holding any of those (`StoreUnsupportedError`) rather than half read or reap it.
#![deny(missing_docs, missing_debug_implementations)]
// This documentation is the contributors' (users read the README, the typings and docs/): it is
// built with private items (`cargo doc --document-private-items`), where links to them resolve.
#![allow(rustdoc::private_intra_doc_links)]

pub mod core;

/// Talc instead of Rust's default dlmalloc: a smaller wasm (one thread, no atomics).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(target_arch = "wasm32")]
pub mod channel;
#[cfg(target_arch = "wasm32")]
pub mod idb;
#[cfg(target_arch = "wasm32")]
pub mod js;
#[cfg(target_arch = "wasm32")]
pub mod long;
#[cfg(target_arch = "wasm32")]
pub mod store;
#[cfg(target_arch = "wasm32")]
pub mod timer;

pub use crate::core::error::{Error, Result};
#[cfg(target_arch = "wasm32")]
pub use crate::js::TtlStore;
#[cfg(target_arch = "wasm32")]
pub use crate::store::Store;
