//! Idle entries (`{ idle }`): reads that return one note its extension as due (`Conn`), and
//! this writes what is due a moment later, one transaction for every read of that moment, so
//! a hot loop of reads costs one write per [`EXTEND_DELAY_MS`], not one per read. The member
//! that read it counts a due extension at once; other members see it once written, announced
//! as a `"change"` with `op: "extend"` (which moves `watch` timers on). A reaper pass writes
//! what is due first, so this member never reaps an entry it has just read, and `close()`
//! writes it as the connection closes.

use std::future::Future;
use std::rc::Rc;
use std::task::{Context, Waker};


use super::Store;
use crate::timer::{now_ms, sleep};

/// How long due extensions wait to be written together, ms.
pub const EXTEND_DELAY_MS: f64 = 50.0;

impl Store {
    /// After a read: writes the extensions it noted as due, soon, unless a write is planned.
    pub(super) fn extend_soon(&self) {
        let Ok(conn) = self.conn() else { return };
        if conn.extensions_due() == 0 || self.0.extending.replace(true) {
            return;
        }
        let weak = Rc::downgrade(&self.0);
        wasm_bindgen_futures::spawn_local(async move {
            sleep(EXTEND_DELAY_MS).await;
            if let Some(inner) = weak.upgrade() {
                Store(inner).extend_now().await;
            }
        });
    }

    /// Writes the due extensions now; a failure is an `"error"` event (no call waits for it).
    pub(super) async fn extend_now(&self) {
        self.0.extending.set(false);
        let Ok(conn) = self.conn() else { return };
        match conn.extend_due(now_ms()).await {
            Ok(keys) if keys.length() > 0 => {
                self.0.idle_extended.set(self.0.idle_extended.get() + f64::from(keys.length()));
                self.emit_change("extend", keys);
            }
            Ok(_) => {}
            Err(e) => self.emit("error", &super::plain_object(&[("error", e.into_js())])),
        }
    }

    /// Writes the due extensions as the store closes: their transaction is begun now, while the
    /// connection is open (a closing connection lets its transactions finish), and runs on.
    pub(super) fn extend_before_close(&self) {
        let Ok(conn) = self.conn() else { return };
        if conn.extensions_due() == 0 {
            return;
        }
        let mut write = Box::pin(async move {
            let _ = conn.extend_due(now_ms()).await;
        });
        // The first poll begins the transaction; the executor's polls wake it from then on.
        if write.as_mut().poll(&mut Context::from_waker(Waker::noop())).is_pending() {
            wasm_bindgen_futures::spawn_local(write);
        }
    }

    /// Idle extensions written by this member, and those due and not written yet.
    pub fn idle_counts(&self) -> (f64, u32) {
        let due = self.conn().map_or(0, |c| c.extensions_due());
        (self.0.idle_extended.get(), due)
    }
}
