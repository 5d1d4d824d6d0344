//! Text helpers: Unicode's lowercase mapping, and text shown in error messages.
//!
//! Messages quote strings and characters like Rust's `{:?}` for `str` and `char`, but escaping only quotes, backslashes and control
//! characters (`\n`, `\r`, `\t`, `\0`, else `\u{..}`); every other character is shown as it is.
//! (`{:?}` also escapes the characters Unicode does not call printable, which takes Unicode's
//! tables into the wasm, for messages meant for people.)

use crate::prelude::*;

/// Unicode's default lowercase mapping of `s`: full mappings (`İ` becomes two code points) and
/// the final-sigma rule, locale-independent. The sort key of `displayName` and the filter's
/// `query` use it.
///
/// This is Rust's [`str::to_lowercase`]; the wasm build asks JS's `String.prototype.toLowerCase`
/// instead, the same mapping by the ECMAScript spec (Unicode's `SpecialCasing` context rules
/// included), so the wasm carries no copy of Unicode's case tables (~18 KB). A wasm test checks
/// the two agree for every code point and the sigma contexts.
pub fn lowercase(s: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        crate::wasm::lowercase(s)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        s.to_lowercase()
    }
}

/// `s` in double quotes, escaped.
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        push_escaped(&mut out, c, '"');
    }
    out.push('"');
    out
}

/// At most the first 64 characters of `s` (then `…`), quoted: for values that may be long.
pub fn shown(s: &str) -> String {
    const MAX: usize = 64;
    match s.char_indices().nth(MAX) {
        Some((at, _)) => {
            let mut out = quoted(s.get(..at).unwrap_or(s));
            out.push('…');
            out
        }
        None => quoted(s),
    }
}

/// `c` in single quotes, escaped.
pub fn quoted_char(c: char) -> String {
    let mut out = String::with_capacity(4);
    out.push('\'');
    push_escaped(&mut out, c, '\'');
    out.push('\'');
    out
}

fn push_escaped(out: &mut String, c: char, quote: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\0' => out.push_str("\\0"),
        c if c == quote => {
            out.push('\\');
            out.push(c);
        }
        c if c.is_control() => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u{");
            let n = c as u32;
            // Control characters are below U+00A0: two hex digits, or one below 0x10.
            if n >= 0x10 {
                out.push(char::from(HEX[(n >> 4) as usize & 0xF]));
            }
            out.push(char::from(HEX[n as usize & 0xF]));
            out.push('}');
        }
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_debug_for_quotes_backslashes_and_controls() {
        for s in [
            "",
            "plain",
            "q\"b\\",
            "a\nb\r\t\0",
            "\u{1}\u{1f}\u{7f}\u{9f}",
            "é😀'",
        ] {
            assert_eq!(quoted(s), format!("{s:?}"), "{s:?}");
        }
        for c in ['!', '\'', '"', '\n', ' ', '\u{1}', '\u{7f}', 'é'] {
            assert_eq!(quoted_char(c), format!("{c:?}"), "{c:?}");
        }
    }

    #[test]
    fn shown_clips_long_values() {
        let long = "x".repeat(70);
        assert_eq!(shown(&long), format!("\"{}\"…", "x".repeat(64)));
        assert_eq!(shown("short"), "\"short\"");
    }
}
