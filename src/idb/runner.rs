//! The request runner: every transaction the store begins, every request it awaits and every
//! commit it waits for goes through [`Run`], on indexed_db_futures, with the watchdog inside.
//!
//! A transaction that gets no answer within `timeoutMs` (another context holding a long
//! transaction on the database, or a stuck browser) is aborted and the call rejects with a
//! `TimeoutError`, instead of leaving the store hanging forever. A transaction that has answered
//! once is running: busy, not stuck, and never aborted for being slow (a 1 000 000-entry
//! `setMany` commits for minutes). So a write that touches more than one record starts with a
//! probe request, whose answer says the browser runs it.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use indexed_db_futures::future::BasicRequest;
use indexed_db_futures::internals::SystemRepr;
use indexed_db_futures::object_store::ObjectStore;
use indexed_db_futures::prelude::*;
use indexed_db_futures::transaction::{Transaction, TransactionMode};
use indexed_db_futures::KeyRange;
use wasm_bindgen::prelude::*;
use web_sys::IdbRequest;

use super::{idb_to_js, storage_error, Conn};
use crate::core::error::{Error, Result};
use crate::timer::{deadline, Deadline};

/// One transaction of a call, begun by [`Conn::begin`].
#[derive(Debug)]
pub(super) struct Run<'c> {
    conn: &'c Conn,
    /// Names the call in errors ("while writing").
    pub op: &'c str,
    tx: Transaction<'c>,
    write: bool,
    /// It has answered a request: no deadline applies any more.
    running: Cell<bool>,
    probe: Option<BasicRequest<u32>>,
}

/// How a request answered: its result, or the error it failed with (the transaction aborts
/// unless the error event was cancelled).
pub(super) type Answer = std::result::Result<JsValue, JsValue>;

impl Conn {
    /// Begins a transaction on `names`; readwrite when `write`. `work` is how many records it
    /// may touch (`u32::MAX`: unknown): a write touching more than one gets the probe.
    pub(super) fn begin<'c>(&'c self, op: &'c str, names: &[&str], write: bool, work: u32) -> Result<Run<'c>> {
        let mut run = self.begin_as(op, names, write)?;
        // Firefox makes the first readwrite transaction after a quota refusal a "cleanup" one,
        // where every put throws: it is left to end on its own, empty (which gives the refused
        // write's space back), and a new one is begun.
        if write && js_sys::Reflect::get(run.tx.as_sys(), &"mode".into()).ok().and_then(|m| m.as_string()).as_deref() == Some("cleanup") {
            run.tx.commit_now();
            run = self.begin_as(op, names, write)?;
        }
        if write && work > 1 {
            let store = run.store(names[0])?;
            // A key no record has: the cheapest request there is.
            let probe = store.count().with_query::<JsValue, _>(KeyRange::Only(JsValue::from_f64(f64::NEG_INFINITY))).primitive();
            run.probe = Some(run.check(probe)?);
        }
        Ok(run)
    }

    /// A readwrite transaction as the browser gives it, Firefox's "cleanup" one included: for
    /// evicting after a quota refusal, which is what that transaction is for.
    pub(super) fn begin_as_is<'c>(&'c self, op: &'c str, names: &[&str]) -> Result<Run<'c>> {
        self.begin_as(op, names, true)
    }

    fn begin_as<'c>(&'c self, op: &'c str, names: &[&str], write: bool) -> Result<Run<'c>> {
        let mode = if write { TransactionMode::Readwrite } else { TransactionMode::Readonly };
        let tx = self.db.transaction(names).with_mode(mode).build().map_err(|e| storage_error(&self.name, op, idb_to_js(e)))?;
        Ok(Run { conn: self, op, tx, write, running: Cell::new(false), probe: None })
    }
}

trait CommitNow {
    fn commit_now(self);
}

impl CommitNow for Transaction<'_> {
    /// Asks the transaction to commit once its requests are done, without waiting for it (and
    /// so without the abort that dropping it unfinished means).
    fn commit_now(self) {
        let mut commit = std::pin::pin!(self.commit());
        let _ = commit.as_mut().poll(&mut Context::from_waker(std::task::Waker::noop()));
    }
}

