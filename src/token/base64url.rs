//! Strict base64 reading rules shared by every token decoder.
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

use crate::error::TokenFault;
use crate::prelude::*;
use crate::text::quoted_char;

/// The URL-safe alphabet (RFC 4648 §5), the one [`encode`] writes.
const URL_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Marks a byte that is not a base64 digit in [`DIGIT`].
const NOT_DIGIT: u8 = 0xFF;

/// Value of each byte as a base64 digit, for both alphabets; [`NOT_DIGIT`] otherwise.
const DIGIT: [u8; 256] = {
    let mut table = [NOT_DIGIT; 256];
    let mut i = 0;
    while i < 64 {
        table[URL_ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    table[b'+' as usize] = 62;
    table[b'/' as usize] = 63;
    table
};

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
    // n / 3 full groups of 4 characters, then 0, 2 or 3 characters for the rest.
    let rest = match n % 3 {
        0 => 0,
        1 => 2,
        _ => 3,
    };
    (n / 3).saturating_mul(4).saturating_add(rest)
}

/// Encodes bytes as base64url without padding (RFC 4648 §5).
///
/// Never fails. Example: `encode(b"+RID:~kubeapps/pkg-b==#RT:1#TRC:10")` is
/// `"K1JJRDp-a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMA"`.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(encoded_len(bytes.len()));
    let digit = |v: u32| char::from(URL_ALPHABET[(v & 0x3F) as usize]);
    // Bits in, 6 at a time out (no 3-byte groups to index: no bounds checks; size).
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in bytes {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        while bits >= 6 {
            bits -= 6;
            out.push(digit(acc >> bits));
        }
    }
    if bits > 0 {
        out.push(digit(acc << (6 - bits)));
    }
    out
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
/// `rules.max_len` (checked before any other work). Allocates only the result
/// (at most `3 * text.len() / 4` bytes) and, on error, the message.
pub fn decode_with(text: &str, rules: DecodeRules) -> Result<Vec<u8>, Base64Error> {
    let bytes = text.as_bytes();
    if let Some(max) = rules.max_len {
        if bytes.len() > max {
            return Err(Base64Error::new(
                TokenFault::TooLong,
                text!(
                    "the token is ",
                    bytes.len(),
                    " bytes long; at most ",
                    max,
                    " are accepted"
                ),
            ));
        }
    }
    // One table lookup a byte: a text of URL-safe digits only (every token this crate writes)
    // or, when allowed, of standard ones only, with no `=`, needs no other check of its
    // characters. Anything else goes through `check_characters`, which finds the fault and says where.
    // Only where the codec is built (`decodePageToken`'s speed): the shipped pager module, which
    // decodes a continue token per chunk and a page token per resume, keeps its size (+68 B gzip).
    #[cfg(feature = "codec")]
    let data_len = match plain_alphabet(bytes) {
        0 => check_characters(text, rules)?,
        CLASS_STD if rules.url_only => check_characters(text, rules)?,
        _ => bytes.len(),
    };
    #[cfg(not(feature = "codec"))]
    let data_len = check_characters(text, rules)?;
    check_padding(bytes.len(), data_len, rules)?;
    // `get`: `data_len` is never over the length, and no panic path (size).
    decode_digits(bytes.get(..data_len).unwrap_or_default())
}

/// [`CLASS`] of an alphanumeric byte or of `-`/`_` (the URL-safe alphabet).
#[cfg(feature = "codec")]
const CLASS_URL: u8 = 1;
/// [`CLASS`] of an alphanumeric byte or of `+`/`/` (the standard alphabet).
#[cfg(feature = "codec")]
const CLASS_STD: u8 = 2;
/// Per byte: `CLASS_URL | CLASS_STD` for `A-Z a-z 0-9`, `CLASS_URL` for `-` `_`, `CLASS_STD` for
/// `+` `/`, 0 for anything else (`=`, white space, other bytes, UTF-8 bytes of non-ASCII).
#[cfg(feature = "codec")]
const CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 62 {
        table[URL_ALPHABET[i] as usize] = CLASS_URL | CLASS_STD;
        i += 1;
    }
    table[b'-' as usize] = CLASS_URL;
    table[b'_' as usize] = CLASS_URL;
    table[b'+' as usize] = CLASS_STD;
    table[b'/' as usize] = CLASS_STD;
    table
};

/// Which one alphabet every byte belongs to: `CLASS_URL`, `CLASS_STD`, `CLASS_URL | CLASS_STD`
/// (alphanumerics only, or an empty text: both), or 0 (a byte of neither, or the two mixed).
#[cfg(feature = "codec")]
fn plain_alphabet(bytes: &[u8]) -> u8 {
    bytes
        .iter()
        .fold(CLASS_URL | CLASS_STD, |all, &b| all & CLASS[usize::from(b)])
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
                text!(
                    "white space ",
                    quoted_char(c),
                    " at byte ",
                    at,
                    "; tokens hold none (copied with a line break?)"
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
            && c.is_ascii()
            && DIGIT[c as usize] != NOT_DIGIT
        {
            text!(
                quoted_char(c),
                " at byte ",
                at,
                " follows '=' padding, which may only end the token"
            )
        } else {
            text!(
                "character ",
                quoted_char(c),
                " at byte ",
                at,
                " is not base64"
            )
        };
        return Err(Base64Error::new(TokenFault::BadCharacter, what));
    }
    if let (Some((u_at, u)), Some((s_at, s))) = (first_url, first_std) {
        return Err(Base64Error::new(
            TokenFault::MixedAlphabet,
            text!(
                quoted_char(u),
                " at byte ",
                u_at,
                " is URL-safe base64 but ",
                quoted_char(s),
                " at byte ",
                s_at,
                " is standard base64; a token uses one alphabet"
            ),
        ));
    }
    if rules.url_only {
        if let Some((at, c)) = first_std {
            return Err(Base64Error::new(
                TokenFault::BadCharacter,
                text!(
                    quoted_char(c),
                    " at byte ",
                    at,
                    " is standard base64; this token is URL-safe base64 (RawURLEncoding)"
                ),
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
                text!(
                    data_len,
                    " base64 characters: no text has that length (a character is missing or extra)"
                ),
            ))
        }
        2 => 2,
        _ => 1,
    };
    if pad != 0 && pad != expected_pad {
        return Err(Base64Error::new(
            TokenFault::BadPadding,
            text!(
                pad,
                " '=' after ",
                data_len,
                " characters; the padding must be ",
                expected_pad,
                " '=' or none"
            ),
        ));
    }
    Ok(())
}

/// Decodes digits already checked by [`check_characters`] (no `=`, a valid length).
fn decode_digits(digits: &[u8]) -> Result<Vec<u8>, Base64Error> {
    let mut out = Vec::with_capacity(digits.len() / 4 * 3 + 2);
    // 6 bits in, 8 at a time out (no 4-digit groups to index: no bounds checks; size). The
    // bits left at the end (4 after a 2-digit rest, 2 after a 3-digit one) must be zero.
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in digits {
        acc = (acc << 6) | u32::from(DIGIT[usize::from(b)] & 0x3F);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    if let Some(&last) = digits.last() {
        if acc & ((1 << bits) - 1) != 0 {
            return Err(Base64Error::new(
                TokenFault::BadCharacter,
                text!("the last character ", quoted_char(char::from(last)), " sets bits past the end of the data; this is not how any encoder writes it (altered token?)"),
            ));
        }
    }
    Ok(out)
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
