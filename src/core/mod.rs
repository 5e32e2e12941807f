//! The pure core: no browser, no clock. Every function that needs the time takes `now_ms`
//! (Unix milliseconds) as an argument, so it is tested on the host with literal instants.

pub mod buckets;
pub mod config;
pub mod entry;
pub mod error;
pub mod expiry;
#[cfg(feature = "full")]
pub mod http;
pub mod iso;
pub mod modify;
pub mod options;
pub mod read;
pub mod schedule;
pub mod reaper;
pub mod snapshot;
pub mod text;
pub mod ttl_index;
pub mod value;
pub mod window;
