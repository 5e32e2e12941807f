//! The project's own reader of expiry strings: ISO-8601 / Temporal date-times and durations,
//! and the "friendly" durations (`"90 days"`, `"1h 30m"`), exactly as jiff 0.2.16 reads them
//! (`Pieces::parse`, `Span::from_str`), without shipping jiff (a smaller package).
//!
//! jiff stays the reference: `tests/properties.rs` runs the jiff-based implementation this
//! replaced beside this one on generated input (every documented form, each mutated a character
//! at a time, and the edges) and requires the same acceptance, the same instant to the
//! nanosecond and the same error kind. Refusals carry a short reason of their own instead of
//! jiff's wording.

/// A refusal's reason, shown in parentheses in the message.
pub type Why = &'static str;

/// A date-time as written: its Unix time (the civil time minus the offset) as whole seconds and
/// nanoseconds of the same sign (as jiff's `SignedDuration`), the offset in seconds, and whether
/// a time zone annotation (`[Europe/Paris]`, `[+02:00]`) follows it.
#[derive(Debug)]
pub struct Instant {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    pub secs: i64,
    /// Nanoseconds beyond `secs`, of its sign.
    pub nanos: i32,
    /// The UTC offset written, in seconds (0 for `Z` or none).
    pub offset: i32,
    /// Whether a time zone annotation follows.
    pub annotated: bool,
}

struct Cur<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cur<'_> {
    fn peek(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }
    fn at(&self, k: usize) -> u8 {
        self.b.get(self.i + k).copied().unwrap_or(0)
    }
    fn eat(&mut self, c: u8) -> bool {
        let yes = self.peek() == c && self.i < self.b.len();
        self.i += usize::from(yes);
        yes
    }
    fn eat_any(&mut self, set: &[u8]) -> bool {
        let yes = self.i < self.b.len() && set.contains(&self.peek());
        self.i += usize::from(yes);
        yes
    }
    fn two_digits(&self) -> bool {
        self.peek().is_ascii_digit() && self.at(1).is_ascii_digit()
    }
    /// Exactly `n` digits, within `lo..=hi`.
    fn fixed(&mut self, n: usize, lo: u32, hi: u32, why: Why) -> Result<u32, Why> {
        let mut v = 0;
        for _ in 0..n {
            let d = self.peek();
            if !d.is_ascii_digit() {
                return Err(why);
            }
            v = v * 10 + u32::from(d - b'0');
            self.i += 1;
        }
        if v < lo || v > hi {
            return Err(why);
        }
        Ok(v)
    }
    /// `.` or `,` and 1 to 9 digits (more are left for the caller to trip on), in nanoseconds.
    fn fraction(&mut self) -> Result<Option<u32>, Why> {
        if !self.eat_any(b".,") {
            return Ok(None);
        }
        let (mut v, mut n) = (0, 0);
        while n < 9 && self.peek().is_ascii_digit() {
            v = v * 10 + u32::from(self.peek() - b'0');
            self.i += 1;
            n += 1;
        }
        if n == 0 {
            return Err("no digit after the decimal point");
        }
        Ok(Some(v * 10u32.pow(9 - n)))
    }
    /// An unsigned integer (jiff reads at most 21 digits of one), `None` when no digit.
    fn number(&mut self) -> Result<Option<u64>, Why> {
        let start = self.i;
        let mut v: u64 = 0;
        while self.i - start < 21 && self.peek().is_ascii_digit() {
            let d = u64::from(self.peek() - b'0');
            v = v.checked_mul(10).and_then(|v| v.checked_add(d)).ok_or("a number too large")?;
            self.i += 1;
        }
        Ok((self.i > start).then_some(v))
    }
    /// A run of the bytes `ok` allows, at least one of which `first` allows.
    fn word(&mut self, first: fn(u8) -> bool, ok: fn(u8) -> bool) -> Result<(), Why> {
        if self.i >= self.b.len() || !first(self.peek()) {
            return Err("a malformed annotation");
        }
        while self.i < self.b.len() && ok(self.peek()) {
            self.i += 1;
        }
        Ok(())
    }
    fn done(&self) -> Result<(), Why> {
        if self.i == self.b.len() { Ok(()) } else { Err("unexpected text") }
    }
}

const MAX_OFFSET: i32 = 25 * 3600 + 59 * 60 + 59;

