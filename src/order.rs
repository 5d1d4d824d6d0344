//! The merge order and its collation: one total order, encoded as comparable bytes.
//!
//! An item's key is a tuple of strings compared component by component on
//! UTF-8 bytes (= Unicode code point order):
//!
//! - [`SortOrder::Name`]: (`name`, plugin, cluster, namespace, identifier);
//! - [`SortOrder::DisplayName`]: (lowercase(`displayName`), `displayName`,
//!   plugin, cluster, namespace, identifier), where lowercase is Unicode's
//!   default, locale-independent mapping ([`crate::text::lowercase`]: Rust's
//!   [`str::to_lowercase`] on every target, final-sigma rule included)
//!   and an empty `displayName` sorts as the item's `name`;
//! - [`SortOrder::Apiserver`]: (`namespace/name`, plugin, cluster, namespace, identifier), where
//!   `namespace/name` is the item's namespace, `/` and its `name` (its `name` alone when it has no
//!   namespace): the order an apiserver lists in, its storage keys
//!   (`/registry/<resource>/<namespace>/<name>`, k8s.io/apiserver/pkg/registry/generic/registry
//!   `NamespaceKeyFunc`) sorting as etcd keeps them, by bytes. One string, not the pair: namespace
//!   `a-b` sorts before `a` (`-` is below `/`), as its keys do;
//! - [`SortOrder::Collated`]: (the [`Collation`]'s sort key of the sort field, the sort field,
//!   plugin, cluster, namespace, identifier), the sort field being `name` or `displayName` (its
//!   `name` when empty) as [`SortField`] says. The collation's sort key is bytes whose order is
//!   the collation's (UCA, [`crate::collation`]); the field's bytes then break the collation's
//!   ties (`kube-prometheus` and `kubeprometheus`), and the identity the rest.
//!
//! The tuple is encoded once per item into a [`SortKey`] whose `memcmp` order
//! is the tuple order: each component is its bytes with `0x00` escaped as
//! `0x00 0xFF`, followed by the terminator `0x00 0x00`. Valid UTF-8 never holds
//! `0xFF`, and a terminator sorts before any escaped or plain byte, so a
//! component that is a prefix of another sorts first, as it should. A collation's sort key is
//! not UTF-8 and may hold any byte: it is escaped the same way (a `0xFF` after a `0x00` is always
//! an escape, since every `0x00` in it is escaped), which keeps its `memcmp` order.

use crate::collation::Collation;
use crate::item::{FieldsRef, Identity, ItemFields, KeyFields};
use crate::prelude::*;
use alloc::borrow::Cow;

/// The merge order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SortOrder {
    /// `name` in byte order (what the Kubeapps core merges by).
    #[default]
    Name,
    /// `displayName`, case-insensitive (what the dashboard shows).
    DisplayName,
    /// The apiserver's own order: `namespace/name` in byte order, as its storage keys sort (see the
    /// module docs). The order of every Kubernetes list, over one namespace or all of them: such a
    /// list streams under it with its continue tokens.
    Apiserver,
    /// A field in a collation's order (a natural order: `kubeapps` beside `kube-prometheus`,
    /// case and accents second). Needs the `collation` feature to key items.
    Collated(SortField, Collation),
}

/// The item field a [`SortOrder::Collated`] orders by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SortField {
    /// `name`.
    Name,
    /// `displayName` (the item's `name` when empty).
    DisplayName,
}

/// An item's full merge key as bytes whose `memcmp` order is the merge order.
///
/// Built by [`SortOrder::key`]; the layout is in the module docs. The first
/// component ([`SortKey::primary`]) is the sort field, which the merge frontier
/// compares against each source's last read item.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SortKey(pub Vec<u8>);

/// Escape byte written after a `0x00` inside a component.
const ESCAPED_NUL: u8 = 0xFF;

