//! TTL indexes on collections (MongoDB, ArangoDB, YDB semantics): a document expires at
//! `reference + expireAfter`, where `reference` comes from one field of the document.
//!
//! | field value | reference | expires? |
//! |---|---|---|
//! | number | Unix time in the index's `unit` (`s`, `ms`, `us`, `ns`) | yes |
//! | ISO-8601 string | that instant (no offset = UTC) | yes |
//! | `Date` | that instant | yes |
//! | array | its earliest valid value; none valid: never | yes, on the earliest |
//! | missing, `null`, boolean, object, unparsable string, NaN, Invalid Date | none | never, no error |
//!
//! `expireAfter: 0` makes the field an absolute expiry time (ArangoDB's second use case).
//! The store keeps each document keyed by its reference, so changing `expireAfter` moves the
//! expiry cut-off, not the documents: O(1), no rewrite (MongoDB `collMod`).

use crate::core::error::{Error, Result};
use crate::core::expiry::{parse_expires_at, ExpiresAtInput, TtlInput, MAX_EXPIRES_AT_SECS};
use crate::core::text::quote;
use crate::core::value::Value;
use crate::core::schedule::Schedule;
use crate::core::window::Window;

/// `"seconds"`, `"milliseconds"`...: a unit in words, for messages.
fn unit_words(u: TimeUnit) -> &'static str {
    match u {
        TimeUnit::Seconds => "seconds",
        TimeUnit::Millis => "milliseconds",
        TimeUnit::Micros => "microseconds",
        TimeUnit::Nanos => "nanoseconds",
    }
}

/// The unit of numeric field values (YDB's `Unit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// Seconds (the default).
    Seconds,
    /// Milliseconds, as from `Date.now()`.
    Millis,
    /// Microseconds.
    Micros,
    /// Nanoseconds.
    Nanos,
}

impl TimeUnit {
    /// `"s"`, `"ms"`, `"us"`, `"ns"`.
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "s" => Ok(TimeUnit::Seconds),
            "ms" => Ok(TimeUnit::Millis),
            "us" => Ok(TimeUnit::Micros),
            "ns" => Ok(TimeUnit::Nanos),
            _ => Err(Error::InvalidType(format!(
                "ttlIndex.unit {} is not accepted; expected \"s\", \"ms\", \"us\" or \"ns\"",
                quote(s)
            ))),
        }
    }

    /// The name `parse` accepts.
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Seconds => "s",
            TimeUnit::Millis => "ms",
            TimeUnit::Micros => "us",
            TimeUnit::Nanos => "ns",
        }
    }

    /// Milliseconds per unit.
    pub fn ms(self) -> f64 {
        match self {
            TimeUnit::Seconds => 1000.0,
            TimeUnit::Millis => 1.0,
            TimeUnit::Micros => 1e-3,
            TimeUnit::Nanos => 1e-6,
        }
    }
}

/// A validated TTL index definition.
#[derive(Debug, Clone, PartialEq)]
pub struct TtlIndex {
    /// The document field holding the reference time (a dotted path, `"meta.createdAt"`); `""`
    /// for an automatic index.
    pub field: String,
    /// CockroachDB's `ttl_expire_after`: each document's reference is the time of its last write
    /// (stamped by the store), not a field.
    pub automatic: bool,
    /// How long after the reference a document expires (months allowed).
    pub expire_after: Window,
    /// Unit of numeric field values.
    pub unit: TimeUnit,
    /// Tiers (YDB): `None`, documents are deleted at `expire_after`; `Some(w)`, they move to the
    /// collection's archive then, and are deleted `w` after their reference (an infinite `w`:
    /// kept until `archive.clear()`).
    pub archive_until: Option<Window>,
    /// YDB's chain: the archive tiers after the first (their `after`, in order), reached while
    /// archived; what they do is hand off (`hand_off`).
    pub middle: Vec<Window>,
    /// The tiers (by index, 0 the first) whose records are handed to `onExpire` when they
    /// reach them; empty: every turn is handed off when there is a hook (one-tier indexes).
    pub hand_off: Vec<u32>,
    /// CockroachDB's `ttl_job_cron`: background passes reap the collection at these times only.
    pub schedule: Option<Schedule>,
    /// CockroachDB's `ttl_pause`: no pass removes anything of the collection (reads still hide
    /// what expired). Saved with the definition, so every member honours it.
    pub paused: bool,
}

/// What a tier does when a document reaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierAction {
    /// Moves it out of the live data into the collection's archive.
    Archive,
    /// Deletes it (only the last tier may).
    Delete,
}

