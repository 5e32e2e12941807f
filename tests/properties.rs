//! Property tests of every parser of user input, on the host (`cargo test --test properties`).
//!
//! The parsers are the pure core's: expiry values (`expiresAt`: Unix seconds, ISO-8601 strings,
//! Dates), durations (`ttl`, `defaultTtl`, `expireAfter`), option trees (every option object of
//! the API, as the JS edge hands them over: [`Value`] trees), TTL-index field values and snapshot
//! items. The properties, for generated inputs:
//! - nothing panics;
//! - the documented grammar is accepted exactly: every timestamp jiff prints (in every form the
//!   README documents) reads back as the same instant, every duration jiff prints reads back as
//!   the same length, and whatever is accepted jiff's own parsers accept too, with the same
//!   meaning (the oracle is jiff: `Timestamp`, `civil::DateTime` and `Span` parsing);
//! - every refusal names the input, as the user wrote it, and says what is accepted;
//! - the clock may move: nothing unexpired is ever due for removal, whichever way `now` jumps.
//!
//! The seed is fixed (`PROPTEST_RNG_SEED`, default below) so the test command is repeatable;
//! `PROPTEST_CASES` sets the depth (default 1 024 per property here; `scripts/fuzz.sh` runs 100 000
//! with a fresh seed each time, printing it).
#![cfg(not(target_arch = "wasm32"))]

use idb_ttl::core::buckets::SeriesOptions;
use idb_ttl::core::entry::{is_live, ExpirySpec};
use idb_ttl::core::expiry::{parse_expires_at, ExpiresAtInput, Ttl, TtlInput, MAX_EXPIRES_AT_SECS};
use idb_ttl::core::options::{
    collection_options, expire_after, expire_options, query_options, series_options, set_options, store_config,
};
use idb_ttl::core::snapshot::item_expiry_ms;
use idb_ttl::core::text::{js_number, quote};
use idb_ttl::core::ttl_index::{TimeUnit, TtlIndex};
use idb_ttl::core::value::Value;
use idb_ttl::Error;
use jiff::civil::DateTime;
use jiff::fmt::temporal::Pieces;
use jiff::tz::Offset;
use jiff::{SignedDuration, Span, Timestamp};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// The seed of the test command's runs (any fixed number; `PROPTEST_RNG_SEED` overrides it).
const SEED: u64 = 0x1DB_77_1;
/// Cases per property in the test command (`PROPTEST_CASES` overrides it).
const CASES: u32 = 1024;

const MAX_MS: f64 = MAX_EXPIRES_AT_SECS * 1000.0;
const EPOCH: DateTime = DateTime::constant(1970, 1, 1, 0, 0, 0, 0);

fn config() -> Config {
    let mut c = Config::default(); // reads PROPTEST_CASES and PROPTEST_RNG_SEED
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = CASES;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        c.rng_seed = RngSeed::Fixed(SEED);
    }
    c.failure_persistence = None; // the seed reproduces a failure; no files in the tree
    c
}

/// The message of a bad-input error (panics on any other kind: parsers only refuse).
fn message(e: &Error) -> &str {
    match e {
        Error::InvalidType(m) | Error::OutOfRange(m) => m,
        other => panic!("a parser returned a non-input error: {other:?}"),
    }
}

/// Unix ms of a jiff timestamp, as the core computes instants (sub-ms fractions kept).
fn ts_ms(t: Timestamp) -> f64 {
    let d = t.as_duration();
    d.as_secs() as f64 * 1000.0 + f64::from(d.subsec_nanos()) / 1e6
}

/// Unix ms of a civil date-time read as UTC.
fn civil_utc_ms(dt: DateTime) -> f64 {
    let d = dt.duration_since(EPOCH);
    d.as_secs() as f64 * 1000.0 + f64::from(d.subsec_nanos()) / 1e6
}

fn at_text(s: &str) -> Result<f64, Error> {
    parse_expires_at(ExpiresAtInput::Text(s))
}

