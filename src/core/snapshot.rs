//! Restoring a snapshot (`store.import`): every item's expiry is checked as `set()` checks an
//! `expiresAt` (NaN, a millisecond timestamp, a year past 9999 are refused, naming the item), and
//! what has expired since the export is left out. The values themselves are checked and decoded
//! by the JS edge (`js/snapshot.js`); the definitions go through `core::options`.

use crate::core::entry::is_live;
use crate::core::error::{Error, Result};
use crate::core::expiry::{parse_expires_at, ExpiresAtInput};
use crate::core::options::rename;
use crate::core::value::Value;

/// The expiry of a snapshot item, `what` naming it (`snapshot.entries[3].expiresAt`): Unix ms,
/// or `None` for no expiry (`null`).
pub fn item_expiry_ms(what: &str, v: &Value) -> Result<Option<f64>> {
    match v {
        Value::Undefined | Value::Null => Ok(None),
        Value::Number(n) => parse_expires_at(ExpiresAtInput::Seconds(*n)).map(Some).map_err(|e| rename(e, what)),
        other => Err(Error::wrong_type(what, &other.describe(), "Unix seconds or null")),
    }
}

/// Whether an item with this expiry has expired at `now_ms` (an import leaves it out).
pub fn expired(expiry_ms: Option<f64>, now_ms: f64) -> bool {
    expiry_ms.is_some_and(|e| !is_live(e, now_ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: f64 = 1_800_000_000_000.0;

    #[test]
    fn expiries_are_checked_like_set_and_expired_items_skipped() {
        let what = "import: snapshot.entries[0].expiresAt";
        assert_eq!(item_expiry_ms(what, &Value::Null).unwrap(), None);
        assert_eq!(item_expiry_ms(what, &Value::Number(1_900_000_000.5)).unwrap(), Some(1_900_000_000_500.0));
        for (bad, part) in [
            (f64::NAN, "NaN is not a number of seconds"),
            (1.8e12, "looks like milliseconds"),
            (1e21, "is beyond 9999-12-31"),
            (1e300, "is beyond 9999-12-31"),
            (f64::INFINITY, "is not finite"),
        ] {
            let e = item_expiry_ms(what, &Value::Number(bad)).unwrap_err();
            assert!(matches!(&e, Error::OutOfRange(m) if m.starts_with(what) && m.contains(part)), "{bad}: {e}");
        }
        let e = item_expiry_ms(what, &Value::Text("2027-01-01".into())).unwrap_err();
        assert!(matches!(&e, Error::InvalidType(m) if m.contains("\"2027-01-01\"")), "{e}");
        assert!(expired(Some(NOW), NOW));
        assert!(!expired(Some(NOW + 1.0), NOW));
        assert!(!expired(None, NOW));
    }
}
