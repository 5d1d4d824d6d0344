//! JSON text in without serde: a pull [`Reader`] for the token formats' JSON.
//!
//! It reads the JSON inside Kubernetes continue tokens and Kubeapps core
//! tokens as the Go servers that write them read it (the views at the wasm
//! boundary are serde's). Still hand-written: the continue token decoder's
//! diagnostics (which key, duplicate and case-folded keys as Go's
//! `encoding/json` matches them, numbers of any magnitude) are read off this
//! reader's events; moving them onto serde_json is left open.
//!
//! The reader accepts exactly RFC 8259 JSON (no comments, no trailing commas,
//! white space = space, tab, CR, LF) and classifies every failure as
//! serde_json 1.0 does, which is what the token decoders' `truncated` versus
//! `malformed` reasons have always meant:
//!
//! - [`JsonError::eof`]: the text ends inside a value (a token cut short);
//! - otherwise the text is not JSON, or a value has the wrong type.
//!
//! As in serde_json, a value *read* ([`Reader::value`]) is checked strictly:
//! strings must not hold lone surrogate escapes, and the end of the text
//! inside a number counts as `eof`. A value *skipped* ([`Reader::skip`], for
//! keys a reader ignores) is only checked for syntax: lone surrogate escapes
//! pass, the end of the text inside a number is a syntax error, and nesting
//! is unbounded (the skip keeps its own stack, in proportion to the input).
//! Numbers are never converted to floats: a [`Number`] is its literal text,
//! read as an integer on request, so numbers of any magnitude are valid JSON
//! (serde_json rejects literals beyond f64's range; Go, the source of the
//! token formats, does not).

use crate::prelude::*;
use alloc::borrow::Cow;

/// JSON text that was rejected: why, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// The text ended inside a value: more text was expected (a cut-short token).
    pub eof: bool,
    /// What was wrong, for people, e.g. `expected ':'`.
    pub message: Cow<'static, str>,
    /// Byte offset into the text where it was noticed.
    pub at: usize,
}

impl JsonError {
    /// `"{message} at byte {at}"`, for error messages.
    pub fn describe(&self) -> String {
        format!("{} at byte {}", self.message, self.at)
    }
}

/// The reader's result type.
pub type JsonResult<T> = Result<T, JsonError>;

/// One value as [`Reader::value`] reads it.
///
/// For `Array` and `Object` only the opening bracket is read: read the
/// contents with [`Reader::next_element`] or [`Reader::next_key`] (or stop:
/// a reader that returns an error is done).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as its literal text.
    Number(Number<'a>),
    /// A string, unescaped (borrowed from the text when it holds no escape).
    String(Cow<'a, str>),
    /// `[`: an array was opened.
    Array,
    /// `{`: an object was opened.
    Object,
}

impl Value<'_> {
    /// The kind of value, for "expected …, found …" messages: `null`, `a boolean`, ...
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array => "an array",
            Value::Object => "an object",
        }
    }
}

/// A JSON number literal, exactly as written (valid JSON number syntax).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Number<'a>(&'a str);

/// Why a [`Number`] is not the integer asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntFault {
    /// It has a fraction or an exponent, or is `-0`: not an integer literal.
    NotInteger,
    /// An integer literal outside the range asked for.
    OutOfRange,
}

