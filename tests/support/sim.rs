//! A simulated backend per source, and a referee: it answers every request the
//! way the source kind does (cases README "Backend behaviours") and fails the
//! test on any request a correct pager cannot make (a continue token it never
//! handed out, a non-decimal offset, `limit` 0, a request for another source).
//!
//! Like the fake in client-go's `tools/pager` tests, the backend checks the
//! client on every call instead of trusting it.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::ops::Bound;
use std::rc::Rc;

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine as _};
use kubeapps_pager::{Chunk, ChunkRequest, Failure, FilterOptions, Identity, ItemFields, SourceId};
use serde::{Deserialize, Serialize};

use super::oracle::{identity_of, ref_collation_key, ref_matches, SplitMix};

/// What the pager carries per item: the source it came from and the fields as served.
#[derive(Debug, Clone, PartialEq)]
pub struct Served {
    /// Index of the source in the options.
    pub source: usize,
    /// The item as the backend served it.
    pub fields: ItemFields,
}

/// The payload type of every pager under test.
pub type Payload = Rc<Served>;

/// How a list says "no more": `continue: ""` or no token at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndStyle {
    /// `Some("")`.
    Empty,
    /// `None`.
    Missing,
}

impl EndStyle {
    fn token(self) -> Option<String> {
        match self {
            EndStyle::Empty => Some(String::new()),
            EndStyle::Missing => None,
        }
    }
}

/// A Kubernetes list's knobs.
#[derive(Debug, Clone)]
pub struct KubeConfig {
    /// Server-side selector applied after `limit` (makes short and empty chunks).
    /// It must drop only items the pager's filter drops too.
    pub selector: Option<FilterOptions>,
    /// How the last chunk ends.
    pub end: EndStyle,
    /// Whether chunks carry `remainingItemCount` (never with a selector, as the apiserver).
    pub remaining_count: bool,
    /// An inclusive continue cursor: every continuation starts with the previous chunk's last item.
    pub inclusive: bool,
}

impl Default for KubeConfig {
    fn default() -> Self {
        KubeConfig {
            selector: None,
            end: EndStyle::Empty,
            remaining_count: true,
            inclusive: false,
        }
    }
}

/// A Kubeapps offset list's knobs.
#[derive(Debug, Clone)]
pub struct OffsetConfig {
    /// A full last chunk still carries the next offset (Kubeapps' helm plugin does);
    /// the request for it then gets an empty chunk.
    pub full_page_token: bool,
    /// How the last chunk ends.
    pub end: EndStyle,
    /// The list's order: byte order or a database collation.
    pub collation: Collation,
    /// Equal names come in another order for every (offset, limit), the same each time it is
    /// asked (PostgreSQL's `ORDER BY name LIMIT/OFFSET`).
    pub pg_ties: bool,
    /// An offset past the end answers 400 InvalidArgument (kapp_controller), not an empty list.
    pub refuse_past_end: bool,
    /// The last chunk's next token is the token it was asked with (a plugin that ends so).
    pub echo_end: bool,
}

impl Default for OffsetConfig {
    fn default() -> Self {
        OffsetConfig {
            full_page_token: false,
            end: EndStyle::Empty,
            collation: Collation::Bytes,
            pg_ties: false,
            refuse_past_end: false,
            echo_end: false,
        }
    }
}

/// The order a database sorts names in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collation {
    /// Byte order (PostgreSQL's C collation): the merge order.
    Bytes,
    /// Like glibc's en_US.UTF-8 at its first level: case and hyphens ignored (`kubeapps` before
    /// `kube-prometheus`), then bytes.
    EnUs,
    /// The pager's collation of that locale, as ICU4X writes its sort keys (the oracle's
    /// [`ref_collation_key`]): a database whose order is the collated merge order.
    Uca(kubeapps_pager::Collation),
}

impl Collation {
    /// Sorts `list` (stable: ties keep their order).
    pub fn sort(self, list: &mut [ItemFields]) {
        match self {
            Collation::Bytes => {}
            Collation::EnUs => list.sort_by_cached_key(|it| en_us_key(&it.name)),
            Collation::Uca(c) => list.sort_by_cached_key(|it| ref_collation_key(c, &it.name)),
        }
    }
}

/// The en_US-like sort key of a name: lowercase without hyphens, then the bytes.
pub fn en_us_key(name: &str) -> (String, Vec<u8>) {
    let primary = name
        .chars()
        .filter(|c| *c != '-')
        .flat_map(char::to_lowercase)
        .collect();
    (primary, name.as_bytes().to_vec())
}

