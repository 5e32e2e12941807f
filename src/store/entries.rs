//! The key-value entries: writes (with `maxEntries` and `evictOnQuota` eviction), reads,
//! deletes and expiry changes, each write announced by a `"change"` event.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::{plain_object, Store};
use crate::core::entry::{Expiry, ExpirySpec, NEVER_MS};
use crate::core::error::{Error, Result};
use crate::idb::{Cap, Conn, ExpiryChange, Write};
use crate::timer::now_ms;

use super::crypt;

/// A value `unseal` gave for a record whose key is gone.
fn is_gone(v: &JsValue) -> bool {
    v.is_undefined()
}

impl Store {
    /// Writes `key`; see [`ExpirySpec`] for the options.
    pub async fn set(&self, key: JsValue, value: JsValue, spec: ExpirySpec) -> Result<()> {
        let keys = Array::of1(&key);
        self.set_many(vec![Write { key, value, spec }]).await?;
        self.emit_change("set", keys);
        Ok(())
    }

    /// Writes all of `writes` in one transaction, or none of them.
    /// Under `evictOnQuota`, a write the browser refuses for space is retried after rounds of
    /// eviction (see [`Store::evict_and_retry`]).
    pub async fn set_many(&self, mut writes: Vec<Write>) -> Result<()> {
        let conn = self.live().await?;
        self.seal_writes(&conn, &mut writes).await?;
        let mut done = conn.write(&writes, self.0.config.default_ttl.as_ref(), self.cap(), now_ms()).await;
        if self.0.config.evict_on_quota && matches!(done, Err(Error::QuotaExceeded { .. })) {
            done = self.evict_and_retry(&conn, &writes, done).await;
        }
        self.evicted(done?, "maxEntries");
        Ok(())
    }

    /// lscache's policy for a write refused for space: evict (expired entries first, unless
    /// they wait for onExpire or the archive, then the soonest to expire; never one without expiry nor one of
    /// the write's keys) 1, 2, 4... times as many entries as the write puts, retrying after each
    /// round, until it fits or nothing is left to evict. What went is one `"evicted"` event
    /// (reason `"quota"`); a write still refused says how much was evicted.
    async fn evict_and_retry(&self, conn: &Conn, writes: &[Write], refused: Result<Array>) -> Result<Array> {
        let own: Array = writes.iter().map(|w| w.key.clone()).collect();
        let mut gone = Array::new();
        let mut done = refused;
        for round in 0..MAX_EVICT_ROUNDS {
            let n = (writes.len().max(1) as u32).saturating_mul(1 << round);
            let evicted = conn.make_room(n, &own, self.expired_wait(), now_ms()).await?;
            if evicted.length() == 0 {
                break;
            }
            gone = gone.concat(&evicted);
            done = conn.write(writes, self.0.config.default_ttl.as_ref(), self.cap(), now_ms()).await;
            if !matches!(done, Err(Error::QuotaExceeded { .. })) {
                break;
            }
        }
        self.evicted(gone.clone(), "quota");
        done.map_err(|e| match e {
            Error::QuotaExceeded { op, message } => Error::QuotaExceeded {
                op,
                message: format!(
                    "{message} (evictOnQuota evicted {} entries and the browser still refused the write; Chromium counts freed space back only after its storage compacts, so a later retry may fit)",
                    gone.length()
                ),
            },
            e => e,
        })
    }

    /// `maxEntries` as writes apply it.
    pub(super) fn cap(&self) -> Option<Cap> {
        self.0.config.max_entries.map(|max| Cap { max, live_only: self.expired_wait() })
    }

    /// Whether expired entries wait for the reaper (to be offered to onExpire or archived), so
    /// that neither a cap nor the quota may delete them first.
    fn expired_wait(&self) -> bool {
        self.hook().is_some() || self.archive_for_ms().is_some()
    }

    /// Counts and announces (`"evicted"`, here and in every member) entries a write evicted.
    pub(super) fn evicted(&self, keys: Array, reason: &str) {
        if keys.length() > 0 {
            self.0.stats.borrow_mut().evicted_total += u64::from(keys.length());
            self.emit("evicted", &plain_object(&[("keys", keys.into()), ("reason", JsValue::from_str(reason))]));
        }
    }

    /// `set_many` followed by its `"change"` event (`set` fires its own with op `"set"`).
    pub async fn set_many_and_notify(&self, writes: Vec<Write>) -> Result<()> {
        let keys: Array = writes.iter().map(|w| w.key.clone()).collect();
        self.set_many(writes).await?;
        self.emit_change("setMany", keys);
        Ok(())
    }

    /// The live value, `undefined` if missing or expired; an idle entry read is extended.
    pub async fn get(&self, key: &JsValue) -> Result<JsValue> {
        let conn = self.live().await?;
        let value = conn.get(key, now_ms(), true).await?;
        self.extend_soon();
        self.open_value(&conn, key, value).await
    }

    /// Entry values as stored, decrypted when the store encrypts (`undefined` where the key is
    /// gone); as they are otherwise.
    pub(super) async fn open_values(&self, conn: &Conn, keys: &[JsValue], values: Vec<JsValue>) -> Result<Vec<JsValue>> {
        if !self.encrypted() {
            return Ok(values);
        }
        let items = keys.iter().zip(values).map(|(k, v)| crypt::entry_item(k, v)).collect();
        self.unseal_items(conn, items).await
    }

