//! Reading the version 1 payload, by hand, so that every fault has its own reason and nothing is
//! allocated before it is checked (postcard folds serde's errors into one variant and sizes
//! collections from the input).
//!
//! Contract: [`read_token`] gives back the position a version 1 writer wrote (this one, or an
//! earlier one without the newer optional members), or a [`WireError`]: the [`TokenFault`], the
//! field being read and the payload byte where it failed. Faults, as the module docs list them:
//! `too-many-sources` (checked before anything is allocated for them), `overflow`, `not-utf8`,
//! `truncated`, `malformed`. Every compact form is expanded back to the text it stands for.

use crate::prelude::*;

use super::view::{PageToken, SourceState, Watermark};
use super::wire::{
    FLAG_ANCHORS, FLAG_BEHIND, FLAG_INCONSISTENT, FLAG_LATE, KNOWN_PLUGINS, MAX_ANCHORS,
    MAX_SOURCES,
};
use crate::error::{PagerError, TokenFault};
use crate::item::{Identity, SourceId};
use crate::token::base64url;
use crate::token::continue_token::ContinueToken;

/// A payload fault: the reason, what was being read, and where.
pub(super) struct WireError {
    pub(super) fault: TokenFault,
    what: &'static str,
    at: usize,
}

impl WireError {
    pub(super) fn into_pager(self) -> PagerError {
        let why = match self.fault {
            TokenFault::Truncated => "ends inside",
            TokenFault::Overflow => "has a number too large for",
            TokenFault::NotUtf8 => "has text that is not UTF-8 in",
            TokenFault::TooManySources => "has too many sources (at most 64) in",
            _ => "has a malformed",
        };
        PagerError::page_token(
            self.fault,
            format!("the token {why} {} (payload byte {})", self.what, self.at),
        )
    }
}

pub(super) type WireResult<T> = core::result::Result<T, WireError>;

