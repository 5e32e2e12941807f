//! The request runner: every transaction the store begins, every request it awaits and every
//! commit it waits for goes through [`Run`], on indexed_db_futures, with the watchdog inside.
//!
//! A transaction that gets no answer within `timeoutMs` (another context holding a long
//! transaction on the database, or a stuck browser) is aborted and the call rejects with a
//! `TimeoutError`, instead of leaving the store hanging forever. A transaction that has answered
//! once is running: busy, not stuck, and never aborted for being slow (a 1 000 000-entry
//! `setMany` commits for minutes). So every write's first request is a probe, whose answer says
//! the browser runs it; the write is asked to commit only then (`Run::done`). One that has not
//! answered when the browser closes the connection is given up at once (it looks every
//! [`LOST_LOOK_MS`]): the store reads again on a new connection, a write rejects.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use indexed_db_futures::future::{BasicRequest, VoidRequest};
use indexed_db_futures::internals::{QuerySourceInternal, SystemRepr};
use indexed_db_futures::object_store::ObjectStore;
use indexed_db_futures::prelude::*;
use indexed_db_futures::transaction::{Transaction, TransactionMode};
use indexed_db_futures::KeyRange;
use wasm_bindgen::prelude::*;
use web_sys::IdbRequest;

use super::{idb_to_js, storage_error, Conn};
use crate::core::error::{Error, Result};
use crate::timer::{clock_ms, deadline, Deadline};

/// One transaction of a call, begun by [`Conn::begin`].
#[derive(Debug)]
pub(super) struct Run<'c> {
    /// The database's name, for errors.
    name: &'c str,
    /// How long the transaction may answer nothing before it is aborted (`timeoutMs`).
    timeout_ms: u32,
    /// The browser closed the connection ([`Conn::lost`]).
    lost: &'c Cell<bool>,
    /// Names the call in errors ("while writing").
    pub op: &'c str,
    /// The transaction; `None` once asked to commit (then no more requests can be made).
    tx: Option<Transaction<'c>>,
    /// The same transaction, to abort it or read why it failed.
    sys: web_sys::IdbTransaction,
    write: bool,
    /// It has answered a request: no deadline applies any more.
    running: Cell<bool>,
    probe: RefCell<Option<Req<'static>>>,
}

/// How a request answered: its result, or the error it failed with (the transaction aborts
/// unless the error event was cancelled).
pub(super) type Answer = std::result::Result<JsValue, JsValue>;

impl Conn {
    /// Begins a transaction on `names`; readwrite when `write`. A write that will touch records
    /// (`work` > 0; `u32::MAX`: unknown) gets the probe as its first request; with 0 the caller
    /// makes its first request the probe ([`Run::probe_with`], [`Run::ensure_probe`]).
    pub(super) fn begin<'c>(&'c self, op: &'c str, names: &[&str], write: bool, work: u32) -> Result<Run<'c>> {
        let mut run = self.begin_as(op, names, write)?;
        // Firefox makes the first readwrite transaction after a quota refusal a "cleanup" one,
        // where every put throws: it is left to end on its own, empty (which gives the refused
        // write's space back), and a new one is begun.
        if write && js_sys::Reflect::get(&run.sys, &"mode".into()).ok().and_then(|m| m.as_string()).as_deref() == Some("cleanup") {
            run.commit_now();
            run = self.begin_as(op, names, write)?;
        }
        if write && work > 0 {
            run.ensure_probe(&run.store(names[0])?)?;
        }
        Ok(run)
    }

    /// A readwrite transaction as the browser gives it, without the watchdog's probe: Firefox's
    /// "cleanup" one included, for evicting after a quota refusal (what that transaction is for),
    /// and for the Blob probe (its put must be the transaction's only request).
    pub(super) fn begin_as_is<'c>(&'c self, op: &'c str, names: &[&str]) -> Result<Run<'c>> {
        self.begin_as(op, names, true)
    }

    fn begin_as<'c>(&'c self, op: &'c str, names: &[&str], write: bool) -> Result<Run<'c>> {
        Run::begin_on(self, op, names, write)
    }
}

