//! Expiry values: absolute (`expiresAt`) and relative (`ttl`), parsed and validated once here.
//!
//! The strings are read by the project's own parser (src/core/iso.rs), which reads exactly what
//! jiff 0.2.16 reads (jiff is the reference of the property tests, tests/properties.rs, and is not
//! shipped); this module classifies the input, checks ranges and words the errors. Instants are
//! computed as civil date-times in UTC (no time zone database is carried), which covers the whole
//! range up to 9999-12-31T23:59:59Z.
//!
//! Date-times are read as the Temporal (RFC 9557) grammar has them. Besides the documented grammar,
//! and the README documents (each form has a test below): lowercase `t` and `z`; a space for `T`;
//! a comma for the decimal point; the basic format (`20261224T180000Z`); reduced precision
//! (`2026-12-24T18:00Z`, `2026-12-24T18Z`); offsets as `+0100` or `+01`; the extended year
//! `+002026-12-24`; up to nine fraction digits; and a leap second, `23:59:60`, which reads as
//! `23:59:59` (as Temporal does: a Unix time has no leap seconds). Refused: offsets beyond
//! ±23:59:59 (`+25:00`), hour 24, week and ordinal dates, time-zone annotations, and a bare number
//! such as `"20270101"` or `"3600"`: its unit is ambiguous, so the caller is asked to say.

use crate::core::error::Error;
use crate::core::iso::{self, civil_from_days, days_from_civil, days_in_month};
use crate::core::text::{js_number, quote};

/// Largest accepted absolute expiry: 9999-12-31T23:59:59Z, in Unix seconds.
pub const MAX_EXPIRES_AT_SECS: f64 = 253_402_300_799.0;
/// Smallest accepted absolute expiry: -9999-01-01T00:00:00Z (the civil minimum), Unix seconds.
const MIN_EXPIRES_AT_SECS: f64 = -377_705_116_800.0;
const MAX_MS: f64 = MAX_EXPIRES_AT_SECS * 1000.0;
const MIN_MS: f64 = MIN_EXPIRES_AT_SECS * 1000.0;
const DAY_MS: i64 = 86_400_000;

const AT_ACCEPTED: &str = "accepted: Unix seconds, \"YYYY-MM-DD\", \
     \"YYYY-MM-DDTHH:MM:SS[.fff][Z|+HH:MM|-HH:MM]\" or a Date";
const DURATIONS: &str = "a duration such as \"PT10M\", \"90 days\", \"1h 30m\"";

/// An absolute expiry as the user gave it (`expiresAt`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ExpiresAtInput<'a> {
    /// A JS number: Unix seconds, fractions allowed.
    Seconds(f64),
    /// A string: ISO-8601 date or date-time.
    Text(&'a str),
    /// A JS Date, as its getTime() milliseconds (NaN for an Invalid Date).
    DateMs(f64),
}

/// Parses `expiresAt` into Unix milliseconds (f64, may carry sub-ms fractions).
pub fn parse_expires_at(input: ExpiresAtInput<'_>) -> Result<f64, Error> {
    match input {
        ExpiresAtInput::Seconds(secs) => {
            let shown = js_number(secs);
            if secs.is_nan() {
                return Err(at_range(&shown, "is not a number of seconds"));
            }
            if secs.is_infinite() {
                return Err(at_range(
                    &shown,
                    "is not finite (omit expiresAt for no expiry)",
                ));
            }
            if secs > MAX_EXPIRES_AT_SECS && secs / 1000.0 <= MAX_EXPIRES_AT_SECS {
                return Err(Error::OutOfRange(format!(
                    "expiresAt {shown} looks like milliseconds (as from Date.now()); pass Unix \
                     seconds, e.g. Math.floor(Date.now() / 1000), or an ISO-8601 string"
                )));
            }
            check_at_range(&shown, secs * 1000.0)
        }
        ExpiresAtInput::DateMs(ms) if !ms.is_finite() => Err(Error::InvalidType(format!(
            "expiresAt is an Invalid Date (getTime() is {}); {AT_ACCEPTED}",
            js_number(ms)
        ))),
        ExpiresAtInput::DateMs(ms) => {
            check_at_range(&format!("Date with getTime() {}", js_number(ms)), ms)
        }
        ExpiresAtInput::Text(text) => parse_at_text(text),
    }
}

