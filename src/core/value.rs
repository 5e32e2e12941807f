//! A JS argument as plain data, and the reading of option objects out of it.
//!
//! The JS edge never hands user objects to the core: it copies an argument first (every property
//! read once, inside a try/catch, so a throwing getter or a revoked Proxy becomes an error, never
//! an exception in wasm), tags what is not plain data (a `Date`, a function, a `Map`, a DOM
//! node...), and `convert::read` brings the copy in as a [`Value`]. Option objects are then
//! read by [`options`], whose errors are worded like every other message here: the option's
//! name, the value as written in JS, and what is accepted. The host tests build `Value`s directly.

use crate::core::error::Error;
use crate::core::text::{js_number, quote};

/// The key marking a tagged value in the edge's copy: `{ "\u{1}": "date", "v": ms }`.
pub const TAG: &str = "\u{1}";

/// A JS value as plain data.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `undefined` (a property set to `undefined` is left out of its record, as if absent).
    Undefined,
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, any (NaN, infinities and -0 included).
    Number(f64),
    /// A well-formed string (one with lone surrogates arrives as [`Value::Other`]).
    Text(String),
    /// An array (holes read as `undefined`).
    List(Vec<Value>),
    /// A plain object's own enumerable string-keyed properties, in order.
    Record(Vec<(String, Value)>),
    /// A `Date`, as `getTime()` (NaN for an Invalid Date).
    Date(f64),
    /// A `BigInt`, as the nearest number and as its decimal digits (`"-12"` for `-12n`). Only
    /// a collection's TTL field reads one as a number; the lite entry, which has no collections,
    /// keeps a `BigInt` as [`Value::Other`] (`"-12n"`, the same in a message).
    #[cfg(feature = "full")]
    BigInt(f64, String),
    /// Anything else, as the edge describes it: `"a function"`, `"5n"`, `"a Map"`,
    /// `"an HTMLDivElement"`, `"\"\\uD800\" (a lone surrogate)"`...
    Other(String),
}

impl Value {
    /// The value as a developer would recognise it in a message, as the edge's `describe` shows
    /// raw values: `"abc"`, `12`, `NaN`, `{"ttl":5}` (plain data as JSON, cut after 60
    /// characters), `Date(1800000000000)`, `a function`.
    pub fn describe(&self) -> String {
        match self {
            Value::List(_) | Value::Record(_) => {
                let mut json = String::new();
                self.json_into(&mut json);
                if json.chars().count() > 60 {
                    format!("{}...", json.chars().take(57).collect::<String>())
                } else {
                    json
                }
            }
            Value::Undefined => "undefined".into(),
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => js_number(*n),
            Value::Text(s) => quote(s),
            Value::Date(ms) if ms.is_nan() => "an Invalid Date".into(),
            Value::Date(ms) => format!("Date({})", js_number(*ms)),
            #[cfg(feature = "full")]
            Value::BigInt(_, digits) => format!("{digits}n"),
            Value::Other(text) => text.clone(),
        }
    }

    /// JSON as `JSON.stringify` writes plain data (values JSON has no form for are described).
    fn json_into(&self, out: &mut String) {
        match self {
            Value::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.json_into(out);
                    if out.len() > 200 {
                        break;
                    }
                }
                out.push(']');
            }
            Value::Record(fields) => {
                out.push('{');
                for (i, (k, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&quote(k));
                    out.push(':');
                    v.json_into(out);
                    if out.len() > 200 {
                        break;
                    }
                }
                out.push('}');
            }
            Value::Number(n) if !n.is_finite() => out.push_str("null"),
            other => out.push_str(&other.describe()),
        }
    }

    /// Whether this is `undefined` (an absent option).
    pub fn is_undefined(&self) -> bool {
        matches!(self, Value::Undefined)
    }
}

impl Value {
    /// An object of the edge's copy: a record, or the value a tagged object stands for
    /// (`{ "\u1": kind, "v": payload }`: `null`, a `Date`, a `BigInt` (`"s"`: its digits),
    /// anything else described).
    pub fn record(fields: Vec<(String, Value)>) -> Value {
        if let [(tag, Value::Text(kind)), rest @ ..] = fields.as_slice() {
            if tag == TAG {
                let get = |name: &str| rest.iter().find(|(k, _)| k == name).map(|(_, v)| v);
                let payload = get("v");
                return match (kind.as_str(), payload, get("s")) {
                    ("null", ..) => Value::Null,
                    ("date", Some(Value::Number(ms)), _) => Value::Date(*ms),
                    ("date", ..) => Value::Date(f64::NAN),
                    #[cfg(feature = "full")]
                    ("bigint", Some(Value::Number(n)), Some(Value::Text(digits))) => Value::BigInt(*n, digits.clone()),
                    #[cfg(not(feature = "full"))]
                    ("bigint", _, Some(Value::Text(digits))) => Value::Other(format!("{digits}n")),
                    (_, Some(Value::Text(text)), _) => Value::Other(text.clone()),
                    (other, ..) => Value::Other(other.to_owned()),
                };
            }
        }
        Value::Record(fields)
    }
}