    pub(super) async fn open_value(&self, conn: &Conn, key: &JsValue, value: JsValue) -> Result<JsValue> {
        if !self.encrypted() {
            return Ok(value);
        }
        Ok(self.open_values(conn, std::slice::from_ref(key), vec![value]).await?.pop().unwrap_or(JsValue::UNDEFINED))
    }

    /// Encrypts the values of `writes` when the store encrypts.
    pub(super) async fn seal_writes(&self, conn: &Conn, writes: &mut [Write]) -> Result<()> {
        if !self.encrypted() {
            return Ok(());
        }
        let items = writes.iter().map(|w| crypt::entry_item(&w.key, w.value.clone())).collect();
        for (w, sealed) in writes.iter_mut().zip(self.seal_items(conn, items).await?) {
            w.value = sealed;
        }
        Ok(())
    }

    /// Whether `key` has a live entry.
    pub async fn has(&self, key: &JsValue) -> Result<bool> {
        Ok(self.live().await?.live_expiry(key, now_ms()).await?.is_some())
    }

    /// Live values in the order of `keys`; idle entries read are extended.
    pub async fn get_many(&self, keys: &Array) -> Result<Array> {
        let conn = self.live().await?;
        let values = conn.get_many(keys, now_ms()).await?;
        self.extend_soon();
        if !self.encrypted() {
            return Ok(values);
        }
        Ok(self.open_values(&conn, &keys.to_vec(), values.to_vec()).await?.into_iter().collect())
    }

    /// Removes `key`; `true` if it was live.
    pub async fn delete(&self, key: JsValue) -> Result<bool> {
        let keys = Array::of1(&key);
        let removed = self.live().await?.delete_many(&keys, now_ms()).await? > 0;
        self.emit_change("delete", keys);
        Ok(removed)
    }

    /// Removes `keys`; how many were live.
    pub async fn delete_many(&self, keys: Array) -> Result<u32> {
        let removed = self.live().await?.delete_many(&keys, now_ms()).await?;
        self.emit_change("deleteMany", keys);
        Ok(removed)
    }

    /// Removes every entry.
    pub async fn clear(&self) -> Result<()> {
        self.live().await?.clear().await?;
        self.emit_change("clear", Array::new());
        Ok(())
    }

    /// Live keys, in key order.
    pub async fn keys(&self) -> Result<Array> {
        self.live().await?.keys(now_ms()).await
    }

    /// Live values, in key order.
    pub async fn values(&self) -> Result<Array> {
        if self.encrypted() {
            return Ok(self.entries().await?.iter().map(|kv| Array::from(&kv).get(1)).collect());
        }
        let values = self.live().await?.values(now_ms()).await?;
        self.extend_soon();
        Ok(values)
    }

    /// Live `[key, value]` pairs, in key order (decrypted; an entry whose key is gone left out).
    pub async fn entries(&self) -> Result<Array> {
        let conn = self.live().await?;
        let entries = conn.entries(now_ms()).await?;
        self.extend_soon();
        if !self.encrypted() {
            return Ok(entries);
        }
        let (keys, values): (Vec<JsValue>, Vec<JsValue>) = entries.iter().map(|kv| (Array::from(&kv).get(0), Array::from(&kv).get(1))).unzip();
        let values = self.open_values(&conn, &keys, values).await?;
        Ok(keys.iter().zip(values).filter(|(_, v)| !is_gone(v)).map(|(k, v)| JsValue::from(Array::of2(k, &v))).collect())
    }

    /// Number of live entries.
    pub async fn count(&self) -> Result<u32> {
        self.live().await?.count(now_ms()).await
    }

    /// The live entry's expiry in Unix ms: `Some(None)` = no expiry, `None` = missing or expired.
    pub async fn expires_at_ms(&self, key: &JsValue) -> Result<Option<Option<f64>>> {
        let e = self.live().await?.live_expiry(key, now_ms()).await?;
        Ok(e.map(|e| (e != NEVER_MS).then_some(e)))
    }

    /// Milliseconds left: `Some(None)` = no expiry, `None` = missing or expired.
    pub async fn ttl_ms(&self, key: &JsValue) -> Result<Option<Option<f64>>> {
        let now = now_ms();
        let e = self.live().await?.live_expiry(key, now).await?;
        Ok(e.map(|e| (e != NEVER_MS).then_some(e - now)))
    }

    /// The live entry's expiry with an idle entry's window and cap (`ttl(key, { detail: true })`),
    /// `None` if missing or expired.
    pub async fn expiry_detail(&self, key: &JsValue) -> Result<Option<Expiry>> {
        self.live().await?.live_expiry_detail(key, now_ms()).await
    }

    /// Sets a new expiry on a live entry (Redis `EXPIRE`); `false` if missing. An expiry in the
    /// past removes the entry (and still answers `true`).
    pub async fn expire(&self, key: JsValue, spec: &ExpirySpec) -> Result<bool> {
        let changed = self.live().await?.change_expiry(&key, ExpiryChange::Set(spec), now_ms()).await?;
        if changed {
            self.emit_change("expire", Array::of1(&key));
        }
        Ok(changed)
    }

    /// Removes a live entry's expiry (Redis `PERSIST`); `false` if missing or it had none.
    pub async fn persist(&self, key: JsValue) -> Result<bool> {
        let changed = self.live().await?.change_expiry(&key, ExpiryChange::Remove, now_ms()).await?;
        if changed {
            self.emit_change("persist", Array::of1(&key));
        }
        Ok(changed)
    }
}

/// Rounds of `evictOnQuota` eviction before a write is given up: 1 + 2 + ... + 128 = 255 times
/// the write's entries at most.
const MAX_EVICT_ROUNDS: u32 = 8;
