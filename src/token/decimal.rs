//! Canonical decimal text: the one spelling of a number that the token formats treat as a
//! number (a Kubeapps plugin offset, a page token's compact `Text 2` form, a continue token's
//! `rv` as the apiserver writes it).
//!
//! Canonical means ASCII digits only, no sign, no leading zero (`0` itself aside), within `u64`:
//! exactly what Go's `strconv.FormatUint` and Rust's `{}` write, so a text read as a number writes
//! back byte for byte. Read by hand: `str::parse` brings its general radix parser into the wasm
//! (size).

/// `text` as a number when it is exactly how that number is written in decimal (see the module
/// docs); `None` for anything else, including `""`, `+1`, `007` and values over `u64::MAX`.
pub(crate) fn canonical_decimal(text: &str) -> Option<u64> {
    canonical_decimal_bytes(text.as_bytes())
}

/// [`canonical_decimal`] of bytes.
pub(crate) fn canonical_decimal_bytes(b: &[u8]) -> Option<u64> {
    if b.is_empty() || (b.len() > 1 && b.first() == Some(&b'0')) {
        return None;
    }
    let mut n: u64 = 0;
    for &c in b {
        let digit = c.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(digit))?;
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;

    #[test]
    fn only_the_canonical_spelling_is_a_number() {
        for (text, want) in [
            ("0", Some(0)),
            ("7", Some(7)),
            ("1068", Some(1068)),
            ("18446744073709551615", Some(u64::MAX)),
            ("18446744073709551616", None),
            ("99999999999999999999", None),
            ("", None),
            ("00", None),
            ("007", None),
            ("+1", None),
            ("-1", None),
            (" 1", None),
            ("1 ", None),
            ("1.0", None),
            ("1e3", None),
            ("\u{661}", None),
        ] {
            assert_eq!(canonical_decimal(text), want, "{text:?}");
            if let Some(n) = want {
                assert_eq!(format!("{n}"), text, "writes back");
            }
        }
    }
}
