//! Time-series bucketing (MongoDB time-series collections): events are grouped into bucket
//! records by meta value and time span, at most [`MAX_EVENTS_PER_BUCKET`] events and
//! `maxBucketBytes` of them a bucket, and a whole bucket expires once its latest event is older
//! than `now - expireAfter`, so reaping touches one record per bucket, not one per event.

use crate::core::error::{Error, Result};
use crate::core::expiry::TtlInput;
use crate::core::text::quote;
use crate::core::window::Window;

/// Most events in one bucket record (MongoDB's default document limit).
pub const MAX_EVENTS_PER_BUCKET: u32 = 1000;

/// Most bytes of events (as JSON) in one bucket record by default: MongoDB closes a bucket at
/// 125 KiB.
pub const MAX_BUCKET_BYTES: u32 = 125 * 1024;

/// The longest custom span (MongoDB's limit for `bucketMaxSpanSeconds`: a year).
pub const MAX_SPAN_SECS: u32 = 31_536_000;

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
    /// `bucketMaxSpanSeconds` (= `bucketRoundingSeconds`): buckets of this many seconds, their
    /// starts rounded down to a multiple of it.
    Custom(u32),
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

    /// The name `parse` accepts; `"custom"` for a custom span.
    pub fn name(self) -> &'static str {
        match self {
            Granularity::Seconds => "seconds",
            Granularity::Minutes => "minutes",
            Granularity::Hours => "hours",
            Granularity::Custom(_) => "custom",
        }
    }

    /// The span of one bucket.
    pub fn span_ms(self) -> f64 {
        match self {
            Granularity::Seconds => HOUR_MS,
            Granularity::Minutes => DAY_MS,
            Granularity::Hours => 30.0 * DAY_MS,
            Granularity::Custom(secs) => f64::from(secs) * 1000.0,
        }
    }

    /// `bucketMaxSpanSeconds` + `bucketRoundingSeconds` (MongoDB requires them equal): a custom
    /// span of 1 s to a year.
    pub fn custom(max_span: f64, rounding: f64) -> Result<Self> {
        if max_span != rounding {
            return Err(Error::InvalidType(format!(
                "bucketMaxSpanSeconds ({}) and bucketRoundingSeconds ({}) must be equal, as MongoDB requires",
                crate::core::text::js_number(max_span),
                crate::core::text::js_number(rounding)
            )));
        }
        if !(max_span.fract() == 0.0 && (1.0..=f64::from(MAX_SPAN_SECS)).contains(&max_span)) {
            return Err(Error::OutOfRange(format!(
                "bucketMaxSpanSeconds {} is not accepted; expected a whole number of seconds from 1 to {MAX_SPAN_SECS} (a year)",
                crate::core::text::js_number(max_span)
            )));
        }
        Ok(Granularity::Custom(max_span as u32))
    }

    /// Whether `next` may follow this one on an existing series: the same span or a longer one
    /// (MongoDB: from finer to coarser only).
    pub fn may_become(self, next: Granularity) -> bool {
        next.span_ms() >= self.span_ms()
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
    /// Most bytes of events (as JSON) in one bucket.
    pub max_bucket_bytes: u32,
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
            max_bucket_bytes: MAX_BUCKET_BYTES,
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

/// How new events of one group, of `sizes` bytes each, fill buckets when the group's last
/// bucket already holds `in_last` events of `bytes_last` bytes (0, 0 if there is none): first
/// what fits in that bucket, then new buckets. A bucket takes the next event while it holds fewer
/// than [`MAX_EVENTS_PER_BUCKET`] and the event's bytes fit under `max_bytes`; an empty bucket
/// takes any one event, however large.
pub fn fill(in_last: u32, bytes_last: f64, sizes: &[f64], max_bytes: u32) -> Vec<usize> {
    let max_bytes = f64::from(max_bytes);
    let mut out = vec![0];
    let (mut n, mut bytes) = (in_last, bytes_last);
    for &size in sizes {
        let room = n < MAX_EVENTS_PER_BUCKET && (n == 0 || bytes + size <= max_bytes);
        if !room {
            out.push(0);
            (n, bytes) = (0, 0.0);
        }
        *out.last_mut().expect("one bucket at least") += 1;
        n += 1;
        bytes += size;
    }
    out
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

    /// `fill` for events of `size` bytes each under the default byte limit.
    fn fill_n(in_last: u32, n: usize) -> Vec<usize> {
        fill(in_last, 0.0, &vec![10.0; n], MAX_BUCKET_BYTES)
    }

    #[test]
    fn buckets_close_at_125_kib_as_well_as_at_a_thousand_events() {
        let kib = 1024.0;
        // 100 events of 2 KiB: 62 fit in 125 KiB, then a new bucket.
        assert_eq!(fill(0, 0.0, &vec![2.0 * kib; 100], MAX_BUCKET_BYTES), vec![62, 38]);
        // A bucket already at 124 KiB takes one more KiB, not two.
        assert_eq!(fill(10, 124.0 * kib, &[kib, kib], MAX_BUCKET_BYTES), vec![1, 1]);
        // One event larger than the limit still gets a bucket of its own.
        assert_eq!(fill(0, 0.0, &[500.0 * kib, 1.0], MAX_BUCKET_BYTES), vec![1, 1]);
        assert_eq!(fill(3, 10.0, &[500.0 * kib], MAX_BUCKET_BYTES), vec![0, 1]);
        // A smaller limit (maxBucketBytes).
        assert_eq!(fill(0, 0.0, &[40.0, 40.0, 40.0], 100), vec![2, 1]);
    }

    #[test]
    fn custom_spans_are_mongodb_s_bucket_max_span_and_rounding() {
        let g = Granularity::custom(600.0, 600.0).unwrap();
        assert_eq!(g.span_ms(), 600_000.0);
        assert_eq!(g.bucket_start_ms(T + 599_999.0), T);
        assert_eq!(g.bucket_start_ms(T + 600_000.0), T + 600_000.0);
        let e = Granularity::custom(600.0, 300.0).unwrap_err();
        assert!(matches!(&e, Error::InvalidType(m) if m.contains("must be equal")), "{e}");
        for bad in [0.0, 1.5, -60.0, 31_536_001.0, f64::NAN] {
            let e = Granularity::custom(bad, bad).unwrap_err();
            assert!(e.to_string().contains("bucketMaxSpanSeconds"), "{bad}: {e}");
        }
        // From finer to coarser only.
        assert!(Granularity::Seconds.may_become(Granularity::Minutes));
        assert!(Granularity::Minutes.may_become(Granularity::Minutes));
        assert!(!Granularity::Hours.may_become(Granularity::Minutes));
        assert!(g.may_become(Granularity::Seconds));
        assert!(!Granularity::Minutes.may_become(g));
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
            assert_eq!(fill_n(in_last, n), want, "in_last {in_last}, n {n}");
            assert_eq!(fill_n(in_last, n).iter().sum::<usize>(), n);
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
        let buckets: usize = daily.iter().map(|g| fill_n(0, g.events.len()).len()).sum();
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
