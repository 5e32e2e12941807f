//! The key-value entries' writes, as [`Change`]s that [`Store::change`] runs: puts (with
//! `maxEntries` and `evictOnQuota` eviction), deletes, expiry changes and the other
//! read-modify-writes, each announced by a `"change"` event. Their reads are
//! [`Read`](crate::idb::Read)s, run by [`Store::read`].

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::{plain_object, Store};
use crate::core::entry::{Expiry, ExpirySpec};
use crate::core::error::{Error, Result};
use crate::core::modify::{written_spec, ExpiryChange, Only};
use crate::idb::{Cap, Conn, Modify, Pending, Write};
use crate::timer::now_ms;

use super::crypt;

impl Store {
    /// Writes all of `writes` in one transaction, or none of them.
    /// Under `evictOnQuota`, a write the browser refuses for space is retried after rounds of
    /// eviction (see [`Store::evict_and_retry`]).
    pub async fn set_many(&self, conn: &Conn, mut writes: Vec<Write>) -> Result<()> {
        self.seal_writes(conn, &mut writes).await?;
        let mut done = conn.write(&writes, self.0.config.default_ttl.as_ref(), self.cap(), now_ms()).await;
        if self.0.config.evict_on_quota && matches!(done, Err(Error::QuotaExceeded { .. })) {
            done = self.evict_and_retry(conn, &writes, done).await;
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

    /// `expire` (Redis `EXPIRE`, on the condition `only` if given; an expiry in the past removes
    /// the entry) and `persist` (`PERSIST`): whether the live entry took the change (`false`:
    /// missing, or it does not apply). A read-modify-write of its own ([`Conn::modify`]).
    pub(super) async fn change_expiry(&self, conn: &Conn, key: JsValue, change: ExpiryChange) -> Result<bool> {
        let now = now_ms();
        let mut changed = false;
        conn.modify("changing an expiry", &key, None, now, &mut |current| {
            let Some(c) = current else { return Ok(Modify::Keep) };
            let Some(new) = change.of(c.x, now)? else { return Ok(Modify::Keep) };
            changed = true;
            Ok(if new == c.x { Modify::Keep } else { Modify::Put(c.value, new) })
        })
        .await?;
        if changed {
            let op = if matches!(change, ExpiryChange::Remove) { "persist" } else { "expire" };
            self.emit_change(op, Array::of1(&key));
        }
        Ok(changed)
    }
}

/// A write verb as data, run by [`Store::change`].
#[derive(Debug)]
pub enum Change {
    /// `set` (one write) and `setMany` (`true`).
    Put(Vec<Write>, bool),
    /// `delete` (one key: whether it was live) and `deleteMany` (`true`: how many were).
    Delete(Array, bool),
    /// `clear()`.
    Clear,
    /// `expire` and `persist`.
    Expiry(JsValue, ExpiryChange),
    /// `add` and `replace`: the write, made only where no live entry is, or only over one.
    PutIf(Write, Only),
    /// `take`.
    Take(JsValue),
    /// `update` and `incr` (the verb): the new value of a key from its live one ([`Store::update`]),
    /// written with the spec; with `true`, a live entry keeps its expiry.
    Update(&'static str, JsValue, ExpirySpec, bool, Updater),
}

/// An `update` or `incr`'s function of the live value (`undefined` if none) to the new one.
pub struct Updater(pub Box<dyn FnMut(JsValue) -> Result<JsValue>>);

impl std::fmt::Debug for Updater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Updater")
    }
}

/// Read-modify-write (`add`, `replace`, `take`, `incr`, `update`): each one readwrite
/// transaction ([`Conn::modify`]), so atomic against every other tab, worker and verb.
impl Store {
    /// `add` (`Only::Absent`, Redis `SET NX`) and `replace` (`Only::Present`, `SET XX`): writes
    /// `value` only where no live entry is, or only over one; whether it wrote.
    pub(super) async fn put_if(&self, conn: &Conn, w: Write, only: Only) -> Result<bool> {
        let (op, what) = match only {
            Only::Absent => ("add", "adding an entry"),
            Only::Present => ("replace", "replacing an entry"),
        };
        let key = w.key.clone();
        let mut writes = [w];
        self.seal_writes(conn, &mut writes).await?;
        let [w] = writes;
        let (now, default) = (now_ms(), self.0.config.default_ttl.as_ref());
        let mut wrote = false;
        let evicted = conn
            .modify(what, &key, self.cap(), now, &mut |current| {
                let current = current.map(|c| c.x);
                if !only.writes(current.is_some()) {
                    return Ok(Modify::Keep);
                }
                wrote = true;
                Ok(Modify::Put(w.value.clone(), w.spec.resolve(default, current, now)?))
            })
            .await?;
        self.evicted(evicted, "maxEntries");
        if wrote {
            self.emit_change(op, Array::of1(&key));
        } else {
            conn.check_clonable(&key, &w.value)?;
        }
        Ok(wrote)
    }

    /// Reads and removes the live entry (Redis `GETDEL`): its value, `undefined` if missing or
    /// expired.
    pub(super) async fn take(&self, conn: &Conn, key: JsValue) -> Result<JsValue> {
        let mut taken = None;
        conn.modify("taking an entry", &key, None, now_ms(), &mut |current| {
            Ok(match current {
                Some(c) => {
                    taken = Some(c.value);
                    Modify::Delete
                }
                None => Modify::Keep,
            })
        })
        .await?;
        let Some(value) = taken else { return Ok(JsValue::UNDEFINED) };
        self.emit_change("take", Array::of1(&key));
        self.open_value(conn, &key, value).await
    }

