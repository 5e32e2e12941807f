//! Every option object of the API, read out of a [`Value`] and validated: `TtlStore.open`'s
//! options, `set`/`expire` options, collection and TTL-index options, time-series options, query
//! bounds. Each reader names the accepted options (unknown ones are refused by name, so a typo
//! such as `{ expire: 60 }` never silently stores an entry that never expires); each field is
//! then checked with its name in the message.

use crate::core::buckets::{Granularity, SeriesOptions};
use crate::core::config::{StoreConfig, DEFAULT_TIMEOUT_MS, MAX_TIMER_MS};
use crate::core::entry::ExpirySpec;
use crate::core::error::{Error, Result};
use crate::core::modify::{ExpireIf, EXPIRE_IF_ACCEPTED};
use crate::core::expiry::{parse_exact_secs, parse_expires_at, ExpiresAtInput, Ttl, TtlInput};
use crate::core::reaper::ReapLimits;
use crate::core::text::{js_number, replace_first};
use crate::core::schedule::Schedule;
use crate::core::ttl_index::{tiers_windows, TierAction, Tiers, TtlIndex};
use crate::core::window::Window;
use crate::core::value::{options, Value};

/// The largest whole number a JS number holds exactly (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

const DURATIONS: &str = "a non-negative number of seconds or a duration such as \"PT10M\", \"90 days\", \"1h 30m\"";

/// `what` was given a value of the wrong type.
fn wrong(what: &str, v: &Value, accepted: &str) -> Error {
    Error::wrong_type(what, &v.describe(), accepted)
}

/// A ttl-like value (`ttl`, `defaultTtl`, `expireAfter`): a number of seconds or a duration.
pub fn ttl_input<'a>(what: &str, v: &'a Value) -> Result<TtlInput<'a>> {
    match v {
        Value::Number(n) => Ok(TtlInput::Seconds(*n)),
        Value::Text(s) => Ok(TtlInput::Text(s)),
        other => Err(wrong(what, other, DURATIONS)),
    }
}

/// An absolute time (`expiresAt`, query bounds): Unix seconds, an ISO-8601 string or a Date.
pub fn expires_at_input<'a>(what: &str, v: &'a Value) -> Result<ExpiresAtInput<'a>> {
    match v {
        Value::Number(n) => Ok(ExpiresAtInput::Seconds(*n)),
        Value::Text(s) => Ok(ExpiresAtInput::Text(s)),
        Value::Date(ms) => Ok(ExpiresAtInput::DateMs(*ms)),
        other => Err(wrong(what, other, "Unix seconds as a number, an ISO-8601 string or a Date")),
    }
}

/// `expiresAt`-like `v` parsed to Unix ms, its errors naming `what` instead of `expiresAt`.
pub fn instant_ms(what: &str, v: &Value) -> Result<f64> {
    parse_expires_at(expires_at_input(what, v)?).map_err(|e| rename(e, what))
}

/// The parser names the value `expiresAt`; elsewhere it is a query bound or an event's time.
pub fn rename(e: Error, what: &str) -> Error {
    match e {
        Error::InvalidType(m) => Error::InvalidType(replace_first(&m, "expiresAt", what)),
        Error::OutOfRange(m) => Error::OutOfRange(replace_first(&m, "expiresAt", what)),
        other => other,
    }
}

/// Prefixes a bad-input error with where it happened (`"setMany entry 3: "`).
pub fn prefix(e: Error, p: &str) -> Error {
    match e {
        Error::InvalidType(m) => Error::InvalidType(format!("{p}{m}")),
        Error::OutOfRange(m) => Error::OutOfRange(format!("{p}{m}")),
        other => other,
    }
}

fn bool_option(what: &str, v: Option<&Value>) -> Result<Option<bool>> {
    match v {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(wrong(what, other, "true or false")),
    }
}

/// A whole number option in `1..=max`.
pub fn whole(what: &str, v: &Value, max: f64) -> Result<f64> {
    match v {
        Value::Number(n) if n.is_finite() && n.fract() == 0.0 && *n >= 1.0 && *n <= max => Ok(*n),
        Value::Number(n) => Err(Error::OutOfRange(format!(
            "{what} {} is not accepted; expected a whole number from 1 to {}",
            js_number(*n),
            js_number(max)
        ))),
        other => Err(wrong(what, other, "a whole number >= 1")),
    }
}

/// The longest field name or name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 1000;

/// A document or event field name (`keyPath`, `ttlIndex.field`, `timeField`, `metaField`): a
/// non-empty string of at most [`MAX_NAME_CHARS`] characters.
fn field_name<'a>(what: &str, v: Option<&'a Value>, example: &str) -> Result<Option<&'a str>> {
    match v {
        None => Ok(None),
        Some(Value::Text(s)) if s.is_empty() => Err(wrong(what, &Value::Text(String::new()), example)),
        Some(Value::Text(s)) if s.chars().count() > MAX_NAME_CHARS => Err(Error::OutOfRange(format!(
            "{what} {} is longer than {MAX_NAME_CHARS} characters; expected {example}",
            Value::Text(s.clone()).describe()
        ))),
        Some(Value::Text(s)) => Ok(Some(s)),
        Some(other) => Err(wrong(what, other, example)),
    }
}