/// What jiff's own parsers make of `s`: the instant (UTC when no offset), `None` if refused.
/// A string with an offset is read as a `Timestamp`, one without as a `civil::DateTime`.
fn jiff_instant_ms(s: &str) -> Option<f64> {
    let s = s.trim();
    let has_offset = Pieces::parse(s).ok()?.offset().is_some();
    if has_offset {
        s.parse::<Timestamp>().ok().map(ts_ms)
    } else {
        s.parse::<DateTime>().ok().map(civil_utc_ms)
    }
}

// ---- generators ----

/// Any instant jiff's `Timestamp` holds (-9999-01-02 to 9999-12-30), to the nanosecond.
fn timestamp() -> impl Strategy<Value = Timestamp> {
    let (min, max) = (Timestamp::MIN.as_second() + 1, Timestamp::MAX.as_second() - 1);
    prop_oneof![
        // Anywhere in the range, and near today (where most expiries live).
        (min..max, 0..1_000_000_000i32),
        (1_700_000_000i64..2_100_000_000, 0..1_000_000_000i32),
        // Whole seconds and whole milliseconds, so reduced forms get exercised.
        (min..max).prop_map(|s| (s, 0)),
        (1_700_000_000i64..2_100_000_000, 0..1000i32).prop_map(|(s, ms)| (s, ms * 1_000_000)),
    ]
    .prop_map(|(s, ns)| Timestamp::new(s, ns).unwrap())
}

/// A UTC offset in whole minutes within ±23:59 (the accepted range).
fn offset() -> impl Strategy<Value = Offset> {
    prop_oneof![Just(0), -(23 * 60 + 59)..=(23 * 60 + 59), (-12i32..=14).prop_map(|h| h * 60)]
        .prop_map(|m| Offset::from_seconds(m * 60).unwrap())
}

/// Strings that are nearly ISO-8601 date-times: mostly valid fields and separators (so about
/// half are accepted), with invalid fields, foreign separators and left-out parts mixed in.
fn near_iso() -> impl Strategy<Value = String> {
    fn field(valid: std::ops::RangeInclusive<u32>, any_max: u32) -> impl Strategy<Value = String> {
        prop_oneof![8 => valid.prop_map(|n| format!("{n:02}")), 1 => (0..any_max).prop_map(|n| format!("{n:02}"))]
    }
    fn pick(common: &'static str, others: Vec<&'static str>) -> impl Strategy<Value = &'static str> + Clone {
        prop_oneof![6 => Just(common), 1 => prop::sample::select(others)]
    }
    let year = prop_oneof![
        8 => (1900u32..2200).prop_map(|y| format!("{y:04}")),
        2 => (0u32..10_000).prop_map(|y| format!("{y:04}")),
        1 => (0u32..1_000_000).prop_map(|y| format!("+{y:06}")),
        1 => (0u32..1_000_000).prop_map(|y| format!("-{y:06}")),
        1 => (0u32..100_000).prop_map(|y| y.to_string()),
    ];
    let date_sep = pick("-", vec!["", "/", "--", "."]);
    let time_sep = pick("T", vec!["t", " ", "", "_", "TT"]);
    let colon = pick(":", vec!["", "::", "."]);
    let frac = prop_oneof![
        2 => Just(String::new()),
        2 => (prop::sample::select(vec![".", ","]), "[0-9]{1,9}").prop_map(|(p, d)| format!("{p}{d}")),
        1 => (prop::sample::select(vec![".", ",", ":"]), "[0-9]{0,12}").prop_map(|(p, d)| format!("{p}{d}")),
    ];
    let offset = prop_oneof![
        3 => Just(String::new()),
        3 => Just("Z".to_owned()),
        1 => Just("z".to_owned()),
        4 => ("[+-]", field(0..=14, 30), prop::option::of((pick(":", vec!["", "::"]), field(0..=59, 70))))
            .prop_map(|(sign, h, m)| match m {
                None => format!("{sign}{h}"),
                Some((c, m)) => format!("{sign}{h}{c}{m}"),
            }),
        1 => prop::sample::select(vec!["[Europe/Paris]", "+01:00[u-ca=iso8601]", "Z[!UTC]", "+01:00:30", "-00:00"]).prop_map(str::to_owned),
    ];
    let time = prop::option::weighted(
        0.8,
        (time_sep, field(0..=23, 30), prop::option::weighted(0.9, (colon.clone(), field(0..=59, 70), prop::option::weighted(0.8, (colon, field(0..=60, 70), frac))))),
    );
    (year, date_sep, field(1..=12, 20), field(1..=28, 40), time, offset, prop::sample::select(vec!["", "", "", " ", "\n"]).prop_map(str::to_owned))
        .prop_map(|(y, ds, mo, d, time, off, pad)| {
            let mut s = format!("{pad}{y}{ds}{mo}{ds}{d}");
            if let Some((sep, h, rest)) = time {
                s += &format!("{sep}{h}");
                if let Some((c, mi, rest)) = rest {
                    s += &format!("{c}{mi}");
                    if let Some((c, sec, frac)) = rest {
                        s += &format!("{c}{sec}{frac}");
                    }
                }
            }
            s + &off
        })
}