/// Permutes each group of equal names of `list` by a seed made of `offset` and `limit`.
pub fn permute_ties(list: &mut [ItemFields], offset: u64, limit: u32) {
    let mut rng = SplitMix(offset.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(limit));
    let mut start = 0;
    while start < list.len() {
        let end = start
            + list[start..]
                .iter()
                .take_while(|i| i.name == list[start].name)
                .count();
        rng.shuffle(&mut list[start..end]);
        start = end;
    }
}

/// How a source pages.
#[derive(Debug, Clone)]
pub enum Behaviour {
    /// MVCC snapshots, continue tokens, 410 Expired.
    Kubernetes(KubeConfig),
    /// Decimal offsets into the current list sorted by name (ties in insertion order).
    KubeappsOffset(OffsetConfig),
    /// Like `KubeappsOffset`, reshuffled (seeded) on every request.
    Unordered(OffsetConfig, u64),
}

impl Behaviour {
    /// Default Kubernetes behaviour.
    pub fn kubernetes() -> Self {
        Behaviour::Kubernetes(KubeConfig::default())
    }
    /// Default Kubeapps offset behaviour.
    pub fn offset() -> Self {
        Behaviour::KubeappsOffset(OffsetConfig::default())
    }
    /// Default unordered behaviour with a seed.
    pub fn unordered(seed: u64) -> Self {
        Behaviour::Unordered(OffsetConfig::default(), seed)
    }
    /// Whether it is the Kubernetes kind.
    pub fn is_kubernetes(&self) -> bool {
        matches!(self, Behaviour::Kubernetes(_))
    }
}

/// A fault to inject into the source's next request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Injection {
    /// Answer with this failure instead (503, 500, 0 = network error...).
    Fail(Failure),
    /// The transport gives up (fail with status 0) and the real answer arrives after the retry went out.
    Late,
    /// The answer is delivered twice.
    Duplicate,
    /// (Kubernetes) the answer first comes back with the request's own continue token as its next
    /// token: a token already returned in this pass (`NO_PROGRESS`); then the right answer.
    RepeatToken,
    /// The answer first comes back spoiled (`INVALID_RESPONSE`); then the right answer.
    Invalid(Spoil),
}

/// A change to a source's data, applied now or deferred to just before a later request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mutation {
    /// Insert an item (skipped if its identity or Kubernetes key is taken).
    Insert(ItemFields),
    /// Delete the `n`-th live item (mod the count).
    Delete(usize),
    /// Set the `n`-th live item's categories and description (never its sort key).
    Update(usize, Vec<String>, String),
}

/// How an answer is spoiled (the `INVALID_RESPONSE` cases the pager documents).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spoil {
    /// An offset source returns more items than `limit`.
    TooMany,
    /// The next token is longer than 8 KiB.
    LongToken,
}

/// How the harness must deliver an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// See [`Injection::Late`].
    Late,
    /// See [`Injection::Duplicate`].
    Duplicate,
    /// See [`Injection::RepeatToken`].
    RepeatToken,
    /// See [`Injection::Invalid`].
    Invalid(Spoil),
}

/// An answer: a chunk or a failure.
#[derive(Debug, Clone)]
pub enum Reply {
    /// 200 with a list.
    Chunk(Chunk<Payload>),
    /// An error status.
    Failure(Failure),
}

/// An answer and how to deliver it.
#[derive(Debug, Clone)]
pub struct Delivery {
    /// The answer.
    pub reply: Reply,
    /// `None`: deliver once, now.
    pub fault: Option<Fault>,
}

/// A scripted answer (cases' `deliver` step): item names and the continue token, byte for byte.
#[derive(Debug, Clone)]
pub struct Scripted {
    /// Names of the items, looked up in the source's current items.
    pub items: Vec<String>,
    /// The next token as given.
    pub next_token: Option<String>,
    /// `remainingItemCount` as given.
    pub remaining: Option<u64>,
}

/// One request as the referee saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// Source index.
    pub source: usize,
    /// The token sent.
    pub token: String,
    /// The limit sent.
    pub limit: u32,
    /// Status answered (200, 410, 503...).
    pub status: u16,
}

