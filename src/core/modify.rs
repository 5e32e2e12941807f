//! Read-modify-write: what `add`, `replace`, `take`, `incr`, `update` and a conditional `expire`
//! do with the entry they find, decided from that entry alone (the adapter reads it and writes
//! the outcome in one readwrite transaction, so the decision holds against every other tab).

use crate::core::entry::{Expiry, ExpirySpec, NEVER_MS};
use crate::core::error::{Error, Result};
use crate::core::text::js_number;

/// When `add`/`replace` write: Redis `SET NX` / `SET XX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Only {
    /// `add`: only where no live entry is.
    Absent,
    /// `replace`: only over a live entry.
    Present,
}

impl Only {
    /// Whether the write goes ahead, the key having a live entry or not.
    pub fn writes(self, live: bool) -> bool {
        match self {
            Only::Absent => !live,
            Only::Present => live,
        }
    }
}

/// `expire(key, { ..., only })`: Redis 7's `EXPIRE NX | XX | GT | LT`, named as a reader of the
/// call would say them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExpireIf {
    /// `"noExpiry"` (NX): the entry has no expiry now.
    NoExpiry,
    /// `"hasExpiry"` (XX): the entry has one.
    HasExpiry,
    /// `"later"` (GT): the new expiry is later than the current one; an entry without expiry
    /// counts as expiring never, so none is later.
    Later,
    /// `"sooner"` (LT): the new expiry is sooner; an entry without expiry always gets it.
    Sooner,
}

/// How `expire`/`persist` change a live entry's expiry.
#[derive(Debug)]
pub enum ExpiryChange {
    /// `expire(key, options)`, on the condition `only` if given.
    Set(ExpirySpec, Option<ExpireIf>),
    /// `persist(key)`.
    Remove,
}

impl ExpiryChange {
    /// The expiry a live entry expiring as `old` gets at `now`, or `None` if the change does not
    /// apply (`persist` of an entry without expiry; an `only` that does not hold). An expiry in
    /// the past is given as it is: the entry is then removed.
    pub fn of(&self, old: Expiry, now: f64) -> Result<Option<Expiry>> {
        Ok(match self {
            ExpiryChange::Remove => (old.e != NEVER_MS).then(|| Expiry::at(NEVER_MS)),
            ExpiryChange::Set(spec, only) => {
                let new = spec.resolve(None, Some(old), now)?;
                only.is_none_or(|only| only.allows(old.e, new.e)).then_some(new)
            }
        })
    }
}

/// What `only` accepts, for messages.
pub const EXPIRE_IF_ACCEPTED: &str =
    "\"noExpiry\" (only if it has no expiry: Redis NX), \"hasExpiry\" (XX), \"later\" (GT) or \"sooner\" (LT)";

impl ExpireIf {
    /// The condition named `s`, if it is one.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "noExpiry" => ExpireIf::NoExpiry,
            "hasExpiry" => ExpireIf::HasExpiry,
            "later" => ExpireIf::Later,
            "sooner" => ExpireIf::Sooner,
            _ => return None,
        })
    }

    /// Whether a live entry expiring at `old` (Unix ms, [`NEVER_MS`] for none) takes `new`.
    pub fn allows(self, old: f64, new: f64) -> bool {
        match self {
            ExpireIf::NoExpiry => old == NEVER_MS,
            ExpireIf::HasExpiry => old != NEVER_MS,
            ExpireIf::Later => new > old,
            ExpireIf::Sooner => new < old,
        }
    }
}

/// The expiry options `incr` and `update` write with: `update` applies its options to any entry
/// (without options it keeps the expiry: [`ExpirySpec::Keep`]); `incr` keeps a live entry's
/// expiry and gives its options only to a key it creates (Redis `INCR`).
pub fn written_spec(spec: &ExpirySpec, keep_live: bool, live: bool) -> ExpirySpec {
    if keep_live && live {
        ExpirySpec::Keep
    } else {
        spec.clone()
    }
}

/// `incr`'s `by`: any finite number.
pub fn check_by(key: &str, by: Option<f64>, shown: impl FnOnce() -> String) -> Result<f64> {
    match by {
        Some(n) if n.is_finite() => Ok(n),
        _ => Err(Error::InvalidType(format!(
            "incr({key}, by): by {} is not accepted; expected a finite number (negative and fractional too), e.g. 1 or -0.5",
            shown()
        ))),
    }
}