impl SortOrder {
    /// The full key of an item (see docs/DESIGN.md "One total order").
    ///
    /// The item's plugin, cluster and namespace are used as they are; the pager
    /// fills empty ones from the source before it calls this.
    ///
    /// # Example
    /// ```
    /// use kubeapps_pager::{ItemFields, SortOrder};
    /// let a = ItemFields { name: "apache".into(), ..Default::default() };
    /// let b = ItemFields { name: "Zookeeper".into(), ..Default::default() };
    /// // Byte order: uppercase sorts before lowercase under `name`...
    /// assert!(SortOrder::Name.key(&b) < SortOrder::Name.key(&a));
    /// // ...and case-insensitively under `displayName` (empty = the name).
    /// assert!(SortOrder::DisplayName.key(&a) < SortOrder::DisplayName.key(&b));
    /// ```
    pub fn key(self, item: &ItemFields) -> SortKey {
        self.key_of(&item.key_fields())
    }

    /// The field this order sorts by.
    pub fn field(self) -> SortField {
        match self {
            SortOrder::Name | SortOrder::Apiserver => SortField::Name,
            SortOrder::DisplayName => SortField::DisplayName,
            SortOrder::Collated(field, _) => field,
        }
    }

    /// The collation of a [`SortOrder::Collated`], in a build that has the collator (feature
    /// `collation`). Without it `None`: such an order then keys as its field's plain byte order,
    /// and [`PagerOptions::validate`](crate::PagerOptions::validate) refuses it, so no pager ever
    /// uses it (and none of the collated code is linked into that build).
    pub fn collation(self) -> Option<Collation> {
        match self {
            SortOrder::Collated(_, c) if crate::collation::AVAILABLE => Some(c),
            _ => None,
        }
    }

    /// [`SortOrder::key`] of borrowed key fields.
    pub fn key_of(self, item: &FieldsRef<'_>) -> SortKey {
        self.key_from_fields(
            &self.sort_value(item),
            item.plugin,
            item.cluster,
            item.namespace,
            item.identifier,
        )
    }

    /// The value of the sort field an item is ordered by: its `name`, or under
    /// [`SortOrder::DisplayName`] its `displayName` (its `name` when that is empty), or under
    /// [`SortOrder::Apiserver`] `namespace/name` (its `name` when it has no namespace).
    ///
    /// This is what a page token stores as a watermark's `sort_key`:
    /// `key_from_parts(sort_value(item), &item.identity()) == key(item)`.
    pub fn sort_value<'a>(self, item: &'a impl KeyFields) -> Cow<'a, str> {
        let f = item.key_fields();
        match self {
            SortOrder::Apiserver if !f.namespace.is_empty() => {
                Cow::Owned(format!("{}/{}", f.namespace, f.name))
            }
            _ => Cow::Borrowed(match self.field() {
                SortField::DisplayName if !f.display_name.is_empty() => f.display_name,
                _ => f.name,
            }),
        }
    }

    /// The key of an item known by its sort value (see [`SortOrder::sort_value`]) and identity.
    pub fn key_from_parts(self, sort_value: &str, identity: &Identity) -> SortKey {
        self.key_from_fields(
            sort_value,
            &identity.plugin,
            &identity.cluster,
            &identity.namespace,
            &identity.identifier,
        )
    }

    /// Number of components in this order's keys (5 for `name`, 6 for `displayName` and the
    /// collated orders: the sort value comes second, after its lowercase or its collation key).
    pub fn component_count(self) -> usize {
        if self.derived_primary() {
            6
        } else {
            5
        }
    }

    /// Whether the key's first component is derived from the sort value (its lowercase, its
    /// collation key) and the sort value itself comes second.
    fn derived_primary(self) -> bool {
        self == SortOrder::DisplayName || self.collation().is_some()
    }

    fn key_from_fields(
        self,
        sort_value: &str,
        plugin: &str,
        cluster: &str,
        namespace: &str,
        identifier: &str,
    ) -> SortKey {
        self.build_key(
            sort_value,
            Context::Parts([plugin, cluster, namespace]),
            identifier,
        )
    }

    /// [`SortOrder::key_of`] of an item whose plugin, cluster and namespace are those `context`
    /// holds encoded ([`encode_context`]): the same bytes, with one copy for the three.
    pub(crate) fn key_in_context(self, item: &FieldsRef<'_>, context: &[u8]) -> SortKey {
        self.build_key(
            &self.sort_value(item),
            Context::Encoded(context),
            item.identifier,
        )
    }

    fn build_key(self, sort_value: &str, context: Context<'_>, identifier: &str) -> SortKey {
        let context_len = match &context {
            Context::Parts(parts) => parts.iter().map(|p| p.len() + 2).sum(),
            Context::Encoded(bytes) => bytes.len(),
        };
        // The exact size of a key without escapes; for displayName, room for the lowercase
        // (which may grow the text: at most 3x per char) and its terminator.
        let derived = if self.derived_primary() {
            sort_value.len() + 2
        } else {
            0
        };
        let mut out =
            Vec::with_capacity(derived + sort_value.len() + context_len + identifier.len() + 4);
        if let Some(collation) = self.collation() {
            push_collation_key(&mut out, collation, sort_value);
        } else if self == SortOrder::DisplayName {
            if sort_value.is_ascii() {
                // Fast path: ASCII lowercases byte by byte, no allocation.
                push_component_bytes(&mut out, sort_value.bytes().map(|b| b.to_ascii_lowercase()));
            } else {
                push_component(&mut out, &crate::text::lowercase(sort_value));
            }
        }
        push_component(&mut out, sort_value);
        match context {
            Context::Parts(parts) => {
                for part in parts {
                    push_component(&mut out, part);
                }
            }
            Context::Encoded(bytes) => out.extend_from_slice(bytes),
        }
        push_component(&mut out, identifier);
        SortKey(out)
    }
}