/// The apiserver continue token (k8s.io/apiserver/pkg/storage/continue.go): base64url
/// (no padding) of JSON `{"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"}`.
#[derive(Debug, Serialize, Deserialize)]
struct ApiserverContinue {
    v: String,
    rv: i64,
    start: String,
}

/// Encodes an apiserver continue token.
pub fn encode_continue(rv: i64, start: &str) -> String {
    let json = serde_json::to_vec(&ApiserverContinue {
        v: "meta.k8s.io/v1".into(),
        rv,
        start: start.into(),
    })
    .unwrap_or_default();
    URL_SAFE_NO_PAD.encode(json)
}

/// Decodes an apiserver continue token into (rv, start); `None` when it is not one.
pub fn decode_continue(token: &str) -> Option<(i64, String)> {
    let bytes = URL_SAFE_NO_PAD.decode(token).ok()?;
    let c: ApiserverContinue = serde_json::from_slice(&bytes).ok()?;
    (c.v == "meta.k8s.io/v1").then_some((c.rv, c.start))
}

/// An MVCC key-value store: every write bumps the revision; reads at a revision see that snapshot.
#[derive(Debug, Default)]
struct KubeStore {
    rev: u64,
    /// Revisions below this are compacted: reading them answers 410.
    compacted: u64,
    keys: BTreeMap<String, Vec<(u64, Option<ItemFields>)>>,
}

struct Scan {
    items: Vec<ItemFields>,
    last_key: Option<String>,
    remaining: u64,
}

impl KubeStore {
    fn write(&mut self, key: String, value: Option<ItemFields>) {
        self.rev += 1;
        self.keys.entry(key).or_default().push((self.rev, value));
    }

    fn at(hist: &[(u64, Option<ItemFields>)], rev: u64) -> Option<&ItemFields> {
        hist.iter()
            .rev()
            .find(|(r, _)| *r <= rev)
            .and_then(|(_, v)| v.as_ref())
    }

    fn live(&self, key: &str) -> Option<&ItemFields> {
        self.keys.get(key).and_then(|h| Self::at(h, self.rev))
    }

    /// Scans up to `limit` keys present at `rev` from `start` (inclusive), keeps those the
    /// selector passes, and counts the present keys left after the last one scanned.
    fn list(
        &self,
        start: Option<&str>,
        rev: u64,
        limit: u32,
        selector: Option<&FilterOptions>,
    ) -> Scan {
        let range = match start {
            Some(s) => self
                .keys
                .range::<str, _>((Bound::Included(s), Bound::Unbounded)),
            None => self.keys.range::<str, _>(..),
        };
        let mut present = range.filter_map(|(k, h)| Self::at(h, rev).map(|it| (k, it)));
        let mut scan = Scan {
            items: Vec::new(),
            last_key: None,
            remaining: 0,
        };
        let mut scanned = 0u32;
        for (k, it) in present.by_ref() {
            scanned += 1;
            scan.last_key = Some(k.clone());
            if selector.map_or(true, |f| ref_matches(f, it)) {
                scan.items.push(it.clone());
            }
            if scanned >= limit {
                break;
            }
        }
        scan.remaining = present.count() as u64;
        scan
    }
}

/// One simulated source.
#[derive(Debug)]
pub struct SimSource {
    /// Its identity.
    pub id: SourceId,
    /// How it pages.
    pub behaviour: Behaviour,
    /// Whether a 410 carries an inconsistent continue token (set by [`Sim::expire`]).
    pub inconsistent_on_410: bool,
    kube: KubeStore,
    /// Offset kinds: (insertion sequence, item), sorted by (name bytes, sequence).
    list: Vec<(u64, ItemFields)>,
    seq: u64,
    rng: SplitMix,
    handed_out: HashSet<String>,
    scripted: HashMap<String, Scripted>,
    other_requests: Option<Failure>,
    injections: VecDeque<Injection>,
    /// While set, every request fails for good with this status (a plugin that is down).
    pub down: Option<u16>,
    /// Every version of every item that ever existed here.
    versions: HashMap<Identity, Vec<ItemFields>>,
    /// Identities present when the run started.
    initial: HashSet<Identity>,
    /// Identities deleted at some point.
    deleted: HashSet<Identity>,
    /// Requests served.
    pub requests: u64,
    /// 410 answers served.
    pub expired_answers: u64,
}

