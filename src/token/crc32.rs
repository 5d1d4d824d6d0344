//! CRC-32 as the page token's integrity check: the IEEE 802.3 / zlib CRC (`CRC-32/ISO-HDLC`:
//! reflected, polynomial `0xEDB88320`, initial value and final XOR `!0`), the same function as
//! `crc32fast::hash` and Go's `crc32.ChecksumIEEE`, computed by the `crc` crate.
//!
//! The `crc` crate's byte-wide table (1 KiB, built at compile time), not `crc32fast`'s
//! slicing-by-16 one (16 KiB of data in the shipped wasm, 17.5 KB gzip): a page token is at most
//! 8 KiB, which a byte-wide table checks in a few µs.

/// The CRC-32/ISO-HDLC engine (one 256-entry table).
const CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

/// The CRC-32 (IEEE) of `bytes`. Check value: `crc32(b"123456789") == 0xCBF4_3926`.
pub fn crc32(bytes: &[u8]) -> u32 {
    CRC32.checksum(bytes)
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