/// A key's plugin, cluster and namespace: as text, or already encoded ([`encode_context`]).
enum Context<'a> {
    Parts([&'a str; 3]),
    Encoded(&'a [u8]),
}

/// The plugin, cluster and namespace components of a key, encoded as a key holds them (escaped,
/// each terminated): what [`SortOrder::key_in_context`] copies into every key of a source whose
/// items carry the source's own.
pub(crate) fn encode_context(plugin: &str, cluster: &str, namespace: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(plugin.len() + cluster.len() + namespace.len() + 6);
    for part in [plugin, cluster, namespace] {
        push_component(&mut out, part);
    }
    out
}

/// The collation's sort key of `text` as the first component (escaped, terminated).
#[cfg(feature = "collation")]
fn push_collation_key(out: &mut Vec<u8>, collation: Collation, text: &str) {
    let mut key = Vec::with_capacity(3 * text.len() + 8);
    collation.write_sort_key(text, &mut key);
    push_component_bytes(out, key.into_iter());
}

/// Never called without the `collation` feature ([`SortOrder::collation`] is `None` there).
#[cfg(not(feature = "collation"))]
fn push_collation_key(_: &mut Vec<u8>, _: Collation, _: &str) {}

/// The component at the start of `rest` as encoded (escapes kept) and whether it holds an
/// escaped `0x00`; `rest` moves past it and its terminator. Any bytes (a collation key).
fn raw_component<'k>(rest: &mut &'k [u8]) -> Option<(&'k [u8], bool)> {
    // The component runs to its `0x00 0x00` terminator; `0x00 0xFF` is an escaped NUL.
    let b: &'k [u8] = rest;
    let mut i = 0;
    let mut escaped = false;
    loop {
        match b.get(i)? {
            0 => match b.get(i + 1)? {
                0 => break,
                &ESCAPED_NUL => {
                    escaped = true;
                    i += 2;
                }
                _ => return None,
            },
            _ => i += 1,
        }
    }
    let part = b.get(..i)?;
    *rest = b.get(i + 2..)?;
    Some((part, escaped))
}

/// The component at the start of `rest` (moved past it): borrowed unless it holds an escaped `0x00`.
fn next_component<'k>(rest: &mut &'k [u8]) -> Option<Cow<'k, str>> {
    let (part, escaped) = raw_component(rest)?;
    if escaped {
        let mut out = Vec::with_capacity(part.len());
        let mut j = 0;
        while let Some(&c) = part.get(j) {
            out.push(c);
            j += if c == 0 { 2 } else { 1 };
        }
        String::from_utf8(out).ok().map(Cow::Owned)
    } else {
        core::str::from_utf8(part).ok().map(Cow::Borrowed)
    }
}

