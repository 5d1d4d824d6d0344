//! The token decoders' JSON readers (`kubeapps_pager::json`) against the serde_json readers they
//! replaced, kept here as the oracle: every prefix and thousands of one- and two-byte edits of
//! continue-token and core-token JSON must be accepted with the same fields, or rejected with the
//! same reason.
//!
//! Known, intended differences (see `json`'s module docs): a
//! number with a fraction or an exponent is `malformed` whatever its size (serde_json read
//! `1e20` as an overflowing integer; such inputs are left out of the comparison), and numbers
//! beyond f64's range are valid JSON (no edit here makes one).

use kubeapps_pager::token::base64url;
use kubeapps_pager::token::{ContinueToken, CoreToken, PluginOffset};
use kubeapps_pager::{PagerError, TokenFault};
use serde::de::{self, Deserializer as _, IgnoredAny, MapAccess, Visitor};

type Outcome<T> = Result<T, TokenFault>;

fn fault<T>(r: Result<T, PagerError>) -> Outcome<T> {
    r.map_err(|e| match e {
        PagerError::InvalidContinueToken { reason, .. }
        | PagerError::InvalidKubeappsToken { reason, .. } => reason,
        _ => TokenFault::Empty,
    })
}

/// The replaced reader's view of an integer.
enum JsonInt {
    Int(i64),
    OutOfRange,
    NotInteger,
}

impl<'de> de::Deserialize<'de> for JsonInt {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = JsonInt;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E>(self, v: i64) -> Result<JsonInt, E> {
                Ok(JsonInt::Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<JsonInt, E> {
                Ok(i64::try_from(v).map_or(JsonInt::OutOfRange, JsonInt::Int))
            }
            fn visit_f64<E>(self, v: f64) -> Result<JsonInt, E> {
                Ok(
                    if v.fract() == 0.0 && v.abs() >= 9_223_372_036_854_775_808.0 {
                        JsonInt::OutOfRange
                    } else {
                        JsonInt::NotInteger
                    },
                )
            }
        }
        d.deserialize_any(V)
    }
}

fn go_field(key: &str) -> Option<u8> {
    let fold = |c: char| match c {
        '\u{17F}' => 'S',
        '\u{131}' => 'I',
        '\u{212A}' => 'K',
        c => c.to_ascii_uppercase(),
    };
    let is = |name: &str| key.chars().map(fold).eq(name.chars());
    if is("V") {
        Some(0)
    } else if is("RV") {
        Some(1)
    } else if is("START") {
        Some(2)
    } else {
        None
    }
}

/// The replaced continue-token reader, then the apiserver's checks (through `encode`).
fn old_continue(json: &str) -> Outcome<ContinueToken> {
    #[derive(Default)]
    struct Fields(Option<String>, Option<i64>, Option<String>);
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Outcome<Fields>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut fields = Fields::default();
            let mut problem = None;
            while let Some(key) = map.next_key::<String>()? {
                match go_field(&key) {
                    Some(0) => {
                        if let Some(v) = map.next_value::<Option<String>>()? {
                            fields.0 = Some(v);
                        }
                    }
                    Some(1) => match map.next_value::<Option<JsonInt>>()? {
                        Some(JsonInt::Int(rv)) => fields.1 = Some(rv),
                        Some(JsonInt::OutOfRange) => {
                            problem.get_or_insert(TokenFault::Overflow);
                        }
                        Some(JsonInt::NotInteger) => {
                            problem.get_or_insert(TokenFault::Malformed);
                        }
                        None => {}
                    },
                    Some(_) => {
                        if let Some(s) = map.next_value::<Option<String>>()? {
                            fields.2 = Some(s);
                        }
                    }
                    None => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            Ok(problem.map_or(Ok(fields), Err))
        }
    }
    let mut de = serde_json::Deserializer::from_str(json);
    let parsed = de.deserialize_map(V).and_then(|f| de.end().map(|()| f));
    let fields = match parsed {
        Ok(fields) => fields?,
        Err(e) if e.is_eof() => return Err(TokenFault::Truncated),
        Err(_) => return Err(TokenFault::Malformed),
    };
    let token = ContinueToken {
        version: fields.0.unwrap_or_default(),
        resource_version: fields.1.unwrap_or(0),
        start: fields.2.unwrap_or_default(),
    };
    fault(token.encode())?;
    Ok(token)
}

