//! The driver: runs a `Pager<Payload>` against the [`Sim`] page by page, in an
//! answer order the test controls, and checks the run's invariants as it goes.
//!
//! Checked on every page: no identity shown twice (`no-duplicates`), keys
//! strictly increasing over the whole run (`sorted`; the watermark makes this
//! hold even across drift, 410s and resumes), every shown item passes the
//! filter in the version served (`live-filter`) and existed in its source, a
//! page that is not the last is full (`page-fill`), nothing after `done`, the
//! page token decodes to `state()`, counters agree with what the harness saw.
//! Checked on every fault: `fail()` changes nothing but the request (the retry
//! is the same request), late and repeated answers are `Stale` and change no
//! state, an error leaves `state()` as it was and the request in flight.

use std::collections::{HashMap, HashSet};

use kubeapps_pager::token::PageToken;
use kubeapps_pager::{
    Chunk, ChunkRequest, FailOutcome, Failure, FeedOutcome, FilterOptions, Identity, ItemFields,
    Pager, PagerError, PagerOptions, Recovery, SortField, SortOrder, SourceId, SourceKind,
    SourceOrder, SourceSpec, Stats, UnreachableCause,
};

use super::oracle::{identity_of, ref_key, ref_matches, RefKey, SplitMix};
use super::sim::{Behaviour, Collation as DbCollation, Fault, Payload, Reply, Sim, Spoil};
use super::{resume_from, ResumeFrom};

/// Most answers the harness gives for one page before it calls the pager stuck.
pub const MAX_ROUNDS: u32 = 20_000;

/// One source of a run.
#[derive(Debug, Clone)]
pub struct SourceSetup {
    /// Its identity.
    pub id: SourceId,
    /// How its backend pages.
    pub behaviour: Behaviour,
    /// An order override for the pager (`None` = the kind's default).
    pub order: Option<SourceOrder>,
    /// Its initial items (plugin, cluster and namespace are taken from `id`).
    pub items: Vec<ItemFields>,
    /// The pager is told its kind (from its behaviour); else the kind is its plugin's default
    /// (`sources: [{ plugin, cluster, namespace }]`).
    pub declared: bool,
}

/// Everything a run starts from.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The sources, in option order.
    pub sources: Vec<SourceSetup>,
    /// Items per page.
    pub page_size: u32,
    /// Items per backend request.
    pub chunk_limit: u32,
    /// Merge order.
    pub sort: SortOrder,
    /// Client-side filter.
    pub filter: FilterOptions,
    /// Cap for sources read whole (`None` = the default).
    pub max_source_items: Option<u32>,
    /// Bound for `NO_PROGRESS` (`None` = the default).
    pub max_chunks_without_progress: Option<u32>,
}

impl Setup {
    /// A setup with no sources, sorted by name, no filter.
    pub fn new(page_size: u32, chunk_limit: u32) -> Self {
        Setup {
            sources: Vec::new(),
            page_size,
            chunk_limit,
            sort: SortOrder::Name,
            filter: FilterOptions::default(),
            max_source_items: None,
            max_chunks_without_progress: None,
        }
    }

    /// The pager options for this setup.
    pub fn options(&self) -> PagerOptions {
        let specs = self
            .sources
            .iter()
            .map(|s| SourceSpec {
                id: s.id.clone(),
                kind: match s.behaviour {
                    _ if !s.declared => SourceKind::for_plugin(&s.id.plugin),
                    Behaviour::Kubernetes(_) => SourceKind::Kubernetes,
                    Behaviour::KubeappsOffset(_) => SourceKind::Kubeapps,
                    Behaviour::Unordered(..) => SourceKind::Unordered,
                },
                order: s.order,
                // The simulated backends do not filter: the pager does (the filter sent to a
                // source that filters is checked in src/pager/tests.rs and tests/js).
                filter: Some(kubeapps_pager::FilterSide::Pager),
            })
            .collect();
        let mut o = PagerOptions::new(specs);
        o.page_size = self.page_size;
        o.chunk_limit = self.chunk_limit;
        o.sort = self.sort;
        o.filter = self.filter.clone();
        if let Some(cap) = self.max_source_items {
            o.max_source_items = cap;
        }
        if let Some(n) = self.max_chunks_without_progress {
            o.max_chunks_without_progress = n;
        }
        o
    }
}

/// Which pending request the backend answers next.
#[derive(Debug, Clone)]
pub enum AnswerOrder {
    /// Oldest first.
    Fifo,
    /// Newest first.
    Lifo,
    /// A seeded random pick.
    Random(SplitMix),
}

impl AnswerOrder {
    fn pick(&mut self, len: usize) -> usize {
        match self {
            AnswerOrder::Fifo => 0,
            AnswerOrder::Lifo => len - 1,
            AnswerOrder::Random(r) => r.below(len),
        }
    }
}

