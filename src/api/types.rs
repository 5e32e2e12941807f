//! The Rust API's values: [`Key`], [`Expiry`] and [`Options`], each checked by the pure core
//! (`core::expiry`, `core::options`) exactly as the JavaScript API's arguments are.

use std::fmt;
use std::time::Duration;

use wasm_bindgen::JsValue;

use crate::core::entry::{ExpirySpec, NEVER_MS};
use crate::core::error::{Error, Result};
use crate::core::expiry::{parse_expires_at, ExpiresAtInput, Ttl, TtlInput};
use crate::core::text::{js_number, quote};
use crate::core::value::Value;

/// A key: a string or a number, as IndexedDB orders them (numbers first, then strings).
///
/// Every verb takes `impl Into<Key>`: `&str`, `String` and the number types convert. Integers
/// beyond 2^53 lose precision, as they would in JavaScript; `NaN` is refused by the verb.
///
/// ```
/// use idb_ttl::Key;
/// assert_eq!(Key::from("session"), Key::Text("session".into()));
/// assert_eq!(Key::from(7u32), Key::Number(7.0));
/// assert_eq!(Key::from("a b").to_string(), "\"a b\"");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    /// A string key.
    Text(String),
    /// A number key (any number but `NaN`).
    Number(f64),
}

impl Key {
    /// The key as IndexedDB takes it, or the error naming a `NaN` key.
    pub(crate) fn to_js(&self) -> Result<JsValue> {
        match self {
            Key::Number(n) if n.is_nan() => Err(Error::OutOfRange("key NaN is not accepted; expected a string or a number other than NaN".into())),
            Key::Number(n) => Ok(JsValue::from_f64(*n)),
            Key::Text(s) => Ok(JsValue::from_str(s)),
        }
    }

    /// A key as IndexedDB gave it back (a string or a number).
    pub(crate) fn from_js(v: &JsValue) -> Option<Key> {
        v.as_f64().map(Key::Number).or_else(|| v.as_string().map(Key::Text))
    }
}

/// As messages show it: a string quoted, a number as JavaScript prints it.
impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Text(s) => f.write_str(&quote(s)),
            Key::Number(n) => f.write_str(&js_number(*n)),
        }
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Key {
        Key::Text(s.to_owned())
    }
}

impl From<String> for Key {
    fn from(s: String) -> Key {
        Key::Text(s)
    }
}

impl From<&String> for Key {
    fn from(s: &String) -> Key {
        Key::Text(s.clone())
    }
}

impl From<&Key> for Key {
    fn from(k: &Key) -> Key {
        k.clone()
    }
}

