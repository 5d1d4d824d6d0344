//! Kubernetes continue tokens, as the apiserver writes and checks them.
//!
//! Format (k8s.io/apiserver/pkg/storage/continue.go, `EncodeContinue` /
//! `DecodeContinue`): base64url without padding (`base64.RawURLEncoding`) of
//! the JSON `{"v":"meta.k8s.io/v1","rv":<int64>,"start":"<key>"}`, where
//! `start` is the storage key to resume from with the resource prefix cut off
//! (`kubeapps/pkg-c\u0000`: the last key read plus a NUL, the next key up).
//!
//! [`ContinueToken::decode`] rejects what the apiserver rejects: an unknown
//! `v`, `rv` 0, an empty `start`, and a `start` that Go's `path.Clean` changes
//! once prefixed with `/` when it lacks one (no `..`, `.`, `//` or trailing
//! `/` elements: the apiserver's guard against path traversal). The JSON is
//! read as Go's `encoding/json` reads it into the apiserver's struct: unknown
//! keys are ignored, keys match case-insensitively (`"RV"`, `"ſtart"`), the
//! last of repeated keys wins, `null` leaves a field unset. It is stricter in
//! places the apiserver never writes: invalid UTF-8 and lone surrogate escapes
//! are rejected (Go replaces them with U+FFFD), `"rv":-0` is rejected (Go
//! reads 0, which it then rejects anyway), and the base64 text must be
//! canonical (see [`base64url`](super::base64url)). An `rv` written with a
//! fraction or an exponent is `malformed`, an integer outside int64 `overflow`.
//! The JSON is read with serde_json ([`super::json`]: values of unknown keys are only
//! checked for syntax, at any depth and magnitude, as Go's decoder skips them).
//!
//! [`ContinueToken::encode`] writes exactly what Go's `json.Marshal` plus
//! `RawURLEncoding` write (Go 1.22 or later, as every supported Kubernetes
//! release is built with): fields in the order `v`, `rv`, `start`, strings
//! escaped as Go escapes them ([`super::go_json`]: `<`, `>`, `&`, U+2028 and
//! U+2029 as `\u003c`..; `\b \f \n \r \t` as such, other control characters
//! as `\u00XX`, lowercase hex).

use crate::prelude::*;
use serde::de::{self, Visitor};
use serde::{Deserialize, Serialize};

use super::base64url::{self, DecodeRules};
use super::decimal::canonical_decimal_bytes;
use super::go_json;
use super::json::{self, JsonInt};
use crate::error::{PagerError, Result, TokenFault};
use crate::text::shown;

/// The only continue-token format version the apiserver writes and reads.
pub const CONTINUE_VERSION: &str = "meta.k8s.io/v1";

/// A decoded Kubernetes continue token.
///
/// Serde view (camelCase, for JS): `{ version, resourceVersion, start,
/// consistent }`; `resourceVersion` is a decimal string, as Kubernetes writes
/// `metadata.resourceVersion` (exact for any int64; a whole number is also
/// read); `consistent` is [`is_consistent`](Self::is_consistent), written for
/// the reader and ignored when read back.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ContinueToken {
    /// Format version, `"meta.k8s.io/v1"` (the JSON `v`).
    pub version: String,
    /// Resource version of the list snapshot (the JSON `rv`); negative (-1)
    /// in the "inconsistent" token a 410 Expired answer carries; never 0.
    pub resource_version: i64,
    /// Key to resume from, without the resource prefix (the JSON `start`),
    /// e.g. `kubeapps/pkg-c\u{0}`. Never empty.
    pub start: String,
}

impl ContinueToken {
    /// A `meta.k8s.io/v1` token. Not checked: [`encode`](Self::encode) checks.
    pub fn new(resource_version: i64, start: impl Into<String>) -> Self {
        ContinueToken {
            version: CONTINUE_VERSION.to_owned(),
            resource_version,
            start: start.into(),
        }
    }

    /// Whether the token continues one snapshot: `rv > 0`.
    ///
    /// A 410 Expired answer may carry a token with `rv` -1: the list can go on
    /// from `start`, but each next chunk is read at the latest revision.
    pub fn is_consistent(&self) -> bool {
        self.resource_version > 0
    }