impl Conn {
    /// One read: `ask` of object store `name` (or its index `index`), in a transaction of its own.
    pub(super) async fn ask(&self, op: &'static str, name: &'static str, index: Option<&'static str>, ask: Ask) -> Result<JsValue> {
        let mut answers = self.read(op, name, vec![(index, ask)]).await?;
        Ok(answers.pop().unwrap_or(JsValue::UNDEFINED))
    }

    /// Reads in a readonly transaction on object store `name`, each of `asks` of the store or of
    /// one of its indexes, all made at once: their results, in order. The transaction is asked
    /// to commit as soon as the requests are made, so it ends on its own once they have
    /// answered.
    pub(super) async fn read(&self, op: &'static str, name: &'static str, asks: Vec<(Option<&'static str>, Ask)>) -> Result<Vec<JsValue>> {
        let mut run = self.begin(op, &[name], false, 0)?;
        let mut reqs = Vec::with_capacity(asks.len());
        {
            let store = run.store(name)?;
            for (index, ask) in asks {
                reqs.push(match index {
                    Some(index) => run.ask(&run.check(store.index(index))?, ask)?,
                    None => run.ask(&store, ask)?,
                });
            }
        }
        run.commit_now();
        run.results(&mut reqs).await
    }

    /// One change: the records of object store `name` in `range` deleted (all of them without
    /// one), in a transaction of its own. A failed delete fails the commit.
    pub(super) async fn change(&self, op: &str, name: &str, range: Option<KeyRange<JsValue>>) -> Result<()> {
        let run = self.begin(op, &[name], true, u32::MAX)?;
        let store = run.store(name)?;
        match range {
            Some(range) => run.delete(&store, range)?,
            None => run.clear(&store)?.track(1),
        };
        run.done().await
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
    fn begin_on(conn: &'c Conn, op: &'c str, names: &[&str], write: bool) -> Result<Run<'c>> {
        let (db, name, timeout_ms) = (&conn.db, &conn.name, conn.timeout_ms);
        let mode = if write { TransactionMode::Readwrite } else { TransactionMode::Readonly };
        // One store by its name: no array of names to build.
        let tx = match names {
            [one] => db.transaction(*one).with_mode(mode).build(),
            _ => db.transaction(names).with_mode(mode).build(),
        };
        let tx = tx.map_err(|e| storage_error(name, op, idb_to_js(e)))?;
        let sys: web_sys::IdbTransaction = (**tx.as_sys()).clone();
        crate::long::began();
        Ok(Run { name, timeout_ms, lost: &conn.lost, op, tx: Some(tx), sys, write, running: Cell::new(false), probe: RefCell::new(None) })
    }

    /// Makes sure a write has its probe before its next request: a count of a key no record has
    /// on `store`, the cheapest request there is, whose answer says the browser runs the
    /// transaction.
    pub fn ensure_probe(&self, store: &ObjectStore<'_>) -> Result<()> {
        if self.probe.borrow().is_none() {
            let probe = self.ask(store, Ask::Count(Some(nothing())))?;
            *self.probe.borrow_mut() = Some(probe);
        }
        Ok(())
    }

    /// Makes `req`, the transaction's first request, its probe (unless it has one).
    pub fn probe_with(&self, req: Req<'static>) {
        let mut probe = self.probe.borrow_mut();
        if probe.is_none() {
            *probe = Some(req);
        }
    }

    /// Object store `name` of the transaction.
    pub fn store(&self, name: &str) -> Result<ObjectStore<'_>> {
        let Some(tx) = &self.tx else { return Err(self.error(JsValue::from_str("the transaction was asked to commit already"))) };
        tx.object_store(name).map_err(|e| self.error(idb_to_js(e)))
    }

    /// A request as built by indexed_db_futures, or the error it was refused with (a put whose
    /// value cannot be cloned, a bad key), as a storage error.
    pub fn check<T>(&self, req: indexed_db_futures::Result<T>) -> Result<T> {
        req.map_err(|e| self.error(idb_to_js(e)))
    }