macro_rules! number_keys {
    ($($t:ty),*) => {$(
        impl From<$t> for Key {
            fn from(n: $t) -> Key {
                Key::Number(n as f64)
            }
        }
    )*};
}
number_keys!(f64, f32, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// When an entry expires: after a [`Duration`] ([`Expiry::ttl`]), at a Unix time
/// ([`Expiry::at_unix`]), never ([`Expiry::never`]), or as a string says ([`Expiry::parse`]).
/// `Expiry::default()` is the store's `default_ttl` ([`Options::default_ttl`]), or no expiry.
/// A `Duration` converts into an `Expiry` (a ttl).
///
/// An expiry that is out of range (a Unix time past 9999, one that looks like milliseconds)
/// is refused by the write that gets it, with the same message as the JavaScript API's, and
/// nothing is written.
///
/// ```
/// use std::time::Duration;
/// use idb_ttl::Expiry;
/// let hour = Expiry::ttl(Duration::from_secs(3600));
/// assert_eq!(hour, Expiry::parse("PT1H").unwrap());
/// assert_eq!(hour, Duration::from_secs(3600).into());
/// assert_eq!(Expiry::at_unix(2_114_380_800.0), Expiry::parse("2037-01-01T00:00:00Z").unwrap());
/// assert!(Expiry::parse("3600").is_err()); // no unit: seconds? milliseconds? say which
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Expiry(std::result::Result<ExpirySpec, Error>);

impl Default for Expiry {
    fn default() -> Expiry {
        Expiry(Ok(ExpirySpec::Default))
    }
}

impl From<Duration> for Expiry {
    fn from(d: Duration) -> Expiry {
        Expiry::ttl(d)
    }
}

impl Expiry {
    /// Expires `ttl` after the write (Redis `EX`).
    ///
    /// ```
    /// # use std::time::Duration;
    /// let in_ten_minutes = idb_ttl::Expiry::ttl(Duration::from_secs(600));
    /// ```
    pub fn ttl(ttl: Duration) -> Expiry {
        Expiry(Ttl::parse(TtlInput::Seconds(ttl.as_secs_f64())).map(ExpirySpec::After))
    }

    /// Expires at `secs`, Unix seconds (fractions allowed; Redis `EXAT`). A number that looks like
    /// milliseconds (past 9999 as seconds, before it as milliseconds) is refused by the write.
    ///
    /// ```
    /// let new_year_2037 = idb_ttl::Expiry::at_unix(2_114_380_800.0);
    /// ```
    pub fn at_unix(secs: f64) -> Expiry {
        Expiry(parse_expires_at(ExpiresAtInput::Seconds(secs)).map(ExpirySpec::At))
    }

    /// Never expires, whatever the store's `default_ttl`.
    ///
    /// ```
    /// let forever = idb_ttl::Expiry::never();
    /// ```
    pub fn never() -> Expiry {
        Expiry(Ok(ExpirySpec::At(NEVER_MS)))
    }

    /// Keeps the entry's current expiry (Redis `KEEPTTL`); for a missing key, what
    /// `Expiry::default()` gives.
    ///
    /// ```
    /// let as_it_was = idb_ttl::Expiry::keep();
    /// ```
    pub fn keep() -> Expiry {
        Expiry(Ok(ExpirySpec::Keep))
    }

    /// Expires `window` after the entry's last read (`get`), a sliding expiry.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let half_an_hour_idle = idb_ttl::Expiry::idle(Duration::from_secs(1800));
    /// ```
    pub fn idle(window: Duration) -> Expiry {
        Expiry(Ttl::parse_as("idle", TtlInput::Seconds(window.as_secs_f64())).map(|window| ExpirySpec::Idle { window, cap: Box::new(ExpirySpec::Default) }))
    }

    /// Reads what the JavaScript API's `ttl` and `expiresAt` strings take: an ISO-8601 date
    /// (`"2036-12-24"`, midnight UTC) or date-time with an offset (`"2036-12-24T18:00:00+01:00"`),
    /// an ISO-8601 duration (`"PT10M"`) or a plain one (`"90 days"`, `"1h 30m"`). A number without
    /// a unit (`"3600"`, `"1700000000000"`) is refused: seconds or milliseconds, from now or since
    /// 1970, it does not say.
    ///
    /// ```
    /// use idb_ttl::Expiry;
    /// assert!(Expiry::parse("2036-12-24T18:00:00+01:00").is_ok());
    /// assert!(Expiry::parse("90 days").is_ok());
    /// let refused = Expiry::parse("3600").unwrap_err();
    /// assert!(refused.to_string().contains("\"3600\""));
    /// ```
    pub fn parse(text: &str) -> Result<Expiry> {
        let s = text.trim();
        if s.contains(|c: char| c.is_ascii_digit()) && s.parse::<f64>().is_ok() {
            return Err(Error::InvalidType(format!(
                "expiry {} is a number without a unit, which leaves it ambiguous (seconds or milliseconds, from now or since 1970); \
                 give a unit (\"{s} seconds\", \"PT1H\"), an ISO-8601 date-time (\"2036-12-24T18:00:00+01:00\"), \
                 or use Expiry::ttl(Duration) or Expiry::at_unix(seconds)",
                quote(text)
            )));
        }
        let at = match parse_expires_at(ExpiresAtInput::Text(text)) {
            Ok(ms) => return Ok(Expiry(Ok(ExpirySpec::At(ms)))),
            Err(e) => e,
        };
        let ttl = match Ttl::parse(TtlInput::Text(text)) {
            Ok(ttl) => return Ok(Expiry(Ok(ExpirySpec::After(ttl)))),
            Err(e) => e,
        };
        // Neither: the error of what it looks like (a date starts with its 4-digit year).
        let dated = s.trim_start_matches(['+', '-']).chars().take_while(char::is_ascii_digit).count() >= 4;
        Err(if dated { at } else { ttl })
    }

    /// The checked spec, or the error the write refuses with.
    pub(crate) fn spec(&self) -> Result<ExpirySpec> {
        self.0.clone()
    }
}

/// The options of [`TtlStore::open`](crate::TtlStore::open), by value:
/// `Options::default().auto_reap(false).default_ttl(Duration::from_secs(3600))`. Each is the
/// JavaScript API's open option of the same name (`autoReap`, `defaultTtl`...), with the same
/// defaults and checks; a value out of range is refused by `open`, naming it.
/// `onExpire` takes a JavaScript function and has no Rust counterpart here.
///
/// ```
/// use std::time::Duration;
/// use idb_ttl::Options;
/// let options = Options::default()
///     .auto_reap(true)
///     .reap_interval(Duration::from_secs(60))
///     .timeout(Duration::from_secs(10))
///     .max_entries(10_000);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    fields: Vec<(String, Value)>,
}

impl Options {
    fn with(mut self, name: &str, value: Value) -> Options {
        self.fields.retain(|(k, _)| k != name);
        self.fields.push((name.to_owned(), value));
        self
    }

    fn ms(d: Duration) -> Value {
        Value::Number(d.as_millis() as f64)
    }

    fn secs(d: Duration) -> Value {
        Value::Number(d.as_secs_f64())
    }

    /// The options as the core's checks read them (`TtlStore.open options`).
    pub(crate) fn value(&self) -> Value {
        Value::Record(self.fields.clone())
    }

