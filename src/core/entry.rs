//! What a write does to an entry's expiry, when an entry is live, and when a read extends an
//! idle entry.
//!
//! Entries are stored with their expiry as Unix milliseconds; an entry without expiry stores
//! [`NEVER_MS`] (+Infinity, a valid IndexedDB key) so it sorts after every finite expiry and a
//! reaper pass, which walks expiries in ascending order, never reaches it.
//!
//! An idle entry (`{ idle }`) also stores its idle window and its absolute cap ([`Idle`]): its
//! expiry is the end of the window opened by its last read, never past the cap, so the reaper
//! and every read treat it like any other entry. A read moves the expiry on only once less than
//! `1 - IDLE_SLACK` of the window is left ([`Idle::extension`]), so reads in a hot loop do not
//! each write.

use crate::core::error::{Error, Result};
use crate::core::expiry::{parse_expires_at, ExpiresAtInput, Ttl, TtlInput};

/// The stored expiry of an entry that never expires.
pub const NEVER_MS: f64 = f64::INFINITY;

/// An entry is live while `now` is strictly before its expiry; at the expiry instant it is gone.
pub fn is_live(expires_at_ms: f64, now_ms: f64) -> bool {
    expires_at_ms > now_ms
}

/// The expiry options of one write, validated but not yet resolved against `now`.
#[derive(Debug, Clone, PartialEq)]
pub enum ExpirySpec {
    /// No option given: the store's `defaultTtl`, or no expiry.
    Default,
    /// `{ expiresAt }`: an absolute time, Unix ms.
    At(f64),
    /// `{ ttl }`: relative to the time of the write.
    After(Ttl),
    /// `{ keepTtl: true }`: keep the entry's current expiry (Redis `SET KEEPTTL`).
    Keep,
    /// An expiry as a snapshot kept it, with an idle entry's window and cap (`import()`).
    Stored(Expiry),
    /// `{ idle }`: expires `window` after its last read, never past the cap.
    Idle {
        /// The idle window.
        window: Ttl,
        /// `ttl` or `expiresAt` given beside it (`At`, `After`), or none (`Default`).
        cap: Box<ExpirySpec>,
    },
}

/// The part of a read's extension left unwritten: a read moves an idle entry's expiry on only
/// once less than 90 % of its window is left, so it expires between 90 % and 100 % of the window
/// after its last read (27 and 30 minutes for `idle: "30 min"`), or at its cap.
pub const IDLE_SLACK: f64 = 0.1;

/// An idle entry's window and cap, as stored beside its expiry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Idle {
    /// The window, ms.
    pub window_ms: f64,
    /// The absolute cap, Unix ms ([`NEVER_MS`]: none).
    pub cap_ms: f64,
}

impl Idle {
    /// The expiry of an entry read (or written) at `now`: the window's end, never past the cap.
    pub fn deadline(&self, now_ms: f64) -> f64 {
        (now_ms + self.window_ms).min(self.cap_ms)
    }

    /// The expiry a read at `now` writes for a live idle entry expiring at `e`, if one is due:
    /// when the new deadline is more than [`IDLE_SLACK`] of the window later, or is the cap.
    pub fn extension(&self, e: f64, now_ms: f64) -> Option<f64> {
        if !is_live(e, now_ms) {
            return None;
        }
        let target = self.deadline(now_ms);
        (target > e && (target - e > self.window_ms * IDLE_SLACK || target == self.cap_ms)).then_some(target)
    }
}

/// What a write stores: the expiry, Unix ms, and for an idle entry its window and cap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Expiry {
    /// Unix ms ([`NEVER_MS`]: none). At or before now: the write removes the key.
    pub e: f64,
    /// The idle window and cap of an idle entry.
    pub idle: Option<Idle>,
}

impl Expiry {
    /// An expiry without idle window.
    pub fn at(e: f64) -> Expiry {
        Expiry { e, idle: None }
    }
}

impl ExpirySpec {
    /// Validates a write's options. `ttl` and `expiresAt` are exclusive, `keepTtl` goes alone,
    /// and `idle` takes either of the first two as its cap.
    pub fn parse(
        ttl: Option<TtlInput<'_>>,
        expires_at: Option<ExpiresAtInput<'_>>,
        keep_ttl: bool,
        idle: Option<TtlInput<'_>>,
    ) -> Result<Self> {
        if let Some(idle) = idle {
            if keep_ttl {
                return Err(Error::InvalidType(
                    "keepTtl: true keeps the current expiry and cannot be combined with idle; give idle (with ttl or expiresAt as its cap) or keepTtl".into(),
                ));
            }
            let window = Ttl::parse_as("idle", idle)?;
            let cap = Self::parse(ttl, expires_at, false, None)?;
            return Ok(ExpirySpec::Idle { window, cap: Box::new(cap) });
        }
        match (ttl, expires_at, keep_ttl) {
            (Some(_), Some(_), _) => Err(Error::InvalidType(
                "ttl and expiresAt cannot be combined: give ttl (seconds or a duration from now) or expiresAt (an absolute time), not both".into(),
            )),
            (Some(_), None, true) | (None, Some(_), true) => Err(Error::InvalidType(
                "keepTtl: true keeps the current expiry and cannot be combined with ttl or expiresAt".into(),
            )),
            (Some(t), None, false) => Ok(ExpirySpec::After(Ttl::parse(t)?)),
            (None, Some(a), false) => Ok(ExpirySpec::At(parse_expires_at(a)?)),
            (None, None, true) => Ok(ExpirySpec::Keep),
            (None, None, false) => Ok(ExpirySpec::Default),
        }
    }