fn parse_at_text(text: &str) -> Result<f64, Error> {
    let shown = quote(text);
    let s = text.trim();
    let bad = |why: String| Error::InvalidType(format!("expiresAt {shown} {why}; {AT_ACCEPTED}"));
    if s.is_empty() {
        return Err(bad("is empty".into()));
    }
    if is_numeric(s) {
        return Err(bad(format!(
            "is a number inside a string; pass the number {s} (Unix seconds) without quotes, \
             or an ISO-8601 date such as \"2027-01-01\""
        )));
    }
    let t = iso::date_time(s).map_err(|why| {
        if year_beyond_9999(s) {
            at_range(&shown, "is beyond year 9999, the latest expiry")
        } else {
            bad(format!("is not a valid ISO-8601 date or date-time ({why})"))
        }
    })?;
    if t.annotated {
        let annotation = s.find('[').and_then(|i| s.get(i..)).unwrap_or("");
        return Err(bad(format!(
            "has a time zone annotation {annotation}, but idb-ttl carries no time zone \
             database; give a UTC offset instead, e.g. \"2019-05-27T21:20:00+02:00\""
        )));
    }
    // No time means midnight, no offset means UTC (docs/API.md "Expiry values").
    // The parser reads offsets up to ±25:59:59, as jiff; no clock on Earth is past ±14:00,
    // RFC 3339 and Temporal stop at ±23:59(:59). "+25:00" is a typo, not a time.
    if t.offset.abs() > MAX_OFFSET_SECS {
        return Err(bad(format!(
            "has the UTC offset {}, beyond \u{b1}23:59:59 (offsets run from -12:00 to +14:00 in practice)",
            offset_text(t.offset)
        )));
    }
    check_at_range(&shown, t.secs as f64 * 1000.0 + f64::from(t.nanos) / 1e6)
}

/// The largest UTC offset accepted, in seconds (23:59:59, as Temporal and RFC 9557).
const MAX_OFFSET_SECS: i32 = 23 * 3600 + 59 * 60 + 59;

/// An offset as `+25:00` or `-00:30:15`.
fn offset_text(secs: i32) -> String {
    let (sign, s) = if secs < 0 { ('-', -secs) } else { ('+', secs) };
    let base = format!("{sign}{:02}:{:02}", s / 3600, s / 60 % 60);
    if s % 60 == 0 { base } else { format!("{base}:{:02}", s % 60) }
}

/// Whether the text starts with a year field above 9999 (`10000-01-01`, `+010000-01-01`): the
/// parser refuses those, but docs/API.md calls them out of range (RangeError), not unparsable.
fn year_beyond_9999(s: &str) -> bool {
    let t = s.strip_prefix('+').unwrap_or(s);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let (year, rest) = t.split_at_checked(digits).unwrap_or((t, ""));
    digits > 4 && rest.starts_with('-') && year.parse::<u64>().map_or(true, |y| y > 9999)
}

fn check_at_range(shown: &str, ms: f64) -> Result<f64, Error> {
    let why = if ms > MAX_MS {
        // The limits written out: `{MAX_EXPIRES_AT_SECS}` would print an f64 with core::fmt.
        "is beyond 9999-12-31T23:59:59Z (Unix 253402300799), the latest expiry".to_owned()
    } else if ms < MIN_MS {
        "is before -9999-01-01T00:00:00Z (Unix -377705116800), the earliest expiry".to_owned()
    } else {
        return Ok(ms + 0.0); // + 0.0 turns -0 into 0
    };
    Err(at_range(shown, &why))
}

/// A relative expiry as the user gave it (`ttl`, `defaultTtl`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TtlInput<'a> {
    /// A JS number of seconds.
    Seconds(f64),
    /// An ISO-8601 duration (`"PT10M"`) or jiff's friendly format (`"90 days"`, `"1h 30m"`).
    Text(&'a str),
}

/// A parsed, validated ttl, resolved against `now` when used.
///
/// Held as whole calendar months (years count as 12) plus an exact remainder in milliseconds:
/// years and months are added first and then days and time (as jiff does), and in UTC a day is
/// always 24 h, so `now + months` followed by `+ ms` is the same instant as adding the whole
/// span. Two ttls are equal when they hold the same months and milliseconds (`"PT10M"` == `600`),
/// whatever their text.
#[derive(Debug, Clone)]
pub struct Ttl {
    months: i64,
    ms: f64,
    what: &'static str,
    shown: String,
}

