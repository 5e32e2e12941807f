//! HTTP freshness (`ttlFromHeaders`): how long a response may be served from a cache without
//! asking the server again, from its header fields, as RFC 9111 has a private cache (a browser's,
//! a service worker's) compute it. Pure: the caller passes `now` (Unix seconds).
//!
//! `max-age` minus the response's current age, else `Expires` minus `Date` (or minus `now`
//! without a valid `Date`) minus the current age; `None` for `no-store` or no freshness
//! information at all (a cache may then only guess, RFC 9111 4.2.2, which this does not);
//! `no-cache`, and freshness information that is invalid or contradicts itself, give `0` (stored
//! but stale). Never negative. `s-maxage` is for shared caches and is ignored, as a private cache
//! must (5.2.2.10); so are `Pragma` (deprecated, 5.4) and heuristic freshness.

use crate::core::error::{Error, Result};
use crate::core::expiry::MAX_EXPIRES_AT_SECS;
use crate::core::iso::{civil_from_days, days_from_civil, days_in_month};
use crate::core::text::js_number;

/// The header fields freshness depends on, as the response carried them: `None` when absent,
/// several field lines of one name joined by `", "` (RFC 9110 5.3), as `Headers.get` gives them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fields<'a> {
    /// `Cache-Control`.
    pub cache_control: Option<&'a str>,
    /// `Age`.
    pub age: Option<&'a str>,
    /// `Expires`.
    pub expires: Option<&'a str>,
    /// `Date`.
    pub date: Option<&'a str>,
}

/// A delta-seconds past this is taken as this (RFC 9111 1.2.2: 2^31).
const MAX_DELTA: f64 = 2_147_483_648.0;

/// The freshness lifetime left (RFC 9111 4.2: freshness lifetime minus current age) in seconds,
/// from 0 to 2^31; `None` when the response must not be stored or says nothing about freshness.
pub fn ttl_secs(f: &Fields<'_>, now_secs: f64) -> Option<f64> {
    // None: no max-age; Some(None): an invalid one, or two that disagree (4.2.1: stale).
    let mut max_age: Option<Option<f64>> = None;
    let mut no_cache = false;
    for (name, arg) in directives(f.cache_control.unwrap_or("")) {
        if name.eq_ignore_ascii_case("no-store") {
            return None;
        } else if name.eq_ignore_ascii_case("no-cache") {
            no_cache = true;
        } else if name.eq_ignore_ascii_case("max-age") {
            let v = arg.and_then(delta);
            max_age = Some(if max_age.is_some_and(|m| m != v) { None } else { v });
        }
    }
    // An invalid Date is as none: the time of receipt (RFC 9110 6.6.1).
    let date = f.date.and_then(|d| http_date(d, now_secs));
    // 4.2.3 with the response just received: the larger of Age (ignored if invalid, 5.1) and
    // the apparent age, now - Date.
    let age = f.age.and_then(delta).unwrap_or(0.0).max(date.map_or(0.0, |d| now_secs - d));
    let lifetime = match (max_age, f.expires) {
        _ if no_cache => 0.0,
        // 5.3: with a max-age, Expires is ignored.
        (Some(m), _) => m.unwrap_or(0.0),
        // 5.3: an invalid Expires ("0") is a time in the past.
        (None, Some(e)) => http_date(e, now_secs).map_or(0.0, |e| e - date.unwrap_or(now_secs)),
        (None, None) => return None,
    };
    // 1.2.2: what overflows 2^31 is 2^31 (68 years; so now + ttl stays within what set() takes).
    Some((lifetime - age).clamp(0.0, MAX_DELTA))
}

/// `now` as `ttlFromHeaders` takes it: Unix seconds, finite, not negative, not milliseconds.
pub fn now_secs(now: f64) -> Result<f64> {
    if (0.0..=MAX_EXPIRES_AT_SECS).contains(&now) {
        return Ok(now);
    }
    let why = if now / 1000.0 <= MAX_EXPIRES_AT_SECS && now > 0.0 { "looks like milliseconds (as from Date.now())" } else { "is not accepted" };
    Err(Error::OutOfRange(format!(
        "ttlFromHeaders now {} {why}; expected Unix seconds from 0 to 253402300799 (year 9999), e.g. Date.now() / 1000, or nothing for the clock",
        js_number(now)
    )))
}