/// The replaced core-token reader, then the token's checks (through `encode`).
fn old_core(json: &str) -> Outcome<CoreToken> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Outcome<Vec<(String, PluginOffset)>>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object of plugin offsets")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut entries = Vec::new();
            let mut problem = None;
            while let Some(plugin) = map.next_key::<String>()? {
                let offset = match map.next_value::<JsonInt>()? {
                    JsonInt::Int(-1) => Some(PluginOffset::Finished),
                    JsonInt::Int(n) if (0..=i64::from(i32::MAX)).contains(&n) => {
                        Some(PluginOffset::Offset(n as u64))
                    }
                    JsonInt::Int(_) | JsonInt::OutOfRange => None,
                    JsonInt::NotInteger => {
                        problem.get_or_insert(TokenFault::Malformed);
                        continue;
                    }
                };
                match offset {
                    Some(o) => entries.push((plugin, o)),
                    None => {
                        problem.get_or_insert(TokenFault::Overflow);
                    }
                }
            }
            Ok(problem.map_or(Ok(entries), Err))
        }
    }
    if json.is_empty() {
        return Ok(CoreToken::default());
    }
    let mut de = serde_json::Deserializer::from_str(json);
    let parsed = de.deserialize_map(V).and_then(|e| de.end().map(|()| e));
    let entries = match parsed {
        Ok(entries) => entries?,
        Err(e) if e.is_eof() => return Err(TokenFault::Truncated),
        Err(_) => return Err(TokenFault::Malformed),
    };
    let token = CoreToken { entries };
    fault(token.encode())?;
    Ok(token)
}

/// Whether `json` holds a number with a fraction or an exponent of magnitude 2^63 or more: the
/// replaced reader called those overflowing integers, the new one not integers (`malformed`).
fn known_difference(json: &str) -> bool {
    json.split(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c)))
        .filter(|lit| lit.contains(['.', 'e', 'E']))
        .filter_map(|lit| lit.parse::<f64>().ok())
        .any(|v| v.abs() >= 9_223_372_036_854_775_808.0)
}

fn new_continue(json: &str) -> Outcome<ContinueToken> {
    fault(ContinueToken::decode(&base64url::encode(json.as_bytes())))
}

fn new_core(json: &str) -> Outcome<CoreToken> {
    fault(CoreToken::decode(json))
}

/// Bytes that matter to JSON's syntax and to these formats, without digits (so that no edit
/// makes a number beyond the known differences).
const EDITS: &[&str] = &[
    "{", "}", "[", "]", "\"", "\\", ":", ",", " ", "-", ".", "e", "E", "+", "n", "u", "l", "t",
    "r", "f", "a", "s", "v", "\\u", "\\ud800", "\\udc00", "\u{1}", "é", "ſ", "null", "",
];

/// Every prefix, every one-edit (replace, insert, delete) and a sample of two-edit variants.
fn variants(base: &str) -> Vec<String> {
    let chars: Vec<char> = base.chars().collect();
    let at = |i: usize| chars[..i].iter().collect::<String>();
    let from = |i: usize| chars[i..].iter().collect::<String>();
    let mut out = Vec::new();
    for i in 0..=chars.len() {
        out.push(at(i));
        for e in EDITS {
            out.push(format!("{}{e}{}", at(i), from(i)));
            if i < chars.len() {
                out.push(format!("{}{e}{}", at(i), from(i + 1)));
            }
        }
    }
    let singles = out.len();
    for k in 0..singles {
        let v: Vec<char> = out[k * 7919 % singles].chars().collect();
        if v.is_empty() {
            continue;
        }
        let i = k % v.len();
        let e = EDITS[k % EDITS.len()];
        let head: String = v[..i].iter().collect();
        let tail: String = v[i + 1..].iter().collect();
        out.push(format!("{head}{e}{tail}"));
    }
    out
}

#[test]
fn continue_token_json_reads_as_before() {
    let bases = [
        r#"{"v":"meta.k8s.io/v1","rv":100,"start":"kubeapps/pkg-c\u0000"}"#,
        r#" {"V":"meta.k8s.io/v1", "Rv":-1, "x":[1,{"y":null}], "START":"a/b" } "#,
        r#"{"v":"meta.k8s.io/v1","rv":5,"start":"a","start":null,"z":"\ud83d\ude00"}"#,
        r#"{"v":null,"rv":1.5,"start":true}"#,
    ];
    let mut compared = 0;
    for base in bases {
        // "" is no token at all (`empty`), not JSON cut short.
        for json in variants(base)
            .into_iter()
            .filter(|j| !j.is_empty() && !known_difference(j))
        {
            assert_eq!(new_continue(&json), old_continue(&json), "{json:?}");
            compared += 1;
        }
    }
    assert!(compared > 20_000, "{compared} inputs");
}

#[test]
fn core_token_json_reads_as_before() {
    let bases = [
        r#"{"helm.packages":10,"fluxv2.packages":-1}"#,
        r#" { "a" : 0 , "b\u0041" : 2147483647 } "#,
        r#"{"a":-2,"b":1.5,"c":null,"d":"x"}"#,
        "{}",
    ];
    let mut compared = 0;
    for base in bases {
        for json in variants(base).into_iter().filter(|j| !known_difference(j)) {
            assert_eq!(new_core(&json), old_core(&json), "{json:?}");
            compared += 1;
        }
    }
    assert!(compared > 10_000, "{compared} inputs");
}