impl TierAction {
    /// `"archive"` or `"delete"`.
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "archive" => Ok(TierAction::Archive),
            "delete" => Ok(TierAction::Delete),
            _ => Err(Error::InvalidType(format!("tier action {} is not accepted; expected \"archive\" or \"delete\"", quote(s)))),
        }
    }
}

/// Forever: an archive tier with no delete tier after it.
pub const FOREVER: Window = Window { months: 0, ms: f64::INFINITY };

/// A chain of tiers as the index keeps it (see [`tiers_windows`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Tiers {
    /// The first tier's `after`.
    pub expire_after: Window,
    /// `None`: the first tier deletes. `Some`: it archives, and the last tier deletes at this
    /// window ([`FOREVER`]: no delete tier).
    pub archive_until: Option<Window>,
    /// The archive tiers between the first and the delete tier.
    pub middle: Vec<Window>,
    /// The tiers with `handOff: true`, by index.
    pub hand_off: Vec<u32>,
}

/// `ttlIndex.tiers` (YDB's chain): `[(after, action, handOff)]` in order, each later than the
/// one before for every date; every tier archives but the last, which archives or deletes.
/// Anything else is refused, saying what is accepted.
pub fn tiers_windows(tiers: &[(Window, TierAction, bool)]) -> Result<Tiers> {
    const SHAPES: &str = "tiers in order, each { after, action: \"archive\" } but the last, which may be { after, action: \"delete\" }";
    let Some(((first, first_action, _), (last, last_action, _))) = tiers.first().zip(tiers.last()) else {
        return Err(Error::InvalidType(format!("ttlIndex.tiers is empty; expected {SHAPES}")));
    };
    if tiers[..tiers.len() - 1].iter().any(|t| t.1 == TierAction::Delete) {
        return Err(Error::InvalidType(format!("ttlIndex.tiers: only the last tier may delete; expected {SHAPES}")));
    }
    let which = |t: TierAction| if t == TierAction::Delete { "delete" } else { "archive" };
    for (i, pair) in tiers.windows(2).enumerate() {
        let (a, b) = (pair[0].0, pair[1].0);
        if !b.always_longer_than(&a) {
            return Err(Error::OutOfRange(format!(
                "ttlIndex.tiers[{}]: the {} tier's after ({}) must be later than the {} tier's ({}) before it, for every date",
                i + 1,
                which(pair[1].1),
                b.describe(),
                which(pair[0].1),
                a.describe()
            )));
        }
    }
    let hand_off = (0..).zip(tiers).filter(|(_, t)| t.2).map(|(i, _)| i).collect();
    let n = tiers.len();
    Ok(match (first_action, last_action) {
        (TierAction::Delete, _) => Tiers { expire_after: *first, archive_until: None, middle: Vec::new(), hand_off },
        (_, TierAction::Delete) => Tiers { expire_after: *first, archive_until: Some(*last), middle: tiers[1..n - 1].iter().map(|t| t.0).collect(), hand_off },
        _ => Tiers { expire_after: *first, archive_until: Some(FOREVER), middle: tiers[1..].iter().map(|t| t.0).collect(), hand_off },
    })
}

impl TtlIndex {
    /// Validates `{ field, expireAfter, unit }`. `expireAfter` is seconds or a duration, months
    /// and years included (counted on the UTC calendar, see [`Window`]).
    pub fn new(field: &str, expire_after: TtlInput<'_>, unit: Option<&str>) -> Result<Self> {
        if field.is_empty() {
            return Err(Error::InvalidType(
                "ttlIndex.field \"\" is not accepted; expected the name of a document field, e.g. \"createdAt\"".into(),
            ));
        }
        Ok(TtlIndex {
            field: field.to_owned(),
            automatic: false,
            expire_after: Window::parse("ttlIndex.expireAfter", expire_after)?,
            unit: unit.map(TimeUnit::parse).transpose()?.unwrap_or(TimeUnit::Seconds),
            archive_until: None,
            middle: Vec::new(),
            hand_off: Vec::new(),
            schedule: None,
            paused: false,
        })
    }

