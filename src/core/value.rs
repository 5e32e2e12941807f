//! A JS argument as plain data, and the serde plumbing that reads typed option structs out of it.
//!
//! The JS edge never hands user objects to the core: it copies an argument first (every property
//! read once, inside a try/catch, so a throwing getter or a revoked Proxy becomes an error, never
//! an exception in wasm), tags what is not plain data (a `Date`, a function, a `Map`, a DOM
//! node...), and `js::convert::read` brings the copy in as a [`Value`]. Option structs are then
//! deserialized from the `Value` by [`from_value`], whose errors are worded like every other
//! message here: the option's name, the value as written in JS, and what is accepted. The host
//! tests build `Value`s directly.

use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

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

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a plain value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n as f64))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n as f64))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(Value::Number(n))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::Text(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::Text(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Undefined)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Undefined)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields: Vec<(String, Value)> = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            fields.push((k, v));
        }
        Ok(Value::record(fields))
    }
}

impl Value {
    /// An object of the edge's copy: a record, or the value a tagged object stands for
    /// (`{ "\u1": kind, "v": payload }`: `null`, a `Date`, anything else described).
    pub fn record(fields: Vec<(String, Value)>) -> Value {
        if let [(tag, Value::Text(kind)), rest @ ..] = fields.as_slice() {
            if tag == TAG {
                let payload = rest.iter().find(|(k, _)| k == "v").map(|(_, v)| v);
                return match (kind.as_str(), payload) {
                    ("null", _) => Value::Null,
                    ("date", Some(Value::Number(ms))) => Value::Date(*ms),
                    ("date", _) => Value::Date(f64::NAN),
                    (_, Some(Value::Text(text))) => Value::Other(text.clone()),
                    (other, _) => Value::Other(other.to_owned()),
                };
            }
        }
        Value::Record(fields)
    }
}

/// An error while reading a struct out of a [`Value`]; [`from_value`] words it for the user.
#[derive(Debug)]
pub struct DeError(String);

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError(msg.to_string())
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        DeError(format!("has an unknown option {}; accepted: {}", quote(field), expected.join(", ")))
    }

    // serde's defaults format what they saw with `Display` (floats included): this deserializer
    // never calls them (wrong types are refused by `core::options` by name), and overriding them
    // keeps float formatting out of the wasm.
    fn invalid_type(_: de::Unexpected, exp: &dyn de::Expected) -> Self {
        DeError(format!("has the wrong type; expected {exp}"))
    }

    fn invalid_value(_: de::Unexpected, exp: &dyn de::Expected) -> Self {
        DeError(format!("has a wrong value; expected {exp}"))
    }
}

/// Reads a `T` (an option struct: `#[serde(deny_unknown_fields, rename_all = "camelCase")]`,
/// every field `Option<Value>`) out of `v`; `what` names the argument in messages (`"set
/// options"`). `undefined` and `null` read as an empty object: no options given.
pub fn from_value<T: DeserializeOwned + Default>(what: &str, v: &Value) -> Result<T, Error> {
    match v {
        Value::Undefined | Value::Null => Ok(T::default()),
        _ => T::deserialize(ValueDeserializer(v)).map_err(|e| Error::InvalidType(format!("{what} {}", e.0))),
    }
}

/// A serde `Deserializer` over a borrowed [`Value`].
#[derive(Debug, Clone, Copy)]
pub struct ValueDeserializer<'a>(pub &'a Value);

