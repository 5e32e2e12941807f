//! Size floor (scripts/size-floor.sh): the dependencies idb-ttl must use (wasm-bindgen, js-sys,
//! web-sys, serde, serde-wasm-bindgen, gloo-timers, indexed_db_futures; talc as its allocator),
//! each used once. With the `jiff` feature, plus jiff used as src/core/expiry.rs uses it.
#[cfg(feature = "jiff")]
mod expiry;
use gloo_timers::future::TimeoutFuture;
use indexed_db_futures::database::Database;
use indexed_db_futures::prelude::*;
use indexed_db_futures::transaction::TransactionMode;
use indexed_db_futures::KeyPath;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Options {
    ttl_seconds: Option<f64>,
    expires_at: Option<f64>,
    name: Option<String>,
    #[cfg(feature = "jiff")]
    at: Option<String>,
    #[cfg(feature = "jiff")]
    ttl: Option<String>,
}

#[derive(Serialize)]
struct Record {
    k: String,
    e: f64,
    v: f64,
}

fn err(e: impl core::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

#[wasm_bindgen]
pub async fn run(opts: JsValue) -> Result<JsValue, JsValue> {
    let opts: Options = serde_wasm_bindgen::from_value(opts)?;
    let key = opts.name.unwrap_or_else(|| "k".into());
    #[allow(unused_mut)]
    let mut e = opts.expires_at.unwrap_or(0.0) + opts.ttl_seconds.unwrap_or(0.0) * 1000.0;
    #[cfg(feature = "jiff")]
    {
        if let Some(at) = &opts.at {
            e = expiry::parse_at(at).map_err(|m| JsValue::from_str(&m))?;
        }
        if let Some(ttl) = &opts.ttl {
            let (months, ms) = expiry::parse_ttl(ttl).map_err(|m| JsValue::from_str(&m))?;
            e = expiry::expires_at_ms(js_sys::Date::now(), months, ms).map_err(|m| JsValue::from_str(&m))?;
        }
    }

    let db = Database::open("floor")
        .with_version(1u8)
        .with_on_upgrade_needed(|_event, db| {
            let store = db.create_object_store("entries").with_key_path(KeyPath::One("k")).build()?;
            store.create_index("by_e", KeyPath::One("e")).build()?;
            Ok(())
        })
        .await
        .map_err(err)?;

    let tx = db.transaction("entries").with_mode(TransactionMode::Readwrite).build().map_err(err)?;
    let store = tx.object_store("entries").map_err(err)?;
    let rec = serde_wasm_bindgen::to_value(&Record { k: key, e, v: 1.0 })?;
    store.put(rec).build().map_err(err)?.await.map_err(err)?;
    tx.commit().await.map_err(err)?;

    let tx = db.transaction("entries").build().map_err(err)?;
    let store = tx.object_store("entries").map_err(err)?;
    let index = store.index("by_e").map_err(err)?;
    let mut found = 0.0;
    if let Some(mut cursor) = index.open_cursor().await.map_err(err)? {
        while let Some(v) = cursor.next_record::<JsValue>().await.map_err(err)? {
            found += js_sys::Reflect::get(&v, &"v".into())?.as_f64().unwrap_or(0.0);
        }
    }
    drop(tx);

    TimeoutFuture::new(1).await;
    Ok(serde_wasm_bindgen::to_value(&Record { k: db.name(), e, v: found })?)
}

#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