    /// The reference instant (Unix ms) of a document whose field holds `v`; `None` = the
    /// document never expires. A number, `BigInt` or `Date` whose instant falls outside the
    /// years ISO-8601 writes (after 9999, usually milliseconds read as seconds) is an error
    /// naming the field, the value and the unit: such a document would otherwise never expire.
    pub fn reference_ms(&self, v: &Value) -> Result<Option<f64>> {
        let ms = match v {
            // NaN and the infinities are not dates: never, as in MongoDB (a BigInt too large for
            // a number reads as an infinity, and is refused below).
            Value::Number(n) if !n.is_finite() => return Ok(None),
            #[cfg(feature = "full")]
            Value::Number(n) | Value::BigInt(n, _) => n * self.unit.ms(),
            #[cfg(not(feature = "full"))]
            Value::Number(n) => n * self.unit.ms(),
            Value::Text(s) => return Ok(parse_expires_at(ExpiresAtInput::Text(s)).ok()),
            Value::Date(ms) => *ms,
            // MongoDB: an array expires on its earliest date; nested arrays are not dates.
            Value::List(items) => {
                let mut earliest: Option<f64> = None;
                for item in items.iter().filter(|i| !matches!(i, Value::List(_))) {
                    if let Some(ms) = self.reference_ms(item)? {
                        earliest = Some(earliest.map_or(ms, |e| e.min(ms)));
                    }
                }
                return Ok(earliest);
            }
            _ => return Ok(None),
        };
        if ms.is_nan() {
            return Ok(None);
        }
        if ms.abs() > MAX_EXPIRES_AT_SECS * 1000.0 {
            return Err(self.out_of_range(v, ms));
        }
        Ok(Some(ms + 0.0))
    }

    /// The RangeError for a TTL field value whose instant is `ms`, beyond ±253 402 300 799 s.
    fn out_of_range(&self, v: &Value, ms: f64) -> Error {
        let unit = self.unit.name();
        let when = if ms > 0.0 { "after year 9999" } else { "before year -6000" };
        let finer = [TimeUnit::Millis, TimeUnit::Micros, TimeUnit::Nanos]
            .into_iter()
            .filter(|u| u.ms() < self.unit.ms())
            .find(|u| (ms / self.unit.ms() * u.ms()).abs() <= MAX_EXPIRES_AT_SECS * 1000.0);
        let hint = match (v, finer) {
            (Value::Date(_), _) => "give a Date within years 0000-9999".to_owned(),
            (_, Some(u)) => format!(
                "if it is in {} (as from {}), create the index with unit: {}, or store Unix {} in the field",
                unit_words(u),
                if u == TimeUnit::Millis { "Date.now()" } else { "a clock of that precision" },
                quote(u.name()),
                unit_words(self.unit)
            ),
            (_, None) => format!("store a date within years 0000-9999 (Unix {}, an ISO-8601 string or a Date)", unit_words(self.unit)),
        };
        Error::OutOfRange(format!(
            "ttlIndex.field {} holds {}, which read in unit {} is a date {when}, so the document would never expire; {hint}",
            quote(&self.field),
            v.describe(),
            quote(unit)
        ))
    }

    /// Documents whose reference is at or before this instant are expired at `now_ms`.
    pub fn expired_through_ms(&self, now_ms: f64) -> f64 {
        self.expire_after.before(now_ms)
    }

    /// Documents archived at or before this instant reached their delete tier at `now_ms`
    /// (`None`: the index has no archive tier).
    pub fn archive_through_ms(&self, now_ms: f64) -> Option<f64> {
        self.archive_until.map(|w| w.before(now_ms))
    }

    /// The tiers as given: `[(after, action, handOff)]`.
    pub fn tiers(&self) -> Vec<(Window, TierAction, bool)> {
        let mut tiers = match self.archive_until {
            None => vec![(self.expire_after, TierAction::Delete)],
            Some(_) => vec![(self.expire_after, TierAction::Archive)],
        };
        tiers.extend(self.middle.iter().map(|&w| (w, TierAction::Archive)));
        if let Some(until) = self.archive_until.filter(|u| *u != FOREVER) {
            tiers.push((until, TierAction::Delete));
        }
        (0..).zip(tiers).map(|(i, (w, a))| (w, a, self.hand_off.contains(&i))).collect()
    }

    /// Sets the chain of tiers.
    pub fn set_tiers(&mut self, t: Tiers) {
        self.expire_after = t.expire_after;
        self.archive_until = t.archive_until;
        self.middle = t.middle;
        self.hand_off = t.hand_off;
    }

    /// Whether tier `i`'s records go to `onExpire` when a hook is given: every tier when no
    /// tier names `handOff`, else only those that do.
    pub fn hands_off(&self, i: u32) -> bool {
        self.hand_off.is_empty() || self.hand_off.contains(&i)
    }