fn text_option<'a>(what: &str, v: Option<&'a Value>, accepted: &str) -> Result<Option<&'a str>> {
    match v {
        None => Ok(None),
        Some(Value::Text(s)) => Ok(Some(s)),
        Some(other) => Err(wrong(what, other, accepted)),
    }
}

/// `TtlStore.destroy(name, options)`'s options: how long the deletion may go unanswered
/// (`timeoutMs`, read as `open`'s; 30 s when absent).
pub fn destroy_timeout(v: &Value) -> Result<u32> {
    let [timeout_ms] = options("TtlStore.destroy options", v, ["timeoutMs"])?;
    match timeout_ms {
        Some(ms) => Ok(whole("timeoutMs", ms, f64::from(MAX_TIMER_MS))? as u32),
        None => Ok(DEFAULT_TIMEOUT_MS),
    }
}

/// `TtlStore.open(name, options)`'s options.
pub fn store_config(v: &Value) -> Result<StoreConfig> {
    let [default_ttl, reap_interval_ms, max_removes_per_run, max_removes_per_collection, batch_size, auto_reap, timeout_ms, max_removes_per_second, on_expire, archive_for, max_entries, evict_on_quota, encryption, select_batch_size] =
        options(
            "TtlStore.open options",
            v,
            [
                "defaultTtl",
                "reapIntervalMs",
                "maxRemovesPerRun",
                "maxRemovesPerCollection",
                "batchSize",
                "autoReap",
                "timeoutMs",
                "maxRemovesPerSecond",
                "onExpire",
                "archiveFor",
                "maxEntries",
                "evictOnQuota",
                "encryption",
                "selectBatchSize",
            ],
        )?;
    let mut config = StoreConfig::default();
    if let Some(t) = default_ttl {
        config.default_ttl = Some(Ttl::parse_as("defaultTtl", ttl_input("defaultTtl", t)?)?);
    }
    if let Some(ms) = reap_interval_ms {
        config.reap_interval_ms = whole("reapIntervalMs", ms, MAX_SAFE_INTEGER)?;
    }
    if let Some(ms) = timeout_ms {
        config.timeout_ms = whole("timeoutMs", ms, f64::from(MAX_TIMER_MS))? as u32;
    }
    let cap = |name: &str, v: Option<&Value>| -> Result<Option<u32>> {
        v.map(|v| whole(name, v, f64::from(u32::MAX)).map(|n| n as u32)).transpose()
    };
    let defaults = ReapLimits::default();
    let per_run = cap("maxRemovesPerRun", max_removes_per_run)?.unwrap_or(defaults.max_removes_per_run);
    let batch = cap("batchSize", batch_size)?;
    config.limits = ReapLimits::new(
        batch.unwrap_or(defaults.batch_size),
        per_run,
        // An unset per-collection cap follows the per-run cap: `{ maxRemovesPerRun: 100000 }`
        // alone must not be held to the per-collection default of 10 000.
        cap("maxRemovesPerCollection", max_removes_per_collection)?.unwrap_or(per_run),
    )?;
    // A batchSize given is kept; the default grows with a backlog.
    config.limits.fixed_batch = batch.is_some();
    if let Some(n) = cap("selectBatchSize", select_batch_size)? {
        if n == 0 {
            return Err(Error::OutOfRange("selectBatchSize 0 is not accepted; expected a whole number >= 1".into()));
        }
        config.limits.select_batch_size = n;
    }
    if let Some(rate) = max_removes_per_second {
        // 0 is the documented "no limit" (the default), so it is accepted here.
        config.limits.max_removes_per_second = match rate {
            Value::Number(n) if *n == 0.0 => 0,
            other => whole("maxRemovesPerSecond", other, f64::from(u32::MAX)).map_err(|e| match e {
                Error::OutOfRange(m) => Error::OutOfRange(replace_first(&m, "a whole number from 1", "0 (no limit) or a whole number from 1")),
                e => e,
            })? as u32,
        };
    }
    if let Some(auto) = bool_option("autoReap", auto_reap)? {
        config.auto_reap = auto;
    }
    // The JS edge checks that onExpire is a function and keeps it (`js/convert.rs`).
    config.hand_off = on_expire.is_some();
    if let Some(a) = archive_for {
        config.archive_for_ms = Some(positive_duration_ms("archiveFor", a)?);
    }
    config.max_entries = cap("maxEntries", max_entries)?;
    config.evict_on_quota = bool_option("evictOnQuota", evict_on_quota)?.unwrap_or(false);
    config.encryption = match encryption {
        None | Some(Value::Bool(false)) => None,
        Some(Value::Bool(true)) => Some(None),
        Some(o @ Value::Record(_)) => {
            let [key_ttl] = options("encryption", o, ["keyTtl"])?;
            Some(key_ttl.map(|t| positive_duration_ms("encryption.keyTtl", t)).transpose()?)
        }
        Some(other) => return Err(wrong("encryption", other, "true, or { keyTtl } (a duration after which writes use a new key)")),
    };
    if config.encryption.is_some() && (config.hand_off || config.archive_for_ms.is_some()) {
        return Err(Error::InvalidType(
            "encryption cannot be combined with onExpire or archiveFor: expired records would leave the store, or wait in it, decrypted; use one or the other".into(),
        ));
    }
    Ok(config)
}