/// A plain-data tree as the JS edge hands it over, with keys mostly drawn from the API's option
/// names so the parsers get past "unknown option" often.
fn value_tree() -> impl Strategy<Value = Value> {
    let number = prop_oneof![
        any::<f64>(),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(-0.0),
        Just(9_007_199_254_740_992.0),
        Just(1e21),
        -10.0..1e4f64,
        (0u32..100_000).prop_map(f64::from),
        1.7e9..2.1e9f64,
        1.7e12..2.1e12f64,
    ];
    let text = prop_oneof![
        any::<String>(),
        near_iso(),
        prop::sample::select(vec![
            "PT10M", "90 days", "1h 30m", "P1Y", "-PT1S", "s", "ms", "us", "ns", "seconds", "minutes", "hours",
            "createdAt", "ts", "", "2027-01-01", "3600",
        ])
        .prop_map(str::to_owned),
    ];
    let leaf = prop_oneof![
        Just(Value::Undefined),
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number.clone().prop_map(Value::Number),
        text.prop_map(Value::Text),
        prop_oneof![number, Just(f64::NAN)].prop_map(Value::Date),
        prop::sample::select(vec!["a function", "5n", "a Map", "an HTMLDivElement", "a Symbol(x)"])
            .prop_map(|s| Value::Other(s.to_owned())),
    ];
    let key = prop_oneof![
        4 => prop::sample::select(vec![
            "ttl", "expiresAt", "keepTtl", "defaultTtl", "reapIntervalMs", "maxRemovesPerRun",
            "maxRemovesPerCollection", "maxRemovesPerSecond", "batchSize", "autoReap", "timeoutMs", "keyPath", "ttlIndex",
            "field", "expireAfter", "unit", "timeField", "metaField", "granularity", "meta", "from", "to",
        ])
        .prop_map(str::to_owned),
        1 => any::<String>(),
    ];
    leaf.prop_recursive(3, 24, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::List),
            // As the edge copies an object: each key once, properties set to undefined left out.
            prop::collection::vec((key.clone(), inner), 0..5).prop_map(|fields| {
                let mut seen = std::collections::HashSet::new();
                Value::Record(fields.into_iter().filter(|(k, v)| !v.is_undefined() && seen.insert(k.clone())).collect())
            }),
        ]
    })
}

/// Whether `msg` names something of `v`: its description, a key of it, or one of its parts.
fn names_part_of(msg: &str, v: &Value) -> bool {
    if msg.contains(&v.describe()) {
        return true;
    }
    match v {
        Value::List(items) => items.iter().any(|i| names_part_of(msg, i)),
        Value::Record(fields) => fields.iter().any(|(k, x)| msg.contains(&quote(k)) || msg.contains(k.as_str()) || names_part_of(msg, x)),
        _ => false,
    }
}

// ---- expiry values ----

