//! The browser suite: `wasm-pack test --headless --chrome -- --test browser`.
//! Every test opens its own randomly named database and talks to the store the way a web page
//! does: through the `TtlStore` JavaScript object (methods looked up and called by name), so the
//! value conversion and the errors a user sees are what is tested. With `--no-default-features`
//! (the lite build: `... -- --test browser --no-default-features`) the key-value tests run, and
//! `lite.rs`; the default entry's own modules are `#[cfg(feature = "full")]`.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "browser/util.rs"]
mod util;

#[path = "browser/api.rs"]
mod api;
#[path = "browser/atomic.rs"]
mod atomic;
#[path = "browser/backup.rs"]
mod backup;
#[path = "browser/bad_input.rs"]
mod bad_input;
#[cfg(feature = "full")]
#[path = "browser/collections.rs"]
mod collections;
#[cfg(feature = "full")]
#[path = "browser/crypt.rs"]
mod crypt;
#[cfg(feature = "full")]
#[path = "browser/reaping.rs"]
mod reaping;
#[path = "browser/expiry.rs"]
mod expiry;
#[cfg(feature = "full")]
#[path = "browser/handoff.rs"]
mod handoff;
#[path = "browser/hostile.rs"]
mod hostile;
#[path = "browser/idle.rs"]
mod idle;
#[cfg(feature = "full")]
#[path = "browser/http.rs"]
mod http;
#[cfg(not(feature = "full"))]
#[path = "browser/lite.rs"]
mod lite;
#[path = "browser/long.rs"]
mod long;
#[path = "browser/members.rs"]
mod members;
#[path = "browser/observe.rs"]
mod observe;
#[path = "browser/reaper.rs"]
mod reaper;
#[path = "browser/resilience.rs"]
mod resilience;
#[path = "browser/rust_api.rs"]
mod rust_api;
#[cfg(feature = "full")]
#[path = "browser/series.rs"]
mod series;
#[path = "browser/watch.rs"]
mod watch;