/// The backend of every source of a run.
#[derive(Debug, Default)]
pub struct Sim {
    /// The sources, in the pager's option order.
    pub sources: Vec<SimSource>,
    /// Every request served, in order.
    pub seen: Vec<Seen>,
    /// Changes to apply one by one, each just before a request is served.
    deferred: VecDeque<(usize, Mutation)>,
}

fn kube_key(it: &ItemFields) -> String {
    format!("{}/{}", it.namespace, it.name)
}

impl Sim {
    /// An empty backend.
    pub fn new() -> Self {
        Sim::default()
    }

    /// Adds a source with its initial items (plugin, cluster and namespace are set from `id`).
    /// Returns its index.
    pub fn add_source(
        &mut self,
        id: SourceId,
        behaviour: Behaviour,
        items: Vec<ItemFields>,
    ) -> usize {
        let seed = match &behaviour {
            Behaviour::Unordered(_, seed) => *seed,
            _ => 0,
        };
        let mut s = SimSource {
            id,
            behaviour,
            inconsistent_on_410: false,
            kube: KubeStore {
                rev: 1,
                ..KubeStore::default()
            },
            list: Vec::new(),
            seq: 0,
            rng: SplitMix(seed),
            handed_out: HashSet::new(),
            scripted: HashMap::new(),
            other_requests: None,
            injections: VecDeque::new(),
            down: None,
            versions: HashMap::new(),
            initial: HashSet::new(),
            deleted: HashSet::new(),
            requests: 0,
            expired_answers: 0,
        };
        for it in items {
            let it = s.own(it);
            assert!(
                s.put(it.clone(), true),
                "setup: duplicate item {:?} in {}",
                it.identifier,
                s.id.label()
            );
            s.initial.insert(identity_of(&it));
        }
        self.sources.push(s);
        self.sources.len() - 1
    }

    /// Index of the only source with this plugin name; panics if none or several.
    pub fn by_plugin(&self, plugin: &str) -> usize {
        let ix: Vec<usize> = self
            .sources
            .iter()
            .enumerate()
            .filter(|(_, s)| s.id.plugin == plugin)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(ix.len(), 1, "test bug: {} sources named {plugin}", ix.len());
        ix[0]
    }

    /// Inserts an item; false (and nothing changes) if its identity or Kubernetes key is taken.
    pub fn insert(&mut self, src: usize, it: ItemFields) -> bool {
        let s = &mut self.sources[src];
        let it = s.own(it);
        s.put(it, true)
    }

    /// Replaces the item with the same identity; false if there is none.
    pub fn update(&mut self, src: usize, it: ItemFields) -> bool {
        let s = &mut self.sources[src];
        let it = s.own(it);
        s.put(it, false)
    }

    /// Deletes the item with this identity; false if there is none.
    pub fn delete(&mut self, src: usize, id: &Identity) -> bool {
        let s = &mut self.sources[src];
        let Some(cur) = s.live().into_iter().find(|it| identity_of(it) == *id) else {
            return false;
        };
        s.deleted.insert(id.clone());
        if s.behaviour.is_kubernetes() {
            s.kube.write(kube_key(&cur), None);
        } else {
            s.list.retain(|(_, it)| identity_of(it) != *id);
        }
        true
    }

    /// Deletes every item with this name; the number deleted.
    pub fn delete_name(&mut self, src: usize, name: &str) -> usize {
        let ids: Vec<Identity> = self.sources[src]
            .live()
            .iter()
            .filter(|it| it.name == name)
            .map(identity_of)
            .collect();
        ids.iter().filter(|id| self.delete(src, id)).count()
    }

    /// Compacts the Kubernetes store past every revision handed out so far: the next
    /// continue request answers 410 Expired, with an inconsistent token if asked.
    /// A no-op on other kinds.
    pub fn expire(&mut self, src: usize, inconsistent_token: bool) {
        let s = &mut self.sources[src];
        if !s.behaviour.is_kubernetes() {
            return;
        }
        s.inconsistent_on_410 = inconsistent_token;
        // Some write elsewhere in the cluster moved the (cluster-wide) revision on, then compaction.
        s.kube.rev += 1;
        s.kube.compacted = s.kube.rev;
    }

    /// Applies a change now.
    pub fn mutate(&mut self, src: usize, m: Mutation) {
        let live = self.live(src);
        match m {
            Mutation::Insert(it) => {
                self.insert(src, it);
            }
            Mutation::Delete(n) if !live.is_empty() => {
                self.delete(src, &identity_of(&live[n % live.len()]));
            }
            Mutation::Update(n, categories, short_description) if !live.is_empty() => {
                let it = ItemFields {
                    categories,
                    short_description,
                    ..live[n % live.len()].clone()
                };
                self.update(src, it);
            }
            _ => {}
        }
    }