proptest! {
    #![proptest_config(config())]

    /// Every instant, printed by jiff at any offset, reads back as itself; so do the forms the
    /// README documents beyond the grammar (lowercase, a space for T, comma fractions, the basic
    /// format, reduced precision, short offsets, extended years, nine fraction digits, Z).
    #[test]
    fn printed_timestamps_read_back_as_the_same_instant(t in timestamp(), off in offset()) {
        let want = ts_ms(t);
        let s = t.display_with_offset(off).to_string();
        prop_assert_eq!(at_text(&s).map_err(|e| e.to_string()), Ok(want), "{}", s);
        prop_assert_eq!(jiff_instant_ms(&s), Some(want), "jiff's own parser, {}", s);

        let (date, rest) = s.split_at(s.find('T').unwrap());
        let zone_at = rest.rfind(['+', '-']).unwrap();
        let (time, zone) = rest.split_at(zone_at);
        let mut forms = vec![
            s.to_lowercase(),
            s.replace('T', " "),
            s.replace('.', ","),
            // Basic format: no '-' in the date (but its sign), no ':' anywhere.
            format!("{}{}{}", &date[..1], date[1..].replace('-', ""), rest.replace(':', "")),
            format!("  {s}\n"),
        ];
        if !date.starts_with(['+', '-']) {
            forms.push(format!("+00{s}"));
        }
        if zone.ends_with(":00") {
            forms.push(format!("{date}{time}{}", &zone[..3]));
            forms.push(format!("{date}{time}{}", zone.replace(':', "")));
        }
        if zone == "+00:00" {
            forms.push(format!("{date}{time}Z"));
            forms.push(format!("{date}{time}z"));
            forms.push(format!("{date}{time}"));
            if time == "T00:00:00" {
                forms.push(date.to_owned());
            }
        }
        if let Some(frac_at) = time.find('.') {
            let digits = time.len() - frac_at - 1;
            forms.push(format!("{date}{time}{}{zone}", "0".repeat(9 - digits)));
        } else {
            forms.push(format!("{date}{time}.000000000{zone}"));
            if time.ends_with(":00") {
                forms.push(format!("{date}{}{zone}", &time[..time.len() - 3]));
            }
        }
        for form in forms {
            prop_assert_eq!(at_text(&form).map_err(|e| e.to_string()), Ok(want), "{} (from {})", form, s);
        }
    }

    /// Near-ISO strings: whatever is accepted, jiff's parsers accept too with the same instant;
    /// whatever jiff accepts is accepted unless it is one of the documented refusals; every
    /// refusal quotes the input and lists what is accepted.
    #[test]
    fn near_iso_strings_are_read_as_jiff_reads_them(s in near_iso()) {
        check_expires_at_text(&s)?;
    }

    /// Any string at all: never a panic, and the same agreement with jiff.
    #[test]
    fn any_string_as_expires_at(s in any::<String>()) {
        check_expires_at_text(&s)?;
    }

    /// Numbers are Unix seconds: accepted exactly when finite and within the years -9999 to
    /// 9999 and not a millisecond timestamp; refusals print the number as JS would.
    #[test]
    fn numbers_as_expires_at(n in prop_oneof![any::<f64>(), -4e11..4e11f64, 1e11..1e15f64]) {
        match parse_expires_at(ExpiresAtInput::Seconds(n)) {
            Ok(ms) => {
                prop_assert!(n.is_finite() && (-377_705_116_800.0..=MAX_EXPIRES_AT_SECS).contains(&n), "{}", n);
                prop_assert_eq!(ms, n * 1000.0 + 0.0);
            }
            Err(e) => {
                let m = message(&e);
                prop_assert!(m.contains(&js_number(n)), "{}", m);
                prop_assert!(!n.is_finite() || n > MAX_EXPIRES_AT_SECS || n < -377_705_116_800.0, "{} refused: {}", n, m);
                if n > MAX_EXPIRES_AT_SECS && n / 1000.0 <= MAX_EXPIRES_AT_SECS {
                    prop_assert!(m.contains("looks like milliseconds"), "{}", m);
                }
            }
        }
    }

    /// Dates (their getTime() ms): accepted within range, refused naming the Date otherwise.
    #[test]
    fn dates_as_expires_at(ms in prop_oneof![any::<f64>(), -4e14..4e14f64]) {
        match parse_expires_at(ExpiresAtInput::DateMs(ms)) {
            Ok(got) => prop_assert_eq!(got, ms + 0.0),
            Err(e) => {
                let m = message(&e);
                prop_assert!(m.contains(&js_number(ms)) && (m.contains("Date") || m.contains("Invalid")), "{}", m);
                prop_assert!(!ms.is_finite() || ms.abs() > MAX_MS, "{} refused: {}", ms, m);
            }
        }
    }
}

