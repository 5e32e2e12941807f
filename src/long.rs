//! Long work you can see and stop: the `{ signal, onProgress }` of `setMany`, `import`,
//! `export`, `exportStream`, `clear` and `reap`.
//!
//! A call given them runs inside [`scope`]: while its future is polled, the transactions it
//! begins and the records it puts are noted here (by the runner, `idb::runner`), so no layer
//! passes a tracker down. A ticker every [`TICK_MS`] reads how far the call got (requests answer
//! in order, so the answered ones are a prefix, found by bisection), tells `onProgress`, and on
//! an aborted signal (or a throwing `onProgress`) stops the call: the write waiting to commit
//! ([`or_stopped`]) gives up, which drops its transaction uncommitted (indexed_db_futures then
//! aborts it), so it keeps nothing; work in batches ([`check`]) stops before its next one.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use wasm_bindgen::prelude::*;
use web_sys::{AbortSignal, IdbRequest, IdbRequestReadyState};

use crate::core::error::{Error, Result};

/// How often progress is told and the signal looked at.
pub const TICK_MS: u32 = 100;

/// One call's progress and how to stop it.
#[derive(Debug)]
pub struct Long {
    signal: Option<AbortSignal>,
    on_progress: Option<js_sys::Function>,
    /// Items in all (0: not known yet, nothing told).
    total: Cell<u32>,
    /// Items done in transactions that ended.
    before: Cell<u32>,
    /// The requests of the transaction under way that carry items, with the items up to and
    /// including each one.
    reqs: RefCell<Vec<(IdbRequest, u32)>>,
    /// The write waiting in [`or_stopped`], woken when the call is stopped.
    waiting: RefCell<Option<Waker>>,
    /// Why it stopped: the signal's reason, or what `onProgress` threw.
    stop: RefCell<Option<JsValue>>,
    /// What was told last: `onProgress` hears each change once.
    told: Cell<(u32, u32)>,
    ticker: RefCell<Option<gloo_timers::callback::Interval>>,
}

thread_local! {
    static CURRENT: RefCell<Option<Rc<Long>>> = const { RefCell::new(None) };
}

impl Long {
    /// A tracker for `signal` and `on_progress`, ticking until dropped; `None` without either.
    pub fn new(signal: Option<AbortSignal>, on_progress: Option<js_sys::Function>) -> Option<Rc<Long>> {
        if signal.is_none() && on_progress.is_none() {
            return None;
        }
        let long = Rc::new(Long {
            signal,
            on_progress,
            total: Cell::new(0),
            before: Cell::new(0),
            reqs: RefCell::new(Vec::new()),
            waiting: RefCell::new(None),
            stop: RefCell::new(None),
            told: Cell::new((0, 0)),
            ticker: RefCell::new(None),
        });
        let weak = Rc::downgrade(&long);
        long.ticker.replace(Some(crate::timer::every(TICK_MS, move || {
            if let Some(long) = weak.upgrade() {
                long.tick();
            }
        })));
        Some(long)
    }

    /// The signal's reason if it is aborted already: the call does nothing.
    pub fn aborted_before(&self) -> Option<JsValue> {
        self.signal.as_ref().filter(|s| s.aborted()).map(AbortSignal::reason)
    }

    /// Why the call was stopped, if it was.
    pub fn stopped(&self) -> Option<JsValue> {
        self.stop.borrow().clone()
    }

    fn halt(&self, why: JsValue) {
        if self.stop.borrow().is_none() {
            self.stop.replace(Some(why));
            let waiting = self.waiting.take();
            if let Some(w) = waiting {
                w.wake();
            }
        }
    }

    /// Stops the call if its signal is aborted; whether it is stopped.
    fn look(&self) -> bool {
        if let Some(why) = self.aborted_before() {
            self.halt(why);
        }
        self.stop.borrow().is_some()
    }

    fn tick(&self) {
        self.look();
        self.tell();
        // Looked at after telling too: an `onProgress` that aborts stops the call at once.
        self.look();
    }

