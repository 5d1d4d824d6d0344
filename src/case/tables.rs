//! Unicode case tables for [`super::lowercase`], printed from Rust's std by
//! `cargo test --lib case::tests::print_tables -- --ignored --nocapture`: do not edit by hand.

use super::Run;

/// The single-character lowercase mappings, as runs (185 runs).
#[rustfmt::skip]
pub(crate) const LOWER_RUNS: &[Run] = &[
    Run { start: 0x0041, len: 26, stride: 1, delta: 32 },
    Run { start: 0x00C0, len: 23, stride: 1, delta: 32 },
    Run { start: 0x00D8, len: 7, stride: 1, delta: 32 },
    Run { start: 0x0100, len: 24, stride: 2, delta: 1 },
    Run { start: 0x0132, len: 3, stride: 2, delta: 1 },
    Run { start: 0x0139, len: 8, stride: 2, delta: 1 },
    Run { start: 0x014A, len: 23, stride: 2, delta: 1 },
    Run { start: 0x0178, len: 1, stride: 1, delta: -121 },
    Run { start: 0x0179, len: 3, stride: 2, delta: 1 },
    Run { start: 0x0181, len: 1, stride: 1, delta: 210 },
    Run { start: 0x0182, len: 2, stride: 2, delta: 1 },
    Run { start: 0x0186, len: 1, stride: 1, delta: 206 },
    Run { start: 0x0187, len: 1, stride: 1, delta: 1 },
    Run { start: 0x0189, len: 2, stride: 1, delta: 205 },
    Run { start: 0x018B, len: 1, stride: 1, delta: 1 },
    Run { start: 0x018E, len: 1, stride: 1, delta: 79 },
    Run { start: 0x018F, len: 1, stride: 1, delta: 202 },
    Run { start: 0x0190, len: 1, stride: 1, delta: 203 },
    Run { start: 0x0191, len: 1, stride: 1, delta: 1 },
    Run { start: 0x0193, len: 1, stride: 1, delta: 205 },
    Run { start: 0x0194, len: 1, stride: 1, delta: 207 },
    Run { start: 0x0196, len: 1, stride: 1, delta: 211 },
    Run { start: 0x0197, len: 1, stride: 1, delta: 209 },
    Run { start: 0x0198, len: 1, stride: 1, delta: 1 },
    Run { start: 0x019C, len: 1, stride: 1, delta: 211 },
    Run { start: 0x019D, len: 1, stride: 1, delta: 213 },
    Run { start: 0x019F, len: 1, stride: 1, delta: 214 },
    Run { start: 0x01A0, len: 3, stride: 2, delta: 1 },
    Run { start: 0x01A6, len: 1, stride: 1, delta: 218 },
    Run { start: 0x01A7, len: 1, stride: 1, delta: 1 },
    Run { start: 0x01A9, len: 1, stride: 1, delta: 218 },
    Run { start: 0x01AC, len: 1, stride: 1, delta: 1 },
    Run { start: 0x01AE, len: 1, stride: 1, delta: 218 },
    Run { start: 0x01AF, len: 1, stride: 1, delta: 1 },
    Run { start: 0x01B1, len: 2, stride: 1, delta: 217 },
    Run { start: 0x01B3, len: 2, stride: 2, delta: 1 },
    Run { start: 0x01B7, len: 1, stride: 1, delta: 219 },
    Run { start: 0x01B8, len: 1, stride: 1, delta: 1 },
    Run { start: 0x01BC, len: 1, stride: 1, delta: 1 },
    Run { start: 0x01C4, len: 1, stride: 1, delta: 2 },
    Run { start: 0x01C5, len: 1, stride: 1, delta: 1 },
    Run { start: 0x01C7, len: 1, stride: 1, delta: 2 },
    Run { start: 0x01C8, len: 1, stride: 1, delta: 1 },
    Run { start: 0x01CA, len: 1, stride: 1, delta: 2 },
    Run { start: 0x01CB, len: 9, stride: 2, delta: 1 },
    Run { start: 0x01DE, len: 9, stride: 2, delta: 1 },
    Run { start: 0x01F1, len: 1, stride: 1, delta: 2 },
    Run { start: 0x01F2, len: 2, stride: 2, delta: 1 },
    Run { start: 0x01F6, len: 1, stride: 1, delta: -97 },
    Run { start: 0x01F7, len: 1, stride: 1, delta: -56 },
    Run { start: 0x01F8, len: 20, stride: 2, delta: 1 },
    Run { start: 0x0220, len: 1, stride: 1, delta: -130 },
    Run { start: 0x0222, len: 9, stride: 2, delta: 1 },
    Run { start: 0x023A, len: 1, stride: 1, delta: 10795 },
    Run { start: 0x023B, len: 1, stride: 1, delta: 1 },
    Run { start: 0x023D, len: 1, stride: 1, delta: -163 },
    Run { start: 0x023E, len: 1, stride: 1, delta: 10792 },
    Run { start: 0x0241, len: 1, stride: 1, delta: 1 },
    Run { start: 0x0243, len: 1, stride: 1, delta: -195 },
    Run { start: 0x0244, len: 1, stride: 1, delta: 69 },
    Run { start: 0x0245, len: 1, stride: 1, delta: 71 },
    Run { start: 0x0246, len: 5, stride: 2, delta: 1 },
    Run { start: 0x0370, len: 2, stride: 2, delta: 1 },
    Run { start: 0x0376, len: 1, stride: 1, delta: 1 },
    Run { start: 0x037F, len: 1, stride: 1, delta: 116 },
    Run { start: 0x0386, len: 1, stride: 1, delta: 38 },
    Run { start: 0x0388, len: 3, stride: 1, delta: 37 },
    Run { start: 0x038C, len: 1, stride: 1, delta: 64 },
    Run { start: 0x038E, len: 2, stride: 1, delta: 63 },
    Run { start: 0x0391, len: 17, stride: 1, delta: 32 },
    Run { start: 0x03A4, len: 8, stride: 1, delta: 32 },
    Run { start: 0x03CF, len: 1, stride: 1, delta: 8 },
    Run { start: 0x03D8, len: 12, stride: 2, delta: 1 },
    Run { start: 0x03F4, len: 1, stride: 1, delta: -60 },
    Run { start: 0x03F7, len: 1, stride: 1, delta: 1 },
    Run { start: 0x03F9, len: 1, stride: 1, delta: -7 },
    Run { start: 0x03FA, len: 1, stride: 1, delta: 1 },
    Run { start: 0x03FD, len: 3, stride: 1, delta: -130 },
    Run { start: 0x0400, len: 16, stride: 1, delta: 80 },
    Run { start: 0x0410, len: 32, stride: 1, delta: 32 },
    Run { start: 0x0460, len: 17, stride: 2, delta: 1 },
    Run { start: 0x048A, len: 27, stride: 2, delta: 1 },
    Run { start: 0x04C0, len: 1, stride: 1, delta: 15 },
    Run { start: 0x04C1, len: 7, stride: 2, delta: 1 },
    Run { start: 0x04D0, len: 48, stride: 2, delta: 1 },
    Run { start: 0x0531, len: 38, stride: 1, delta: 48 },
    Run { start: 0x10A0, len: 38, stride: 1, delta: 7264 },
    Run { start: 0x10C7, len: 1, stride: 1, delta: 7264 },
    Run { start: 0x10CD, len: 1, stride: 1, delta: 7264 },
    Run { start: 0x13A0, len: 80, stride: 1, delta: 38864 },
    Run { start: 0x13F0, len: 6, stride: 1, delta: 8 },
    Run { start: 0x1C89, len: 1, stride: 1, delta: 1 },
    Run { start: 0x1C90, len: 43, stride: 1, delta: -3008 },
    Run { start: 0x1CBD, len: 3, stride: 1, delta: -3008 },
    Run { start: 0x1E00, len: 75, stride: 2, delta: 1 },
    Run { start: 0x1E9E, len: 1, stride: 1, delta: -7615 },
    Run { start: 0x1EA0, len: 48, stride: 2, delta: 1 },
    Run { start: 0x1F08, len: 8, stride: 1, delta: -8 },
    Run { start: 0x1F18, len: 6, stride: 1, delta: -8 },
    Run { start: 0x1F28, len: 8, stride: 1, delta: -8 },
    Run { start: 0x1F38, len: 8, stride: 1, delta: -8 },
    Run { start: 0x1F48, len: 6, stride: 1, delta: -8 },
    Run { start: 0x1F59, len: 4, stride: 2, delta: -8 },
    Run { start: 0x1F68, len: 8, stride: 1, delta: -8 },
    Run { start: 0x1F88, len: 8, stride: 1, delta: -8 },
    Run { start: 0x1F98, len: 8, stride: 1, delta: -8 },
    Run { start: 0x1FA8, len: 8, stride: 1, delta: -8 },
    Run { start: 0x1FB8, len: 2, stride: 1, delta: -8 },
    Run { start: 0x1FBA, len: 2, stride: 1, delta: -74 },
    Run { start: 0x1FBC, len: 1, stride: 1, delta: -9 },
    Run { start: 0x1FC8, len: 4, stride: 1, delta: -86 },
    Run { start: 0x1FCC, len: 1, stride: 1, delta: -9 },
    Run { start: 0x1FD8, len: 2, stride: 1, delta: -8 },
    Run { start: 0x1FDA, len: 2, stride: 1, delta: -100 },
    Run { start: 0x1FE8, len: 2, stride: 1, delta: -8 },
    Run { start: 0x1FEA, len: 2, stride: 1, delta: -112 },
    Run { start: 0x1FEC, len: 1, stride: 1, delta: -7 },
    Run { start: 0x1FF8, len: 2, stride: 1, delta: -128 },
    Run { start: 0x1FFA, len: 2, stride: 1, delta: -126 },
    Run { start: 0x1FFC, len: 1, stride: 1, delta: -9 },
    Run { start: 0x2126, len: 1, stride: 1, delta: -7517 },
    Run { start: 0x212A, len: 1, stride: 1, delta: -8383 },
    Run { start: 0x212B, len: 1, stride: 1, delta: -8262 },
    Run { start: 0x2132, len: 1, stride: 1, delta: 28 },
    Run { start: 0x2160, len: 16, stride: 1, delta: 16 },
    Run { start: 0x2183, len: 1, stride: 1, delta: 1 },
    Run { start: 0x24B6, len: 26, stride: 1, delta: 26 },
    Run { start: 0x2C00, len: 48, stride: 1, delta: 48 },
    Run { start: 0x2C60, len: 1, stride: 1, delta: 1 },
    Run { start: 0x2C62, len: 1, stride: 1, delta: -10743 },
    Run { start: 0x2C63, len: 1, stride: 1, delta: -3814 },
    Run { start: 0x2C64, len: 1, stride: 1, delta: -10727 },
    Run { start: 0x2C67, len: 3, stride: 2, delta: 1 },
    Run { start: 0x2C6D, len: 1, stride: 1, delta: -10780 },
    Run { start: 0x2C6E, len: 1, stride: 1, delta: -10749 },
    Run { start: 0x2C6F, len: 1, stride: 1, delta: -10783 },
    Run { start: 0x2C70, len: 1, stride: 1, delta: -10782 },
    Run { start: 0x2C72, len: 1, stride: 1, delta: 1 },
    Run { start: 0x2C75, len: 1, stride: 1, delta: 1 },
    Run { start: 0x2C7E, len: 2, stride: 1, delta: -10815 },
    Run { start: 0x2C80, len: 50, stride: 2, delta: 1 },
    Run { start: 0x2CEB, len: 2, stride: 2, delta: 1 },
    Run { start: 0x2CF2, len: 1, stride: 1, delta: 1 },
    Run { start: 0xA640, len: 23, stride: 2, delta: 1 },
    Run { start: 0xA680, len: 14, stride: 2, delta: 1 },
    Run { start: 0xA722, len: 7, stride: 2, delta: 1 },
    Run { start: 0xA732, len: 31, stride: 2, delta: 1 },
    Run { start: 0xA779, len: 2, stride: 2, delta: 1 },
    Run { start: 0xA77D, len: 1, stride: 1, delta: -35332 },
    Run { start: 0xA77E, len: 5, stride: 2, delta: 1 },
    Run { start: 0xA78B, len: 1, stride: 1, delta: 1 },
    Run { start: 0xA78D, len: 1, stride: 1, delta: -42280 },
    Run { start: 0xA790, len: 2, stride: 2, delta: 1 },
    Run { start: 0xA796, len: 10, stride: 2, delta: 1 },
    Run { start: 0xA7AA, len: 1, stride: 1, delta: -42308 },
    Run { start: 0xA7AB, len: 1, stride: 1, delta: -42319 },
    Run { start: 0xA7AC, len: 1, stride: 1, delta: -42315 },
    Run { start: 0xA7AD, len: 1, stride: 1, delta: -42305 },
    Run { start: 0xA7AE, len: 1, stride: 1, delta: -42308 },
    Run { start: 0xA7B0, len: 1, stride: 1, delta: -42258 },
    Run { start: 0xA7B1, len: 1, stride: 1, delta: -42282 },
    Run { start: 0xA7B2, len: 1, stride: 1, delta: -42261 },
    Run { start: 0xA7B3, len: 1, stride: 1, delta: 928 },
    Run { start: 0xA7B4, len: 8, stride: 2, delta: 1 },
    Run { start: 0xA7C4, len: 1, stride: 1, delta: -48 },
    Run { start: 0xA7C5, len: 1, stride: 1, delta: -42307 },
    Run { start: 0xA7C6, len: 1, stride: 1, delta: -35384 },
    Run { start: 0xA7C7, len: 2, stride: 2, delta: 1 },
    Run { start: 0xA7CB, len: 1, stride: 1, delta: -42343 },
    Run { start: 0xA7CC, len: 8, stride: 2, delta: 1 },
    Run { start: 0xA7DC, len: 1, stride: 1, delta: -42561 },
    Run { start: 0xA7F5, len: 1, stride: 1, delta: 1 },
    Run { start: 0xFF21, len: 26, stride: 1, delta: 32 },
    Run { start: 0x10400, len: 40, stride: 1, delta: 40 },
    Run { start: 0x104B0, len: 36, stride: 1, delta: 40 },
    Run { start: 0x10570, len: 11, stride: 1, delta: 39 },
    Run { start: 0x1057C, len: 15, stride: 1, delta: 39 },
    Run { start: 0x1058C, len: 7, stride: 1, delta: 39 },
    Run { start: 0x10594, len: 2, stride: 1, delta: 39 },
    Run { start: 0x10C80, len: 51, stride: 1, delta: 64 },
    Run { start: 0x10D50, len: 22, stride: 1, delta: 32 },
    Run { start: 0x118A0, len: 32, stride: 1, delta: 32 },
    Run { start: 0x16E40, len: 32, stride: 1, delta: 32 },
    Run { start: 0x16EA0, len: 25, stride: 1, delta: 27 },
    Run { start: 0x1E900, len: 34, stride: 1, delta: 34 },
];