    /// Asks `on` (an object store or an index of the transaction) for something.
    pub fn ask<Q: SystemRepr<Repr = S>, S: QuerySourceInternal>(&self, on: &Q, ask: Ask) -> Result<Req<'static>> {
        self.check(ask.issue(on))
    }

    /// The last record of `on` in `range`, read through a cursor going backwards: `[record,
    /// primary key]`, `undefined` if there is none.
    pub fn last<'q, Q: SystemRepr<Repr = S>, S: QuerySourceInternal>(&self, on: &'q Q, range: KeyRange<JsValue>) -> Result<Req<'q>> {
        use indexed_db_futures::cursor::CursorDirection;
        let r = self.check(on.open_cursor().with_query::<JsValue, _>(range).with_direction(CursorDirection::Prev).primitive())?;
        Ok(Req::of(None, async move {
            Ok(match r.await? {
                Some(c) => {
                    let sys: &web_sys::IdbCursorWithValue = c.as_sys().unchecked_ref();
                    js_sys::Array::of2(&sys.value()?, &sys.primary_key()?).into()
                }
                None => JsValue::UNDEFINED,
            })
        }))
    }

    /// Puts a typed record into `store` (in-line key); what the put threw (a value that cannot be
    /// cloned) comes back as it is, for the caller to name the value.
    pub fn put<T: serde::Serialize>(&self, store: &ObjectStore<'_>, record: &T) -> std::result::Result<Req<'static>, JsValue> {
        Ok(Req::void(store.put(record).serde().map_err(idb_to_js)?))
    }

    /// Puts a JS value into `store` under `key` (out-of-line key).
    pub fn put_at(&self, store: &ObjectStore<'_>, value: JsValue, key: JsValue) -> Result<Req<'static>> {
        let put = self.check(store.put(value).with_key(key).primitive())?;
        Ok(Req::new(put.as_sys().clone(), put))
    }

    /// Deletes the record with `key`, or every record in a range.
    pub fn delete(&self, store: &ObjectStore<'_>, key: impl Into<KeyRange<JsValue>>) -> Result<Req<'static>> {
        self.delete_in(store, key.into())
    }

    /// [`Run::delete`] with its key made a range: one copy of the code for keys and ranges.
    fn delete_in(&self, store: &ObjectStore<'_>, range: KeyRange<JsValue>) -> Result<Req<'static>> {
        Ok(Req::void(self.check(store.delete::<JsValue, _>(range).primitive())?))
    }

    /// Deletes every record of `store`.
    pub fn clear(&self, store: &ObjectStore<'_>) -> Result<Req<'static>> {
        Ok(Req::void(self.check(store.clear())?))
    }

    /// Waits for `req` (and so for every request of the transaction made before it: IndexedDB
    /// answers them in order) under the watchdog; its result, or its error as a storage error.
    pub async fn wait(&self, req: &mut Req<'_>) -> Result<JsValue> {
        let answer = self.settle(req).await?;
        answer.map_err(|e| self.error(e))
    }

    /// Like [`Run::wait`], but a request that failed is an answer, not an error: for a request
    /// whose error event is cancelled, so that its transaction lives on.
    pub async fn settle(&self, req: &mut Req<'_>) -> Result<Answer> {
        let answer = Watch { req: &mut *req, run: self, deadline: None, until: None, last_turn: false }.await?;
        self.running.set(true);
        Ok(answer)
    }

    /// The answers of `reqs`, made in this order: the last one awaited, the others read as they
    /// are (it answering means every one before it has).
    pub async fn answers(&self, reqs: &mut [Req<'_>]) -> Result<Vec<Answer>> {
        let Some((last, before)) = reqs.split_last_mut() else { return Ok(Vec::new()) };
        let last = self.settle(last).await?;
        let mut answers: Vec<Answer> = before.iter_mut().map(|r| r.ready().unwrap_or(Ok(JsValue::UNDEFINED))).collect();
        answers.push(last);
        Ok(answers)
    }

    /// [`Run::answers`] where every request must succeed: their results.
    pub async fn results(&self, reqs: &mut [Req<'_>]) -> Result<Vec<JsValue>> {
        let mut results = Vec::with_capacity(reqs.len());
        for a in self.answers(reqs).await? {
            results.push(a.map_err(|e| self.error(e))?);
        }
        Ok(results)
    }

    /// Asks the transaction to commit once the requests made so far have answered, without
    /// waiting for it: no more requests can be made. Early, while they are still pending, this
    /// costs Chromium a fraction of what it costs once they have answered (docs/contributing/benchmark-notebook.md);
    /// and the transaction is not aborted when dropped.
    pub fn commit_now(&mut self) {
        if let Some(tx) = self.tx.take() {
            tx.commit_now();
        }
    }

    /// Waits for a write to commit. It is asked to commit once it has answered a request (the
    /// probe, its first, if nothing else was awaited): a transaction that never starts is aborted
    /// by the watchdog rather than committed blind, and one that runs is asked while its later
    /// requests are still pending, the cheapest moment (docs/contributing/benchmark-notebook.md). A read is asked to
    /// commit and not waited for.
    pub async fn done(mut self) -> Result<()> {
        if !self.write {
            self.commit_now();
            return Ok(());
        }
        if !self.running.get() {
            let probe = self.probe.get_mut().take();
            let mut probe = match probe {
                Some(probe) => probe,
                None => self.count_nothing()?,
            };
            self.wait(&mut probe).await?;
        }
        if crate::long::tracked() && self.tx.is_some() {
            // Long work stays abortable until every request answered (a transaction asked to
            // commit cannot be aborted): a request made last answers after all the others.
            let mut last = self.count_nothing()?;
            // Stopped meanwhile: returning drops the transaction uncommitted, which aborts it.
            crate::long::or_stopped(self.wait(&mut last)).await??;
        }
        let Some(tx) = self.tx.take() else { return Ok(()) };
        match tx.commit().await {
            Ok(()) => {
                crate::long::ended();
                Ok(())
            }
            // Why it aborted (a quota refusal, a request's error), else what the commit said.
            Err(e) => Err(storage_error(self.name, self.op, self.sys.error().map_or_else(|| idb_to_js(e), JsValue::from))),
        }
    }

    /// The probe's request on the transaction's first object store: it answers once every
    /// request made before it has.
    fn count_nothing(&self) -> Result<Req<'static>> {
        let first = self.sys.object_store_names().get(0).unwrap_or_default();
        self.ask(&self.store(&first)?, Ask::Count(Some(nothing())))
    }

    /// Ends a write that wrote nothing: committed without waiting (aborting one costs Chromium
    /// more than letting it commit).
    pub fn wrote_nothing(mut self) {
        self.commit_now();
    }

    /// A storage error of this call.
    pub fn error(&self, e: JsValue) -> Error {
        storage_error(self.name, self.op, e)
    }

    /// Aborts the transaction because it did not answer within `timeoutMs`.
    fn time_out(&self) -> Error {
        let ms = self.timeout_ms;
        let aborted = self.sys.abort().is_ok();
        if !self.write {
            return Error::Timeout { op: self.op.into(), message: format!("no answer within {ms} ms; the read was given up") };
        }
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

/// A key no record has (`-Infinity`): the probe counts it, the cheapest request there is.
fn nothing() -> KeyRange<JsValue> {
    KeyRange::Only(JsValue::from_f64(f64::NEG_INFINITY))
}


/// A request awaited under the watchdog: ready when the request answers; an error when the
/// transaction has answered nothing (neither it nor the probe) by its deadline.
struct Watch<'r, 'c, 't> {
    req: &'r mut Req<'t>,
    run: &'r Run<'c>,
    /// The next look.
    deadline: Option<Deadline>,
    /// When `timeoutMs` has passed since the first look, on [`crate::timer::clock_ms`]'s clock.
    until: Option<f64>,
    /// The deadline passed once: one more turn of the event loop is given to an answer the
    /// browser already sent (queued behind the timer while this thread was busy).
    last_turn: bool,
}

/// What a transaction that had not answered when the browser closed its connection fails with.
const LOST: &str = "the browser closed the connection (site data cleared, or its storage shut down) before the transaction answered; nothing was done, and the next call opens the database again";

/// How often a transaction that has not answered looks whether the browser closed its
/// connection, ms. Chromium clearing the site's data can close it under a transaction that then
/// never answers nor aborts; the look gives such a transaction up then, not after `timeoutMs`
/// (docs/errors.md).
const LOST_LOOK_MS: u32 = 250;

impl Future for Watch<'_, '_, '_> {
    type Output = Result<Answer>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        if let Poll::Ready(answer) = this.req.poll(cx) {
            return Poll::Ready(Ok(answer));
        }
        if this.run.running.get() {
            return Poll::Pending;
        }
        loop {
            if this.run.lost.get() {
                return Poll::Ready(Err(this.run.error(JsValue::from_str(LOST))));
            }
            let deadline = match &mut this.deadline {
                Some(deadline) => deadline,
                slot => {
                    let now = clock_ms();
                    let left = *this.until.get_or_insert(now + f64::from(this.run.timeout_ms)) - now;
                    if left <= 0.0 {
                        break;
                    }
                    slot.insert(deadline(LOST_LOOK_MS.min(left.ceil() as u32)))
                }
            };
            if Pin::new(deadline).poll(cx).is_pending() {
                return Poll::Pending;
            }
            this.deadline = None;
        }
        // The probe answered: the browser runs the transaction, which is only slow. The request's
        // own answer wakes this future later.
        if this.run.probe.borrow().as_ref().is_some_and(|p| p.sys.as_ref().is_some_and(|s| s.ready_state() == web_sys::IdbRequestReadyState::Done)) {
            this.run.running.set(true);
            return Poll::Pending;
        }
        if !this.last_turn {
            this.last_turn = true;
            let mut turn = crate::timer::deadline(0);
            let _ = Pin::new(&mut turn).poll(cx);
            this.deadline = Some(turn);
            return Poll::Pending;
        }
        Poll::Ready(Err(this.run.time_out()))
    }
}

/// One request of a transaction: one of indexed_db_futures' futures, answering with a JS value
/// (a record, a key, an array of them, a count, `undefined`) or the DOMException it failed with.
pub(super) struct Req<'t> {
    fut: Pin<Box<dyn Future<Output = Answer> + 't>>,
    sys: Option<IdbRequest>,
    answer: Option<Answer>,
}

impl std::fmt::Debug for Req<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Req")
    }
}

impl Req<'static> {
    /// A request that answers nothing (a put, a delete, a clear): one copy of its future for all.
    fn void(r: VoidRequest) -> Self {
        Req::new(r.as_sys().clone(), async move { r.await.map(|()| JsValue::UNDEFINED) })
    }
}

