//! A TTL window that may hold calendar units (CockroachDB's `ttl_expire_after = '3 months'`):
//! whole months (years count as 12) plus an exact remainder in milliseconds.
//!
//! A collection keys each document by its reference time, so a window must give the cut-off of
//! a pass in one subtraction: a document counts as expired once its reference is at or before
//! [`Window::before`]`(now)`, `now` minus the months on the UTC calendar, then minus the rest.
//! Subtracting a month from a day the shorter month lacks (March 30 - 1 month) gives the first
//! instant of the month after (March 1), not the clamped last day (February 28): the clamped
//! one goes back in time as `now` goes forward (March 28 12:00 -> Feb 28 12:00, March 29 00:00
//! -> Feb 28 00:00), and a document that expired would come back. So the cut-off never moves
//! back, and [`Window::after`] (when a reference expires: the first `now` whose cut-off reaches
//! it) is its exact inverse.

use crate::core::error::Result;
use crate::core::expiry::{parse_window, TtlInput};
use crate::core::iso::{civil_from_days, days_from_civil, days_in_month};
use crate::core::text::js_number;

const DAY_MS: i64 = 86_400_000;

/// An `expireAfter` or a tier's `after`: `months` calendar months, then `ms` milliseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// Whole calendar months (years as 12).
    pub months: i64,
    /// The exact rest (days and weeks are 24 h and 7 days in UTC); +Infinity: forever.
    pub ms: f64,
}

/// (year, month, day, ms into the day) of Unix ms `t` (its fraction of a ms set aside).
fn civil(t: f64) -> (i64, u32, u32, i64, f64) {
    let whole = t.floor();
    let (days, in_day) = ((whole as i64).div_euclid(DAY_MS), (whole as i64).rem_euclid(DAY_MS));
    let (y, m, d) = civil_from_days(days);
    (y, m, d, in_day, t - whole)
}

/// Year and month `months` after (before, if negative) `y`-`m`.
fn shift(y: i64, m: u32, months: i64) -> (i64, u32) {
    let n = y * 12 + i64::from(m) - 1 + months;
    (n.div_euclid(12), n.rem_euclid(12) as u32 + 1)
}

/// Unix ms of day `d` of `y`-`m` at `in_day` ms (+ `frac`); a day the month lacks is the first
/// instant of the month after.
fn at(y: i64, m: u32, d: u32, in_day: i64, frac: f64) -> f64 {
    if d > days_in_month(y, m) {
        let (y, m) = shift(y, m, 1);
        return (days_from_civil(y, m, 1) * DAY_MS) as f64;
    }
    (days_from_civil(y, m, d) * DAY_MS + in_day) as f64 + frac
}

impl Window {
    /// An exact window of `secs` seconds.
    pub fn secs(secs: f64) -> Window {
        Window { months: 0, ms: secs * 1000.0 }
    }

    /// Parses seconds or a duration (`"90 days"`, `"3 months"`, `"P1Y"`); errors name `what`.
    pub fn parse(what: &str, input: TtlInput<'_>) -> Result<Window> {
        let (months, ms) = parse_window(what, input)?;
        Ok(Window { months, ms })
    }

    /// Its length in seconds if it has no calendar units.
    pub fn exact_secs(&self) -> Option<f64> {
        (self.months == 0).then_some(self.ms / 1000.0)
    }

    /// The cut-off at `now_ms`: a reference at or before it is past the window.
    pub fn before(&self, now_ms: f64) -> f64 {
        if self.months == 0 || !now_ms.is_finite() {
            return now_ms - self.ms;
        }
        let (y, m, d, in_day, frac) = civil(now_ms);
        let (y, m) = shift(y, m, -self.months);
        at(y, m, d, in_day, frac) - self.ms
    }

    /// When a reference at `reference_ms` is past the window: the first instant whose
    /// [`Window::before`] reaches it.
    pub fn after(&self, reference_ms: f64) -> f64 {
        let start = reference_ms + self.ms;
        if self.months == 0 || !start.is_finite() {
            return start;
        }
        let (y, m, d, in_day, frac) = civil(start);
        let (ty, tm) = shift(y, m, self.months);
        if d <= days_in_month(ty, tm) {
            return at(ty, tm, d, in_day, frac);
        }
        // No day of the target month subtracts back onto `start`'s day: the first one that
        // passes it is the first of the month after.
        let (ny, nm) = shift(ty, tm, 1);
        (days_from_civil(ny, nm, 1) * DAY_MS) as f64
    }

    /// Whether this window ends after `other` for every reference: the shortest it can be is
    /// longer than the longest `other` can be.
    pub fn always_longer_than(&self, other: &Window) -> bool {
        const D: f64 = DAY_MS as f64;
        let shortest = self.months as f64 * 28.0 * D + self.ms;
        let longest = other.months as f64 * 31.0 * D + other.ms;
        (self.months >= other.months && self.ms >= other.ms && self != other) || shortest > longest
    }

    /// As `ttlIndex()` shows it: seconds when exact, else an ISO-8601 duration (`"P1Y3M"`,
    /// `"P3MT86400S"`).
    pub fn shown(&self) -> WindowShown {
        match self.exact_secs() {
            Some(secs) => WindowShown::Secs(secs),
            None => {
                let (y, m) = (self.months / 12, self.months % 12);
                let mut s = String::from("P");
                if y > 0 {
                    s += &format!("{y}Y");
                }
                if m > 0 {
                    s += &format!("{m}M");
                }
                if self.ms > 0.0 {
                    s += &format!("T{}S", js_number(self.ms / 1000.0));
                }
                WindowShown::Text(s)
            }
        }
    }