    /// Decodes a continue token and checks it as the apiserver would.
    ///
    /// Errors (`INVALID_CONTINUE_TOKEN`, with the reason): `empty` for `""` (no
    /// token: the list's start); base64 faults (`whitespace`, `bad-character`
    /// for any of `+ / ` or a non-canonical last character, `bad-padding` for
    /// `=`); `not-utf8`; `malformed` for JSON that is not one object with a
    /// string `v`, an integer `rv` and a string `start`; `truncated` for JSON
    /// that ends early; `overflow` for an `rv` outside int64; `unknown-version`;
    /// `invalid-field` for `rv` 0, an empty or unclean `start`.
    ///
    /// ```
    /// use kubeapps_pager::token::ContinueToken;
    ///
    /// let text = "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6Imt1YmVhcHBzL3BrZy1jXHUwMDAwIn0";
    /// let token = ContinueToken::decode(text)?;
    /// assert_eq!((token.resource_version, token.start.as_str()), (100, "kubeapps/pkg-c\0"));
    /// assert_eq!(token.encode()?, text);
    /// # Ok::<(), kubeapps_pager::PagerError>(())
    /// ```
    pub fn decode(token: &str) -> Result<ContinueToken> {
        if token.is_empty() {
            return Err(PagerError::continue_token(
                TokenFault::Empty,
                "an empty continue token means the list's start; there is no token to decode",
            ));
        }
        let rules = DecodeRules {
            max_len: None,
            url_only: true,
        };
        let bytes = base64url::decode_with(token, rules)
            .map_err(|e| PagerError::continue_token(e.fault, e.message))?;
        let json = core::str::from_utf8(&bytes).map_err(|e| {
            PagerError::continue_token(
                TokenFault::NotUtf8,
                format!(
                    "the decoded token is not UTF-8 text (byte {})",
                    e.valid_up_to()
                ),
            )
        })?;
        let fields = parse_go_json(json)?;
        let token = ContinueToken {
            version: fields.version.unwrap_or_default(),
            resource_version: fields.resource_version.unwrap_or(0),
            start: fields.start.unwrap_or_default(),
        };
        token.check()?;
        Ok(token)
    }

    /// Encodes the token exactly as the apiserver would write it.
    ///
    /// Errors: `INVALID_CONTINUE_TOKEN` when the token breaks a rule of
    /// [`decode`](Self::decode) (`unknown-version`, `invalid-field`), so every
    /// encoded token decodes back to `self`.
    pub fn encode(&self) -> Result<String> {
        self.check()?;
        // Sized up front (21 bytes of punctuation, at most 20 digits), so
        // rebuilding a token allocates each buffer once.
        let capacity = [
            20,
            go_json::string_len(&self.version),
            go_json::string_len(&self.start),
        ]
        .iter()
        .fold(21usize, |sum, n| sum.saturating_add(*n));
        let mut json = String::with_capacity(capacity);
        json.push_str("{\"v\":");
        go_json::write_string(&mut json, &self.version);
        json.push_str(",\"rv\":");
        json.push_str(&self.resource_version.to_string());
        json.push_str(",\"start\":");
        go_json::write_string(&mut json, &self.start);
        json.push('}');
        debug_assert!(json.len() <= capacity, "go_json::string_len undercounts");
        Ok(base64url::encode(json.as_bytes()))
    }

