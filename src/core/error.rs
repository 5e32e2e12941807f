//! The one error type of idb-ttl, grouped by cause rather than by operation.
//!
//! The pure core builds these; the JS edge turns [`Error::InvalidType`] into a `TypeError`,
//! [`Error::OutOfRange`] into a `RangeError` and the storage variants into an `Error` whose
//! `name` says which: `Error::into_js`, below, which builds both the rejections of `src/js/` and
//! the store's `error` events.

/// Everything that can go wrong in idb-ttl. Each message names the value or the cause and,
/// where the caller can act, how to fix it. [`Error::js_name`] is the JavaScript API's name of
/// each (`TypeError`, `QuotaExceededError`, `StoreClosedError`...).
///
/// ```
/// let e = idb_ttl::Error::Closed { db: "app-cache".into(), why: "close() was called".into() };
/// assert_eq!(e.js_name(), "StoreClosedError");
/// assert!(e.to_string().contains("app-cache"));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A value of the wrong type or an unparsable string (a JS `TypeError`).
    #[error("{0}")]
    InvalidType(String),
    /// A value of the right type but outside what is accepted (a JS `RangeError`).
    #[error("{0}")]
    OutOfRange(String),
    /// The browser refused a write for lack of space.
    #[error("IndexedDB quota exceeded while {op}{}. Free space (delete entries, shorten ttls) or ask for persistent storage with navigator.storage.persist()", cause(message))]
    QuotaExceeded {
        /// What idb-ttl was doing.
        op: String,
        /// The browser's own message.
        message: String,
    },
    /// The connection is closed: by `close()`, by another tab deleting or upgrading the database,
    /// or by the browser.
    #[error("the database \"{db}\" is closed ({why}); open it again with TtlStore.open(\"{db}\")")]
    Closed {
        /// Database name.
        db: String,
        /// Who closed it.
        why: String,
    },
    /// IndexedDB gave no answer in time (`timeoutMs`): another context holds a long transaction
    /// on the database, or the browser's storage is stuck.
    #[error("IndexedDB did not answer while {op}: {message}. Another tab or worker may be holding a long transaction on this database, or the browser's storage is stuck: retry later, or reload the page")]
    Timeout {
        /// What idb-ttl was doing.
        op: String,
        /// How long it waited, and what became of the transaction.
        message: String,
    },
    /// There is no IndexedDB here: server-side rendering in Node, or a browser with storage off.
    #[error("IndexedDB is not available here (server-side rendering in Node, or a browser with storage disabled); open the store in a browser page or worker, e.g. only when typeof indexedDB !== \"undefined\"")]
    Unavailable,
    /// A write would leave more live entries than `maxEntries`, and only entries that are never
    /// evicted (no expiry, or written by the call itself) could make room. Nothing was written.
    #[error("maxEntries {cap} reached: {message}; nothing was written. Give entries an expiry (only entries with one are evicted for the cap), delete some, or raise maxEntries")]
    CapReached {
        /// The cap.
        cap: u32,
        /// What was in the way.
        message: String,
    },
    /// `onExpire` threw, rejected or gave no answer in time: the records it was offered stay in
    /// the store and are offered again on a later pass.
    #[error("onExpire {message}; the {records} record(s) it was offered stay in the store (hidden from reads) and are offered again on a later pass")]
    HandOff {
        /// How many records were offered.
        records: u32,
        /// What went wrong: `rejected: <the error>`, `did not answer within N ms`.
        message: String,
    },
    /// The call's `signal` was aborted, or user code it ran threw (`onProgress`, an `update`
    /// updater): the JS edge rejects with the signal's reason (or what was thrown) instead of
    /// this.
    #[error("the call was aborted")]
    Aborted,
    /// The lite entry (`idb-ttl/lite`, the key-value store alone) met a database holding what
    /// only the default entry reads and reaps.
    #[cfg(not(feature = "full"))]
    #[error("the database \"{db}\" holds {has}, which idb-ttl/lite neither reads nor reaps; open it with the default entry: import {{ TtlStore }} from \"idb-ttl\"")]
    Unsupported {
        /// Database name.
        db: String,
        /// What it holds: "collections and encryption keys".
        has: String,
    },
    /// Any other IndexedDB failure, with the DOMException's name and message.
    #[error("IndexedDB {name} while {op}{}", cause(message))]
    Storage {
        /// What idb-ttl was doing.
        op: String,
        /// The DOMException name (`AbortError`, `DataCloneError`, ...).
        name: String,
        /// The browser's own message.
        message: String,
    },
}

/// `": <the browser's message>"`, or nothing when the browser gave none (Chromium's quota
/// aborts carry an empty message).
fn cause(message: &str) -> String {
    if message.trim().is_empty() {
        String::new()
    } else {
        format!(": {message}")
    }
}

impl Error {
    /// `what` was given a value of the wrong type: `got` describes it, `accepted` lists what fits.
    pub fn wrong_type(what: &str, got: &str, accepted: &str) -> Self {
        Error::InvalidType(format!("{what} {got} is not accepted; expected {accepted}"))
    }

    /// The JS error class this error maps to: `"TypeError"`, `"RangeError"` or the storage names
    /// `"QuotaExceededError"`, `"StoreClosedError"`, `"TimeoutError"`, `"StoreUnavailableError"`,
    /// `"HandOffError"`, `"StorageError"`; in the lite build `"StoreUnsupportedError"`.
    pub fn js_name(&self) -> &'static str {
        match self {
            Error::InvalidType(_) => "TypeError",
            Error::OutOfRange(_) => "RangeError",
            Error::QuotaExceeded { .. } | Error::CapReached { .. } => "QuotaExceededError",
            Error::HandOff { .. } => "HandOffError",
            Error::Closed { .. } => "StoreClosedError",
            Error::Timeout { .. } => "TimeoutError",
            Error::Unavailable => "StoreUnavailableError",
            #[cfg(not(feature = "full"))]
            Error::Unsupported { .. } => "StoreUnsupportedError",
            Error::Storage { .. } => "StorageError",
            Error::Aborted => "AbortError",
        }
    }
}

#[cfg(target_arch = "wasm32")]
impl Error {
    /// The JS exception: `TypeError` and `RangeError` for bad input, an `Error` whose `name` says
    /// the cause (`QuotaExceededError`, `StoreClosedError`, `StorageError`...) otherwise. Here,
    /// beside [`Error::js_name`], so that the store's `error` events and the JS edge's rejections
    /// build it alike without the store depending on the edge.
    pub fn into_js(self) -> wasm_bindgen::JsValue {
        let message = self.to_string();
        match self {
            Error::InvalidType(_) => js_sys::TypeError::new(&message).into(),
            Error::OutOfRange(_) => js_sys::RangeError::new(&message).into(),
            _ => {
                let err = js_sys::Error::new(&message);
                err.set_name(self.js_name());
                err.into()
            }
        }
    }
}

/// Shorthand used across the crate.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_browser_message_leaves_no_gap() {
        let e = Error::QuotaExceeded { op: "writing".into(), message: String::new() };
        assert!(e.to_string().starts_with("IndexedDB quota exceeded while writing. Free space"), "{e}");
        let e = Error::QuotaExceeded { op: "writing".into(), message: "too big".into() };
        assert!(e.to_string().starts_with("IndexedDB quota exceeded while writing: too big. Free space"), "{e}");
        let e = Error::Storage { op: "reading".into(), name: "UnknownError".into(), message: " ".into() };
        assert_eq!(e.to_string(), "IndexedDB UnknownError while reading");
    }
}