/// One page as the harness saw it.
#[derive(Debug, Clone)]
pub struct PageRecord {
    /// Which pager instance gave it (0 = the first, +1 per resume).
    pub instance: u32,
    /// The items.
    pub items: Vec<Payload>,
    /// `done`.
    pub done: bool,
    /// `inconsistent`.
    pub inconsistent: bool,
    /// `truncated`.
    pub truncated: bool,
    /// `next_page_token`.
    pub token: String,
    /// Backend requests issued while this page was built.
    pub requests: u64,
    /// The page's own counters.
    pub stats: Stats,
}

impl PageRecord {
    /// Item names, in page order.
    pub fn names(&self) -> Vec<String> {
        self.items.iter().map(|p| p.fields.name.clone()).collect()
    }
    /// Item plugins, in page order.
    pub fn plugins(&self) -> Vec<String> {
        self.items.iter().map(|p| p.fields.plugin.clone()).collect()
    }
    /// Item identities as `[plugin, cluster, namespace, identifier]`.
    pub fn identities(&self) -> Vec<[String; 4]> {
        self.items
            .iter()
            .map(|p| {
                let f = &p.fields;
                [
                    f.plugin.clone(),
                    f.cluster.clone(),
                    f.namespace.clone(),
                    f.identifier.clone(),
                ]
            })
            .collect()
    }
}

/// Figures over one or many runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Figures {
    /// Pages taken.
    pub pages: u64,
    /// Items shown.
    pub items: u64,
    /// Backend requests served.
    pub requests: u64,
    /// Drift rescans the pager reported.
    pub rescans: u64,
    /// 410 Expired answers fed back.
    pub expired: u64,
    /// Stale answers checked.
    pub stale: u64,
    /// Errors checked for an unchanged state.
    pub errors_checked: u64,
    /// Pagers rebuilt from a token (or a state).
    pub resumes: u64,
    /// Items the pager dropped as at or behind its watermark.
    pub duplicates_dropped: u64,
    /// Requests refused as past the end of a list (400), recovered from.
    pub refused: u64,
    /// Sources switched to a whole read (found out of the merge order).
    pub switches: u64,
    /// Late items shown (out of the page order, reported so).
    pub late: u64,
    /// Times a source was set aside as unreachable.
    pub unreachable: u64,
    /// Items the pager shown late as possible repeats (`possible_repeats`, docs/DESIGN.md "Order
    /// is learned", the limit).
    pub possible_repeats: u64,
    /// Items shown a second time (each on a page flagged `inconsistent`, of a source that counted
    /// possible repeats).
    pub repeats: u64,
    /// Runs with a possible repeat counted (`add` takes each figure as one run's).
    pub flagged_runs: u64,
    /// Runs with an item shown twice.
    pub repeated_runs: u64,
}

impl Figures {
    /// Adds another run's figures.
    pub fn add(&mut self, o: &Figures) {
        self.pages += o.pages;
        self.items += o.items;
        self.requests += o.requests;
        self.rescans += o.rescans;
        self.expired += o.expired;
        self.stale += o.stale;
        self.errors_checked += o.errors_checked;
        self.refused += o.refused;
        self.switches += o.switches;
        self.late += o.late;
        self.resumes += o.resumes;
        self.duplicates_dropped += o.duplicates_dropped;
        self.unreachable += o.unreachable;
        self.possible_repeats += o.possible_repeats;
        self.repeats += o.repeats;
        self.flagged_runs += o.flagged_runs.max(u64::from(o.possible_repeats > 0));
        self.repeated_runs += o.repeated_runs.max(u64::from(o.repeats > 0));
    }
}

/// What one pager instance was told, to check its counters.
#[derive(Debug, Default)]
struct Instance {
    issued: HashSet<u64>,
    accepted: u64,
    /// Items in the chunks accepted.
    scanned: u64,
    /// Kubernetes 410s accepted.
    expired: u64,
    stale: u64,
    emitted: u64,
    /// Non-empty next tokens fed, per source, oldest first.
    fed_tokens: Vec<Vec<String>>,
    /// Whether a 410 was fed, per source.
    had_410: Vec<bool>,
}

impl Instance {
    fn new(n: usize) -> Self {
        Instance {
            fed_tokens: vec![Vec::new(); n],
            had_410: vec![false; n],
            ..Instance::default()
        }
    }
}

