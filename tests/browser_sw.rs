//! The browser suite's store tests inside a service worker (`ServiceWorkerGlobalScope`): a thin
//! entry beside `tests/browser.rs`, sharing its test files. Entries, expiry, reaper passes, Web
//! Locks leadership and BroadcastChannel events between members, and `ttlFromHeaders`, where a
//! service worker's HTTP cache runs them (examples/service-worker/).
//! `wasm-pack test --headless --chrome -- --test browser_sw`.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_service_worker);

#[path = "browser/util.rs"]
mod util;

#[path = "browser/api.rs"]
mod api;
#[path = "browser/expiry.rs"]
mod expiry;
#[cfg(feature = "full")]
#[path = "browser/http.rs"]
mod http;
#[path = "browser/members.rs"]
mod members;
#[path = "browser/reaper.rs"]
mod reaper;
