//! Strict base64 reading rules shared by every token decoder, on the `base64` crate.
//!
//! Every token this crate writes is base64url without padding (RFC 4648 §5),
//! so it can stand in a URL query or path unescaped. Reading is lenient in
//! exactly one way and strict in every other:
//!
//! - accepted: the URL-safe alphabet (`-`, `_`) **or** the standard one
//!   (`+`, `/`), with or without correct `=` padding;
//! - rejected, with a [`TokenFault`]: white space anywhere
//!   ([`Whitespace`](TokenFault::Whitespace), checked first: it is the usual
//!   copy-paste slip), any other character or an `=` inside the text
//!   ([`BadCharacter`](TokenFault::BadCharacter)), `-`/`_` together with
//!   `+`/`/` ([`MixedAlphabet`](TokenFault::MixedAlphabet)), padding of the
//!   wrong length or a length no base64 text can have
//!   ([`BadPadding`](TokenFault::BadPadding)), and a last character whose
//!   unused low bits are not zero ([`BadCharacter`](TokenFault::BadCharacter)).
//!
//! The last rule makes the text canonical: one byte string has exactly one
//! unpadded text per alphabet, so changing the last character of a token can
//! never decode to the same bytes. (Go's non-strict decoders, e.g. the
//! apiserver's `base64.RawURLEncoding`, ignore those bits; every encoder,
//! Go's included, writes them as zero.)
//!
//! The `base64` crate does the encoding and decoding; the rules are its engines' configuration
//! (one engine per alphabet and padding: canonical padding or none, trailing bits refused). Only
//! the diagnosis of a rejected text (which rule, where) is this module's.

use crate::error::TokenFault;
use crate::prelude::*;
use crate::text::quoted_char;
use base64::alphabet::{Alphabet, STANDARD, URL_SAFE};
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::{DecodeError, Engine};

/// The `base64` crate's engine for one alphabet and one padding rule, strict in every other way:
/// no padding written, unused low bits of the last character must be zero (canonical text).
const fn engine(alphabet: &Alphabet, padding: DecodePaddingMode) -> GeneralPurpose {
    GeneralPurpose::new(
        alphabet,
        GeneralPurposeConfig::new()
            .with_encode_padding(false)
            .with_decode_allow_trailing_bits(false)
            .with_decode_padding_mode(padding),
    )
}

/// URL-safe, unpadded: what [`encode`] writes and `url_only` reads.
const URL_RAW: GeneralPurpose = engine(&URL_SAFE, DecodePaddingMode::RequireNone);
/// URL-safe, padded (the padding exactly as long as the data needs).
const URL_PADDED: GeneralPurpose = engine(&URL_SAFE, DecodePaddingMode::RequireCanonical);
/// Standard alphabet, unpadded.
const STD_RAW: GeneralPurpose = engine(&STANDARD, DecodePaddingMode::RequireNone);
/// Standard alphabet, padded.
const STD_PADDED: GeneralPurpose = engine(&STANDARD, DecodePaddingMode::RequireCanonical);

/// How strictly [`decode_with`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DecodeRules {
    /// Longest text accepted, in bytes, checked before anything else
    /// ([`TokenFault::TooLong`]); `None` = no limit.
    pub max_len: Option<usize>,
    /// Accept only the URL-safe alphabet without padding, as Go's
    /// `base64.RawURLEncoding` does: `+` and `/` become
    /// [`BadCharacter`](TokenFault::BadCharacter), `=` [`BadPadding`](TokenFault::BadPadding).
    pub url_only: bool,
}

/// A rejected base64 text: the reason and a message that says where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Base64Error {
    /// Why the text was rejected.
    pub fault: TokenFault,
    /// What was found and where (byte offsets into the text), for error messages.
    pub message: String,
}

impl Base64Error {
    fn new(fault: TokenFault, message: impl Into<String>) -> Self {
        Base64Error {
            fault,
            message: message.into(),
        }
    }
}

/// Length of the unpadded base64 text of `n` bytes: `ceil(8n / 6)`.
pub fn encoded_len(n: usize) -> usize {
    base64::encoded_len(n, false).unwrap_or(usize::MAX)
}

/// Encodes bytes as base64url without padding (RFC 4648 §5).
///
/// Never fails. Example: `encode(b"+RID:~kubeapps/pkg-b==#RT:1#TRC:10")` is
/// `"K1JJRDp-a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMA"`.
pub fn encode(bytes: &[u8]) -> String {
    URL_RAW.encode(bytes)
}

/// Decodes base64 text by the rules in the module docs, with no length limit.
///
/// Accepts both alphabets, padded or not. Errors: [`TokenFault::Whitespace`],
/// [`TokenFault::BadCharacter`], [`TokenFault::MixedAlphabet`],
/// [`TokenFault::BadPadding`]. Use [`decode_with`] for a message or a limit.
pub fn decode(text: &str) -> Result<Vec<u8>, TokenFault> {
    decode_with(text, DecodeRules::default()).map_err(|e| e.fault)
}