    /// Tells `onProgress` how far the call got, if that changed; one that throws stops the call.
    pub fn tell(&self) {
        let (Some(f), None) = (&self.on_progress, self.stopped()) else { return };
        let done = self.done();
        let now = (done, self.total.get().max(done));
        if now.1 == 0 || now == self.told.get() {
            return;
        }
        self.told.set(now);
        let progress = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&progress, &"done".into(), &now.0.into());
        let _ = js_sys::Reflect::set(&progress, &"total".into(), &now.1.into());
        if let Err(e) = f.call1(&JsValue::UNDEFINED, &progress) {
            self.halt(e);
        }
    }

    /// Items done: those of ended transactions and the answered prefix of this one's.
    fn done(&self) -> u32 {
        let reqs = self.reqs.borrow();
        let answered = reqs.partition_point(|(r, _)| r.ready_state() == IdbRequestReadyState::Done);
        self.before.get() + answered.checked_sub(1).map_or(0, |i| reqs[i].1)
    }
}

impl Drop for Long {
    fn drop(&mut self) {
        self.ticker.replace(None);
    }
}

/// Runs `fut` with `long` as the current call's tracker (none: as it is).
pub fn scope<F: Future>(long: Option<Rc<Long>>, fut: F) -> Scoped<F> {
    Scoped { long, fut: Box::pin(fut) }
}

/// A future polled with its tracker current.
#[derive(Debug)]
pub struct Scoped<F> {
    long: Option<Rc<Long>>,
    fut: Pin<Box<F>>,
}

impl<F: Future> Future for Scoped<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let outer = CURRENT.with(|c| c.replace(self.long.clone()));
        let out = self.fut.as_mut().poll(cx);
        CURRENT.with(|c| c.replace(outer));
        out
    }
}

fn with(f: impl FnOnce(&Long)) {
    CURRENT.with(|c| {
        if let Some(long) = c.borrow().as_ref() {
            f(long);
        }
    });
}

/// The runner began a transaction: requests noted from now are its (those of an earlier one that
/// did not end with [`ended`] are not counted: it aborted, a write retried it).
pub fn began() {
    with(|l| l.reqs.borrow_mut().clear());
}

/// `fut`'s output, or [`Error::Aborted`] once the current call is stopped, even if `fut` is
/// ready (it is then dropped).
pub async fn or_stopped<F: Future>(fut: F) -> Result<F::Output> {
    let mut fut = std::pin::pin!(fut);
    std::future::poll_fn(|cx| {
        let mut stopped = false;
        with(|l| {
            stopped = l.stopped().is_some();
            l.waiting.replace(Some(cx.waker().clone()));
        });
        if stopped {
            return Poll::Ready(Err(Error::Aborted));
        }
        fut.as_mut().poll(cx).map(Ok)
    })
    .await
}

/// The runner made `req`, which writes (or reads) `items` of the call's items.
pub fn track(req: &IdbRequest, items: u32) {
    with(|l| {
        let mut reqs = l.reqs.borrow_mut();
        let upto = reqs.last().map_or(0, |r| r.1) + items;
        reqs.push((req.clone(), upto));
    });
}

/// The transaction under way committed: its items are done.
pub fn ended() {
    with(|l| {
        l.before.set(l.done());
        l.reqs.borrow_mut().clear();
    });
}

/// `n` more items done outside any noted request (a batch removed, a page read).
pub fn advance(n: u32) {
    with(|l| l.before.set(l.before.get() + n));
}

/// The call has `n` items in all.
pub fn total(n: u32) {
    with(|l| l.total.set(n));
}

/// Whether the current call has a tracker (work done only for one, a count, is skipped without).
pub fn tracked() -> bool {
    CURRENT.with(|c| c.borrow().is_some())
}

/// The current call's signal (`undefined` without one), for the JS that reads a stream for it.
pub fn signal() -> JsValue {
    CURRENT.with(|c| c.borrow().as_ref().and_then(|l| l.signal.clone()).map_or(JsValue::UNDEFINED, JsValue::from))
}

/// Between batches: an error once the call was stopped.
pub fn check() -> Result<()> {
    let mut stopped = false;
    with(|l| stopped = l.look());
    if stopped {
        Err(Error::Aborted)
    } else {
        Ok(())
    }
}