impl<'de, 'a> Deserializer<'de> for ValueDeserializer<'a> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Undefined => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => visitor.visit_f64(*n),
            Value::Text(s) => visitor.visit_str(s),
            Value::List(items) => visitor.visit_seq(de::value::SeqDeserializer::new(items.iter().map(ValueDeserializer))),
            // `null` and the values that are not plain data keep their identity: the visitor
            // (Value's own) gets them back as the tagged map the edge sends.
            Value::Null | Value::Date(_) | Value::Other(_) | Value::Record(_) => self.deserialize_map(visitor),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Record(fields) => visitor.visit_map(Fields { fields: fields.iter(), value: None }),
            Value::Null => visitor.visit_map(Tagged { kind: "null", payload: Value::Undefined, step: 0 }),
            Value::Date(ms) => visitor.visit_map(Tagged { kind: "date", payload: Value::Number(*ms), step: 0 }),
            Value::Other(text) => visitor.visit_map(Tagged { kind: "other", payload: Value::Text(text.clone()), step: 0 }),
            other => Err(DeError(format!("{} is not accepted; expected an object", other.describe()))),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Record(entries) => visitor.visit_map(Fields { fields: entries.iter(), value: None }),
            other => Err(DeError(format!(
                "{} is not accepted; expected an object with {}",
                other.describe(),
                fields.join(", ")
            ))),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Undefined => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct enum identifier ignored_any
    }
}

impl<'de, 'a> IntoDeserializer<'de, DeError> for ValueDeserializer<'a> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// The fields of a record, as a serde map.
struct Fields<'a> {
    fields: std::slice::Iter<'a, (String, Value)>,
    value: Option<&'a Value>,
}

impl<'de, 'a> MapAccess<'de> for Fields<'a> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, DeError> {
        match self.fields.next() {
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(k.as_str().into_deserializer()).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        seed.deserialize(ValueDeserializer(self.value.take().unwrap_or(&Value::Undefined)))
    }
}

/// A tagged value (`Date`, other) as the two-entry map the edge sends.
struct Tagged {
    kind: &'static str,
    payload: Value,
    step: u8,
}

impl<'de> MapAccess<'de> for Tagged {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, DeError> {
        self.step += 1;
        match self.step {
            1 => seed.deserialize(TAG.into_deserializer()).map(Some),
            3 => seed.deserialize("v".into_deserializer()).map(Some),
            _ => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        self.step += 1;
        if self.step == 2 {
            seed.deserialize(self.kind.into_deserializer())
        } else {
            seed.deserialize(ValueDeserializer(&self.payload))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(fields: &[(&str, Value)]) -> Value {
        Value::Record(fields.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
    }

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Opts {
        ttl: Option<Value>,
        keep_ttl: Option<Value>,
    }

    #[test]
    fn structs_read_known_fields_and_refuse_others_by_name() {
        let v = rec(&[("ttl", Value::Number(5.0)), ("keepTtl", Value::Bool(true))]);
        let o: Opts = from_value("set options", &v).unwrap();
        assert_eq!(o, Opts { ttl: Some(Value::Number(5.0)), keep_ttl: Some(Value::Bool(true)) });
        let e = from_value::<Opts>("set options", &rec(&[("expire", Value::Number(60.0))])).unwrap_err();
        assert_eq!(e.to_string(), "set options has an unknown option \"expire\"; accepted: ttl, keepTtl");
        let e = from_value::<Opts>("set options", &Value::Date(0.0)).unwrap_err();
        assert_eq!(e.to_string(), "set options Date(0) is not accepted; expected an object with ttl, keepTtl");
        let e = from_value::<Opts>("set options", &Value::Other("an ArrayBuffer (8 bytes)".into())).unwrap_err();
        assert!(e.to_string().starts_with("set options an ArrayBuffer (8 bytes) is not accepted"), "{e}");
        assert_eq!(from_value::<Opts>("set options", &Value::Undefined).unwrap(), Opts::default());
    }

    #[test]
    fn values_round_trip_through_their_own_deserializer() {
        let v = rec(&[
            ("a", Value::List(vec![Value::Null, Value::Date(5.0), Value::Other("a function".into())])),
            ("b", Value::Text("x".into())),
            ("c", Value::Number(f64::INFINITY)),
            ("d", Value::Date(f64::NAN)),
        ]);
        let back = Value::deserialize(ValueDeserializer(&v)).unwrap();
        assert_eq!(back.describe(), v.describe());
        assert!(matches!(&back, Value::Record(f) if matches!(f[3].1, Value::Date(ms) if ms.is_nan())));
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