fn push_component(out: &mut Vec<u8>, s: &str) {
    if !s.as_bytes().contains(&0) {
        out.extend_from_slice(s.as_bytes());
        out.extend_from_slice(&[0, 0]);
    } else {
        push_component_bytes(out, s.bytes());
    }
}

fn push_component_bytes(out: &mut Vec<u8>, bytes: impl Iterator<Item = u8>) {
    for b in bytes {
        out.push(b);
        if b == 0 {
            out.push(ESCAPED_NUL);
        }
    }
    out.extend_from_slice(&[0, 0]);
}

/// The first 8 bytes of a key (or of a bound: any bytes) as a big-endian `u64`, zero-padded: the
/// merge compares these first, and the bytes only when they are equal.
///
/// For any `a`, `b`: `key_prefix(a) < key_prefix(b)` implies `a < b` (and `>` implies `>`): the
/// padding zeros sort at or before whatever a longer key has there. Equal prefixes decide nothing.
#[inline]
pub(crate) fn key_prefix(bytes: &[u8]) -> u64 {
    if let Some(first) = bytes.first_chunk::<8>() {
        return u64::from_be_bytes(*first);
    }
    let mut word = [0u8; 8];
    for (w, b) in word.iter_mut().zip(bytes) {
        *w = *b;
    }
    u64::from_be_bytes(word)
}

impl SortKey {
    /// The key's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The first component as encoded, terminator included: the sort field
    /// (`name`, or lowercase `displayName`).
    ///
    /// Comparing two keys' `primary()` slices orders them by that component
    /// alone. A key without a terminator (not built by [`SortOrder::key`]) is
    /// all primary.
    pub fn primary(&self) -> &[u8] {
        let b = &self.0;
        let mut i = 0;
        // `get`, not indexing: no panic paths (size).
        while let Some(&byte) = b.get(i) {
            if byte == 0 {
                match b.get(i + 1) {
                    Some(0) => return b.get(..i + 2).unwrap_or(b),
                    Some(_) => i += 2,
                    None => break,
                }
            } else {
                i += 1;
            }
        }
        b
    }

