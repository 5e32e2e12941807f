//! Encryption at rest (`TtlStore.open(name, { encryption })`): entry values and documents are
//! written AES-GCM-encrypted (`src/js/crypt.js`: the value as bytes, Web Crypto) under a
//! non-extractable key the store keeps in its own database (`meta`), keys and ids in plaintext
//! (they order and index the records). Every call reads the keys afresh rather than keeping
//! them: a key destroyed by `shred()` in another tab, or expired (`keyTtl`), reads nothing from
//! that moment, here too. Writes use the newest key still writable, or make one. With `keyTtl`,
//! a key is written with for `keyTtl` (`until`), then kept readable for another `keyTtl`
//! (`expires`), then destroyed with what it encrypted: a value stays readable at least `keyTtl`
//! after it was written, and at most twice that.

use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::Store;
use crate::core::error::{Error, Result};
use crate::idb::{describe_key, refused, Conn};
use crate::timer::now_ms;

#[wasm_bindgen(module = "/src/js/crypt.js")]
extern "C" {
    #[wasm_bindgen(js_name = newKey, catch)]
    fn new_key() -> std::result::Result<Promise, JsValue>;
    #[wasm_bindgen(catch)]
    fn seal(key: &JsValue, id: u32, items: &Array) -> std::result::Result<Promise, JsValue>;
    #[wasm_bindgen(catch)]
    fn unseal(keys: &js_sys::Map, items: &Array) -> std::result::Result<Promise, JsValue>;
}

/// What a sealed record is bound to (its key, or its collection and id) and how a message names
/// it: one item of `seal`/`unseal`.
pub(super) fn item(aad: &[JsValue], value: JsValue, what: String) -> JsValue {
    Array::of3(&aad.iter().collect::<Array>(), &value, &JsValue::from_str(&what)).into()
}

/// An entry's item.
pub(super) fn entry_item(key: &JsValue, value: JsValue) -> JsValue {
    item(&["e".into(), key.clone()], value, format!("the value for key {}", describe_key(key)))
}

/// A document's item.
pub(super) fn doc_item(collection: &str, id: &JsValue, doc: JsValue) -> JsValue {
    item(&["d".into(), collection.into(), id.clone()], doc, format!("collection \"{collection}\" document {}", describe_key(id)))
}

/// Records read per transaction when removing what an expired key encrypted.
const SWEEP_BATCH: u32 = 1000;

async fn answer(p: std::result::Result<Promise, JsValue>) -> std::result::Result<JsValue, JsValue> {
    JsFuture::from(p?).await
}