/// A numeric UTC offset after its sign, `+HH[:MM[:SS[.fff]]]` or the same without colons, in
/// seconds (a fraction rounds half up, as jiff does); `minutes_only` for annotations.
fn offset(c: &mut Cur, minutes_only: bool) -> Result<i32, Why> {
    const WHY: Why = "an invalid UTC offset";
    let neg = c.peek() == b'-';
    c.i += 1;
    let mut s = c.fixed(2, 0, 25, WHY)? as i32 * 3600;
    let ext = c.peek() == b':';
    let more = |c: &mut Cur| if ext { c.eat(b':') } else { c.two_digits() };
    if more(c) {
        s += c.fixed(2, 0, 59, WHY)? as i32 * 60;
        if minutes_only {
            if c.peek() == b':' {
                return Err(WHY);
            }
        } else if more(c) {
            s += c.fixed(2, 0, 59, WHY)? as i32;
            if c.fraction()?.is_some_and(|n| n >= 500_000_000) {
                s += 1;
                if s > MAX_OFFSET {
                    return Err(WHY);
                }
            }
        }
    }
    Ok(if neg { -s } else { s })
}

/// Days from 1970-01-01 to a proleptic Gregorian date.
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
}

/// The date `days` after 1970-01-01: (year, month, day).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The days of a month of a proleptic Gregorian year.
pub fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Reads a date or date-time as jiff's `Pieces::parse` does: `YYYY-MM-DD` or `YYYYMMDD` (the
/// year may be `±YYYYYY`), then optionally `T`, `t` or a space and `HH[:MM[:SS[.fff]]]` (or
/// without colons), then `Z`, `z` or a numeric offset, then RFC 9557 annotations.
pub fn date_time(s: &str) -> Result<Instant, Why> {
    let c = &mut Cur { b: s.as_bytes(), i: 0 };
    const YEAR: Why = "an invalid year";
    let year = if matches!(c.peek(), b'+' | b'-') {
        let neg = c.peek() == b'-';
        c.i += 1;
        let y = c.fixed(6, u32::from(neg), 9999, YEAR)? as i64;
        if neg { -y } else { y }
    } else {
        i64::from(c.fixed(4, 0, 9999, YEAR)?)
    };
    let ext = c.eat(b'-');
    let month = c.fixed(2, 1, 12, "an invalid month")?;
    if ext && !c.eat(b'-') || !ext && c.peek() == b'-' {
        return Err("mixed separators");
    }
    let day = c.fixed(2, 1, days_in_month(year, month), "an invalid day")?;
    let mut secs = days_from_civil(year, month, day) * 86_400;
    let mut nanos = 0;
    let mut off = 0;
    if c.eat_any(b"Tt ") {
        const HOUR: Why = "an invalid hour";
        secs += i64::from(c.fixed(2, 0, 23, HOUR)?) * 3600;
        let ext = c.peek() == b':';
        let more = |c: &mut Cur| if ext { c.eat(b':') } else { c.two_digits() };
        if more(c) {
            secs += i64::from(c.fixed(2, 0, 59, "an invalid minute")?) * 60;
            if more(c) {
                secs += i64::from(c.fixed(2, 0, 60, "an invalid second")?.min(59));
                nanos = c.fraction()?.unwrap_or(0) as i32;
            }
        }
        if c.eat_any(b"Zz") {
        } else if matches!(c.peek(), b'+' | b'-') {
            off = offset(c, false)?;
        }
    }
    let mut annotated = false;
    if c.peek() == b'[' {
        // A time zone (a name or an offset) first, then `key=value` ones, ignored unless critical.
        let start = c.i;
        c.i += 1;
        c.eat(b'!');
        if matches!(c.peek(), b'+' | b'-') {
            offset(c, true)?;
            annotated = true;
        } else {
            fn lead(b: u8) -> bool {
                b == b'_' || b == b'.' || b.is_ascii_alphabetic()
            }
            fn rest(b: u8) -> bool {
                lead(b) || b == b'+' || b == b'-' || b.is_ascii_digit()
            }
            c.word(lead, rest)?;
            if c.peek() == b'=' {
                c.i = start;
            } else {
                while c.eat(b'/') {
                    c.word(lead, rest)?;
                }
                annotated = true;
            }
        }
        if annotated && !c.eat(b']') {
            return Err("a malformed annotation");
        }
        while c.eat(b'[') {
            let critical = c.eat(b'!');
            fn key(b: u8) -> bool {
                b == b'_' || b.is_ascii_lowercase()
            }
            c.word(key, |b| key(b) || b == b'-' || b.is_ascii_digit())?;
            if !c.eat(b'=') {
                return Err("a malformed annotation");
            }
            c.word(|b| b.is_ascii_alphanumeric(), |b| b.is_ascii_alphanumeric())?;
            while c.eat(b'-') {
                c.word(|b| b.is_ascii_alphanumeric(), |b| b.is_ascii_alphanumeric())?;
            }
            if !c.eat(b']') || critical {
                return Err("a malformed or critical annotation");
            }
        }
    }
    c.done()?;
    secs -= i64::from(off);
    if secs < 0 && nanos > 0 {
        secs += 1;
        nanos -= 1_000_000_000;
    }
    Ok(Instant { secs, nanos, offset: off, annotated })
}

