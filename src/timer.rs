//! Timers and locks: the only module that touches the browser's clock, its timers and Web
//! Locks (the reaper's leadership among the members of one database, `members.js`).

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::task::Poll;

use wasm_bindgen::prelude::*;

use crate::core::config::MAX_TIMER_MS;

/// Waits `ms` milliseconds, however long (a [`Deadline`]).
pub async fn sleep(ms: f64) {
    after(ms.max(0.0)).await;
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
    let mut timeout = deadline(ms);
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

/// Calls `f` every `ms` milliseconds until the returned handle is dropped.
pub fn every(ms: u32, f: impl FnMut() + 'static) -> gloo_timers::callback::Interval {
    gloo_timers::callback::Interval::new(ms, f)
}

/// The current time as Unix milliseconds: the one place the store reads the wall clock.
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: milliseconds on a clock that only goes forward, at the same rate
    /// whatever the wall clock does (set by the user, corrected by NTP, moved by a test). What
    /// a [`Deadline`] counts in: a wait of `ms` is `ms`, even across a jump of `Date.now()`.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn monotonic_ms() -> f64;
}

/// Milliseconds on the clock that a [`Deadline`] counts in (`performance.now()`): for a wait made
/// of several deadlines, how long it has lasted.
pub fn clock_ms() -> f64 {
    monotonic_ms()
}

/// A timer set for a moment (Unix ms), then set again for another or stopped; each time it rings
/// it calls back with the time. Dropping it stops it. A moment beyond `setTimeout`'s reach
/// (2^31 - 1 ms) is reached in steps, and a step that ends early is followed by another, so it
/// never rings before its moment.
#[must_use = "the timer is stopped as soon as it is dropped"]
pub struct Timer {
    state: Rc<TimerState>,
}

struct TimerState {
    /// When it rings (`INFINITY`: not set).
    at_ms: Cell<f64>,
    timeout: RefCell<Option<gloo_timers::callback::Timeout>>,
    on_ring: Box<dyn Fn(f64)>,
}

impl std::fmt::Debug for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Timer").field("at_ms", &self.state.at_ms.get()).finish_non_exhaustive()
    }
}

impl Timer {
    /// A timer, not set, that calls `on_ring(now_ms)` each time it rings. `on_ring` may set it
    /// again, stop it or drop it.
    pub fn new(on_ring: impl Fn(f64) + 'static) -> Timer {
        let state = TimerState { at_ms: Cell::new(f64::INFINITY), timeout: RefCell::new(None), on_ring: Box::new(on_ring) };
        Timer { state: Rc::new(state) }
    }

    /// Sets it to ring at `at_ms` (Unix ms; at once if that has passed), or stops it (`None`).
    pub fn set(&self, at_ms: Option<f64>) {
        self.state.at_ms.set(at_ms.unwrap_or(f64::INFINITY));
        // The timeout it replaces is cleared as it drops.
        self.state.timeout.replace(step(&self.state));
    }
}