/// `current + by` for `incr` of `key`: a missing entry counts as 0; a sum past the largest
/// number is refused.
pub fn sum(key: &str, current: Option<f64>, by: f64) -> Result<f64> {
    let current = current.unwrap_or(0.0);
    let n = current + by;
    if !n.is_finite() {
        return Err(Error::OutOfRange(format!(
            "incr({key}, {}) would make {} + {} = {}, which is not a finite number; nothing was written",
            js_number(by),
            js_number(current),
            js_number(by),
            js_number(n)
        )));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::expiry::{Ttl, TtlInput};

    #[test]
    fn persist_removes_an_expiry_and_does_not_apply_without_one() {
        let idle = Expiry { e: 5_000.0, idle: Some(crate::core::entry::Idle { window_ms: 1_000.0, cap_ms: 9_000.0 }) };
        assert_eq!(ExpiryChange::Remove.of(idle, 0.0).unwrap(), Some(Expiry::at(NEVER_MS)));
        assert_eq!(ExpiryChange::Remove.of(Expiry::at(NEVER_MS), 0.0).unwrap(), None);
    }

    #[test]
    fn expire_applies_when_its_condition_holds() {
        let at = |ms: f64| ExpirySpec::At(ms);
        let now = 1_000.0;
        let set = |only| ExpiryChange::Set(at(8_000.0), only);
        let (soon, never) = (Expiry::at(5_000.0), Expiry::at(NEVER_MS));
        assert_eq!(set(None).of(soon, now).unwrap(), Some(Expiry::at(8_000.0)));
        assert_eq!(set(Some(ExpireIf::Later)).of(soon, now).unwrap(), Some(Expiry::at(8_000.0)));
        assert_eq!(set(Some(ExpireIf::Sooner)).of(soon, now).unwrap(), None);
        assert_eq!(set(Some(ExpireIf::Sooner)).of(never, now).unwrap(), Some(Expiry::at(8_000.0)));
        assert_eq!(set(Some(ExpireIf::Later)).of(never, now).unwrap(), None);
        assert_eq!(set(Some(ExpireIf::NoExpiry)).of(soon, now).unwrap(), None);
        assert_eq!(set(Some(ExpireIf::HasExpiry)).of(soon, now).unwrap(), Some(Expiry::at(8_000.0)));
        // An expiry already past is given as it is: the adapter removes the entry.
        assert_eq!(ExpiryChange::Set(at(500.0), None).of(soon, now).unwrap(), Some(Expiry::at(500.0)));
    }

    #[test]
    fn add_writes_only_where_nothing_live_is_and_replace_only_over_it() {
        assert!(Only::Absent.writes(false));
        assert!(!Only::Absent.writes(true));
        assert!(Only::Present.writes(true));
        assert!(!Only::Present.writes(false));
    }

    #[test]
    fn expire_conditions_follow_redis_7_with_no_expiry_as_never() {
        let (t, later, sooner) = (1_000.0, 2_000.0, 500.0);
        assert!(ExpireIf::NoExpiry.allows(NEVER_MS, t));
        assert!(!ExpireIf::NoExpiry.allows(t, later));
        assert!(ExpireIf::HasExpiry.allows(t, later));
        assert!(!ExpireIf::HasExpiry.allows(NEVER_MS, t));
        assert!(ExpireIf::Later.allows(t, later));
        assert!(!ExpireIf::Later.allows(t, sooner));
        assert!(!ExpireIf::Later.allows(t, t));
        assert!(!ExpireIf::Later.allows(NEVER_MS, later), "nothing is later than never");
        assert!(ExpireIf::Sooner.allows(t, sooner));
        assert!(!ExpireIf::Sooner.allows(t, later));
        assert!(ExpireIf::Sooner.allows(NEVER_MS, later), "anything is sooner than never");
    }

    #[test]
    fn expire_condition_names_are_the_four_documented() {
        for (name, c) in [("noExpiry", ExpireIf::NoExpiry), ("hasExpiry", ExpireIf::HasExpiry), ("later", ExpireIf::Later), ("sooner", ExpireIf::Sooner)] {
            assert_eq!(ExpireIf::parse(name), Some(c));
        }
        for wrong in ["NX", "nx", "gt", "LT", "", "Later"] {
            assert_eq!(ExpireIf::parse(wrong), None, "{wrong}");
        }
    }

    #[test]
    fn incr_keeps_a_live_entrys_expiry_and_gives_a_new_key_its_options() {
        let spec = ExpirySpec::After(Ttl::parse(TtlInput::Seconds(60.0)).unwrap());
        assert_eq!(written_spec(&spec, true, true), ExpirySpec::Keep);
        assert_eq!(written_spec(&spec, true, false), spec);
        assert_eq!(written_spec(&spec, false, true), spec, "update applies its options to a live entry");
        assert_eq!(written_spec(&ExpirySpec::Keep, false, false), ExpirySpec::Keep);
    }

    #[test]
    fn incr_sums_from_zero_and_refuses_what_is_not_finite() {
        assert_eq!(sum("\"k\"", None, 1.0), Ok(1.0));
        assert_eq!(sum("\"k\"", Some(2.5), -0.5), Ok(2.0));
        let e = sum("\"hits\"", Some(f64::MAX), f64::MAX).unwrap_err();
        assert!(matches!(&e, Error::OutOfRange(m) if m.contains("\"hits\"") && m.contains("Infinity")), "{e:?}");
        for by in [None, Some(f64::NAN), Some(f64::INFINITY), Some(f64::NEG_INFINITY)] {
            let e = check_by("\"hits\"", by, || "NaN".into()).unwrap_err();
            assert!(matches!(&e, Error::InvalidType(m) if m.contains("\"hits\"") && m.contains("finite number")), "{e:?}");
        }
        assert_eq!(check_by("\"k\"", Some(-0.25), String::new), Ok(-0.25));
    }
}