/// A duration as read: its sign, whole calendar months (a year is 12) and the exact rest
/// (weeks, days as 24 h, and time) in seconds and nanoseconds.
#[derive(Debug)]
pub struct Duration {
    /// Negative (a `-` or `ago`, with a unit other than zero).
    pub negative: bool,
    /// Years times 12 plus months.
    pub months: i64,
    /// Whole seconds of weeks, days and time.
    pub secs: i64,
    /// Nanoseconds beyond `secs`.
    pub nanos: u32,
}

// Units as jiff numbers them: 0 nanosecond .. 9 year.
const HOUR: usize = 5;
/// The length of each time unit (ns to h) in nanoseconds.
const NANOS: [i64; 6] = [1, 1000, 1_000_000, 1_000_000_000, 60_000_000_000, 3_600_000_000_000];
/// The largest value a jiff `Span` holds in each unit.
const LIMITS: [u64; 10] = [
    i64::MAX as u64,
    631_107_417_600_000_000,
    631_107_417_600_000,
    631_107_417_600,
    10_518_456_960,
    175_307_616,
    7_304_484,
    1_043_497,
    239_976,
    19_998,
];

#[derive(Default)]
struct Units {
    values: [u64; 10],
    fraction: Option<u32>,
    smallest: Option<usize>,
}

impl Units {
    fn set(&mut self, unit: usize, value: u64) -> Result<(), Why> {
        if self.smallest.is_some_and(|s| s <= unit) {
            return Err("units must go from the largest to the smallest, each once");
        }
        self.smallest = Some(unit);
        self.values[unit] = value;
        Ok(())
    }

    fn set_fraction(&mut self, fraction: u32) -> Result<(), Why> {
        match self.smallest {
            Some(u) if u == 0 || u > HOUR => Err(FRACTIONAL[u]),
            _ => {
                self.fraction = Some(fraction);
                Ok(())
            }
        }
    }

    /// What jiff's span builder makes of the units: refused where a value is beyond what a
    /// `Span` holds, even once spread into the smaller time units (as jiff spreads hours, minutes,
    /// seconds, milliseconds and microseconds past their own limit).
    fn finish(&self, negative: bool) -> Result<Duration, Why> {
        let Some(smallest) = self.smallest else { return Err("no units") };
        let v = &self.values;
        let (mut secs, mut nanos) = (0i64, 0i64);
        for unit in 0..=HOUR {
            let n = v[unit];
            let fraction = if unit == smallest { self.fraction } else { None };
            if n == 0 && fraction.is_none() {
                continue;
            }
            if n > LIMITS[0] {
                return Err(TOO_LARGE);
            }
            // The value as seconds and nanoseconds (an hour or minute count must fit i64 seconds).
            let unit_secs = NANOS[unit] / 1_000_000_000;
            let per = 1_000_000_000 / NANOS[unit];
            let (mut s, mut ns) = if unit_secs > 0 {
                ((n as i64).checked_mul(unit_secs).ok_or(TOO_LARGE)?, 0)
            } else {
                (n as i64 / per, n as i64 % per * NANOS[unit])
            };
            if let Some(f) = fraction {
                // As jiff: a fraction of a millisecond or microsecond is cut to whole nanoseconds.
                let f = i64::from(f);
                let f = if unit_secs > 0 { f * unit_secs } else { f / per };
                ns += f % 1_000_000_000;
                s += f / 1_000_000_000 + ns / 1_000_000_000;
                ns %= 1_000_000_000;
            }
            // Past its limit, jiff spreads a time unit into the smaller ones down to microseconds,
            // each at its limit (631 107 417 600 s of each), the rest in nanoseconds, which must
            // fit an i64.
            let rest = s - unit as i64 * 631_107_417_600;
            if unit > 0 && (rest > 9_223_372_036 || rest == 9_223_372_036 && ns > 854_775_807) {
                return Err(TOO_LARGE);
            }
            secs += s;
            nanos += ns;
        }
        for unit in HOUR + 1..10 {
            if v[unit] > LIMITS[unit] {
                return Err(TOO_LARGE);
            }
        }
        secs += (v[7] as i64 * 7 + v[6] as i64) * 86_400 + nanos / 1_000_000_000;
        let any = v.iter().any(|&n| n != 0);
        Ok(Duration {
            // jiff's sign is that of the units: "-PT0.5S" is half a second.
            negative: negative && any,
            months: v[9] as i64 * 12 + v[8] as i64,
            secs,
            nanos: (nanos % 1_000_000_000) as u32,
        })
    }
}