fn check_expires_at_text(s: &str) -> Result<(), TestCaseError> {
    let ours = at_text(s);
    let theirs = jiff_instant_ms(s);
    match &ours {
        Ok(ms) => {
            prop_assert!(ms.is_finite() && ms.abs() <= 377_705_116_800_000.0, "{:?} -> {}", s, ms);
            // jiff's Timestamp stops at 9999-12-30T22:00Z and -9999-01-02T01:59:59Z; beyond,
            // only the civil reading is there to compare.
            if let Some(theirs) = theirs {
                prop_assert_eq!(*ms, theirs, "{:?}", s);
            } else {
                let near_edge = ms.abs() > 253_402_000_000_000.0 - 2.0 * 86_400_000.0;
                prop_assert!(near_edge, "accepted {:?} ({}) but jiff refuses it", s, ms);
            }
        }
        Err(e) => {
            let m = message(e);
            prop_assert!(m.contains(&quote(s)), "refusal of {:?} does not quote it: {}", s, m);
            prop_assert!(m.contains("accepted:"), "refusal of {:?} does not say what is accepted: {}", s, m);
            if let Some(theirs) = theirs {
                // jiff accepts: the refusal must be one the README documents.
                let documented = m.contains("time zone annotation")
                    || m.contains("has the UTC offset")
                    || m.contains("number inside a string")
                    || m.contains("beyond 9999")
                    || m.contains("beyond year 9999")
                    || m.contains("before -9999");
                prop_assert!(documented, "{:?} is {} to jiff but refused: {}", s, theirs, m);
                if m.contains("has the UTC offset") {
                    let off = Pieces::parse(s.trim()).ok().and_then(|p| p.to_numeric_offset());
                    let beyond = off.is_some_and(|o| o.seconds().abs() > 23 * 3600 + 59 * 60 + 59);
                    prop_assert!(beyond, "{:?}: {}", s, m);
                }
            }
        }
    }
    Ok(())
}

// ---- durations ----

/// A non-negative span of every unit a user writes, with jiff's limits respected.
fn span() -> impl Strategy<Value = Span> {
    (
        (0i64..200, 0i64..2400, 0i64..1000, 0i64..20_000),
        (0i64..100_000, 0i64..100_000, 0i64..1_000_000, 0i64..1000),
    )
        .prop_map(|((y, mo, w, d), (h, mi, s, ms))| {
            let (y, mo) = if y % 3 == 0 { (y, mo) } else { (0, 0) }; // most spans are exact
            Span::new().years(y).months(mo).weeks(w).days(d).hours(h).minutes(mi).seconds(s).milliseconds(ms)
        })
}

