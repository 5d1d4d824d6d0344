//! Text helpers: Unicode's lowercase mapping, and pieces of error messages (built with
//! `format!`).

use crate::prelude::*;

/// `n` as 16 lowercase hex digits (fingerprints).
pub fn hex16(n: u64) -> String {
    format!("{n:016x}")
}

/// Unicode's default lowercase mapping of `s`: full mappings (`İ` becomes two code points) and
/// the final-sigma rule, locale-independent (Rust's [`str::to_lowercase`], the same on every
/// target). The sort key of `displayName` and the filter's `query` use it. It is Rust's own, not
/// the JS engine's `toLowerCase`: the order must not depend on the browser's Unicode version,
/// since page tokens move between browsers.
pub fn lowercase(s: &str) -> String {
    s.to_lowercase()
}

/// `s` in double quotes, escaped as Rust's `{:?}` escapes a `str`.
pub fn quoted(s: &str) -> String {
    format!("{s:?}")
}

/// At most the first 64 characters of `s` (then `…`), quoted: for values that may be long.
pub fn shown(s: &str) -> String {
    const MAX: usize = 64;
    match s.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", quoted(&s[..at])),
        None => quoted(s),
    }
}

/// `c` in single quotes, escaped as Rust's `{:?}` escapes a `char`.
pub fn quoted_char(c: char) -> String {
    format!("{c:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_clips_long_values() {
        let long = "x".repeat(70);
        assert_eq!(shown(&long), format!("\"{}\"…", "x".repeat(64)));
        assert_eq!(shown("short"), "\"short\"");
        assert_eq!(hex16(0xfeed_0000_0000_00ab), "feed0000000000ab");
    }
}
