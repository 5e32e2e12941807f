//! The browser suite: `wasm-pack test --headless --chrome -- --test browser`.
//! Every test opens its own randomly named database and talks to the store the way a web page
//! does: through the `TtlStore` JavaScript object (methods looked up and called by name), so the
//! value conversion and the errors a user sees are what is tested.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "browser/util.rs"]
mod util;

#[path = "browser/api.rs"]
mod api;
#[path = "browser/backup.rs"]
mod backup;
#[path = "browser/bad_input.rs"]
mod bad_input;
#[path = "browser/collections.rs"]
mod collections;
#[path = "browser/crypt.rs"]
mod crypt;
#[path = "browser/expiry.rs"]
mod expiry;
#[path = "browser/handoff.rs"]
mod handoff;
#[path = "browser/hostile.rs"]
mod hostile;
#[path = "browser/idle.rs"]
mod idle;
#[path = "browser/http.rs"]
mod http;
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
#[path = "browser/series.rs"]
mod series;
#[path = "browser/watch.rs"]
mod watch;