/// A run: a backend, a pager, and everything seen.
pub struct Run {
    /// The backend.
    pub sim: Sim,
    /// The pager's options.
    pub options: PagerOptions,
    /// The pager under test.
    pub pager: Pager<Payload>,
    /// The answer order.
    pub order: AnswerOrder,
    /// Every page, in order.
    pub pages: Vec<PageRecord>,
    /// Figures of this run.
    pub figures: Figures,
    /// A page said `done`.
    pub done: bool,
    /// Current pager instance.
    pub instance: u32,
    /// Print every request, answer and page (`PAGER_TRACE=1`).
    pub trace: bool,
    /// Every `remainingItemCount` the backend gives is true (a test that scripts a lying one
    /// clears this, and then `truncated` is not checked to be false).
    pub honest_counts: bool,
    pending: Vec<ChunkRequest>,
    late: Vec<(u64, Chunk<Payload>)>,
    retry: HashMap<usize, ChunkRequest>,
    /// Per source: it was set aside (unreachable) at some time, so it may show items late.
    set_aside: Vec<bool>,
    /// Per source: its continue token cycled, so it ended there (its items after the cycle are
    /// out of reach: `complete` does not ask for them, and pages may say `truncated`).
    cycled: Vec<bool>,
    inst: Instance,
    shown: HashMap<Identity, usize>,
    last_key: Option<RefKey>,
    saw_410: bool,
    page_410: bool,
    page_requests: u64,
    /// Per source: possible repeats it counted over the run (every instance).
    possible_repeats: Vec<u64>,
}

impl Run {
    /// Builds the backend and a fresh pager; panics if the pager rejects the options.
    pub fn new(setup: &Setup) -> Self {
        Self::try_new(setup)
            .unwrap_or_else(|e| panic!("Pager::new rejected the setup: {} {e}", e.code()))
    }

    /// Builds the backend and a fresh pager.
    pub fn try_new(setup: &Setup) -> Result<Self, PagerError> {
        let options = setup.options();
        let pager = Pager::new(options.clone())?;
        let mut sim = Sim::new();
        for s in &setup.sources {
            let i = sim.add_source(s.id.clone(), s.behaviour.clone(), s.items.clone());
            // Under a collated name sort, the offset sources in byte order are databases in
            // that collation (the en_US-like ones stay: their order is learned, not the merge's).
            if let (SortField::Name, Some(c)) = (options.sort.field(), options.sort.collation()) {
                if let Behaviour::KubeappsOffset(cfg) = &mut sim.sources[i].behaviour {
                    if cfg.collation == DbCollation::Bytes {
                        cfg.collation = DbCollation::Uca(c);
                    }
                }
            }
        }
        let n = setup.sources.len();
        Ok(Run {
            sim,
            options,
            pager,
            order: AnswerOrder::Fifo,
            pages: Vec::new(),
            figures: Figures::default(),
            done: false,
            instance: 0,
            trace: std::env::var_os("PAGER_TRACE").is_some(),
            honest_counts: true,
            pending: Vec::new(),
            late: Vec::new(),
            retry: HashMap::new(),
            set_aside: vec![false; n],
            cycled: vec![false; n],
            inst: Instance::new(n),
            shown: HashMap::new(),
            last_key: None,
            saw_410: false,
            page_410: false,
            page_requests: 0,
            possible_repeats: vec![0; n],
        })
    }

    /// Asks for the next page: answers requests until `page_ready`, then takes and checks it.
    pub fn page(&mut self) -> PageRecord {
        self.page_requests = 0;
        self.page_410 = false;
        self.deliver_late();
        let mut rounds = 0u32;
        while !self.pager.page_ready() {
            rounds += 1;
            assert!(
                rounds <= MAX_ROUNDS,
                "no page after {MAX_ROUNDS} answers; last requests: {:?}",
                &self.sim.seen[self.sim.seen.len().saturating_sub(6)..]
            );
            self.issue();
            self.deliver_late();
            if self.pending.is_empty() {
                panic!(
                    "the pager is neither ready nor asking for anything (instance {}, page {})",
                    self.instance,
                    self.pages.len()
                );
            }
            let ix = self.order.pick(self.pending.len());
            let req = self.pending.remove(ix);
            self.answer(req);
        }
        self.take()
    }

    /// Pages until `done` (at most `max_pages`), then one more page, which must be empty. A page
    /// done but for sources set aside brings them all back up and retries them (their items must
    /// still come: `complete`).
    pub fn drain(&mut self, max_pages: usize) {
        let mut n = 0;
        while !self.done {
            n += 1;
            assert!(n <= max_pages, "not done after {max_pages} pages");
            let page = self.page();
            if page.done && !self.done {
                self.heal();
            }
        }
        self.page();
    }

    /// Brings every source that is down back up and asks the unreachable ones again.
    pub fn heal(&mut self) {
        for i in 0..self.sim.sources.len() {
            self.sim.sources[i].down = None;
        }
        self.pager.retry_unreachable(None);
    }