impl PartialEq for Ttl {
    fn eq(&self, other: &Ttl) -> bool {
        self.months == other.months && self.ms == other.ms
    }
}

impl Ttl {
    /// Parses a `ttl`; errors name the option `ttl`.
    pub fn parse(input: TtlInput<'_>) -> Result<Ttl, Error> {
        Ttl::parse_as("ttl", input)
    }

    /// Parses a ttl-like option whose errors name `what` (e.g. `"defaultTtl"`).
    pub fn parse_as(what: &'static str, input: TtlInput<'_>) -> Result<Ttl, Error> {
        let (shown, months, ms) = parse_ttl(what, input)?;
        Ok(Ttl {
            months,
            ms,
            what,
            shown,
        })
    }

    /// Unix ms at which something set at `now_ms` with this ttl expires. Calendar units
    /// (months, years) are added in UTC. Errors (OutOfRange) if the result is past 9999.
    pub fn expires_at_ms(&self, now_ms: f64) -> Result<f64, Error> {
        if !(MIN_MS..=MAX_MS).contains(&now_ms) {
            let now = js_number(now_ms);
            return Err(Error::OutOfRange(format!(
                "the current time {now} ms is outside the years -9999 to 9999; is the clock right?"
            )));
        }
        let whole = now_ms.floor();
        let (days, in_day) = ((whole as i64).div_euclid(DAY_MS), (whole as i64).rem_euclid(DAY_MS));
        let (y, m, d) = civil_from_days(days);
        let late = || {
            let now = civil_text(y, m, d, in_day);
            let why = format!("set at {now} would expire after 9999-12-31T23:59:59Z");
            ttl_error(Error::OutOfRange, self.what, &self.shown, &why)
        };
        let end = if self.months == 0 {
            now_ms + self.ms
        } else {
            // Whole months in UTC, the day clamped to the month's last (Jan 31 + 1 month = Feb 28).
            let months = y * 12 + i64::from(m) - 1 + self.months;
            let (y, m) = (months.div_euclid(12), months.rem_euclid(12) as u32 + 1);
            // jiff's spans hold at most 239 976 months (19 998 years), whatever the start.
            if y > 9999 || self.months > 239_976 {
                return Err(late());
            }
            let moved = days_from_civil(y, m, d.min(days_in_month(y, m))) * DAY_MS + in_day;
            moved as f64 + (now_ms - whole) + self.ms
        };
        if end > MAX_MS {
            return Err(late());
        }
        Ok(end)
    }

    /// The exact length in ms if it has no calendar units (None for "3 months").
    pub fn exact_ms(&self) -> Option<f64> {
        (self.months == 0).then_some(self.ms)
    }
}

/// Parses a duration given as seconds or a string into seconds, for `expireAfter`-like options
/// that must be exact (no months/years): errors with OutOfRange naming `what` if calendar units.
pub fn parse_exact_secs(what: &str, input: TtlInput<'_>) -> Result<f64, Error> {
    match parse_ttl(what, input)? {
        (_, 0, ms) => Ok(ms / 1000.0),
        (shown, _, _) => {
            let why = "has months or years, whose length varies (count in days instead)";
            Err(ttl_error(Error::OutOfRange, what, &shown, why))
        }
    }
}

/// A duration given as seconds or a string, for windows that may hold calendar units
/// (`expireAfter`, a tier's `after`): its calendar months and its exact remainder in ms.
pub fn parse_window(what: &str, input: TtlInput<'_>) -> Result<(i64, f64), Error> {
    let (_, months, ms) = parse_ttl(what, input)?;
    Ok((months, ms))
}

/// The ttl as shown in messages, its calendar months and its exact remainder in ms.
fn parse_ttl(what: &str, input: TtlInput<'_>) -> Result<(String, i64, f64), Error> {
    let (shown, months, ms) = match input {
        TtlInput::Seconds(secs) => {
            let shown = js_number(secs);
            let why = if secs.is_nan() {
                "is not a number of seconds"
            } else if secs.is_infinite() {
                "is not finite (omit it for no expiry)"
            } else if secs < 0.0 {
                "is negative"
            } else {
                ""
            };
            if !why.is_empty() {
                return Err(ttl_error(Error::OutOfRange, what, &shown, why));
            }
            (shown, 0, secs * 1000.0)
        }
        TtlInput::Text(text) => {
            let shown = quote(text);
            // Days and weeks are 24 h and 7 days in UTC, so everything below months is exact.
            let span = parse_span(what, text, &shown)?;
            let ms = span.secs as f64 * 1000.0 + f64::from(span.nanos) / 1e6;
            (shown, span.months, ms)
        }
    };
    if ms > MAX_MS {
        let why = "is longer than any expiry up to 9999-12-31T23:59:59Z";
        return Err(ttl_error(Error::OutOfRange, what, &shown, why));
    }
    Ok((shown, months, ms + 0.0))
}

