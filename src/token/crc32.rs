//! CRC-32 as the page token's integrity check: the IEEE 802.3 / zlib CRC
//! (reflected, polynomial `0xEDB88320`, initial value and final XOR `!0`),
//! the same function as `crc32fast::hash` and Go's `crc32.ChecksumIEEE`.
//!
//! Computed bit by bit, without a lookup table: a page token is at most
//! 8 KiB, so the table-driven form (1 KiB of table, or 16 KiB for
//! slicing-by-16 as `crc32fast` uses) would cost more in the shipped wasm than
//! it saves in time (tens of microseconds at most).

/// The CRC-32 (IEEE) of `bytes`. Check value: `crc32(b"123456789") == 0xCBF4_3926`.
pub fn crc32(bytes: &[u8]) -> u32 {
    const POLY: u32 = 0xEDB8_8320;
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            // XOR the polynomial in when the bit shifted out is set.
            crc = (crc >> 1) ^ (POLY & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

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
