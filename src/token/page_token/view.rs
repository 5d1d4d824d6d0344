//! The decoded page token as values ([`PageToken`], [`SourceState`], [`Watermark`]) and their
//! serde view: the shape JS reads and writes, given on each type.
//!
//! Contract of reading the view: a refused value names its field. `fingerprint` and each of
//! `anchors` must be 16 lowercase hex digits; `pageSize` and `offset` whole numbers in
//! `0..=2^32-1` from any numeric form (JS numbers may arrive as floats); `sources` at most
//! [`MAX_SOURCES`] (refused from the announced length, before allocating, or at the first one
//! over) and `anchors` at most [`MAX_ANCHORS`]; `watermark`, `behind`, `anchors` and
//! `lateWatermark` may be missing (none, false, none, none). Writing leaves `anchors` and `lateWatermark` out when the
//! position has none, so a value reads back as it was written.

use crate::prelude::*;
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::wire::{MAX_ANCHORS, MAX_SOURCES};
use crate::item::{Identity, SourceId};

/// The decoded NextPageToken.
///
/// Serde view (camelCase, for JS): `{ fingerprint: "0123456789abcdef",
/// pageSize, sources: [SourceState] }`; `fingerprint` is 16 lowercase hex
/// digits; `pageSize` a whole number in `0..=2^32-1` (reading rejects negative
/// and fractional numbers); `sources` at most 64 (reading stops at the 65th).
///
/// ```
/// use kubeapps_pager::token::PageToken;
///
/// let token = PageToken { fingerprint: 7, page_size: 20, sources: vec![] };
/// let text = token.encode()?; // "AQcAAAAAAAAAFAAAontm": URL-safe as it is
/// assert_eq!(PageToken::decode(&text)?, token);
/// assert_eq!(PageToken::decode(&text[..8]).unwrap_err().code(), "INVALID_PAGE_TOKEN");
/// # Ok::<(), kubeapps_pager::PagerError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageToken {
    /// Fingerprint of (filter, sort order, source set) the token was minted under.
    #[serde(serialize_with = "write_hex_u64", deserialize_with = "read_hex_u64")]
    pub fingerprint: u64,
    /// Items per page when the token was minted.
    #[serde(deserialize_with = "read_page_size")]
    pub page_size: u32,
    /// One entry per source, idle and exhausted ones included, in the pager's source order.
    #[serde(deserialize_with = "read_sources")]
    pub sources: Vec<SourceState>,
}

/// One source's position.
///
/// Serde view: `{ plugin, cluster, namespace, chunkToken, offset, watermark,
/// resourceVersion, exhausted, inconsistent, behind, anchors?, lateWatermark? }` (the
/// [`SourceId`] is flattened; `behind` may be missing: false; `anchors`, 1 or 2 strings of 16
/// lowercase hex digits, and `lateWatermark` are there only when the position holds them);
/// `watermark` is `null` when absent; `offset` a whole number in `0..=2^32-1`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceState {
    /// Which source.
    #[serde(flatten)]
    pub source: SourceId,
    /// The source token that fetched the current chunk, verbatim; `""` = the list's start.
    pub chunk_token: String,
    /// Items of that chunk (as the source returned them, before filtering) already consumed.
    #[serde(deserialize_with = "read_offset")]
    pub offset: u32,
    /// The last item emitted from this source (sort key + identity), if any.
    #[serde(default)]
    pub watermark: Option<Watermark>,
    /// resourceVersion of the snapshot the chunk came from; `""` when the source has none.
    pub resource_version: String,
    /// The source has nothing more to give.
    pub exhausted: bool,
    /// The source's list went on after a 410 Expired, so it is no longer one snapshot.
    pub inconsistent: bool,
    /// The source was unreachable while the merge went past its position: its items above its
    /// own watermark and up to the others' are still to be shown (late), not dropped.
    #[serde(default, deserialize_with = "read_flag")]
    pub behind: bool,
    /// Identity hashes (xxh64 of the merge key, as the pager keeps of the items it reads) of items
    /// of the source's own order that end what it had read, for a source whose order is learned
    /// (docs/DESIGN.md "Order is learned"): a `kubeapps` source that has read past what it
    /// consumed (the last item read: a resume tells an item the merge went past from one inserted
    /// behind W by where it stands against it, and a whole read cuts after it), or a source
    /// read whole after a switch whose late items are pending (the end of its cut, and the last
    /// item consumed before the late ones: a resume cuts by identity, not by the count in
    /// `chunk_token`). Empty for every other position (and in tokens written before it existed).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "write_anchors",
        deserialize_with = "read_anchors"
    )]
    pub anchors: Vec<u64>,
    /// A source read whole after a switch, with late items pending: the last late item consumed
    /// (they go in key order: a resume skips the late items at or below it, not a count). `None`
    /// when none was consumed, or in tokens written before it existed (the offset counts them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late_watermark: Option<Watermark>,
}