fn parse_span(what: &str, text: &str, shown: &str) -> Result<iso::Duration, Error> {
    let s = text.trim();
    let type_error = |why: &str| ttl_error(Error::InvalidType, what, shown, why);
    if s.is_empty() {
        return Err(type_error("is empty"));
    }
    if is_numeric(s) {
        return Err(type_error(&format!(
            "is a number inside a string, which leaves its unit ambiguous; pass the number {s} \
             (seconds) or a string with a unit such as \"{s} seconds\""
        )));
    }
    let span = iso::duration(s).map_err(|why| type_error(&format!("is not a valid duration ({why})")))?;
    if span.negative {
        return Err(ttl_error(Error::OutOfRange, what, shown, "is negative"));
    }
    Ok(span)
}

fn ttl_error(kind: fn(String) -> Error, what: &str, shown: &str, why: &str) -> Error {
    kind(format!(
        "{what} {shown} {why}; {what} is a non-negative number of seconds or {DURATIONS}"
    ))
}

fn at_range(shown: &str, why: &str) -> Error {
    Error::OutOfRange(format!("expiresAt {shown} {why}; {AT_ACCEPTED}"))
}

/// A UTC date-time as jiff prints one, with a `Z`: `2026-01-31T00:00:00.25Z`, `-000001-12-31T...`.
fn civil_text(y: i64, m: u32, d: u32, in_day_ms: i64) -> String {
    let year = if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else {
        format!("{}{:06}", if y < 0 { '-' } else { '+' }, y.abs())
    };
    let s = in_day_ms / 1000;
    let mut text = format!("{year}-{m:02}-{d:02}T{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    if in_day_ms % 1000 != 0 {
        text += format!(".{:03}", in_day_ms % 1000).trim_end_matches('0');
    }
    text + "Z"
}