proptest! {
    #![proptest_config(config())]

    /// Every span jiff prints, ISO-8601 ("P1Y2MT3H") or friendly ("1y 2mo 3h"), reads back as
    /// the same length: exact spans to the millisecond; spans with months or years land where
    /// jiff's own civil arithmetic lands, from any `now`.
    #[test]
    fn printed_spans_read_back_as_the_same_length(sp in span(), now_s in 0i64..4_000_000_000) {
        let now = now_s as f64 * 1000.0;
        let start = EPOCH.checked_add(SignedDuration::from_secs(now_s)).unwrap();
        let want = start.checked_add(sp).map(civil_utc_ms).ok();
        for text in [sp.to_string(), format!("{sp:#}")] {
            let ttl = match Ttl::parse(TtlInput::Text(&text)) {
                Ok(t) => t,
                Err(e) => {
                    // Only a span too long for any expiry is refused.
                    prop_assert!(message(&e).contains("longer than any expiry"), "{}: {}", text, e);
                    continue;
                }
            };
            if sp.get_years() == 0 && sp.get_months() == 0 {
                let exact = (sp.get_weeks() * 7 + sp.get_days()) as f64 * 86_400_000.0
                    + sp.get_hours() as f64 * 3_600_000.0
                    + sp.get_minutes() as f64 * 60_000.0
                    + sp.get_seconds() as f64 * 1000.0
                    + sp.get_milliseconds() as f64;
                prop_assert_eq!(ttl.exact_ms(), Some(exact), "{}", text);
            } else {
                prop_assert_eq!(ttl.exact_ms(), None, "{}", text);
            }
            match (ttl.expires_at_ms(now), want) {
                (Ok(got), Some(want)) if want <= MAX_MS => prop_assert_eq!(got, want, "{} from {}", text, now),
                (Err(e), _) => prop_assert!(message(&e).contains("9999"), "{}: {}", text, e),
                (Ok(got), want) => prop_assert!(false, "{} from {}: {} but jiff says {:?}", text, now, got, want),
            }
        }
    }

    /// Any string as a ttl: never a panic; accepted only when jiff reads a non-negative span;
    /// refused naming the string (and the option) otherwise.
    #[test]
    fn any_string_as_ttl(s in prop_oneof![
        any::<String>(),
        "[-+ ]?P([0-9]{1,4}[YMWD]){0,3}(T([0-9]{1,6}[.,]?[0-9]{0,3}[HMS]){0,3})?",
        "[-+]?([0-9]{1,6} ?(y|yr|years?|mo|months?|w|weeks?|d|days?|h|hours?|m|min|s|secs?|ms),? ?){1,4}( ago)?",
    ]) {
        match Ttl::parse(TtlInput::Text(&s)) {
            Ok(ttl) => {
                let span: Span = s.trim().parse().map_err(|e| TestCaseError::fail(format!("{s:?} accepted, jiff: {e}")))?;
                prop_assert!(!span.is_negative(), "{:?}", s);
                prop_assert!(ttl.exact_ms().map_or(true, |ms| ms >= 0.0 && ms <= MAX_MS), "{:?}", s);
            }
            Err(e) => {
                let m = message(&e);
                prop_assert!(m.starts_with("ttl ") && m.contains(&quote(&s)), "{}", m);
                prop_assert!(m.contains("non-negative number of seconds"), "{}", m);
            }
        }
    }

    /// Numbers as a ttl: seconds, accepted exactly when finite, not negative and short enough.
    #[test]
    fn numbers_as_ttl(n in prop_oneof![any::<f64>(), -10.0..1e12f64]) {
        match Ttl::parse(TtlInput::Seconds(n)) {
            Ok(ttl) => {
                prop_assert!(n.is_finite() && n >= 0.0 && n * 1000.0 <= MAX_MS, "{}", n);
                prop_assert_eq!(ttl.exact_ms(), Some(n * 1000.0 + 0.0));
            }
            Err(e) => {
                let m = message(&e);
                prop_assert!(m.contains(&js_number(n)), "{}", m);
                prop_assert!(!n.is_finite() || n < 0.0 || n * 1000.0 > MAX_MS, "{} refused: {}", n, m);
            }
        }
    }
}

// ---- option trees, TTL-index values, snapshot items ----