    /// When a document with reference `reference_ms` expires.
    pub fn expires_at_ms(&self, reference_ms: f64) -> f64 {
        self.expire_after.after(reference_ms)
    }

    /// Whether documents keyed by `other`'s references are keyed right for `self`: same field
    /// and unit (then changing `expireAfter` needs no rewrite).
    pub fn same_reference(&self, other: &TtlIndex) -> bool {
        self.field == other.field && self.unit == other.unit && self.automatic == other.automatic
    }

    /// An automatic index (CockroachDB `ttl_expire_after`): documents expire `expire_after` after
    /// their last write.
    pub fn automatic(expire_after: TtlInput<'_>) -> Result<Self> {
        Ok(TtlIndex {
            field: String::new(),
            automatic: true,
            expire_after: Window::parse("ttlIndex.expireAfter", expire_after)?,
            unit: TimeUnit::Seconds,
            archive_until: None,
            middle: Vec::new(),
            hand_off: Vec::new(),
            schedule: None,
            paused: false,
        })
    }

    /// Whether `other` is this index but for its schedule and pause, which change in place.
    pub fn same_but_schedule(&self, other: &TtlIndex) -> bool {
        TtlIndex { schedule: None, paused: false, ..self.clone() } == TtlIndex { schedule: None, paused: false, ..other.clone() }
    }

    /// The field documents are read for (`None` for an automatic index).
    pub fn field_path(&self) -> Option<&str> {
        (!self.automatic).then_some(self.field.as_str())
    }
}

// TTL indexes are collections', which the lite entry (no `full` feature) does not have.
#[cfg(all(test, feature = "full"))]
mod tests {
    use super::*;
    use Value::{Date as DateMs, List as Array, Number, Text};
    const NOT_A_DATE: Value = Value::Null;

    const T: f64 = 1_798_761_600_000.0; // 2027-01-01T00:00:00Z

    fn index(unit: &str, after: f64) -> TtlIndex {
        TtlIndex::new("createdAt", TtlInput::Seconds(after), Some(unit)).unwrap()
    }

    #[test]
    fn every_row_of_the_semantics_table() {
        let s = index("s", 3600.0);
        let cases: Vec<(&TtlIndex, Value, Option<f64>)> = vec![
            (&s, Number(1_798_761_600.0), Some(T)),
            (&s, Number(1_798_761_600.5), Some(T + 500.0)),
            (&s, Text("2027-01-01T00:00:00Z".into()), Some(T)),
            (&s, Text("2027-01-01T01:00:00+01:00".into()), Some(T)),
            (&s, Text("2027-01-01".into()), Some(T)),
            (&s, Text("2027-01-01T00:00:00".into()), Some(T)),
            (&s, DateMs(T), Some(T)),
            (&s, Array(vec![Text("2027-06-01".into()), DateMs(T), Number(1_900_000_000.0)]), Some(T)),
            (&s, Array(vec![NOT_A_DATE, Text("nope".into()), Number(1_798_761_600.0)]), Some(T)),
            (&s, Array(vec![NOT_A_DATE, Text("nope".into())]), None),
            (&s, Array(vec![Array(vec![DateMs(T)])]), None),
            (&s, Array(vec![]), None),
            (&s, NOT_A_DATE, None),
            (&s, Text("not a date".into()), None),
            (&s, Text("".into()), None),
            (&s, Number(f64::NAN), None),
            (&s, Number(f64::INFINITY), None),
            (&s, DateMs(f64::NAN), None),
            (&s, Value::BigInt(1_798_761_600.0, "1798761600".into()), Some(T)),
            (&s, Array(vec![Value::BigInt(1_900_000_000.0, "1900000000".into()), Number(1_798_761_600.0)]), Some(T)),
        ];
        for (i, (idx, v, want)) in cases.iter().enumerate() {
            assert_eq!(idx.reference_ms(v).unwrap(), *want, "case {i}: {v:?}");
        }
    }

