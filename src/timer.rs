//! Timers: the only module that touches the browser's clock and `setInterval`.
//! (Cross-tab leadership for the reaper, through Web Locks, will live here too.)

use gloo_timers::callback::Interval;

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

/// The current time as Unix milliseconds: the one place the store reads the clock.
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}