proptest! {
    #![proptest_config(config())]

    /// Every option parser of the API against any plain-data tree: never a panic; a refusal
    /// names what it refuses (an option's name or the value); an unknown option is refused by
    /// its name; an accepted tree has only known options.
    #[test]
    fn option_trees(v in value_tree()) {
        let parsers: [(&str, &[&str], Box<dyn Fn(&Value) -> Option<Error>>); 7] = [
            ("TtlStore.open options", &["defaultTtl", "reapIntervalMs", "maxRemovesPerRun", "maxRemovesPerCollection", "maxRemovesPerSecond", "batchSize", "autoReap", "timeoutMs"], Box::new(|v| store_config(v).err())),
            ("set options", &["ttl", "expiresAt", "keepTtl"], Box::new(|v| set_options("set options", v).err())),
            ("expire options", &["ttl", "expiresAt"], Box::new(|v| expire_options(v).err())),
            ("collection options", &["keyPath", "ttlIndex"], Box::new(|v| collection_options(v).err())),
            ("time-series options", &["timeField", "metaField", "granularity", "expireAfter"], Box::new(|v| series_options(v).err())),
            ("query", &["meta", "from", "to"], Box::new(|v| query_options(v).err())),
            ("expireAfter", &[], Box::new(|v| expire_after(v).err())),
        ];
        for (name, known, parse) in &parsers {
            let refusal = parse(&v);
            if let Some(e) = &refusal {
                let m = message(e);
                prop_assert!(!m.is_empty());
                let names_option = known.iter().any(|k| m.contains(k));
                prop_assert!(names_option || names_part_of(m, &v) || m.contains("needs"), "{}: {} refused without naming it: {}", name, v.describe(), m);
            }
            if let Value::Record(fields) = &v {
                if !known.is_empty() {
                    let unknown: Vec<&String> = fields.iter().map(|(k, _)| k).filter(|k| !known.contains(&k.as_str())).collect();
                    if !unknown.is_empty() {
                        let m = refusal.as_ref().map(|e| message(e).to_owned()).unwrap_or_default();
                        let named = unknown.iter().any(|k| m.contains(&quote(k)));
                        prop_assert!(m.contains("unknown option") && named, "{}: {} accepted or refused otherwise: {:?}", name, v.describe(), m);
                    }
                }
            }
        }
    }

    /// A set/expire option that is not a plain object is refused, never read as "no options"
    /// (the silent never-expire of a Date or a boxed number as options).
    #[test]
    fn options_must_be_objects(v in value_tree().prop_filter("not an object", |v| !matches!(v, Value::Record(_) | Value::Undefined | Value::Null))) {
        let e = set_options("set options", &v);
        prop_assert!(e.is_err(), "{} read as options", v.describe());
        prop_assert!(expire_options(&v).is_err());
        prop_assert!(store_config(&v).is_err());
    }

    /// TTL-index field values (MongoDB's rules, YDB's units): a number in the index's unit, a
    /// date string, a Date, or an array (its earliest date); anything else never expires. Never
    /// a panic, never an instant outside the years -9999 to 9999.
    #[test]
    fn ttl_index_field_values(v in value_tree(), unit in prop::sample::select(vec!["s", "ms", "us", "ns"])) {
        let index = TtlIndex::new("createdAt", TtlInput::Seconds(60.0), Some(unit)).unwrap();
        let got = index.reference_ms(&v);
        if let Some(ms) = got {
            prop_assert!(ms.is_finite() && ms.abs() <= MAX_MS, "{} -> {}", v.describe(), ms);
        }
        let in_range = |ms: f64| (ms.is_finite() && ms.abs() <= MAX_MS).then_some(ms + 0.0);
        let want = match &v {
            Value::Number(n) => in_range(n * TimeUnit::parse(unit).unwrap().ms()),
            Value::Text(s) => at_text(s).ok().and_then(in_range),
            Value::Date(ms) => in_range(*ms),
            Value::List(items) => items
                .iter()
                .filter(|i| !matches!(i, Value::List(_)))
                .filter_map(|i| index.reference_ms(i))
                .min_by(f64::total_cmp),
            _ => None,
        };
        prop_assert_eq!(got, want, "{}", v.describe());
    }

    /// Snapshot items' `expiresAt`: checked as `set()` checks one (the same refusals, renamed to
    /// the item), `null` for none, anything else refused naming the item and the value.
    #[test]
    fn snapshot_item_expiries(v in value_tree(), i in 0usize..100_000) {
        let what = format!("import: snapshot.entries[{i}].expiresAt");
        match (&v, item_expiry_ms(&what, &v)) {
            (Value::Undefined | Value::Null, r) => prop_assert_eq!(r.map_err(|e| e.to_string()), Ok(None)),
            (Value::Number(n), Ok(got)) => prop_assert_eq!(got, Some(parse_expires_at(ExpiresAtInput::Seconds(*n)).unwrap())),
            (Value::Number(n), Err(e)) => {
                prop_assert!(parse_expires_at(ExpiresAtInput::Seconds(*n)).is_err());
                prop_assert!(message(&e).starts_with(&what) && message(&e).contains(&js_number(*n)), "{}", e);
            }
            (other, r) => {
                let e = r.err().ok_or_else(|| TestCaseError::fail(format!("{} accepted", other.describe())))?;
                prop_assert!(message(&e).starts_with(&what) && message(&e).contains(&other.describe()), "{}", e);
            }
        }
    }
}