    /// The page token of the last page, or the pager's token before any page.
    pub fn last_token(&self) -> String {
        self.pages.last().map_or_else(
            || self.pager.page_token().expect("the position encodes"),
            |p| p.token.clone(),
        )
    }

    /// Throws the pager away and builds a new one where it stood (a reload): from its page
    /// token, or from `state()` while the codec is not there (see [`super::RESUME_FROM`]).
    pub fn resume(&mut self) {
        let pager = match resume_from() {
            ResumeFrom::Token => Pager::resume(
                &self.pager.page_token().expect("the position encodes"),
                self.options.clone(),
            ),
            ResumeFrom::State => Pager::from_state(self.pager.state(), self.options.clone()),
        }
        .unwrap_or_else(|e| {
            panic!(
                "resuming from the pager's own position failed: {} {e}",
                e.code()
            )
        });
        self.install(pager);
    }

    /// Resumes where the pager stands under other options (e.g. another page size), through
    /// the token or the state as [`resume`](Run::resume); panics if the pager refuses.
    pub fn resume_with(&mut self, options: PagerOptions) {
        let pager = match resume_from() {
            ResumeFrom::Token => Pager::resume(
                &self.pager.page_token().expect("the position encodes"),
                options.clone(),
            ),
            ResumeFrom::State => Pager::from_state(self.pager.state(), options.clone()),
        }
        .unwrap_or_else(|e| panic!("resuming under {options:?} failed: {} {e}", e.code()));
        self.options = options;
        self.install(pager);
    }

    /// Resumes from `token` under `options`; on error the old pager stays, and its state must
    /// be unchanged.
    pub fn try_resume(&mut self, token: &str, options: PagerOptions) -> Result<(), PagerError> {
        let before = self.pager.state();
        match Pager::resume(token, options.clone()) {
            Ok(p) => {
                self.options = options;
                self.install(p);
                Ok(())
            }
            Err(e) => {
                self.assert_unchanged(&before, &format!("a failed resume ({})", e.code()));
                self.figures.errors_checked += 1;
                Err(e)
            }
        }
    }

    /// Asserts that resuming from `token` with this filter fails with `code`, and that the
    /// pager that existed before goes on unchanged.
    pub fn expect_resume_error(&mut self, token: &str, filter: Option<FilterOptions>, code: &str) {
        let mut options = self.options.clone();
        if let Some(f) = filter {
            options.filter = f;
        }
        match self.try_resume(token, options) {
            Ok(()) => panic!("resuming from {token:?} worked; expected {code}"),
            Err(e) => assert_eq!(e.code(), code, "resuming from {token:?}: {e}"),
        }
    }

    /// `complete`: every item present for the whole run and passing the filter in every
    /// version was shown (exactly once: `no-duplicates` is checked on every page).
    pub fn check_complete(&self) {
        assert!(self.done, "complete: the run never reached done");
        let mut missing = Vec::new();
        for src in 0..self.sim.sources.len() {
            if self.cycled[src] {
                continue;
            }
            for id in self.sim.required(src, &self.options.filter) {
                if !self.shown.contains_key(&id) {
                    missing.push(id);
                }
            }
        }
        assert!(missing.is_empty(), "complete: never shown: {missing:?}");
    }

    /// `max-requests:N` over the whole run.
    pub fn check_max_requests(&self, n: u64) {
        let total = self.sim.total_requests();
        assert!(
            total <= n,
            "max-requests:{n}: the run made {total}: {:?}",
            self.sim.seen
        );
    }

    /// Every identity shown so far, in order of pages.
    pub fn shown(&self) -> Vec<Identity> {
        let mut v: Vec<(usize, Identity)> =
            self.shown.iter().map(|(id, p)| (*p, id.clone())).collect();
        v.sort();
        v.into_iter().map(|(_, id)| id).collect()
    }

    /// Requests left in flight (issued, not answered).
    pub fn pending(&self) -> &[ChunkRequest] {
        &self.pending
    }

    fn install(&mut self, pager: Pager<Payload>) {
        if self.trace {
            eprintln!(
                "RESUME -> instance {}: {:?}",
                self.instance + 1,
                pager.state()
            );
        }
        self.pager = pager;
        self.instance += 1;
        self.figures.resumes += 1;
        self.pending.clear();
        self.late.clear();
        self.retry.clear();
        self.inst = Instance::new(self.sim.sources.len());
    }

    fn assert_unchanged(&self, before: &PageToken, after_what: &str) {
        let now = self.pager.state();
        assert_eq!(&now, before, "the pager's state changed after {after_what}");
    }

    fn issue(&mut self) {
        for r in self.pager.next_requests() {
            self.admit(r);
        }
    }

