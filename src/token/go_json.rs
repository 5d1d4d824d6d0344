//! JSON strings exactly as Go's `encoding/json` writes them (`json.Marshal`, with its default HTML
//! escaping, Go 1.22 or later: every supported Kubernetes release and Kubeapps are built with one),
//! for the token formats whose text Go writes: continue tokens and Kubeapps core tokens.
//!
//! Contract of [`write_string`]: `"` and `\` escaped with a backslash; `\b \f \n \r \t` in their
//! short forms; other control characters, `<`, `>`, `&` as `\u00XX` (lowercase hex); U+2028 and
//! U+2029 as `\u2028`, `\u2029`; everything else as it is (UTF-8). [`string_len`] is its length
//! without writing it, and [`unescape`] reads it back. Reading Go's JSON in general (other
//! spellings, keys, numbers) is [`super::json`]'s job, not this module's.

use crate::prelude::*;

/// Length in bytes of `s` written by [`write_string`], quotes included.
pub(crate) fn string_len(s: &str) -> usize {
    let mut len = 2usize;
    for c in s.chars() {
        let n = match c {
            '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
            '\u{2028}' | '\u{2029}' => 6,
            c if (c as u32) < 0x20 || c == '<' || c == '>' || c == '&' => 6,
            c => c.len_utf8(),
        };
        len = len.saturating_add(n);
    }
    len
}

/// Appends `s` to `out` as a JSON string, quotes included, exactly as Go's `encoding/json`
/// writes it (see the module docs).
pub(crate) fn write_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Go 1.22 writes these two short forms (before: \u0008, \u000c).
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 || c == '<' || c == '>' || c == '&' => {
                let b = c as u32;
                out.push_str("\\u00");
                out.push(char::from(HEX[(b >> 4) as usize & 0xF]));
                out.push(char::from(HEX[b as usize & 0xF]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The inside of a JSON string (without its quotes) as [`write_string`] writes it, unescaped;
/// `None` for an escape it cannot read or text that is not UTF-8. Lenient (e.g. `\/` or `\u0041`
/// are read too): a caller that needs the canonical text checks the result by writing it back.
pub(crate) fn unescape(s: &[u8]) -> Option<String> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while let Some(&b) = s.get(i) {
        i += 1;
        if b != b'\\' {
            out.push(b);
            continue;
        }
        let escaped = match *s.get(i)? {
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hex = s.get(i + 1..i + 5)?;
                i += 4;
                let digit = |h: &u8| char::from(*h).to_digit(16);
                char::from_u32(hex.iter().try_fold(0, |n, h| Some(n << 4 | digit(h)?))?)?
            }
            other => char::from(other),
        };
        i += 1;
        out.extend_from_slice(escaped.encode_utf8(&mut [0; 4]).as_bytes());
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVERY_ESCAPE: &str = "a\"\\\n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f}<>&\u{2028}\u{2029}é😀";

    #[test]
    fn json_length_is_counted_exactly() {
        let mut out = String::new();
        write_string(&mut out, EVERY_ESCAPE);
        assert_eq!(string_len(EVERY_ESCAPE), out.len(), "{out}");
    }

    #[test]
    fn writes_what_go_writes_and_reads_it_back() {
        let mut out = String::new();
        write_string(&mut out, EVERY_ESCAPE);
        // What Go 1.22's json.Marshal writes for the same string.
        let go = String::from(r#""a\"\\\n\r\t\b\f\u0001\u001f"#)
            + "\u{7f}"
            + r#"\u003c\u003e\u0026\u2028\u2029é😀""#;
        assert_eq!(out, go);
        let inside = out.get(1..out.len() - 1).unwrap_or_default();
        assert_eq!(unescape(inside.as_bytes()).as_deref(), Some(EVERY_ESCAPE));
        assert_eq!(unescape(br"\u00"), None, "a cut escape");
        assert_eq!(unescape(br"\ud800"), None, "a lone surrogate");
    }
}