/// A timeout for the next step towards `state`'s moment (none if it is not set).
fn step(state: &Rc<TimerState>) -> Option<gloo_timers::callback::Timeout> {
    let at = state.at_ms.get();
    if at == f64::INFINITY {
        return None;
    }
    let wait = (at - now_ms()).ceil().clamp(0.0, f64::from(MAX_TIMER_MS));
    let weak = Rc::downgrade(state);
    Some(gloo_timers::callback::Timeout::new(wait as u32, move || {
        let Some(state) = weak.upgrade() else { return };
        let now = now_ms();
        if now < state.at_ms.get() {
            let next = step(&state);
            state.timeout.replace(next);
            return;
        }
        state.at_ms.set(f64::INFINITY);
        // No borrow is held: `on_ring` may set the timer again.
        (state.on_ring)(now);
    }))
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

/// Waits for the exclusive Web Lock `name` and holds it for as long as the returned value lives:
/// the calls that take it run one after another, in every tab and worker (`None`, at once, where
/// there are no Web Locks).
pub async fn exclusive(name: &str) -> Option<Leadership> {
    let granted: Rc<(Cell<bool>, RefCell<Option<std::task::Waker>>)> = Rc::default();
    let tell = granted.clone();
    let lock = Leadership::request(name, move || {
        tell.0.set(true);
        if let Some(w) = tell.1.take() {
            w.wake();
        }
    })?;
    std::future::poll_fn(|cx| {
        if granted.0.get() {
            Poll::Ready(())
        } else {
            *granted.1.borrow_mut() = Some(cx.waker().clone());
            Poll::Pending
        }
    })
    .await;
    Some(lock)
}

impl Drop for Leadership {
    fn drop(&mut self) {
        // Before the closure is dropped: members.js never calls it after release().
        self.handle.release();
    }
}

/// A moment `ms` milliseconds from now, as a future that resolves once it has passed.
///
/// Every deadline shares one browser timer, armed for the earliest one and not cleared when a
/// deadline is dropped: a stream of short-lived deadlines (one per awaited request) costs about
/// one timer per `ms`, not a `setTimeout` and a `clearTimeout` each. The alarm's table forgets
/// dropped deadlines as new ones come, so it holds about twice the deadlines alive at once.
pub fn deadline(ms: u32) -> Deadline {
    after(f64::from(ms))
}

/// [`deadline`] for any `ms` (`INFINITY`: never).
fn after(ms: f64) -> Deadline {
    let state = Rc::new(DeadlineState { at: monotonic_ms() + ms, passed: Cell::new(false), waker: RefCell::new(None) });
    ALARM.with(|alarm| {
        let mut alarm = alarm.borrow_mut();
        if alarm.waiting.len() >= alarm.limit {
            alarm.sweep(f64::NEG_INFINITY);
        }
        alarm.waiting.push(state.clone());
        if state.at < alarm.at {
            alarm.arm(state.at);
        }
    });
    Deadline { state }
}

/// See [`deadline`].
#[must_use = "a deadline does nothing unless awaited or polled"]
#[derive(Debug)]
pub struct Deadline {
    state: Rc<DeadlineState>,
}

#[derive(Debug)]
struct DeadlineState {
    /// When it passes, on [`monotonic_ms`]'s clock.
    at: f64,
    passed: Cell<bool>,
    waker: RefCell<Option<std::task::Waker>>,
}

impl Future for Deadline {
    type Output = ();

    fn poll(self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<()> {
        if self.state.passed.get() {
            return Poll::Ready(());
        }
        *self.state.waker.borrow_mut() = Some(cx.waker().clone());
        Poll::Pending
    }
}

/// The one timer behind every [`Deadline`].
struct Alarm {
    /// When it rings, on [`monotonic_ms`]'s clock (`INFINITY`: not armed).
    at: f64,
    timer: Option<gloo_timers::callback::Timeout>,
    /// The timer that is ringing now: dropped at the next ring, not from inside its own callback.
    rung: Option<gloo_timers::callback::Timeout>,
    /// The deadlines not yet passed; those only held here were dropped.
    waiting: Vec<Rc<DeadlineState>>,
    /// The length of `waiting` at which dropped deadlines are forgotten.
    limit: usize,
}

/// The table's [`Alarm::limit`] when no deadline is alive.
const TABLE_MIN: usize = 16;

thread_local! {
    static ALARM: RefCell<Alarm> = const { RefCell::new(Alarm { at: f64::INFINITY, timer: None, rung: None, waiting: Vec::new(), limit: TABLE_MIN }) };
}

impl Alarm {
    fn arm(&mut self, at: f64) {
        self.at = at;
        let wait = (at - monotonic_ms()).ceil().clamp(0.0, f64::from(MAX_TIMER_MS));
        self.timer = Some(gloo_timers::callback::Timeout::new(wait as u32, ring));
    }

    /// Takes the deadlines due at `now` out of the table, with the earliest moment of those
    /// left; forgets the dropped ones (a dropped deadline's allocation lives as long as its entry).
    #[inline(never)]
    fn sweep(&mut self, now: f64) -> (Vec<Rc<DeadlineState>>, f64) {
        let mut due = Vec::new();
        let mut next = f64::INFINITY;
        self.waiting.retain(|s| {
            if Rc::strong_count(s) == 1 {
                return false;
            }
            if s.at <= now {
                due.push(s.clone());
                return false;
            }
            next = next.min(s.at);
            true
        });
        self.limit = 2 * self.waiting.len() + TABLE_MIN;
        (due, next)
    }
}

/// Marks what is due as passed and wakes its waiters; re-arms for the earliest left. Deadlines
/// dropped meanwhile are forgotten here.
fn ring() {
    let now = monotonic_ms();
    let due = ALARM.with(|alarm| {
        let mut alarm = alarm.borrow_mut();
        alarm.rung = alarm.timer.take();
        alarm.at = f64::INFINITY;
        let (due, next) = alarm.sweep(now);
        if next < f64::INFINITY {
            alarm.arm(next);
        }
        due
    });
    for s in due {
        s.passed.set(true);
        if let Some(w) = s.waker.borrow_mut().take() {
            w.wake();
        }
    }
}