/// A cursor over the payload bytes.
pub(super) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`.
    pub(super) fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    /// How many bytes are left to read.
    pub(super) fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    fn fail<T>(&self, fault: TokenFault, what: &'static str) -> WireResult<T> {
        Err(WireError {
            fault,
            what,
            at: self.pos,
        })
    }

    fn take(&mut self, n: usize, what: &'static str) -> WireResult<&'a [u8]> {
        match self
            .pos
            .checked_add(n)
            .and_then(|end| self.buf.get(self.pos..end))
        {
            Some(bytes) => {
                self.pos += n;
                Ok(bytes)
            }
            None => self.fail(TokenFault::Truncated, what),
        }
    }

    fn byte(&mut self, what: &'static str) -> WireResult<u8> {
        match self.buf.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.fail(TokenFault::Truncated, what),
        }
    }

    /// An unsigned LEB128 varint of at most `bits` bits, as postcard reads it.
    fn varint(&mut self, bits: u32, what: &'static str) -> WireResult<u64> {
        let max_bytes = bits.div_ceil(7);
        let mut value = 0u64;
        for i in 0..max_bytes {
            let b = self.byte(what)?;
            value |= u64::from(b & 0x7F) << (7 * i);
            if b & 0x80 == 0 {
                // The last byte may only carry the bits the type has left.
                if i + 1 == max_bytes && u32::from(b) >> (bits - 7 * i) != 0 {
                    return self.fail(TokenFault::Overflow, what);
                }
                return Ok(value);
            }
        }
        self.fail(TokenFault::Overflow, what)
    }

    fn u32(&mut self, what: &'static str) -> WireResult<u32> {
        // A 32-bit varint holds at most u32::MAX.
        self.varint(32, what).map(|v| v as u32)
    }

    fn u64(&mut self, what: &'static str) -> WireResult<u64> {
        self.varint(64, what)
    }

    fn i64(&mut self, what: &'static str) -> WireResult<i64> {
        let zigzag = self.varint(64, what)?;
        Ok((zigzag >> 1) as i64 ^ -((zigzag & 1) as i64))
    }

    #[inline(never)] // one copy for the eight fields that read text (size)
    fn str(&mut self, what: &'static str) -> WireResult<String> {
        let bytes = self.str_bytes(what)?;
        match core::str::from_utf8(bytes) {
            Ok(s) => Ok(s.to_owned()),
            Err(_) => self.fail(TokenFault::NotUtf8, what),
        }
    }

    fn str_bytes(&mut self, what: &'static str) -> WireResult<&'a [u8]> {
        let len = self.u32(what)?;
        self.take(len as usize, what)
    }

    /// A bool or an option tag: 0 or 1.
    fn flag(&mut self, what: &'static str) -> WireResult<bool> {
        match self.byte(what)? {
            0 => Ok(false),
            1 => Ok(true),
            _ => {
                self.pos -= 1;
                self.fail(TokenFault::Malformed, what)
            }
        }
    }

    /// An enum tag below `variants`.
    fn tag(&mut self, variants: u32, what: &'static str) -> WireResult<u32> {
        let start = self.pos;
        let tag = self.u32(what)?;
        if tag >= variants {
            self.pos = start;
            return self.fail(TokenFault::Malformed, what);
        }
        Ok(tag)
    }
}

/// A whole payload: the token's fields, in order. Bytes after them are the caller's to refuse.
pub(super) fn read_token(r: &mut Reader) -> WireResult<PageToken> {
    // Little-endian, folded from the last byte (no `copy_from_slice` length panic; size).
    let fingerprint = r.take(8, "fingerprint")?;
    let fingerprint = fingerprint
        .iter()
        .rev()
        .fold(0u64, |v, &b| (v << 8) | u64::from(b));
    let page_size = r.u32("page size")?;
    let count = r.u32("source count")?;
    // Checked before anything is allocated for the sources.
    if count as usize > MAX_SOURCES {
        return r.fail(TokenFault::TooManySources, "source count");
    }
    let mut sources = Vec::with_capacity(count as usize);
    for _ in 0..count {
        sources.push(read_source(r)?);
    }
    Ok(PageToken {
        fingerprint,
        page_size,
        sources,
    })
}

fn read_source(r: &mut Reader) -> WireResult<SourceState> {
    // Filled in place: a field that fails to read drops the one partial state, not each string
    // read so far on its own path (size).
    let mut st = SourceState {
        source: SourceId {
            plugin: String::new(),
            cluster: String::new(),
            namespace: String::new(),
        },
        chunk_token: String::new(),
        offset: 0,
        watermark: None,
        resource_version: String::new(),
        exhausted: false,
        inconsistent: false,
        behind: false,
        anchors: Vec::new(),
        late_watermark: None,
    };
    st.source.plugin = read_plugin(r, "source plugin")?;
    st.source.cluster = r.str("source cluster")?;
    st.source.namespace = r.str("source namespace")?;
    st.chunk_token = read_text(r, "chunk token")?;
    st.offset = r.u32("offset")?;
    if r.flag("watermark")? {
        st.watermark = Some(read_mark(r, &st.source)?);
    }
    st.resource_version = read_text(r, "resource version")?;
    st.exhausted = r.flag("exhausted flag")?;
    let flags = r.byte("flags")?;
    if flags & !(FLAG_INCONSISTENT | FLAG_BEHIND | FLAG_ANCHORS | FLAG_LATE) != 0 {
        r.pos -= 1;
        return r.fail(TokenFault::Malformed, "flags");
    }
    st.inconsistent = flags & FLAG_INCONSISTENT != 0;
    st.behind = flags & FLAG_BEHIND != 0;
    if flags & FLAG_ANCHORS != 0 {
        let start = r.pos;
        let n = r.u32("anchors")? as usize;
        if n == 0 || n > MAX_ANCHORS {
            r.pos = start;
            return r.fail(TokenFault::Malformed, "anchors");
        }
        for _ in 0..n {
            let bytes = r.take(8, "anchors")?;
            let h = bytes
                .iter()
                .rev()
                .fold(0u64, |v, &b| (v << 8) | u64::from(b));
            st.anchors.push(h);
        }
    }
    if flags & FLAG_LATE != 0 {
        st.late_watermark = if r.flag("late watermark")? {
            Some(read_mark(r, &st.source)?)
        } else if st.watermark.is_some() {
            st.watermark.clone()
        } else {
            // "The watermark" with none: not a token this pager writes.
            r.pos -= 1;
            return r.fail(TokenFault::Malformed, "late watermark");
        };
    }
    Ok(st)
}

fn read_plugin(r: &mut Reader, what: &'static str) -> WireResult<String> {
    match r.tag(4, what)? {
        0 => r.str(what),
        n => Ok(KNOWN_PLUGINS
            .get(n as usize - 1)
            .copied()
            .unwrap_or_default()
            .to_owned()),
    }
}

pub(super) fn read_text(r: &mut Reader, what: &'static str) -> WireResult<String> {
    match r.tag(5, what)? {
        0 => Ok(String::new()),
        1 => r.str(what),
        2 => Ok(format!("{}", r.u64(what)?)),
        3 => Ok(base64url::encode(r.str_bytes(what)?)),
        _ => {
            let at = r.pos;
            let rv = r.i64(what)?;
            let start = r.str(what)?;
            // Only valid continue tokens are written in this form.
            ContinueToken::new(rv, start)
                .encode()
                .map_err(|_| WireError {
                    fault: TokenFault::Malformed,
                    what,
                    at,
                })
        }
    }
}

fn read_mark(r: &mut Reader, source: &SourceId) -> WireResult<Watermark> {
    // Filled in place, as in `read_source`.
    let mut mark = Watermark {
        sort_key: r.str("watermark sort key")?,
        identity: Identity {
            plugin: String::new(),
            cluster: String::new(),
            namespace: String::new(),
            identifier: String::new(),
        },
    };
    let id = &mut mark.identity;
    id.plugin = if r.flag("watermark plugin")? {
        read_plugin(r, "watermark plugin")?
    } else {
        source.plugin.clone()
    };
    id.cluster = if r.flag("watermark cluster")? {
        r.str("watermark cluster")?
    } else {
        source.cluster.clone()
    };
    id.namespace = if r.flag("watermark namespace")? {
        r.str("watermark namespace")?
    } else {
        source.namespace.clone()
    };
    id.identifier = match r.tag(2, "watermark identifier")? {
        0 => r.str("watermark identifier")?,
        _ => {
            let repo = r.str("watermark identifier")?;
            let mut full = String::with_capacity(repo.len() + 1 + mark.sort_key.len());
            full.push_str(&repo);
            full.push('/');
            full.push_str(&mark.sort_key);
            full
        }
    };
    Ok(mark)
}
