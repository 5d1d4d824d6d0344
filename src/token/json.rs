//! The token formats' JSON (continue tokens, Kubeapps core tokens), read with serde_json.
//!
//! The decoders walk the one top-level object with their own [`serde::de::Visitor`]s (Go's key
//! matching and field rules are theirs); this module holds what both share: reading one object
//! and nothing after it, and the integer fields' numbers as Go's `encoding/json` tells them apart.
//!
//! serde_json reads values strictly (lone surrogate escapes are refused, the end of the text
//! inside a value is `eof`) and skips the values of unknown keys ([`serde::de::IgnoredAny`]) by
//! their syntax only, at any depth and magnitude, as Go's decoder skips them. Its errors give the
//! tokens' `truncated` (the text ends inside a value: [`serde_json::Error::is_eof`]) versus
//! `malformed` (anything else).
//!
//! An integer field takes only an integer literal: a fraction, an exponent or `-0` is
//! [`JsonInt::NotInteger`] whatever the number's size (`1e20`, `1e400` too), an integer literal
//! beyond `i64` [`JsonInt::OutOfRange`]. serde_json hands over numbers as `u64`, `i64` or `f64`,
//! and a whole `f64` of magnitude 2^63 or more (or a literal beyond f64's range) can be either
//! kind: [`JsonInt::Unsure`], which [`resolve`] settles from the literal's text.

use crate::prelude::*;
use core::fmt;
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

/// Reads `json` as one JSON object with `visitor`, and checks that only white space follows.
pub(crate) fn read_object<'de, V: Visitor<'de>>(
    json: &'de str,
    visitor: V,
) -> Result<V::Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(json);
    let value = de.deserialize_map(visitor)?;
    de.end()?;
    Ok(value)
}

/// A JSON number as an integer field reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JsonInt {
    /// An integer literal within `i64`.
    Int(i64),
    /// An integer literal outside `i64`.
    OutOfRange,
    /// A fraction, an exponent, or `-0`: not an integer literal.
    NotInteger,
    /// `OutOfRange` or `NotInteger`, to be told from the literal's text ([`resolve`]).
    Unsure,
}

/// 2^63 as a float: the magnitude from which a whole float may be an integer literal outside `i64`.
const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;

impl<'de> Deserialize<'de> for JsonInt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = JsonInt;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E>(self, v: i64) -> Result<JsonInt, E> {
                Ok(JsonInt::Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<JsonInt, E> {
                Ok(i64::try_from(v).map_or(JsonInt::OutOfRange, JsonInt::Int))
            }
            fn visit_f64<E>(self, v: f64) -> Result<JsonInt, E> {
                // serde_json gives integer literals within i64 or u64 as integers, and `-0` as
                // -0.0: a float below 2^63 is never an integer literal.
                Ok(if v.fract() == 0.0 && v.abs() >= TWO_POW_63 {
                    JsonInt::Unsure
                } else {
                    JsonInt::NotInteger
                })
            }
        }
        match d.deserialize_any(V) {
            Ok(n) => Ok(n),
            // A literal beyond f64's range: serde_json refuses it once it has read it whole
            // (its reader is past it, so the object reads on). Valid JSON all the same.
            Err(e) if e.to_string().starts_with("number out of range") => Ok(JsonInt::Unsure),
            Err(e) => Err(e),
        }
    }
}

/// Settles a [`JsonInt::Unsure`]: the `nth` (from 0) value of the keys `wanted` picks in `json`
/// (an object [`read_object`] has read without error), read as its literal text.
pub(crate) fn resolve(json: &str, wanted: fn(&str) -> bool, nth: usize) -> JsonInt {
    struct Nth {
        wanted: fn(&str) -> bool,
        nth: usize,
    }
    impl<'de> Visitor<'de> for Nth {
        type Value = Option<&'de str>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut seen = 0;
            let mut found = None;
            while let Some(key) = map.next_key_seed(Key(self.wanted))? {
                if !key {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
                let raw: &RawValue = map.next_value()?;
                if seen == self.nth {
                    found = Some(raw.get());
                }
                seen += 1;
            }
            Ok(found)
        }
    }
    match read_object(json, Nth { wanted, nth }) {
        Ok(Some(text)) if text.contains(['.', 'e', 'E']) => JsonInt::NotInteger,
        Ok(Some(_)) => JsonInt::OutOfRange,
        // Not reached for text read before; the stricter reading stands.
        _ => JsonInt::NotInteger,
    }
}

/// A key, read through a function of it (borrowed when it holds no escape: no allocation).
pub(crate) struct Key<T>(pub fn(&str) -> T);

impl<'de, T> DeserializeSeed<'de> for Key<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_str(self)
    }
}

impl<T> Visitor<'_> for Key<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string key")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<T, E> {
        Ok((self.0)(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(text: &str) -> JsonInt {
        let json = format!(r#"{{"n":{text}}}"#);
        let mut de = serde_json::Deserializer::from_str(&json);
        let n = de
            .deserialize_map(OneInt)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        match n {
            JsonInt::Unsure => resolve(&json, |k| k == "n", 0),
            n => n,
        }
    }

    struct OneInt;
    impl<'de> Visitor<'de> for OneInt {
        type Value = JsonInt;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("{\"n\": number}")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<JsonInt, A::Error> {
            map.next_key::<IgnoredAny>()?;
            let n = map.next_value()?;
            map.next_key::<IgnoredAny>()?;
            Ok(n)
        }
    }

    #[test]
    fn integers_are_told_from_other_numbers() {
        use JsonInt::*;
        let beyond_f64 = format!("1{}", "0".repeat(400));
        for (text, want) in [
            ("0", Int(0)),
            ("-1", Int(-1)),
            ("9223372036854775807", Int(i64::MAX)),
            ("-9223372036854775808", Int(i64::MIN)),
            ("9223372036854775808", OutOfRange),
            ("18446744073709551616", OutOfRange),
            ("-9223372036854775809", OutOfRange),
            ("99999999999999999999999", OutOfRange),
            (beyond_f64.as_str(), OutOfRange),
            ("-0", NotInteger),
            ("1.0", NotInteger),
            ("1e2", NotInteger),
            ("1e19", NotInteger),
            ("-1e20", NotInteger),
            ("9223372036854775808.0", NotInteger),
            ("1e400", NotInteger),
            ("-1e400", NotInteger),
        ] {
            assert_eq!(int(text), want, "{text}");
        }
    }
}