    /// In a message: `"3600 s"` or `"P3M"`.
    pub fn describe(&self) -> String {
        match self.shown() {
            WindowShown::Secs(s) => format!("{} s", js_number(s)),
            WindowShown::Text(t) => t,
        }
    }
}

/// A window as JavaScript reads it back: seconds, or an ISO-8601 duration with calendar units.
#[derive(Debug, Clone, PartialEq)]
pub enum WindowShown {
    /// Exact: seconds.
    Secs(f64),
    /// With months or years.
    Text(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::iso::days_from_civil;

    fn utc(y: i64, m: u32, d: u32, h: i64) -> f64 {
        (days_from_civil(y, m, d) * DAY_MS + h * 3_600_000) as f64
    }

    #[test]
    fn exact_windows_subtract_and_add_milliseconds() {
        let w = Window::secs(3600.0);
        assert_eq!(w.before(utc(2027, 1, 1, 5)), utc(2027, 1, 1, 4));
        assert_eq!(w.after(utc(2027, 1, 1, 4)), utc(2027, 1, 1, 5));
        assert_eq!(w.shown(), WindowShown::Secs(3600.0));
        let forever = Window { months: 0, ms: f64::INFINITY };
        assert_eq!(forever.before(utc(2027, 1, 1, 0)), f64::NEG_INFINITY);
    }

    #[test]
    fn months_subtract_on_the_utc_calendar() {
        let m1 = Window { months: 1, ms: 0.0 };
        let cases = [
            // (now, cut-off)
            (utc(2027, 3, 15, 10), utc(2027, 2, 15, 10)),
            (utc(2027, 3, 28, 12), utc(2027, 2, 28, 12)),
            // Days February lacks: the first instant of March, never back in time.
            (utc(2027, 3, 29, 0), utc(2027, 3, 1, 0)),
            (utc(2027, 3, 31, 23), utc(2027, 3, 1, 0)),
            (utc(2027, 4, 1, 0), utc(2027, 3, 1, 0)),
            (utc(2028, 3, 29, 6), utc(2028, 2, 29, 6)),
            (utc(2027, 1, 10, 0), utc(2026, 12, 10, 0)),
        ];
        for (now, want) in cases {
            assert_eq!(m1.before(now), want, "{now}");
        }
        let y1 = Window { months: 12, ms: 86_400_000.0 };
        assert_eq!(y1.before(utc(2028, 2, 29, 0)), utc(2027, 2, 28, 0), "a year back from Feb 29 is March 1, then a day");
    }

    #[test]
    fn the_cut_off_never_goes_back_and_after_is_its_exact_inverse() {
        for months in [1, 2, 3, 11, 12, 13, 25] {
            for ms in [0.0, 3_600_000.0, 2.5 * 86_400_000.0] {
                let w = Window { months, ms };
                // Every 7 hours over four years, leap days and month ends included.
                let mut prev = f64::NEG_INFINITY;
                let mut t = utc(2027, 1, 1, 0);
                while t < utc(2031, 1, 1, 0) {
                    let cut = w.before(t);
                    assert!(cut >= prev, "{w:?}: the cut-off went back at {t}");
                    prev = cut;
                    // A reference expires at `after`: not a millisecond before, and from then on.
                    let e = w.after(t);
                    assert!(w.before(e) >= t, "{w:?}: {t} not expired at its expiry {e}");
                    assert!(w.before(e - 1.0) < t, "{w:?}: {t} expired before {e}");
                    assert!(e >= t + ms, "{w:?}");
                    t += 7.0 * 3_600_000.0 + 0.5;
                }
            }
        }
    }

    #[test]
    fn windows_read_back_as_seconds_or_iso_durations() {
        assert_eq!(Window::parse("expireAfter", TtlInput::Text("3 months")).unwrap().shown(), WindowShown::Text("P3M".into()));
        assert_eq!(Window::parse("expireAfter", TtlInput::Text("P1Y2M")).unwrap().shown(), WindowShown::Text("P1Y2M".into()));
        assert_eq!(Window::parse("expireAfter", TtlInput::Text("1 month 2 days")).unwrap().describe(), "P1MT172800S");
        assert_eq!(Window::parse("expireAfter", TtlInput::Text("3 weeks")).unwrap().shown(), WindowShown::Secs(1_814_400.0));
        assert_eq!(Window::parse("expireAfter", TtlInput::Seconds(90.0)).unwrap().describe(), "90 s");
        let e = Window::parse("expireAfter", TtlInput::Seconds(-1.0)).unwrap_err();
        assert!(e.to_string().contains("expireAfter -1 is negative"), "{e}");
    }

    #[test]
    fn always_longer_holds_for_every_reference() {
        let w = |months, days: f64| Window { months, ms: days * 86_400_000.0 };
        assert!(w(2, 0.0).always_longer_than(&w(1, 0.0)));
        assert!(w(1, 1.0).always_longer_than(&w(1, 0.0)));
        assert!(w(2, 0.0).always_longer_than(&w(0, 55.0)));
        assert!(w(0, 32.0).always_longer_than(&w(1, 0.0)));
        assert!(!w(1, 0.0).always_longer_than(&w(0, 30.0)), "February is shorter");
        assert!(!w(0, 30.0).always_longer_than(&w(1, 0.0)));
        assert!(!w(1, 0.0).always_longer_than(&w(1, 0.0)));
    }
}