/// A string that JS's `Number()` would read as a number, e.g. "3600" or " -1.5e3 ".
///
/// The decimal grammar of Rust's `f64::from_str` minus `inf`/`nan` (which have no digit):
/// `[+-]? (d+ | d+ . d* | . d+) ([eE] [+-]? d+)?`. Checked by hand rather than by parsing a
/// float, which would link the float parser into the wasm for a yes/no answer;
/// a test checks it against the float parser. It classifies; the parser still reads every date.
fn is_numeric(s: &str) -> bool {
    let b = s.strip_prefix(['+', '-']).unwrap_or(s).as_bytes();
    let digits = |from: usize| b.get(from..).map_or(0, |t| t.iter().take_while(|c| c.is_ascii_digit()).count());
    let int = digits(0);
    let mut i = int;
    let mut frac = 0;
    if b.get(i) == Some(&b'.') {
        frac = digits(i + 1);
        i += 1 + frac;
    }
    if int + frac == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = digits(i);
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ExpiresAtInput::{DateMs, Seconds as AtSecs, Text as AtText};
    use TtlInput::{Seconds, Text};

    #[test]
    fn the_range_messages_name_the_limits() {
        let late = check_at_range("x", MAX_MS + 1000.0).unwrap_err().to_string();
        assert!(late.contains(&format!("(Unix {MAX_EXPIRES_AT_SECS})")), "{late}");
        let early = check_at_range("x", MIN_MS - 1000.0).unwrap_err().to_string();
        assert!(early.contains(&format!("(Unix {MIN_EXPIRES_AT_SECS})")), "{early}");
    }

    #[test]
    fn is_numeric_agrees_with_the_float_parser() {
        let long = "9".repeat(400);
        let cases = [
            "0", "3600", "-1", "+1", "1.", ".5", "1.5", "-.5", "1e5", "1E5", "1e+5", "1e-5", "-1.5e3",
            "20270101", "", "+", "-", ".", "e5", "1e", "1e+", "1.e3", ".e3", "1..2", "1.2.3", "--1",
            "+-1", "1 2", "0x10", "1_000", "inf", "-infinity", "NaN", "1f", "1e5.5", "\u{661}", "1e\u{663}",
            "00012", long.as_str(), "1e99999",
        ];
        for s in cases {
            let want = s.parse::<f64>().is_ok() && s.bytes().any(|b| b.is_ascii_digit());
            assert_eq!(is_numeric(s), want, "{s:?}");
        }
    }

    // Expected instants come from `date -u -d <iso> +%s`, not from jiff.
    const MAY27: f64 = 1_558_915_200_000.0; // 2019-05-27T00:00:00Z
    const MAY27_2120: f64 = 1_558_992_000_000.0; // 2019-05-27T21:20:00Z
    const JAN31_2026: f64 = 1_769_817_600_000.0; // 2026-01-31T00:00:00Z
    const FEB28_2026: f64 = 1_772_236_800_000.0; // 2026-02-28T00:00:00Z
    const MAR01_2026: f64 = 1_772_323_200_000.0; // 2026-03-01T00:00:00Z
    const APR30_2026: f64 = 1_777_507_200_000.0; // 2026-04-30T00:00:00Z
    const FEB29_2024: f64 = 1_709_164_800_000.0; // 2024-02-29T00:00:00Z
    const FEB28_2025: f64 = 1_740_700_800_000.0; // 2025-02-28T00:00:00Z
    const H: f64 = 3_600_000.0;
    const DAY: f64 = 24.0 * H;
    const AT_HINT: &str = "accepted: Unix seconds, \"YYYY-MM-DD\"";
    const TTL_HINT: &str = "is a non-negative number of seconds or a duration such as \"PT10M\"";

    #[test]
    fn valid_expires_at() {
        let cases: &[(ExpiresAtInput, f64)] = &[
            (AtSecs(1_798_761_600.0), 1_798_761_600_000.0),
            (AtSecs(1_798_761_600.5), 1_798_761_600_500.0),
            (AtSecs(0.0), 0.0),
            (AtSecs(-0.0), 0.0),
            (AtSecs(-86_400.0), -DAY),
            (AtSecs(MAX_EXPIRES_AT_SECS), MAX_MS),
            (AtSecs(-377_705_116_800.0), -377_705_116_800_000.0),
            (AtText("2019-05-27"), MAY27),
            (AtText("2019-05-27T21:20:00"), MAY27_2120),
            (AtText("2019-05-27T21:20:00Z"), MAY27_2120),
            (AtText("2019-05-27T21:20:00.123Z"), MAY27_2120 + 123.0),
            (
                AtText("2019-05-27T21:20:00.123+01:30"),
                MAY27_2120 + 123.0 - 1.5 * H,
            ),
            (
                AtText("2019-05-27T21:20:00.123-02:00"),
                MAY27_2120 + 123.0 + 2.0 * H,
            ),
            (AtText("2019-05-27T21:20:00-00:00"), MAY27_2120),
            (AtText("2019-05-27T21:20:00.5Z"), MAY27_2120 + 500.0),
            (AtText("2019-05-27T21:20:00.0005Z"), MAY27_2120 + 0.5),
            (
                AtText("2019-05-27T21:20:00.123456789Z"),
                MAY27_2120 + 123.456789,
            ),
            (AtText("  2027-01-01\n"), 1_798_761_600_000.0),
            (AtText("2000-02-29T00:00:00+00:00"), 951_782_400_000.0),
            (AtText("1969-12-31"), -DAY),
            (AtText("1970-01-01T00:00:00Z"), 0.0),
            (AtText("9999-12-31T23:59:59Z"), MAX_MS),
            (AtText("9999-12-31T23:59:59"), MAX_MS),
            (AtText("-009999-01-01"), -377_705_116_800_000.0),
            (DateMs(MAY27_2120 + 123.0), MAY27_2120 + 123.0),
            (DateMs(-1.0), -1.0),
            (DateMs(MAX_MS), MAX_MS),
        ];
        for (input, want) in cases {
            let got = parse_expires_at(*input);
            assert_eq!(got, Ok(*want), "{input:?}");
            assert!(
                got.unwrap().is_sign_positive() || *want < 0.0,
                "{input:?} gave -0"
            );
        }
    }

    #[test]
    fn exact_ttls() {
        let cases: &[(TtlInput, f64)] = &[
            (Seconds(0.0), 0.0),
            (Seconds(-0.0), 0.0),
            (Seconds(0.2), 200.0),
            (Seconds(1.5), 1500.0),
            (Seconds(3600.0), H),
            (Text("PT30S"), 30_000.0),
            (Text("PT10M"), 600_000.0),
            (Text("P90D"), 90.0 * DAY),
            (Text("P1DT2H"), 26.0 * H),
            (Text("P1W"), 7.0 * DAY),
            (Text("PT1.5H"), 1.5 * H),
            (Text("PT0.25S"), 250.0),
            (Text("PT0S"), 0.0),
            (Text("90 days"), 90.0 * DAY),
            (Text("1h 30m"), 1.5 * H),
            (Text("2h30m"), 2.5 * H),
            (Text("2 weeks"), 14.0 * DAY),
            (Text("500ms"), 500.0),
            (Text("3600 seconds"), H),
            (Text("1 hour, 30 minutes"), 1.5 * H),
            (Text(" 10m "), 600_000.0),
        ];
        for (input, want) in cases {
            let ttl = Ttl::parse(*input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
            assert_eq!(ttl.exact_ms(), Some(*want), "{input:?}");
            assert_eq!(
                ttl.expires_at_ms(JAN31_2026 + 0.25),
                Ok(JAN31_2026 + 0.25 + want)
            );
            assert_eq!(
                parse_exact_secs("expireAfter", *input),
                Ok(want / 1000.0),
                "{input:?}"
            );
        }
        assert_eq!(Ttl::parse(Text("PT10M")), Ttl::parse(Seconds(600.0)));
        assert_eq!(Ttl::parse(Text("1 year")), Ttl::parse(Text("P12M")));
    }

    #[test]
    fn calendar_ttls_add_in_utc() {
        let cases: &[(&str, f64, f64)] = &[
            ("1 month", JAN31_2026, FEB28_2026),
            ("P1M", JAN31_2026, FEB28_2026),
            ("P1M1D", JAN31_2026, MAR01_2026),
            ("1 month 12 hours", JAN31_2026, FEB28_2026 + 12.0 * H),
            ("3 months", JAN31_2026, APR30_2026),
            ("1 year", FEB29_2024, FEB28_2025),
            ("P12M", FEB29_2024, FEB28_2025),
            ("1 month", JAN31_2026 + 0.25, FEB28_2026 + 0.25),
            ("1 year", -DAY, 365.0 * DAY - DAY), // 1969-12-31 + 1 year = 1970-12-31
        ];
        for (text, now, want) in cases {
            let ttl = Ttl::parse(Text(text)).unwrap();
            assert_eq!(ttl.exact_ms(), None, "{text}");
            assert_eq!(ttl.expires_at_ms(*now), Ok(*want), "{text} from {now}");
        }
    }

    /// What is accepted beyond the documented grammar (the README lists each), and what is not.
    #[test]
    fn iso_8601_forms_beyond_the_grammar() {
        const DEC24_18: f64 = 1_798_135_200_000.0; // 2026-12-24T18:00:00Z (date -u -d ... +%s)
        const LEAP: f64 = 1_483_228_799_000.0; // 2016-12-31T23:59:59Z
        let accepted: &[(&str, f64)] = &[
            ("2026-12-24t18:00:00z", DEC24_18),           // lowercase t and z
            ("2026-12-24 18:00:00Z", DEC24_18),           // a space for T
            ("2026-12-24T18:00:00,5Z", DEC24_18 + 500.0), // a comma for the decimal point
            ("20261224T180000Z", DEC24_18),               // basic format
            ("2026-12-24T18:00Z", DEC24_18),              // reduced precision: no seconds
            ("2026-12-24T18Z", DEC24_18),                 // reduced precision: the hour alone
            ("2026-12-24T19:00:00+0100", DEC24_18),       // offset without a colon
            ("2026-12-24T19:00:00+01", DEC24_18),         // offset hours alone
            ("2026-12-25T07:59:59+13:59:59", DEC24_18),   // an offset with seconds
            ("2026-12-25T17:59:59+23:59:59", DEC24_18),   // the largest offset
            ("+002026-12-24T18:00:00Z", DEC24_18),        // extended year
            ("2016-12-31T23:59:60Z", LEAP),               // a leap second reads as :59
        ];
        for (text, want) in accepted {
            assert_eq!(parse_expires_at(ExpiresAtInput::Text(text)), Ok(*want), "{text}");
        }
        for (text, part) in [
            ("2026-12-24T18:00:00+25:00", "has the UTC offset +25:00, beyond ±23:59:59"),
            ("2026-12-24T18:00:00+24:00", "has the UTC offset +24:00"),
            ("2026-12-24T18:00:00-24:30", "has the UTC offset -24:30"),
            ("2026-W52-4", "is not a valid ISO-8601"),
            ("2026-358", "is not a valid ISO-8601"),
        ] {
            let e = parse_expires_at(ExpiresAtInput::Text(text)).unwrap_err();
            assert!(matches!(&e, Error::InvalidType(m) if m.contains(part) && m.contains(text)), "{text}: {e}");
        }
    }

    #[test]
    #[rustfmt::skip]
    fn bad_inputs_are_refused_with_the_value_and_the_accepted_forms() {
        let at = parse_expires_at;
        let ttl = |i| Ttl::parse(i).map(|t| t.exact_ms().unwrap_or(-1.0));
        let ttl_at = |i, now| Ttl::parse(i).and_then(|t| t.expires_at_ms(now));
        let exact = |i| parse_exact_secs("expireAfter", i);
        let (t, r) = ("TypeError", "RangeError");
        let long = "x".repeat(500);
        let cases: Vec<(Result<f64, Error>, &str, Vec<&str>)> = vec![
            (at(AtSecs(f64::NAN)), r, vec!["expiresAt NaN is not", AT_HINT]),
            (at(AtSecs(f64::INFINITY)), r, vec!["expiresAt Infinity is not finite", AT_HINT]),
            (at(AtSecs(f64::NEG_INFINITY)), r, vec!["expiresAt -Infinity", AT_HINT]),
            (at(AtSecs(1_763_726_400_000.0)), r,
                vec!["expiresAt 1763726400000 looks like milliseconds", "pass Unix seconds"]),
            (at(AtSecs(253_402_300_800.0)), r, vec!["expiresAt 253402300800 looks like milli"]),
            (at(AtSecs(253_402_300_800_000.0)), r, vec!["253402300800000 is beyond 9999", AT_HINT]),
            (at(AtSecs(1e21)), r, vec!["expiresAt 1e+21 is beyond", AT_HINT]),
            (at(AtSecs(-1e12)), r, vec!["expiresAt -1000000000000 is before -9999", AT_HINT]),
            (at(AtText("10000-01-01")), r, vec!["expiresAt \"10000-01-01\" is beyond year 9999", AT_HINT]),
            (at(AtText("+010000-01-01T00:00:00Z")), r, vec!["\"+010000-01-01T00:00:00Z\" is beyond year 9999"]),
            (at(AtText("")), t, vec!["expiresAt \"\" is empty", AT_HINT]),
            (at(AtText("   ")), t, vec!["expiresAt \"   \" is empty", AT_HINT]),
            (at(AtText("1798761600")), t,
                vec!["expiresAt \"1798761600\" is a number inside", "the number 1798761600"]),
            (at(AtText("20270101")), t, vec!["\"20270101\" is a number inside", AT_HINT]),
            (at(AtText("2019-13-45")), t,
                vec!["expiresAt \"2019-13-45\" is not a valid ISO-8601 date or date-time (", AT_HINT]),
            (at(AtText("2019-02-30")), t, vec!["\"2019-02-30\" is not a valid ISO-8601", "day"]),
            (at(AtText("tomorrow")), t, vec!["expiresAt \"tomorrow\" is not a valid", AT_HINT]),
            (at(AtText("2019-05-27T24:00:00")), t, vec!["\"2019-05-27T24:00:00\"", "hour"]),
            (at(AtText("2019-05-27Z")), t, vec!["\"2019-05-27Z\" is not a valid", AT_HINT]),
            (at(AtText("2019-05-27T21:20:00.1234567891Z")), t, vec!["00.1234567891Z\" is", AT_HINT]),
            (at(AtText("Mon, 27 May 2019 21:20:00 GMT")), t, vec!["\"Mon, 27 May 2019", AT_HINT]),
            (at(AtText("2019\"05")), t, vec!["expiresAt \"2019\\\"05\" is not", AT_HINT]),
            (at(AtText("2019-05-27T21:20:00[Europe/Paris]")), t,
                vec!["time zone annotation [Europe/Paris]", "no time zone database", AT_HINT]),
            (at(AtText("2019-05-27T21:20:00+02:00[+02:00]")), t,
                vec!["expiresAt \"2019-05-27T21:20:00+02:00[+02:00]\" has a time zone", AT_HINT]),
            (at(AtText("9999-12-31T23:59:59-01:00")), r, vec!["59-01:00\" is beyond", AT_HINT]),
            (at(AtText("9999-12-31T23:59:59.5Z")), r, vec!["is beyond 9999-12-31T23:59:59Z"]),
            (at(AtText(&long)), t, vec!["expiresAt \"xxxxx", "... (500 characters) is not"]),
            (at(DateMs(f64::NAN)), t, vec!["expiresAt is an Invalid Date (getTime() is NaN)"]),
            (at(DateMs(MAX_MS + 1000.0)), r, vec!["expiresAt Date with getTime() 253402300800000 is beyond"]),
            (ttl(Seconds(-5.0)), r, vec!["ttl -5 is negative; ttl", TTL_HINT]),
            (ttl(Seconds(-0.5)), r, vec!["ttl -0.5 is negative", TTL_HINT]),
            (ttl(Seconds(f64::NAN)), r, vec!["ttl NaN is not a number", TTL_HINT]),
            (ttl(Seconds(f64::INFINITY)), r, vec!["ttl Infinity is not finite", TTL_HINT]),
            (ttl(Seconds(1e300)), r, vec!["ttl 1e+300 is longer than", TTL_HINT]),
            (ttl(Text("3600")), t,
                vec!["ttl \"3600\" is a number inside", "the number 3600", "\"3600 seconds\""]),
            (ttl(Text("")), t, vec!["ttl \"\" is empty", TTL_HINT]),
            (ttl(Text("abc")), t, vec!["ttl \"abc\" is not a valid duration (", TTL_HINT]),
            (ttl(Text("10 parsecs")), t, vec!["ttl \"10 parsecs\" is not a valid", TTL_HINT]),
            (ttl(Text("1.5 days")), t, vec!["ttl \"1.5 days\"", "fractional days", TTL_HINT]),
            (ttl(Text("100000 years")), t, vec!["ttl \"100000 years\"", TTL_HINT]),
            (ttl(Text("-PT5M")), r, vec!["ttl \"-PT5M\" is negative", TTL_HINT]),
            (ttl(Text("5 minutes ago")), r, vec!["ttl \"5 minutes ago\" is negative", TTL_HINT]),
            (ttl_at(Text("9000 years"), JAN31_2026), r,
                vec!["ttl \"9000 years\" set at 2026-01-31T00:00:00Z would expire after", TTL_HINT]),
            (ttl_at(Seconds(MAX_EXPIRES_AT_SECS), JAN31_2026), r, vec!["ttl 253402300799 set"]),
            (ttl_at(Seconds(1.0), f64::NAN), r, vec!["the current time NaN ms"]),
            (exact(Text("3 months")), r,
                vec!["expireAfter \"3 months\" has months or years", "count in days", TTL_HINT]),
            (exact(Seconds(-1.0)), r, vec!["expireAfter -1 is negative; expireAfter is"]),
            (Ttl::parse_as("defaultTtl", Text("soon")).map(|_| 0.0), t,
                vec!["defaultTtl \"soon\" is not a valid", "defaultTtl is a non-negative"]),
        ];
        assert!(cases.len() >= 25);
        for (i, (got, js, needles)) in cases.iter().enumerate() {
            let err = got.as_ref().expect_err(&format!("case {i} ({needles:?}) was accepted"));
            assert_eq!(err.js_name(), *js, "case {i}: {err}");
            for needle in needles {
                assert!(err.to_string().contains(needle), "case {i}: {err:?} lacks {needle:?}");
            }
        }
    }

    #[test]
    fn numbers_print_as_js_does() {
        let cases: &[(f64, &str)] = &[
            (1_763_726_400_000.0, "1763726400000"),
            (1.5, "1.5"),
            (-5.0, "-5"),
            (-0.0, "0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (1e21, "1e+21"),
            (1.5e300, "1.5e+300"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (123_456_789_012_345_680_000.0, "123456789012345680000"),
        ];
        for (n, want) in cases {
            assert_eq!(js_number(*n), *want);
        }
    }
}