    fn admit(&mut self, r: ChunkRequest) {
        assert!(!self.done, "the pager asked {r:?} after it said done");
        assert!(
            self.inst.issued.insert(r.request_id),
            "request id {} issued twice",
            r.request_id
        );
        assert!(
            r.source_index < self.options.sources.len(),
            "request for no source: {r:?}"
        );
        assert_eq!(
            r.source, self.options.sources[r.source_index].id,
            "request names another source: {r:?}"
        );
        if let Some(p) = self
            .pending
            .iter()
            .find(|p| p.source_index == r.source_index)
        {
            panic!("two requests in flight for one source: {p:?} and {r:?}");
        }
        // No over-fetch: a source streamed in name order is asked `chunkLimit` items, plus one
        // for the overlap re-read (DESIGN.md "Drift"); a kubeapps source also re-reads a whole
        // tie group in one request (DESIGN.md "Ties"), at most the cap plus one chunk; only a
        // source read whole asks for more.
        let spec = &self.options.sources[r.source_index];
        let streamed = spec.streams_under(self.options.sort);
        if streamed {
            assert!(
                r.limit <= self.options.chunk_limit.saturating_add(1)
                    || (spec.kind == SourceKind::Kubeapps
                        && r.limit
                            <= self
                                .options
                                .max_source_items
                                .saturating_add(1)
                                .saturating_add(self.options.chunk_limit)),
                "over-fetch: {r:?} asks more than chunkLimit {} + 1",
                self.options.chunk_limit
            );
        }
        if let Some(f) = self.retry.remove(&r.source_index) {
            assert_eq!(
                (&f.page_token, f.limit),
                (&r.page_token, r.limit),
                "fail() must change nothing: the retry of {f:?} is {r:?}"
            );
        }
        self.page_requests += 1;
        self.pending.push(r);
    }

    fn answer(&mut self, req: ChunkRequest) {
        let d = self.sim.serve(&req);
        if self.trace {
            let what = match &d.reply {
                Reply::Chunk(c) => format!(
                    "{:?} next {:?} rv {:?} remaining {:?}",
                    c.items
                        .iter()
                        .map(|(f, _)| f.name.as_str())
                        .collect::<Vec<_>>(),
                    c.next_token,
                    c.resource_version,
                    c.remaining_item_count
                ),
                Reply::Failure(f) => format!("{f:?}"),
            };
            eprintln!(
                "  req {} src {} token {:?} limit {} -> {what} {:?}",
                req.request_id, req.source_index, req.page_token, req.limit, d.fault
            );
        }
        self.figures.requests += 1;
        let src = req.source_index;
        let kube = self.sim.sources[src].behaviour.is_kubernetes();
        match d.reply {
            Reply::Failure(f) => {
                let expired = f.status == 410 && kube;
                let for_good = kubeapps_pager::fails_for_good(&f);
                // A refused offset (400 InvalidArgument past the end) is re-read from earlier.
                let refused = f.status == 400 && !kube;
                let out = self.pager.fail(req.request_id, f);
                match out {
                    Ok(FailOutcome::SetAside(_)) => {
                        assert!(
                            !expired,
                            "a 410 of a kubernetes source set it aside: {req:?}"
                        );
                        self.set_aside[src] = true;
                    }
                    _ => {
                        assert!(!for_good, "a failure for good did not set {req:?} aside");
                        if expired {
                            assert_eq!(
                                out,
                                Ok(FailOutcome::Recovered(Recovery::Expired)),
                                "a 410 of kubernetes request {req:?}"
                            );
                        }
                        assert!(
                            matches!(
                                out,
                                Ok(FailOutcome::Recovered(_)
                                    | FailOutcome::Retry
                                    | FailOutcome::Failed)
                            ),
                            "fail() of in-flight request {req:?}: {out:?}"
                        );
                    }
                }
                self.inst.accepted += 1;
                if expired {
                    self.inst.expired += 1;
                    self.inst.had_410[src] = true;
                    self.saw_410 = true;
                    self.page_410 = true;
                    self.figures.expired += 1;
                } else if refused {
                    self.figures.refused += 1;
                } else {
                    self.retry.insert(src, req);
                }
            }
            Reply::Chunk(chunk) => match d.fault {
                None => self.feed(&req, chunk),
                Some(Fault::Late) => {
                    let out = self.pager.fail(
                        req.request_id,
                        Failure {
                            status: 0,
                            reason: None,
                            continue_token: None,
                        },
                    );
                    // The 5th failure in a row sets the source aside (MAX_FAILURES_IN_A_ROW).
                    if out == Ok(FailOutcome::SetAside(UnreachableCause::RepeatedFailures)) {
                        self.set_aside[src] = true;
                    } else {
                        assert_eq!(
                            out,
                            Ok(FailOutcome::Retry),
                            "fail() of in-flight request {req:?}: no answer is transient"
                        );
                    }
                    self.inst.accepted += 1;
                    self.late.push((req.request_id, chunk));
                    self.retry.insert(src, req);
                }
                Some(Fault::Duplicate) => {
                    self.feed(&req, chunk.clone());
                    self.feed_stale(req.request_id, chunk, "a second delivery of an answer");
                }
                Some(Fault::Invalid(spoil)) => {
                    if let Some(bad) = self.spoiled(&req, &chunk, spoil) {
                        self.expect_error(&req, bad, "INVALID_RESPONSE", &format!("{spoil:?}"));
                    }
                    self.feed(&req, chunk);
                }
                Some(Fault::RepeatToken) => {
                    // A token this pass returned before the one the request sent (that one,
                    // echoed, ends a list: not an error).
                    let fed = &self.inst.fed_tokens[src];
                    let earlier = fed
                        .iter()
                        .rev()
                        .find(|t| **t != req.page_token)
                        .cloned()
                        .filter(|_| fed.contains(&req.page_token));
                    match earlier {
                        Some(t) if kube && !self.inst.had_410[src] => {
                            self.repeat_token(&req, chunk, t)
                        }
                        _ => self.feed(&req, chunk),
                    }
                }
            },
        }
    }