    /// The token whose [`encode`](Self::encode) is exactly `token`, or `None`.
    ///
    /// `Some` only for the text the apiserver writes (Go's `json.Marshal` plus
    /// `RawURLEncoding`, see the module docs) of a valid token; `None` for
    /// anything else, including the other spellings [`decode`](Self::decode)
    /// accepts as Go does (key order and case, spacing, escapes, unknown keys).
    /// The pager needs only this: a page token stores a continue token by its
    /// fields when they give its text back byte for byte, and a chunk's
    /// `rv` is read from its next token. Reading the one canonical form needs
    /// no JSON reader, which keeps about 5 KB (gzip) out of the pager's wasm.
    ///
    /// The text is read leniently, then accepted only if it re-encodes to
    /// itself: so `Some(t)` implies `t.encode() == token` and
    /// `decode(token) == Ok(t)`.
    pub fn decode_canonical(token: &str) -> Option<ContinueToken> {
        // Bytes, not `str` methods: `str` slicing and substring search would bring their panic
        // and search code into the wasm (+3 KB gzip, measured).
        let rules = DecodeRules {
            max_len: None,
            url_only: true,
        };
        let json = base64url::decode_with(token, rules).ok()?;
        let rest = strip_prefix(&json, b"{\"v\":\"meta.k8s.io/v1\",\"rv\":")?;
        let digits = rest
            .iter()
            .position(|&b| b != b'-' && !b.is_ascii_digit())
            .unwrap_or(rest.len());
        let (rv, rest) = rest.split_at_checked(digits)?; // `_checked`: no panic path (size)
        let start = strip_prefix(rest, b",\"start\":\"")?;
        let start = start.split_at_checked(start.len().checked_sub(2)?)?;
        let start = (start.1 == b"\"}").then_some(start.0)?;
        // The number by hand (`str::parse` brings its radix parser: size). Only the canonical
        // spelling needs reading right: any other fails the re-encoding check below.
        let (negative, magnitude) = match strip_prefix(rv, b"-") {
            Some(m) => (true, m),
            None => (false, rv),
        };
        let magnitude = canonical_decimal_bytes(magnitude)?;
        let rv = i128::from(magnitude);
        let rv = i64::try_from(if negative { -rv } else { rv }).ok()?;
        let parsed = ContinueToken::new(rv, go_json::unescape(start)?);
        (parsed.encode().ok()? == token).then_some(parsed)
    }

    /// The apiserver's checks, in its order: version, rv, start.
    fn check(&self) -> Result<()> {
        if self.version != CONTINUE_VERSION {
            return Err(PagerError::continue_token(
                TokenFault::UnknownVersion,
                format!(
                    "version {}: the apiserver reads only \"{CONTINUE_VERSION}\"",
                    shown(&self.version)
                ),
            ));
        }
        if self.resource_version == 0 {
            return Err(PagerError::continue_token(
                TokenFault::InvalidField,
                "rv is 0 (or missing); the apiserver rejects it",
            ));
        }
        if self.start.is_empty() {
            return Err(PagerError::continue_token(
                TokenFault::InvalidField,
                "start is empty (or missing); the apiserver rejects it",
            ));
        }
        if !is_clean_start(&self.start) {
            return Err(PagerError::continue_token(
                TokenFault::InvalidField,
                format!("start {} is not a clean path ('..', '.', '//' or a trailing '/'); the apiserver rejects it", shown(&self.start)),
            ));
        }
        Ok(())
    }
}

/// Whether the apiserver accepts `start`: it is unchanged by `path.Clean`
/// once prefixed with `/` when it lacks one.
///
/// Checked without building the cleaned path: a rooted path is its own
/// `path.Clean` exactly when it is `/` or none of its elements after the root
/// is empty, `.` or `..` (each of those would be removed, shortening it).
/// `path_clean` is the reference; a test checks the two agree.
fn is_clean_start(start: &str) -> bool {
    let elements = start.strip_prefix('/').unwrap_or(start).as_bytes();
    if elements.is_empty() {
        return true;
    }
    // One pass over the bytes, not `split('/')` (its searcher is code of its own: size). An
    // element is bad when it is empty, `.` or `..`: at most two bytes, all dots.
    let bad = |len: usize, dots: usize| len == 0 || (len <= 2 && dots == len);
    let (mut len, mut dots) = (0, 0);
    for &b in elements {
        if b == b'/' {
            if bad(len, dots) {
                return false;
            }
            (len, dots) = (0, 0);
        } else {
            len += 1;
            dots += usize::from(b == b'.');
        }
    }
    !bad(len, dots)
}

