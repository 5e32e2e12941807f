//! jiff used as idb-ttl's src/core/expiry.rs uses it: Temporal (RFC 9557) parsing of dates and
//! date-times with or without offset via `Pieces`, civil arithmetic in UTC, and ISO-8601 /
//! friendly durations via `Span: FromStr`, converted to Unix milliseconds; errors as Strings
//! carrying jiff's Display.
use jiff::civil::DateTime;
use jiff::fmt::temporal::Pieces;
use jiff::tz::Offset;
use jiff::{SignedDuration, Span};

const EPOCH: DateTime = DateTime::constant(1970, 1, 1, 0, 0, 0, 0);

/// "2027-01-01", "2027-01-01T10:00:00", "2027-01-01T10:00:00.5+02:00" -> Unix ms.
pub fn parse_at(text: &str) -> Result<f64, String> {
    let s = text.trim();
    let pieces = Pieces::parse(s)
        .map_err(|e| format!("expiresAt {s:?} is not a valid ISO-8601 date or date-time ({e})"))?;
    if pieces.time_zone_annotation().is_some() {
        return Err(format!("expiresAt {s:?} has a time zone annotation"));
    }
    let civil = pieces.date().to_datetime(pieces.time().unwrap_or_default());
    let offset = pieces.to_numeric_offset().unwrap_or(Offset::UTC);
    Ok(civil_ms(civil, offset))
}

/// "PT10M", "P1M2D", "90 minutes", "1h 30m" -> (calendar months, exact ms).
pub fn parse_ttl(text: &str) -> Result<(i64, f64), String> {
    let s = text.trim();
    let span: Span = s.parse().map_err(|e| format!("ttl {s:?} is not a valid duration ({e})"))?;
    if span.is_negative() {
        return Err(format!("ttl {s:?} is negative"));
    }
    let months = i64::from(span.get_years()) * 12 + i64::from(span.get_months());
    let days = i64::from(span.get_weeks()) * 7 + i64::from(span.get_days());
    let time = span.years(0).months(0).weeks(0).days(0);
    let time = SignedDuration::try_from(time).map_err(|e| format!("ttl {s:?} is too long ({e})"))?;
    let exact = SignedDuration::from_hours(days * 24) + time;
    Ok((months, duration_ms(exact)))
}

/// Unix ms of `now_ms` + the ttl, calendar months added in UTC by jiff's civil arithmetic.
pub fn expires_at_ms(now_ms: f64, months: i64, ms: f64) -> Result<f64, String> {
    let whole = now_ms.floor();
    let start = EPOCH
        .checked_add(SignedDuration::from_millis(whole as i64))
        .map_err(|e| format!("the current time {now_ms} is out of range ({e})"))?;
    if months == 0 {
        return Ok(now_ms + ms);
    }
    let span = Span::new().try_months(months).map_err(|e| format!("{e}"))?;
    let moved = start.checked_add(span).map_err(|e| format!("set at {start}Z would expire too late ({e})"))?;
    Ok(civil_ms(moved, Offset::UTC) + (now_ms - whole) + ms)
}

fn civil_ms(civil: DateTime, offset: Offset) -> f64 {
    duration_ms(civil.duration_since(EPOCH) - offset.duration_since(Offset::UTC))
}

fn duration_ms(d: SignedDuration) -> f64 {
    d.as_secs() as f64 * 1000.0 + f64::from(d.subsec_nanos()) / 1e6
}