    /// Validates the options of `expire(key, options)`, which must name a new expiry.
    pub fn parse_for_expire(ttl: Option<TtlInput<'_>>, expires_at: Option<ExpiresAtInput<'_>>, idle: Option<TtlInput<'_>>) -> Result<Self> {
        if ttl.is_none() && expires_at.is_none() && idle.is_none() {
            return Err(Error::InvalidType(
                "expire(key, options) needs { ttl }, { expiresAt } or { idle }; to remove an expiry use persist(key)".into(),
            ));
        }
        Self::parse(ttl, expires_at, false, idle)
    }

    /// Whether resolving needs the entry's current expiry (which costs a read).
    pub fn needs_current(&self) -> bool {
        matches!(self, ExpirySpec::Keep)
    }

    /// What to store. `current` is the live entry's expiry, if there is a live entry (only read
    /// for [`ExpirySpec::Keep`], which keeps an idle entry's window and cap too). An expiry at or
    /// before `now_ms` means the write stores nothing and removes the key. An idle entry without
    /// a cap has none: `defaultTtl` is for writes that name no expiry at all.
    pub fn resolve(&self, default_ttl: Option<&Ttl>, current: Option<Expiry>, now_ms: f64) -> Result<Expiry> {
        Ok(match self {
            ExpirySpec::At(ms) => Expiry::at(*ms),
            ExpirySpec::Stored(x) => *x,
            ExpirySpec::After(ttl) => Expiry::at(ttl.expires_at_ms(now_ms)?),
            // KEEPTTL on a missing key falls back to what a plain write would do.
            ExpirySpec::Keep => match current {
                Some(current) => current,
                None => ExpirySpec::Default.resolve(default_ttl, None, now_ms)?,
            },
            ExpirySpec::Default => Expiry::at(match default_ttl {
                Some(ttl) => ttl.expires_at_ms(now_ms)?,
                None => NEVER_MS,
            }),
            ExpirySpec::Idle { window, cap } => {
                let cap_ms = cap.resolve(None, None, now_ms)?.e;
                let idle = Idle { window_ms: window.expires_at_ms(now_ms)? - now_ms, cap_ms };
                Expiry { e: idle.deadline(now_ms), idle: Some(idle) }
            }
        })
    }
}