    /// Queues a change to apply just before some later request (of any source) is served:
    /// the backend changes while a page is being built.
    pub fn defer(&mut self, src: usize, m: Mutation) {
        self.deferred.push_back((src, m));
    }

    /// Queues a fault for the source's next request.
    pub fn inject(&mut self, src: usize, inj: Injection) {
        self.sources[src].injections.push_back(inj);
    }

    /// Answers every request sent with `token` by `answer` (its continue token counts as handed out).
    pub fn script(&mut self, src: usize, token: &str, answer: Scripted) {
        let s = &mut self.sources[src];
        if let Some(t) = &answer.next_token {
            if !t.is_empty() {
                s.handed_out.insert(t.clone());
            }
        }
        s.scripted.insert(token.to_string(), answer);
    }

    /// Answers requests whose token the backend cannot read with this failure (default 400).
    pub fn other_requests(&mut self, src: usize, f: Failure) {
        self.sources[src].other_requests = Some(f);
    }

    /// Faults queued and not yet played on this source.
    pub fn injections_left(&self, src: usize) -> usize {
        self.sources[src].injections.len()
    }

    /// Requests served by this source.
    pub fn requests(&self, src: usize) -> u64 {
        self.sources[src].requests
    }

    /// Requests served by all sources.
    pub fn total_requests(&self) -> u64 {
        self.sources.iter().map(|s| s.requests).sum()
    }

    /// Items present now, in the source's own order (name order; unshuffled).
    pub fn live(&self, src: usize) -> Vec<ItemFields> {
        self.sources[src].live()
    }

    /// Whether `fields` is a version of an item that existed in the source at some point.
    pub fn existed(&self, src: usize, fields: &ItemFields) -> bool {
        self.sources[src]
            .versions
            .get(&identity_of(fields))
            .is_some_and(|v| v.contains(fields))
    }

    /// Identities present for the whole run whose every version passes `filter`: the
    /// items `complete` requires.
    pub fn required(&self, src: usize, filter: &FilterOptions) -> Vec<Identity> {
        let s = &self.sources[src];
        let mut out: Vec<Identity> = s
            .initial
            .iter()
            .filter(|id| !s.deleted.contains(*id))
            .filter(|id| {
                s.versions
                    .get(*id)
                    .is_some_and(|vs| vs.iter().all(|v| ref_matches(filter, v)))
            })
            .cloned()
            .collect();
        out.sort();
        out
    }

    /// Answers one request, as the source's backend would, after checking it.
    pub fn serve(&mut self, req: &ChunkRequest) -> Delivery {
        if let Some((s, m)) = self.deferred.pop_front() {
            self.mutate(s, m);
        }
        let src = req.source_index;
        assert!(
            src < self.sources.len(),
            "referee: request for source index {src}, only {} sources",
            self.sources.len()
        );
        let s = &mut self.sources[src];
        assert_eq!(
            req.source, s.id,
            "referee: request {req:?} names another source than its index"
        );
        assert!(
            req.limit >= 1,
            "referee: {} was asked limit 0: {req:?}",
            s.id.label()
        );
        if s.behaviour.is_kubernetes() {
            assert!(
                req.page_token.is_empty() || s.handed_out.contains(&req.page_token),
                "referee: {} was sent continue token {:?} that it never handed out",
                s.id.label(),
                req.page_token
            );
        } else {
            assert!(
                req.page_token.bytes().all(|b| b.is_ascii_digit()),
                "referee: {} was sent {:?}, not a decimal offset",
                s.id.label(),
                req.page_token
            );
        }
        s.requests += 1;
        let injection = match s.down {
            // Down: the failure for good, whatever was queued (it stays queued).
            Some(status) => Some(Injection::Fail(Failure {
                status,
                reason: Some("Unimplemented".into()),
                continue_token: None,
            })),
            None => s.injections.pop_front(),
        };
        let (reply, fault) = match injection {
            Some(Injection::Fail(f)) => (Reply::Failure(f), None),
            Some(Injection::Late) => (s.answer(req), Some(Fault::Late)),
            Some(Injection::Duplicate) => (s.answer(req), Some(Fault::Duplicate)),
            Some(Injection::RepeatToken) => (s.answer(req), Some(Fault::RepeatToken)),
            Some(Injection::Invalid(k)) => (s.answer(req), Some(Fault::Invalid(k))),
            None => (s.answer(req), None),
        };
        let status = match &reply {
            Reply::Chunk(_) => 200,
            Reply::Failure(f) => f.status,
        };
        if status == 410 {
            s.expired_answers += 1;
        }
        self.seen.push(Seen {
            source: src,
            token: req.page_token.clone(),
            limit: req.limit,
            status,
        });
        // A failure delivered as such has no fault to play.
        let fault = if matches!(reply, Reply::Chunk(_)) {
            fault
        } else {
            None
        };
        Delivery { reply, fault }
    }
}

