//! Time-series bucketing (MongoDB time-series collections): events are grouped into bucket
//! records by meta value and time span, at most [`MAX_EVENTS_PER_BUCKET`] a bucket, and a whole
//! bucket expires once its latest event is older than `now - expireAfter`, so reaping touches one
//! record per bucket, not one per event.

use crate::core::error::{Error, Result};
use crate::core::expiry::TtlInput;
use crate::core::text::quote;
use crate::core::window::Window;

/// Most events in one bucket record (MongoDB's default document limit).
pub const MAX_EVENTS_PER_BUCKET: u32 = 1000;

const HOUR_MS: f64 = 3_600_000.0;
const DAY_MS: f64 = 24.0 * HOUR_MS;

/// How much time one bucket spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Granularity {
    /// 1-hour buckets.
    Seconds,
    /// 1-day buckets.
    Minutes,
    /// 30-day buckets.
    Hours,
}

impl Granularity {
    /// `"seconds"`, `"minutes"`, `"hours"`.
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "seconds" => Ok(Granularity::Seconds),
            "minutes" => Ok(Granularity::Minutes),
            "hours" => Ok(Granularity::Hours),
            _ => Err(Error::InvalidType(format!(
                "granularity {} is not accepted; expected \"seconds\" (1-hour buckets), \"minutes\" (1-day) or \"hours\" (30-day)",
                quote(s)
            ))),
        }
    }

    /// The name `parse` accepts.
    pub fn name(self) -> &'static str {
        match self {
            Granularity::Seconds => "seconds",
            Granularity::Minutes => "minutes",
            Granularity::Hours => "hours",
        }
    }

    /// The span of one bucket.
    pub fn span_ms(self) -> f64 {
        match self {
            Granularity::Seconds => HOUR_MS,
            Granularity::Minutes => DAY_MS,
            Granularity::Hours => 30.0 * DAY_MS,
        }
    }

    /// The start of the bucket span holding `t_ms` (spans are aligned on the Unix epoch, so an
    /// out-of-order event lands in the same span as its neighbours).
    pub fn bucket_start_ms(self, t_ms: f64) -> f64 {
        (t_ms / self.span_ms()).floor() * self.span_ms()
    }
}

/// Validated time-series options.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesOptions {
    /// The event field holding its time.
    pub time_field: String,
    /// The event field whose value identifies a series (sensor, ticker...), if any.
    pub meta_field: Option<String>,
    /// Bucket span.
    pub granularity: Granularity,
    /// How long after its time an event expires (months allowed); `None`: never.
    pub expire_after: Option<Window>,
}

impl SeriesOptions {
    /// Validates `{ timeField, metaField, granularity, expireAfter }`.
    pub fn new(
        time_field: &str,
        meta_field: Option<&str>,
        granularity: Option<&str>,
        expire_after: Option<TtlInput<'_>>,
    ) -> Result<Self> {
        if time_field.is_empty() {
            return Err(Error::InvalidType(
                "timeField \"\" is not accepted; expected the name of the event field holding its time, e.g. \"ts\"".into(),
            ));
        }
        if meta_field == Some("") {
            return Err(Error::InvalidType("metaField \"\" is not accepted; expected a field name, or leave it out".into()));
        }
        Ok(SeriesOptions {
            time_field: time_field.to_owned(),
            meta_field: meta_field.map(str::to_owned),
            granularity: granularity.map(Granularity::parse).transpose()?.unwrap_or(Granularity::Seconds),
            expire_after: expire_after.map(|e| Window::parse("expireAfter", e)).transpose()?,
        })
    }

    /// Events at or before this instant are expired at `now_ms`; `None` if events never expire.
    pub fn expired_through_ms(&self, now_ms: f64) -> Option<f64> {
        self.expire_after.map(|w| w.before(now_ms))
    }
}

/// Events of one meta value and one bucket span, in input order.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The meta value's key (the JS edge's canonical form of it).
    pub meta_key: String,
    /// Start of the bucket span.
    pub start_ms: f64,
    /// Indices into the input.
    pub events: Vec<usize>,
}

/// Groups `(meta key, time)` pairs by meta value and bucket span, keeping input order inside a
/// group and ordering groups by first appearance.
pub fn group(events: &[(String, f64)], granularity: Granularity) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut index = std::collections::HashMap::<(String, u64), usize>::new();
    for (i, (meta, t)) in events.iter().enumerate() {
        let start = granularity.bucket_start_ms(*t);
        let slot = *index.entry((meta.clone(), start.to_bits())).or_insert_with(|| {
            groups.push(Group { meta_key: meta.clone(), start_ms: start, events: Vec::new() });
            groups.len() - 1
        });
        groups[slot].events.push(i);
    }
    groups
}