impl<'t> Req<'t> {
    fn new(sys: IdbRequest, fut: impl Future<Output = indexed_db_futures::Result<JsValue>> + 't) -> Self {
        Req::of(Some(sys), fut)
    }

    fn of(sys: Option<IdbRequest>, fut: impl Future<Output = indexed_db_futures::Result<JsValue>> + 't) -> Self {
        Req { fut: Box::pin(async move { fut.await.map_err(idb_to_js) }), sys, answer: None }
    }

    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<Answer> {
        if let Some(answer) = &self.answer {
            return Poll::Ready(answer.clone());
        }
        let answer = std::task::ready!(self.fut.as_mut().poll(cx));
        self.answer = Some(answer.clone());
        Poll::Ready(answer)
    }

    /// The answer of a request that has answered already (one made before the request awaited),
    /// without waiting.
    pub fn ready(&mut self) -> Option<Answer> {
        match self.poll(&mut Context::from_waker(std::task::Waker::noop())) {
            Poll::Ready(answer) => Some(answer),
            Poll::Pending => None,
        }
    }

    /// Counts the request as writing `items` of a long call's items (`long`).
    pub fn track(self, items: u32) -> Self {
        if let Some(sys) = &self.sys {
            crate::long::track(sys, items);
        }
        self
    }