    /// Feeds a chunk whose next token repeats `earlier`, one the source gave before in this
    /// pass (a cycle): its items are kept and the source ends there, counted in `cycled_tokens`.
    fn repeat_token(&mut self, req: &ChunkRequest, chunk: Chunk<Payload>, earlier: String) {
        let src = req.source_index;
        let before = self.pager.stats().sources[src].cycled_tokens;
        let mut bad = chunk;
        bad.next_token = Some(earlier);
        self.feed(req, bad);
        assert_eq!(
            self.pager.stats().sources[src].cycled_tokens,
            before + 1,
            "a chunk repeating an earlier continue token of {req:?} is a cycle"
        );
        self.cycled[src] = true;
        self.figures.errors_checked += 1;
    }

    /// The spoiled answer for `spoil`, or `None` where the pager does not promise an error
    /// (see `Pager::feed`): too many items only from an offset source read in chunks, a long
    /// token only where the list goes on. (Items out of name order are no error: the source is
    /// read whole; the sim's collated and shuffled behaviours play them.)
    fn spoiled(
        &self,
        req: &ChunkRequest,
        chunk: &Chunk<Payload>,
        spoil: Spoil,
    ) -> Option<Chunk<Payload>> {
        let spec = &self.options.sources[req.source_index];
        let streamed = spec.streams_under(self.options.sort);
        let mut bad = chunk.clone();
        let more = chunk.next_token.as_deref().is_some_and(|t| !t.is_empty());
        match spoil {
            Spoil::TooMany => {
                let first = chunk.items.first()?.clone();
                // A source found out of order is read whole (`maxSourceItems + 1` asked): more
                // items than the cap is SOURCE_TOO_LARGE there.
                let whole = req.limit == self.options.max_source_items.saturating_add(1);
                if !streamed || whole || spec.kind != SourceKind::Kubeapps {
                    return None;
                }
                while bad.items.len() <= req.limit as usize {
                    bad.items.push(first.clone());
                }
            }
            Spoil::LongToken => {
                if !more {
                    return None;
                }
                let digit = if spec.kind == SourceKind::Kubernetes {
                    "A"
                } else {
                    "9"
                };
                bad.next_token = Some(digit.repeat(9 * 1024));
            }
        }
        Some(bad)
    }

    /// Feeds `bad` for `req`: it must fail with `code`, leave `state()` as it was and keep the
    /// request in flight (no new request for its source).
    fn expect_error(&mut self, req: &ChunkRequest, bad: Chunk<Payload>, code: &str, what: &str) {
        let before = self.pager.state();
        match self.pager.feed(req.request_id, bad) {
            Err(e) => assert_eq!(e.code(), code, "{what} for {req:?}: {e}"),
            Ok(o) => panic!("{what} for {req:?} was {o:?}, not {code}"),
        }
        self.assert_unchanged(&before, code);
        self.figures.errors_checked += 1;
        for r in self.pager.next_requests() {
            assert_ne!(
                r.source_index, req.source_index,
                "after {code} its request must stay in flight: {r:?}"
            );
            self.admit(r);
        }
    }