/// How `n` new events of one group fill buckets when the group's last bucket already holds
/// `in_last` events (0 if there is none): first what fits in that bucket, then full new buckets.
pub fn fill(in_last: u32, n: usize) -> Vec<usize> {
    let first = (MAX_EVENTS_PER_BUCKET.saturating_sub(in_last) as usize).min(n);
    let mut sizes = vec![first];
    let mut rest = n - first;
    while rest > 0 {
        let k = rest.min(MAX_EVENTS_PER_BUCKET as usize);
        sizes.push(k);
        rest -= k;
    }
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: f64 = 1_798_761_600_000.0; // 2027-01-01T00:00:00Z

    #[test]
    fn spans_and_bucket_starts() {
        assert_eq!(Granularity::parse("seconds").unwrap().span_ms(), 3_600_000.0);
        assert_eq!(Granularity::parse("minutes").unwrap().span_ms(), 86_400_000.0);
        assert_eq!(Granularity::parse("hours").unwrap().span_ms(), 2_592_000_000.0);
        let g = Granularity::Seconds;
        assert_eq!(g.bucket_start_ms(T + 59.0 * 60_000.0 + 59_999.0), T);
        assert_eq!(g.bucket_start_ms(T + 3_600_000.0), T + 3_600_000.0);
        assert_eq!(g.bucket_start_ms(T - 1.0), T - 3_600_000.0);
        assert_eq!(Granularity::Minutes.bucket_start_ms(T + 86_399_999.0), T);
        // 30-day spans are aligned on the epoch, not on months.
        let h = Granularity::Hours;
        assert_eq!(h.bucket_start_ms(T) % 2_592_000_000.0, 0.0);
        assert!(h.bucket_start_ms(T) <= T && T < h.bucket_start_ms(T) + 2_592_000_000.0);
        let e = Granularity::parse("days").unwrap_err();
        assert!(matches!(&e, Error::InvalidType(m) if m.contains("granularity \"days\"")), "{e}");
    }

    #[test]
    fn grouping_by_meta_and_span_keeps_order_and_puts_late_events_in_their_span() {
        let hour = 3_600_000.0;
        let events = vec![
            ("a".to_string(), T + 10.0),
            ("b".to_string(), T + 20.0),
            ("a".to_string(), T + hour + 5.0),
            ("a".to_string(), T + 30.0), // out of order: back into the first span
            ("b".to_string(), T + 40.0),
        ];
        let groups = group(&events, Granularity::Seconds);
        assert_eq!(groups.len(), 3);
        assert_eq!((groups[0].meta_key.as_str(), groups[0].start_ms, groups[0].events.clone()), ("a", T, vec![0, 3]));
        assert_eq!((groups[1].meta_key.as_str(), groups[1].events.clone()), ("b", vec![1, 4]));
        assert_eq!((groups[2].start_ms, groups[2].events.clone()), (T + hour, vec![2]));
    }

    #[test]
    fn buckets_fill_to_a_thousand() {
        // (events already in the group's last bucket, new events, sizes per bucket)
        let table: Vec<(u32, usize, Vec<usize>)> = vec![
            (0, 1, vec![1]),
            (0, 1000, vec![1000]),
            (0, 1001, vec![1000, 1]),
            (0, 2500, vec![1000, 1000, 500]),
            (990, 5, vec![5]),
            (990, 15, vec![10, 5]),
            (1000, 3, vec![0, 3]),
            (1000, 1000, vec![0, 1000]),
        ];
        for (in_last, n, want) in table {
            assert_eq!(fill(in_last, n), want, "in_last {in_last}, n {n}");
            assert_eq!(fill(in_last, n).iter().sum::<usize>(), n);
        }
    }

    #[test]
    fn ten_thousand_events_over_three_sensors_and_one_day_make_the_expected_buckets() {
        // 10 000 events, 3 metas round-robin, one every 5 s from T: 50 000 s = 13.9 h.
        let events: Vec<(String, f64)> = (0..10_000).map(|i| (format!("s{}", i % 3), T + i as f64 * 5_000.0)).collect();
        let hourly = group(&events, Granularity::Seconds);
        assert_eq!(hourly.len(), 14 * 3); // 14 hour spans x 3 sensors, each <= 1000 events
        assert!(hourly.iter().all(|g| g.events.len() <= 1000));
        let daily = group(&events, Granularity::Minutes);
        assert_eq!(daily.len(), 3);
        let buckets: usize = daily.iter().map(|g| fill(0, g.events.len()).len()).sum();
        assert_eq!(buckets, 3 * 4); // 3334/3333/3333 events -> 4 buckets each
    }

    #[test]
    fn options_are_validated() {
        let o = SeriesOptions::new("ts", Some("sensor"), Some("minutes"), Some(TtlInput::Text("7 days"))).unwrap();
        assert_eq!(o.expire_after, Some(Window::secs(604_800.0)));
        assert_eq!(o.expired_through_ms(T), Some(T - 604_800_000.0));
        let never = SeriesOptions::new("ts", None, None, None).unwrap();
        assert_eq!(never.granularity, Granularity::Seconds);
        assert_eq!(never.expired_through_ms(T), None);
        assert!(matches!(SeriesOptions::new("", None, None, None), Err(Error::InvalidType(m)) if m.contains("timeField")));
        assert!(matches!(SeriesOptions::new("ts", None, None, Some(TtlInput::Seconds(-1.0))), Err(Error::OutOfRange(m)) if m.contains("expireAfter -1")));
    }
}