/// Unicode's `Case_Ignorable` property: 464 ranges, each as (gap from the end of the one before,
/// length), each number an unsigned LEB128 varint (see [`super::in_ranges`]).
#[rustfmt::skip]
pub(crate) const CASE_IGNORABLE: &[u8] = &[
    0x27, 0x01, // U+0027..=U+0027
    0x06, 0x01, // U+002E..=U+002E
    0x0B, 0x01, // U+003A..=U+003A
    0x23, 0x01, // U+005E..=U+005E
    0x01, 0x01, // U+0060..=U+0060
    0x47, 0x01, // U+00A8..=U+00A8
    0x04, 0x01, // U+00AD..=U+00AD
    0x01, 0x01, // U+00AF..=U+00AF
    0x04, 0x01, // U+00B4..=U+00B4
    0x02, 0x02, // U+00B7..=U+00B8
    0xF7, 0x03, 0xC0, 0x01, // U+02B0..=U+036F
    0x04, 0x02, // U+0374..=U+0375
    0x04, 0x01, // U+037A..=U+037A
    0x09, 0x02, // U+0384..=U+0385
    0x01, 0x01, // U+0387..=U+0387
    0xFB, 0x01, 0x07, // U+0483..=U+0489
    0xCF, 0x01, 0x01, // U+0559..=U+0559
    0x05, 0x01, // U+055F..=U+055F
    0x31, 0x2D, // U+0591..=U+05BD
    0x01, 0x01, // U+05BF..=U+05BF
    0x01, 0x02, // U+05C1..=U+05C2
    0x01, 0x02, // U+05C4..=U+05C5
    0x01, 0x01, // U+05C7..=U+05C7
    0x2C, 0x01, // U+05F4..=U+05F4
    0x0B, 0x06, // U+0600..=U+0605
    0x0A, 0x0B, // U+0610..=U+061A
    0x01, 0x01, // U+061C..=U+061C
    0x23, 0x01, // U+0640..=U+0640
    0x0A, 0x15, // U+064B..=U+065F
    0x10, 0x01, // U+0670..=U+0670
    0x65, 0x08, // U+06D6..=U+06DD
    0x01, 0x0A, // U+06DF..=U+06E8
    0x01, 0x04, // U+06EA..=U+06ED
    0x21, 0x01, // U+070F..=U+070F
    0x01, 0x01, // U+0711..=U+0711
    0x1E, 0x1B, // U+0730..=U+074A
    0x5B, 0x0B, // U+07A6..=U+07B0
    0x3A, 0x0B, // U+07EB..=U+07F5
    0x04, 0x01, // U+07FA..=U+07FA
    0x02, 0x01, // U+07FD..=U+07FD
    0x18, 0x18, // U+0816..=U+082D
    0x2B, 0x03, // U+0859..=U+085B
    0x2C, 0x01, // U+0888..=U+0888
    0x07, 0x02, // U+0890..=U+0891
    0x05, 0x09, // U+0897..=U+089F
    0x29, 0x3A, // U+08C9..=U+0902
    0x37, 0x01, // U+093A..=U+093A
    0x01, 0x01, // U+093C..=U+093C
    0x04, 0x08, // U+0941..=U+0948
    0x04, 0x01, // U+094D..=U+094D
    0x03, 0x07, // U+0951..=U+0957
    0x0A, 0x02, // U+0962..=U+0963
    0x0D, 0x01, // U+0971..=U+0971
    0x0F, 0x01, // U+0981..=U+0981
    0x3A, 0x01, // U+09BC..=U+09BC
    0x04, 0x04, // U+09C1..=U+09C4
    0x08, 0x01, // U+09CD..=U+09CD
    0x14, 0x02, // U+09E2..=U+09E3
    0x1A, 0x01, // U+09FE..=U+09FE
    0x02, 0x02, // U+0A01..=U+0A02
    0x39, 0x01, // U+0A3C..=U+0A3C
    0x04, 0x02, // U+0A41..=U+0A42
    0x04, 0x02, // U+0A47..=U+0A48
    0x02, 0x03, // U+0A4B..=U+0A4D
    0x03, 0x01, // U+0A51..=U+0A51
    0x1E, 0x02, // U+0A70..=U+0A71
    0x03, 0x01, // U+0A75..=U+0A75
    0x0B, 0x02, // U+0A81..=U+0A82
    0x39, 0x01, // U+0ABC..=U+0ABC
    0x04, 0x05, // U+0AC1..=U+0AC5
    0x01, 0x02, // U+0AC7..=U+0AC8
    0x04, 0x01, // U+0ACD..=U+0ACD
    0x14, 0x02, // U+0AE2..=U+0AE3
    0x16, 0x06, // U+0AFA..=U+0AFF
    0x01, 0x01, // U+0B01..=U+0B01
    0x3A, 0x01, // U+0B3C..=U+0B3C
    0x02, 0x01, // U+0B3F..=U+0B3F
    0x01, 0x04, // U+0B41..=U+0B44
    0x08, 0x01, // U+0B4D..=U+0B4D
    0x07, 0x02, // U+0B55..=U+0B56
    0x0B, 0x02, // U+0B62..=U+0B63
    0x1E, 0x01, // U+0B82..=U+0B82
    0x3D, 0x01, // U+0BC0..=U+0BC0
    0x0C, 0x01, // U+0BCD..=U+0BCD
    0x32, 0x01, // U+0C00..=U+0C00
    0x03, 0x01, // U+0C04..=U+0C04
    0x37, 0x01, // U+0C3C..=U+0C3C
    0x01, 0x03, // U+0C3E..=U+0C40
    0x05, 0x03, // U+0C46..=U+0C48
    0x01, 0x04, // U+0C4A..=U+0C4D
    0x07, 0x02, // U+0C55..=U+0C56
    0x0B, 0x02, // U+0C62..=U+0C63
    0x1D, 0x01, // U+0C81..=U+0C81
    0x3A, 0x01, // U+0CBC..=U+0CBC
    0x02, 0x01, // U+0CBF..=U+0CBF
    0x06, 0x01, // U+0CC6..=U+0CC6
    0x05, 0x02, // U+0CCC..=U+0CCD
    0x14, 0x02, // U+0CE2..=U+0CE3
    0x1C, 0x02, // U+0D00..=U+0D01
    0x39, 0x02, // U+0D3B..=U+0D3C
    0x04, 0x04, // U+0D41..=U+0D44
    0x08, 0x01, // U+0D4D..=U+0D4D
    0x14, 0x02, // U+0D62..=U+0D63
    0x1D, 0x01, // U+0D81..=U+0D81
    0x48, 0x01, // U+0DCA..=U+0DCA
    0x07, 0x03, // U+0DD2..=U+0DD4
    0x01, 0x01, // U+0DD6..=U+0DD6
    0x5A, 0x01, // U+0E31..=U+0E31
    0x02, 0x07, // U+0E34..=U+0E3A
    0x0B, 0x09, // U+0E46..=U+0E4E
    0x62, 0x01, // U+0EB1..=U+0EB1
    0x02, 0x09, // U+0EB4..=U+0EBC
    0x09, 0x01, // U+0EC6..=U+0EC6
    0x01, 0x07, // U+0EC8..=U+0ECE
    0x49, 0x02, // U+0F18..=U+0F19
    0x1B, 0x01, // U+0F35..=U+0F35
    0x01, 0x01, // U+0F37..=U+0F37
    0x01, 0x01, // U+0F39..=U+0F39
    0x37, 0x0E, // U+0F71..=U+0F7E
    0x01, 0x05, // U+0F80..=U+0F84
    0x01, 0x02, // U+0F86..=U+0F87
    0x05, 0x0B, // U+0F8D..=U+0F97
    0x01, 0x24, // U+0F99..=U+0FBC
    0x09, 0x01, // U+0FC6..=U+0FC6
    0x66, 0x04, // U+102D..=U+1030
    0x01, 0x06, // U+1032..=U+1037
    0x01, 0x02, // U+1039..=U+103A
    0x02, 0x02, // U+103D..=U+103E
    0x19, 0x02, // U+1058..=U+1059
    0x04, 0x03, // U+105E..=U+1060
    0x10, 0x04, // U+1071..=U+1074
    0x0D, 0x01, // U+1082..=U+1082
    0x02, 0x02, // U+1085..=U+1086
    0x06, 0x01, // U+108D..=U+108D
    0x0F, 0x01, // U+109D..=U+109D
    0x5E, 0x01, // U+10FC..=U+10FC
    0xE0, 0x04, 0x03, // U+135D..=U+135F
    0xB2, 0x07, 0x03, // U+1712..=U+1714
    0x1D, 0x02, // U+1732..=U+1733
    0x1E, 0x02, // U+1752..=U+1753
    0x1E, 0x02, // U+1772..=U+1773
    0x40, 0x02, // U+17B4..=U+17B5
    0x01, 0x07, // U+17B7..=U+17BD
    0x08, 0x01, // U+17C6..=U+17C6
    0x02, 0x0B, // U+17C9..=U+17D3
    0x03, 0x01, // U+17D7..=U+17D7
    0x05, 0x01, // U+17DD..=U+17DD
    0x2D, 0x05, // U+180B..=U+180F
    0x33, 0x01, // U+1843..=U+1843
    0x41, 0x02, // U+1885..=U+1886
    0x22, 0x01, // U+18A9..=U+18A9
    0x76, 0x03, // U+1920..=U+1922
    0x04, 0x02, // U+1927..=U+1928
    0x09, 0x01, // U+1932..=U+1932
    0x06, 0x03, // U+1939..=U+193B
    0xDB, 0x01, 0x02, // U+1A17..=U+1A18
    0x02, 0x01, // U+1A1B..=U+1A1B
    0x3A, 0x01, // U+1A56..=U+1A56
    0x01, 0x07, // U+1A58..=U+1A5E
    0x01, 0x01, // U+1A60..=U+1A60
    0x01, 0x01, // U+1A62..=U+1A62
    0x02, 0x08, // U+1A65..=U+1A6C
    0x06, 0x0A, // U+1A73..=U+1A7C
    0x02, 0x01, // U+1A7F..=U+1A7F
    0x27, 0x01, // U+1AA7..=U+1AA7
    0x08, 0x2E, // U+1AB0..=U+1ADD
    0x02, 0x0C, // U+1AE0..=U+1AEB
    0x14, 0x04, // U+1B00..=U+1B03
    0x30, 0x01, // U+1B34..=U+1B34
    0x01, 0x05, // U+1B36..=U+1B3A
    0x01, 0x01, // U+1B3C..=U+1B3C
    0x05, 0x01, // U+1B42..=U+1B42
    0x28, 0x09, // U+1B6B..=U+1B73
    0x0C, 0x02, // U+1B80..=U+1B81
    0x20, 0x04, // U+1BA2..=U+1BA5
    0x02, 0x02, // U+1BA8..=U+1BA9
    0x01, 0x03, // U+1BAB..=U+1BAD
    0x38, 0x01, // U+1BE6..=U+1BE6
    0x01, 0x02, // U+1BE8..=U+1BE9
    0x03, 0x01, // U+1BED..=U+1BED
    0x01, 0x03, // U+1BEF..=U+1BF1
    0x3A, 0x08, // U+1C2C..=U+1C33
    0x02, 0x02, // U+1C36..=U+1C37
    0x40, 0x06, // U+1C78..=U+1C7D
    0x52, 0x03, // U+1CD0..=U+1CD2
    0x01, 0x0D, // U+1CD4..=U+1CE0
    0x01, 0x07, // U+1CE2..=U+1CE8
    0x04, 0x01, // U+1CED..=U+1CED
    0x06, 0x01, // U+1CF4..=U+1CF4
    0x03, 0x02, // U+1CF8..=U+1CF9
    0x32, 0x3F, // U+1D2C..=U+1D6A
    0x0D, 0x01, // U+1D78..=U+1D78
    0x22, 0x65, // U+1D9B..=U+1DFF
    0xBD, 0x03, 0x01, // U+1FBD..=U+1FBD
    0x01, 0x03, // U+1FBF..=U+1FC1
    0x0B, 0x03, // U+1FCD..=U+1FCF
    0x0D, 0x03, // U+1FDD..=U+1FDF
    0x0D, 0x03, // U+1FED..=U+1FEF
    0x0D, 0x02, // U+1FFD..=U+1FFE
    0x0C, 0x05, // U+200B..=U+200F
    0x08, 0x02, // U+2018..=U+2019
    0x0A, 0x01, // U+2024..=U+2024
    0x02, 0x01, // U+2027..=U+2027
    0x02, 0x05, // U+202A..=U+202E
    0x31, 0x05, // U+2060..=U+2064
    0x01, 0x0A, // U+2066..=U+206F
    0x01, 0x01, // U+2071..=U+2071
    0x0D, 0x01, // U+207F..=U+207F
    0x10, 0x0D, // U+2090..=U+209C
    0x33, 0x21, // U+20D0..=U+20F0
    0x8B, 0x17, 0x02, // U+2C7C..=U+2C7D
    0x71, 0x03, // U+2CEF..=U+2CF1
    0x7D, 0x01, // U+2D6F..=U+2D6F
    0x0F, 0x01, // U+2D7F..=U+2D7F
    0x60, 0x20, // U+2DE0..=U+2DFF
    0x2F, 0x01, // U+2E2F..=U+2E2F
    0xD5, 0x03, 0x01, // U+3005..=U+3005
    0x24, 0x04, // U+302A..=U+302D
    0x03, 0x05, // U+3031..=U+3035
    0x05, 0x01, // U+303B..=U+303B
    0x5D, 0x06, // U+3099..=U+309E
    0x5D, 0x03, // U+30FC..=U+30FE
    0x96, 0xDE, 0x01, 0x01, // U+A015..=U+A015
    0xE2, 0x09, 0x06, // U+A4F8..=U+A4FD
    0x8E, 0x02, 0x01, // U+A60C..=U+A60C
    0x62, 0x04, // U+A66F..=U+A672
    0x01, 0x0A, // U+A674..=U+A67D
    0x01, 0x01, // U+A67F..=U+A67F
    0x1C, 0x04, // U+A69C..=U+A69F
    0x50, 0x02, // U+A6F0..=U+A6F1
    0x0E, 0x22, // U+A700..=U+A721
    0x4E, 0x01, // U+A770..=U+A770
    0x17, 0x03, // U+A788..=U+A78A
    0x66, 0x04, // U+A7F1..=U+A7F4
    0x03, 0x02, // U+A7F8..=U+A7F9
    0x08, 0x01, // U+A802..=U+A802
    0x03, 0x01, // U+A806..=U+A806
    0x04, 0x01, // U+A80B..=U+A80B
    0x19, 0x02, // U+A825..=U+A826
    0x05, 0x01, // U+A82C..=U+A82C
    0x97, 0x01, 0x02, // U+A8C4..=U+A8C5
    0x1A, 0x12, // U+A8E0..=U+A8F1
    0x0D, 0x01, // U+A8FF..=U+A8FF
    0x26, 0x08, // U+A926..=U+A92D
    0x19, 0x0B, // U+A947..=U+A951
    0x2E, 0x03, // U+A980..=U+A982
    0x30, 0x01, // U+A9B3..=U+A9B3
    0x02, 0x04, // U+A9B6..=U+A9B9
    0x02, 0x02, // U+A9BC..=U+A9BD
    0x11, 0x01, // U+A9CF..=U+A9CF
    0x15, 0x02, // U+A9E5..=U+A9E6
    0x42, 0x06, // U+AA29..=U+AA2E
    0x02, 0x02, // U+AA31..=U+AA32
    0x02, 0x02, // U+AA35..=U+AA36
    0x0C, 0x01, // U+AA43..=U+AA43
    0x08, 0x01, // U+AA4C..=U+AA4C
    0x23, 0x01, // U+AA70..=U+AA70
    0x0B, 0x01, // U+AA7C..=U+AA7C
    0x33, 0x01, // U+AAB0..=U+AAB0
    0x01, 0x03, // U+AAB2..=U+AAB4
    0x02, 0x02, // U+AAB7..=U+AAB8
    0x05, 0x02, // U+AABE..=U+AABF
    0x01, 0x01, // U+AAC1..=U+AAC1
    0x1B, 0x01, // U+AADD..=U+AADD
    0x0E, 0x02, // U+AAEC..=U+AAED
    0x05, 0x02, // U+AAF3..=U+AAF4
    0x01, 0x01, // U+AAF6..=U+AAF6
    0x64, 0x05, // U+AB5B..=U+AB5F
    0x09, 0x03, // U+AB69..=U+AB6B
    0x79, 0x01, // U+ABE5..=U+ABE5
    0x02, 0x01, // U+ABE8..=U+ABE8
    0x04, 0x01, // U+ABED..=U+ABED
    0xB0, 0x9E, 0x01, 0x01, // U+FB1E..=U+FB1E
    0x93, 0x01, 0x11, // U+FBB2..=U+FBC2
    0xBD, 0x04, 0x10, // U+FE00..=U+FE0F
    0x03, 0x01, // U+FE13..=U+FE13
    0x0C, 0x10, // U+FE20..=U+FE2F
    0x22, 0x01, // U+FE52..=U+FE52
    0x02, 0x01, // U+FE55..=U+FE55
    0xA9, 0x01, 0x01, // U+FEFF..=U+FEFF
    0x07, 0x01, // U+FF07..=U+FF07
    0x06, 0x01, // U+FF0E..=U+FF0E
    0x0B, 0x01, // U+FF1A..=U+FF1A
    0x23, 0x01, // U+FF3E..=U+FF3E
    0x01, 0x01, // U+FF40..=U+FF40
    0x2F, 0x01, // U+FF70..=U+FF70
    0x2D, 0x02, // U+FF9E..=U+FF9F
    0x43, 0x01, // U+FFE3..=U+FFE3
    0x15, 0x03, // U+FFF9..=U+FFFB
    0x81, 0x04, 0x01, // U+101FD..=U+101FD
    0xE2, 0x01, 0x01, // U+102E0..=U+102E0
    0x95, 0x01, 0x05, // U+10376..=U+1037A
    0x85, 0x08, 0x06, // U+10780..=U+10785
    0x01, 0x2A, // U+10787..=U+107B0
    0x01, 0x09, // U+107B2..=U+107BA
    0xC6, 0x04, 0x03, // U+10A01..=U+10A03
    0x01, 0x02, // U+10A05..=U+10A06
    0x05, 0x04, // U+10A0C..=U+10A0F
    0x28, 0x03, // U+10A38..=U+10A3A
    0x04, 0x01, // U+10A3F..=U+10A3F
    0xA5, 0x01, 0x02, // U+10AE5..=U+10AE6
    0xBD, 0x04, 0x04, // U+10D24..=U+10D27
    0x26, 0x01, // U+10D4E..=U+10D4E
    0x1A, 0x05, // U+10D69..=U+10D6D
    0x01, 0x01, // U+10D6F..=U+10D6F
    0xBB, 0x02, 0x02, // U+10EAB..=U+10EAC
    0x18, 0x01, // U+10EC5..=U+10EC5
    0x34, 0x06, // U+10EFA..=U+10EFF
    0x46, 0x0B, // U+10F46..=U+10F50
    0x31, 0x04, // U+10F82..=U+10F85
    0x7B, 0x01, // U+11001..=U+11001
    0x36, 0x0F, // U+11038..=U+11046
    0x29, 0x01, // U+11070..=U+11070
    0x02, 0x02, // U+11073..=U+11074
    0x0A, 0x03, // U+1107F..=U+11081
    0x31, 0x04, // U+110B3..=U+110B6
    0x02, 0x02, // U+110B9..=U+110BA
    0x02, 0x01, // U+110BD..=U+110BD
    0x04, 0x01, // U+110C2..=U+110C2
    0x0A, 0x01, // U+110CD..=U+110CD
    0x32, 0x03, // U+11100..=U+11102
    0x24, 0x05, // U+11127..=U+1112B
    0x01, 0x08, // U+1112D..=U+11134
    0x3E, 0x01, // U+11173..=U+11173
    0x0C, 0x02, // U+11180..=U+11181
    0x34, 0x09, // U+111B6..=U+111BE
    0x0A, 0x04, // U+111C9..=U+111CC
    0x02, 0x01, // U+111CF..=U+111CF
    0x5F, 0x03, // U+1122F..=U+11231
    0x02, 0x01, // U+11234..=U+11234
    0x01, 0x02, // U+11236..=U+11237
    0x06, 0x01, // U+1123E..=U+1123E
    0x02, 0x01, // U+11241..=U+11241
    0x9D, 0x01, 0x01, // U+112DF..=U+112DF
    0x03, 0x08, // U+112E3..=U+112EA
    0x15, 0x02, // U+11300..=U+11301
    0x39, 0x02, // U+1133B..=U+1133C
    0x03, 0x01, // U+11340..=U+11340
    0x25, 0x07, // U+11366..=U+1136C
    0x03, 0x05, // U+11370..=U+11374
    0x46, 0x06, // U+113BB..=U+113C0
    0x0D, 0x01, // U+113CE..=U+113CE
    0x01, 0x01, // U+113D0..=U+113D0
    0x01, 0x01, // U+113D2..=U+113D2
    0x0E, 0x02, // U+113E1..=U+113E2
    0x55, 0x08, // U+11438..=U+1143F
    0x02, 0x03, // U+11442..=U+11444
    0x01, 0x01, // U+11446..=U+11446
    0x17, 0x01, // U+1145E..=U+1145E
    0x54, 0x06, // U+114B3..=U+114B8
    0x01, 0x01, // U+114BA..=U+114BA
    0x04, 0x02, // U+114BF..=U+114C0
    0x01, 0x02, // U+114C2..=U+114C3
    0xEE, 0x01, 0x04, // U+115B2..=U+115B5
    0x06, 0x02, // U+115BC..=U+115BD
    0x01, 0x02, // U+115BF..=U+115C0
    0x1B, 0x02, // U+115DC..=U+115DD
    0x55, 0x08, // U+11633..=U+1163A
    0x02, 0x01, // U+1163D..=U+1163D
    0x01, 0x02, // U+1163F..=U+11640
    0x6A, 0x01, // U+116AB..=U+116AB
    0x01, 0x01, // U+116AD..=U+116AD
    0x02, 0x06, // U+116B0..=U+116B5
    0x01, 0x01, // U+116B7..=U+116B7
    0x65, 0x01, // U+1171D..=U+1171D
    0x01, 0x01, // U+1171F..=U+1171F
    0x02, 0x04, // U+11722..=U+11725
    0x01, 0x05, // U+11727..=U+1172B
    0x83, 0x02, 0x09, // U+1182F..=U+11837
    0x01, 0x02, // U+11839..=U+1183A
    0x80, 0x02, 0x02, // U+1193B..=U+1193C
    0x01, 0x01, // U+1193E..=U+1193E
    0x04, 0x01, // U+11943..=U+11943
    0x90, 0x01, 0x04, // U+119D4..=U+119D7
    0x02, 0x02, // U+119DA..=U+119DB
    0x04, 0x01, // U+119E0..=U+119E0
    0x20, 0x0A, // U+11A01..=U+11A0A
    0x28, 0x06, // U+11A33..=U+11A38
    0x02, 0x04, // U+11A3B..=U+11A3E
    0x08, 0x01, // U+11A47..=U+11A47
    0x09, 0x06, // U+11A51..=U+11A56
    0x02, 0x03, // U+11A59..=U+11A5B
    0x2E, 0x0D, // U+11A8A..=U+11A96
    0x01, 0x02, // U+11A98..=U+11A99
    0xC6, 0x01, 0x01, // U+11B60..=U+11B60
    0x01, 0x03, // U+11B62..=U+11B64
    0x01, 0x01, // U+11B66..=U+11B66
    0xC9, 0x01, 0x07, // U+11C30..=U+11C36
    0x01, 0x06, // U+11C38..=U+11C3D
    0x01, 0x01, // U+11C3F..=U+11C3F
    0x52, 0x16, // U+11C92..=U+11CA7
    0x02, 0x07, // U+11CAA..=U+11CB0
    0x01, 0x02, // U+11CB2..=U+11CB3
    0x01, 0x02, // U+11CB5..=U+11CB6
    0x7A, 0x06, // U+11D31..=U+11D36
    0x03, 0x01, // U+11D3A..=U+11D3A
    0x01, 0x02, // U+11D3C..=U+11D3D
    0x01, 0x07, // U+11D3F..=U+11D45
    0x01, 0x01, // U+11D47..=U+11D47
    0x48, 0x02, // U+11D90..=U+11D91
    0x03, 0x01, // U+11D95..=U+11D95
    0x01, 0x01, // U+11D97..=U+11D97
    0x41, 0x01, // U+11DD9..=U+11DD9
    0x99, 0x02, 0x02, // U+11EF3..=U+11EF4
    0x0B, 0x02, // U+11F00..=U+11F01
    0x34, 0x05, // U+11F36..=U+11F3A
    0x05, 0x01, // U+11F40..=U+11F40
    0x01, 0x01, // U+11F42..=U+11F42
    0x17, 0x01, // U+11F5A..=U+11F5A
    0xD5, 0x29, 0x11, // U+13430..=U+13440
    0x06, 0x0F, // U+13447..=U+13455
    0xC8, 0x59, 0x0C, // U+1611E..=U+16129
    0x03, 0x03, // U+1612D..=U+1612F
    0xC0, 0x13, 0x05, // U+16AF0..=U+16AF4
    0x3B, 0x07, // U+16B30..=U+16B36
    0x09, 0x04, // U+16B40..=U+16B43
    0xFC, 0x03, 0x03, // U+16D40..=U+16D42
    0x28, 0x02, // U+16D6B..=U+16D6C
    0xE2, 0x03, 0x01, // U+16F4F..=U+16F4F
    0x3F, 0x11, // U+16F8F..=U+16F9F
    0x40, 0x02, // U+16FE0..=U+16FE1
    0x01, 0x02, // U+16FE3..=U+16FE4
    0x0D, 0x02, // U+16FF2..=U+16FF3
    0xFC, 0x7F, 0x04, // U+1AFF0..=U+1AFF3
    0x01, 0x07, // U+1AFF5..=U+1AFFB
    0x01, 0x02, // U+1AFFD..=U+1AFFE
    0x9E, 0x19, 0x02, // U+1BC9D..=U+1BC9E
    0x01, 0x04, // U+1BCA0..=U+1BCA3
    0xDC, 0x24, 0x2E, // U+1CF00..=U+1CF2D
    0x02, 0x17, // U+1CF30..=U+1CF46
    0xA0, 0x04, 0x03, // U+1D167..=U+1D169
    0x09, 0x10, // U+1D173..=U+1D182
    0x02, 0x07, // U+1D185..=U+1D18B
    0x1E, 0x04, // U+1D1AA..=U+1D1AD
    0x94, 0x01, 0x03, // U+1D242..=U+1D244
    0xBB, 0x0F, 0x37, // U+1DA00..=U+1DA36
    0x04, 0x32, // U+1DA3B..=U+1DA6C
    0x08, 0x01, // U+1DA75..=U+1DA75
    0x0E, 0x01, // U+1DA84..=U+1DA84
    0x16, 0x05, // U+1DA9B..=U+1DA9F
    0x01, 0x0F, // U+1DAA1..=U+1DAAF
    0xD0, 0x0A, 0x07, // U+1E000..=U+1E006
    0x01, 0x11, // U+1E008..=U+1E018
    0x02, 0x07, // U+1E01B..=U+1E021
    0x01, 0x02, // U+1E023..=U+1E024
    0x01, 0x05, // U+1E026..=U+1E02A
    0x05, 0x3E, // U+1E030..=U+1E06D
    0x21, 0x01, // U+1E08F..=U+1E08F
    0xA0, 0x01, 0x0E, // U+1E130..=U+1E13D
    0xF0, 0x02, 0x01, // U+1E2AE..=U+1E2AE
    0x3D, 0x04, // U+1E2EC..=U+1E2EF
    0xFB, 0x03, 0x05, // U+1E4EB..=U+1E4EF
    0xFE, 0x01, 0x02, // U+1E5EE..=U+1E5EF
    0xF3, 0x01, 0x01, // U+1E6E3..=U+1E6E3
    0x02, 0x01, // U+1E6E6..=U+1E6E6
    0x07, 0x02, // U+1E6EE..=U+1E6EF
    0x05, 0x01, // U+1E6F5..=U+1E6F5
    0x09, 0x01, // U+1E6FF..=U+1E6FF
    0xD0, 0x03, 0x07, // U+1E8D0..=U+1E8D6
    0x6D, 0x08, // U+1E944..=U+1E94B
    0xAF, 0x15, 0x05, // U+1F3FB..=U+1F3FF
    0x81, 0x98, 0x30, 0x01, // U+E0001..=U+E0001
    0x1E, 0x60, // U+E0020..=U+E007F
    0x80, 0x01, 0xF0, 0x01, // U+E0100..=U+E01EF
];