impl<'c> Run<'c> {
    /// Object store `name` of the transaction.
    pub fn store(&self, name: &str) -> Result<ObjectStore<'_>> {
        self.tx.object_store(name).map_err(|e| self.error(idb_to_js(e)))
    }

    /// A request as built by indexed_db_futures, or the error it was refused with (a put whose
    /// value cannot be cloned, a bad key), as the JS value thrown.
    pub fn check<T>(&self, req: indexed_db_futures::Result<T>) -> Result<T> {
        req.map_err(|e| self.error(idb_to_js(e)))
    }

    /// The same, with the thrown value as it is, for the caller to name.
    pub fn thrown<T>(req: indexed_db_futures::Result<T>) -> std::result::Result<T, JsValue> {
        req.map_err(idb_to_js)
    }

    /// Waits for `req` (and so for every request of the transaction made before it: IndexedDB
    /// answers them in order) under the watchdog; its result, or its error as a storage error.
    pub async fn wait<F, T>(&self, req: &mut F) -> Result<JsValue>
    where
        F: Future<Output = indexed_db_futures::Result<T>> + Unpin + SystemRepr<Repr = IdbRequest>,
    {
        let answer = self.settle(req).await?;
        answer.map_err(|e| self.error(e))
    }

    /// Like [`Run::wait`], but a request that failed is an answer, not an error: for a request
    /// whose error event is cancelled, so that its transaction lives on.
    pub async fn settle<F, T>(&self, req: &mut F) -> Result<Answer>
    where
        F: Future<Output = indexed_db_futures::Result<T>> + Unpin + SystemRepr<Repr = IdbRequest>,
    {
        let _ = self.watch(req).await?;
        Ok(answer_of(req.as_sys()))
    }

    /// The records or keys a `getAll`/`getAllKeys` request read, awaited under the watchdog.
    pub async fn all(&self, req: &mut req::All) -> Result<js_sys::Array> {
        let read = self.watch(req).await?;
        Ok(read.map_err(|e| self.error(idb_to_js(e)))?.flatten().collect())
    }

    /// The same, for a request that has answered already (one before the request awaited).
    pub fn all_ready(&self, req: &mut req::All) -> Result<js_sys::Array> {
        match ready(req) {
            Some(read) => Ok(read.map_err(|e| self.error(idb_to_js(e)))?.flatten().collect()),
            None => Ok(js_sys::Array::new()),
        }
    }

    /// Any of indexed_db_futures' futures (a cursor's), awaited under the watchdog.
    pub async fn watch<F: Future + Unpin>(&self, req: &mut F) -> Result<F::Output> {
        let out = Watch { req, run: self, deadline: None }.await?;
        self.running.set(true);
        Ok(out)
    }

    /// Waits for the transaction to commit (a write) or lets it end on its own (a read, which
    /// needs no commit). A write commits once it has answered a request (the probe, if it
    /// answered nothing else): a transaction that never starts is aborted by the watchdog
    /// rather than left committing forever.
    pub async fn done(mut self) -> Result<()> {
        if !self.write {
            self.tx.commit_now();
            return Ok(());
        }
        if !self.running.get() {
            let mut probe = match self.probe.take() {
                Some(probe) => probe,
                None => {
                    let first = self.tx.as_sys().object_store_names().get(0).unwrap_or_default();
                    let store = self.store(&first)?;
                    self.check(store.count().with_query::<JsValue, _>(KeyRange::Only(JsValue::from_f64(f64::NEG_INFINITY))).primitive())?
                }
            };
            self.wait(&mut probe).await?;
        }
        let Run { conn, op, tx, .. } = self;
        let sys = tx.as_sys().clone();
        match tx.commit().await {
            Ok(()) => Ok(()),
            // Why it aborted (a quota refusal, a request's error), else what the commit said.
            Err(e) => Err(storage_error(&conn.name, op, sys.error().map_or_else(|| idb_to_js(e), JsValue::from))),
        }
    }

    /// Ends a write that wrote nothing: committed without waiting (aborting one costs Chromium
    /// more than letting it commit).
    pub fn wrote_nothing(self) {
        self.tx.commit_now();
    }

    /// A storage error of this call.
    pub fn error(&self, e: JsValue) -> Error {
        storage_error(&self.conn.name, self.op, e)
    }

    /// Aborts the transaction because it did not answer within `timeoutMs`.
    fn time_out(&self) -> Error {
        let ms = self.conn.timeout_ms;
        let aborted = self.tx.as_sys().abort().is_ok();
        Error::Timeout {
            op: self.op.into(),
            message: if aborted {
                format!("no answer within {ms} ms; the transaction was aborted, so nothing it wrote was kept")
            } else {
                format!("no answer within {ms} ms; the transaction could not be aborted, so whether its writes were kept is unknown")
            },
        }
    }
}

/// How a finished request answered, read from the request itself.
pub(super) fn answer_of(req: &IdbRequest) -> Answer {
    match req.error() {
        Ok(Some(e)) => Err(e.into()),
        Ok(None) => req.result(),
        Err(e) => Err(e),
    }
}

/// A request awaited under the watchdog: ready when the request answers; an error when the
/// transaction has answered nothing (neither it nor the probe) by its deadline.
struct Watch<'r, 'c, F> {
    req: &'r mut F,
    run: &'r Run<'c>,
    deadline: Option<Deadline>,
}

impl<F: Future + Unpin> Future for Watch<'_, '_, F> {
    type Output = Result<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        if let Poll::Ready(out) = Pin::new(&mut *this.req).poll(cx) {
            return Poll::Ready(Ok(out));
        }
        if this.run.running.get() {
            return Poll::Pending;
        }
        let ms = this.run.conn.timeout_ms;
        let deadline = this.deadline.get_or_insert_with(|| deadline(ms));
        if Pin::new(deadline).poll(cx).is_pending() {
            return Poll::Pending;
        }
        // The probe answered: the browser runs the transaction, which is only slow. The request's
        // own answer wakes this future later.
        if this.run.probe.as_ref().is_some_and(|p| p.as_sys().ready_state() == web_sys::IdbRequestReadyState::Done) {
            this.run.running.set(true);
            return Poll::Pending;
        }
        Poll::Ready(Err(this.run.time_out()))
    }
}