/// The directives of a Cache-Control value (RFC 9111 5.2, RFC 9110 5.6.1): `name[=arg]` split at
/// commas outside quoted strings, `arg` unquoted (5.2: recipients accept a quoted-string where a
/// token is specified); empty elements skipped. Whitespace around `=` is tolerated, as browsers do.
fn directives(s: &str) -> impl Iterator<Item = (&str, Option<&str>)> {
    let mut rest = s;
    std::iter::from_fn(move || loop {
        if rest.is_empty() {
            return None;
        }
        let (mut end, mut quoted, mut escaped) = (rest.len(), false, false);
        for (i, b) in rest.bytes().enumerate() {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = quoted;
            } else if b == b'"' {
                quoted = !quoted;
            } else if b == b',' && !quoted {
                end = i;
                break;
            }
        }
        let item = rest.get(..end).unwrap_or(rest);
        rest = rest.get(end + 1..).unwrap_or("");
        let (name, arg) = match item.split_once('=') {
            Some((n, a)) => (n, Some(unquote(a.trim()))),
            None => (item, None),
        };
        let name = name.trim();
        if !name.is_empty() {
            return Some((name, arg));
        }
    })
}

/// A token as it is, or a quoted-string's content (an escape in it, `\\`, is kept: the arguments
/// read here are digits, which no one escapes, and a backslash makes them invalid).
fn unquote(a: &str) -> &str {
    a.strip_prefix('"').and_then(|a| a.strip_suffix('"')).unwrap_or(a)
}

/// A delta-seconds (RFC 9111 1.2.2) between optional whitespace: past 2^31 it is 2^31.
fn delta(s: &str) -> Option<f64> {
    digits(s.trim())
}

/// One or more ASCII digits, nothing else, as a number up to 2^31.
fn digits(s: &str) -> Option<f64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(s.bytes().fold(0.0, |n, b| (n * 10.0 + f64::from(b - b'0')).min(MAX_DELTA)))
}

const MONTHS: &str = "JanFebMarAprMayJunJulAugSepOctNovDec";
const DAYS: &str = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday";