/// The last key emitted: the sort field's value plus the item's identity.
///
/// Serde view: `{ sortKey, identity: { plugin, cluster, namespace, identifier } }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Watermark {
    /// Value of the sort field (`name` or `displayName`) of the item, as the source gave it.
    pub sort_key: String,
    /// The item's identity.
    pub identity: Identity,
}

fn write_hex_u64<S: Serializer>(v: &u64, s: S) -> core::result::Result<S::Ok, S::Error> {
    s.serialize_str(&crate::text::hex16(*v))
}

fn read_hex_u64<'de, D: Deserializer<'de>>(d: D) -> core::result::Result<u64, D::Error> {
    let text = String::deserialize(d)?;
    match hex_u64(&text) {
        Some(v) => Ok(v),
        None => Err(de::Error::custom(format!(
            "fingerprint must be 16 lowercase hex digits, not {}",
            crate::text::shown(&text)
        ))),
    }
}

/// `anchors` as 16 lowercase hex digits each.
fn write_anchors<S: Serializer>(v: &[u64], s: S) -> core::result::Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|h| crate::text::hex16(*h)))
}

/// `anchors`: at most [`MAX_ANCHORS`] strings of 16 lowercase hex digits.
fn read_anchors<'de, D: Deserializer<'de>>(d: D) -> core::result::Result<Vec<u64>, D::Error> {
    let texts = Option::<Vec<String>>::deserialize(d)?.unwrap_or_default();
    if texts.len() > MAX_ANCHORS {
        return Err(de::Error::custom(format!(
            "anchors: a position holds at most {MAX_ANCHORS}"
        )));
    }
    texts
        .iter()
        .map(|t| {
            hex_u64(t).ok_or_else(|| {
                de::Error::custom(format!(
                    "anchors must be 16 lowercase hex digits each, not {}",
                    crate::text::shown(t)
                ))
            })
        })
        .collect()
}

/// 16 lowercase hex digits as a u64.
fn hex_u64(text: &str) -> Option<u64> {
    let well_formed =
        text.len() == 16 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    u64::from_str_radix(text, 16).ok().filter(|_| well_formed)
}

/// Reads at most [`MAX_SOURCES`] sources, refusing a longer list before
/// allocating for it (from its announced length) or while reading it.
fn read_sources<'de, D: Deserializer<'de>>(
    d: D,
) -> core::result::Result<Vec<SourceState>, D::Error> {
    struct Bounded;
    impl<'de> Visitor<'de> for Bounded {
        type Value = Vec<SourceState>;
        fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
            write!(f, "a list of at most {MAX_SOURCES} sources")
        }
        fn visit_seq<A: de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> core::result::Result<Self::Value, A::Error> {
            let too_many =
                || de::Error::custom(format!("sources: a page token holds at most {MAX_SOURCES}"));
            if seq.size_hint().is_some_and(|n| n > MAX_SOURCES) {
                return Err(too_many());
            }
            let mut sources = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(source) = seq.next_element()? {
                if sources.len() == MAX_SOURCES {
                    return Err(too_many());
                }
                sources.push(source);
            }
            Ok(sources)
        }
    }
    d.deserialize_seq(Bounded)
}

fn read_page_size<'de, D: Deserializer<'de>>(d: D) -> core::result::Result<u32, D::Error> {
    d.deserialize_any(WholeU32("pageSize"))
}

/// An optional bool: missing or `null` is false.
fn read_flag<'de, D: Deserializer<'de>>(d: D) -> core::result::Result<bool, D::Error> {
    Ok(Option::<bool>::deserialize(d)?.unwrap_or(false))
}

fn read_offset<'de, D: Deserializer<'de>>(d: D) -> core::result::Result<u32, D::Error> {
    d.deserialize_any(WholeU32("offset"))
}

/// Reads a whole number in `0..=u32::MAX` from any numeric form (JS numbers
/// may arrive as floats), naming the field in the error.
struct WholeU32(&'static str);

impl WholeU32 {
    fn reject<E: de::Error>(&self, shown: impl core::fmt::Display) -> E {
        // Host-only (the serde view): `format!` for the float's own formatting.
        E::custom(format!(
            "{} must be a whole number from 0 to {}, not {shown}",
            self.0,
            u32::MAX
        ))
    }
}

impl Visitor<'_> for WholeU32 {
    type Value = u32;
    fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}: a whole number from 0 to {}", self.0, u32::MAX)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> core::result::Result<u32, E> {
        u32::try_from(v).map_err(|_| self.reject(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> core::result::Result<u32, E> {
        u32::try_from(v).map_err(|_| self.reject(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> core::result::Result<u32, E> {
        // In range, and whole: the cast back gives the same number.
        if (0.0..=f64::from(u32::MAX)).contains(&v) && v == f64::from(v as u32) {
            Ok(v as u32)
        } else {
            Err(self.reject(v))
        }
    }
}