/// The output of a future that has finished already (a request answered before the one
/// awaited), without waiting.
pub(super) fn ready<F: Future + Unpin>(f: &mut F) -> Option<F::Output> {
    match Pin::new(f).poll(&mut Context::from_waker(std::task::Waker::noop())) {
        Poll::Ready(out) => Some(out),
        Poll::Pending => None,
    }
}

/// The requests the store makes, each one of indexed_db_futures' futures, with keys, ranges and
/// results as JS values (records are converted by serde-wasm-bindgen where they are read).
pub(super) mod req {
    use indexed_db_futures::future::{BasicRequest, GetAllPrimitiveRequest, VoidRequest};
    use indexed_db_futures::internals::{QuerySourceInternal, SystemRepr};
    use indexed_db_futures::object_store::ObjectStore;
    use indexed_db_futures::prelude::*;
    use indexed_db_futures::{KeyRange, Result};
    use wasm_bindgen::prelude::*;

    /// A record (or its primary key, for `get_key`) by key or first in a range.
    pub type One = BasicRequest<Option<JsValue>>;
    /// Records or primary keys in a range.
    pub type All = GetAllPrimitiveRequest<JsValue>;

    /// `[lower, upper]`, bounds open as told.
    pub fn range(lower: JsValue, lower_open: bool, upper: JsValue, upper_open: bool) -> KeyRange<JsValue> {
        KeyRange::Bound(lower, lower_open, upper, upper_open)
    }

    pub fn get<Q: SystemRepr<Repr = S>, S: QuerySourceInternal>(qs: &Q, key: JsValue) -> Result<One> {
        qs.get::<JsValue, JsValue, _>(key).primitive()
    }

    pub fn get_key<Q: SystemRepr<Repr = S>, S: QuerySourceInternal>(qs: &Q, key: JsValue) -> Result<One> {
        qs.get_key::<JsValue, _>(key).primitive()
    }

    /// Every record in `range` (all of them with `None`), at most `limit`.
    pub fn get_all<Q: SystemRepr<Repr = S>, S: QuerySourceInternal>(qs: &Q, range: Option<KeyRange<JsValue>>, limit: Option<u32>) -> Result<All> {
        match (range, limit) {
            (None, None) => qs.get_all::<JsValue>().primitive(),
            (None, Some(n)) => qs.get_all::<JsValue>().with_limit(n).primitive(),
            (Some(r), None) => qs.get_all::<JsValue>().with_query::<JsValue, _>(r).primitive(),
            (Some(r), Some(n)) => qs.get_all::<JsValue>().with_query::<JsValue, _>(r).with_limit(n).primitive(),
        }
    }

    /// Every primary key in `range` (all of them with `None`), at most `limit`.
    pub fn get_all_keys<Q: SystemRepr<Repr = S>, S: QuerySourceInternal>(qs: &Q, range: Option<KeyRange<JsValue>>, limit: Option<u32>) -> Result<All> {
        match (range, limit) {
            (None, None) => qs.get_all_keys::<JsValue>().primitive(),
            (None, Some(n)) => qs.get_all_keys::<JsValue>().with_limit(n).primitive(),
            (Some(r), None) => qs.get_all_keys::<JsValue>().with_query::<JsValue, _>(r).primitive(),
            (Some(r), Some(n)) => qs.get_all_keys::<JsValue>().with_query::<JsValue, _>(r).with_limit(n).primitive(),
        }
    }

    /// How many records in `range` (all of them with `None`).
    pub fn count<Q: SystemRepr<Repr = S>, S: QuerySourceInternal>(qs: &Q, range: Option<KeyRange<JsValue>>) -> Result<BasicRequest<u32>> {
        match range {
            None => qs.count().primitive(),
            Some(r) => qs.count().with_query::<JsValue, _>(r).primitive(),
        }
    }

    /// Puts a typed record (in-line key).
    pub fn put<T: serde::Serialize>(store: &ObjectStore<'_>, record: &T) -> Result<VoidRequest> {
        store.put(record).serde()
    }

    /// Puts a JS value under `key` (out-of-line key).
    pub fn put_at(store: &ObjectStore<'_>, value: JsValue, key: JsValue) -> Result<BasicRequest<JsValue>> {
        store.put(value).with_key(key).primitive()
    }

    /// Deletes the record with `key`, or every record in a range.
    pub fn delete(store: &ObjectStore<'_>, key: impl Into<KeyRange<JsValue>>) -> Result<VoidRequest> {
        store.delete::<JsValue, _>(key).primitive()
    }

    pub fn clear(store: &ObjectStore<'_>) -> Result<VoidRequest> {
        store.clear()
    }
}