fn field(v: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(v, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

impl Store {
    /// Whether the store encrypts what it writes.
    pub fn encrypted(&self) -> bool {
        self.0.config.encryption.is_some()
    }

    /// The keys reads can use now: id -> CryptoKey, the expired ones left out.
    async fn live_keys(&self, conn: &Conn) -> Result<js_sys::Map> {
        let now = now_ms();
        let keys = js_sys::Map::new();
        for rec in conn.crypto_keys().await?.iter() {
            if expires(&rec) > now {
                keys.set(&field(&rec, "id"), &field(&rec, "key"));
            }
        }
        Ok(keys)
    }

    /// The key writes use: the newest one still writable, or a new one (with `keyTtl`: writable
    /// for that long, readable for as long again).
    async fn sealing_key(&self, conn: &Conn) -> Result<(u32, JsValue)> {
        let now = now_ms();
        let (mut newest, mut next) = (None, 1u32);
        for rec in conn.crypto_keys().await?.iter() {
            let id = field(&rec, "id").as_f64().unwrap_or(0.0) as u32;
            next = next.max(id + 1);
            if field(&rec, "until").as_f64().is_some_and(|u| u > now) && newest.as_ref().is_none_or(|(n, _)| id > *n) {
                newest = Some((id, field(&rec, "key")));
            }
        }
        if let Some(found) = newest {
            return Ok(found);
        }
        let key = answer(new_key()).await.map_err(|e| crypto_error("making an encryption key", e))?;
        let ttl = self.0.config.encryption.flatten();
        let until = ttl.map_or(f64::INFINITY, |ttl| now + ttl);
        let expires = ttl.map_or(f64::INFINITY, |ttl| now + 2.0 * ttl);
        let rec = super::plain_object(&[("id", next.into()), ("key", key.clone()), ("until", until.into()), ("expires", expires.into())]);
        match conn.put_crypto_key(next, rec).await? {
            // Another member made key `next` at the same moment: its key, not this one.
            Some(theirs) => Ok((next, field(&theirs, "key"))),
            None => Ok((next, key)),
        }
    }

    /// `items` (see [`item`]) encrypted, in order; a value that cannot be written faithfully
    /// is a TypeError naming it, before anything is written.
    pub(super) async fn seal_items(&self, conn: &Conn, items: Array) -> Result<Vec<JsValue>> {
        if items.length() == 0 {
            return Ok(Vec::new());
        }
        let (id, key) = self.sealing_key(conn).await?;
        let sealed = answer(seal(&key, id, &items)).await.map_err(|e| match e.dyn_ref::<js_sys::TypeError>() {
            Some(_) => refused(e),
            None => crypto_error("encrypting", e),
        })?;
        Ok(Array::from(&sealed).to_vec())
    }

    /// `items` (see [`item`], with the stored values) decrypted, in order: `undefined` where
    /// the key is gone. A record that does not decrypt (altered, or moved from another record)
    /// is an error naming it.
    pub(super) async fn unseal_items(&self, conn: &Conn, items: Array) -> Result<Vec<JsValue>> {
        if items.length() == 0 {
            return Ok(Vec::new());
        }
        let keys = self.live_keys(conn).await?;
        let plain = answer(unseal(&keys, &items)).await.map_err(|e| crypto_error("decrypting", e))?;
        Ok(Array::from(&plain).to_vec())
    }

    /// With `keyTtl`, what expired keys encrypted is removed (entries and documents, a
    /// transaction per [`SWEEP_BATCH`] records read), then the keys themselves, announced as
    /// `"expired"`: a key expires like an entry. A reaper pass runs it.
    pub(super) async fn sweep_expired_keys(&self) -> Result<()> {
        if !self.encrypted() {
            return Ok(());
        }
        let conn = self.live().await?;
        let now = now_ms();
        let expired: Vec<u32> = conn
            .crypto_keys()
            .await?
            .iter()
            .filter(|r| expires(r) <= now)
            .filter_map(|r| field(&r, "id").as_f64().map(|id| id as u32))
            .collect();
        if expired.is_empty() {
            return Ok(());
        }
        let (keys, collections) = (Array::new(), js_sys::Object::new());
        for name in [crate::idb::ENTRIES_STORE, crate::idb::DOCS_STORE] {
            let mut after = None;
            loop {
                let (removed, last) = conn.sweep_sealed(name, &expired, after, SWEEP_BATCH).await?;
                for (c, id) in removed {
                    match c.as_string() {
                        None => {
                            keys.push(&id);
                        }
                        Some(c) => {
                            let ids: Array = js_sys::Reflect::get(&collections, &c.as_str().into())
                                .ok()
                                .filter(|v| v.is_object())
                                .map_or_else(Array::new, |v| v.unchecked_into());
                            ids.push(&id);
                            let _ = js_sys::Reflect::set(&collections, &c.as_str().into(), &ids);
                        }
                    }
                }
                match last {
                    Some(pk) => after = Some(pk),
                    None => break,
                }
            }
        }
        conn.delete_crypto_keys(&expired).await?;
        if keys.length() > 0 || js_sys::Object::keys(&collections).length() > 0 {
            let detail = super::plain_object(&[("keys", keys.into()), ("collections", collections.into()), ("timeSeries", js_sys::Object::new().into())]);
            self.emit("expired", &detail);
        }
        Ok(())
    }

    /// `shred()`: destroys every encryption key and removes everything they encrypted (entries
    /// and documents), in one transaction; every member reads nothing of it from then on.
    pub async fn shred(&self) -> Result<()> {
        if !self.encrypted() {
            return Err(Error::InvalidType(format!(
                "shred() destroys the encryption key of a store opened with {{ encryption: true }}; {} is not encrypted (clear() removes its entries)",
                crate::core::text::quote(self.name())
            )));
        }
        let conn = self.live().await?;
        conn.shred().await?;
        self.emit_change("clear", Array::new());
        for def in conn.definitions().await? {
            if let crate::idb::Definition::Collection { name, .. } = def {
                self.emit_change_in("collection", &name, "clear", Array::new());
            }
        }
        Ok(())
    }
}

/// When a key record stops being readable, Unix ms: `expires`, or `until` for a record without.
fn expires(rec: &JsValue) -> f64 {
    field(rec, "expires").as_f64().or_else(|| field(rec, "until").as_f64()).unwrap_or(f64::INFINITY)
}

fn crypto_error(op: &str, e: JsValue) -> Error {
    let name = js_sys::Reflect::get(&e, &"name".into()).ok().and_then(|n| n.as_string()).unwrap_or_else(|| "Error".into());
    Error::Storage { op: op.into(), name: if name == "TypeError" { "DataError".into() } else { name }, message: crate::idb::thrown_text(&e) }
}