impl SimSource {
    /// The item with the source's plugin, cluster and namespace; an all-namespaces source
    /// (namespace `""`) keeps an item's own namespace.
    fn own(&self, mut it: ItemFields) -> ItemFields {
        it.plugin = self.id.plugin.clone();
        it.cluster = self.id.cluster.clone();
        if !self.id.namespace.is_empty() || it.namespace.is_empty() {
            it.namespace = self.id.namespace.clone();
        }
        it
    }

    /// Writes an item: `fresh` = insert (identity and key must be new), else update (must exist).
    fn put(&mut self, it: ItemFields, fresh: bool) -> bool {
        let id = identity_of(&it);
        let exists = self.live().iter().any(|x| identity_of(x) == id);
        if exists == fresh {
            return false;
        }
        if fresh && self.versions.contains_key(&id) {
            // An identity is never reused within a run: it would be a second item to the oracle.
            return false;
        }
        if self.behaviour.is_kubernetes() {
            let key = kube_key(&it);
            match self.kube.live(&key) {
                Some(cur) if identity_of(cur) != id => return false,
                None if !fresh => return false,
                _ => {}
            }
            self.kube.write(key, Some(it.clone()));
        } else if fresh {
            self.seq += 1;
            self.list.push((self.seq, it.clone()));
            self.list.sort_by(|a, b| {
                a.1.name
                    .as_bytes()
                    .cmp(b.1.name.as_bytes())
                    .then(a.0.cmp(&b.0))
            });
        } else {
            for e in self.list.iter_mut() {
                if identity_of(&e.1) == id {
                    e.1 = it.clone();
                }
            }
            self.list.sort_by(|a, b| {
                a.1.name
                    .as_bytes()
                    .cmp(b.1.name.as_bytes())
                    .then(a.0.cmp(&b.0))
            });
        }
        self.versions.entry(id).or_default().push(it);
        true
    }

    fn live(&self) -> Vec<ItemFields> {
        if self.behaviour.is_kubernetes() {
            self.kube
                .keys
                .values()
                .filter_map(|h| KubeStore::at(h, self.kube.rev))
                .cloned()
                .collect()
        } else {
            self.list.iter().map(|(_, it)| it.clone()).collect()
        }
    }

    fn payloads(&self, src: usize, items: Vec<ItemFields>) -> Vec<(ItemFields, Payload)> {
        items
            .into_iter()
            .map(|it| {
                (
                    it.clone(),
                    Rc::new(Served {
                        source: src,
                        fields: it,
                    }),
                )
            })
            .collect()
    }

    fn answer(&mut self, req: &ChunkRequest) -> Reply {
        let src = req.source_index;
        if let Some(sc) = self.scripted.get(&req.page_token).cloned() {
            let live = self.live();
            let mut items = Vec::new();
            for name in &sc.items {
                let it = live.iter().find(|it| &it.name == name).unwrap_or_else(|| {
                    panic!(
                        "test bug: scripted item {name:?} is not in {}",
                        self.id.label()
                    )
                });
                items.push(it.clone());
            }
            // The snapshot's, as an apiserver gives it: the one the next token carries, else the
            // one the request's token continues, else (a new list) the store's current one.
            let rv = [sc.next_token.as_deref(), Some(req.page_token.as_str())]
                .into_iter()
                .flatten()
                .filter_map(decode_continue)
                .map(|(rv, _)| rv)
                .find(|rv| *rv > 0);
            let resource_version = match &self.behaviour {
                Behaviour::Kubernetes(_) => {
                    Some(rv.map_or(self.kube.rev, |rv| rv as u64).to_string())
                }
                _ => None,
            };
            return Reply::Chunk(Chunk {
                items: self.payloads(src, items),
                next_token: sc.next_token.clone(),
                resource_version,
                remaining_item_count: sc.remaining,
            });
        }
        match self.behaviour.clone() {
            Behaviour::Kubernetes(cfg) => self.answer_kube(src, &req.page_token, req.limit, &cfg),
            Behaviour::KubeappsOffset(cfg) => {
                let mut list = self.live();
                cfg.collation.sort(&mut list);
                if cfg.pg_ties {
                    let offset = req.page_token.parse::<u64>().unwrap_or(0);
                    permute_ties(&mut list, offset, req.limit);
                }
                self.answer_offset(src, list, &req.page_token, req.limit, &cfg)
            }
            Behaviour::Unordered(cfg, _) => {
                let mut list = self.live();
                self.rng.shuffle(&mut list);
                self.answer_offset(src, list, &req.page_token, req.limit, &cfg)
            }
        }
    }