    #[test]
    fn dates_past_year_9999_are_refused_naming_the_field_the_value_and_the_unit() {
        let now_ms = T;
        let s = index("s", 60.0);
        // (index, value, parts of the message)
        let cases: Vec<(TtlIndex, Value, Vec<&str>)> = vec![
            (s.clone(), Number(now_ms), vec!["ttlIndex.field \"createdAt\" holds 1798761600000", "unit \"s\"", "after year 9999", "never expire", "milliseconds", "Date.now()", "unit: \"ms\""]),
            (s.clone(), Number(now_ms * 1e3), vec!["unit: \"us\""]),
            (s.clone(), Value::BigInt(now_ms * 1e6, "1798761600000000000".into()), vec!["holds 1798761600000000000n", "unit: \"ns\""]),
            (index("ms", 0.0), Number(now_ms * 1e3), vec!["unit \"ms\"", "unit: \"us\"", "Unix milliseconds"]),
            (index("ns", 0.0), Value::BigInt(1e30, "1000000000000000000000000000000".into()), vec!["unit \"ns\"", "store a date within years 0000-9999"]),
            (s.clone(), Number(1e300), vec!["holds 1e+300", "store a date within"]),
            (s.clone(), Number(-1e15), vec!["before year -6000"]),
            (s.clone(), Value::BigInt(f64::INFINITY, "9".repeat(400)), vec!["after year 9999"]),
            (s.clone(), DateMs(8.64e15), vec!["holds Date(8640000000000000)", "give a Date within"]),
            // In an array too, naming the value: one such value is a mistake, whatever the others hold.
            (s.clone(), Array(vec![DateMs(T), Number(now_ms)]), vec!["holds 1798761600000, which"]),
        ];
        for (idx, v, parts) in cases {
            let e = idx.reference_ms(&v).unwrap_err();
            assert!(matches!(e, Error::OutOfRange(_)), "{v:?}: {e}");
            for part in parts {
                assert!(e.to_string().contains(part), "{v:?}: {e} lacks {part}");
            }
        }
        // The edges themselves are dates.
        assert_eq!(s.reference_ms(&Number(MAX_EXPIRES_AT_SECS)).unwrap(), Some(MAX_EXPIRES_AT_SECS * 1000.0));
        assert_eq!(index("ns", 0.0).reference_ms(&Value::BigInt(1.7987616e18, "1798761600000000000".into())).unwrap(), Some(T));
    }

    #[test]
    fn numbers_are_read_in_the_index_unit() {
        for (unit, n) in [("s", 1_798_761_600.0), ("ms", 1_798_761_600_000.0), ("us", 1_798_761_600_000_000.0), ("ns", 1_798_761_600_000_000_000.0)] {
            assert_eq!(index(unit, 0.0).reference_ms(&Number(n)).unwrap(), Some(T), "{unit}");
        }
    }

    #[test]
    fn expiry_is_reference_plus_expire_after_and_zero_means_absolute() {
        let hour = index("s", 3600.0);
        assert_eq!(hour.expires_at_ms(T), T + 3_600_000.0);
        assert_eq!(hour.expired_through_ms(T + 3_600_000.0), T);
        let absolute = index("s", 0.0);
        assert_eq!(absolute.expires_at_ms(T), T);
        assert_eq!(absolute.expired_through_ms(T), T);
        let days = TtlIndex::new("at", TtlInput::Text("90 days"), None).unwrap();
        assert_eq!(days.expire_after, Window::secs(90.0 * 86_400.0));
        assert_eq!(days.unit, TimeUnit::Seconds);
        // Months on the UTC calendar (CockroachDB's '3 months'): expired once the reference is
        // at or before now minus three months.
        let quarter = TtlIndex::new("at", TtlInput::Text("3 months"), None).unwrap();
        assert_eq!(quarter.expire_after, Window { months: 3, ms: 0.0 });
        let apr_1 = T + 90.0 * 86_400_000.0; // 2027-04-01T00:00:00Z
        assert_eq!(quarter.expires_at_ms(T), apr_1);
        assert_eq!(quarter.expired_through_ms(apr_1), T);
        assert!(quarter.expired_through_ms(apr_1 - 1.0) < T);
        let year = TtlIndex::new("at", TtlInput::Text("P1Y"), None).unwrap();
        assert_eq!(year.expires_at_ms(T), T + 365.0 * 86_400_000.0);
    }

    #[test]
    fn bad_definitions_are_refused() {
        let e = TtlIndex::new("", TtlInput::Seconds(1.0), None).unwrap_err();
        assert!(matches!(&e, Error::InvalidType(m) if m.contains("ttlIndex.field \"\"")), "{e}");
        let e = TtlIndex::new("at", TtlInput::Seconds(1.0), Some("minutes")).unwrap_err();
        assert!(matches!(&e, Error::InvalidType(m) if m.contains("\"minutes\"") && m.contains("\"ns\"")), "{e}");
        let e = TtlIndex::new("at", TtlInput::Seconds(-1.0), None).unwrap_err();
        assert!(matches!(&e, Error::OutOfRange(m) if m.contains("ttlIndex.expireAfter -1")), "{e}");
    }