    /// Also calls `listener` on the request's error event, before it reaches the transaction.
    pub fn on_error(&self, listener: &js_sys::Function) {
        if let Some(sys) = &self.sys {
            let _ = sys.add_event_listener_with_callback("error", listener);
        }
    }

    /// Whether it failed with a DOMException named `name`.
    pub fn failed_with(&mut self, name: &str) -> bool {
        matches!(self.ready(), Some(Err(e)) if e.dyn_ref::<web_sys::DomException>().is_some_and(|x| x.name() == name))
    }
}

/// What a request asks of an object store or index, as data.
#[derive(Debug)]
pub(super) enum Ask {
    /// The record with a key (or the first in a range); `undefined` if none.
    Get(JsValue),
    /// The primary key of the record with a key; `undefined` if none.
    GetKey(JsValue),
    /// Every record in a range (all without one), at most a number of them: an array.
    All(Option<KeyRange<JsValue>>, Option<u32>),
    /// Every primary key in a range (all without one), at most a number of them: an array.
    Keys(Option<KeyRange<JsValue>>, Option<u32>),
    /// How many records in a range (all without one).
    Count(Option<KeyRange<JsValue>>),
}

impl Ask {
    fn issue<Q: SystemRepr<Repr = S>, S: QuerySourceInternal>(self, on: &Q) -> indexed_db_futures::Result<Req<'static>> {
        fn one(r: BasicRequest<Option<JsValue>>) -> Req<'static> {
            Req::new(r.as_sys().clone(), async move { r.await.map(|v| v.unwrap_or(JsValue::UNDEFINED)) })
        }
        fn many(r: req::All) -> Req<'static> {
            Req::of(None, async move { r.await.map(|it| it.flatten().collect::<js_sys::Array>().into()) })
        }
        Ok(match self {
            Ask::Get(key) => one(on.get::<JsValue, JsValue, _>(key).primitive()?),
            Ask::GetKey(key) => one(on.get_key::<JsValue, _>(key).primitive()?),
            Ask::All(range, limit) => many(req::get_all(on, range, limit)?),
            Ask::Keys(range, limit) => many(req::get_all_keys(on, range, limit)?),
            Ask::Count(range) => {
                let r = req::count(on, range)?;
                Req::new(r.as_sys().clone(), async move { r.await.map(JsValue::from) })
            }
        })
    }
}

