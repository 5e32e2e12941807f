//! Timers and locks: the only module that touches the browser's clock, its timers and Web
//! Locks (the reaper's leadership among the members of one database, `members.js`).

use std::cell::Cell;
use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::task::Poll;

use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::prelude::*;

use crate::core::config::MAX_TIMER_MS;

/// Waits `ms` milliseconds, however long: `setTimeout` keeps at most 2^31 - 1 ms (24.8 days) and
/// fires at once for more, so longer waits are chained.
pub async fn sleep(ms: f64) {
    let mut left = ms.max(0.0);
    loop {
        let step = left.min(f64::from(MAX_TIMER_MS));
        TimeoutFuture::new(step as u32).await;
        left -= step;
        if left <= 0.0 {
            return;
        }
    }
}

/// The background reaper's clock: waits, runs a pass, and waits what the pass asks for before
/// the next (a full interval, or a moment while a backlog waits), until dropped or until a pass
/// returns `None`. Dropping it stops it, so a store that is closed or garbage-collected stops
/// reaping without anyone remembering to.
#[must_use = "the timer is cancelled as soon as it is dropped"]
#[derive(Debug)]
pub struct ReaperTimer {
    running: Rc<Cell<bool>>,
}

impl ReaperTimer {
    /// Waits `first_ms`, then runs `pass` (which resolves to the wait before the next one).
    pub fn start<F, Fut>(first_ms: f64, mut pass: F) -> Self
    where
        F: FnMut() -> Fut + 'static,
        Fut: Future<Output = Option<f64>> + 'static,
    {
        let running = Rc::new(Cell::new(true));
        let alive = running.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let mut wait = first_ms;
            loop {
                sleep(wait).await;
                if !alive.get() {
                    return;
                }
                match pass().await {
                    Some(next) => wait = next,
                    None => return,
                }
            }
        });
        ReaperTimer { running }
    }
}

impl Drop for ReaperTimer {
    fn drop(&mut self) {
        self.running.set(false);
    }
}

/// `fut`'s output, or `None` if it has not finished within `ms` milliseconds (the future is
/// then dropped).
pub async fn within<F: Future>(ms: u32, fut: F) -> Option<F::Output> {
    let mut fut = pin!(fut);
    let mut timeout = TimeoutFuture::new(ms);
    std::future::poll_fn(|cx| {
        if let Poll::Ready(v) = fut.as_mut().poll(cx) {
            return Poll::Ready(Some(v));
        }
        match std::pin::Pin::new(&mut timeout).poll(cx) {
            Poll::Ready(()) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    })
    .await
}

/// The current time as Unix milliseconds: the one place the store reads the clock.
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

#[wasm_bindgen(module = "/src/members.js")]
extern "C" {
    #[derive(Debug)]
    type LockHandle;
    #[wasm_bindgen(js_name = leadership)]
    fn request_lock(name: &str, on_granted: &Closure<dyn FnMut()>) -> Option<LockHandle>;
    #[wasm_bindgen(method)]
    fn release(this: &LockHandle);
}

/// A request for an exclusive Web Lock held for as long as this value lives: MongoDB runs its
/// TTL monitor on the primary only; here the member holding the lock is the one that reaps.
/// Dropping it releases the lock (or withdraws the request), and the browser releases it when
/// the context goes away, so the next member in line is granted it.
#[must_use = "the lock is released as soon as it is dropped"]
#[derive(Debug)]
pub struct Leadership {
    handle: LockHandle,
    _on_granted: Closure<dyn FnMut()>,
}

impl Leadership {
    /// Asks for the lock `name`; `on_granted` runs once it is held. `None` where the context has
    /// no Web Locks (an old browser, an opaque origin): the caller then leads on its own.
    pub fn request(name: &str, on_granted: impl FnMut() + 'static) -> Option<Leadership> {
        let on_granted = Closure::<dyn FnMut()>::new(on_granted);
        let handle = request_lock(name, &on_granted)?;
        Some(Leadership { handle, _on_granted: on_granted })
    }
}

impl Drop for Leadership {
    fn drop(&mut self) {
        // Before the closure is dropped: members.js never calls it after release().
        self.handle.release();
    }
}