impl<'a> Number<'a> {
    /// The literal text, e.g. `-12`, `1.5e3`.
    pub fn text(&self) -> &'a str {
        self.0
    }

    /// The value of an integer literal (digits with an optional `-`) within `i64`.
    ///
    /// A fraction, an exponent or `-0` is [`IntFault::NotInteger`] (`1.0` and
    /// `1e2` too: Go cannot read them into an integer field); an integer
    /// literal outside `i64` is [`IntFault::OutOfRange`].
    pub fn to_i64(&self) -> Result<i64, IntFault> {
        let (negative, digits) = match self.0.strip_prefix('-') {
            Some(digits) => (true, digits),
            None => (false, self.0),
        };
        if !digits.bytes().all(|b| b.is_ascii_digit()) || (negative && digits == "0") {
            return Err(IntFault::NotInteger);
        }
        let mut magnitude = 0u64;
        for b in digits.bytes() {
            magnitude = magnitude
                .checked_mul(10)
                .and_then(|m| m.checked_add(u64::from(b - b'0')))
                .ok_or(IntFault::OutOfRange)?;
        }
        if negative {
            // -2^63 is the one magnitude above i64::MAX that fits.
            match magnitude {
                m if m <= 1 << 63 => Ok((m as i64).wrapping_neg()),
                _ => Err(IntFault::OutOfRange),
            }
        } else {
            i64::try_from(magnitude).map_err(|_| IntFault::OutOfRange)
        }
    }

    /// The value of an integer literal within `0..=u32::MAX`.
    pub fn to_u32(&self) -> Result<u32, IntFault> {
        let n = self.to_i64()?;
        u32::try_from(n).map_err(|_| IntFault::OutOfRange)
    }
}