/// The options of `set` and of each `setMany` entry; `what` names them in messages.
pub fn set_options(what: &str, v: &Value) -> Result<ExpirySpec> {
    let [ttl, expires_at, keep_ttl, idle] = options(what, v, ["ttl", "expiresAt", "keepTtl", "idle"])?;
    let keep = bool_option("keepTtl", keep_ttl)?.unwrap_or(false);
    let ttl = ttl.map(|t| ttl_input("ttl", t)).transpose()?;
    let at = expires_at.map(|a| expires_at_input("expiresAt", a)).transpose()?;
    let idle = idle.map(|t| ttl_input("idle", t)).transpose()?;
    ExpirySpec::parse(ttl, at, keep, idle)
}

/// The options of `store.asyncStorage(options)`, checked: the key prefix (`""` for none), and the
/// `ttl` and `idle` each `setItem` stores with, as given (`None`: the store's default).
pub fn async_storage_options(v: &Value) -> Result<(String, Option<Value>, Option<Value>)> {
    let [prefix, ttl, idle] = options("asyncStorage options", v, ["prefix", "ttl", "idle"])?;
    let prefix = text_option("prefix", prefix, "a string, e.g. \"query:\"")?.unwrap_or_default().to_owned();
    if let Some(t) = ttl {
        Ttl::parse(ttl_input("ttl", t)?)?;
    }
    if let Some(t) = idle {
        Ttl::parse_as("idle", ttl_input("idle", t)?)?;
    }
    Ok((prefix, ttl.cloned(), idle.cloned()))
}

/// The options of `ttl(key, options)`: `{ detail }`, whether the window and cap of an idle entry
/// are asked for.
pub fn ttl_options(v: &Value) -> Result<bool> {
    let [detail] = options("ttl options", v, ["detail"])?;
    Ok(bool_option("detail", detail)?.unwrap_or(false))
}

/// `{ signal, onProgress }`, the last argument of long work (`setMany`, `import`, `export`,
/// `exportStream`, `clear`, `reap`): whether each is given. The edge checks what they are (an
/// `AbortSignal`, a function); anything else in the object is refused here.
pub fn long_options(what: &str, v: &Value) -> Result<[bool; 2]> {
    let [signal, progress] = options(what, v, ["signal", "onProgress"])?;
    Ok([signal.is_some(), progress.is_some()])
}

/// The options of `expire(key, options)`: the new expiry, and `only`, the condition it is set on.
pub fn expire_options(v: &Value) -> Result<(ExpirySpec, Option<ExpireIf>)> {
    let [ttl, expires_at, idle, only] = options("expire options", v, ["ttl", "expiresAt", "idle", "only"])?;
    let only = match only {
        None => None,
        Some(Value::Text(s)) => Some(ExpireIf::parse(s).ok_or_else(|| wrong("expire option only", &Value::Text(s.clone()), EXPIRE_IF_ACCEPTED))?),
        Some(other) => return Err(wrong("expire option only", other, EXPIRE_IF_ACCEPTED)),
    };
    let ttl = ttl.map(|t| ttl_input("ttl", t)).transpose()?;
    let at = expires_at.map(|a| expires_at_input("expiresAt", a)).transpose()?;
    let idle = idle.map(|t| ttl_input("idle", t)).transpose()?;
    Ok((ExpirySpec::parse_for_expire(ttl, at, idle)?, only))
}

/// The options of `collection.expire(id, options)`: `{ ttl }` or `{ expiresAt }`.
pub fn doc_expire_options(v: &Value) -> Result<ExpirySpec> {
    let [ttl, expires_at] = options("expire options", v, ["ttl", "expiresAt"])?;
    if ttl.is_none() && expires_at.is_none() {
        return Err(Error::InvalidType("collection.expire(id, options) needs { ttl } or { expiresAt }".into()));
    }
    let ttl = ttl.map(|t| ttl_input("ttl", t)).transpose()?;
    let at = expires_at.map(|a| expires_at_input("expiresAt", a)).transpose()?;
    ExpirySpec::parse(ttl, at, false, None)
}

/// The options of `incr` and `update` (`what` names them): an expiry, or none; `keepTtl` is what
/// they do without one, so it is not among them.
pub fn modify_options(what: &str, v: &Value) -> Result<ExpirySpec> {
    let [ttl, expires_at, idle] = options(what, v, ["ttl", "expiresAt", "idle"])?;
    let ttl = ttl.map(|t| ttl_input("ttl", t)).transpose()?;
    let at = expires_at.map(|a| expires_at_input("expiresAt", a)).transpose()?;
    let idle = idle.map(|t| ttl_input("idle", t)).transpose()?;
    ExpirySpec::parse(ttl, at, false, idle)
}

