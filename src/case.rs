//! Unicode's default lowercase mapping, as Rust's `str::to_lowercase` computes it, from compact
//! tables.
//!
//! `str::to_lowercase` is the reference (the sort order of `displayName` and the filter's query
//! must not depend on the browser), but in the wasm it costs ~20 KB: std's table is one 8-byte
//! entry per mapped character (1,488 of them), and its final-sigma rule slices `str`s, which
//! brings `Debug` formatting of chars and Unicode's printable tables along through its panic
//! path. The same mapping here is 185 runs (`c + delta` for every `stride`-th character of a
//! range) and two range tables for the final-sigma rule (as LEB128 varints), about a third of
//! that, with no panic path.
//!
//! The tables (module `tables`) are generated from std itself: `cargo test --lib case::tests::print_tables
//! -- --ignored --nocapture` prints them. The mapping runs are read off `char::to_lowercase`; the
//! final-sigma properties off `str::to_lowercase`'s own behaviour (in `"ΑcΣ"` the sigma is final
//! when `c` is case-ignorable or cased; in `"cΣ"` when `c` is cased and not case-ignorable). A test
//! checks the result against `str::to_lowercase` for every code point and every sigma context, so
//! a Rust release with a newer Unicode fails it until the tables are printed again.

use crate::prelude::*;

mod tables;

/// Every how many ranges `in_ranges`' tables have an index entry (the printer's; the tables
/// carry the index it wrote).
#[cfg_attr(not(test), allow(dead_code))]
const INDEX_STEP: usize = 32;

/// A run of the single-character mapping: `len` characters `start`, `start + stride`, ... each
/// map to itself plus `delta`. Packed into 8 bytes, not 16 (size): `start` above bit 8, `len`
/// (below 128) in bits 1 to 7, `stride - 1` (a stride is 1 or 2) in bit 0.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Run {
    packed: u32,
    delta: i32,
}

impl Run {
    /// A run; `len` below 128 and `stride` 1 or 2 (checked when the tables compile).
    pub(crate) const fn new(start: u32, len: u32, stride: u32, delta: i32) -> Self {
        assert!(len < 128 && (stride == 1 || stride == 2) && start < 1 << 24);
        Run {
            packed: start << 8 | len << 1 | (stride - 1),
            delta,
        }
    }

    fn start(self) -> u32 {
        self.packed >> 8
    }

    fn len(self) -> u32 {
        (self.packed >> 1) & 0x7F
    }

    fn stride(self) -> u32 {
        (self.packed & 1) + 1
    }
}

/// Unicode's default lowercase mapping of `s`: the same as `str::to_lowercase` (full mappings,
/// `İ` to two code points, and the final-sigma rule), locale-independent.
pub fn lowercase(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        match c {
            'Σ' => out.push(if is_final_sigma(s, i) { 'ς' } else { 'σ' }),
            // The one character whose lowercase is two code points.
            'İ' => out.push_str("i\u{307}"),
            c => out.push(lower_char(c)),
        }
    }
    out
}

/// The single-character lowercase of `c` (every character but `Σ` and `İ`).
fn lower_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let n = c as u32;
    let runs = tables::LOWER_RUNS;
    let Some(run) = runs
        .partition_point(|r| r.start() <= n)
        .checked_sub(1)
        .and_then(|i| runs.get(i))
    else {
        return c;
    };
    let offset = n - run.start();
    if offset % run.stride() == 0 && offset / run.stride() < run.len() {
        char::from_u32(n.wrapping_add_signed(run.delta)).unwrap_or(c)
    } else {
        c
    }
}

/// Whether `c` is in one of the `ranges`: sorted, disjoint ranges, each written as (gap from the
/// end of the range before, or from 0; length), each number an unsigned LEB128 varint (7 bits a
/// byte, low bits first, the high bit set on every byte but a number's last). `index` holds, for
/// every [`INDEX_STEP`]th range, where the one before it ended (one past) and the range's byte
/// offset, so that a lookup reads at most that many ranges (the exhaustive test runs unoptimised).
///
/// The varints are a quarter of the size of `(u32, u32)` pairs (4.9 KB → 1.3 KB); only the
/// final-sigma rule reads these tables, for the few characters around a `Σ`.
fn in_ranges(ranges: &[u8], index: &[(u32, u16)], c: char) -> bool {
    let n = c as u32;
    // The last index entry at or before `n` (a few dozen at most: a scan).
    let (mut end, mut offset) = (0u32, 0usize);
    for &(before, at) in index {
        if before > n {
            break;
        }
        (end, offset) = (before, usize::from(at));
    }
    let mut start = 0u32; // the range read last: start, and `end` one past its end
    let (mut value, mut shift, mut is_len) = (0u32, 0u32, false);
    for &b in ranges.get(offset..).unwrap_or(&[]) {
        value |= u32::from(b & 0x7F).wrapping_shl(shift);
        if b >= 0x80 {
            shift += 7;
            continue;
        }
        if is_len {
            end = start.wrapping_add(value);
            if n < end {
                return true;
            }
        } else {
            start = end.wrapping_add(value);
            if n < start {
                return false;
            }
        }
        (value, shift, is_len) = (0, 0, !is_len);
    }
    false
}