    /// Runs the background reaper (default `true`); `false`: only [`reap`](crate::TtlStore::reap)
    /// removes expired entries (reads never return them either way).
    ///
    /// ```
    /// let manual = idb_ttl::Options::default().auto_reap(false);
    /// ```
    pub fn auto_reap(self, on: bool) -> Options {
        self.with("autoReap", Value::Bool(on))
    }

    /// How often the background reaper runs (default 5 minutes), whole milliseconds.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let every_minute = idb_ttl::Options::default().reap_interval(Duration::from_secs(60));
    /// ```
    pub fn reap_interval(self, every: Duration) -> Options {
        self.with("reapIntervalMs", Options::ms(every))
    }

    /// How long an IndexedDB request may go unanswered before the call fails with
    /// [`Error::Timeout`] (default 30 s).
    ///
    /// ```
    /// # use std::time::Duration;
    /// let patient = idb_ttl::Options::default().timeout(Duration::from_secs(60));
    /// ```
    pub fn timeout(self, after: Duration) -> Options {
        self.with("timeoutMs", Options::ms(after))
    }

    /// The expiry of writes given `Expiry::default()` (default: none).
    ///
    /// ```
    /// # use std::time::Duration;
    /// let a_day = idb_ttl::Options::default().default_ttl(Duration::from_secs(86_400));
    /// ```
    pub fn default_ttl(self, ttl: Duration) -> Options {
        self.with("defaultTtl", Options::secs(ttl))
    }

    /// Entries removed by a reaper transaction (fixed when given; by default it grows with a
    /// backlog).
    ///
    /// ```
    /// let small_batches = idb_ttl::Options::default().batch_size(50);
    /// ```
    pub fn batch_size(self, n: u32) -> Options {
        self.with("batchSize", Value::Number(n.into()))
    }

    /// Records looked up per step of a reaper batch.
    ///
    /// ```
    /// let options = idb_ttl::Options::default().select_batch_size(100);
    /// ```
    pub fn select_batch_size(self, n: u32) -> Options {
        self.with("selectBatchSize", Value::Number(n.into()))
    }

    /// Records removed per reaper pass at most.
    ///
    /// ```
    /// let options = idb_ttl::Options::default().max_removes_per_run(1_000);
    /// ```
    pub fn max_removes_per_run(self, n: u32) -> Options {
        self.with("maxRemovesPerRun", Value::Number(n.into()))
    }

    /// Records removed per pass from any one collection at most.
    ///
    /// ```
    /// let options = idb_ttl::Options::default().max_removes_per_collection(500);
    /// ```
    pub fn max_removes_per_collection(self, n: u32) -> Options {
        self.with("maxRemovesPerCollection", Value::Number(n.into()))
    }

    /// Records removed per second at most (0, the default: no limit).
    ///
    /// ```
    /// let gentle = idb_ttl::Options::default().max_removes_per_second(200);
    /// ```
    pub fn max_removes_per_second(self, n: u32) -> Options {
        self.with("maxRemovesPerSecond", Value::Number(n.into()))
    }

    /// The most live entries kept: a write beyond it evicts the entries soonest to expire
    /// (Redis `volatile-ttl`), or fails with [`Error::CapReached`].
    ///
    /// ```
    /// let capped = idb_ttl::Options::default().max_entries(10_000);
    /// ```
    pub fn max_entries(self, n: u32) -> Options {
        self.with("maxEntries", Value::Number(n.into()))
    }

    /// On a write the browser refuses for space, evict expired entries, then those soonest to
    /// expire, and retry (default `false`).
    ///
    /// ```
    /// let options = idb_ttl::Options::default().evict_on_quota(true);
    /// ```
    pub fn evict_on_quota(self, on: bool) -> Options {
        self.with("evictOnQuota", Value::Bool(on))
    }

    /// Expired entries move to the archive and are deleted this long after their expiry.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let options = idb_ttl::Options::default().archive_for(Duration::from_secs(7 * 86_400));
    /// ```
    #[cfg(feature = "full")]
    pub fn archive_for(self, keep: Duration) -> Options {
        self.with("archiveFor", Options::secs(keep))
    }

    /// Encrypts values at rest with one non-extractable key (default `false`).
    ///
    /// ```
    /// let sealed = idb_ttl::Options::default().encryption(true);
    /// ```
    #[cfg(feature = "full")]
    pub fn encryption(self, on: bool) -> Options {
        self.with("encryption", Value::Bool(on))
    }

    /// Encrypts values at rest, writes using a new key every `key_ttl`: what an expired key
    /// encrypted is unreadable.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let rotating = idb_ttl::Options::default().encryption_key_ttl(Duration::from_secs(86_400));
    /// ```
    #[cfg(feature = "full")]
    pub fn encryption_key_ttl(self, key_ttl: Duration) -> Options {
        self.with("encryption", Value::Record(vec![("keyTtl".into(), Options::secs(key_ttl))]))
    }
}