/// `{ keyPath, ttlIndex: { field, expireAfter, unit } }` of `store.collection(name, options)`.
pub fn collection_options(v: &Value) -> Result<(Option<String>, Option<TtlIndex>)> {
    let [key_path, ttl_index] = options("collection options", v, ["keyPath", "ttlIndex"])?;
    let key_path = field_name("keyPath", key_path, "the name of the property holding each document's id, e.g. \"id\"")?;
    let key_path = key_path.map(str::to_owned);
    let ttl = ttl_index.map(ttl_index_options).transpose()?;
    Ok((key_path, ttl))
}

fn ttl_index_options(v: &Value) -> Result<TtlIndex> {
    if matches!(v, Value::Null) {
        return Err(wrong("ttlIndex", v, "{ field, expireAfter or tiers, unit? }"));
    }
    let [field, expire_after, unit, tiers, automatic, schedule] = options("ttlIndex", v, ["field", "expireAfter", "unit", "tiers", "automatic", "schedule"])?;
    let schedule = text_option("ttlIndex.schedule", schedule, "\"@hourly\", \"@daily\", \"@weekly\", \"@monthly\" or five CRON fields")?
        .map(Schedule::parse)
        .transpose()?;
    let example = "the name of a document field, e.g. \"createdAt\"";
    let automatic = bool_option("ttlIndex.automatic", automatic)?.unwrap_or(false);
    let field = field_name("ttlIndex.field", field, example)?;
    let unit = text_option("ttlIndex.unit", unit, "\"s\", \"ms\", \"us\" or \"ns\"")?;
    let new = |after: TtlInput<'_>| match (automatic, field) {
        (true, None) if unit.is_none() => TtlIndex::automatic(after),
        (true, _) => Err(Error::InvalidType(format!(
            "ttlIndex.automatic: true stamps each document's expiry at its write; give no {} with it",
            if field.is_some() { "field (the reference is the write time)" } else { "unit" }
        ))),
        (false, Some(field)) => TtlIndex::new(field, after, unit),
        (false, None) => Err(wrong(
            "ttlIndex.field",
            &Value::Undefined,
            &format!("{example}, or automatic: true to expire documents expireAfter after their last write"),
        )),
    };
    let mut index = match (expire_after, tiers) {
        (Some(_), Some(_)) => Err(Error::InvalidType("ttlIndex has both expireAfter and tiers; give one (expireAfter is the one-tier shorthand)".into())),
        (Some(after), None) => new(ttl_input("ttlIndex.expireAfter", after)?),
        (None, Some(tiers)) => {
            let tiers = tiers_option("ttlIndex.tiers", tiers)?;
            let mut index = new(TtlInput::Seconds(0.0))?;
            index.set_tiers(tiers);
            Ok(index)
        }
        (None, None) => Err(Error::InvalidType(
            "ttlIndex needs expireAfter: seconds or a duration such as \"90 days\" (0: the field is the expiry time), or tiers: [{ after, action: \"archive\" }, { after, action: \"delete\" }]".into(),
        )),
    }?;
    index.schedule = schedule;
    Ok(index)
}

/// `tiers` (of a `ttlIndex`, or `setTiers(tiers)`): an array of `{ after, action, handOff? }`
/// (see [`tiers_windows`]).
pub fn tiers_option(what: &str, v: &Value) -> Result<Tiers> {
    let Value::List(items) = v else {
        return Err(wrong(what, v, "an array of { after, action: \"archive\" | \"delete\" }"));
    };
    let mut tiers = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("{what}[{i}]");
        let [after, action, hand_off] = options(&at, item, ["after", "action", "handOff"])?;
        let after = after.ok_or_else(|| Error::InvalidType(format!("{at} needs after: seconds or a duration such as \"7 days\"")))?;
        let after = Window::parse(&format!("{at}.after"), ttl_input(&format!("{at}.after"), after)?)?;
        let action = text_option(&format!("{at}.action"), action, "\"archive\" or \"delete\"")?
            .ok_or_else(|| Error::InvalidType(format!("{at} needs action: \"archive\" or \"delete\"")))?;
        let hand_off = bool_option(&format!("{at}.handOff"), hand_off)?.unwrap_or(false);
        tiers.push((after, TierAction::parse(action).map_err(|e| prefix(e, &format!("{at}: ")))?, hand_off));
    }
    tiers_windows(&tiers)
}

/// A duration that must be exact and above zero (`archiveFor`, a tier's `after`), in ms.
fn positive_duration_ms(what: &str, v: &Value) -> Result<f64> {
    let secs = parse_exact_secs(what, ttl_input(what, v)?)?;
    if secs <= 0.0 {
        return Err(Error::OutOfRange(format!("{what} {} is not accepted; expected a duration above 0, e.g. \"30 days\"", v.describe())));
    }
    Ok(secs * 1000.0)
}

