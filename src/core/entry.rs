//! What a write does to an entry's expiry, and when an entry is live.
//!
//! Entries are stored with their expiry as Unix milliseconds; an entry without expiry stores
//! [`NEVER_MS`] (+Infinity, a valid IndexedDB key) so it sorts after every finite expiry and a
//! reaper pass, which walks expiries in ascending order, never reaches it.

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
}

impl ExpirySpec {
    /// Validates a write's options. `ttl` and `expiresAt` are exclusive, and `keepTtl` goes alone.
    pub fn parse(
        ttl: Option<TtlInput<'_>>,
        expires_at: Option<ExpiresAtInput<'_>>,
        keep_ttl: bool,
    ) -> Result<Self> {
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
    pub fn parse_for_expire(ttl: Option<TtlInput<'_>>, expires_at: Option<ExpiresAtInput<'_>>) -> Result<Self> {
        if ttl.is_none() && expires_at.is_none() {
            return Err(Error::InvalidType(
                "expire(key, options) needs { ttl } or { expiresAt }; to remove an expiry use persist(key)".into(),
            ));
        }
        Self::parse(ttl, expires_at, false)
    }

    /// Whether resolving needs the entry's current expiry (which costs a read).
    pub fn needs_current(&self) -> bool {
        matches!(self, ExpirySpec::Keep)
    }

    /// The expiry to store, Unix ms ([`NEVER_MS`] for none). `current_ms` is the live entry's
    /// expiry, if there is a live entry (only read for [`ExpirySpec::Keep`]). A result at or
    /// before `now_ms` means the write stores nothing and removes the key.
    pub fn resolve(&self, default_ttl: Option<&Ttl>, current_ms: Option<f64>, now_ms: f64) -> Result<f64> {
        match self {
            ExpirySpec::At(ms) => Ok(*ms),
            ExpirySpec::After(ttl) => ttl.expires_at_ms(now_ms),
            // KEEPTTL on a missing key falls back to what a plain write would do.
            ExpirySpec::Keep => match current_ms {
                Some(ms) => Ok(ms),
                None => ExpirySpec::Default.resolve(default_ttl, None, now_ms),
            },
            ExpirySpec::Default => match default_ttl {
                Some(ttl) => ttl.expires_at_ms(now_ms),
                None => Ok(NEVER_MS),
            },
        }
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
            (ExpirySpec::parse(Some(TtlInput::Seconds(60.0)), None, false).unwrap(), None, None, NOW + 60_000.0),
            (ExpirySpec::parse(Some(TtlInput::Seconds(0.2)), None, false).unwrap(), None, None, NOW + 200.0),
            (ExpirySpec::parse(None, Some(ExpiresAtInput::Seconds(1_798_761_600.0)), false).unwrap(), None, None, 1_798_761_600_000.0),
            (ExpirySpec::Default, None, None, NEVER_MS),
            (ExpirySpec::Default, Some(&day), None, NOW + 86_400_000.0),
            (ExpirySpec::Keep, None, Some(NOW + 5.0), NOW + 5.0),
            (ExpirySpec::Keep, None, None, NEVER_MS),
            (ExpirySpec::Keep, Some(&day), None, NOW + 86_400_000.0),
            (ExpirySpec::Keep, Some(&day), Some(NEVER_MS), NEVER_MS),
        ];
        for (spec, default, current, want) in table {
            assert_eq!(spec.resolve(default, current, NOW).unwrap(), want, "{spec:?}");
        }
    }

    #[test]
    fn exclusive_options_are_refused() {
        let both = ExpirySpec::parse(Some(TtlInput::Seconds(1.0)), Some(ExpiresAtInput::Seconds(1.0)), false);
        assert!(matches!(both, Err(Error::InvalidType(m)) if m.contains("cannot be combined")));
        let keep = ExpirySpec::parse(Some(TtlInput::Seconds(1.0)), None, true);
        assert!(matches!(keep, Err(Error::InvalidType(m)) if m.contains("keepTtl")));
        let none = ExpirySpec::parse_for_expire(None, None);
        assert!(matches!(none, Err(Error::InvalidType(m)) if m.contains("persist(key)")));
    }

    #[test]
    fn parse_errors_pass_through() {
        assert!(matches!(ExpirySpec::parse(Some(TtlInput::Seconds(-1.0)), None, false), Err(Error::OutOfRange(_))));
        assert!(matches!(
            ExpirySpec::parse(None, Some(ExpiresAtInput::Text("tomorrow-ish")), false),
            Err(Error::InvalidType(_))
        ));
    }
}
