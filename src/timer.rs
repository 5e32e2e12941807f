//! Timers: the only module that touches the browser's clock and timers.
//! (Cross-tab leadership for the reaper, through Web Locks, will live here too.)

use std::future::Future;
use std::pin::pin;
use std::task::Poll;

use gloo_timers::callback::Interval;
use gloo_timers::future::TimeoutFuture;

/// The background reaper's clock: runs `tick` every `period_ms`. Dropping it cancels it, so a
/// store that is closed or garbage-collected stops reaping without anyone remembering to.
#[must_use = "the timer is cancelled as soon as it is dropped"]
#[derive(Debug)]
pub struct ReaperTimer(#[allow(dead_code)] Interval);

impl ReaperTimer {
    /// Starts calling `tick` every `period_ms` milliseconds.
    pub fn start(period_ms: u32, tick: impl FnMut() + 'static) -> Self {
        ReaperTimer(Interval::new(period_ms, tick))
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