    /// `update` and `incr` (`op`): `f(current)` (the live value, `undefined` if none) gives the
    /// new value, written with `spec` (with `keep_live`, a live entry keeps its expiry: `incr`);
    /// `undefined` removes the entry. `f` runs inside the transaction; in a store that encrypts,
    /// whose values are opened and sealed by Web Crypto (which no transaction can wait for), it
    /// runs between a read and a write made only if the entry is still the one read, again
    /// until it is (`Store::update_sealed`, which [`Store::change`] calls in its stead).
    pub fn update<'a>(&'a self, conn: &'a Conn, op: &'static str, key: JsValue, spec: &'a ExpirySpec, keep_live: bool, f: &'a mut dyn FnMut(JsValue) -> Result<JsValue>) -> Pending<'a, JsValue> {
        Box::pin(async move {
            let (now, default) = (now_ms(), self.0.config.default_ttl.as_ref());
            let (mut value, mut had) = (JsValue::UNDEFINED, false);
            let evicted = conn
                .modify(UPDATING, &key, self.cap(), now, &mut |current| {
                    let (old, x) = current.map_or((JsValue::UNDEFINED, None), |c| (c.value, Some(c.x)));
                    had = x.is_some();
                    value = f(old)?;
                    rewrite(value.clone(), spec, keep_live, x, default, now)
                })
                .await?;
            self.evicted(evicted, "maxEntries");
            if had || !value.is_undefined() {
                self.emit_change(op, Array::of1(&key));
            }
            Ok(value)
        })
    }

    /// [`Store::update`] in a store that encrypts: read and open, `f`, seal, then write in one
    /// transaction only if the stored entry is still the one read (the same sealed value, whose
    /// IV is fresh per write), else again.
    #[cfg(feature = "full")]
    pub(super) async fn update_sealed(&self, op: &'static str, key: JsValue, spec: &ExpirySpec, keep_live: bool, f: &mut dyn FnMut(JsValue) -> Result<JsValue>) -> Result<JsValue> {
        // Such calls on one key take turns, here and in every tab and worker: the check below
        // then only meets writes of other verbs.
        let _turn = crate::timer::exclusive(&format!("idb-ttl {} rmw {}", self.name(), crate::idb::describe_key(&key))).await;
        for _ in 0..SEALED_TRIES {
            let conn = self.live().await?;
            let seen = conn.live_entry(&key, now_ms()).await?;
            let token = seen.as_ref().map(|c| sealed_token(&c.value));
            let old = match seen {
                Some(c) => self.open_value(&conn, &key, c.value).await?,
                None => JsValue::UNDEFINED,
            };
            let value = f(old)?;
            let sealed = if value.is_undefined() {
                JsValue::UNDEFINED
            } else {
                let mut writes = [Write { key: key.clone(), value: value.clone(), spec: ExpirySpec::Default }];
                self.seal_writes(&conn, &mut writes).await?;
                let [w] = writes;
                w.value
            };
            let (now, default) = (now_ms(), self.0.config.default_ttl.as_ref());
            let mut written = false;
            let evicted = conn
                .modify(UPDATING, &key, self.cap(), now, &mut |current| {
                    if current.as_ref().map(|c| sealed_token(&c.value)) != token {
                        return Ok(Modify::Keep);
                    }
                    written = true;
                    rewrite(sealed.clone(), spec, keep_live, current.map(|c| c.x), default, now)
                })
                .await?;
            self.evicted(evicted, "maxEntries");
            if written {
                if token.is_some() || !value.is_undefined() {
                    self.emit_change(op, Array::of1(&key));
                }
                return Ok(value);
            }
        }
        Err(Error::Timeout {
            op: format!("{op} of key {} in an encrypted store", crate::idb::describe_key(&key)),
            message: format!("other writes (set, delete...) changed the entry between each of {SEALED_TRIES} reads and writes; retry later"),
        })
    }
}

const UPDATING: &str = "updating an entry";

#[cfg(feature = "full")]
/// Rounds of read, open, seal and conditional write an encrypted `update`/`incr` makes before
/// giving up.
pub(super) const SEALED_TRIES: u32 = 50;

/// What `update`/`incr` write: `value` (`undefined` removes the entry) with `spec`, or (with
/// `keep_live`, over a live entry) the current expiry `x`.
fn rewrite(value: JsValue, spec: &ExpirySpec, keep_live: bool, x: Option<Expiry>, default: Option<&crate::core::expiry::Ttl>, now: f64) -> Result<Modify> {
    if value.is_undefined() {
        return Ok(Modify::Delete);
    }
    Ok(Modify::Put(value, written_spec(spec, keep_live, x.is_some()).resolve(default, x, now)?))
}

#[cfg(feature = "full")]
/// What tells one sealed value from another: its IV, fresh per write.
pub(super) fn sealed_token(v: &JsValue) -> Vec<u8> {
    js_sys::Reflect::get(v, &"iv".into()).ok().and_then(|iv| iv.dyn_into::<js_sys::Uint8Array>().ok()).map(|iv| iv.to_vec()).unwrap_or_default()
}

/// Rounds of `evictOnQuota` eviction before a write is given up: 1 + 2 + ... + 128 = 255 times
/// the write's entries at most.
const MAX_EVICT_ROUNDS: u32 = 8;