/// Unix ms as the Unix seconds the JS API reports (`null` is the caller's business for NEVER).
pub fn ms_to_secs(ms: f64) -> f64 {
    ms / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: f64 = 1_800_000_000_000.0; // 2027-01-15T08:00:00Z

    #[test]
    fn liveness_is_strict_at_the_expiry_instant() {
        assert!(is_live(NOW + 1.0, NOW));
        assert!(!is_live(NOW, NOW));
        assert!(!is_live(NOW - 1.0, NOW));
        assert!(is_live(NEVER_MS, NOW));
    }

    #[test]
    fn options_resolve_to_the_stored_expiry() {
        let day = Ttl::parse(TtlInput::Text("1 day")).unwrap();
        // (spec, defaultTtl, current expiry, expected stored expiry)
        let table: Vec<(ExpirySpec, Option<&Ttl>, Option<f64>, f64)> = vec![
            (ExpirySpec::parse(Some(TtlInput::Seconds(60.0)), None, false, None).unwrap(), None, None, NOW + 60_000.0),
            (ExpirySpec::parse(Some(TtlInput::Seconds(0.2)), None, false, None).unwrap(), None, None, NOW + 200.0),
            (ExpirySpec::parse(None, Some(ExpiresAtInput::Seconds(1_798_761_600.0)), false, None).unwrap(), None, None, 1_798_761_600_000.0),
            (ExpirySpec::Default, None, None, NEVER_MS),
            (ExpirySpec::Default, Some(&day), None, NOW + 86_400_000.0),
            (ExpirySpec::Keep, None, Some(NOW + 5.0), NOW + 5.0),
            (ExpirySpec::Keep, None, None, NEVER_MS),
            (ExpirySpec::Keep, Some(&day), None, NOW + 86_400_000.0),
            (ExpirySpec::Keep, Some(&day), Some(NEVER_MS), NEVER_MS),
        ];
        for (spec, default, current, want) in table {
            assert_eq!(spec.resolve(default, current.map(Expiry::at), NOW).unwrap(), Expiry::at(want), "{spec:?}");
        }
    }

    fn idle(window: &str, ttl: Option<f64>, at: Option<f64>) -> Result<ExpirySpec> {
        ExpirySpec::parse(ttl.map(TtlInput::Seconds), at.map(ExpiresAtInput::Seconds), false, Some(TtlInput::Text(window)))
    }

    #[test]
    fn an_idle_write_stores_its_window_and_cap() {
        let day = Ttl::parse(TtlInput::Text("1 day")).unwrap();
        // (spec, stored expiry, window, cap); defaultTtl is no idle entry's cap.
        let table = [
            (idle("30 min", None, None).unwrap(), NOW + 1_800_000.0, 1_800_000.0, NEVER_MS),
            (idle("30 min", Some(12.0 * 3600.0), None).unwrap(), NOW + 1_800_000.0, 1_800_000.0, NOW + 43_200_000.0),
            (idle("30 min", Some(600.0), None).unwrap(), NOW + 600_000.0, 1_800_000.0, NOW + 600_000.0),
            (idle("PT1H", None, Some(NOW / 1000.0 + 60.0)).unwrap(), NOW + 60_000.0, 3_600_000.0, NOW + 60_000.0),
        ];
        for (spec, e, window_ms, cap_ms) in table {
            let got = spec.resolve(Some(&day), None, NOW).unwrap();
            assert_eq!(got, Expiry { e, idle: Some(Idle { window_ms, cap_ms }) }, "{spec:?}");
        }
        // keepTtl keeps an idle entry's window and cap.
        let current = Expiry { e: NOW + 5.0, idle: Some(Idle { window_ms: 10.0, cap_ms: NEVER_MS }) };
        assert_eq!(ExpirySpec::Keep.resolve(None, Some(current), NOW).unwrap(), current);
    }

    #[test]
    fn idle_options_are_checked_by_name() {
        let keep = ExpirySpec::parse(None, None, true, Some(TtlInput::Seconds(1.0)));
        assert!(matches!(keep, Err(Error::InvalidType(m)) if m.contains("cannot be combined with idle")));
        assert!(matches!(idle("soon", None, None), Err(Error::InvalidType(m)) if m.contains("idle") && m.contains("soon")));
        let negative = ExpirySpec::parse(None, None, false, Some(TtlInput::Seconds(-5.0)));
        assert!(matches!(negative, Err(Error::OutOfRange(m)) if m.starts_with("idle")));
        assert!(matches!(idle("1 min", Some(1.0), Some(1.0)), Err(Error::InvalidType(m)) if m.contains("cannot be combined")));
        assert!(ExpirySpec::parse_for_expire(None, None, Some(TtlInput::Seconds(60.0))).is_ok());
    }

    #[test]
    fn a_read_extends_an_idle_entry_once_a_tenth_of_its_window_has_passed() {
        let w = 1_800_000.0; // 30 min
        let open = Idle { window_ms: w, cap_ms: NEVER_MS };
        let capped = Idle { window_ms: w, cap_ms: NOW + 1_000_000.0 };
        // (idle, stored expiry, extension due)
        let table = [
            (open, NOW + w, None),                                  // just written or extended
            (open, NOW + 0.91 * w, None),                           // 9 % of the window used
            (open, NOW + 0.89 * w, Some(NOW + w)),                  // 11 % used: moves on
            (open, NOW + 1.0, Some(NOW + w)),                       // about to expire
            (open, NOW, None),                                      // expired at this instant
            (open, NOW - 1.0, None),                                // expired
            (capped, NOW + 0.5 * w, Some(NOW + 1_000_000.0)),       // the cap comes first
            (capped, NOW + 1_000_000.0 - 10.0, Some(NOW + 1_000_000.0)), // near the cap: to it
            (capped, NOW + 1_000_000.0, None),                      // at the cap already
        ];
        for (idle, e, want) in table {
            assert_eq!(idle.extension(e, NOW), want, "{idle:?} e={e}");
        }
        // What the slack buys: read at t, the entry expires between t + 0.9 w and t + w.
        for used in [0.0, 0.05, 0.1, 0.2, 0.5, 0.99] {
            let e = NOW + (1.0 - used) * w;
            let after = open.extension(e, NOW).unwrap_or(e) - NOW;
            assert!(after >= 0.9 * w && after <= w, "used {used}: {after}");
        }
    }

    #[test]
    fn exclusive_options_are_refused() {
        let both = ExpirySpec::parse(Some(TtlInput::Seconds(1.0)), Some(ExpiresAtInput::Seconds(1.0)), false, None);
        assert!(matches!(both, Err(Error::InvalidType(m)) if m.contains("cannot be combined")));
        let keep = ExpirySpec::parse(Some(TtlInput::Seconds(1.0)), None, true, None);
        assert!(matches!(keep, Err(Error::InvalidType(m)) if m.contains("keepTtl")));
        let none = ExpirySpec::parse_for_expire(None, None, None);
        assert!(matches!(none, Err(Error::InvalidType(m)) if m.contains("persist(key)")));
    }

    #[test]
    fn parse_errors_pass_through() {
        assert!(matches!(ExpirySpec::parse(Some(TtlInput::Seconds(-1.0)), None, false, None), Err(Error::OutOfRange(_))));
        assert!(matches!(
            ExpirySpec::parse(None, Some(ExpiresAtInput::Text("tomorrow-ish")), false, None),
            Err(Error::InvalidType(_))
        ));
    }
}