const TOO_LARGE: Why = "a value too large";
const FRACTIONAL: [Why; 10] = [
    "fractional nanoseconds are not supported",
    "",
    "",
    "",
    "",
    "",
    "fractional days are not supported",
    "fractional weeks are not supported",
    "fractional months are not supported",
    "fractional years are not supported",
];

/// The friendly format's unit labels, longest first (jiff's table), each after its unit number.
const LABELS: &str = "2milliseconds 1microseconds 0nanoseconds 2millisecond 1microsecond 0nanosecond \
     3seconds 4minutes 1\u{b5}secs 3second 8months 4minute 2millis 1micros 1\u{b5}sec 9years 7weeks \
     1usecs 0nsecs 0nanos 2msecs 8month 2milli 1micro 5hours 9year 7week 1usec 3secs 0nsec 0nano \
     2msec 4mins 5hour 6days 1\u{b5}s 9yrs 7wks 3sec 8mos 4min 5hrs 6day 9yr 7wk 1us 0ns 2ms 8mo 5hr \
     9y 7w 3s 4m 5h 6d";

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C')
}

/// Reads a duration as jiff's `Span::from_str` does: ISO-8601 (`P1Y2M3W4DT5H6M7.5S`, any case,
/// a fraction on the last time unit only) when it starts with `P` (after an optional sign),
/// jiff's friendly format (`"90 days"`, `"1h 30m"`, `"1 hour, 30 minutes"`, `"1:30:00"`,
/// `"5m ago"`) otherwise.
pub fn duration(s: &str) -> Result<Duration, Why> {
    let c = &mut Cur { b: s.as_bytes(), i: 0 };
    let mut units = Units::default();
    let mut negative = c.peek() == b'-' && c.i < s.len();
    let signed = c.eat_any(b"+-");
    if c.eat_any(b"Pp") {
        while let Some(n) = c.number()? {
            let unit = match c.peek() | 0x20 {
                b'y' => 9,
                b'm' => 8,
                b'w' => 7,
                b'd' => 6,
                _ => return Err("a date unit other than Y, M, W or D"),
            };
            c.i += 1;
            units.set(unit, n)?;
        }
        if c.eat_any(b"Tt") {
            while let Some(n) = c.number()? {
                let fraction = c.fraction()?;
                let unit = match c.peek() | 0x20 {
                    b'h' => 5,
                    b'm' => 4,
                    b's' => 3,
                    _ => return Err("a time unit other than H, M or S"),
                };
                c.i += 1;
                units.set(unit, n)?;
                if let Some(f) = fraction {
                    units.set_fraction(f)?;
                    break;
                }
            }
            if units.smallest.is_none_or(|u| u > HOUR) {
                return Err("no time unit after T");
            }
        }
    } else {
        let mut n = c.number()?.ok_or("no number")?;
        let mut after_comma = true;
        loop {
            if c.eat(b':') {
                // HH:MM:SS[.fff]
                let m = c.number()?.ok_or("no minutes")?;
                if !c.eat(b':') {
                    return Err("no seconds");
                }
                let sec = c.number()?.ok_or("no seconds")?;
                let fraction = c.fraction()?;
                if units.smallest.is_some_and(|u| u <= HOUR) {
                    return Err("HH:MM:SS after hours or a smaller unit");
                }
                units.set(5, n)?;
                units.set(4, m)?;
                units.set(3, sec)?;
                if let Some(f) = fraction {
                    units.set_fraction(f)?;
                }
                break;
            }
            let fraction = if matches!(c.peek(), b'.' | b',') { c.fraction()? } else { None };
            while is_space(c.peek()) {
                c.i += 1;
            }
            let rest = &c.b[c.i..];
            let (unit, len) = LABELS
                .split(' ')
                .find(|l| rest.starts_with(&l.as_bytes()[1..]))
                .map(|l| (usize::from(l.as_bytes()[0] - b'0'), l.len() - 1))
                .ok_or("no unit, or an unknown one")?;
            c.i += len;
            if c.eat(b',') {
                if !is_space(c.peek()) {
                    return Err("no space after a comma");
                }
                c.i += 1;
                after_comma = false;
            }
            units.set(unit, n)?;
            if let Some(f) = fraction {
                units.set_fraction(f)?;
                break;
            }
            let before = c.i;
            while is_space(c.peek()) {
                c.i += 1;
            }
            match c.number()? {
                Some(next) => {
                    n = next;
                    after_comma = true;
                }
                None => {
                    c.i = before;
                    break;
                }
            }
        }
        if !after_comma {
            return Err("a comma at the end");
        }
        if is_space(c.peek()) {
            while is_space(c.peek()) {
                c.i += 1;
            }
            if c.b[c.i..].starts_with(b"ago") {
                if signed {
                    return Err("both a sign and \"ago\"");
                }
                c.i += 3;
                negative = true;
            }
        }
    }
    c.done()?;
    units.finish(negative)
}