/// Decodes base64 text by the rules in the module docs and `rules`.
///
/// Errors as [`decode`], plus [`TokenFault::TooLong`] when the text is over
/// `rules.max_len` (checked before any other work). The `base64` crate decodes, with the engine
/// the text's alphabet and padding call for (`url_only`: URL-safe, unpadded); a text it rejects
/// is then read again here, only to tell which rule it breaks and where.
pub fn decode_with(text: &str, rules: DecodeRules) -> Result<Vec<u8>, Base64Error> {
    let bytes = text.as_bytes();
    if let Some(max) = rules.max_len {
        if bytes.len() > max {
            return Err(Base64Error::new(
                TokenFault::TooLong,
                format!(
                    "the token is {} bytes long; at most {max} are accepted",
                    bytes.len()
                ),
            ));
        }
    }
    let padded = bytes.last() == Some(&b'=');
    let standard = bytes.iter().any(|&b| b == b'+' || b == b'/');
    let engine = match (rules.url_only, standard, padded) {
        (true, _, _) | (false, false, false) => &URL_RAW,
        (false, false, true) => &URL_PADDED,
        (false, true, false) => &STD_RAW,
        (false, true, true) => &STD_PADDED,
    };
    engine.decode(bytes).map_err(|e| diagnose(text, rules, e))
}

/// Why the engine rejected `text`: the first rule it breaks (in the order of the module docs),
/// with what was found and where.
fn diagnose(text: &str, rules: DecodeRules, error: DecodeError) -> Base64Error {
    if let Err(e) = check_characters(text, rules)
        .and_then(|data_len| check_padding(text.len(), data_len, rules))
    {
        return e;
    }
    // The characters and the padding are fine: what is left is the last character's unused bits.
    match error {
        DecodeError::InvalidLastSymbol { symbol, .. } => Base64Error::new(
            TokenFault::BadCharacter,
            format!("the last character {} sets bits past the end of the data; this is not how any encoder writes it (altered token?)", quoted_char(char::from(symbol))),
        ),
        other => Base64Error::new(TokenFault::BadCharacter, format!("{other}")),
    }
}

/// Checks every character; returns the length of the text before any `=`.
fn check_characters(text: &str, rules: DecodeRules) -> Result<usize, Base64Error> {
    let mut first_bad: Option<(usize, char)> = None;
    let mut first_url: Option<(usize, char)> = None;
    let mut first_std: Option<(usize, char)> = None;
    let mut first_pad: Option<usize> = None;
    for (at, c) in text.char_indices() {
        // White space wins over every other fault: it is the usual copy-paste slip.
        if c.is_whitespace() {
            return Err(Base64Error::new(
                TokenFault::Whitespace,
                format!(
                    "white space {} at byte {at}; tokens hold none (copied with a line break?)",
                    quoted_char(c)
                ),
            ));
        }
        let seen = match c {
            '=' => {
                first_pad.get_or_insert(at);
                continue;
            }
            '-' | '_' => &mut first_url,
            '+' | '/' => &mut first_std,
            c if c.is_ascii_alphanumeric() => {
                if first_pad.is_some() {
                    first_bad.get_or_insert((at, c));
                }
                continue;
            }
            c => {
                first_bad.get_or_insert((at, c));
                continue;
            }
        };
        seen.get_or_insert((at, c));
        if first_pad.is_some() {
            first_bad.get_or_insert((at, c));
        }
    }
    if let Some((at, c)) = first_bad {
        let what = if first_pad.is_some_and(|p| p < at)
            && (c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '/'))
        {
            format!(
                "{} at byte {at} follows '=' padding, which may only end the token",
                quoted_char(c)
            )
        } else {
            format!("character {} at byte {at} is not base64", quoted_char(c))
        };
        return Err(Base64Error::new(TokenFault::BadCharacter, what));
    }
    if let (Some((u_at, u)), Some((s_at, s))) = (first_url, first_std) {
        return Err(Base64Error::new(
            TokenFault::MixedAlphabet,
            format!("{} at byte {u_at} is URL-safe base64 but {} at byte {s_at} is standard base64; a token uses one alphabet", quoted_char(u), quoted_char(s)),
        ));
    }
    if rules.url_only {
        if let Some((at, c)) = first_std {
            return Err(Base64Error::new(
                TokenFault::BadCharacter,
                format!("{} at byte {at} is standard base64; this token is URL-safe base64 (RawURLEncoding)", quoted_char(c)),
            ));
        }
    }
    Ok(first_pad.unwrap_or(text.len()))
}

/// Checks the `=` padding and the length of the data part.
fn check_padding(text_len: usize, data_len: usize, rules: DecodeRules) -> Result<(), Base64Error> {
    let pad = text_len - data_len;
    if pad > 0 && rules.url_only {
        return Err(Base64Error::new(
            TokenFault::BadPadding,
            "'=' padding in a token that is written without padding (RawURLEncoding)",
        ));
    }
    let expected_pad = match data_len % 4 {
        0 => 0,
        1 => {
            return Err(Base64Error::new(
                TokenFault::BadPadding,
                format!("{data_len} base64 characters: no text has that length (a character is missing or extra)"),
            ))
        }
        2 => 2,
        _ => 1,
    };
    if pad != 0 && pad != expected_pad {
        return Err(Base64Error::new(
            TokenFault::BadPadding,
            format!("{pad} '=' after {data_len} characters; the padding must be {expected_pad} '=' or none"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_case_r13_plugin_token_round_trips() {
        let raw = "+RID:~kubeapps/pkg-b==#RT:1#TRC:10";
        let text = encode(raw.as_bytes());
        assert_eq!(text, "K1JJRDp-a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMA");
        assert_eq!(decode(&text).as_deref(), Ok(raw.as_bytes()));
    }

    #[test]
    fn encoded_len_matches_encode() {
        for n in 0..20 {
            assert_eq!(encode(&vec![0xA5; n]).len(), encoded_len(n), "n = {n}");
        }
    }
}