/// An HTTP-date (RFC 9110 5.6.7) as Unix seconds: IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`,
/// the obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994`.
/// Case-sensitive, as the grammar is; the day name must be one, but need not match the date.
/// `None` for anything else (a date that does not exist, `"0"`, two dates joined by a comma).
fn http_date(s: &str, now_secs: f64) -> Option<f64> {
    let mut w = [""; 6];
    for (i, word) in s.split(' ').filter(|w| !w.is_empty()).enumerate() {
        *w.get_mut(i)? = word;
    }
    let day_name = |n: &str, long: bool| DAYS.split(' ').any(|d| n == if long { d } else { d.get(..3).unwrap_or(d) });
    let (day, month, year, time) = match w[0].strip_suffix(',') {
        // RFC 850: full day name, date2 with dashes and a two-digit year.
        Some(n) if day_name(n, true) && w[3] == "GMT" && w[4].is_empty() => {
            let d = w[1];
            if d.len() != 9 || d.as_bytes()[2] != b'-' || d.as_bytes()[6] != b'-' {
                return None;
            }
            (d.get(..2)?, d.get(3..6)?, d.get(7..)?, w[2])
        }
        // IMF-fixdate.
        Some(n) if day_name(n, false) && w[5] == "GMT" && w[1].len() == 2 && w[3].len() == 4 => (w[1], w[2], w[3], w[4]),
        // asctime: space-padded day, year last, no zone (it is GMT).
        None if day_name(w[0], false) && w[5].is_empty() && w[2].len() <= 2 && w[4].len() == 4 => (w[2], w[1], w[4], w[3]),
        _ => return None,
    };
    let month = (0..12).find(|i| MONTHS.get(i * 3..i * 3 + 3) == Some(month))? as u32 + 1;
    let num = |t: Option<&str>| Some(digits(t?)? as u32);
    let t = time.as_bytes();
    if t.len() != 8 || t[2] != b':' || t[5] != b':' {
        return None;
    }
    let (h, m, sec) = (num(time.get(..2))?, num(time.get(3..5))?, num(time.get(6..))?);
    let two_digit_year = year.len() == 2;
    let (day, mut year) = (num(Some(day))?, i64::from(num(Some(year))?));
    if h > 23 || m > 59 || sec > 60 || day < 1 {
        return None;
    }
    // 23:59:60, a leap second, is 23:59:59 (a Unix time has none).
    let at = |y: i64| days_from_civil(y, month, day) as f64 * 86_400.0 + f64::from(h * 3600 + m * 60 + sec.min(59));
    if two_digit_year {
        // RFC 850's two-digit year: this century's, unless that is more than 50 years ahead,
        // then the last century's (RFC 9110 5.6.7).
        let now_day = (now_secs / 86_400.0).floor();
        let (now_year, now_month, now_date) = civil_from_days(now_day as i64);
        year += now_year - now_year % 100;
        let limit = days_from_civil(now_year + 50, now_month, now_date) as f64 * 86_400.0 + (now_secs - now_day * 86_400.0);
        if at(year) > limit {
            year -= 100;
        }
    }
    (day <= days_in_month(year, month)).then(|| at(year))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: f64 = 1_800_000_000.0; // Fri, 15 Jan 2027 08:00:00 GMT
    const DATE: &str = "Fri, 15 Jan 2027 08:00:00 GMT"; // NOW
    const BEFORE: &str = "Fri, 15 Jan 2027 07:58:20 GMT"; // NOW - 100
    const AFTER: &str = "Fri, 15 Jan 2027 08:16:40 GMT"; // NOW + 1000
    const IN_AN_HOUR: &str = "Fri, 15 Jan 2027 09:00:00 GMT"; // NOW + 3600
    const SUN_1994: f64 = 784_111_777.0; // Sun, 06 Nov 1994 08:49:37 GMT

    fn cc(v: &str) -> Fields<'_> {
        Fields { cache_control: Some(v), ..Fields::default() }
    }

    /// The rules of RFC 9111 (and RFC 9110 for dates), one row each, with the clause.
    #[test]
    fn freshness_follows_rfc_9111() {
        #[rustfmt::skip]
        let rows: Vec<(&str, Fields, f64, Option<f64>)> = vec![
            ("4.2.1 max-age is the freshness lifetime", cc("max-age=60"), NOW, Some(60.0)),
            ("5.2.2.1 max-age=0: stale at once", cc("max-age=0"), NOW, Some(0.0)),
            ("5.2 directive names are case-insensitive", cc("Max-Age=60"), NOW, Some(60.0)),
            ("5.2 a quoted-string argument is accepted where a token is specified", cc("max-age=\"60\""), NOW, Some(60.0)),
            ("5.2 other directives around it, OWS, empty list elements (RFC 9110 5.6.1)", cc(" public ,, max-age=60 ,must-revalidate, "), NOW, Some(60.0)),
            ("5.2 a comma inside a quoted-string does not split directives", cc("ext=\"a, max-age=5\", max-age=60"), NOW, Some(60.0)),
            ("5.2 an escaped quote does not end a quoted-string", cc("ext=\"a\\\", max-age=5\", max-age=60"), NOW, Some(60.0)),
            ("5.2.2.5 no-store: must not be stored", cc("no-store"), NOW, None),
            ("5.2.2.5 no-store wins over max-age (4.2.1: the most restrictive)", cc("max-age=60, NO-STORE"), NOW, None),
            ("5.2.2.4 no-cache: stored, but stale (revalidate first)", cc("no-cache"), NOW, Some(0.0)),
            ("5.2.2.4 no-cache wins over max-age", cc("max-age=60, no-cache"), NOW, Some(0.0)),
            ("5.2.2.4 qualified no-cache is handled as unqualified, as most caches do", cc("no-cache=\"Set-Cookie, X\", max-age=60"), NOW, Some(0.0)),
            ("5.2.2.10 s-maxage is for shared caches: a private cache ignores it", cc("s-maxage=600, max-age=60"), NOW, Some(60.0)),
            ("5.2.2.10 s-maxage alone is no freshness information here", cc("s-maxage=600"), NOW, None),
            ("4.2.1 max-age with non-integer content: stale", cc("max-age=1.5"), NOW, Some(0.0)),
            ("4.2.1 a negative max-age: stale", cc("max-age=-1"), NOW, Some(0.0)),
            ("4.2.1 max-age with no value: stale", cc("max-age"), NOW, Some(0.0)),
            ("4.2.1 max-age with an empty value: stale", cc("max-age="), NOW, Some(0.0)),
            ("4.2.1 max-age that is not a number: stale", cc("max-age=a while"), NOW, Some(0.0)),
            ("4.2.1 two max-age that disagree: stale", cc("max-age=60, max-age=120"), NOW, Some(0.0)),
            ("4.2.1 an invalid max-age and a valid one: stale", cc("max-age=x, max-age=60"), NOW, Some(0.0)),
            ("4.2.1 a repeated max-age that agrees is one value", cc("max-age=60, max-age=60"), NOW, Some(60.0)),
            ("1.2.2 a delta-seconds past 2^31 is 2^31", cc("max-age=99999999999999999999"), NOW, Some(MAX_DELTA)),
            ("4.2.3 Age is subtracted", Fields { age: Some("10"), ..cc("max-age=60") }, NOW, Some(50.0)),
            ("4.2 never negative: older than its lifetime is 0", Fields { age: Some("100"), ..cc("max-age=60") }, NOW, Some(0.0)),
            ("5.1 an invalid Age is ignored", Fields { age: Some("ten"), ..cc("max-age=60") }, NOW, Some(60.0)),
            ("5.1 an Age that is a list is ignored", Fields { age: Some("10, 20"), ..cc("max-age=60") }, NOW, Some(60.0)),
            ("5.1 a negative Age is ignored", Fields { age: Some("-10"), ..cc("max-age=60") }, NOW, Some(60.0)),
            ("4.2.3 the apparent age (now - Date) is subtracted", Fields { date: Some(BEFORE), ..cc("max-age=160") }, NOW, Some(60.0)),
            ("4.2.3 the larger of Age and the apparent age", Fields { date: Some(BEFORE), age: Some("130"), ..cc("max-age=160") }, NOW, Some(30.0)),
            ("4.2.3 a Date ahead of now (clock skew) is no apparent age", Fields { date: Some(AFTER), ..cc("max-age=60") }, NOW, Some(60.0)),
            ("1.2.2 a lifetime past 2^31 (from Expires) is 2^31", Fields { expires: Some("Fri, 31 Dec 9999 23:59:59 GMT"), ..Fields::default() }, NOW, Some(MAX_DELTA)),
            ("4.2.1 Expires minus Date", Fields { expires: Some(IN_AN_HOUR), date: Some(DATE), ..Fields::default() }, NOW, Some(3600.0)),
            ("4.2.1 Expires minus Date, on the server's clock (Date ahead of now)", Fields { expires: Some(IN_AN_HOUR), date: Some(AFTER), ..Fields::default() }, NOW, Some(2600.0)),
            ("4.2.1 + 4.2.3 Expires minus Date minus the apparent age", Fields { expires: Some(IN_AN_HOUR), date: Some(BEFORE), ..Fields::default() }, NOW, Some(3600.0)),
            ("RFC 9110 6.6.1 no Date: the time of receipt, now", Fields { expires: Some(IN_AN_HOUR), ..Fields::default() }, NOW, Some(3600.0)),
            ("RFC 9110 6.6.1 an invalid Date is as none", Fields { expires: Some(IN_AN_HOUR), date: Some("yesterday"), ..Fields::default() }, NOW, Some(3600.0)),
            ("4.2.1 now is any instant, fractions kept", Fields { expires: Some(IN_AN_HOUR), ..Fields::default() }, NOW + 0.25, Some(3599.75)),
            ("4.2.3 Age counts against Expires too", Fields { expires: Some(IN_AN_HOUR), date: Some(DATE), age: Some("600"), ..Fields::default() }, NOW, Some(3000.0)),
            ("5.3 with max-age, Expires is ignored", Fields { expires: Some(IN_AN_HOUR), ..cc("max-age=60") }, NOW, Some(60.0)),
            ("5.3 with an invalid max-age, Expires is still ignored", Fields { expires: Some(IN_AN_HOUR), ..cc("max-age=soon") }, NOW, Some(0.0)),
            ("5.3 without max-age, Expires counts", Fields { expires: Some(IN_AN_HOUR), ..cc("public") }, NOW, Some(3600.0)),
            ("5.3 an invalid Expires, \"0\", is already expired", Fields { expires: Some("0"), ..Fields::default() }, NOW, Some(0.0)),
            ("5.3 an Expires in another format is invalid: expired", Fields { expires: Some("2027-01-15T09:00:00Z"), ..Fields::default() }, NOW, Some(0.0)),
            ("5.3 an Expires in the past is expired", Fields { expires: Some(BEFORE), date: Some(DATE), ..Fields::default() }, NOW, Some(0.0)),
            ("4.2.1 two Expires lines (joined by a comma): stale", Fields { expires: Some("Fri, 15 Jan 2027 09:00:00 GMT, Fri, 15 Jan 2027 10:00:00 GMT"), ..Fields::default() }, NOW, Some(0.0)),
            ("5.3 Expires in RFC 850 format", Fields { expires: Some("Friday, 15-Jan-27 09:00:00 GMT"), ..Fields::default() }, NOW, Some(3600.0)),
            ("5.3 Expires in asctime format", Fields { expires: Some("Fri Jan 15 09:00:00 2027"), ..Fields::default() }, NOW, Some(3600.0)),
            ("5.2.2.4 no-cache gives 0 with Expires too", Fields { expires: Some(IN_AN_HOUR), ..cc("no-cache") }, NOW, Some(0.0)),
            ("5.2.2.5 no-store gives nothing with Expires too", Fields { expires: Some(IN_AN_HOUR), ..cc("no-store") }, NOW, None),
            ("4.2.2 no freshness information: not stored (no heuristics)", Fields::default(), NOW, None),
            ("4.2.2 Date and Age alone are no freshness information", Fields { date: Some(DATE), age: Some("5"), ..Fields::default() }, NOW, None),
            ("4.2.2 other directives alone are no freshness information", cc("public, must-revalidate, immutable"), NOW, None),
            ("4.2.2 an empty Cache-Control is none", cc(""), NOW, None),
        ];
        for (clause, fields, now, want) in rows {
            assert_eq!(ttl_secs(&fields, now), want, "{clause}: {fields:?} at {now}");
        }
    }

    /// RFC 9110 5.6.7: the three formats a recipient must accept, and what is not an HTTP-date.
    #[test]
    fn http_dates_follow_rfc_9110() {
        #[rustfmt::skip]
        let rows: Vec<(&str, &str, Option<f64>)> = vec![
            ("IMF-fixdate", "Sun, 06 Nov 1994 08:49:37 GMT", Some(SUN_1994)),
            ("obsolete RFC 850", "Sunday, 06-Nov-94 08:49:37 GMT", Some(SUN_1994)),
            ("obsolete asctime, day padded with a space", "Sun Nov  6 08:49:37 1994", Some(SUN_1994)),
            ("asctime with a two-digit day", "Sun Nov 06 08:49:37 1994", Some(SUN_1994)),
            ("the day name need not match the date", "Mon, 06 Nov 1994 08:49:37 GMT", Some(SUN_1994)),
            ("23:59:60, a leap second, is 23:59:59", "Sat, 31 Dec 2016 23:59:60 GMT", Some(1_483_228_799.0)),
            ("29 February of a leap year", "Tue, 29 Feb 2028 00:00:00 GMT", Some(1_835_395_200.0)),
            ("before 1970", "Thu, 01 Jan 1920 00:00:00 GMT", Some(-1_577_923_200.0)),
            ("RFC 850: a year up to 50 years ahead is this century's", "Friday, 01-Jan-77 00:00:00 GMT", Some(3_376_684_800.0)),
            ("RFC 850: more than 50 years ahead is last century's", "Tuesday, 01-Feb-77 00:00:00 GMT", Some(223_603_200.0)),
            ("case-sensitive: lowercase month", "Sun, 06 nov 1994 08:49:37 GMT", None),
            ("case-sensitive: lowercase zone", "Sun, 06 Nov 1994 08:49:37 gmt", None),
            ("only GMT", "Sun, 06 Nov 1994 08:49:37 UTC", None),
            ("a numeric zone", "Sun, 06 Nov 1994 08:49:37 +0000", None),
            ("a day name is required", "06 Nov 1994 08:49:37 GMT", None),
            ("an unknown day name", "Sdn, 06 Nov 1994 08:49:37 GMT", None),
            ("IMF-fixdate's day has two digits", "Sun, 6 Nov 1994 08:49:37 GMT", None),
            ("IMF-fixdate's year has four digits", "Sun, 06 Nov 94 08:49:37 GMT", None),
            ("RFC 850 needs the full day name", "Sun, 06-Nov-94 08:49:37 GMT", None),
            ("RFC 850's year has two digits", "Sunday, 06-Nov-1994 08:49:37 GMT", None),
            ("a day that does not exist", "Sat, 29 Feb 2027 00:00:00 GMT", None),
            ("day 0", "Sun, 00 Nov 1994 08:49:37 GMT", None),
            ("hour 24", "Sun, 06 Nov 1994 24:00:00 GMT", None),
            ("minute 60", "Sun, 06 Nov 1994 08:60:00 GMT", None),
            ("no seconds", "Sun, 06 Nov 1994 08:49 GMT", None),
            ("signs are not digits", "Sun, 06 Nov 1994 +8:49:37 GMT", None),
            ("no whitespace inside a part", "Sun, \t6 Nov 1994 08:49:37 GMT", None),
            ("\"0\"", "0", None),
            ("empty", "", None),
            ("ISO 8601", "1994-11-06T08:49:37Z", None),
            ("two dates", "Sun, 06 Nov 1994 08:49:37 GMT, Sun, 06 Nov 1994 08:49:37 GMT", None),
            ("trailing words", "Sun, 06 Nov 1994 08:49:37 GMT now", None),
            ("non-ASCII", "Sün, 06 Nov 1994 08:49:37 GMT", None),
        ];
        for (what, s, want) in rows {
            assert_eq!(http_date(s, NOW), want, "{what}: {s:?}");
        }
        assert_eq!(http_date(&"Sun, 06 Nov 1994 08:49:37 GMT ".repeat(500_000), NOW), None, "a 15 MB string");
        assert_eq!(ttl_secs(&cc(&"x".repeat(10_000_000)), NOW), None, "a 10 MB Cache-Control");
    }

    /// No input makes the parsers panic (a panic in wasm is an abort): every one-character
    /// edit of the forms above, with multi-byte characters at every place.
    #[test]
    fn no_edit_of_a_header_panics() {
        let samples = ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "max-age=60, no-cache=\"a,b\", x=\"\\\"\"", "60"];
        let edits = ["", "\u{fc}", "\u{1F600}", ",", "\"", "\\", "-", ":", " ", "9", "="];
        for s in samples {
            let chars: Vec<char> = s.chars().collect();
            for i in 0..=chars.len() {
                for e in edits {
                    for skip in [0, 1] {
                        let t: String = chars[..i].iter().collect::<String>() + e + &chars[(i + skip).min(chars.len())..].iter().collect::<String>();
                        let f = Fields { cache_control: Some(&t), age: Some(&t), expires: Some(&t), date: Some(&t) };
                        let _ = ttl_secs(&f, NOW);
                        let _ = ttl_secs(&Fields { cache_control: None, ..f }, 0.0);
                    }
                }
            }
        }
    }

    #[test]
    fn now_is_unix_seconds() {
        assert_eq!(format!("{MAX_EXPIRES_AT_SECS}"), "253402300799", "the limit now's message names");
        for ok in [0.0, -0.0, NOW, NOW + 0.5, MAX_EXPIRES_AT_SECS] {
            assert_eq!(now_secs(ok), Ok(ok));
        }
        #[rustfmt::skip]
        let bad = [
            (f64::NAN, "ttlFromHeaders now NaN is not accepted; expected Unix seconds from 0"),
            (-1.0, "ttlFromHeaders now -1 is not accepted"),
            (f64::INFINITY, "ttlFromHeaders now Infinity is not accepted"),
            (f64::NEG_INFINITY, "ttlFromHeaders now -Infinity is not accepted"),
            (NOW * 1000.0, "ttlFromHeaders now 1800000000000 looks like milliseconds (as from Date.now()); expected Unix seconds from 0 to 253402300799 (year 9999), e.g. Date.now() / 1000"),
            (1e21, "ttlFromHeaders now 1e+21 is not accepted"),
        ];
        for (n, want) in bad {
            match now_secs(n) {
                Err(Error::OutOfRange(m)) => assert!(m.starts_with(want), "{n}: {m}"),
                other => panic!("{n}: {other:?}"),
            }
        }
    }
}
