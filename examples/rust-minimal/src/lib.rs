//! A minimal Rust web app: at start it logs a line; with feature `store` it opens an idb-ttl
//! store, writes and reads an entry and watches it, logging what it sees.

use wasm_bindgen::prelude::*;

#[cfg(feature = "store")]
async fn run() -> Result<String, idb_ttl::Error> {
    use std::time::Duration;
    use idb_ttl::{Expiry, Options, TtlStore};

    let store = TtlStore::open("minimal", Options::default()).await?;
    store.set("greeting", "hello", Expiry::ttl(Duration::from_secs(60))).await?;
    let got: Option<String> = store.get("greeting").await?;
    let mut watch = store.watch::<String>("greeting");
    let first = std::future::poll_fn(|cx| futures_core::Stream::poll_next(std::pin::Pin::new(&mut watch), cx)).await;
    Ok(format!("{got:?} {first:?}"))
}

#[cfg(not(feature = "store"))]
async fn run() -> Result<String, String> {
    Ok("hello".to_owned())
}

/// Runs the app.
#[wasm_bindgen(start)]
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        let line = match run().await {
            Ok(s) => s,
            Err(e) => e.to_string(),
        };
        web_sys::console::log_1(&line.into());
    });
}
