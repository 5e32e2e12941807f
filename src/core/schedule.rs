//! When a collection's background reaping runs (CockroachDB's `ttl_job_cron`): `"@hourly"`,
//! `"@daily"`, `"@weekly"`, `"@monthly"`, `"@yearly"` or a five-field CRON expression
//! (`minute hour day-of-month month day-of-week`), in UTC. Each field is `*`, a number, a range
//! `a-b`, a step `*/n` or `a-b/n`, or a list of those; day-of-week 0 and 7 are Sunday. As in
//! cron, when both day fields are restricted a day matches either.

use crate::core::error::{Error, Result};
use crate::core::iso::{civil_from_days, days_from_civil};
use crate::core::text::quote;

const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 86_400_000;

/// A parsed schedule; `text` is what was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// As given (`"@hourly"`, `"*/15 * * * *"`).
    pub text: String,
    minutes: u64,
    hours: u32,
    days: u32,
    months: u16,
    weekdays: u8,
    any_day: bool,
    any_weekday: bool,
}

/// Bits `lo..=hi` of one field, or why not.
fn field(text: &str, lo: u32, hi: u32) -> std::result::Result<(u64, bool), String> {
    let mut bits = 0u64;
    for part in text.split(',') {
        let (range, step) = match part.split_once('/') {
            Some((r, s)) => (r, s.parse::<u32>().ok().filter(|s| *s > 0).ok_or_else(|| format!("step {} is not a whole number above 0", quote(s)))?),
            None => (part, 1),
        };
        let num = |s: &str| s.parse::<u32>().ok().filter(|n| (lo..=hi).contains(n)).ok_or_else(|| format!("{} is not a number from {lo} to {hi}", quote(s)));
        let (a, b) = match range {
            "*" => (lo, hi),
            r => match r.split_once('-') {
                Some((a, b)) => (num(a)?, num(b)?),
                None if part.contains('/') => (num(r)?, hi),
                None => (num(r)?, num(r)?),
            },
        };
        if a > b {
            return Err(format!("range {} goes backwards", quote(range)));
        }
        let mut v = a;
        while v <= b {
            bits |= 1 << v;
            v += step;
        }
    }
    Ok((bits, text == "*"))
}

impl Schedule {
    /// Parses a schedule; a bad one is a `TypeError` naming it and saying what is accepted.
    pub fn parse(text: &str) -> Result<Schedule> {
        let expr = match text {
            "@hourly" => "0 * * * *",
            "@daily" | "@midnight" => "0 0 * * *",
            "@weekly" => "0 0 * * 0",
            "@monthly" => "0 0 1 * *",
            "@yearly" | "@annually" => "0 0 1 1 *",
            other => other,
        };
        let bad = |why: &str| {
            Error::InvalidType(format!(
                "ttlIndex.schedule {} is not accepted: {why}; expected \"@hourly\", \"@daily\", \"@weekly\", \"@monthly\", \"@yearly\" or five CRON fields in UTC, minute hour day-of-month month day-of-week (\"*/30 * * * *\")",
                quote(text)
            ))
        };
        let fields: Vec<&str> = expr.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(bad(&format!("it has {} fields", fields.len())));
        }
        let names = ["minute", "hour", "day-of-month", "month", "day-of-week"];
        let ranges = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)];
        let mut read = [(0u64, false); 5];
        for (i, f) in fields.iter().enumerate() {
            read[i] = field(f, ranges[i].0, ranges[i].1).map_err(|why| bad(&format!("its {} field {}", names[i], why)))?;
        }
        let weekdays = read[4].0 | (read[4].0 >> 7 & 1);
        let schedule = Schedule {
            text: text.to_owned(),
            minutes: read[0].0,
            hours: read[1].0 as u32,
            days: read[2].0 as u32,
            months: read[3].0 as u16,
            weekdays: (weekdays & 0x7f) as u8,
            any_day: read[2].1,
            any_weekday: read[4].1,
        };
        // Eight years from any start see every date a calendar has (February 29 included).
        if schedule.next_after(0.0).is_none() {
            return Err(bad("no date matches it (such as February 30), so it would never run"));
        }
        Ok(schedule)
    }

    fn day_matches(&self, days: i64) -> bool {
        let (_, m, d) = civil_from_days(days);
        if self.months & (1 << m) == 0 {
            return false;
        }
        let weekday = (days + 4).rem_euclid(7); // 1970-01-01 was a Thursday
        let dom = self.days & (1 << d) != 0;
        let dow = self.weekdays & (1 << weekday) != 0;
        match (self.any_day, self.any_weekday) {
            (true, true) => true,
            (false, true) => dom,
            (true, false) => dow,
            (false, false) => dom || dow,
        }
    }

    /// The first run strictly after `t_ms` (Unix ms, on a whole minute), or `None` if none
    /// comes within eight years (e.g. February 30).
    pub fn next_after(&self, t_ms: f64) -> Option<f64> {
        let next_minute = (t_ms / MINUTE_MS as f64).floor() as i64 + 1;
        let first_day = (next_minute * MINUTE_MS).div_euclid(DAY_MS);
        for days in first_day..first_day + 8 * 366 {
            if !self.day_matches(days) {
                continue;
            }
            let from = if days == first_day { (next_minute * MINUTE_MS).rem_euclid(DAY_MS) / MINUTE_MS } else { 0 };
            for minute_of_day in from..24 * 60 {
                let (h, m) = (minute_of_day / 60, minute_of_day % 60);
                if self.hours & (1 << h) != 0 && self.minutes & (1 << m) != 0 {
                    return Some((days * DAY_MS + minute_of_day * MINUTE_MS) as f64);
                }
            }
        }
        None
    }
}