/// Whether the first character of `chars` that is not case-ignorable is cased.
fn case_ignorable_then_cased(mut chars: impl Iterator<Item = char>) -> bool {
    chars
        .find(|&c| !in_ranges(tables::CASE_IGNORABLE, tables::CASE_IGNORABLE_INDEX, c))
        .is_some_and(|c| in_ranges(tables::CASED, tables::CASED_INDEX, c))
}

/// Unicode's `Final_Sigma` for the `Σ` at byte `i` of `s`: a cased letter before it and none
/// after it (case-ignorable characters in between skipped), as `str::to_lowercase` decides it.
fn is_final_sigma(s: &str, i: usize) -> bool {
    let before = s.get(..i).unwrap_or("");
    let after = s.get(i + 'Σ'.len_utf8()..).unwrap_or("");
    case_ignorable_then_cased(before.chars().rev()) && !case_ignorable_then_cased(after.chars())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use std::println;

    fn every_char() -> impl Iterator<Item = char> {
        (0..=0x10FFFFu32).filter_map(char::from_u32)
    }

    #[test]
    fn is_str_to_lowercase_for_every_code_point_and_sigma_context() {
        for c in every_char() {
            for text in [
                format!("{c}"),
                format!("Α{c}Σ"),
                format!("{c}Σ"),
                format!("ΑΣ{c}"),
                format!("Α{c}ΣΑ"),
                format!("ΑΣ{c}Α"),
            ] {
                assert_eq!(
                    lowercase(&text),
                    text.to_lowercase(),
                    "{text:?} (U+{:04X}): print the tables again (see the module docs)",
                    c as u32
                );
            }
        }
    }

    #[test]
    fn is_str_to_lowercase_for_mixed_text() {
        for text in [
            "",
            "ApAcHe HTTP Server",
            "ΟΔΟΣ ΟΔΟΣ. Σ ΣΣ ΑΣ'Σ",
            "İSTANBUL Kelvin K Ω Å ǅ ᾈ",
            "Ⱥ Ɫ ꞵ 𐐀 𞤀 Ａ",
            "a\u{300}Σ\u{300} \u{345}Σ",
        ] {
            assert_eq!(lowercase(text), text.to_lowercase(), "{text:?}");
        }
    }

    /// Prints [`tables`] from std: `cargo test --lib case::tests::print_tables -- --ignored --nocapture`.
    #[test]
    #[ignore = "prints the tables; run by hand after a Unicode update"]
    fn print_tables() {
        let single = |c: char| {
            let mut l = c.to_lowercase();
            l.next().filter(|_| l.next().is_none())
        };
        let maps: Vec<(u32, i64)> = every_char()
            .filter(|&c| c != 'Σ')
            .filter_map(|c| {
                single(c)
                    .filter(|&l| l != c)
                    .map(|l| (c as u32, l as i64 - c as i64))
            })
            .collect();
        println!("pub(crate) const LOWER_RUNS: &[Run] = &[");
        let mut i = 0;
        while i < maps.len() {
            let (start, delta) = maps[i];
            let run_len = |stride: u32| {
                (1..)
                    .take_while(|&n| {
                        maps.get(i + n)
                            .is_some_and(|&(c, d)| c == start + n as u32 * stride && d == delta)
                    })
                    .count()
                    + 1
            };
            let (len, stride) = if run_len(2) > run_len(1) {
                (run_len(2), 2)
            } else {
                (run_len(1), 1)
            };
            println!("    Run::new(0x{start:04X}, {len}, {stride}, {delta}),");
            i += len;
        }
        println!("];");
        let final_sigma = |s: String| s.to_lowercase().ends_with('ς');
        let ignorable = |c: char| final_sigma(format!("Α{c}Σ")) && !final_sigma(format!("{c}Σ"));
        let cased = |c: char| final_sigma(format!("{c}Σ"));
        // Each range as (gap from the end of the one before, length), LEB128 varints (see `in_ranges`).
        let leb128 = |mut v: u32| {
            let mut out = Vec::new();
            loop {
                let b = (v & 0x7F) as u8;
                v >>= 7;
                if v == 0 {
                    out.push(b);
                    return out;
                }
                out.push(b | 0x80);
            }
        };
        for (name, test) in [
            ("CASE_IGNORABLE", &ignorable as &dyn Fn(char) -> bool),
            ("CASED", &cased),
        ] {
            println!("pub(crate) const {name}: &[u8] = &[");
            let mut ranges: Vec<(u32, u32)> = Vec::new();
            for c in every_char().filter(|&c| test(c)) {
                match ranges.last_mut() {
                    Some((_, end)) if *end + 1 == c as u32 => *end = c as u32,
                    _ => ranges.push((c as u32, c as u32)),
                }
            }
            let (mut after, mut offset) = (0, 0); // one past the range before; bytes so far
            let mut index = Vec::new();
            for (i, (s, e)) in ranges.into_iter().enumerate() {
                if i % INDEX_STEP == 0 {
                    index.push((after, offset));
                }
                let bytes = [leb128(s - after), leb128(e - s + 1)].concat();
                offset += bytes.len();
                let bytes: Vec<String> = bytes.iter().map(|b| format!("0x{b:02X},")).collect();
                println!("    {} // U+{s:04X}..=U+{e:04X}", bytes.join(" "));
                after = e + 1;
            }
            println!("];");
            println!("pub(crate) const {name}_INDEX: &[(u32, u16)] = &[");
            for (after, offset) in index {
                println!("    (0x{after:04X}, {offset}),");
            }
            println!("];");
        }
    }
}
