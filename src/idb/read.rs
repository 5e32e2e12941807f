//! The reads of entries as data. A read verb ([`Read`]) is synchronous code: given the answers to
//! what it last asked, [`Read::step`] says what to ask of the entries store next ([`Step::Ask`]),
//! what values to decrypt ([`Step::Open`], in a store that encrypts), or what the call resolves
//! to ([`Step::Done`]). One driver, [`Store::read`](crate::store::Store::read), awaits each ask
//! through [`Conn::answer`] and feeds the answers back; none of the verbs awaits anything itself.

use indexed_db_futures::KeyRange;
use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::entries::{count_live, pk_at, pk_expiry, pk_of};
use super::records::EntryRecord;
use super::runner::Ask;
use super::schema::{BY_KEY, ENTRIES};
use super::Conn;
use crate::core::entry::{is_live, ms_to_secs, Expiry, NEVER_MS};
use crate::core::error::Result;
use crate::core::read::{By, KeyReads};

/// A read verb, and how far it got.
#[derive(Debug)]
pub struct Read {
    verb: Verb,
    /// Set once its values were handed out to be decrypted: how to shape them when they are back,
    /// and their keys.
    opening: Option<(Shape, Vec<JsValue>)>,
}

#[derive(Debug)]
enum Verb {
    /// `get`, `peek` and `getMany`.
    Values(ByKeys),
    /// `has`, `expiresAt` and `ttl`: the live expiry of a key, as `said` says it.
    Expiry(JsValue, Said),
    /// `ttl(key, { detail: true })`.
    Detail(JsValue),
    /// `keys()`.
    Keys,
    /// `values()` and `entries()`: every live record in key order.
    Listed(Shape),
    /// `count()`.
    Count,
    /// A live view's read (`observe`): the live records of a range of keys (of every key without
    /// one) in key order, or of some keys in their order; idle entries not extended. Then the
    /// records read, while their values are decrypted.
    Seen(Seen, Vec<EntryRecord>),
}

/// What a view reads.
#[derive(Debug)]
pub enum Seen {
    /// A range of keys (every key without one).
    Range(Option<KeyRange<JsValue>>),
    /// These keys.
    Keys(Vec<JsValue>),
}

/// Values read by key: the keys, the rounds of asks ([`KeyReads`], planned again at the first
/// step, when the connection's hints are known) and the records found so far.
#[derive(Debug)]
struct ByKeys {
    keys: Vec<JsValue>,
    /// An idle entry read is extended (`get`, `getMany`; not `peek`).
    use_it: bool,
    shape: Shape,
    plan: KeyReads,
    recs: Vec<JsValue>,
}

/// What a call resolves to, made of the live values it read.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// The value of the one key (`get`, `peek`).
    One,
    /// The values in the order of the keys (`getMany`).
    Many,
    /// The values in key order (`values()`).
    Values,
    /// `[key, value]` pairs in key order (`entries()`).
    Entries,
}

/// What is said of a key's live expiry.
#[derive(Debug, Clone, Copy)]
enum Said {
    /// Whether there is one (`has`).
    Has,
    /// It, in Unix seconds (`expiresAt`).
    At,
    /// The seconds left (`ttl`).
    Left,
}

/// The requests of one step: each ask of the entries store (or of its key index).
#[derive(Debug)]
pub struct Asks {
    op: &'static str,
    asks: Vec<(Option<&'static str>, Ask)>,
}

/// What a read does next.
#[derive(Debug)]
pub enum Step {
    /// Makes these requests in one readonly transaction; their results are the next answers.
    Ask(Asks),
    /// Decrypts these values as stored (of the keys [`Read::opening`] gives); the opened values
    /// are the next answers.
    Open(Vec<JsValue>),
    /// Done.
    Done(Got),
}

/// What a read resolves to.
#[derive(Debug)]
pub enum Got {
    /// The call's result as JavaScript sees it.
    Value(JsValue),
    /// The live entry's expiry with an idle entry's window and cap (`None`: missing or expired),
    /// read at `now`.
    Detail(Option<Expiry>, f64),
    /// A view's live records, their expiry counting an extension due here.
    Records(Vec<EntryRecord>),
}

impl Read {
    fn of(verb: Verb) -> Read {
        Read { verb, opening: None }
    }

    /// `get` (`use_it`: an idle entry read is extended) or `peek`.
    pub fn get(key: JsValue, use_it: bool) -> Read {
        Read::by_keys(vec![key], use_it, Shape::One)
    }

    /// `getMany`.
    pub fn get_many(keys: &Array) -> Read {
        Read::by_keys(keys.to_vec(), true, Shape::Many)
    }

    fn by_keys(keys: Vec<JsValue>, use_it: bool, shape: Shape) -> Read {
        let recs = keys.iter().map(|_| JsValue::UNDEFINED).collect();
        Read::of(Verb::Values(ByKeys { keys, use_it, shape, plan: KeyReads::new(Vec::new()), recs }))
    }