/// `expireAfter` of `setExpireAfter(v)`: seconds or a duration, months and years included.
pub fn expire_after(v: &Value) -> Result<Window> {
    Window::parse("expireAfter", ttl_input("expireAfter", v)?)
}

/// `{ timeField, metaField, granularity, expireAfter }` of `store.timeSeries(name, options)`;
/// `None` when no options were given (open an existing series as it is).
pub fn series_options(v: &Value) -> Result<Option<SeriesOptions>> {
    if matches!(v, Value::Undefined | Value::Null) {
        return Ok(None);
    }
    let names = ["timeField", "metaField", "granularity", "expireAfter", "bucketMaxSpanSeconds", "bucketRoundingSeconds", "maxBucketBytes"];
    let [time_field, meta_field, granularity, expire_after, max_span, rounding, max_bytes] = options("timeSeries options", v, names)?;
    let time_field = field_name("timeField", time_field, "the name of the event field holding its time, e.g. \"ts\"")?
        .ok_or_else(|| Error::InvalidType("timeSeries options need timeField: the name of the event field holding its time".into()))?;
    let meta_field = field_name("metaField", meta_field, "the name of the event field naming its series, e.g. \"sensor\"")?;
    let granularity = text_option("granularity", granularity, "\"seconds\", \"minutes\" or \"hours\"")?;
    let after = expire_after.map(|a| ttl_input("expireAfter", a)).transpose()?;
    let mut options = SeriesOptions::new(time_field, meta_field, granularity, after)?;
    let seconds = |what: &str, v: &Value| match v {
        Value::Number(n) => Ok(*n),
        other => Err(wrong(what, other, "a whole number of seconds")),
    };
    match (max_span, rounding) {
        (None, None) => {}
        (Some(span), Some(rounding)) if granularity.is_none() => {
            options.granularity = Granularity::custom(seconds("bucketMaxSpanSeconds", span)?, seconds("bucketRoundingSeconds", rounding)?)?;
        }
        (Some(_), Some(_)) => {
            return Err(Error::InvalidType("timeSeries options give granularity or bucketMaxSpanSeconds with bucketRoundingSeconds, not both".into()))
        }
        _ => {
            return Err(Error::InvalidType(
                "bucketMaxSpanSeconds and bucketRoundingSeconds go together, and equal (MongoDB's custom bucketing); give both or neither".into(),
            ))
        }
    }
    if let Some(b) = max_bytes {
        options.max_bucket_bytes = match b {
            Value::Number(n) if n.fract() == 0.0 && (1024.0..=16_777_216.0).contains(n) => *n as u32,
            Value::Number(n) => {
                return Err(Error::OutOfRange(format!("maxBucketBytes {} is not accepted; expected a whole number of bytes from 1024 to 16777216", js_number(*n))))
            }
            other => return Err(wrong("maxBucketBytes", other, "a whole number of bytes from 1024 to 16777216")),
        };
    }
    Ok(Some(options))
}

/// A time-series query: the meta value's key, and inclusive bounds in Unix ms (open when absent).
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// The meta value's key (the edge replaces `meta` by its key before the core sees it).
    pub meta_key: Option<String>,
    /// Lower bound, inclusive.
    pub from_ms: f64,
    /// Upper bound, inclusive.
    pub to_ms: f64,
}

/// `{ meta, from, to }` of `query`.
pub fn query_options(v: &Value) -> Result<Query> {
    let [meta, from, to] = options("query options", v, ["meta", "from", "to"])?;
    let bound = |name: &str, b: Option<&Value>, open: f64| -> Result<f64> {
        b.map_or(Ok(open), |b| instant_ms(&format!("query {name}"), b))
    };
    Ok(Query {
        meta_key: match meta {
            None => None,
            Some(Value::Text(k)) => Some(k.clone()),
            Some(other) => Some(other.describe()),
        },
        from_ms: bound("from", from, f64::NEG_INFINITY)?,
        to_ms: bound("to", to, f64::INFINITY)?,
    })
}

/// What `store.observe(query, listener)` watches: string keys starting with a prefix, a list of
/// keys, or a key range (both ends included; an absent end is open).
#[derive(Debug, Clone, PartialEq)]
pub enum ViewQuery {
    /// `{ prefix }`.
    Prefix(String),
    /// `{ keys }`.
    Keys(Vec<Value>),
    /// `{ from, to }`.
    Range(Option<Value>, Option<Value>),
}

const VIEW_QUERIES: &str = "{ prefix: \"user:\" }, { keys: [\"a\", \"b\"] } or { from: \"a\", to: \"m\" }";

/// A key of a view query: a string or a number other than NaN.
fn view_key(what: &str, v: &Value) -> Result<Value> {
    match v {
        Value::Number(n) if n.is_nan() => Err(Error::OutOfRange(format!("{what} NaN is not accepted; expected a string or a number other than NaN"))),
        Value::Number(_) | Value::Text(_) => Ok(v.clone()),
        other => Err(wrong(what, other, "a string or a number")),
    }
}