// ---- clock trouble ----

/// One step of the device clock: a tick, or a jump either way (an NTP correction, a user
/// changing the time, a laptop waking with a wrong clock).
fn clock_steps() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(
        prop_oneof![
            4 => 0.0..5_000.0f64,
            1 => -86_400_000.0..0.0f64,       // backwards, up to a day
            1 => 0.0..30.0 * 86_400_000.0f64, // forwards, up to a month
        ],
        1..40,
    )
}

proptest! {
    #![proptest_config(config())]

    /// The core reads the clock only through the `now` it is given; whichever way `now` moves:
    /// - a write's expiry is never before the clock reading it was made at (a ttl counts from
    ///   the write's `now`, `keepTtl` keeps the expiry it had);
    /// - an entry, a TTL-indexed document or a time-series bucket is due for removal at a
    ///   reading only when its expiry is at or before that reading: a clock going backwards
    ///   never makes anything due that was not due at the earlier reading;
    /// - a forward jump makes due exactly what expires up to the new reading (the documented
    ///   behaviour: a clock jumping ahead by J expires entries up to J early, as Redis does).
    #[test]
    fn clock_jumps_never_remove_the_unexpired(
        start in 1.6e12..2.0e12f64,
        steps in clock_steps(),
        ttls in prop::collection::vec(0u32..100_000, 40),
        expire_after_s in 0u32..100_000,
    ) {
        let index = TtlIndex::new("t", TtlInput::Seconds(f64::from(expire_after_s)), None).unwrap();
        let series = SeriesOptions::new("t", None, None, Some(TtlInput::Seconds(f64::from(expire_after_s)))).unwrap();
        let mut now = start;
        let mut entries: Vec<(f64, f64)> = Vec::new(); // (written at, expiry)
        for (step, ttl_s) in steps.iter().zip(&ttls) {
            now += step;
            // A write at this reading, by ttl and by keepTtl over the previous entry.
            let spec = ExpirySpec::parse(Some(TtlInput::Seconds(f64::from(*ttl_s))), None, false).unwrap();
            let e = spec.resolve(None, None, now).unwrap();
            prop_assert!(e >= now && e == now + f64::from(*ttl_s) * 1000.0);
            if let Some(&(_, prev)) = entries.last() {
                prop_assert_eq!(ExpirySpec::Keep.resolve(None, Some(prev), now).unwrap(), prev);
            }
            entries.push((now, e));
            // What a reaper pass at this reading would remove.
            for &(_, e) in &entries {
                prop_assert_eq!(!is_live(e, now), e <= now);
            }
            let cutoff = index.expired_through_ms(now);
            prop_assert_eq!(Some(cutoff), series.expired_through_ms(now));
            for &(written, _) in &entries {
                // A document whose reference is its write time is due only once expireAfter
                // has passed since the reference, at this reading.
                let due = written <= cutoff;
                prop_assert_eq!(due, index.expires_at_ms(written) <= now, "written {} now {}", written, now);
            }
        }
    }
}
