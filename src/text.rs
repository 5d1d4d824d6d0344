//! Text helpers: Unicode's lowercase mapping, and the text of error messages.
//!
//! Messages are built with `text!` from pieces (strings and integers) rather
//! than with `format!`: the wasm build then needs none of `core::fmt` (its formatting machinery
//! and the `Display` impls it reaches are several KB of wasm).
//!
//! Messages quote strings and characters like Rust's `{:?}` for `str` and `char`, but escaping only quotes, backslashes and control
//! characters (`\n`, `\r`, `\t`, `\0`, else `\u{..}`); every other character is shown as it is.
//! (`{:?}` also escapes the characters Unicode does not call printable, which takes Unicode's
//! tables into the wasm, for messages meant for people.)

use alloc::string::String;

/// Text made of pieces, like `format!` without a format string:
/// `text!("offset ", n, " of ", quoted(name))`.
///
/// Each piece is a [`Piece`]: a string (`&str`, `String`, `char`) or an integer, written in decimal.
macro_rules! text {
    // A literal piece is passed by value: `&"…"` would be promoted to a static `&str` (its
    // pointer and length, 8 bytes of data per piece) that the code then loads (size).
    (@push $out:ident; $lit:literal $(, $($rest:tt)*)?) => {
        $crate::text::Literal::push_literal($lit, &mut $out);
        $( $crate::text::text!(@push $out; $($rest)*); )?
    };
    (@push $out:ident; $piece:expr $(, $($rest:tt)*)?) => {
        $crate::text::Piece::push_to(&$piece, &mut $out);
        $( $crate::text::text!(@push $out; $($rest)*); )?
    };
    (@push $out:ident;) => {};
    ($($piece:tt)*) => {{
        #[allow(unused_mut)] // `text!()` has no piece to push
        let mut out = ::alloc::string::String::new();
        $crate::text::text!(@push out; $($piece)*);
        out
    }};
}
pub(crate) use text;

/// A piece of `text!` (the crate's message macro): appends itself to a string.
pub trait Piece {
    /// Appends this piece to `out`.
    fn push_to(&self, out: &mut String);
}

impl Piece for str {
    fn push_to(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for String {
    fn push_to(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for char {
    fn push_to(&self, out: &mut String) {
        out.push(*self);
    }
}

impl<T: Piece + ?Sized> Piece for &T {
    fn push_to(&self, out: &mut String) {
        (**self).push_to(out);
    }
}

/// A literal piece of `text!`, taken by value (see the macro).
pub trait Literal {
    /// Appends this literal to `out`.
    fn push_literal(self, out: &mut String);
}

impl Literal for char {
    fn push_literal(self, out: &mut String) {
        out.push(self);
    }
}

impl Literal for &str {
    fn push_literal(self, out: &mut String) {
        self.push_to(out);
    }
}

/// Integers, in decimal.
macro_rules! decimal_pieces {
    ($($t:ty),*) => {$(
        impl Piece for $t {
            fn push_to(&self, out: &mut String) {
                if *self < 0 as $t {
                    out.push('-');
                }
                push_u64(out, (*self as i128).unsigned_abs() as u64);
            }
        }

        impl Literal for $t {
            fn push_literal(self, out: &mut String) {
                self.push_to(out);
            }
        }
    )*};
}
decimal_pieces!(u8, u16, u32, u64, usize, i32, i64);

/// Appends `n` in decimal.
pub fn push_u64(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    // Filled from the end by an iterator, read back by `get`: no index panic paths (size).
    for d in digits.iter_mut().rev() {
        *d = b'0' + (n % 10) as u8;
        n /= 10;
        start -= 1;
        if n == 0 {
            break;
        }
    }
    for &d in digits.get(start..).unwrap_or_default() {
        out.push(char::from(d));
    }
}

/// `n` in decimal, e.g. `-17`.
pub fn decimal(n: i64) -> String {
    text!(n)
}

/// `n` as 16 lowercase hex digits (fingerprints).
pub fn hex16(n: u64) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(16);
    for i in (0..16).rev() {
        out.push(char::from(HEX[(n >> (4 * i)) as usize & 0xF]));
    }
    out
}

/// Unicode's default lowercase mapping of `s`: full mappings (`İ` becomes two code points) and
/// the final-sigma rule, locale-independent (Rust's [`str::to_lowercase`], the same on every
/// target). The sort key of `displayName` and the filter's `query` use it. It is Rust's own, not
/// the JS engine's `toLowerCase`: the order must not depend on the browser's Unicode version,
/// since page tokens move between browsers.
pub fn lowercase(s: &str) -> String {
    s.to_lowercase()
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
    use alloc::format;

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
    fn text_writes_strings_and_integers() {
        let name = String::from("n");
        assert_eq!(
            text!(
                "a",
                name,
                &name,
                'c',
                0u8,
                u64::MAX,
                i64::MIN,
                -1i32,
                usize::MAX
            ),
            format!("an{name}c0{}{}-1{}", u64::MAX, i64::MIN, usize::MAX)
        );
        assert_eq!(text!(), "");
        assert_eq!(hex16(0xfeed_0000_0000_00ab), "feed0000000000ab");
        assert_eq!(decimal(-17), "-17");
    }

    #[test]
    fn shown_clips_long_values() {
        let long = "x".repeat(70);
        assert_eq!(shown(&long), format!("\"{}\"…", "x".repeat(64)));
        assert_eq!(shown("short"), "\"short\"");
    }
}
