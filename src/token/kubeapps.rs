//! Kubeapps page tokens: the core API's `{"plugin": offset}` object and the
//! plugins' decimal item offsets.
//!
//! - Plugins (vmware-tanzu/kubeapps `cmd/kubeapps-apis/plugins/pkg/paginate`,
//!   `ItemOffsetFromPageToken`): the token is the offset of the next item as
//!   decimal text; `""` is offset 0. The core API sends `-1` for a plugin
//!   that has nothing more ([`PluginOffset`]).
//! - The core API (`cmd/kubeapps-apis/core/packages/v1alpha1/packages_fan_in.go`):
//!   the token is the raw JSON of Go's `map[string]int`, plugin name to the
//!   next item offset, `-1` = that plugin is finished, `""` = the start
//!   ([`CoreToken`]).
//!
//! Offsets are limited to `-1..=2^31-1` ([`MAX_OFFSET`]): the range of Go's
//! `int` on every platform Kubeapps builds for, and exact in a JS number.
//! Decoding accepts only what Kubeapps writes (`fmt.Sprintf("%d")`,
//! `json.Marshal`): no sign, no leading zeros, no fraction. Errors are
//! `INVALID_KUBEAPPS_TOKEN` with a reason.

use crate::prelude::*;
use serde::de::{self, Visitor};
use serde::{Deserialize, Serialize};

use super::decimal::canonical_decimal;
use super::go_json;
use super::json::{self, JsonInt};
use crate::error::{PagerError, Result, TokenFault};
use crate::text::shown;

/// Largest item offset accepted or written: `2^31 - 1`.
pub const MAX_OFFSET: u64 = i32::MAX as u64;

/// A Kubeapps plugin's position: the next item's offset, or finished.
///
/// Text form: decimal digits (`""` reads as 0), `-1` = finished. Serde view:
/// a number, `-1` for [`Finished`](PluginOffset::Finished).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PluginOffset {
    /// Offset of the next item to read, `0..=MAX_OFFSET`.
    Offset(u64),
    /// The plugin has nothing more (`-1`, written only by the core API).
    Finished,
}

impl PluginOffset {
    /// The list's start: offset 0 (text `""` or `"0"`).
    pub const START: PluginOffset = PluginOffset::Offset(0);

    /// Decodes a plugin's page token.
    ///
    /// `""` → `Offset(0)`, `"17"` → `Offset(17)`, `"-1"` → `Finished`. Errors
    /// (`INVALID_KUBEAPPS_TOKEN`): `whitespace`; `invalid-field` for leading
    /// zeros or a `+`; `overflow` for offsets over [`MAX_OFFSET`] or negative
    /// ones other than -1; `malformed` for anything that is not a number.
    pub fn decode(token: &str) -> Result<PluginOffset> {
        let fail = |fault, msg: &str| {
            Err(PagerError::kubeapps_token(
                fault,
                format!("offset {}: {msg}", shown(token)),
            ))
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if token.is_empty() {
            return Ok(Self::START);
        }
        if token.chars().any(char::is_whitespace) {
            return fail(TokenFault::Whitespace, "holds white space");
        }
        if token == "-1" {
            return Ok(PluginOffset::Finished);
        }
        if let Some(rest) = token.strip_prefix('-') {
            if digits(rest) {
                return fail(
                    TokenFault::Overflow,
                    "negative; only -1 (finished) is allowed",
                );
            }
        }
        if let Some(rest) = token.strip_prefix('+') {
            if digits(rest) {
                return fail(TokenFault::InvalidField, "Kubeapps writes no '+' sign");
            }
        }
        if !digits(token) {
            return fail(TokenFault::Malformed, "not a decimal item offset");
        }
        if token.len() > 1 && token.starts_with('0') {
            return fail(TokenFault::InvalidField, "Kubeapps writes no leading zeros");
        }
        match canonical_decimal(token) {
            Some(n) if n <= MAX_OFFSET => Ok(PluginOffset::Offset(n)),
            _ => fail(TokenFault::Overflow, "over the largest offset, 2147483647"),
        }
    }

    /// Encodes the offset as Kubeapps writes it: `"17"`, `"-1"` (so `START` is `"0"`).
    ///
    /// Errors: `INVALID_KUBEAPPS_TOKEN` (`overflow`) for an offset over [`MAX_OFFSET`].
    pub fn encode(&self) -> Result<String> {
        Ok(format!("{}", self.to_i64()?))
    }

    /// The number Kubeapps uses: the offset, or -1.
    fn to_i64(self) -> Result<i64> {
        match self {
            PluginOffset::Finished => Ok(-1),
            PluginOffset::Offset(n) if n <= MAX_OFFSET => Ok(n as i64),
            PluginOffset::Offset(n) => Err(PagerError::kubeapps_token(
                TokenFault::Overflow,
                format!("offset {n} is over the largest offset, {MAX_OFFSET}"),
            )),
        }
    }

    /// The offset for a number Kubeapps wrote: -1 or `0..=MAX_OFFSET`.
    fn from_i64(n: i64) -> Option<PluginOffset> {
        match n {
            -1 => Some(PluginOffset::Finished),
            n if n >= 0 && n as u64 <= MAX_OFFSET => Some(PluginOffset::Offset(n as u64)),
            _ => None,
        }
    }
}

impl Serialize for PluginOffset {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match *self {
            PluginOffset::Finished => s.serialize_i64(-1),
            PluginOffset::Offset(n) => s.serialize_u64(n),
        }
    }
}