/// Where every 32nd range of [`CASE_IGNORABLE`] starts: (one past the end of the range before, byte offset).
#[rustfmt::skip]
pub(crate) const CASE_IGNORABLE_INDEX: &[(u32, u16)] = &[
    (0x0000, 0),
    (0x06E9, 68),
    (0x0A4E, 132),
    (0x0CC7, 196),
    (0x103F, 260),
    (0x1A61, 327),
    (0x1D79, 391),
    (0xA4FE, 461),
    (0xAA4D, 527),
    (0xFFE4, 596),
    (0x110CE, 668),
    (0x114C1, 733),
    (0x11A9A, 801),
    (0x16B44, 871),
    (0x1E090, 944),
];

/// Unicode's `Cased` property of the characters that are not `Case_Ignorable` (the only ones the
/// final-sigma rule asks about): 151 ranges, encoded as [`CASE_IGNORABLE`].
#[rustfmt::skip]
pub(crate) const CASED: &[u8] = &[
    0x41, 0x1A, // U+0041..=U+005A
    0x06, 0x1A, // U+0061..=U+007A
    0x2F, 0x01, // U+00AA..=U+00AA
    0x0A, 0x01, // U+00B5..=U+00B5
    0x04, 0x01, // U+00BA..=U+00BA
    0x05, 0x17, // U+00C0..=U+00D6
    0x01, 0x1F, // U+00D8..=U+00F6
    0x01, 0xC3, 0x01, // U+00F8..=U+01BA
    0x01, 0x04, // U+01BC..=U+01BF
    0x04, 0xD0, 0x01, // U+01C4..=U+0293
    0x02, 0x1A, // U+0296..=U+02AF
    0xC0, 0x01, 0x04, // U+0370..=U+0373
    0x02, 0x02, // U+0376..=U+0377
    0x03, 0x03, // U+037B..=U+037D
    0x01, 0x01, // U+037F..=U+037F
    0x06, 0x01, // U+0386..=U+0386
    0x01, 0x03, // U+0388..=U+038A
    0x01, 0x01, // U+038C..=U+038C
    0x01, 0x14, // U+038E..=U+03A1
    0x01, 0x53, // U+03A3..=U+03F5
    0x01, 0x8B, 0x01, // U+03F7..=U+0481
    0x08, 0xA6, 0x01, // U+048A..=U+052F
    0x01, 0x26, // U+0531..=U+0556
    0x09, 0x29, // U+0560..=U+0588
    0x97, 0x16, 0x26, // U+10A0..=U+10C5
    0x01, 0x01, // U+10C7..=U+10C7
    0x05, 0x01, // U+10CD..=U+10CD
    0x02, 0x2B, // U+10D0..=U+10FA
    0x02, 0x03, // U+10FD..=U+10FF
    0xA0, 0x05, 0x56, // U+13A0..=U+13F5
    0x02, 0x06, // U+13F8..=U+13FD
    0x82, 0x11, 0x0B, // U+1C80..=U+1C8A
    0x05, 0x2B, // U+1C90..=U+1CBA
    0x02, 0x03, // U+1CBD..=U+1CBF
    0x40, 0x2C, // U+1D00..=U+1D2B
    0x3F, 0x0D, // U+1D6B..=U+1D77
    0x01, 0x22, // U+1D79..=U+1D9A
    0x65, 0x96, 0x02, // U+1E00..=U+1F15
    0x02, 0x06, // U+1F18..=U+1F1D
    0x02, 0x26, // U+1F20..=U+1F45
    0x02, 0x06, // U+1F48..=U+1F4D
    0x02, 0x08, // U+1F50..=U+1F57
    0x01, 0x01, // U+1F59..=U+1F59
    0x01, 0x01, // U+1F5B..=U+1F5B
    0x01, 0x01, // U+1F5D..=U+1F5D
    0x01, 0x1F, // U+1F5F..=U+1F7D
    0x02, 0x35, // U+1F80..=U+1FB4
    0x01, 0x07, // U+1FB6..=U+1FBC
    0x01, 0x01, // U+1FBE..=U+1FBE
    0x03, 0x03, // U+1FC2..=U+1FC4
    0x01, 0x07, // U+1FC6..=U+1FCC
    0x03, 0x04, // U+1FD0..=U+1FD3
    0x02, 0x06, // U+1FD6..=U+1FDB
    0x04, 0x0D, // U+1FE0..=U+1FEC
    0x05, 0x03, // U+1FF2..=U+1FF4
    0x01, 0x07, // U+1FF6..=U+1FFC
    0x85, 0x02, 0x01, // U+2102..=U+2102
    0x04, 0x01, // U+2107..=U+2107
    0x02, 0x0A, // U+210A..=U+2113
    0x01, 0x01, // U+2115..=U+2115
    0x03, 0x05, // U+2119..=U+211D
    0x06, 0x01, // U+2124..=U+2124
    0x01, 0x01, // U+2126..=U+2126
    0x01, 0x01, // U+2128..=U+2128
    0x01, 0x04, // U+212A..=U+212D
    0x01, 0x06, // U+212F..=U+2134
    0x04, 0x01, // U+2139..=U+2139
    0x02, 0x04, // U+213C..=U+213F
    0x05, 0x05, // U+2145..=U+2149
    0x04, 0x01, // U+214E..=U+214E
    0x11, 0x20, // U+2160..=U+217F
    0x03, 0x02, // U+2183..=U+2184
    0xB1, 0x06, 0x34, // U+24B6..=U+24E9
    0x96, 0x0E, 0x7C, // U+2C00..=U+2C7B
    0x02, 0x67, // U+2C7E..=U+2CE4
    0x06, 0x04, // U+2CEB..=U+2CEE
    0x03, 0x02, // U+2CF2..=U+2CF3
    0x0C, 0x26, // U+2D00..=U+2D25
    0x01, 0x01, // U+2D27..=U+2D27
    0x05, 0x01, // U+2D2D..=U+2D2D
    0x92, 0xF2, 0x01, 0x2E, // U+A640..=U+A66D
    0x12, 0x1C, // U+A680..=U+A69B
    0x86, 0x01, 0x4E, // U+A722..=U+A76F
    0x01, 0x17, // U+A771..=U+A787
    0x03, 0x04, // U+A78B..=U+A78E
    0x01, 0x4D, // U+A790..=U+A7DC
    0x18, 0x02, // U+A7F5..=U+A7F6
    0x03, 0x01, // U+A7FA..=U+A7FA
    0xB5, 0x06, 0x2B, // U+AB30..=U+AB5A
    0x05, 0x09, // U+AB60..=U+AB68
    0x07, 0x50, // U+AB70..=U+ABBF
    0xC0, 0x9E, 0x01, 0x07, // U+FB00..=U+FB06
    0x0C, 0x05, // U+FB13..=U+FB17
    0x89, 0x08, 0x1A, // U+FF21..=U+FF3A
    0x06, 0x1A, // U+FF41..=U+FF5A
    0xA5, 0x09, 0x50, // U+10400..=U+1044F
    0x60, 0x24, // U+104B0..=U+104D3
    0x04, 0x24, // U+104D8..=U+104FB
    0x74, 0x0B, // U+10570..=U+1057A
    0x01, 0x0F, // U+1057C..=U+1058A
    0x01, 0x07, // U+1058C..=U+10592
    0x01, 0x02, // U+10594..=U+10595
    0x01, 0x0B, // U+10597..=U+105A1
    0x01, 0x0F, // U+105A3..=U+105B1
    0x01, 0x07, // U+105B3..=U+105B9
    0x01, 0x02, // U+105BB..=U+105BC
    0xC3, 0x0D, 0x33, // U+10C80..=U+10CB2
    0x0D, 0x33, // U+10CC0..=U+10CF2
    0x5D, 0x16, // U+10D50..=U+10D65
    0x0A, 0x16, // U+10D70..=U+10D85
    0x9A, 0x16, 0x40, // U+118A0..=U+118DF
    0xE0, 0xAA, 0x01, 0x40, // U+16E40..=U+16E7F
    0x20, 0x19, // U+16EA0..=U+16EB8
    0x02, 0x19, // U+16EBB..=U+16ED3
    0xAC, 0xCA, 0x01, 0x55, // U+1D400..=U+1D454
    0x01, 0x47, // U+1D456..=U+1D49C
    0x01, 0x02, // U+1D49E..=U+1D49F
    0x02, 0x01, // U+1D4A2..=U+1D4A2
    0x02, 0x02, // U+1D4A5..=U+1D4A6
    0x02, 0x04, // U+1D4A9..=U+1D4AC
    0x01, 0x0C, // U+1D4AE..=U+1D4B9
    0x01, 0x01, // U+1D4BB..=U+1D4BB
    0x01, 0x07, // U+1D4BD..=U+1D4C3
    0x01, 0x41, // U+1D4C5..=U+1D505
    0x01, 0x04, // U+1D507..=U+1D50A
    0x02, 0x08, // U+1D50D..=U+1D514
    0x01, 0x07, // U+1D516..=U+1D51C
    0x01, 0x1C, // U+1D51E..=U+1D539
    0x01, 0x04, // U+1D53B..=U+1D53E
    0x01, 0x05, // U+1D540..=U+1D544
    0x01, 0x01, // U+1D546..=U+1D546
    0x03, 0x07, // U+1D54A..=U+1D550
    0x01, 0xD4, 0x02, // U+1D552..=U+1D6A5
    0x02, 0x19, // U+1D6A8..=U+1D6C0
    0x01, 0x19, // U+1D6C2..=U+1D6DA
    0x01, 0x1F, // U+1D6DC..=U+1D6FA
    0x01, 0x19, // U+1D6FC..=U+1D714
    0x01, 0x1F, // U+1D716..=U+1D734
    0x01, 0x19, // U+1D736..=U+1D74E
    0x01, 0x1F, // U+1D750..=U+1D76E
    0x01, 0x19, // U+1D770..=U+1D788
    0x01, 0x1F, // U+1D78A..=U+1D7A8
    0x01, 0x19, // U+1D7AA..=U+1D7C2
    0x01, 0x08, // U+1D7C4..=U+1D7CB
    0xB4, 0x0E, 0x0A, // U+1DF00..=U+1DF09
    0x01, 0x14, // U+1DF0B..=U+1DF1E
    0x06, 0x06, // U+1DF25..=U+1DF2A
    0xD5, 0x13, 0x44, // U+1E900..=U+1E943
    0xEC, 0x0F, 0x1A, // U+1F130..=U+1F149
    0x06, 0x1A, // U+1F150..=U+1F169
    0x06, 0x1A, // U+1F170..=U+1F189
];

/// Where every 32nd range of [`CASED`] starts: (one past the end of the range before, byte offset).
#[rustfmt::skip]
pub(crate) const CASED_INDEX: &[(u32, u16)] = &[
    (0x0000, 0),
    (0x1C8B, 72),
    (0x2129, 138),
    (0x10450, 212),
    (0x1D53A, 282),
];