/// Go's `path.Clean`: the shortest path name lexically equal to `path`.
///
/// The rules, applied until none applies (Go's documentation of `path.Clean`):
///
/// 1. replace multiple slashes with one;
/// 2. drop each `.` element;
/// 3. drop each inner `..` element with the non-`..` element before it;
/// 4. drop `..` elements that begin a rooted path.
///
/// The result ends in `/` only when it is the root `/`; an empty result
/// becomes `.`. Purely lexical; only `/` and `.` matter, both ASCII, so UTF-8
/// text is kept intact.
pub fn path_clean(path: &str) -> String {
    let rooted = path.starts_with('/');
    let mut kept: Vec<&str> = Vec::new();
    for element in path.split('/') {
        match element {
            "" | "." => {}
            ".." => match kept.last() {
                Some(&last) if last != ".." => {
                    kept.pop();
                }
                // Rule 4: a rooted path cannot go above the root.
                _ if rooted => {}
                // A relative path keeps the `..` it cannot resolve.
                _ => kept.push(".."),
            },
            name => kept.push(name),
        }
    }
    let joined = kept.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_owned(),
        (false, false) => joined,
    }
}

/// `b` without `prefix`, if it starts with it: `[u8]::strip_prefix` keeps a slicing panic path in
/// the wasm, `split_at_checked` none (size).
fn strip_prefix<'a>(b: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    let (head, tail) = b.split_at_checked(prefix.len())?;
    (head == prefix).then_some(tail)
}

/// The fields of the apiserver's `continueToken` struct as Go's decoder fills them.
#[derive(Default)]
struct GoFields {
    version: Option<String>,
    resource_version: Option<i64>,
    start: Option<String>,
}

/// Which field of the apiserver's struct a JSON key fills, as Go matches it:
/// `bytes.EqualFold`-style, so ASCII case is ignored and `ſ` (U+017F) folds to `s`.
fn go_field(key: &str) -> Option<u8> {
    let fold = |c: char| match c {
        // The non-ASCII letters whose simple case folding reaches ASCII.
        '\u{17F}' => 'S',
        '\u{131}' => 'I',
        '\u{212A}' => 'K',
        c => c.to_ascii_uppercase(),
    };
    // A loop rather than `Iterator::eq` over a mapped iterator (size).
    let is = |name: &str| {
        let mut folded = key.chars();
        for want in name.chars() {
            if folded.next().map(fold) != Some(want) {
                return false;
            }
        }
        folded.next().is_none()
    };
    if is("V") {
        Some(V)
    } else if is("RV") {
        Some(RV)
    } else if is("START") {
        Some(START)
    } else {
        None
    }
}

/// [`go_field`]'s fields.
const V: u8 = 0;
const RV: u8 = 1;
const START: u8 = 2;

/// Reads the token JSON into [`GoFields`] with Go's rules (see the module docs).
fn parse_go_json(json: &str) -> Result<GoFields> {
    let (fields, problem) = json::read_object(json, GoFieldsVisitor).map_err(|e| {
        PagerError::continue_token(
            if e.is_eof() {
                TokenFault::Truncated
            } else {
                TokenFault::Malformed
            },
            format!("the decoded token is not the apiserver's JSON: {e}"),
        )
    })?;
    let Some((nth, n)) = problem else {
        return Ok(fields);
    };
    let n = match n {
        JsonInt::Unsure => json::resolve(json, |k| go_field(k) == Some(RV), nth),
        n => n,
    };
    Err(if n == JsonInt::OutOfRange {
        PagerError::continue_token(TokenFault::Overflow, "rv does not fit a 64-bit integer")
    } else {
        PagerError::continue_token(TokenFault::Malformed, "rv is not an integer")
    })
}

/// The object's fields in order, and the first `rv` that is not an int64 (which of the `rv`
/// values, from 0, and how), reported once the JSON has read without error, as Go's decoder does.
struct GoFieldsVisitor;

impl<'de> Visitor<'de> for GoFieldsVisitor {
    type Value = (GoFields, Option<(usize, JsonInt)>);

    fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> core::result::Result<Self::Value, A::Error> {
        let mut fields = GoFields::default();
        let mut problem = None;
        let mut rvs = 0;
        while let Some(field) = map.next_key_seed(json::Key(go_field))? {
            // `null` leaves a field as it was.
            match field {
                Some(V) => {
                    if let Some(v) = map.next_value::<Option<String>>()? {
                        fields.version = Some(v);
                    }
                }
                Some(RV) => {
                    match map.next_value::<Option<JsonInt>>()? {
                        Some(JsonInt::Int(rv)) => fields.resource_version = Some(rv),
                        Some(n) => {
                            problem.get_or_insert((rvs, n));
                        }
                        None => {}
                    }
                    rvs += 1;
                }
                Some(_) => {
                    if let Some(s) = map.next_value::<Option<String>>()? {
                        fields.start = Some(s);
                    }
                }
                None => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok((fields, problem))
    }
}

/// The serde view: `{ version, resourceVersion, start, consistent }`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ContinueView<'a> {
    version: &'a str,
    resource_version: String,
    start: &'a str,
    consistent: bool,
}

impl Serialize for ContinueToken {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        ContinueView {
            version: &self.version,
            resource_version: format!("{}", self.resource_version),
            start: &self.start,
            consistent: self.is_consistent(),
        }
        .serialize(s)
    }
}

/// What deserializing reads: `consistent` is derived, so it is ignored.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContinueInput {
    version: String,
    #[serde(deserialize_with = "read_rv")]
    resource_version: i64,
    start: String,
}

/// Reads `resourceVersion` as a decimal string (as written) or an integer.
fn read_rv<'de, D: de::Deserializer<'de>>(d: D) -> core::result::Result<i64, D::Error> {
    struct V;
    impl Visitor<'_> for V {
        type Value = i64;
        fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
            f.write_str("resourceVersion: a 64-bit integer, as a decimal string or a whole number")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> core::result::Result<i64, E> {
            v.parse()
                .map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> core::result::Result<i64, E> {
            Ok(v)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> core::result::Result<i64, E> {
            i64::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> core::result::Result<i64, E> {
            // JS numbers: whole and exact only.
            // Within ±(2^53-1), and whole: the cast back gives the same number.
            if (-9_007_199_254_740_991.0..=9_007_199_254_740_991.0).contains(&v)
                && v == v as i64 as f64
            {
                Ok(v as i64)
            } else {
                Err(E::invalid_value(de::Unexpected::Float(v), &self))
            }
        }
    }
    d.deserialize_any(V)
}

impl<'de> Deserialize<'de> for ContinueToken {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        let v = ContinueInput::deserialize(d)?;
        Ok(ContinueToken {
            version: v.version,
            resource_version: v.resource_version,
            start: v.start,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_start_check_agrees_with_path_clean() {
        // Every string of up to 7 characters over an alphabet that matters.
        let alphabet = ['a', '.', '/', '\u{e9}'];
        let mut strings = vec![String::new()];
        for _ in 0..7 {
            let longer: Vec<String> = strings
                .iter()
                .filter(|s| s.chars().count() == strings.last().map_or(0, |l| l.chars().count()))
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            strings.extend(longer);
        }
        assert!(strings.len() > 20_000);
        for start in &strings {
            let rooted = if start.starts_with('/') {
                start.clone()
            } else {
                format!("/{start}")
            };
            assert_eq!(
                is_clean_start(start),
                path_clean(&rooted) == rooted,
                "{start:?}"
            );
        }
    }

    #[test]
    fn canonical_reading_takes_every_rv() {
        for rv in [i64::MIN, i64::MIN + 1, -1, 1, 9, 10, i64::MAX] {
            let token = ContinueToken::new(rv, "kubeapps/pkg-c\u{0}");
            let text = token.encode().unwrap_or_default();
            assert_eq!(ContinueToken::decode_canonical(&text), Some(token), "{rv}");
        }
    }

    #[test]
    fn path_clean_follows_go_examples() {
        // The examples of Go's path.Clean documentation.
        for (input, want) in [
            ("a/c", "a/c"),
            ("a//c", "a/c"),
            ("a/c/.", "a/c"),
            ("a/c/b/..", "a/c"),
            ("/../a/c", "/a/c"),
            ("/../a/b/../././/c", "/a/c"),
            ("", "."),
            ("..", ".."),
            ("../..", "../.."),
            ("a/../..", ".."),
            ("/", "/"),
            ("//", "/"),
            ("/..", "/"),
            ("a/", "a"),
            ("./a", "a"),
            (".", "."),
            ("...", "..."),
        ] {
            assert_eq!(path_clean(input), want, "path.Clean({input:?})");
        }
    }
}