impl<'de> Deserialize<'de> for PluginOffset {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = PluginOffset;
            fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                write!(f, "a whole number from -1 (finished) to {MAX_OFFSET}")
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> core::result::Result<PluginOffset, E> {
                PluginOffset::from_i64(n)
                    .ok_or_else(|| E::invalid_value(de::Unexpected::Signed(n), &self))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> core::result::Result<PluginOffset, E> {
                i64::try_from(n)
                    .ok()
                    .and_then(PluginOffset::from_i64)
                    .ok_or_else(|| E::invalid_value(de::Unexpected::Unsigned(n), &self))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> core::result::Result<PluginOffset, E> {
                // JS numbers may arrive as floats: accept whole ones only.
                // In range, and whole: the cast back gives the same number.
                if (-1.0..=MAX_OFFSET as f64).contains(&n) && n == n as i64 as f64 {
                    self.visit_i64(n as i64)
                } else {
                    Err(E::invalid_value(de::Unexpected::Float(n), &self))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// The Kubeapps core API's page token: each plugin's next item offset, in order.
///
/// Text form: the JSON object `{"helm.packages":10,"fluxv2.packages":-1}`;
/// `""` is the start (no entries). A plugin that is not listed starts at 0,
/// as Go's map lookup gives. Serde view: `{ entries: [{ plugin, offset }] }`
/// (an array, so the order survives JS objects' own key ordering).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CoreToken {
    /// (plugin name, its offset), in the token's order; names are non-empty and distinct.
    pub entries: Vec<(String, PluginOffset)>,
}

impl CoreToken {
    /// The offset for `plugin`: its entry, or [`PluginOffset::START`] when it has none.
    pub fn get(&self, plugin: &str) -> PluginOffset {
        self.entries
            .iter()
            .find(|(name, _)| name == plugin)
            .map_or(PluginOffset::START, |&(_, o)| o)
    }

    /// Decodes a core API page token, keeping the entries' order.
    ///
    /// `""` → no entries. Errors (`INVALID_KUBEAPPS_TOKEN`): `malformed` for
    /// text that is not one JSON object of numbers (or holds a fraction),
    /// `truncated` for JSON that ends early, `overflow` for offsets outside
    /// `-1..=MAX_OFFSET`, `invalid-field` for an empty or repeated plugin name.
    pub fn decode(token: &str) -> Result<CoreToken> {
        if token.is_empty() {
            return Ok(CoreToken::default());
        }
        let entries = parse_core_json(token)?;
        let token = CoreToken { entries };
        token.check()?;
        Ok(token)
    }

    /// Encodes the token as Go's `json.Marshal` writes the entries (in this order).
    ///
    /// No entries give `{}`. Errors: `INVALID_KUBEAPPS_TOKEN` when an entry
    /// breaks a rule of [`decode`](Self::decode).
    pub fn encode(&self) -> Result<String> {
        self.check()?;
        let mut out = String::from("{");
        for (i, (plugin, offset)) in self.entries.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            go_json::write_string(&mut out, plugin);
            out.push(':');
            out.push_str(&offset.encode()?);
        }
        out.push('}');
        Ok(out)
    }

    fn check(&self) -> Result<()> {
        let repeated = first_repeated(&self.entries);
        for (i, (plugin, offset)) in self.entries.iter().enumerate() {
            if plugin.is_empty() {
                return Err(PagerError::kubeapps_token(
                    TokenFault::InvalidField,
                    "a plugin name is empty",
                ));
            }
            if repeated == Some(i) {
                return Err(PagerError::kubeapps_token(
                    TokenFault::InvalidField,
                    format!("plugin {} is listed twice", shown(plugin)),
                ));
            }
            offset.to_i64()?;
        }
        Ok(())
    }
}

/// The index of the first entry whose plugin name an earlier entry already has.
///
/// Found by sorting (name, index) pairs stably: in each run of equal names the second pair is
/// that name's first repeat. O(n log n), as the token may hold any number of entries.
fn first_repeated(entries: &[(String, PluginOffset)]) -> Option<usize> {
    let mut names: Vec<(&str, usize)> = entries
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (name.as_str(), i))
        .collect();
    names.sort_by(|a, b| a.0.cmp(b.0));
    names
        .windows(2)
        .filter(|pair| pair[0].0 == pair[1].0)
        .map(|pair| pair[1].1)
        .min()
}

/// Reads `{"name": int, ...}` keeping the order (duplicates are checked later).
fn parse_core_json(json: &str) -> Result<Vec<(String, PluginOffset)>> {
    let (entries, problem) = json::read_object(json, CoreEntries).map_err(|e| {
        PagerError::kubeapps_token(
            if e.is_eof() {
                TokenFault::Truncated
            } else {
                TokenFault::Malformed
            },
            format!("not a Kubeapps core token ({{\"plugin\": offset}}): {e}"),
        )
    })?;
    let Some((nth, plugin, n)) = problem else {
        return Ok(entries);
    };
    let n = match n {
        JsonInt::Unsure => json::resolve(json, |_| true, nth),
        n => n,
    };
    // Out of range: whether negative, and the number when it fits i64.
    let (negative, n) = match n {
        JsonInt::NotInteger => {
            return Err(PagerError::kubeapps_token(
                TokenFault::Malformed,
                format!("the offset of {} is not a whole number", shown(&plugin)),
            ))
        }
        JsonInt::Int(n) => (n < -1, Some(n)),
        _ => (false, None),
    };
    let why = if negative {
        "negative; only -1 (finished) is allowed"
    } else {
        "too large"
    };
    let number = match n {
        Some(n) => format!("{n}"),
        None => "a number beyond 64 bits".to_owned(),
    };
    Err(PagerError::kubeapps_token(
        TokenFault::Overflow,
        format!(
            "the offset of {}, {number}, is {why} (range -1..={MAX_OFFSET})",
            shown(&plugin)
        ),
    ))
}

/// The entries in order, and the first offset that is not one (which value, from 0, its
/// plugin, and the number), reported once the JSON has read without error.
struct CoreEntries;

/// What [`CoreEntries`] reads.
type Entries = (
    Vec<(String, PluginOffset)>,
    Option<(usize, String, JsonInt)>,
);

impl<'de> Visitor<'de> for CoreEntries {
    type Value = Entries;

    fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        f.write_str("a JSON object of plugin offsets")
    }

    fn visit_map<A: de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> core::result::Result<Entries, A::Error> {
        let mut entries = Vec::new();
        let mut problem = None;
        let mut nth = 0;
        while let Some(plugin) = map.next_key::<String>()? {
            let n = map.next_value::<JsonInt>()?;
            match n {
                JsonInt::Int(i) => match PluginOffset::from_i64(i) {
                    Some(offset) => entries.push((plugin, offset)),
                    None => {
                        problem.get_or_insert((nth, plugin, n));
                    }
                },
                n => {
                    problem.get_or_insert((nth, plugin, n));
                }
            }
            nth += 1;
        }
        Ok((entries, problem))
    }
}

/// One entry of the serde view (owned, for reading).
#[derive(Deserialize)]
struct CoreEntry {
    plugin: String,
    offset: PluginOffset,
}

/// The serde view as read: `{ entries: [{ plugin, offset }] }`.
#[derive(Deserialize)]
struct CoreView {
    entries: Vec<CoreEntry>,
}

/// One entry of the serde view (borrowed, for writing).
#[derive(Serialize)]
struct CoreEntryRef<'a> {
    plugin: &'a str,
    offset: PluginOffset,
}

/// The serde view as written.
#[derive(Serialize)]
struct CoreViewRef<'a> {
    entries: Vec<CoreEntryRef<'a>>,
}

impl Serialize for CoreToken {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let entries = self
            .entries
            .iter()
            .map(|(plugin, offset)| CoreEntryRef {
                plugin,
                offset: *offset,
            })
            .collect();
        CoreViewRef { entries }.serialize(s)
    }
}

impl<'de> Deserialize<'de> for CoreToken {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        let view = CoreView::deserialize(d)?;
        Ok(CoreToken {
            entries: view
                .entries
                .into_iter()
                .map(|e| (e.plugin, e.offset))
                .collect(),
        })
    }
}