    /// `has`.
    pub fn has(key: JsValue) -> Read {
        Read::of(Verb::Expiry(key, Said::Has))
    }

    /// `expiresAt`: Unix seconds, `null` for no expiry, `undefined` when missing or expired.
    pub fn expires_at(key: JsValue) -> Read {
        Read::of(Verb::Expiry(key, Said::At))
    }

    /// `ttl`: seconds left, `null` for no expiry, `undefined` when missing or expired; with
    /// `detail`, the expiry itself ([`Got::Detail`]).
    pub fn ttl(key: JsValue, detail: bool) -> Read {
        Read::of(if detail { Verb::Detail(key) } else { Verb::Expiry(key, Said::Left) })
    }

    /// `keys()`.
    pub fn keys() -> Read {
        Read::of(Verb::Keys)
    }

    /// `values()`.
    pub fn values() -> Read {
        Read::of(Verb::Listed(Shape::Values))
    }

    /// `entries()`.
    pub fn entries() -> Read {
        Read::of(Verb::Listed(Shape::Entries))
    }

    /// `count()`.
    pub fn count() -> Read {
        Read::of(Verb::Count)
    }

    /// A live view's read.
    pub fn view(seen: Seen) -> Read {
        Read::of(Verb::Seen(seen, Vec::new()))
    }

    /// Back to its first step, to be asked again of a new connection (the browser closed the one
    /// it asked).
    pub fn restart(&mut self) {
        self.opening = None;
        match &mut self.verb {
            Verb::Values(by) => by.recs.fill(JsValue::UNDEFINED),
            Verb::Seen(_, recs) => recs.clear(),
            _ => {}
        }
    }

    /// Whether the read may have noted extensions of idle entries (written soon after).
    pub fn extends(&self) -> bool {
        match &self.verb {
            Verb::Values(by) => by.use_it,
            Verb::Listed(_) => true,
            _ => false,
        }
    }

    /// The next step, given the answers to the last one (`None` at the first), at `now`, on `conn`
    /// (its hints and the extensions it has due); `sealed`: the store encrypts its values.
    pub fn step(&mut self, conn: &Conn, answers: Option<Vec<JsValue>>, now: f64, sealed: bool) -> Result<Step> {
        if let Some((shape, keys)) = self.opening.take() {
            let values = answers.unwrap_or_default();
            if let Verb::Seen(_, recs) = &mut self.verb {
                let mut recs = std::mem::take(recs);
                for (r, v) in recs.iter_mut().zip(values) {
                    r.v = v;
                }
                // A record whose decryption key is gone is not shown.
                recs.retain(|r| !is_gone(&r.v));
                return Ok(Step::Done(Got::Records(recs)));
            }
            return Ok(done(shape.of(values, keys, true)));
        }
        let Some(mut answers) = answers else { return Ok(Step::Ask(self.verb.first(conn, now))) };
        let (keys, values, shape) = match &mut self.verb {
            Verb::Values(by) => {
                let plan = &mut by.plan;
                let found: Vec<bool> = answers.iter().map(|r| !r.is_undefined()).collect();
                let (round, again) = plan.answered(&found);
                for (i, rec) in round.into_iter().zip(answers) {
                    by.recs[i] = rec;
                }
                if again {
                    return Ok(Step::Ask(by.asks(by.op())));
                }
                let mut values = Vec::with_capacity(by.keys.len());
                for (i, (k, rec)) in by.keys.iter().zip(std::mem::take(&mut by.recs)).enumerate() {
                    values.push(conn.live_value(k, rec, plan.hint(i), now, by.use_it)?);
                }
                (std::mem::take(&mut by.keys), values, by.shape)
            }
            Verb::Expiry(key, said) => {
                let pk = answers.pop().unwrap_or_default();
                let e = (!pk.is_undefined()).then(|| conn.counting_due(key, pk_expiry(&pk))).filter(|&e| is_live(e, now));
                let secs = |e: f64, from: f64| if e == NEVER_MS { JsValue::NULL } else { JsValue::from_f64(ms_to_secs(e - from)) };
                return Ok(done(match (e, said) {
                    (e, Said::Has) => e.is_some().into(),
                    (None, _) => JsValue::UNDEFINED,
                    (Some(e), Said::At) => secs(e, 0.0),
                    (Some(e), Said::Left) => secs(e, now),
                }));
            }
            Verb::Detail(key) => {
                let rec = answers.pop().unwrap_or_default();
                if rec.is_undefined() {
                    return Ok(Step::Done(Got::Detail(None, now)));
                }
                return Ok(Step::Done(Got::Detail(conn.current(key, EntryRecord::read(&rec)?, now).map(|c| c.x), now)));
            }
            Verb::Keys => {
                let pks: Array = answers.pop().unwrap_or_default().unchecked_into();
                return Ok(done(pks.iter().filter(|pk| is_live(pk_expiry(pk), now)).map(|pk| pk_at(&pk, 1)).collect::<Array>().into()));
            }
            Verb::Listed(shape) => {
                let all: Array = answers.pop().unwrap_or_default().unchecked_into();
                let (mut keys, mut values) = (Vec::new(), Vec::new());
                for r in all.iter() {
                    let r = EntryRecord::read(&r)?;
                    if conn.live_read(&r.k, &r.expiry(), now, true) {
                        keys.push(r.k);
                        values.push(r.v);
                    }
                }
                (keys, values, *shape)
            }
            Verb::Count => return Ok(done(JsValue::from(answers.pop().and_then(|n| n.as_f64()).unwrap_or(0.0) as u32))),
            Verb::Seen(seen, recs) => {
                if let Seen::Range(_) = seen {
                    answers = answers.pop().unwrap_or_default().unchecked_into::<Array>().to_vec();
                }
                for r in answers.into_iter().filter(|r| !r.is_undefined()) {
                    let mut r = EntryRecord::read(&r)?;
                    r.e = conn.counting_due(&r.k, r.e);
                    if is_live(r.e, now) {
                        recs.push(r);
                    }
                }
                if !sealed {
                    return Ok(Step::Done(Got::Records(std::mem::take(recs))));
                }
                (recs.iter().map(|r| r.k.clone()).collect(), recs.iter().map(|r| r.v.clone()).collect(), Shape::Many)
            }
        };
        if sealed {
            self.opening = Some((shape, keys));
            return Ok(Step::Open(values));
        }
        Ok(done(shape.of(values, keys, false)))
    }