/// The options `names` (as written in JS, e.g. `"expiresAt"`) of the option object `v`, in the
/// order of `names`: `undefined` and `null` read as an object with none of them; an unknown
/// option is refused by name, so that a typo such as `{ expire: 60 }` never passes silently, and
/// so is a value that is not a plain object. `what` names the argument in messages (`"set
/// options"`). An option set to `undefined` reads as absent.
pub fn options<'a, const N: usize>(what: &str, v: &'a Value, names: [&str; N]) -> Result<[Option<&'a Value>; N], Error> {
    let mut found = [None; N];
    read_options(what, v, &names, &mut found)?;
    Ok(found)
}

/// [`options`], once for every number of names.
fn read_options<'a>(what: &str, v: &'a Value, names: &[&str], found: &mut [Option<&'a Value>]) -> Result<(), Error> {
    let fields = match v {
        Value::Undefined | Value::Null => return Ok(()),
        Value::Record(fields) => fields,
        other => {
            return Err(Error::InvalidType(format!("{what} {} is not accepted; expected an object with {}", other.describe(), names.join(", "))))
        }
    };
    for (name, value) in fields {
        match names.iter().position(|n| n == name) {
            // `undefined` is absent: the edge leaves such a property out of its copy, and the
            // records built in Rust (a snapshot's collection options) hold it for a JS `null`.
            Some(i) => found[i] = Some(value).filter(|v| !v.is_undefined()),
            None => return Err(Error::InvalidType(format!("{what} has an unknown option {}; accepted: {}", quote(name), names.join(", ")))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(fields: &[(&str, Value)]) -> Value {
        Value::Record(fields.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
    }

    #[test]
    fn option_objects_read_known_options_and_refuse_others_by_name() {
        let v = rec(&[("keepTtl", Value::Bool(true)), ("ttl", Value::Number(5.0))]);
        let [ttl, keep] = options("set options", &v, ["ttl", "keepTtl"]).unwrap();
        assert_eq!((ttl, keep), (Some(&Value::Number(5.0)), Some(&Value::Bool(true))));
        let null_ttl = rec(&[("ttl", Value::Null), ("keepTtl", Value::Undefined)]);
        let [ttl, keep] = options("set options", &null_ttl, ["ttl", "keepTtl"]).unwrap();
        assert_eq!((ttl, keep), (Some(&Value::Null), None));
        let e = options("set options", &rec(&[("ttl", Value::Null), ("expire", Value::Number(60.0))]), ["ttl", "keepTtl"]).unwrap_err();
        assert_eq!(e.to_string(), "set options has an unknown option \"expire\"; accepted: ttl, keepTtl");
        let e = options("set options", &Value::Date(0.0), ["ttl", "keepTtl"]).unwrap_err();
        assert_eq!(e.to_string(), "set options Date(0) is not accepted; expected an object with ttl, keepTtl");
        let e = options("set options", &Value::Other("an ArrayBuffer (8 bytes)".into()), ["ttl"]).unwrap_err();
        assert!(e.to_string().starts_with("set options an ArrayBuffer (8 bytes) is not accepted"), "{e}");
        for none in [Value::Undefined, Value::Null] {
            assert_eq!(options("set options", &none, ["ttl", "keepTtl"]).unwrap(), [None, None]);
        }
    }

    #[test]
    fn tagged_objects_of_the_edge_read_as_the_values_they_stand_for() {
        let tagged = |kind: &str, v: Option<Value>| {
            let mut fields = vec![(TAG.to_string(), Value::Text(kind.into()))];
            fields.extend(v.map(|v| ("v".to_string(), v)));
            Value::record(fields)
        };
        assert_eq!(tagged("null", None), Value::Null);
        assert_eq!(tagged("date", Some(Value::Number(5.0))), Value::Date(5.0));
        assert!(matches!(tagged("date", None), Value::Date(ms) if ms.is_nan()));
        assert_eq!(tagged("other", Some(Value::Text("a function".into()))), Value::Other("a function".into()));
        assert_eq!(tagged("a Map", None), Value::Other("a Map".into()));
        let mut big = vec![(TAG.to_string(), Value::Text("bigint".into())), ("v".to_string(), Value::Number(-12.0))];
        big.push(("s".to_string(), Value::Text("-12".into())));
        #[cfg(feature = "full")]
        {
            assert_eq!(Value::record(big), Value::BigInt(-12.0, "-12".into()));
            assert_eq!(Value::BigInt(-12.0, "-12".into()).describe(), "-12n");
        }
        // The lite entry keeps a BigInt as it describes it.
        #[cfg(not(feature = "full"))]
        assert_eq!(Value::record(big), Value::Other("-12n".into()));
        let plain = vec![("v".to_string(), Value::Text("x".into())), (TAG.to_string(), Value::Text("null".into()))];
        assert_eq!(Value::record(plain.clone()), Value::Record(plain));
    }

    #[test]
    fn descriptions_read_as_javascript() {
        let v = rec(&[("ttl", Value::Number(-0.0)), ("when", Value::Date(1.5e12)), ("odd key", Value::Other("5n".into()))]);
        assert_eq!(v.describe(), "{\"ttl\":0,\"when\":Date(1500000000000),\"odd key\":5n}");
        let long = Value::List((0..40).map(|i| Value::Number(f64::from(i))).collect());
        assert_eq!(long.describe(), "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,...");
        assert_eq!(Value::Date(f64::NAN).describe(), "an Invalid Date");
        assert_eq!(rec(&[("s", Value::Number(1.0))]).describe(), "{\"s\":1}");
    }
}