/// A pull reader over JSON text: read values one at a time, in order.
///
/// Typical use: `value()` gives `Value::Object`, then `next_key()` until
/// `None`, reading each key's value with `value()` or `skip()`; finally
/// `end()` checks that only white space follows.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
    /// Whether the innermost open container has had no element yet.
    first: bool,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        Reader {
            text,
            pos: 0,
            first: false,
        }
    }

    /// Byte offset of the next unread byte.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// An error at the current position.
    pub fn error<T>(&self, eof: bool, message: impl Into<Cow<'static, str>>) -> JsonResult<T> {
        Err(JsonError {
            eof,
            message: message.into(),
            at: self.pos,
        })
    }

    /// The error for a value of the wrong type: `expected {what}, found {kind}`.
    pub fn type_error<T>(&self, what: &str, found: &Value) -> JsonResult<T> {
        let mut message = String::with_capacity(what.len() + 24);
        message.push_str("expected ");
        message.push_str(what);
        message.push_str(", found ");
        message.push_str(found.kind());
        self.error(false, message)
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn peek_byte(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    /// Skips white space and peeks at the next byte.
    fn peek(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek_byte() {
            self.pos += 1;
        }
        self.peek_byte()
    }

    /// The next byte, consumed.
    fn next_byte(&mut self) -> Option<u8> {
        let b = self.peek_byte()?;
        self.pos += 1;
        Some(b)
    }

    /// Reads the next value strictly (see the module docs).
    pub fn value(&mut self) -> JsonResult<Value<'a>> {
        let Some(b) = self.peek() else {
            return self.error(true, "the text ends where a value should start");
        };
        self.first = false;
        match b {
            b'n' => self.literal("null", Value::Null),
            b't' => self.literal("true", Value::Bool(true)),
            b'f' => self.literal("false", Value::Bool(false)),
            b'"' => {
                self.pos += 1;
                self.string(true).map(Value::String)
            }
            b'-' | b'0'..=b'9' => self.number(true).map(Value::Number),
            b'[' | b'{' => {
                self.pos += 1;
                self.first = true;
                Ok(if b == b'[' {
                    Value::Array
                } else {
                    Value::Object
                })
            }
            _ => self.error(false, "expected a value"),
        }
    }

    /// The next key of the open object (and its `:`), or `None` after its `}`.
    pub fn next_key(&mut self) -> JsonResult<Option<Cow<'a, str>>> {
        if !self.next_member(b'}', "object")? {
            return Ok(None);
        }
        match self.peek() {
            Some(b'"') => {
                self.pos += 1;
                let key = self.string(true)?;
                match self.peek() {
                    Some(b':') => {
                        self.pos += 1;
                        Ok(Some(key))
                    }
                    Some(_) => self.error(false, "expected ':'"),
                    None => self.error(true, "the text ends inside an object"),
                }
            }
            Some(_) => self.error(false, "expected a string key"),
            None => self.error(true, "the text ends inside an object"),
        }
    }

    /// Whether the open array has another element (read it next), or consumes its `]`.
    pub fn next_element(&mut self) -> JsonResult<bool> {
        self.next_member(b']', "array")
    }

    /// Steps to the next member of the open container: after `,` (or first),
    /// `true`; at `close`, consumes it and gives `false`.
    fn next_member(&mut self, close: u8, what: &'static str) -> JsonResult<bool> {
        let eof = |r: &Self| {
            r.error(
                true,
                if close == b']' {
                    "the text ends inside an array"
                } else {
                    "the text ends inside an object"
                },
            )
        };
        match self.peek() {
            Some(b) if b == close => {
                self.pos += 1;
                // The enclosing container now has this one as an element.
                self.first = false;
                return Ok(false);
            }
            Some(b',') if !self.first => {
                self.pos += 1;
                match self.peek() {
                    Some(b) if b == close => return self.error(false, "trailing comma"),
                    Some(_) => {}
                    None => return self.error(true, "the text ends where a value should start"),
                }
            }
            Some(_) if self.first => {}
            Some(_) => {
                let mut message = String::from("expected ',' or the end of the ");
                message.push_str(what);
                return self.error(false, message);
            }
            None => return eof(self),
        }
        self.first = false;
        Ok(true)
    }

    /// Skips the next value, checking only its syntax (see the module docs).
    pub fn skip(&mut self) -> JsonResult<()> {
        // The closing bracket of each container still open.
        let mut open: Vec<u8> = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return self.error(true, "the text ends where a value should start");
            };
            match b {
                b'n' => self.literal("null", ())?,
                b't' => self.literal("true", ())?,
                b'f' => self.literal("false", ())?,
                b'"' => {
                    self.pos += 1;
                    self.string(false)?;
                }
                b'-' | b'0'..=b'9' => {
                    self.number(false)?;
                }
                b'[' | b'{' => {
                    self.pos += 1;
                    let close = if b == b'[' { b']' } else { b'}' };
                    if self.peek() == Some(close) {
                        self.pos += 1;
                    } else {
                        open.push(close);
                        if close == b'}' {
                            self.skip_key()?;
                        }
                        continue;
                    }
                }
                _ => return self.error(false, "expected a value"),
            }
            // A value is done: close what it ends, then step to the next one.
            loop {
                let Some(&close) = open.last() else {
                    self.first = false;
                    return Ok(());
                };
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        if close == b'}' {
                            self.skip_key()?;
                        }
                        break;
                    }
                    Some(b) if b == close => {
                        self.pos += 1;
                        open.pop();
                    }
                    Some(_) if close == b']' => {
                        return self.error(false, "expected ',' or the end of the array")
                    }
                    Some(_) => return self.error(false, "expected ',' or the end of the object"),
                    None if close == b']' => {
                        return self.error(true, "the text ends inside an array")
                    }
                    None => return self.error(true, "the text ends inside an object"),
                }
            }
        }
    }

    /// Inside a skipped object: a key and its `:`.
    fn skip_key(&mut self) -> JsonResult<()> {
        match self.peek() {
            Some(b'"') => {
                self.pos += 1;
                self.string(false)?;
            }
            Some(_) => return self.error(false, "expected a string key"),
            None => return self.error(true, "the text ends inside an object"),
        }
        match self.peek() {
            Some(b':') => {
                self.pos += 1;
                Ok(())
            }
            Some(_) => self.error(false, "expected ':'"),
            None => self.error(true, "the text ends inside an object"),
        }
    }

    /// Checks that only white space follows the value read.
    pub fn end(&mut self) -> JsonResult<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => self.error(false, "text after the JSON value"),
        }
    }

    /// `null`, `true` or `false`, byte by byte.
    fn literal<T>(&mut self, word: &'static str, value: T) -> JsonResult<T> {
        for &expected in word.as_bytes() {
            match self.next_byte() {
                Some(b) if b == expected => {}
                Some(_) => return self.error(false, "expected a value"),
                None => return self.error(true, "the text ends inside a value"),
            }
        }
        Ok(value)
    }

    /// A number literal. `strict`: the end of the text inside it is `eof`.
    fn number(&mut self, strict: bool) -> JsonResult<Number<'a>> {
        let start = self.pos;
        if self.peek_byte() == Some(b'-') {
            self.pos += 1;
        }
        match self.next_byte() {
            Some(b'0') => {
                if let Some(b'0'..=b'9') = self.peek_byte() {
                    return self.error(false, "invalid number (leading zero)");
                }
            }
            Some(b'1'..=b'9') => self.digits(),
            Some(_) => return self.error(false, "invalid number"),
            None => return self.error(strict, "invalid number"),
        }
        if self.peek_byte() == Some(b'.') {
            self.pos += 1;
            self.required_digit(strict)?;
        }
        if let Some(b'e' | b'E') = self.peek_byte() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek_byte() {
                self.pos += 1;
            }
            self.required_digit(strict)?;
        }
        match self.text.get(start..self.pos) {
            Some(text) => Ok(Number(text)),
            None => self.error(false, "invalid number"),
        }
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek_byte() {
            self.pos += 1;
        }
    }

    /// At least one digit (after `.` or an exponent's `e`).
    fn required_digit(&mut self, strict: bool) -> JsonResult<()> {
        match self.peek_byte() {
            Some(b'0'..=b'9') => {
                self.digits();
                Ok(())
            }
            Some(_) => self.error(false, "invalid number"),
            None => self.error(strict, "invalid number"),
        }
    }

    /// A string's contents after its opening quote, through its closing quote.
    /// `strict`: surrogate escapes must pair up (a Rust string needs it).
    fn string(&mut self, strict: bool) -> JsonResult<Cow<'a, str>> {
        let mut owned: Option<String> = None;
        let mut run = self.pos;
        loop {
            match self.peek_byte() {
                None => return self.error(true, "the text ends inside a string"),
                Some(b'"') => {
                    let tail = self.slice(run)?;
                    self.pos += 1;
                    return Ok(match owned {
                        Some(mut s) => {
                            s.push_str(tail);
                            Cow::Owned(s)
                        }
                        None => Cow::Borrowed(tail),
                    });
                }
                Some(b'\\') => {
                    let head = self.slice(run)?;
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(head);
                    self.pos += 1;
                    let c = self.escape(strict)?;
                    // Skipped strings keep nothing, so a lone surrogate has no char to be.
                    if let Some(c) = c {
                        s.push(c);
                    }
                    run = self.pos;
                }
                Some(0..=0x1F) => {
                    return self.error(false, "control character in a string (escape it)")
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    fn slice(&self, from: usize) -> JsonResult<&'a str> {
        match self.text.get(from..self.pos) {
            Some(s) => Ok(s),
            None => self.error(false, "invalid string"),
        }
    }

    /// One escape after its `\`: the char it stands for (`None` for a lone
    /// surrogate in a skipped string).
    fn escape(&mut self, strict: bool) -> JsonResult<Option<char>> {
        let c = match self.next_byte() {
            None => return self.error(true, "the text ends inside a string"),
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => return self.unicode_escape(strict),
            Some(_) => return self.error(false, "invalid escape"),
        };
        Ok(Some(c))
    }

    /// `XXXX` after `\u`, and the low surrogate's `\uXXXX` after a high one.
    fn unicode_escape(&mut self, strict: bool) -> JsonResult<Option<char>> {
        let high = self.hex4()?;
        if !strict {
            // Skipped: only the syntax counts, a surrogate half stands alone.
            return Ok(char::from_u32(high.into()));
        }
        if (0xDC00..=0xDFFF).contains(&high) {
            return self.error(false, "lone surrogate in a \\u escape");
        }
        if !(0xD800..=0xDBFF).contains(&high) {
            return Ok(char::from_u32(high.into()));
        }
        for expected in [b'\\', b'u'] {
            match self.next_byte() {
                Some(b) if b == expected => {}
                Some(_) => return self.error(false, "lone surrogate in a \\u escape"),
                None => return self.error(true, "the text ends inside a string"),
            }
        }
        let low = self.hex4()?;
        if !(0xDC00..=0xDFFF).contains(&low) {
            return self.error(false, "lone surrogate in a \\u escape");
        }
        let c = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
        Ok(char::from_u32(c))
    }

    /// Four hex digits.
    fn hex4(&mut self) -> JsonResult<u16> {
        let Some(digits) = self.bytes().get(self.pos..self.pos + 4) else {
            self.pos = self.bytes().len();
            return self.error(true, "the text ends inside a string");
        };
        let mut n = 0u16;
        for &d in digits {
            let v = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return self.error(false, "invalid \\u escape"),
            };
            n = n << 4 | u16::from(v);
        }
        self.pos += 4;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads any value into serde_json's Value (via this reader), for comparisons.
    fn read_all(r: &mut Reader) -> JsonResult<serde_json::Value> {
        use serde_json::Value as V;
        Ok(match r.value()? {
            Value::Null => V::Null,
            Value::Bool(b) => V::Bool(b),
            Value::Number(n) => match n.to_i64() {
                Ok(i) => V::from(i),
                Err(_) => V::String(format!("number {}", n.text())),
            },
            Value::String(s) => V::String(s.into_owned()),
            Value::Array => {
                let mut items = Vec::new();
                while r.next_element()? {
                    items.push(read_all(r)?);
                }
                V::Array(items)
            }
            Value::Object => {
                let mut map = serde_json::Map::new();
                while let Some(k) = r.next_key()? {
                    let v = read_all(r)?;
                    map.insert(k.into_owned(), v);
                }
                V::Object(map)
            }
        })
    }

    fn parse(text: &str) -> JsonResult<serde_json::Value> {
        let mut r = Reader::new(text);
        let v = read_all(&mut r)?;
        r.end()?;
        Ok(v)
    }

    fn skip(text: &str) -> JsonResult<()> {
        let mut r = Reader::new(text);
        r.skip()?;
        r.end()
    }

    #[test]
    fn reads_what_serde_json_reads() {
        for text in [
            r#"{"a":[1,-2,{"b":null}],"c":"d\"e\\\/\b\f\n\r\t\u00e9\ud83d\ude00","e":true,"f":false}"#,
            " [ ] ",
            "{}",
            "[[],[[]],{}]",
            "0",
            "-9223372036854775808",
            "9223372036854775807",
            r#""""#,
            "\"é😀\"",
        ] {
            let want: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
            assert_eq!(parse(text), Ok(want), "{text}");
            assert_eq!(skip(text), Ok(()), "{text}");
        }
    }

    #[test]
    fn classifies_failures_as_serde_json_does() {
        // (text, read: eof?, skip: eof?) — None = accepted.
        let cases: &[(&str, Option<bool>, Option<bool>)] = &[
            ("", Some(true), Some(true)),
            ("  ", Some(true), Some(true)),
            ("{", Some(true), Some(true)),
            ("{\"a\"", Some(true), Some(true)),
            ("{\"a\":", Some(true), Some(true)),
            ("{\"a\":1", Some(true), Some(true)),
            ("{\"a\":1,", Some(true), Some(true)),
            ("[1", Some(true), Some(true)),
            ("[1,", Some(true), Some(true)),
            ("\"abc", Some(true), Some(true)),
            ("\"a\\", Some(true), Some(true)),
            ("\"a\\u12", Some(true), Some(true)),
            ("\"a\\uD800", Some(true), Some(true)),
            ("\"a\\uD800\\", Some(true), Some(true)),
            ("nul", Some(true), Some(true)),
            ("-", Some(true), Some(false)),
            ("1.", Some(true), Some(false)),
            ("1e", Some(true), Some(false)),
            ("1e+", Some(true), Some(false)),
            ("01", Some(false), Some(false)),
            ("-x", Some(false), Some(false)),
            ("1.x", Some(false), Some(false)),
            (".5", Some(false), Some(false)),
            ("+1", Some(false), Some(false)),
            ("nulx", Some(false), Some(false)),
            ("{,}", Some(false), Some(false)),
            ("{\"a\":1,}", Some(false), Some(false)),
            ("[1,]", Some(false), Some(false)),
            ("[1 2]", Some(false), Some(false)),
            ("{\"a\" 1}", Some(false), Some(false)),
            ("{1:2}", Some(false), Some(false)),
            ("\"a\u{1}\"", Some(false), Some(false)),
            ("\"\\x\"", Some(false), Some(false)),
            ("\"\\u12G4\"", Some(false), Some(false)),
            ("\"\\uDC00\"", Some(false), None),
            ("\"\\uD800x\"", Some(false), None),
            ("\"\\uD800\\n\"", Some(false), None),
            ("\"\\uD800\\u0041\"", Some(false), None),
            ("[]]", Some(false), Some(false)),
            ("{} x", Some(false), Some(false)),
            ("[[] []]", Some(false), Some(false)),
            ("1e400", None, None),
            ("123456789012345678901234567890", None, None),
        ];
        for &(text, read, skipped) in cases {
            let serde: Result<serde_json::Value, _> = serde_json::from_str(text);
            let got = parse(text).map(|_| ()).map_err(|e| e.eof);
            assert_eq!(got.err(), read, "read {text:?}: {:?}", parse(text));
            if text != "1e400" {
                // The reference, but for numbers beyond f64 (see the module docs).
                assert_eq!(
                    serde.map(|_| ()).map_err(|e| e.is_eof()).err(),
                    read,
                    "serde_json {text:?}"
                );
            }
            let got = skip(text).map_err(|e| e.eof);
            assert_eq!(got.err(), skipped, "skip {text:?}");
            let ignored = serde_json::from_str::<serde::de::IgnoredAny>(text);
            assert_eq!(
                ignored.map(|_| ()).map_err(|e| e.is_eof()).err(),
                skipped,
                "serde_json ignoring {text:?}"
            );
        }
    }

    #[test]
    fn skips_deep_nesting_without_recursion() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(skip(&deep), Ok(()));
        let obj = format!("{}1{}", "{\"a\":".repeat(50_000), "}".repeat(50_000));
        assert_eq!(skip(&obj), Ok(()));
        assert_eq!(skip(&deep[..deep.len() - 1]).map_err(|e| e.eof), Err(true));
    }

    #[test]
    fn integers_are_read_exactly() {
        let n = |t: &'static str| Number(t).to_i64();
        assert_eq!(n("0"), Ok(0));
        assert_eq!(n("-1"), Ok(-1));
        assert_eq!(n("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(n("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(n("9223372036854775808"), Err(IntFault::OutOfRange));
        assert_eq!(n("-9223372036854775809"), Err(IntFault::OutOfRange));
        assert_eq!(n("99999999999999999999999"), Err(IntFault::OutOfRange));
        assert_eq!(n("-0"), Err(IntFault::NotInteger));
        assert_eq!(n("1.0"), Err(IntFault::NotInteger));
        assert_eq!(n("1e2"), Err(IntFault::NotInteger));
        assert_eq!(Number("4294967295").to_u32(), Ok(u32::MAX));
        assert_eq!(Number("4294967296").to_u32(), Err(IntFault::OutOfRange));
        assert_eq!(Number("-1").to_u32(), Err(IntFault::OutOfRange));
    }
}