    fn feed(&mut self, req: &ChunkRequest, chunk: Chunk<Payload>) {
        let token = chunk.next_token.clone();
        let n = chunk.items.len() as u64;
        match self.pager.feed(req.request_id, chunk) {
            Ok(FeedOutcome::Accepted) => {
                self.inst.accepted += 1;
                self.inst.scanned += n;
                if let Some(t) = token.filter(|t| !t.is_empty()) {
                    self.inst.fed_tokens[req.source_index].push(t);
                }
            }
            Ok(FeedOutcome::Stale) => {
                panic!("the answer to in-flight request {req:?} was taken as stale")
            }
            Ok(FeedOutcome::Unreachable) => panic!("feed() never sets a source aside: {req:?}"),
            Err(e) => panic!("a valid answer to {req:?} failed: {} {e}", e.code()),
        }
    }

    fn feed_stale(&mut self, id: u64, chunk: Chunk<Payload>, what: &str) {
        let before = self.pager.state();
        let out = self.pager.feed(id, chunk);
        assert_eq!(out, Ok(FeedOutcome::Stale), "{what} (request {id})");
        self.assert_unchanged(&before, what);
        self.inst.stale += 1;
        self.figures.stale += 1;
    }

    fn deliver_late(&mut self) {
        for (id, chunk) in std::mem::take(&mut self.late) {
            self.feed_stale(id, chunk, "a late answer to a request reported failed");
        }
    }

    fn take(&mut self) -> PageRecord {
        let page = self
            .pager
            .take_page()
            .expect("the position encodes")
            .expect("page_ready() said yes, take_page() gave None");
        let n = self.pages.len();
        let size = self.options.page_size as usize;
        let names: Vec<&str> = page.items.iter().map(|p| p.fields.name.as_str()).collect();
        assert!(
            page.items.len() <= size,
            "page {n} holds {} items, page size {size}",
            page.items.len()
        );
        assert_eq!(
            page.stats.items_emitted,
            page.items.len() as u64,
            "page {n}: stats.items_emitted"
        );
        if self.done {
            assert!(
                page.items.is_empty() && page.done,
                "page {n} after done must be [] and done: {names:?}"
            );
            assert_eq!(self.page_requests, 0, "page {n} after done sent requests");
        }
        if !page.done {
            assert_eq!(
                page.items.len(),
                size,
                "page-fill: page {n} is not the last, so it must be full: {names:?}"
            );
        }
        // Sorted, except the items the page reports late: an item at or below the largest key
        // shown before is out of order, and every such item must be one the page counts as late
        // (its source was found out of order and read whole). A late item may still sort above
        // every shown one (it is below a filtered-out key), hence at most, not exactly.
        let late: u64 = page.stats.sources.iter().map(|s| s.late_items).sum();
        for (i, s) in page.stats.sources.iter().enumerate() {
            assert!(
                s.possible_repeats == 0 || page.inconsistent,
                "page {n} counts possible repeats and does not say inconsistent"
            );
            self.possible_repeats[i] += s.possible_repeats;
            self.figures.possible_repeats += s.possible_repeats;
        }
        let mut below = 0u64;
        for p in &page.items {
            below += u64::from(!self.check_item(p, n, page.inconsistent));
        }
        assert!(
            below <= late,
            "sorted: page {n} shows {below} items out of order and reports {late} late: {names:?}"
        );
        if late > 0 {
            // Late because a source was found out of order, or came back after being set aside.
            assert!(
                page.reordered || self.set_aside.iter().any(|&s| s),
                "page {n} has late items and does not say reordered"
            );
            assert!(page.late, "page {n} has late items and does not say late");
        }
        self.figures.late += late;
        self.figures.switches += page
            .stats
            .sources
            .iter()
            .map(|s| s.whole_read_switches)
            .sum::<u64>();
        if !self.saw_410 && self.possible_repeats.iter().all(|&r| r == 0) {
            assert!(
                !page.inconsistent,
                "page {n} says inconsistent, and no list ever expired nor counted a possible repeat"
            );
            if self.honest_counts && !self.cycled.iter().any(|&c| c) {
                assert!(
                    !page.truncated,
                    "page {n} says truncated, and every list was one honest snapshot"
                );
            }
        }
        if self.saw_410 {
            // DESIGN.md: the source keeps `inconsistent` (in the token), every later page says so.
            assert!(
                page.inconsistent,
                "page {n} comes after a 410 Expired and does not say inconsistent"
            );
        }
        if self.page_410 {
            assert!(
                page.inconsistent,
                "page {n} was built across a 410 Expired and does not say inconsistent"
            );
        }
        if resume_from() == ResumeFrom::Token {
            assert_eq!(
                page.next_page_token,
                self.pager.page_token().expect("the position encodes"),
                "page {n}: the page's token and page_token()"
            );
            let decoded = PageToken::decode(&page.next_page_token).unwrap_or_else(|e| {
                panic!("page {n}: its own token does not decode: {} {e}", e.code())
            });
            assert_eq!(
                decoded,
                self.pager.state(),
                "page {n}: the token does not decode to state()"
            );
        }
        self.inst.emitted += page.items.len() as u64;
        let st = self.pager.stats();
        assert_eq!(
            st.sources.len(),
            self.options.sources.len(),
            "stats: one entry per source"
        );
        // Items of taken pages, plus at most a page being filled (the core counts an item when
        // it enters that page: see `cumulative_items_emitted_counts_only_items_of_taken_pages`).
        assert!(
            st.items_emitted >= self.inst.emitted
                && st.items_emitted <= self.inst.emitted + u64::from(self.options.page_size),
            "stats: items_emitted {} after {} items in taken pages",
            st.items_emitted,
            self.inst.emitted
        );
        let t = st.total();
        assert_eq!(t.stale_responses, self.inst.stale, "stats: stale_responses");
        // DESIGN.md: requests count when answered or failed; items as received.
        assert_eq!(
            t.requests, self.inst.accepted,
            "stats: requests answered or failed"
        );
        assert_eq!(t.items_scanned, self.inst.scanned, "stats: items_scanned");
        assert_eq!(
            t.expired_recoveries, self.inst.expired,
            "stats: expired_recoveries (410s fed)"
        );
        if self.trace {
            let shown: Vec<String> = page
                .items
                .iter()
                .map(|p| format!("{}:{:?}", p.source, p.fields.identifier))
                .collect();
            eprintln!(
                "PAGE {n} (instance {}) done {} {shown:?}",
                self.instance, page.done
            );
        }
        let pt = page.stats.total();
        self.figures.pages += 1;
        self.figures.items += page.items.len() as u64;
        self.figures.rescans += pt.rescans;
        self.figures.duplicates_dropped += pt.duplicates_dropped;
        self.figures.unreachable += pt.unreachable;
        // Done but for sources set aside is not the end of the run.
        self.done |= page.done && page.unreachable.is_empty();
        let rec = PageRecord {
            instance: self.instance,
            items: page.items,
            done: page.done,
            inconsistent: page.inconsistent,
            truncated: page.truncated,
            token: page.next_page_token,
            requests: self.page_requests,
            stats: page.stats,
        };
        self.pages.push(rec.clone());
        rec
    }

