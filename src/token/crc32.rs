//! CRC-32 as the page token's integrity check: the IEEE 802.3 / zlib CRC
//! (reflected, polynomial `0xEDB88320`, initial value and final XOR `!0`),
//! the same function as `crc32fast::hash` and Go's `crc32.ChecksumIEEE`.
//!
//! Computed four bits at a time from a 16-entry (64-byte) table: a page token
//! is at most 8 KiB, so the byte-wide table-driven form (1 KiB of table, or
//! 16 KiB for slicing-by-16 as `crc32fast` uses) would cost more in the
//! shipped wasm than it saves in time; bit by bit took a few µs on every page.

/// The CRC-32 (IEEE) of `bytes`. Check value: `crc32(b"123456789") == 0xCBF4_3926`.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        // Four bits at a time (a 64-byte table: a quarter of the bitwise steps, almost no size).
        crc = (crc >> 4) ^ NIBBLE[(crc & 15) as usize];
        crc = (crc >> 4) ^ NIBBLE[(crc & 15) as usize];
    }
    !crc
}

/// The reflected polynomial.
const POLY: u32 = 0xEDB8_8320;

/// The CRC of each 4-bit value: four bitwise steps (XOR the polynomial in when the bit shifted
/// out is set).
const NIBBLE: [u32; 16] = {
    let mut table = [0u32; 16];
    let mut i = 0;
    while i < 16 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 4 {
            c = (c >> 1) ^ (POLY & (c & 1).wrapping_neg());
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::crc32;
    use crate::prelude::*;

    #[test]
    fn check_value_and_empty() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn agrees_with_crc32fast() {
        // Every length up to 300 over a byte pattern that reaches all 256 values.
        let data: Vec<u8> = (0..300u32)
            .map(|i| (i.wrapping_mul(151) ^ (i >> 3)) as u8)
            .collect();
        for n in 0..=data.len() {
            assert_eq!(crc32(&data[..n]), crc32fast::hash(&data[..n]), "length {n}");
        }
    }
}