/// The query of `store.observe(query, listener)`.
pub fn view_query(v: &Value) -> Result<ViewQuery> {
    if !matches!(v, Value::Record(_)) {
        return Err(wrong("observe query", v, VIEW_QUERIES));
    }
    let [prefix, keys, from, to] = options("observe query", v, ["prefix", "keys", "from", "to"])?;
    let ranged = from.is_some() || to.is_some();
    match (prefix, keys, ranged) {
        (Some(p), None, false) => Ok(ViewQuery::Prefix(text_option("prefix", Some(p), "a string, e.g. \"user:\"")?.unwrap_or_default().to_owned())),
        (None, Some(Value::List(ks)), false) => {
            let mut keys = Vec::with_capacity(ks.len());
            for (i, k) in ks.iter().enumerate() {
                keys.push(view_key(&format!("observe keys[{i}]"), k)?);
            }
            Ok(ViewQuery::Keys(keys))
        }
        (None, Some(other), false) => Err(wrong("observe keys", other, "an array of keys")),
        (None, None, true) => Ok(ViewQuery::Range(
            from.map(|f| view_key("observe from", f)).transpose()?,
            to.map(|t| view_key("observe to", t)).transpose()?,
        )),
        (None, None, false) => Err(Error::InvalidType(format!("observe query needs one of {VIEW_QUERIES}"))),
        _ => Err(Error::InvalidType(format!("observe query names more than one kind of view; give one of {VIEW_QUERIES}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::value::Value::*;

    fn rec(fields: &[(&str, Value)]) -> Value {
        Record(fields.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
    }

    fn type_error(r: Result<impl std::fmt::Debug>) -> String {
        match r {
            Err(Error::InvalidType(m)) => m,
            other => panic!("expected a TypeError, got {other:?}"),
        }
    }

    fn range_error(r: Result<impl std::fmt::Debug>) -> String {
        match r {
            Err(Error::OutOfRange(m)) => m,
            other => panic!("expected a RangeError, got {other:?}"),
        }
    }

    #[test]
    fn destroy_options_bound_the_wait() {
        assert_eq!(destroy_timeout(&Undefined).unwrap(), DEFAULT_TIMEOUT_MS);
        assert_eq!(destroy_timeout(&rec(&[])).unwrap(), DEFAULT_TIMEOUT_MS);
        assert_eq!(destroy_timeout(&rec(&[("timeoutMs", Number(250.0))])).unwrap(), 250);
        assert!(range_error(destroy_timeout(&rec(&[("timeoutMs", Number(-1.0))]))).contains("timeoutMs"));
        assert!(range_error(destroy_timeout(&rec(&[("timeoutMs", Number(3e9))]))).contains("timeoutMs"));
        let m = type_error(destroy_timeout(&rec(&[("timeout", Number(300.0))])));
        assert!(m.contains("TtlStore.destroy options") && m.contains("timeout"), "{m}");
        assert!(type_error(destroy_timeout(&Number(300.0))).contains("TtlStore.destroy options"));
    }

    #[test]
    fn store_options_and_their_defaults() {
        let c = store_config(&Undefined).unwrap();
        assert_eq!(c, StoreConfig::default());
        let c = store_config(&rec(&[
            ("reapIntervalMs", Number(3e9)),
            ("maxRemovesPerRun", Number(100_000.0)),
            ("autoReap", Bool(false)),
            ("timeoutMs", Number(500.0)),
            ("defaultTtl", Text("1 day".into())),
        ]))
        .unwrap();
        assert_eq!(c.reap_interval_ms, 3e9, "past setTimeout's 24.8-day limit");
        assert_eq!(c.limits.max_removes_per_run, 100_000);
        assert_eq!(c.limits.max_removes_per_collection, 100_000, "an unset per-collection cap follows the per-run cap");
        assert!(!c.auto_reap);
        assert_eq!(c.timeout_ms, 500);
        assert!(c.default_ttl.is_some());
        let c = store_config(&rec(&[("maxRemovesPerRun", Number(50.0)), ("maxRemovesPerCollection", Number(20.0))])).unwrap();
        assert_eq!((c.limits.max_removes_per_run, c.limits.max_removes_per_collection), (50, 20));
        assert_eq!(c.limits.max_removes_per_second, 0, "no rate limit by default");
        let c = store_config(&rec(&[("maxRemovesPerSecond", Number(500.0))])).unwrap();
        assert_eq!(c.limits.max_removes_per_second, 500);
        assert_eq!(store_config(&rec(&[("maxRemovesPerSecond", Number(0.0))])).unwrap().limits.max_removes_per_second, 0);
        let m = range_error(store_config(&rec(&[("maxRemovesPerSecond", Number(-1.0))])));
        assert!(m.contains("maxRemovesPerSecond -1") && m.contains("0 (no limit)"), "{m}");
    }

    #[test]
    fn bad_store_options_name_the_option_and_the_value() {
        let cases: Vec<(Value, &str)> = vec![
            (rec(&[("expire", Number(60.0))]), "TtlStore.open options has an unknown option \"expire\"; accepted: defaultTtl, reapIntervalMs"),
            (Date(0.0), "TtlStore.open options Date(0) is not accepted; expected an object with defaultTtl"),
            (rec(&[("autoReap", Text("no".into()))]), "autoReap \"no\" is not accepted; expected true or false"),
            (rec(&[("batchSize", Other("5n".into()))]), "batchSize 5n is not accepted; expected a whole number >= 1"),
            (rec(&[("defaultTtl", Null)]), "defaultTtl null is not accepted"),
        ];
        for (v, want) in cases {
            let m = type_error(store_config(&v));
            assert!(m.starts_with(want), "{m}");
        }
        let m = range_error(store_config(&rec(&[("reapIntervalMs", Number(1e16))])));
        assert_eq!(m, "reapIntervalMs 10000000000000000 is not accepted; expected a whole number from 1 to 9007199254740991");
        let m = range_error(store_config(&rec(&[("timeoutMs", Number(2_147_483_648.0))])));
        assert!(m.starts_with("timeoutMs 2147483648 is not accepted; expected a whole number from 1 to 2147483647"), "{m}");
    }

    #[test]
    fn set_options_never_turn_a_mistake_into_no_expiry() {
        // A Date, a boxed number, a DOM node or an ArrayBuffer as the options object must not read
        // as "no options": the entry would never expire.
        for (v, shown) in [
            (Date(1.8e12), "Date(1800000000000)"),
            (Other("a Number object (5)".into()), "a Number object (5)"),
            (Other("an HTMLDivElement".into()), "an HTMLDivElement"),
            (Other("an ArrayBuffer (8 bytes)".into()), "an ArrayBuffer (8 bytes)"),
            (Number(60.0), "60"),
            (Text("1 day".into()), "\"1 day\""),
            (List(vec![]), "[]"),
        ] {
            let m = type_error(set_options("set options", &v));
            assert!(m.starts_with(&format!("set options {shown} is not accepted; expected an object with ttl, expiresAt, keepTtl, idle")), "{m}");
        }
        assert_eq!(set_options("set options", &Null).unwrap(), ExpirySpec::Default);
        assert_eq!(set_options("set options", &rec(&[])).unwrap(), ExpirySpec::Default);
        let m = type_error(set_options("set options", &rec(&[("ttl", Bool(true))])));
        assert!(m.starts_with("ttl true is not accepted"), "{m}");
        let m = type_error(set_options("setMany entry 2 options", &rec(&[("keepTTL", Bool(true))])));
        assert_eq!(m, "setMany entry 2 options has an unknown option \"keepTTL\"; accepted: ttl, expiresAt, keepTtl, idle");
    }

    #[test]
    fn long_options_are_a_signal_and_on_progress() {
        assert_eq!(long_options("setMany options", &Undefined).unwrap(), [false, false]);
        let both = rec(&[("signal", Other("an AbortSignal".into())), ("onProgress", Other("a function".into()))]);
        assert_eq!(long_options("setMany options", &both).unwrap(), [true, true]);
        let m = type_error(long_options("setMany options", &rec(&[("anything", Number(1.0))])));
        assert_eq!(m, "setMany options has an unknown option \"anything\"; accepted: signal, onProgress");
        let m = type_error(long_options("reap options", &Number(5.0)));
        assert!(m.starts_with("reap options 5 is not accepted; expected an object with signal, onProgress"), "{m}");
    }

    #[test]
    fn async_storage_options_are_a_prefix_and_a_ttl() {
        let (prefix, ttl, idle) = async_storage_options(&Undefined).unwrap();
        assert_eq!((prefix.as_str(), ttl, idle), ("", None, None));
        let (prefix, ttl, idle) = async_storage_options(&rec(&[("prefix", Text("q:".into())), ("ttl", Text("1 day".into()))])).unwrap();
        assert_eq!((prefix.as_str(), ttl, idle), ("q:", Some(Text("1 day".into())), None));
        let (_, _, idle) = async_storage_options(&rec(&[("idle", Text("30 min".into()))])).unwrap();
        assert_eq!(idle, Some(Text("30 min".into())));
        let m = range_error(async_storage_options(&rec(&[("idle", Number(-1.0))])));
        assert!(m.starts_with("idle -1"), "{m}");
        let m = type_error(async_storage_options(&rec(&[("maxAge", Number(1.0))])));
        assert_eq!(m, "asyncStorage options has an unknown option \"maxAge\"; accepted: prefix, ttl, idle");
        let m = type_error(async_storage_options(&rec(&[("prefix", Number(1.0))])));
        assert!(m.starts_with("prefix 1 is not accepted; expected a string"), "{m}");
        let m = range_error(async_storage_options(&rec(&[("ttl", Number(-1.0))])));
        assert!(m.starts_with("ttl -1"), "{m}");
        let m = type_error(async_storage_options(&Date(0.0)));
        assert!(m.starts_with("asyncStorage options Date(0) is not accepted; expected an object with prefix, ttl"), "{m}");
    }

    #[test]
    fn collection_series_and_query_options() {
        let (kp, ttl) = collection_options(&rec(&[
            ("keyPath", Text("sid".into())),
            ("ttlIndex", rec(&[("field", Text("at".into())), ("expireAfter", Text("1h".into())), ("unit", Text("ms".into()))])),
        ]))
        .unwrap();
        assert_eq!(kp.as_deref(), Some("sid"));
        assert_eq!(ttl.unwrap().expire_after, Window::secs(3600.0));
        let m = type_error(collection_options(&rec(&[("ttlIndex", rec(&[("field", Text("at".into())), ("after", Number(1.0))]))])));
        assert_eq!(m, "ttlIndex has an unknown option \"after\"; accepted: field, expireAfter, unit, tiers, automatic, schedule");
        let m = type_error(collection_options(&rec(&[("ttlIndex", Null)])));
        assert!(m.starts_with("ttlIndex null is not accepted"), "{m}");
        let tiers = |t: Value| collection_options(&rec(&[("ttlIndex", rec(&[("field", Text("at".into())), ("tiers", t)]))])).map(|(_, t)| t.unwrap());
        let t = tiers(List(vec![
            rec(&[("after", Text("7 days".into())), ("action", Text("archive".into()))]),
            rec(&[("after", Number(90.0 * 86_400.0)), ("action", Text("delete".into()))]),
        ]))
        .unwrap();
        assert_eq!((t.expire_after, t.archive_until), (Window::secs(7.0 * 86_400.0), Some(Window::secs(90.0 * 86_400.0))));
        let m = type_error(tiers(List(vec![rec(&[("after", Number(1.0)), ("action", Text("move".into()))])])));
        assert_eq!(m, "ttlIndex.tiers[0]: tier action \"move\" is not accepted; expected \"archive\" or \"delete\"");
        let m = type_error(tiers(List(vec![rec(&[("after", Number(1.0)), ("when", Number(2.0))])])));
        assert!(m.starts_with("ttlIndex.tiers[0] has an unknown option \"when\"; accepted: after, action"), "{m}");
        let m = range_error(tiers(List(vec![rec(&[("after", Number(-1.0)), ("action", Text("delete".into()))])])));
        assert!(m.starts_with("ttlIndex.tiers[0].after -1 is negative"), "{m}");
        let m = type_error(tiers(Text("7 days".into())));
        assert!(m.starts_with("ttlIndex.tiers \"7 days\" is not accepted; expected an array"), "{m}");
        let m = type_error(collection_options(&rec(&[("ttlIndex", rec(&[("field", Text("at".into())), ("expireAfter", Number(1.0)), ("tiers", List(vec![]))]))])));
        assert!(m.starts_with("ttlIndex has both expireAfter and tiers"), "{m}");
        assert!(series_options(&Undefined).unwrap().is_none());
        let m = type_error(series_options(&rec(&[("metaField", Text("s".into()))])));
        assert!(m.starts_with("timeSeries options need timeField"), "{m}");
        let q = query_options(&rec(&[("meta", Text("\"a\"".into())), ("from", Number(1e9))])).unwrap();
        assert_eq!(q, Query { meta_key: Some("\"a\"".into()), from_ms: 1e12, to_ms: f64::INFINITY });
        let m = range_error(query_options(&rec(&[("to", Number(f64::NAN))])));
        assert!(m.starts_with("query to NaN is not a number of seconds"), "{m}");
    }

    #[test]
    fn view_queries_are_one_kind_of_view() {
        assert_eq!(view_query(&rec(&[("prefix", Text("user:".into()))])).unwrap(), ViewQuery::Prefix("user:".into()));
        assert_eq!(
            view_query(&rec(&[("keys", List(vec![Text("a".into()), Number(2.0)]))])).unwrap(),
            ViewQuery::Keys(vec![Text("a".into()), Number(2.0)])
        );
        assert_eq!(view_query(&rec(&[("from", Text("a".into()))])).unwrap(), ViewQuery::Range(Some(Text("a".into())), None));
        let m = type_error(view_query(&rec(&[])));
        assert!(m.starts_with("observe query needs one of { prefix"), "{m}");
        let m = type_error(view_query(&rec(&[("prefix", Text("a".into())), ("to", Text("b".into()))])));
        assert!(m.contains("more than one kind of view"), "{m}");
        let m = type_error(view_query(&rec(&[("keys", Text("a".into()))])));
        assert!(m.starts_with("observe keys \"a\" is not accepted; expected an array of keys"), "{m}");
        let m = range_error(view_query(&rec(&[("keys", List(vec![Text("a".into()), Number(f64::NAN)]))])));
        assert!(m.starts_with("observe keys[1] NaN"), "{m}");
        let m = type_error(view_query(&rec(&[("from", Bool(true))])));
        assert!(m.starts_with("observe from true is not accepted"), "{m}");
        let m = type_error(view_query(&Null));
        assert!(m.starts_with("observe query null is not accepted"), "{m}");
        let m = type_error(view_query(&rec(&[("prefix", Number(1.0))])));
        assert!(m.starts_with("prefix 1 is not accepted"), "{m}");
    }
}