    /// Checks one shown item; whether it is in order (above every key shown before). An item
    /// shown before may come again only on a page flagged `inconsistent`, from a source that
    /// counted possible repeats (docs/DESIGN.md "Order is learned", the limit): nothing lost, ever;
    /// an item twice only where the page says it may be.
    fn check_item(&mut self, p: &Payload, page: usize, inconsistent: bool) -> bool {
        let f = &p.fields;
        assert!(
            self.sim.existed(p.source, f),
            "page {page}: shown item never existed in its source: {f:?}"
        );
        assert!(
            ref_matches(&self.options.filter, f),
            "live-filter: page {page} shows {:?}, which the filter {:?} drops",
            f.identifier,
            self.options.filter
        );
        let id = identity_of(f);
        if let Some(first) = self.shown.insert(id.clone(), page) {
            let flagged = self.possible_repeats.get(p.source).is_some_and(|&r| r > 0);
            assert!(
                inconsistent && flagged,
                "no-duplicates: {id:?} shown on page {first} and again on page {page}, \
                 which does not say it may repeat (inconsistent {inconsistent}, source {} \
                 counted possible repeats {flagged})",
                p.source
            );
            self.figures.repeats += 1;
        }
        let key = ref_key(self.options.sort, f);
        if self.last_key.as_ref().is_some_and(|last| key <= *last) {
            return false;
        }
        self.last_key = Some(key);
        true
    }
}

/// An item `{name, repo}` as the cases write it: identifier `<repo>/<name>`, displayName = name.
pub fn item(name: &str, repo: &str) -> ItemFields {
    ItemFields {
        identifier: format!("{repo}/{name}"),
        name: name.into(),
        display_name: name.into(),
        ..ItemFields::default()
    }
}

/// [`item`] with categories.
pub fn item_in(name: &str, repo: &str, categories: &[&str]) -> ItemFields {
    let mut it = item(name, repo);
    it.categories = categories.iter().map(|c| c.to_string()).collect();
    it
}

/// A source `plugin` in cluster `default`, namespace `kubeapps`.
pub fn source(plugin: &str, behaviour: Behaviour, items: Vec<ItemFields>) -> SourceSetup {
    source_in(plugin, "default", "kubeapps", behaviour, items)
}

/// A source with a full identity.
pub fn source_in(
    plugin: &str,
    cluster: &str,
    namespace: &str,
    behaviour: Behaviour,
    items: Vec<ItemFields>,
) -> SourceSetup {
    SourceSetup {
        id: SourceId::new(plugin, cluster, namespace),
        behaviour,
        order: None,
        items,
        declared: true,
    }
}