    /// The keys of the values a [`Step::Open`] hands out.
    pub fn opening(&self) -> &[JsValue] {
        self.opening.as_ref().map_or(&[], |(_, keys)| keys)
    }
}

fn done(v: JsValue) -> Step {
    Step::Done(Got::Value(v))
}

impl Verb {
    /// The first asks.
    fn first(&mut self, conn: &Conn, now: f64) -> Asks {
        let one = |op, index, ask| Asks { op, asks: vec![(index, ask)] };
        match self {
            Verb::Values(by) => {
                by.plan = KeyReads::new(by.keys.iter().map(|k| conn.hinted(k)).collect());
                by.asks(by.op())
            }
            Verb::Expiry(key, _) => one("reading an expiry", Some(BY_KEY), Ask::GetKey(key.clone())),
            Verb::Detail(key) => one("reading an expiry", Some(BY_KEY), Ask::Get(key.clone())),
            Verb::Keys => one("listing keys", Some(BY_KEY), Ask::Keys(None, None)),
            Verb::Listed(Shape::Entries) => one("listing entries", Some(BY_KEY), Ask::All(None, None)),
            Verb::Listed(_) => one("listing values", Some(BY_KEY), Ask::All(None, None)),
            Verb::Count => one("counting", None, count_live(now)),
            Verb::Seen(Seen::Range(range), _) => one("reading a view", Some(BY_KEY), Ask::All(range.clone(), None)),
            Verb::Seen(Seen::Keys(keys), _) => Asks { op: "reading a view", asks: keys.iter().map(|k| (Some(BY_KEY), Ask::Get(k.clone()))).collect() },
        }
    }
}

impl ByKeys {
    fn op(&self) -> &'static str {
        match self.shape {
            Shape::One => "reading an entry",
            _ => "reading entries",
        }
    }

    /// The asks of the plan's round.
    fn asks(&self, op: &'static str) -> Asks {
        let asks = self
            .plan
            .asks()
            .map(|(i, by)| match by {
                By::Primary(e) => (None, Ask::Get(pk_of(e, &self.keys[i]))),
                By::Index => (Some(BY_KEY), Ask::Get(self.keys[i].clone())),
            })
            .collect();
        Asks { op, asks }
    }
}

/// A value that decryption gave for a record whose key is gone.
fn is_gone(v: &JsValue) -> bool {
    v.is_undefined()
}

impl Shape {
    /// The call's result from the live `values` read (and, listing, their `keys`). `opened`: they
    /// were decrypted, and a listing leaves out those whose decryption key is gone.
    fn of(self, mut values: Vec<JsValue>, keys: Vec<JsValue>, opened: bool) -> JsValue {
        let kept = |v: &JsValue| !(opened && is_gone(v));
        match self {
            Shape::One => values.pop().unwrap_or_default(),
            Shape::Many => values.into_iter().collect::<Array>().into(),
            Shape::Values => values.into_iter().filter(kept).collect::<Array>().into(),
            Shape::Entries => keys.iter().zip(values).filter(|(_, v)| kept(v)).map(|(k, v)| JsValue::from(Array::of2(k, &v))).collect::<Array>().into(),
        }
    }
}

impl Conn {
    /// Makes a read's asks in one readonly transaction of the entries store: their results, in
    /// order.
    pub async fn answer(&self, asks: Asks) -> Result<Vec<JsValue>> {
        self.read(asks.op, ENTRIES, asks.asks).await
    }
}