/// Unix ms of `y`-`m`-`d` `h`:`min` UTC (tests and callers that name an instant).
pub fn utc_ms(y: i64, m: u32, d: u32, h: i64, min: i64) -> f64 {
    (days_from_civil(y, m, d) * DAY_MS + h * 3_600_000 + min * MINUTE_MS) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macros_and_fields_give_the_next_run_in_utc() {
        let t = utc_ms(2026, 12, 1, 21, 32) + 5_000.0; // a Tuesday
        let cases = [
            ("@hourly", utc_ms(2026, 12, 1, 22, 0)),
            ("@daily", utc_ms(2026, 12, 2, 0, 0)),
            ("@weekly", utc_ms(2026, 12, 6, 0, 0)), // Sunday
            ("@monthly", utc_ms(2027, 1, 1, 0, 0)),
            ("@yearly", utc_ms(2027, 1, 1, 0, 0)),
            ("*/15 * * * *", utc_ms(2026, 12, 1, 21, 45)),
            ("33 21 * * *", utc_ms(2026, 12, 1, 21, 33)),
            ("32 21 * * *", utc_ms(2026, 12, 2, 21, 32)),
            ("0 9-17/4 * * 1-5", utc_ms(2026, 12, 2, 9, 0)),
            ("0 0 29 2 *", utc_ms(2028, 2, 29, 0, 0)),
            ("0 0 * * 7", utc_ms(2026, 12, 6, 0, 0)),
            // Both day fields restricted: either matches (the 15th, or a Friday).
            ("0 12 15 * 5", utc_ms(2026, 12, 4, 12, 0)),
            ("5,10 0 1 1,7 *", utc_ms(2027, 1, 1, 0, 5)),
        ];
        for (text, want) in cases {
            assert_eq!(Schedule::parse(text).unwrap().next_after(t), Some(want), "{text}");
        }
        // Strictly after: at a run's own minute, the next one.
        let hourly = Schedule::parse("@hourly").unwrap();
        assert_eq!(hourly.next_after(utc_ms(2026, 12, 1, 22, 0)), Some(utc_ms(2026, 12, 1, 23, 0)));
        let e = Schedule::parse("0 0 30 2 *").unwrap_err();
        assert!(e.to_string().contains("never run"), "February 30 never comes: {e}");
        assert_eq!(Schedule::parse("0 0 29 2 *").unwrap().next_after(utc_ms(2028, 3, 1, 0, 0)), Some(utc_ms(2032, 2, 29, 0, 0)));
    }

    #[test]
    fn bad_schedules_are_refused_naming_the_field() {
        for (text, part) in [
            ("hourly", "it has 1 fields"),
            ("@often", "it has 1 fields"),
            ("60 * * * *", "minute field \"60\" is not a number from 0 to 59"),
            ("* 24 * * *", "hour field"),
            ("* * 0 * *", "day-of-month field \"0\""),
            ("* * * 13 *", "month field"),
            ("* * * * 8", "day-of-week field"),
            ("*/0 * * * *", "step \"0\""),
            ("5-1 * * * *", "range \"5-1\" goes backwards"),
            ("* * * * * *", "it has 6 fields"),
            ("a * * * *", "\"a\" is not a number"),
        ] {
            let e = Schedule::parse(text).unwrap_err();
            assert!(matches!(&e, Error::InvalidType(m) if m.contains(part) && m.contains("ttlIndex.schedule")), "{text}: {e}");
        }
    }
}