    /// The decoded components, in order; `None` when the bytes are not a
    /// well-formed key (a stray `0x00`, a missing terminator, or text that is not UTF-8).
    pub fn components(&self) -> Option<Vec<String>> {
        let b = &self.0;
        let mut parts = Vec::new();
        let mut cur = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if b[i] == 0 {
                match b.get(i + 1) {
                    Some(0) => {
                        parts.push(String::from_utf8(core::mem::take(&mut cur)).ok()?);
                    }
                    Some(&ESCAPED_NUL) => cur.push(0),
                    _ => return None,
                }
                i += 2;
            } else {
                cur.push(b[i]);
                i += 1;
            }
        }
        if cur.is_empty() {
            Some(parts)
        } else {
            None
        }
    }

    /// [`SortKey::to_parts`] without copying: `[sort value, plugin, cluster, namespace,
    /// identifier]`, borrowed from the key (copied only where a component holds a `0x00`).
    pub fn parts_ref(&self, order: SortOrder) -> Option<[Cow<'_, str>; 5]> {
        let mut rest = self.0.as_slice();
        if order.derived_primary() {
            raw_component(&mut rest)?;
        }
        let parts = [
            next_component(&mut rest)?,
            next_component(&mut rest)?,
            next_component(&mut rest)?,
            next_component(&mut rest)?,
            next_component(&mut rest)?,
        ];
        rest.is_empty().then_some(parts)
    }

    /// Splits a key of `order` back into (sort value, identity): the inverse of
    /// [`SortOrder::key_from_parts`]. `None` when the key is not one of `order`'s.
    pub fn to_parts(&self, order: SortOrder) -> Option<(String, Identity)> {
        let [sort_value, plugin, cluster, namespace, identifier] =
            self.parts_ref(order)?.map(Cow::into_owned);
        let identity = Identity {
            plugin,
            cluster,
            namespace,
            identifier,
        };
        Some((sort_value, identity))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_in_its_sources_context_is_the_same_bytes() {
        let context = encode_context("helm.packages", "default", "kube\0apps");
        for order in [SortOrder::Name, SortOrder::DisplayName] {
            for (name, display) in [("apache", ""), ("a\0b", "Apache Ä"), ("", "x")] {
                let f = ItemFields {
                    plugin: "helm.packages".into(),
                    cluster: "default".into(),
                    namespace: "kube\0apps".into(),
                    identifier: format!("bitnami/{name}"),
                    name: name.into(),
                    display_name: display.into(),
                    ..Default::default()
                };
                assert_eq!(
                    order.key_in_context(&f.key_fields(), &context),
                    order.key(&f)
                );
            }
        }
    }

    #[test]
    fn key_prefix_orders_as_the_bytes_where_it_differs() {
        // Short keys (zero-padded), keys with real zeros (terminators, escapes), long keys that
        // differ before and after their 8th byte, high bytes.
        let keys: [&[u8]; 12] = [
            b"",
            b"\x00",
            b"\x00\x00",
            b"a\x00\x00",
            b"a\x00\x00b\x00\x00",
            b"a\x00\xffb\x00\x00",
            b"abcdefgh",
            b"abcdefgh\x00\x00",
            b"abcdefghi\x00\x00",
            b"abcdefgz\x00\x00",
            b"\xff\xff\xff\xff\xff\xff\xff\xff\xff",
            b"kube-prometheus\x00\x00",
        ];
        for a in keys {
            for b in keys {
                let (pa, pb) = (key_prefix(a), key_prefix(b));
                if pa != pb {
                    assert_eq!(pa.cmp(&pb), a.cmp(b), "{a:?} {b:?}");
                }
                if a == b {
                    assert_eq!(pa, pb);
                }
            }
        }
        assert_eq!(key_prefix(b"abcdefghij"), u64::from_be_bytes(*b"abcdefgh"));
        assert_eq!(key_prefix(b"ab"), u64::from_be_bytes(*b"ab\0\0\0\0\0\0"));
    }

    fn item(name: &str, display: &str, plugin: &str, ns: &str, id: &str) -> ItemFields {
        ItemFields {
            plugin: plugin.into(),
            cluster: "default".into(),
            namespace: ns.into(),
            identifier: id.into(),
            name: name.into(),
            display_name: display.into(),
            ..Default::default()
        }
    }

    fn n(name: &str) -> ItemFields {
        item(
            name,
            "",
            "helm.packages",
            "kubeapps",
            &format!("repo/{name}"),
        )
    }

    #[test]
    fn name_order_is_byte_order_of_the_name_first() {
        // (smaller, larger, why)
        let table: &[(ItemFields, ItemFields, &str)] = &[
            (
                n("Zeta"),
                n("alpha"),
                "uppercase bytes sort before lowercase",
            ),
            (n("pkg"), n("pkg-a"), "a prefix sorts first"),
            (n("pkg-a"), n("pkg-b"), "plain bytes"),
            (
                n("pkg\u{0}"),
                n("pkg\u{1}"),
                "an embedded NUL sorts as 0x00",
            ),
            (
                n("pkg"),
                n("pkg\u{0}"),
                "a name sorts before itself plus NUL",
            ),
            (
                n("pkg\u{0}\u{0}"),
                n("pkg\u{0}a"),
                "escaped NULs keep byte order",
            ),
            (n("z"), n("é"), "code point order: U+00E9 after z"),
            (
                n("\u{FFFF}"),
                n("\u{1F600}"),
                "astral after BMP (UTF-8 byte order, not UTF-16)",
            ),
            (
                item("pkg", "", "fluxv2.packages", "kubeapps", "repo-z/pkg"),
                item("pkg", "", "helm.packages", "kubeapps", "repo-a/pkg"),
                "equal names: plugin decides",
            ),
            (
                item("pkg", "", "helm.packages", "kubeapps", "repo-z/pkg"),
                item("pkg", "", "helm.packages", "team-1", "repo-a/pkg"),
                "then namespace (same cluster)",
            ),
            (
                item("pkg", "", "helm.packages", "kubeapps", "repo-a/pkg"),
                item("pkg", "", "helm.packages", "kubeapps", "repo-b/pkg"),
                "then identifier",
            ),
            (
                item("a", "", "helm.packages", "kubeapps", "x"),
                item("a\u{0}", "", "a", "a", "a"),
                "a NUL in the name cannot forge a component boundary",
            ),
        ];
        for (lo, hi, why) in table {
            assert!(SortOrder::Name.key(lo) < SortOrder::Name.key(hi), "{why}");
        }
    }

    #[test]
    fn cluster_orders_before_namespace() {
        let mut a = n("pkg");
        let mut b = n("pkg");
        a.cluster = "a-cluster".into();
        a.namespace = "zzz".into();
        b.cluster = "b-cluster".into();
        b.namespace = "aaa".into();
        assert!(SortOrder::Name.key(&a) < SortOrder::Name.key(&b));
    }

    #[test]
    fn display_name_order_is_case_insensitive_then_bytes() {
        let table: &[(ItemFields, ItemFields, &str)] = &[
            (
                n("x-apache"),
                n("Zookeeper"),
                "empty displayNames: the names compare case-insensitively",
            ),
            (
                item("b", "apache", "p", "ns", "1"),
                item("a", "Zookeeper", "p", "ns", "2"),
                "case-insensitive: apache < Zookeeper",
            ),
            (
                item("b", "Apache", "p", "ns", "2"),
                item("a", "apache", "p", "ns", "1"),
                "equal lowercase: original bytes decide (A < a)",
            ),
            (
                item("zzz", "", "p", "ns", "1"),
                item("aaa", "zzzz", "p", "ns", "2"),
                "empty displayName sorts as its name",
            ),
            (
                item("x", "ÉCOLE", "p", "ns", "1"),
                item("y", "ézout", "p", "ns", "2"),
                "non-ASCII lowercase: école < ézout",
            ),
            (
                item("x", "KELVIN", "p", "ns", "1"),
                item("y", "\u{212A}elvin2", "p", "ns", "2"),
                "Kelvin sign lowercases to ASCII k",
            ),
        ];
        for (lo, hi, why) in table {
            assert!(
                SortOrder::DisplayName.key(lo) < SortOrder::DisplayName.key(hi),
                "{why}"
            );
        }
        // The same two items in the other order under `name` (byte order).
        assert!(SortOrder::Name.key(&n("Zookeeper")) < SortOrder::Name.key(&n("x-apache")));
    }

    #[test]
    fn keys_are_total_over_identity() {
        let a = item("pkg", "", "helm.packages", "kubeapps", "repo-a/pkg");
        let mut b = a.clone();
        assert_eq!(SortOrder::Name.key(&a), SortOrder::Name.key(&b));
        b.identifier = "repo-a/pkg2".into();
        assert_ne!(SortOrder::Name.key(&a), SortOrder::Name.key(&b));
    }

    #[test]
    fn encoding_layout_is_as_documented() {
        let it = item("a\u{0}b", "", "p", "ns", "id");
        assert_eq!(
            SortOrder::Name.key(&it).0,
            b"a\x00\xffb\x00\x00p\x00\x00default\x00\x00ns\x00\x00id\x00\x00".to_vec()
        );
        let it = item("n", "Ab", "p", "", "");
        assert_eq!(
            SortOrder::DisplayName.key(&it).0,
            b"ab\x00\x00Ab\x00\x00p\x00\x00default\x00\x00\x00\x00\x00\x00".to_vec()
        );
    }

    #[test]
    fn primary_is_the_first_encoded_component() {
        let cases: &[(SortOrder, ItemFields, &[u8])] = &[
            (SortOrder::Name, n("pkg-a"), b"pkg-a\x00\x00"),
            (SortOrder::Name, n("a\u{0}b"), b"a\x00\xffb\x00\x00"),
            (SortOrder::Name, n(""), b"\x00\x00"),
            (
                SortOrder::DisplayName,
                item("n", "Ab", "p", "ns", "i"),
                b"ab\x00\x00",
            ),
        ];
        for (order, it, want) in cases {
            assert_eq!(order.key(it).primary(), *want, "{:?}", it.name);
        }
        assert_eq!(SortKey(b"abc".to_vec()).primary(), b"abc");
    }

    #[test]
    fn primary_order_matches_name_order() {
        let names = ["", "a", "a\u{0}", "a\u{0}\u{0}", "a\u{1}", "ab", "b", "é"];
        for x in names {
            for y in names {
                let (kx, ky) = (SortOrder::Name.key(&n(x)), SortOrder::Name.key(&n(y)));
                assert_eq!(
                    kx.primary().cmp(ky.primary()),
                    x.as_bytes().cmp(y.as_bytes()),
                    "{x:?} vs {y:?}"
                );
            }
        }
    }

    #[test]
    fn parts_round_trip() {
        for order in [SortOrder::Name, SortOrder::DisplayName] {
            for it in [
                item(
                    "pkg\u{0}",
                    "Dis\u{0}play",
                    "helm.packages",
                    "kubeapps",
                    "repo/pkg",
                ),
                item("pkg", "", "p", "", ""),
                item("ΣΑΣ", "ΟΔΟΣ", "p", "n", "i"),
            ] {
                let key = order.key(&it);
                let (value, identity) = key.to_parts(order).expect("well-formed");
                assert_eq!(value, order.sort_value(&it));
                assert_eq!(identity, it.identity());
                assert_eq!(order.key_from_parts(&value, &identity), key);
            }
        }
    }

    #[test]
    fn malformed_keys_do_not_decode() {
        let table: &[(&[u8], &str)] = &[
            (b"abc", "no terminator"),
            (b"a\x00", "truncated terminator"),
            (b"a\x00\x01\x00\x00", "stray NUL"),
            (b"\xff\xfe\x00\x00", "not UTF-8"),
        ];
        for (bytes, why) in table {
            assert_eq!(SortKey(bytes.to_vec()).components(), None, "{why}");
        }
        let short = SortKey(b"a\x00\x00b\x00\x00".to_vec());
        assert_eq!(short.to_parts(SortOrder::Name), None, "too few components");
    }

    #[test]
    fn final_sigma_follows_unicode_default_lowercase() {
        // Rust's to_lowercase (like JS toLowerCase) maps a word-final Σ to ς.
        let a = item("x", "ΟΔΟΣ", "p", "n", "1");
        let key = SortOrder::DisplayName.key(&a);
        let parts = key.components().expect("well-formed");
        assert_eq!(parts[0], "οδος");
    }
    #[test]
    fn apiserver_order_is_the_storage_keys_byte_order() {
        // (namespace, name) pairs in the order etcd keeps `/registry/pods/<namespace>/<name>`.
        let keys = [
            ("a-b", "z"),
            ("a", "b"),
            ("a", "b-c"),
            ("a", "bc"),
            ("a0", "a"),
            ("kube-system", "coredns"),
            ("kube-system", "etcd"),
            ("kubeapps", "a"),
        ];
        let item = |(ns, name): (&str, &str)| ItemFields {
            plugin: "v1/pods".into(),
            cluster: "east".into(),
            namespace: ns.into(),
            identifier: name.into(),
            name: name.into(),
            ..Default::default()
        };
        let storage = |(ns, name): (&str, &str)| {
            if ns.is_empty() {
                format!("/registry/pods/{name}")
            } else {
                format!("/registry/pods/{ns}/{name}")
            }
        };
        for w in keys.windows(2) {
            let (lo, hi) = (w[0], w[1]);
            assert!(storage(lo) < storage(hi), "table order: {lo:?} {hi:?}");
            assert!(
                SortOrder::Apiserver.key(&item(lo)) < SortOrder::Apiserver.key(&item(hi)),
                "{lo:?} before {hi:?}"
            );
        }
        // The sort value is what a page token keeps; the key is rebuilt from it and the identity.
        let it = item(("kube-system", "etcd"));
        assert_eq!(SortOrder::Apiserver.sort_value(&it), "kube-system/etcd");
        let key = SortOrder::Apiserver.key(&it);
        let (value, identity) = key.to_parts(SortOrder::Apiserver).unwrap();
        assert_eq!(SortOrder::Apiserver.key_from_parts(&value, &identity), key);
        // Two clusters' copies of one object: equal first components, the cluster decides.
        let mut west = it.clone();
        west.cluster = "west".into();
        assert_eq!(
            SortOrder::Apiserver.key(&it).primary(),
            SortOrder::Apiserver.key(&west).primary()
        );
        assert!(SortOrder::Apiserver.key(&it) < SortOrder::Apiserver.key(&west));
    }
}