    fn bad_request(&self) -> Reply {
        Reply::Failure(self.other_requests.clone().unwrap_or(Failure {
            status: 400,
            reason: Some("BadRequest".into()),
            continue_token: None,
        }))
    }

    fn answer_kube(&mut self, src: usize, token: &str, limit: u32, cfg: &KubeConfig) -> Reply {
        let (rev, start) = if token.is_empty() {
            (self.kube.rev, None)
        } else {
            let Some((rv, start)) = decode_continue(token) else {
                return self.bad_request();
            };
            if rv == -1 {
                // An inconsistent token lists on from its key at the latest revision.
                (self.kube.rev, Some(start))
            } else if rv <= 0 {
                return self.bad_request();
            } else if (rv as u64) < self.kube.compacted {
                let continue_token = self.inconsistent_on_410.then(|| {
                    let t = encode_continue(-1, &start);
                    self.handed_out.insert(t.clone());
                    t
                });
                return Reply::Failure(Failure {
                    status: 410,
                    reason: Some("Expired".into()),
                    continue_token,
                });
            } else {
                (rv as u64, Some(start))
            }
        };
        // An inclusive cursor repeats the last key and counts `limit` after it (a server may go
        // over `limit`): else a limit of 1 would never get past it.
        let limit = if cfg.inclusive && start.is_some() {
            limit.saturating_add(1)
        } else {
            limit
        };
        let scan = self
            .kube
            .list(start.as_deref(), rev, limit, cfg.selector.as_ref());
        let more = scan.remaining > 0;
        let next_token = match (&scan.last_key, more) {
            (Some(k), true) => {
                // An inclusive cursor starts the next chunk at the last key itself.
                let start = if cfg.inclusive {
                    k.clone()
                } else {
                    format!("{k}\u{0}")
                };
                let t = encode_continue(rev as i64, &start);
                self.handed_out.insert(t.clone());
                Some(t)
            }
            _ => cfg.end.token(),
        };
        let remaining_item_count =
            (more && cfg.remaining_count && cfg.selector.is_none()).then_some(scan.remaining);
        Reply::Chunk(Chunk {
            items: self.payloads(src, scan.items),
            next_token,
            resource_version: Some(rev.to_string()),
            remaining_item_count,
        })
    }

    fn answer_offset(
        &mut self,
        src: usize,
        list: Vec<ItemFields>,
        token: &str,
        limit: u32,
        cfg: &OffsetConfig,
    ) -> Reply {
        // Any decimal is a valid offset; one past u64 is past the end.
        let offset = if token.is_empty() {
            0
        } else {
            token.parse::<u64>().unwrap_or(u64::MAX)
        };
        let len = list.len() as u64;
        if cfg.refuse_past_end && offset > len {
            return Reply::Failure(Failure {
                status: 400,
                reason: Some("InvalidArgument".into()),
                continue_token: None,
            });
        }
        let start = offset.min(len);
        let end = start.saturating_add(limit as u64).min(len);
        let items: Vec<ItemFields> = list[start as usize..end as usize].to_vec();
        let full = end - start == limit as u64;
        let next_token = if end < len || (cfg.full_page_token && full) {
            Some(end.to_string())
        } else if cfg.echo_end && !token.is_empty() {
            Some(token.to_string())
        } else {
            cfg.end.token()
        };
        Reply::Chunk(Chunk {
            items: self.payloads(src, items),
            next_token,
            resource_version: None,
            remaining_item_count: None,
        })
    }
}