    #[test]
    fn tiers_are_a_chain_of_archives_and_at_most_a_last_delete() {
        use TierAction::{Archive, Delete};
        let w = Window::secs;
        let chain = |t: &[(f64, TierAction, bool)]| tiers_windows(&t.iter().map(|&(s, a, h)| (w(s), a, h)).collect::<Vec<_>>());
        let plain = |expire_after, archive_until, middle: Vec<Window>| Tiers { expire_after, archive_until, middle, hand_off: vec![] };
        assert_eq!(chain(&[(60.0, Delete, false)]).unwrap(), plain(w(60.0), None, vec![]));
        assert_eq!(chain(&[(60.0, Archive, false)]).unwrap(), plain(w(60.0), Some(FOREVER), vec![]));
        assert_eq!(chain(&[(60.0, Archive, false), (600.0, Delete, false)]).unwrap(), plain(w(60.0), Some(w(600.0)), vec![]));
        // YDB's chain: archives, then a delete; hand-off where asked.
        let t = chain(&[(60.0, Archive, true), (120.0, Archive, false), (300.0, Archive, true), (600.0, Delete, true)]).unwrap();
        assert_eq!(t, Tiers { expire_after: w(60.0), archive_until: Some(w(600.0)), middle: vec![w(120.0), w(300.0)], hand_off: vec![0, 2, 3] });
        assert_eq!(chain(&[(60.0, Archive, false), (120.0, Archive, false)]).unwrap(), plain(w(60.0), Some(FOREVER), vec![w(120.0)]));
        let month = Window { months: 1, ms: 0.0 };
        assert_eq!(tiers_windows(&[(w(7.0 * 86_400.0), Archive, false), (month, Delete, false)]).unwrap(), plain(w(7.0 * 86_400.0), Some(month), vec![]));
        let e = tiers_windows(&[(w(30.0 * 86_400.0), Archive, false), (month, Delete, false)]).unwrap_err();
        assert!(e.to_string().contains("ttlIndex.tiers[1]: the delete tier's after (P1M) must be later than the archive tier's (2592000 s) before it, for every date"), "{e}");
        let refused = [
            (vec![], "ttlIndex.tiers is empty"),
            (vec![(60.0, Delete, false), (600.0, Archive, false)], "only the last tier may delete"),
            (vec![(60.0, Delete, false), (600.0, Delete, false)], "only the last tier may delete"),
            (vec![(60.0, Archive, false), (50.0, Archive, false), (600.0, Delete, false)], "ttlIndex.tiers[1]: the archive tier's after (50 s)"),
            (vec![(600.0, Archive, false), (60.0, Delete, false)], "must be later than the archive tier's (600 s)"),
            (vec![(60.0, Archive, false), (60.0, Delete, false)], "must be later"),
        ];
        for (tiers, part) in refused {
            let e = chain(&tiers).unwrap_err();
            assert!(e.to_string().contains(part), "{tiers:?}: {e}");
        }
        assert!(TierAction::parse("move").unwrap_err().to_string().contains("tier action \"move\" is not accepted"));
        // The tiers read back as given, and the archive's delete cut-off follows them.
        let mut i = index("s", 60.0);
        assert_eq!(i.tiers(), vec![(w(60.0), Delete, false)]);
        assert_eq!(i.archive_through_ms(T), None);
        i.archive_until = Some(w(600.0));
        assert_eq!(i.tiers(), vec![(w(60.0), Archive, false), (w(600.0), Delete, false)]);
        assert_eq!(i.archive_through_ms(T), Some(T - 600_000.0));
        i.archive_until = Some(FOREVER);
        assert_eq!(i.tiers(), vec![(w(60.0), Archive, false)]);
        assert_eq!(i.archive_through_ms(T), Some(f64::NEG_INFINITY));
        i.set_tiers(t.clone());
        let back: Vec<(Window, TierAction, bool)> = i.tiers();
        assert_eq!(back, vec![(w(60.0), Archive, true), (w(120.0), Archive, false), (w(300.0), Archive, true), (w(600.0), Delete, true)]);
        assert!(i.hands_off(2) && !i.hands_off(1));
        assert!(index("s", 60.0).hands_off(0), "no tier names handOff: every one hands off");
    }

    #[test]
    fn same_reference_ignores_expire_after() {
        assert!(index("s", 1.0).same_reference(&index("s", 99.0)));
        assert!(!index("s", 1.0).same_reference(&index("ms", 1.0)));
    }
}