/// The requests the store makes, each one of indexed_db_futures' futures, with keys, ranges and
/// results as JS values (records are converted by serde-wasm-bindgen where they are read).
pub(super) mod req {
    use indexed_db_futures::future::{BasicRequest, GetAllPrimitiveRequest};
    use indexed_db_futures::internals::{GetAllKind, QuerySourceInternal, SystemRepr};
    use indexed_db_futures::query_source::GetAll;
    use indexed_db_futures::prelude::*;
    use indexed_db_futures::{KeyRange, Result};
    use wasm_bindgen::prelude::*;

    /// Records or primary keys in a range.
    pub type All = GetAllPrimitiveRequest<JsValue>;

    /// `[lower, upper]`, bounds open as told.
    pub fn range(lower: JsValue, lower_open: bool, upper: JsValue, upper_open: bool) -> KeyRange<JsValue> {
        KeyRange::Bound(lower, lower_open, upper, upper_open)
    }

    /// Every record in `range` (all of them with `None`), at most `limit`.
    pub fn get_all<Q: SystemRepr<Repr = S>, S: QuerySourceInternal>(qs: &Q, range: Option<KeyRange<JsValue>>, limit: Option<u32>) -> Result<All> {
        limited(qs.get_all::<JsValue>(), range, limit)
    }

    /// Every primary key in `range` (all of them with `None`), at most `limit`.
    pub fn get_all_keys<Q: SystemRepr<Repr = S>, S: QuerySourceInternal>(qs: &Q, range: Option<KeyRange<JsValue>>, limit: Option<u32>) -> Result<All> {
        limited(qs.get_all_keys::<JsValue>(), range, limit)
    }

    /// `getAll(query, count)` or `getAllKeys(query, count)`, both arguments always given, so
    /// that each is one JS import per kind of source, not one per arity: no range is the query
    /// `undefined` (every record) and no limit the count 0 (all of them), as the IndexedDB spec
    /// reads them.
    fn limited<K: GetAllKind, Q: SystemRepr<Repr = S>, S: QuerySourceInternal>(
        all: GetAll<'_, K, Q, JsValue>,
        range: Option<KeyRange<JsValue>>,
        limit: Option<u32>,
    ) -> Result<All> {
        all.with_query::<JsValue, _>(query(range)).with_limit(limit.unwrap_or(0)).primitive()
    }

    /// A range as a request's query: `undefined` (every record) for none.
    fn query(range: Option<KeyRange<JsValue>>) -> KeyRange<JsValue> {
        range.unwrap_or(KeyRange::Only(JsValue::UNDEFINED))
    }

    /// How many records in `range` (all of them with `None`); `count(query)` always given its
    /// query, one import per kind of source.
    pub fn count<Q: SystemRepr<Repr = S>, S: QuerySourceInternal>(qs: &Q, range: Option<KeyRange<JsValue>>) -> Result<BasicRequest<u32>> {
        qs.count().with_query::<JsValue, _>(query(range)).primitive()
    }
}
