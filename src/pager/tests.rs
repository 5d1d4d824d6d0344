//! Pager tests with a tiny in-test backend. The backend is a referee, not just
//! a data source: it checks every request it gets (a kubeapps source never gets
//! asked for more than `limit + 1`, a continue token must be one it handed out)
//! and counts them. The big simulator, the shared field cases and the model
//! test live in `tests/`.

use std::collections::{HashMap, HashSet};

use super::*;
use crate::filter::{FilterOptions, FilterSide};
use crate::options::{SourceKind, SourceOrder, SourceSpec};
use crate::order::SortOrder;
use crate::token::page_token::MAX_TOKEN_LEN;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Continue tokens `"<rv>|<last name>"` over a snapshot; `rv` -1 = inconsistent.
    K8s,
    /// Decimal item offsets into the live list.
    Offset,
    /// Offsets into a list that rotates on every request.
    Unordered,
}

fn item(plugin: &str, ns: &str, name: &str, repo: &str) -> ItemFields {
    ItemFields {
        plugin: plugin.into(),
        cluster: "default".into(),
        namespace: ns.into(),
        identifier: format!("{repo}/{name}"),
        name: name.into(),
        display_name: name.into(),
        short_description: String::new(),
        categories: Vec::new(),
    }
}

struct Fake {
    kind: Kind,
    id: SourceId,
    /// Live data, sorted by (name, identifier).
    items: Vec<ItemFields>,
    rv: i64,
    snapshots: HashMap<i64, Vec<ItemFields>>,
    /// The next continue request answers 410; `true` = with an inconsistent token.
    expire: Option<bool>,
    fail_next: Option<u16>,
    requests: usize,
    rotation: usize,
    handed_out: HashSet<String>,
    /// When set, equal names come back in another order on every request (xorshift state).
    shuffle_ties: Option<u64>,
    /// Offset paging: the most items one answer holds, whatever the limit (a server-side cap).
    cap: Option<usize>,
    /// Offset paging: a next token (`offset + items returned`) on every non-empty answer, so
    /// that only an empty answer ends the list (a server that does not look ahead).
    lazy_end: bool,
    /// Who filters: `Source` = this backend applies the request's filter (by `server_rule`).
    side: FilterSide,
    /// While set, every request fails with this status (a source that fails for good).
    down: Option<u16>,
    /// Offset paging: equal names in an order that depends on the request's (offset, limit), as
    /// PostgreSQL's `ORDER BY name LIMIT/OFFSET` may give them.
    pg_ties: bool,
    /// Offset paging: sorted as glibc's en_US collation does at its first level (case and
    /// hyphens ignored; ties by bytes): `kubeapps` before `kube-prometheus`.
    collate: bool,
    /// Offset paging: an offset past the end answers 400 InvalidArgument (kapp_controller).
    refuse_past_end: bool,
    /// The last answer's next token is the token it was asked with (a plugin that ends its list so).
    echo_end: bool,
    /// Kubernetes: every continuation starts with the previous chunk's last item (an inclusive cursor).
    inclusive: bool,
    /// Requests refused with 400 (`refuse_past_end`).
    refused: usize,
}

/// What a backend that filters matches (its own rule, not the pager's): the query in the name or
/// in the identifier's repository, categories any-of. The pager must keep what it answers.
fn server_rule(f: &FilterOptions, i: &ItemFields) -> bool {
    let repo = i.identifier.split('/').next().unwrap_or_default();
    (f.query.is_empty() || i.name.contains(&f.query) || repo.contains(&f.query))
        && (f.categories.is_empty() || i.categories.iter().any(|c| f.categories.contains(c)))
}

/// glibc en_US's first level, roughly: letters and digits without case, hyphens ignored.
fn en_us(name: &str) -> (String, String) {
    let primary: String = name
        .chars()
        .filter(|c| *c != '-')
        .flat_map(char::to_lowercase)
        .collect();
    (primary, name.to_string())
}

impl Fake {
    fn new(kind: Kind, plugin: &str, ns: &str, names: &[(&str, &str)]) -> Self {
        let mut f = Fake {
            kind,
            id: SourceId::new(plugin, "default", ns),
            items: Vec::new(),
            rv: 100,
            snapshots: HashMap::new(),
            expire: None,
            fail_next: None,
            requests: 0,
            rotation: 0,
            handed_out: HashSet::new(),
            shuffle_ties: None,
            cap: None,
            lazy_end: false,
            side: FilterSide::Pager,
            down: None,
            pg_ties: false,
            collate: false,
            refuse_past_end: false,
            echo_end: false,
            inclusive: false,
            refused: 0,
        };
        for (name, repo) in names {
            f.insert(item(plugin, ns, name, repo));
        }
        f
    }

    fn in_cluster(mut self, cluster: &str) -> Self {
        self.id.cluster = cluster.into();
        for i in &mut self.items {
            i.cluster = cluster.into();
        }
        self
    }

    fn spec(&self) -> SourceSpec {
        let kind = match self.kind {
            Kind::K8s => SourceKind::Kubernetes,
            Kind::Offset => SourceKind::Kubeapps,
            Kind::Unordered => SourceKind::Unordered,
        };
        SourceSpec {
            id: self.id.clone(),
            kind,
            order: None,
            filter: Some(self.side),
        }
    }

    /// The live items this backend lists for `req`: all, or those its own rule matches when
    /// the request carries a filter (only a backend that filters is sent one).
    fn listed(&self, list: Vec<ItemFields>, req: &ChunkRequest) -> Vec<ItemFields> {
        match &req.filter {
            None => list,
            Some(f) => {
                assert_eq!(
                    self.side,
                    FilterSide::Source,
                    "a filter sent to {:?}",
                    self.id
                );
                assert!(f.plugins.is_empty(), "plugins are the pager's: {f:?}");
                list.into_iter().filter(|i| server_rule(f, i)).collect()
            }
        }
    }

    fn insert(&mut self, it: ItemFields) {
        self.items.push(it);
        self.items
            .sort_by(|a, b| (&a.name, &a.identifier).cmp(&(&b.name, &b.identifier)));
    }

    fn delete(&mut self, name: &str) {
        self.items.retain(|i| i.name != name);
    }

    fn serve(&mut self, req: &ChunkRequest) -> std::result::Result<Chunk<ItemFields>, Failure> {
        self.requests += 1;
        if let Some(status) = self.down {
            return Err(Failure {
                status,
                reason: None,
                continue_token: None,
            });
        }
        if let Some(status) = self.fail_next.take() {
            return Err(Failure {
                status,
                reason: None,
                continue_token: None,
            });
        }
        let mut answer = match self.kind {
            Kind::K8s => self.serve_k8s(req)?,
            Kind::Offset | Kind::Unordered => self.serve_offset(req)?,
        };
        if self.echo_end && answer.next_token.as_deref().map_or(true, str::is_empty) {
            answer.next_token = Some(req.page_token.clone());
        }
        Ok(answer)
    }

    fn serve_k8s(&mut self, req: &ChunkRequest) -> std::result::Result<Chunk<ItemFields>, Failure> {
        let (rv, after) = if req.page_token.is_empty() {
            self.rv += 1;
            self.snapshots.insert(self.rv, self.items.clone());
            (self.rv, None)
        } else {
            assert!(
                self.handed_out.contains(&req.page_token),
                "continue token not handed out: {:?}",
                req.page_token
            );
            let (rv, last) = req.page_token.split_once('|').expect("fake token");
            let rv: i64 = rv.parse().expect("fake rv");
            if let Some(with_token) = self.expire.take() {
                let continue_token = with_token.then(|| format!("-1|{last}"));
                if let Some(t) = &continue_token {
                    self.handed_out.insert(t.clone());
                }
                return Err(Failure {
                    status: 410,
                    reason: Some("Expired".into()),
                    continue_token,
                });
            }
            (rv, Some(last.to_string()))
        };
        let list = if rv < 0 {
            self.items.clone()
        } else {
            self.snapshots.get(&rv).cloned().expect("snapshot")
        };
        let list = self.listed(list, req);
        let inclusive = self.inclusive;
        let rest: Vec<ItemFields> = list
            .into_iter()
            .filter(|i| {
                after.as_ref().map_or(true, |a| {
                    i.name.as_str() > a.as_str() || (inclusive && i.name.as_str() == a.as_str())
                })
            })
            .collect();
        let take = rest.len().min(req.limit as usize);
        let remaining = (rest.len() - take) as u64;
        let items: Vec<_> = rest
            .into_iter()
            .take(take)
            .map(|i| (i.clone(), i))
            .collect();
        let next = match items.last() {
            Some((last, _)) if remaining > 0 => format!("{rv}|{}", last.name),
            _ => String::new(),
        };
        if !next.is_empty() {
            self.handed_out.insert(next.clone());
        }
        Ok(Chunk {
            items,
            next_token: Some(next),
            resource_version: Some(rv.to_string()),
            remaining_item_count: (remaining > 0).then_some(remaining),
        })
    }

    fn serve_offset(
        &mut self,
        req: &ChunkRequest,
    ) -> std::result::Result<Chunk<ItemFields>, Failure> {
        let off: usize = if req.page_token.is_empty() {
            0
        } else {
            req.page_token.parse().expect("decimal offset")
        };
        if self.refuse_past_end && off > self.items.len() {
            self.refused += 1;
            return Err(Failure {
                status: 400,
                reason: Some("InvalidArgument".into()),
                continue_token: None,
            });
        }
        let mut list = self.listed(self.items.clone(), req);
        if self.collate {
            list.sort_by_key(|i| en_us(&i.name));
        }
        if self.pg_ties {
            // Each (offset, limit) its own order of equal names, the same every time it is asked.
            let mut state =
                (off as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(req.limit);
            let mut start = 0;
            while start < list.len() {
                let end = start
                    + list[start..]
                        .iter()
                        .take_while(|i| i.name == list[start].name)
                        .count();
                for i in (start + 1..end).rev() {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    list.swap(i, start + (state % (i - start + 1) as u64) as usize);
                }
                start = end;
            }
        }
        if self.kind == Kind::Unordered && !list.is_empty() {
            self.rotation += 1;
            let r = self.rotation % list.len();
            list.rotate_left(r);
        }
        if let Some(state) = &mut self.shuffle_ties {
            // Each answer is a correct slice of a list sorted by name: only
            // the order inside each group of equal names changes.
            let mut start = 0;
            while start < list.len() {
                let end = start
                    + list[start..]
                        .iter()
                        .take_while(|i| i.name == list[start].name)
                        .count();
                for i in (start + 1..end).rev() {
                    *state ^= *state << 13;
                    *state ^= *state >> 7;
                    *state ^= *state << 17;
                    list.swap(i, start + (*state % (i - start + 1) as u64) as usize);
                }
                start = end;
            }
        }
        let limit = (req.limit as usize).min(self.cap.unwrap_or(usize::MAX));
        let end = (off + limit).min(list.len());
        let items: Vec<_> = list
            .get(off..end)
            .unwrap_or(&[])
            .iter()
            .map(|i| (i.clone(), i.clone()))
            .collect();
        let next = if end < list.len() || (self.lazy_end && !items.is_empty()) {
            (off + items.len()).to_string()
        } else {
            String::new()
        };
        Ok(Chunk {
            items,
            next_token: Some(next),
            resource_version: None,
            remaining_item_count: None,
        })
    }
}

struct Env {
    fakes: Vec<Fake>,
    options: PagerOptions,
}

impl Env {
    fn new(fakes: Vec<Fake>, page_size: u32, chunk_limit: u32) -> Self {
        let mut options = PagerOptions::new(fakes.iter().map(Fake::spec).collect());
        options.page_size = page_size;
        options.chunk_limit = chunk_limit;
        Env { fakes, options }
    }

    fn pager(&self) -> Pager<ItemFields> {
        Pager::new(self.options.clone()).expect("valid options")
    }

    fn requests(&self) -> usize {
        self.fakes.iter().map(|f| f.requests).sum()
    }

    fn answer(&mut self, p: &mut Pager<ItemFields>, req: ChunkRequest) {
        let fake = &mut self.fakes[req.source_index];
        assert_eq!(req.source, fake.id);
        match fake.serve(&req) {
            Ok(chunk) => assert_eq!(
                p.feed(req.request_id, chunk).expect("feed"),
                FeedOutcome::Accepted
            ),
            Err(f) => assert_ne!(p.fail(req.request_id, f).expect("fail"), FailOutcome::Stale),
        }
    }

    fn page(&mut self, p: &mut Pager<ItemFields>) -> Page<ItemFields> {
        self.page_by(p, Env::answer)
    }

    /// Asks and answers (by `answer`) until a page is ready.
    fn page_by(
        &mut self,
        p: &mut Pager<ItemFields>,
        mut answer: impl FnMut(&mut Env, &mut Pager<ItemFields>, ChunkRequest),
    ) -> Page<ItemFields> {
        for _ in 0..10_000 {
            if p.page_ready() {
                return p.take_page().expect("encodes").expect("ready");
            }
            let reqs = p.next_requests();
            assert!(!reqs.is_empty(), "not ready and nothing to ask");
            for r in reqs {
                answer(self, p, r);
            }
        }
        panic!("page never got ready");
    }

    fn resume(&self, p: &Pager<ItemFields>) -> Pager<ItemFields> {
        Pager::from_state(p.state(), self.options.clone()).expect("resume")
    }
}

fn names(page: &Page<ItemFields>) -> Vec<&str> {
    page.items.iter().map(|i| i.name.as_str()).collect()
}

fn pairs<'a>(names: &[&'a str], repo: &'a str) -> Vec<(&'a str, &'a str)> {
    names.iter().map(|n| (*n, repo)).collect()
}

/// A `kubeapps` source in an en_US-like order (`names`, from `A1 A2`) beside a Kubernetes one
/// (`B D`), pages of 1, chunks of 2, three pages taken: `A1 A2 B`.
fn en_us_source_three_pages_in(names: &[&str]) -> (Env, Pager<ItemFields>, Vec<String>) {
    let mut f = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &pairs(names, "r"),
    );
    f.collate = true;
    let g = Fake::new(
        Kind::K8s,
        "helm.packages",
        "other",
        &pairs(&["B", "D"], "r"),
    );
    en_us_three_pages_with(f, g, 2)
}

/// As `en_us_source_three_pages_in`, with the two fakes and a chunk limit given.
fn en_us_three_pages_with(
    f: Fake,
    g: Fake,
    chunk_limit: u32,
) -> (Env, Pager<ItemFields>, Vec<String>) {
    let mut env = Env::new(vec![f, g], 1, chunk_limit);
    let mut p = env.pager();
    let mut shown: Vec<String> = Vec::new();
    for _ in 0..3 {
        shown.extend(env.page(&mut p).items.iter().map(|i| i.name.clone()));
    }
    assert_eq!(shown, ["A1", "A2", "B"]);
    (env, p, shown)
}

/// Between the token and the resume `C1a C1b` are inserted after `C1`; resumed, one page shows
/// `C1`; then `A2 C1 C1a` go and `a0` (first in the source's order, above `A2` in bytes) comes.
fn churn_behind_the_anchor(
    env: &mut Env,
    p: &Pager<ItemFields>,
    shown: &mut Vec<String>,
) -> Pager<ItemFields> {
    env.fakes[0].insert(item("helm.packages", "kubeapps", "C1a", "r"));
    env.fakes[0].insert(item("helm.packages", "kubeapps", "C1b", "r"));
    let mut p = env.resume(p);
    shown.extend(env.page(&mut p).items.iter().map(|i| i.name.clone()));
    assert_eq!(shown.last().map(String::as_str), Some("C1"));
    for gone in ["A2", "C1", "C1a"] {
        env.fakes[0].delete(gone);
    }
    env.fakes[0].insert(item("helm.packages", "kubeapps", "a0", "r"));
    p
}

/// Pages to the end, resuming once from the page token taken right after the page that is
/// `[at]` alone (late items must still be pending then: the token says so).
fn scroll_resuming_once_at(
    env: &mut Env,
    p: &mut Pager<ItemFields>,
    shown: &mut Vec<String>,
    at: &str,
) {
    let mut resumed = false;
    loop {
        let page = env.page(p);
        shown.extend(page.items.iter().map(|i| i.name.clone()));
        if page.done {
            break;
        }
        if !resumed && names(&page) == [at] {
            let state = p.state();
            assert!(
                state.sources[0].chunk_token.len() > 1,
                "late items pending: {state:?}"
            );
            *p = env.resume(p);
            resumed = true;
        }
    }
    assert!(resumed, "{shown:?}");
}

/// Each of `want` shown, and nothing shown twice.
fn assert_each_shown_once(shown: &[String], want: &[&str]) {
    let mut sorted = shown.to_vec();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), shown.len(), "shown twice: {shown:?}");
    for name in want {
        assert!(shown.iter().any(|s| s == name), "{name} lost: {shown:?}");
    }
}

fn seq(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i:03}")).collect()
}

fn chunk(names: &[&str], next: &str) -> Chunk<ItemFields> {
    Chunk {
        items: names
            .iter()
            .map(|n| (item("", "", n, "repo"), item("", "", n, "repo")))
            .collect(),
        next_token: Some(next.into()),
        resource_version: None,
        remaining_item_count: None,
    }
}

#[test]
fn first_page_costs_one_request_per_source() {
    let a = ["pkg-a", "pkg-c", "pkg-e", "pkg-g", "pkg-i", "pkg-k"];
    let b = ["pkg-b", "pkg-d", "pkg-f", "pkg-h", "pkg-j", "pkg-l"];
    let mut env = Env::new(
        vec![
            Fake::new(
                Kind::Offset,
                "helm.packages",
                "kubeapps",
                &pairs(&a, "repo-a"),
            ),
            Fake::new(
                Kind::K8s,
                "kapp_controller.packages",
                "kubeapps",
                &pairs(&b, "repo-c"),
            ),
        ],
        4,
        4,
    );
    let mut p = env.pager();
    let first = p.next_requests();
    assert_eq!(first.len(), 2, "both sources at once");
    for r in first {
        env.answer(&mut p, r);
    }
    assert!(p.page_ready());
    assert!(
        p.next_requests().is_empty(),
        "a ready page asks nothing more"
    );
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-a", "pkg-b", "pkg-c", "pkg-d"]);
    assert!(!page.done);
    assert_eq!(env.requests(), 2);
    assert_eq!(page.stats.total().requests, 2);
    assert_eq!(page.stats.items_emitted, 4);
}

#[test]
fn filter_follows_chunks_until_a_match_or_the_end() {
    let mut names_: Vec<(&str, &str)> = [
        "pkg-a", "pkg-b", "pkg-c", "pkg-d", "pkg-e", "pkg-f", "pkg-g", "pkg-h",
    ]
    .iter()
    .map(|n| (*n, "repo-a"))
    .collect();
    names_.push(("pkg-zz", "repo-b"));
    let mut env = Env::new(
        vec![Fake::new(
            Kind::K8s,
            "kapp_controller.packages",
            "kubeapps",
            &names_,
        )],
        3,
        3,
    );
    env.options.filter = FilterOptions {
        repositories: vec!["repo-b".into()],
        ..Default::default()
    };
    let mut p = env.pager();
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-zz"]);
    assert!(page.done);
    assert_eq!(env.requests(), 3);
    assert_eq!(p.stats().total().filtered_out, 8);
}

#[test]
fn short_and_empty_chunks_with_a_token_are_not_the_end() {
    let fake = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let env = Env::new(vec![fake], 2, 3);
    let mut p = env.pager();
    let script = [
        chunk(&["pkg-b"], "t1"),
        chunk(&[], "t2"),
        chunk(&["pkg-h", "pkg-i"], ""),
    ];
    let mut sent = Vec::new();
    for c in script {
        let reqs = p.next_requests();
        assert_eq!(reqs.len(), 1);
        sent.push(reqs[0].page_token.clone());
        p.feed(reqs[0].request_id, c).expect("feed");
    }
    assert_eq!(sent, ["", "t1", "t2"]);
    let page = p.take_page().expect("encodes").expect("ready");
    assert_eq!(names(&page), ["pkg-b", "pkg-h"]);
    assert!(!page.done);
    let page = p.take_page().expect("encodes").expect("ready");
    assert_eq!(names(&page), ["pkg-i"]);
    assert!(page.done);
    assert!(env.fakes[0].requests == 0, "scripted by hand");
}

#[test]
fn an_empty_continue_string_ends_the_list() {
    let fake = Fake::new(Kind::K8s, "fluxv2.packages", "kubeapps", &[]);
    let env = Env::new(vec![fake], 5, 500);
    let mut p = env.pager();
    let reqs = p.next_requests();
    assert_eq!(reqs.len(), 1);
    p.feed(reqs[0].request_id, chunk(&["pkg-a", "pkg-b"], ""))
        .expect("feed");
    assert!(p.page_ready());
    assert!(p.next_requests().is_empty());
    let page = p.take_page().expect("encodes").expect("ready");
    assert_eq!(names(&page), ["pkg-a", "pkg-b"]);
    assert!(page.done);
}

#[test]
fn a_deletion_loses_nothing_and_the_end_never_restarts() {
    let mut env = Env::new(
        vec![Fake::new(
            Kind::Offset,
            "helm.packages",
            "kubeapps",
            &[("pkg-a", "r"), ("pkg-b", "r"), ("pkg-c", "r")],
        )],
        2,
        2,
    );
    let mut p = env.pager();
    assert_eq!(names(&env.page(&mut p)), ["pkg-a", "pkg-b"]);
    env.fakes[0].delete("pkg-b");
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-c"]);
    assert!(page.done);
    let before = env.requests();
    for _ in 0..3 {
        assert!(p.next_requests().is_empty());
        let page = env.page(&mut p);
        assert!(page.items.is_empty() && page.done);
    }
    assert_eq!(env.requests(), before, "no request after the end");
}

#[test]
fn deletions_ahead_are_found_by_a_rescan() {
    // Two items before the position vanish between pages: a plain offset
    // client skips pkg-f; the overlap check sees it and steps back.
    let n: Vec<(&str, &str)> = [
        "pkg-a", "pkg-b", "pkg-c", "pkg-d", "pkg-e", "pkg-f", "pkg-g", "pkg-h",
    ]
    .iter()
    .map(|n| (*n, "r"))
    .collect();
    let mut env = Env::new(
        vec![Fake::new(Kind::Offset, "helm.packages", "kubeapps", &n)],
        3,
        3,
    );
    let mut p = env.pager();
    assert_eq!(names(&env.page(&mut p)), ["pkg-a", "pkg-b", "pkg-c"]);
    // The pager holds pkg-d..pkg-f (it read one chunk ahead to emit pkg-c).
    env.fakes[0].delete("pkg-a");
    env.fakes[0].delete("pkg-b");
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-d", "pkg-e", "pkg-f"]);
    let page2 = env.page(&mut p);
    assert_eq!(names(&page2), ["pkg-g", "pkg-h"]);
    assert!(page2.done);
    let total = p.stats().total();
    assert!(total.rescans >= 1, "the drift was seen: {total:?}");
}

#[test]
fn deletions_ahead_found_after_a_resume_too() {
    let n: Vec<String> = seq("pkg-", 30);
    let pairs_: Vec<(&str, &str)> = n.iter().map(|s| (s.as_str(), "r")).collect();
    let mut env = Env::new(
        vec![Fake::new(
            Kind::Offset,
            "helm.packages",
            "kubeapps",
            &pairs_,
        )],
        5,
        4,
    );
    let mut p = env.pager();
    let mut shown: Vec<String> = names(&env.page(&mut p))
        .iter()
        .map(|s| s.to_string())
        .collect();
    for victim in ["pkg-000", "pkg-001", "pkg-002", "pkg-003", "pkg-004"] {
        env.fakes[0].delete(victim);
    }
    let mut p = env.resume(&p);
    loop {
        let page = env.page(&mut p);
        shown.extend(names(&page).iter().map(|s| s.to_string()));
        if page.done {
            break;
        }
        p = env.resume(&p);
    }
    assert_eq!(shown, n, "each item once, in order");
}

#[test]
fn inserts_ahead_are_skipped_and_the_page_topped_up() {
    let n: Vec<(&str, &str)> = ["pkg-c", "pkg-d", "pkg-e", "pkg-f", "pkg-g"]
        .iter()
        .map(|n| (*n, "r"))
        .collect();
    let mut env = Env::new(
        vec![Fake::new(Kind::Offset, "helm.packages", "kubeapps", &n)],
        3,
        3,
    );
    let mut p = env.pager();
    assert_eq!(names(&env.page(&mut p)), ["pkg-c", "pkg-d", "pkg-e"]);
    env.fakes[0].insert(item("helm.packages", "kubeapps", "pkg-a", "r"));
    env.fakes[0].insert(item("helm.packages", "kubeapps", "pkg-b", "r"));
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-f", "pkg-g"]);
    assert!(page.done);
}

#[test]
fn inserts_ahead_then_resume_repeat_nothing() {
    let n: Vec<(&str, &str)> = ["pkg-b", "pkg-c", "pkg-d", "pkg-e", "pkg-f"]
        .iter()
        .map(|n| (*n, "r"))
        .collect();
    let mut env = Env::new(
        vec![Fake::new(Kind::Offset, "helm.packages", "kubeapps", &n)],
        2,
        2,
    );
    let mut p = env.pager();
    assert_eq!(names(&env.page(&mut p)), ["pkg-b", "pkg-c"]);
    env.fakes[0].insert(item("helm.packages", "kubeapps", "pkg-a", "r"));
    // To show pkg-c the pager read the next chunk from the item before pkg-c's tie group
    // (offset 0: pkg-b, pkg-c again, then pkg-d, pkg-e): the position is two raw items into it.
    let st = p.state();
    assert_eq!(
        (st.sources[0].chunk_token.as_str(), st.sources[0].offset),
        ("", 2)
    );
    let mut p = env.resume(&p);
    assert_eq!(names(&env.page(&mut p)), ["pkg-d", "pkg-e"]);
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-f"]);
    assert!(page.done);
}

#[test]
fn equal_names_are_ordered_by_identity_across_resumes() {
    let mut env = Env::new(
        vec![
            Fake::new(
                Kind::Unordered,
                "helm.packages",
                "kubeapps",
                &[
                    ("pkg-a", "repo-c"),
                    ("pkg-a", "repo-a"),
                    ("pkg-b", "repo-a"),
                    ("pkg-a", "repo-b"),
                ],
            ),
            Fake::new(
                Kind::K8s,
                "fluxv2.packages",
                "kubeapps",
                &[("pkg-a", "repo-z")],
            ),
            Fake::new(
                Kind::Offset,
                "helm.packages",
                "team-1",
                &[("pkg-a", "repo-a")],
            ),
            Fake::new(
                Kind::Offset,
                "helm.packages",
                "kubeapps",
                &[("pkg-a", "repo-a")],
            )
            .in_cluster("prod"),
        ],
        2,
        4,
    );
    let ident = |p: &Page<ItemFields>| -> Vec<String> {
        p.items
            .iter()
            .map(|i| {
                format!(
                    "{} {} {} {}",
                    i.plugin, i.cluster, i.namespace, i.identifier
                )
            })
            .collect()
    };
    let mut p = env.pager();
    let want = [
        [
            "fluxv2.packages default kubeapps repo-z/pkg-a",
            "helm.packages default kubeapps repo-a/pkg-a",
        ],
        [
            "helm.packages default kubeapps repo-b/pkg-a",
            "helm.packages default kubeapps repo-c/pkg-a",
        ],
        [
            "helm.packages default team-1 repo-a/pkg-a",
            "helm.packages prod kubeapps repo-a/pkg-a",
        ],
    ];
    for w in want {
        let page = env.page(&mut p);
        assert_eq!(ident(&page), w);
        assert!(!page.done);
        p = env.resume(&p);
    }
    let page = env.page(&mut p);
    assert_eq!(
        ident(&page),
        ["helm.packages default kubeapps repo-a/pkg-b"]
    );
    assert!(page.done);
}

#[test]
fn idle_and_finished_sources_keep_their_place() {
    let mut env = Env::new(
        vec![
            Fake::new(
                Kind::Offset,
                "helm.packages",
                "kubeapps",
                &[
                    ("pkg-b", "a"),
                    ("pkg-c", "a"),
                    ("pkg-d", "a"),
                    ("pkg-e", "a"),
                ],
            ),
            Fake::new(
                Kind::K8s,
                "kapp_controller.packages",
                "kubeapps",
                &[("pkg-a", "c"), ("pkg-z", "c")],
            ),
            Fake::new(
                Kind::Offset,
                "fluxv2.packages",
                "kubeapps",
                &[("pkg-a1", "f")],
            ),
        ],
        2,
        2,
    );
    let mut p = env.pager();
    let mut all = Vec::new();
    let mut states = Vec::new();
    loop {
        let page = env.page(&mut p);
        all.extend(names(&page).iter().map(|s| s.to_string()));
        states.push(p.state());
        if page.done {
            break;
        }
        p = env.resume(&p);
    }
    assert_eq!(
        all,
        ["pkg-a", "pkg-a1", "pkg-b", "pkg-c", "pkg-d", "pkg-e", "pkg-z"]
    );
    // After page 1 every source has its place: helm untouched at its first
    // chunk, kapp one item into its chunk, flux finished.
    let s = &states[0];
    assert_eq!(s.sources.len(), 3);
    assert_eq!(
        (
            s.sources[0].chunk_token.as_str(),
            s.sources[0].offset,
            s.sources[0].exhausted
        ),
        ("", 0, false)
    );
    assert_eq!(
        (
            s.sources[1].chunk_token.as_str(),
            s.sources[1].offset,
            s.sources[1].exhausted
        ),
        ("", 1, false)
    );
    assert!(s.sources[2].exhausted);
    let wm = s.sources[2].watermark.as_ref().expect("flux showed pkg-a1");
    assert_eq!(wm.sort_key, "pkg-a1");
    assert_eq!(wm.identity.identifier, "f/pkg-a1");
    assert!(s.sources[0].watermark.is_none());
}

#[test]
fn page_token_state_carries_the_source_token_verbatim() {
    let fake = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let mut env = Env::new(vec![fake], 1, 2);
    let mut p = env.pager();
    let raw = "+RID:~kubeapps/pkg-b==#RT:1#TRC:10";
    let reqs = p.next_requests();
    p.feed(reqs[0].request_id, chunk(&["pkg-b"], raw))
        .expect("feed");
    env.page(&mut p);
    let st = p.state();
    assert_eq!(st.sources[0].chunk_token, raw);
    assert_eq!(st.sources[0].offset, 0);
    let mut p2 = env.resume(&p);
    let reqs = p2.next_requests();
    assert_eq!(reqs[0].page_token, raw);
}

#[test]
fn a_state_from_another_filter_is_refused_and_the_pager_goes_on() {
    let mut env = Env::new(
        vec![
            Fake::new(
                Kind::Offset,
                "helm.packages",
                "kubeapps",
                &[
                    ("pkg-a", "repo-a"),
                    ("pkg-c", "repo-b"),
                    ("pkg-e", "repo-a"),
                ],
            ),
            Fake::new(
                Kind::K8s,
                "fluxv2.packages",
                "kubeapps",
                &[
                    ("pkg-b", "repo-a"),
                    ("pkg-d", "repo-a"),
                    ("pkg-f", "repo-a"),
                ],
            ),
        ],
        2,
        2,
    );
    env.options.filter.repositories = vec!["repo-a".into()];
    let mut p = env.pager();
    assert_eq!(names(&env.page(&mut p)), ["pkg-a", "pkg-b"]);
    for repos in [vec![], vec!["repo-b".to_string()]] {
        let mut other = env.options.clone();
        other.filter.repositories = repos;
        let err = Pager::<ItemFields>::from_state(p.state(), other)
            .err()
            .expect("refused");
        assert_eq!(err.code(), "FILTER_MISMATCH");
    }
    let mut other = env.options.clone();
    other.sort = SortOrder::DisplayName;
    assert_eq!(
        Pager::<ItemFields>::from_state(p.state(), other)
            .err()
            .map(|e| e.code()),
        Some("FILTER_MISMATCH")
    );
    assert_eq!(names(&env.page(&mut p)), ["pkg-d", "pkg-e"]);
    let mut p = env.resume(&p);
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-f"]);
    assert!(page.done);
}

#[test]
fn a_state_for_other_sources_is_an_invalid_token() {
    let env = Env::new(
        vec![Fake::new(
            Kind::Offset,
            "helm.packages",
            "kubeapps",
            &[("pkg-a", "r")],
        )],
        2,
        2,
    );
    let p = env.pager();
    let mut st = p.state();
    st.sources[0].source.namespace = "elsewhere".into();
    let err = Pager::<ItemFields>::from_state(st, env.options.clone())
        .err()
        .expect("refused");
    assert_eq!(err.code(), "INVALID_PAGE_TOKEN");
    let mut st = p.state();
    st.sources.push(st.sources[0].clone());
    let err = Pager::<ItemFields>::from_state(st, env.options.clone())
        .err()
        .expect("refused");
    assert_eq!(err.code(), "INVALID_PAGE_TOKEN");
}

/// A page token (made with the codec, say) whose watermark is a longer key than any item of its
/// source may have: resuming from it would let later positions outgrow a page token (every
/// `take_page` then fails, the list stuck). Refused at resume; a watermark at the limit is fine.
#[test]
fn a_watermark_longer_than_the_key_limit_is_an_invalid_token() {
    let fakes = (0..3)
        .map(|i| Fake::new(Kind::Offset, &format!("p{i}.packages"), "kubeapps", &[]))
        .collect();
    let env = Env::new(fakes, 2, 2);
    let max = env.options.max_key_bytes();
    let p = env.pager();
    let with_watermark = |sort_key: String, identity: crate::item::Identity| {
        let mut st = p.state();
        st.sources[1].watermark = Some(crate::token::page_token::Watermark { sort_key, identity });
        Pager::<ItemFields>::from_state(st, env.options.clone())
    };
    let own = |identifier: &str| crate::item::Identity {
        plugin: "p1.packages".into(),
        cluster: "default".into(),
        namespace: "kubeapps".into(),
        identifier: identifier.into(),
    };
    assert!(with_watermark("x".repeat(max - 1), own("i")).is_ok());
    let err = with_watermark("x".repeat(max), own("i"))
        .err()
        .expect("refused");
    assert_eq!(err.code(), "INVALID_PAGE_TOKEN");
    assert!(
        err.message().contains(&format!("at most {max}")),
        "{}",
        err.message()
    );
    // Another source's plugin, cluster and namespace count too.
    let mut foreign = own("i");
    foreign.cluster = "c".repeat(10);
    assert!(with_watermark("x".repeat(max - 11), foreign.clone()).is_ok());
    assert!(with_watermark("x".repeat(max - 10), foreign).is_err());
}

#[test]
fn expiry_goes_on_with_the_inconsistent_token() {
    for with_token in [true, false] {
        let n: Vec<(&str, &str)> = ["pkg-a", "pkg-b", "pkg-c", "pkg-d", "pkg-e", "pkg-f"]
            .iter()
            .map(|n| (*n, "repo-c"))
            .collect();
        let mut env = Env::new(
            vec![Fake::new(
                Kind::K8s,
                "kapp_controller.packages",
                "kubeapps",
                &n,
            )],
            2,
            2,
        );
        let mut p = env.pager();
        let page = env.page(&mut p);
        assert_eq!(names(&page), ["pkg-a", "pkg-b"]);
        assert!(!page.inconsistent);
        let f = &mut env.fakes[0];
        f.delete("pkg-f");
        f.insert(item(
            "kapp_controller.packages",
            "kubeapps",
            "pkg-aa",
            "repo-c",
        ));
        f.insert(item(
            "kapp_controller.packages",
            "kubeapps",
            "pkg-g",
            "repo-c",
        ));
        f.expire = Some(with_token);
        let page = env.page(&mut p);
        assert_eq!(names(&page), ["pkg-c", "pkg-d"], "with token: {with_token}");
        assert!(page.inconsistent);
        assert_eq!(page.stats.total().expired_recoveries, 1);
        let page = env.page(&mut p);
        assert_eq!(names(&page), ["pkg-e", "pkg-g"], "with token: {with_token}");
        assert!(page.done && page.inconsistent);
        assert!(p.state().sources[0].inconsistent);
        if !with_token {
            // The relist re-read pkg-a and pkg-b (and the new pkg-aa, behind the watermark).
            assert!(p.stats().total().duplicates_dropped >= 3);
        }
    }
}

#[test]
fn a_failed_request_is_asked_again_and_late_answers_are_stale() {
    let n: Vec<(&str, &str)> = ["pkg-a", "pkg-b", "pkg-c"]
        .iter()
        .map(|n| (*n, "r"))
        .collect();
    let mut env = Env::new(
        vec![Fake::new(
            Kind::K8s,
            "kapp_controller.packages",
            "kubeapps",
            &n,
        )],
        2,
        2,
    );
    let mut p = env.pager();
    let first = p.next_requests();
    assert_eq!(first.len(), 1);
    assert!(p.next_requests().is_empty(), "in flight is not repeated");
    let st = p.state();
    assert_eq!(
        p.fail(
            first[0].request_id,
            Failure {
                status: 503,
                reason: None,
                continue_token: None
            }
        ),
        Ok(FailOutcome::Retry)
    );
    assert_eq!(p.state(), st);
    let again = p.next_requests();
    assert_eq!(again.len(), 1);
    assert_eq!(
        (again[0].page_token.as_str(), again[0].limit),
        (first[0].page_token.as_str(), first[0].limit)
    );
    assert_ne!(again[0].request_id, first[0].request_id);
    // The first request's late answer: superseded.
    assert_eq!(
        p.feed(first[0].request_id, chunk(&["pkg-x"], "")),
        Ok(FeedOutcome::Stale)
    );
    // Never made.
    assert_eq!(
        p.feed(999_999, chunk(&["pkg-x"], "")),
        Ok(FeedOutcome::Stale)
    );
    assert_eq!(
        p.fail(
            12345,
            Failure {
                status: 500,
                reason: None,
                continue_token: None
            }
        ),
        Ok(FailOutcome::Stale)
    );
    let req = again[0].clone();
    let answer = env.fakes[0].serve(&req).expect("served");
    assert_eq!(
        p.feed(req.request_id, answer.clone()),
        Ok(FeedOutcome::Accepted)
    );
    // Answered twice.
    assert_eq!(p.feed(req.request_id, answer), Ok(FeedOutcome::Stale));
    assert_eq!(p.stats().total().stale_responses, 4);
    assert_eq!(p.stats().sources[0].requests, 2);
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-a", "pkg-b"]);
}

/// A continue token that cycles (`t1 → t2 → t1`, a known apiserver-proxy and plugin bug): the
/// answer that hands back the earlier token keeps its items, then the source ends there (as an
/// echoed token ends it), counted in `cycled_tokens` and flagged `truncated`; the other sources go on.
#[test]
fn a_cycling_token_keeps_its_answer_and_ends_the_source() {
    let kapp = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let helm = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &pairs(&["pkg-b2", "pkg-z"], "repo"),
    );
    let mut env = Env::new(vec![kapp, helm], 10, 2);
    let mut p = env.pager();
    let mut kapp_answers = vec![
        chunk(&["pkg-a", "pkg-b"], "t1"),
        chunk(&["pkg-c", "pkg-d"], "t2"),
        chunk(&["pkg-e"], "t1"),
    ]
    .into_iter();
    let mut asked = Vec::new();
    while !p.page_ready() {
        for r in p.next_requests() {
            if r.source_index == 0 {
                asked.push(r.page_token.clone());
                let answer = kapp_answers.next().expect("no request after the cycle");
                assert_eq!(p.feed(r.request_id, answer), Ok(FeedOutcome::Accepted));
            } else {
                env.answer(&mut p, r);
            }
        }
    }
    assert_eq!(asked, ["", "t1", "t2"]);
    let page = p.take_page().expect("encodes").expect("ready");
    assert_eq!(
        names(&page),
        ["pkg-a", "pkg-b", "pkg-b2", "pkg-c", "pkg-d", "pkg-e", "pkg-z"]
    );
    assert!(page.done && page.truncated);
    assert_eq!(page.stats.sources[0].cycled_tokens, 1);
    assert_eq!(p.stats().total().cycled_tokens, 1);
    assert!(page.unreachable.is_empty());
}

/// An immediate repeat of the token just given (`t1` answered with `t1` again) is an echo, not a
/// cycle: the plugin's way to end its list (see `an_end_signalled_by_echoing_the_token_ends_the_list_once`).
#[test]
fn an_echoed_token_is_no_cycle() {
    let fake = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let env = Env::new(vec![fake], 10, 2);
    let mut p = env.pager();
    let r = p.next_requests();
    p.feed(r[0].request_id, chunk(&["pkg-a", "pkg-b"], "t1"))
        .expect("feed");
    let r = p.next_requests();
    p.feed(r[0].request_id, chunk(&["pkg-c"], "t1"))
        .expect("feed");
    let page = p.take_page().expect("encodes").expect("ready");
    assert_eq!(names(&page), ["pkg-a", "pkg-b", "pkg-c"]);
    assert!(page.done && !page.truncated);
    assert_eq!(page.stats.total().cycled_tokens, 0);
}

/// A proxy that drops `continue`: every continuation answers the first chunk again. The source is
/// set aside as unreachable (`no-progress`) at the third restart in a row (four requests), its
/// continue token kept, while the other sources go on; a retry asks the same continuation again.
#[test]
fn a_dropped_continue_sets_the_source_aside_within_a_few_requests() {
    let kapp = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let helm = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &pairs(&["pkg-m", "pkg-n"], "repo"),
    );
    let mut env = Env::new(vec![kapp, helm], 10, 2);
    let mut p = env.pager();
    let mut asked = Vec::new();
    let mut outcomes = Vec::new();
    while !p.page_ready() {
        for r in p.next_requests() {
            if r.source_index == 0 {
                assert!(asked.len() < 10, "asked {asked:?}");
                asked.push(r.page_token.clone());
                // The first chunk, whatever the token says.
                let out = p.feed(r.request_id, chunk(&["pkg-a", "pkg-b"], "t1"));
                outcomes.push(out.expect("feed"));
            } else {
                env.answer(&mut p, r);
            }
        }
    }
    assert_eq!(asked, ["", "t1", "t1", "t1"]);
    assert_eq!(outcomes.last(), Some(&FeedOutcome::Unreachable));
    let page = p.take_page().expect("encodes").expect("ready");
    assert_eq!(names(&page), ["pkg-a", "pkg-b", "pkg-m", "pkg-n"]);
    assert!(page.done);
    assert_eq!(page.unreachable.len(), 1);
    assert_eq!(page.unreachable[0].cause, UnreachableCause::NoProgress);
    assert_eq!(page.unreachable[0].cause.as_str(), "no-progress");
    assert_eq!(p.retry_unreachable(None), vec![0]);
    let r = p.next_requests();
    assert_eq!(r[0].page_token, "t1", "the position stands");
}

/// Feeds source 0's requests with `answer(token sent, answers so far)` and the others from
/// `env`, until a page is ready; returns the tokens source 0 was asked with and its last outcome.
fn drive_first_source(
    env: &mut Env,
    p: &mut Pager<ItemFields>,
    answer: impl Fn(&str, usize) -> Chunk<ItemFields>,
) -> (Vec<String>, Option<FeedOutcome>) {
    let mut asked: Vec<String> = Vec::new();
    let mut last = None;
    while !p.page_ready() {
        let requests = p.next_requests();
        assert!(!requests.is_empty(), "nothing to ask; asked {asked:?}");
        for r in requests {
            if r.source_index == 0 {
                assert!(asked.len() < 10, "asked {asked:?}");
                let c = answer(&r.page_token, asked.len());
                asked.push(r.page_token.clone());
                last = Some(p.feed(r.request_id, c).expect("feed"));
            } else {
                env.answer(p, r);
            }
        }
    }
    (asked, last)
}

/// A proxy that drops `continue` before a chunk limit of 1, handing back the same token: the
/// first continuation answers the list's only item read so far with the token it was sent (an
/// echo, which would end the list there). A continue token is exclusive, so the list's first
/// item again is a restart however little was read: set aside as `no-progress`, never ended.
#[test]
fn a_dropped_continue_with_one_item_chunks_and_an_echoed_token_is_no_end() {
    let helm = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &pairs(&["pkg-m"], "repo"),
    );
    let kapp = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let mut env = Env::new(vec![kapp, helm], 10, 1);
    let mut p = env.pager();
    let (asked, last) = drive_first_source(&mut env, &mut p, |_, _| chunk(&["pkg-a"], "t1"));
    assert_eq!(asked, ["", "t1", "t1", "t1"]);
    assert_eq!(last, Some(FeedOutcome::Unreachable));
    let page = p.take_page().expect("encodes").expect("ready");
    assert_eq!(names(&page), ["pkg-a", "pkg-m"]);
    assert_eq!(page.unreachable.len(), 1);
    assert_eq!(page.unreachable[0].cause, UnreachableCause::NoProgress);
}

/// The same with a new token on every answer (the proxy passes the apiserver's fresh one on): no
/// echo, so no restart at one item read (an inclusive cursor behind a label selector answers so
/// too); the bound `maxChunksWithoutProgress` ends it with `NO_PROGRESS`, never a silent end.
#[test]
fn a_dropped_continue_with_one_item_chunks_and_new_tokens_ends_in_no_progress() {
    let kapp = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let mut env = Env::new(vec![kapp], 10, 1);
    env.options.max_chunks_without_progress = 4;
    let mut p = env.pager();
    let mut err = None;
    for n in 0..20 {
        let Some(r) = p.next_requests().pop() else {
            break;
        };
        match p.feed(r.request_id, chunk(&["pkg-a"], &format!("t{}", n + 1))) {
            Ok(_) => {}
            Err(e) => {
                err = Some(e);
                break;
            }
        }
    }
    assert_eq!(err.expect("NO_PROGRESS").code(), "NO_PROGRESS");
}

/// A resumed Kubernetes list (its start not read in this pager, so its first item unknown)
/// behind a proxy that drops `continue`: the resumed continuation answers the first chunk again
/// with the token it was sent. That echo is no end (an apiserver ends with an empty continue):
/// set aside as `no-progress`, the position kept for a retry.
#[test]
fn a_resumed_list_whose_proxy_drops_continue_is_set_aside_not_ended() {
    let kapp = Fake::new(
        Kind::K8s,
        "kapp_controller.packages",
        "kubeapps",
        &pairs(&["pkg-a", "pkg-b", "pkg-c", "pkg-d", "pkg-e"], "repo"),
    );
    let mut env = Env::new(vec![kapp], 3, 2);
    let mut p = env.pager();
    let first = env.page(&mut p);
    assert_eq!(names(&first), ["pkg-a", "pkg-b", "pkg-c"]);
    let mut resumed = env.resume(&p);
    let (asked, last) =
        drive_first_source(&mut env, &mut resumed, |t, _| chunk(&["pkg-a", "pkg-b"], t));
    assert!(
        asked.len() <= 4 && asked.iter().all(|t| !t.is_empty()),
        "{asked:?}"
    );
    assert_eq!(last, Some(FeedOutcome::Unreachable));
    let page = resumed.take_page().expect("encodes").expect("ready");
    assert!(names(&page).is_empty(), "{:?}", names(&page));
    assert_eq!(page.unreachable[0].cause, UnreachableCause::NoProgress);
    assert!(!page.done || !page.unreachable.is_empty());
}

/// A Kubernetes continue token says where its answer starts (`start`: after the last key given).
/// A resumed list whose proxy answers a continuation from the list's start (here the whole, now
/// short, list with no next token, which looks like its end) starts before that key: a restart,
/// never an end; set aside as `no-progress`, named on the page.
#[test]
fn an_answer_before_its_continue_tokens_start_is_a_restart() {
    let token = |start: &str| {
        crate::token::ContinueToken::new(7, start)
            .encode()
            .expect("encodes")
    };
    let kapp = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let mut env = Env::new(vec![kapp], 3, 2);
    let mut p = env.pager();
    let (t1, t2) = (token("pkg-b\0"), token("pkg-d\0"));
    let (asked, _) = drive_first_source(&mut env, &mut p, |t, _| {
        if t.is_empty() {
            chunk(&["pkg-a", "pkg-b"], &t1)
        } else {
            chunk(&["pkg-c", "pkg-d"], &t2)
        }
    });
    assert_eq!(asked, ["", t1.as_str()]);
    let first = p.take_page().expect("encodes").expect("ready");
    assert_eq!(names(&first), ["pkg-a", "pkg-b", "pkg-c"]);
    let mut resumed = env.resume(&p);
    let (asked, last) = drive_first_source(&mut env, &mut resumed, |_, _| {
        chunk(&["pkg-a", "pkg-b", "pkg-z"], "")
    });
    assert!(
        asked.len() <= 4 && asked.iter().all(|t| !t.is_empty()),
        "{asked:?}"
    );
    assert_eq!(last, Some(FeedOutcome::Unreachable));
    let page = resumed.take_page().expect("encodes").expect("ready");
    assert_eq!(page.unreachable[0].cause, UnreachableCause::NoProgress);
}

/// An inclusive continue cursor at a chunk limit of 1 that counts `limit` items after the one it
/// repeats (as the model's apiserver does) starts its first continuation with the list's first
/// item: with the item after it, that is no restart, even when that item brings nothing new in
/// the merge order (the source is in another order: read whole).
#[test]
fn an_inclusive_cursor_at_chunk_limit_one_is_no_restart() {
    let kapp = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let mut env = Env::new(vec![kapp], 10, 1);
    let mut p = env.pager();
    let (asked, last) = drive_first_source(&mut env, &mut p, |t, _| match t {
        "" => chunk(&["pkg-a"], "t1"),
        "t1" => chunk(&["pkg-a", "pkg-0"], "t2"),
        _ => chunk(&["pkg-0", "pkg-c"], ""),
    });
    assert!(asked.len() <= 6, "{asked:?}");
    assert_eq!(last, Some(FeedOutcome::Accepted));
    let page = p.take_page().expect("encodes").expect("ready");
    let mut shown = names(&page);
    shown.sort_unstable();
    assert_eq!(shown, ["pkg-0", "pkg-a", "pkg-c"]);
    assert!(page.done && page.unreachable.is_empty());
}

/// An aborted request is the caller's, not the source's: `cancel` clears it without counting,
/// so more aborts in a row than `MAX_FAILURES_IN_A_ROW` leave the source reachable, the same
/// request asked again; a late answer to a cancelled request is stale.
#[test]
fn cancelled_requests_are_no_failures() {
    let helm = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &pairs(&["pkg-a"], "repo"),
    );
    let mut env = Env::new(vec![helm], 10, 2);
    let mut p = env.pager();
    let mut ids = Vec::new();
    for _ in 0..MAX_FAILURES_IN_A_ROW * 2 {
        let r = p.next_requests();
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].page_token, "");
        ids.push(r[0].request_id);
        assert!(p.cancel(r[0].request_id));
        assert!(!p.cancel(r[0].request_id), "cancelled already");
    }
    assert!(p.unreachable().is_empty());
    assert_eq!(p.stats().total().requests, 0);
    assert_eq!(
        p.feed(ids[0], chunk(&["pkg-a"], "")).expect("feed"),
        FeedOutcome::Stale
    );
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-a"]);
    assert!(page.done && page.unreachable.is_empty());
}

/// The same for an offset source whose proxy drops the offset: the overlap re-read answers the
/// list's first chunk again.
#[test]
fn a_dropped_offset_sets_the_source_aside_within_a_few_requests() {
    let env = Env::new(
        vec![Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[])],
        10,
        2,
    );
    let mut p = env.pager();
    let mut asked = Vec::new();
    let mut last = FeedOutcome::Accepted;
    while !p.page_ready() {
        for r in p.next_requests() {
            assert!(asked.len() < 10, "asked {asked:?}");
            asked.push(r.page_token.clone());
            last = p
                .feed(r.request_id, chunk(&["pkg-a", "pkg-b"], "2"))
                .expect("feed");
        }
    }
    assert!(asked.len() <= 5, "{asked:?}");
    assert_eq!(last, FeedOutcome::Unreachable);
    let page = p.take_page().expect("encodes").expect("ready");
    // `pkg-b`, the last item read, waits for the read after it (it may open a group of equal
    // names): it comes once the source is retried and answers.
    assert_eq!(names(&page), ["pkg-a"]);
    assert_eq!(page.unreachable[0].cause, UnreachableCause::NoProgress);
}

#[test]
fn chunks_without_anything_new_end_in_no_progress() {
    let fake = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let mut env = Env::new(vec![fake], 3, 2);
    env.options.max_chunks_without_progress = 3;
    let mut p = env.pager();
    for i in 0..3 {
        let r = p.next_requests();
        p.feed(r[0].request_id, chunk(&[], &format!("t{i}")))
            .expect("within the bound");
    }
    let r = p.next_requests();
    let err = p
        .feed(r[0].request_id, chunk(&[], "t9"))
        .expect_err("past the bound");
    assert_eq!(err.code(), "NO_PROGRESS");
    p.feed(r[0].request_id, chunk(&["pkg-a"], ""))
        .expect("an item is progress");
    assert!(p.page_ready());
}

#[test]
fn a_source_read_whole_over_the_cap_is_too_large() {
    let n: Vec<(&str, &str)> = ["pkg-a", "pkg-b", "pkg-c"]
        .iter()
        .map(|n| (*n, "r"))
        .collect();
    let mut env = Env::new(
        vec![Fake::new(Kind::Unordered, "helm.packages", "kubeapps", &n)],
        2,
        2,
    );
    env.options.max_source_items = 2;
    let mut p = env.pager();
    let r = p.next_requests();
    assert_eq!(
        (r[0].page_token.as_str(), r[0].limit),
        ("", 3),
        "one request, cap + 1"
    );
    let answer = env.fakes[0].serve(&r[0]).expect("served");
    let err = p.feed(r[0].request_id, answer).expect_err("too large");
    assert_eq!(err.code(), "SOURCE_TOO_LARGE");
    assert_eq!(err.details()["cap"], 2);
    // Exactly the cap is fine.
    env.fakes[0].delete("pkg-c");
    let answer = env.fakes[0].serve(&r[0]).expect("served");
    p.feed(r[0].request_id, answer).expect("fits");
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-a", "pkg-b"]);
    assert!(page.done);
}

#[test]
fn a_kubernetes_source_read_whole_follows_continue_tokens_up_to_the_cap() {
    let n: Vec<(&str, &str)> = ["B", "a", "c", "D", "e"]
        .iter()
        .map(|n| (*n, "r"))
        .collect();
    let mut env = Env::new(
        vec![Fake::new(
            Kind::K8s,
            "kapp_controller.packages",
            "kubeapps",
            &n,
        )],
        10,
        2,
    );
    env.options.sort = SortOrder::DisplayName;
    let mut p = env.pager();
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["a", "B", "c", "D", "e"]);
    assert_eq!(env.requests(), 3);
    env.options.max_source_items = 4;
    let mut p = env.pager();
    let mut err = None;
    for _ in 0..3 {
        let r = p.next_requests();
        let answer = env.fakes[0].serve(&r[0]).expect("served");
        if let Err(e) = p.feed(r[0].request_id, answer) {
            err = Some(e);
            break;
        }
    }
    assert_eq!(err.map(|e| e.code()), Some("SOURCE_TOO_LARGE"));
}

#[test]
fn a_kubeapps_source_returning_more_than_asked_is_invalid() {
    let mut env = Env::new(
        vec![Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[])],
        2,
        2,
    );
    let mut p = env.pager();
    let r = p.next_requests();
    let before = p.state();
    let err = p
        .feed(r[0].request_id, chunk(&["pkg-a", "pkg-b", "pkg-c"], "3"))
        .expect_err("over limit");
    assert_eq!(err.code(), "INVALID_RESPONSE");
    assert_eq!(p.state(), before);
    p.feed(r[0].request_id, chunk(&["pkg-a", "pkg-b"], ""))
        .expect("fine");
    assert_eq!(names(&env.page(&mut p)), ["pkg-a", "pkg-b"]);
}

#[test]
fn a_list_that_ends_short_of_its_remaining_count_is_truncated() {
    let mut env = Env::new(
        vec![Fake::new(
            Kind::K8s,
            "kapp_controller.packages",
            "kubeapps",
            &[],
        )],
        5,
        2,
    );
    let mut p = env.pager();
    let r = p.next_requests();
    let mut c = chunk(&["pkg-a", "pkg-b"], "t1");
    c.remaining_item_count = Some(3);
    p.feed(r[0].request_id, c).expect("feed");
    let r = p.next_requests();
    p.feed(r[0].request_id, chunk(&["pkg-c"], ""))
        .expect("feed");
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-a", "pkg-b", "pkg-c"]);
    assert!(page.done && page.truncated);

    let mut p = env.pager();
    let r = p.next_requests();
    let mut c = chunk(&["pkg-a", "pkg-b"], "t1");
    c.remaining_item_count = Some(1);
    p.feed(r[0].request_id, c).expect("feed");
    let r = p.next_requests();
    p.feed(r[0].request_id, chunk(&["pkg-c"], ""))
        .expect("feed");
    let page = env.page(&mut p);
    assert!(page.done && !page.truncated);
}

#[test]
fn display_name_order_merges_sources_read_whole() {
    // kapp_controller: its display names are not its names, so under displayName it is read whole
    // (a helm source streams there: see `display_names_that_are_the_names_stream`).
    let mut a = Fake::new(
        Kind::Offset,
        "kapp_controller.packages",
        "kubeapps",
        &[("apache", "r"), ("nginx", "r")],
    );
    a.items[0].display_name = "Apache".into();
    a.items[1].display_name = "NGINX".into();
    let mut b = Fake::new(
        Kind::K8s,
        "fluxv2.packages",
        "kubeapps",
        &[("zeta", "r"), ("b-redis", "r")],
    );
    for i in &mut b.items {
        if i.name == "zeta" {
            i.display_name = "mysql".into();
        } else {
            i.display_name = String::new(); // sorts as its name
        }
    }
    let mut env = Env::new(vec![a, b], 2, 1);
    env.options.sort = SortOrder::DisplayName;
    let mut p = env.pager();
    let first = p.next_requests();
    assert_eq!(first.len(), 2, "both sources at once");
    assert_eq!(
        first[0].limit,
        env.options.max_source_items + 1,
        "kubeapps: one request"
    );
    for r in first {
        env.answer(&mut p, r);
    }
    let mut shown = Vec::new();
    loop {
        let page = env.page(&mut p);
        shown.extend(page.items.iter().map(|i| i.name.clone()));
        if page.done {
            break;
        }
        p = env.resume(&p);
    }
    assert_eq!(shown, ["apache", "b-redis", "zeta", "nginx"]);
    let st = p.state();
    assert!(st.sources.iter().all(|s| s.exhausted));
}

#[test]
fn a_resume_honours_a_new_page_size() {
    let n: Vec<String> = seq("pkg-", 10);
    let pairs_: Vec<(&str, &str)> = n.iter().map(|s| (s.as_str(), "r")).collect();
    let mut env = Env::new(
        vec![Fake::new(
            Kind::K8s,
            "kapp_controller.packages",
            "kubeapps",
            &pairs_,
        )],
        3,
        4,
    );
    let mut p = env.pager();
    assert_eq!(names(&env.page(&mut p)), ["pkg-000", "pkg-001", "pkg-002"]);
    let mut opts = env.options.clone();
    opts.page_size = 5;
    let mut p = Pager::from_state(p.state(), opts).expect("same fingerprint");
    let page = env.page(&mut p);
    assert_eq!(
        names(&page),
        ["pkg-003", "pkg-004", "pkg-005", "pkg-006", "pkg-007"]
    );
    assert_eq!(p.state().page_size, 5);
}

#[test]
fn a_page_after_done_is_empty_and_asks_nothing() {
    let mut env = Env::new(
        vec![Fake::new(
            Kind::K8s,
            "kapp_controller.packages",
            "kubeapps",
            &[("pkg-a", "r")],
        )],
        2,
        2,
    );
    let mut p = env.pager();
    let page = env.page(&mut p);
    assert!(page.done);
    let n = env.requests();
    for _ in 0..3 {
        assert!(p.page_ready());
        assert!(p.next_requests().is_empty());
        let page = p.take_page().expect("encodes").expect("ready");
        assert!(page.items.is_empty() && page.done);
    }
    assert_eq!(env.requests(), n);
    let mut p = env.resume(&p);
    assert!(
        p.next_requests().is_empty(),
        "a resumed finished pager asks nothing"
    );
    assert!(p.take_page().expect("encodes").expect("ready").done);
}

#[test]
fn buffers_hold_at_most_about_two_chunks_per_source() {
    let a: Vec<String> = seq("a-", 200);
    let b: Vec<String> = seq("b-", 200);
    let mut all: Vec<(&str, &str)> = a.iter().map(|s| (s.as_str(), "r")).collect();
    all.extend(b.iter().map(|s| (s.as_str(), "r")));
    let mut env = Env::new(
        vec![
            Fake::new(Kind::Offset, "helm.packages", "kubeapps", &all),
            Fake::new(Kind::K8s, "fluxv2.packages", "kubeapps", &all),
        ],
        7,
        10,
    );
    let mut p = env.pager();
    let mut count = 0;
    loop {
        let page = env.page(&mut p);
        count += page.items.len();
        for c in &p.cursors {
            assert!(
                c.buf.len() <= 2 * 10 + 1,
                "buffer of {} entries",
                c.buf.len()
            );
        }
        if page.done {
            break;
        }
    }
    assert_eq!(count, 800);
    // Each source: 400 items in chunks of 10 (kubeapps chunks re-read one item), after a first
    // chunk of 8 (slow start: 2 × ceil(7 / 2 streamed sources)): 8 + 39 × 10 = 398, one more.
    assert!(env.fakes[0].requests <= 46, "{}", env.fakes[0].requests);
    assert_eq!(env.fakes[1].requests, 41);
}

#[test]
fn live_changes_pass_through_the_filter() {
    let mut f = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &[
            ("pkg-a", "r"),
            ("pkg-b", "r"),
            ("pkg-c", "r"),
            ("pkg-d", "r"),
            ("pkg-e", "r"),
        ],
    );
    for i in &mut f.items {
        i.categories = vec![if matches!(i.name.as_str(), "pkg-b" | "pkg-d") {
            "Monitoring"
        } else {
            "Database"
        }
        .into()];
    }
    let mut env = Env::new(vec![f], 2, 2);
    env.options.filter.categories = vec!["Database".into()];
    let mut p = env.pager();
    assert_eq!(names(&env.page(&mut p)), ["pkg-a", "pkg-c"]);
    let f = &mut env.fakes[0];
    f.items[0].short_description = "edited after it was shown".into();
    for n in ["pkg-bb", "pkg-dd"] {
        let mut it = item("helm.packages", "kubeapps", n, "r");
        it.categories = vec!["Monitoring".into()];
        f.insert(it);
    }
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-e"]);
    assert!(page.done);
}

/// One random change to a source's data: a deletion (remembered) or an insertion.
fn mutate(
    env: &mut Env,
    next: &mut impl FnMut(u64) -> u64,
    deleted: &mut HashSet<(String, String)>,
) {
    let which = next(env.fakes.len() as u64) as usize;
    let f = &mut env.fakes[which];
    let plugin = f.id.plugin.clone();
    if next(2) == 0 && !f.items.is_empty() {
        let i = next(f.items.len() as u64) as usize;
        let it = f.items.remove(i);
        deleted.insert((it.plugin, it.identifier));
    } else {
        let name = format!("pkg-{:03}{}", next(80), ["x", "y", "u"][which % 3]);
        let repo = ["a", "q"][next(2) as usize];
        if !f.items.iter().any(|i| i.name == name) {
            f.insert(item(&plugin, "kubeapps", &name, repo));
        }
    }
}

/// A small deterministic PRNG (xorshift64) for the randomized tests: `next(n)` is in `0..n`.
fn xorshift(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut rng = seed;
    move |n| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n.max(1)
    }
}

/// A small deterministic soak: random mutations between pages and between
/// the requests of one page (every source, equal names included), 410s with
/// and without a token, failed requests, answers delivered twice, random
/// resumes with a new page size, both sort orders. Whatever happens, pages
/// never repeat an item, stay sorted but for the items they report late, and
/// show every item present (and matching) for the whole run.
#[test]
fn random_mutations_never_repeat_skip_or_disorder() {
    const ROUNDS: u64 = 160;
    const SEED: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = xorshift(SEED);
    let (mut rescans, mut resumes, mut expiries, mut stale) = (0, 0, 0, 0);
    for round in 0..ROUNDS {
        let names_a: Vec<String> = (0..40).map(|i| format!("pkg-{:03}", i * 2)).collect();
        let names_b: Vec<String> = (0..25).map(|i| format!("pkg-{:03}", i * 3)).collect();
        let names_c: Vec<String> = (0..10).map(|i| format!("pkg-{:03}u", i * 7)).collect();
        let mut pa: Vec<(&str, &str)> = names_a.iter().map(|s| (s.as_str(), "a")).collect();
        // Equal names within the kubeapps source (other repositories).
        pa.extend(names_a.iter().step_by(5).map(|s| (s.as_str(), "z")));
        pa.extend(names_a.iter().step_by(7).map(|s| (s.as_str(), "m")));
        let pb: Vec<(&str, &str)> = names_b.iter().map(|s| (s.as_str(), "b")).collect();
        let pc: Vec<(&str, &str)> = names_c.iter().map(|s| (s.as_str(), "c")).collect();
        let page_size = 1 + next(6) as u32;
        let chunk_limit = 1 + next(5) as u32;
        let mut fakes = vec![
            Fake::new(Kind::Offset, "helm.packages", "kubeapps", &pa),
            Fake::new(Kind::K8s, "fluxv2.packages", "kubeapps", &pb),
        ];
        if round % 2 == 1 {
            fakes.push(Fake::new(
                Kind::Unordered,
                "kapp_controller.packages",
                "kubeapps",
                &pc,
            ));
        }
        let mut env = Env::new(fakes, page_size, chunk_limit);
        if round % 3 == 0 {
            env.options.filter.query = "1".into();
        }
        if round % 4 == 1 {
            env.options.sort = SortOrder::DisplayName;
        }
        let sort = env.options.sort;
        let filter = env.options.filter.compile();
        let id = |i: &ItemFields| (i.plugin.clone(), i.identifier.clone());
        let mut deleted: HashSet<(String, String)> = HashSet::new();
        let initial: Vec<ItemFields> = env
            .fakes
            .iter()
            .flat_map(|f| f.items.iter().cloned())
            .collect();
        let mut p = env.pager();
        let mut shown: Vec<ItemFields> = Vec::new();
        let mut max_key: Option<SortKey> = None;
        'pages: for _ in 0..500 {
            let mut late = Vec::new();
            for _ in 0..10_000 {
                if p.page_ready() {
                    let page = p.take_page().expect("encodes").expect("ready");
                    // In order, except the items the page reports late: an item inserted behind
                    // W makes its source read whole, and the items it had not shown come late.
                    let late: u64 = page.stats.sources.iter().map(|s| s.late_items).sum();
                    let mut below = 0;
                    for it in &page.items {
                        let k = sort.key(it);
                        if max_key.as_ref().is_some_and(|m| k <= *m) {
                            below += 1;
                        } else {
                            max_key = Some(k);
                        }
                    }
                    assert!(
                        below <= late,
                        "round {round}: {below} out of order, {late} late"
                    );
                    shown.extend(page.items.iter().cloned());
                    if page.done {
                        break 'pages;
                    }
                    break;
                }
                let reqs = p.next_requests();
                assert!(
                    !reqs.is_empty(),
                    "round {round}: not ready and nothing to ask"
                );
                for r in reqs {
                    if next(5) == 0 {
                        mutate(&mut env, &mut next, &mut deleted);
                    }
                    match env.fakes[r.source_index].serve(&r) {
                        Ok(c) => {
                            if next(6) == 0 {
                                late.push((r.request_id, c.clone()));
                            }
                            p.feed(r.request_id, c).expect("feed");
                        }
                        Err(f) => {
                            p.fail(r.request_id, f).expect("fail");
                        }
                    }
                }
            }
            for (id_, c) in late {
                assert_eq!(
                    p.feed(id_, c),
                    Ok(FeedOutcome::Stale),
                    "round {round}: a repeated answer"
                );
                stale += 1;
            }
            for _ in 0..next(4) {
                mutate(&mut env, &mut next, &mut deleted);
            }
            match next(6) {
                0 => env.fakes[1].expire = Some(next(2) == 0),
                1 => {
                    let w = next(env.fakes.len() as u64) as usize;
                    env.fakes[w].fail_next = Some(503);
                }
                _ => {}
            }
            rescans += p.stats().total().rescans;
            expiries += p.stats().total().expired_recoveries;
            if next(3) == 0 {
                let mut opts = env.options.clone();
                opts.page_size = 1 + next(6) as u32;
                p = Pager::from_state(p.state(), opts).expect("resume");
                resumes += 1;
            }
        }
        let mut once = HashSet::new();
        for it in &shown {
            assert!(once.insert(id(it)), "round {round}: {it:?} shown twice");
        }
        let shown_set: HashSet<(String, String)> = shown.iter().map(id).collect();
        for it in initial {
            if !deleted.contains(&id(&it)) && filter.matches(&it) {
                assert!(
                    shown_set.contains(&id(&it)),
                    "round {round}: {} {} missing",
                    it.plugin,
                    it.identifier
                );
            }
        }
    }
    // The soak is only worth something if drift, expiry, late answers and resumes happened.
    assert!(
        rescans > 10 && resumes > 100 && expiries > 10 && stale > 50,
        "rescans {rescans}, resumes {resumes}, expiries {expiries}, stale {stale}"
    );
}

#[test]
fn sources_given_an_order_none_are_read_whole() {
    let mut f = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &[("pkg-b", "r"), ("pkg-a", "r")],
    );
    f.kind = Kind::Unordered;
    let mut env = Env::new(vec![f], 5, 1);
    env.options.sources[0].order = Some(SourceOrder::None);
    env.options.sources[0].kind = SourceKind::Kubeapps;
    let mut p = env.pager();
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-a", "pkg-b"]);
    assert_eq!(env.requests(), 1);
}

#[test]
fn kubeapps_chunks_re_read_the_last_item_seen() {
    let n: Vec<String> = seq("pkg-", 7);
    let pairs_: Vec<(&str, &str)> = n.iter().map(|s| (s.as_str(), "r")).collect();
    let mut env = Env::new(
        vec![Fake::new(
            Kind::Offset,
            "helm.packages",
            "kubeapps",
            &pairs_,
        )],
        10,
        2,
    );
    let mut p = env.pager();
    let mut sent = Vec::new();
    while !p.page_ready() {
        for r in p.next_requests() {
            sent.push((r.page_token.clone(), r.limit));
            env.answer(&mut p, r);
        }
    }
    // Each continuation starts at the item before the last item's tie group (G - 1: two items
    // re-read, docs/DESIGN.md "Ties"), asking the group, that item and a chunk of new ones.
    let want: Vec<(String, u32)> = [("", 2), ("", 4), ("2", 4), ("4", 4)]
        .iter()
        .map(|(t, l)| (t.to_string(), *l))
        .collect();
    assert_eq!(sent, want);
    let page = p.take_page().expect("encodes").expect("ready");
    assert_eq!(page.items.len(), 7);
    assert!(page.done);
    let t = p.stats().total();
    assert_eq!(
        (t.duplicates_dropped, t.rescans),
        (0, 0),
        "the planned re-read is not a duplicate"
    );
    // 7 items: each continuation re-reads two (the item before the last one's group, the group).
    assert_eq!(t.items_scanned, 2 + 4 + 4 + 3);
}

#[test]
fn equal_names_straddling_chunks_in_backend_order_are_all_shown_in_key_order() {
    // The backend orders equal names its own way (r2, r3, r1), not by key.
    let mut f = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]);
    for (name, repo) in [
        ("a", "r"),
        ("x", "r2"),
        ("x", "r3"),
        ("x", "r1"),
        ("y", "r"),
    ] {
        f.items.push(item("helm.packages", "kubeapps", name, repo));
    }
    let mut env = Env::new(vec![f], 2, 2);
    let mut p = env.pager();
    let mut shown = Vec::new();
    loop {
        let page = env.page(&mut p);
        shown.extend(page.items.iter().map(|i| i.identifier.clone()));
        if page.done {
            break;
        }
        p = env.resume(&p);
    }
    assert_eq!(shown, ["r/a", "r1/x", "r2/x", "r3/x", "r/y"]);
}

#[test]
fn a_filtered_item_moves_the_watermark_so_a_resume_does_not_rescan() {
    // pkg-c is filtered out right after pkg-b ends the page; pkg-d, read in
    // the same chunk, shows nothing can come between, so pkg-c is consumed:
    // the token points past it, and the resumed overlap check re-reads it as W.
    let mut f = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &[
            ("pkg-a", "r"),
            ("pkg-b", "r"),
            ("pkg-c", "r"),
            ("pkg-d", "r"),
            ("pkg-e", "r"),
        ],
    );
    f.items[2].categories = vec!["Other".into()];
    for i in [0, 1, 3, 4] {
        f.items[i].categories = vec!["Database".into()];
    }
    let mut env = Env::new(vec![f], 2, 4);
    env.options.filter.categories = vec!["Database".into()];
    let mut p = env.pager();
    assert_eq!(names(&env.page(&mut p)), ["pkg-a", "pkg-b"]);
    let st = p.state();
    let wm = st.sources[0].watermark.as_ref().expect("watermark");
    assert_eq!(wm.sort_key, "pkg-c", "consumed, not shown");
    assert_eq!(
        (st.sources[0].chunk_token.as_str(), st.sources[0].offset),
        ("", 3)
    );
    let mut p = env.resume(&p);
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-d", "pkg-e"]);
    assert!(page.done);
    // The item before the position is W itself, whose equal names (a tie-able source orders them
    // any way) could stand before it: one step back proves the start (decision 3, "Ties").
    assert_eq!(p.stats().total().rescans, 1);
}

#[test]
fn the_same_item_from_two_sources_is_shown_once() {
    // Two sources whose items carry the same identity (overlapping sources).
    let a = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &[("pkg-a", "r"), ("pkg-b", "r")],
    );
    let mut b = Fake::new(
        Kind::K8s,
        "helm.packages",
        "team-1",
        &[("pkg-b", "r"), ("pkg-c", "r")],
    );
    for i in &mut b.items {
        i.namespace = "kubeapps".into();
    }
    let mut env = Env::new(vec![a, b], 10, 10);
    let mut p = env.pager();
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-a", "pkg-b", "pkg-c"]);
    assert_eq!(p.stats().total().duplicates_dropped, 1);
}

#[test]
fn a_410_on_a_kubeapps_source_is_a_plain_failure() {
    let mut env = Env::new(
        vec![Fake::new(
            Kind::Offset,
            "helm.packages",
            "kubeapps",
            &[("pkg-a", "r")],
        )],
        2,
        2,
    );
    let mut p = env.pager();
    let r = p.next_requests();
    let gone = Failure {
        status: 410,
        reason: Some("Gone".into()),
        continue_token: Some("x".into()),
    };
    p.fail(r[0].request_id, gone).expect("fail");
    assert_eq!(p.stats().total().expired_recoveries, 0);
    let again = p.next_requests();
    assert_eq!(again[0].page_token, r[0].page_token);
    env.answer(&mut p, again[0].clone());
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["pkg-a"]);
    assert!(!page.inconsistent);
}

#[test]
fn an_oversized_continue_token_is_refused_without_change() {
    let mut env = Env::new(
        vec![Fake::new(
            Kind::K8s,
            "kapp_controller.packages",
            "kubeapps",
            &[],
        )],
        2,
        2,
    );
    let mut p = env.pager();
    let r = p.next_requests();
    let huge = "x".repeat(MAX_TOKEN_LEN + 1);
    let err = p
        .feed(r[0].request_id, chunk(&["pkg-a"], &huge))
        .expect_err("too long");
    assert_eq!(err.code(), "INVALID_RESPONSE");
    let expired = Failure {
        status: 410,
        reason: None,
        continue_token: Some(huge),
    };
    let before = p.state();
    assert_eq!(
        p.fail(r[0].request_id, expired).map_err(|e| e.code()),
        Err("INVALID_RESPONSE")
    );
    assert_eq!(p.state(), before);
    assert_eq!(p.stats().total().requests, 0);
    p.feed(r[0].request_id, chunk(&["pkg-a"], ""))
        .expect("fine");
    assert_eq!(names(&env.page(&mut p)), ["pkg-a"]);
}

#[test]
fn a_position_too_long_for_a_page_token_is_an_error_and_the_page_stays_ready() {
    // Two sources whose continue tokens add up to more than a page token may hold.
    let fakes = vec![
        Fake::new(Kind::K8s, "fluxv2.packages", "kubeapps", &[]),
        Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]),
    ];
    let env = Env::new(fakes, 2, 500);
    let mut p = env.pager();
    // Equal names from two strict sources: both chunks are consumed by a page of two, so
    // the position holds both next tokens. `~` is outside base64, so the codec cannot store these tokens any shorter.
    let long = |c: char| {
        std::iter::repeat(c)
            .take(MAX_TOKEN_LEN / 2)
            .chain(['~'])
            .collect::<String>()
    };
    for (r, (name, token)) in p
        .next_requests()
        .into_iter()
        .zip([("pkg-a", long('~')), ("pkg-a", long('~'))])
    {
        p.feed(r.request_id, chunk(&[name], &token)).expect("feed");
    }
    assert!(p.page_ready());
    let before = p.state();
    let err = p.take_page().expect_err("too long to encode");
    assert_eq!(err.code(), "INVALID_PAGE_TOKEN");
    assert!(p.page_ready(), "the page is still there");
    assert_eq!(p.state(), before);
}

#[test]
fn an_answer_meant_for_another_pager_is_stale() {
    let fake = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &pairs(&["pkg-a"], "repo"),
    );
    let env = Env::new(vec![fake], 2, 2);
    let mut old = env.pager();
    let mut new = env.pager();
    let old_request = old.next_requests().remove(0);
    let _ = new.next_requests();
    let outcome = new
        .feed(old_request.request_id, chunk(&["pkg-a"], ""))
        .expect("no error");
    assert_eq!(outcome, FeedOutcome::Stale);
    assert_eq!(new.stats().sources[0].stale_responses, 1);
}

#[test]
fn a_kubernetes_chunk_without_a_resource_version_takes_the_one_its_continue_token_carries() {
    let fake = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let env = Env::new(vec![fake], 1, 2);
    let mut p = env.pager();
    let next = crate::token::ContinueToken::new(1068, "kubeapps/pkg-b\u{0}")
        .encode()
        .expect("encodes");
    let r = p.next_requests().remove(0);
    p.feed(r.request_id, chunk(&["pkg-a", "pkg-b"], &next))
        .expect("feed");
    p.take_page().expect("encodes").expect("ready");
    assert_eq!(p.state().sources[0].resource_version, "1068");
}

#[test]
fn a_kubernetes_list_whose_snapshot_changes_under_a_continue_token_is_inconsistent() {
    // No 410, but the continuation comes from another resourceVersion (a server or proxy that
    // did not keep the snapshot): the pages are no longer one point in time, and say so.
    let fake = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let env = Env::new(vec![fake], 2, 2);
    let at = |rv: &str, names: &[&str], next: &str| Chunk {
        resource_version: Some(rv.into()),
        ..chunk(names, next)
    };
    for (second_rv, inconsistent) in [("100", false), ("205", true)] {
        let mut p = env.pager();
        let r = p.next_requests().remove(0);
        assert_eq!(r.page_token, "");
        p.feed(r.request_id, at("100", &["pkg-a", "pkg-b"], "t1"))
            .expect("feed");
        assert!(!p.take_page().expect("encodes").expect("ready").inconsistent);
        let r = p.next_requests().remove(0);
        assert_eq!(r.page_token, "t1");
        p.feed(r.request_id, at(second_rv, &["pkg-c", "pkg-d"], ""))
            .expect("feed");
        let page = p.take_page().expect("encodes").expect("ready");
        assert_eq!(names(&page), ["pkg-c", "pkg-d"]);
        assert_eq!(page.inconsistent, inconsistent, "rv 100 then {second_rv}");
        assert_eq!(p.state().sources[0].inconsistent, inconsistent);
    }
}

#[test]
fn a_continue_token_in_another_spelling_gives_no_resource_version_and_no_false_inconsistency() {
    // The fallback reads only the apiserver's own spelling of a token: the same token with its
    // keys in another order (which the apiserver would also take) gives no resourceVersion.
    let fake = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let env = Env::new(vec![fake], 2, 2);
    let respelled = |rv: i64, start: &str| {
        let json = format!(r#"{{"rv":{rv},"v":"meta.k8s.io/v1","start":"{start}"}}"#);
        let token = crate::token::base64url::encode(json.as_bytes());
        assert!(crate::token::ContinueToken::decode(&token).is_ok());
        token
    };
    let mut p = env.pager();
    let r = p.next_requests().remove(0);
    p.feed(
        r.request_id,
        chunk(&["pkg-a", "pkg-b"], &respelled(100, "kubeapps/pkg-b")),
    )
    .expect("feed");
    p.take_page().expect("encodes").expect("ready");
    assert_eq!(p.state().sources[0].resource_version, "");
    let r = p.next_requests().remove(0);
    p.feed(
        r.request_id,
        chunk(&["pkg-c", "pkg-d"], &respelled(205, "kubeapps/pkg-d")),
    )
    .expect("feed");
    let page = p.take_page().expect("encodes").expect("ready");
    assert_eq!(names(&page), ["pkg-c", "pkg-d"]);
    assert!(!page.inconsistent, "no resourceVersion was ever known");
}

#[test]
fn f1_tie_order_changing_between_requests_loses_no_item() {
    // The adversary's trace: [a, x, x, x, z], chunk limit 2, the three x's in another order for
    // every (offset, limit) asked. Every item must be shown exactly once.
    let mut f = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &[
            ("a", "bitnami"),
            ("x", "r1"),
            ("x", "r2"),
            ("x", "r3"),
            ("z", "bitnami"),
        ],
    );
    f.pg_ties = true;
    let mut env = Env::new(vec![f], 10, 2);
    let mut p = env.pager();
    let page = env.page(&mut p);
    let mut shown: Vec<String> = page.items.iter().map(|i| i.identifier.clone()).collect();
    shown.sort();
    assert_eq!(shown, ["bitnami/a", "bitnami/z", "r1/x", "r2/x", "r3/x"]);
    assert!(page.done);
}

/// The issue's PostgreSQL scenario (issue 11, "Ties lose packages silently"): tie groups across
/// chunk boundaries, equal names in another order for every LIMIT/OFFSET, items ahead of the
/// position deleted between pages and before resumes. Every item present throughout is shown
/// exactly once. With the re-read from the overlap item (`N - 1`, accepted when that item came
/// back first) this lost items in most rounds: a tie group that shifted by one still began with
/// the overlap item in another order.
#[test]
fn ties_in_another_order_per_limit_and_offset_with_deletions_ahead_lose_nothing() {
    let mut next = xorshift(0x5EED_0011);
    let mut deletions = 0;
    for round in 0..400u64 {
        let mut f = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]);
        // Names shared by 1 to 4 repositories (bitnami's `common` is in two repositories).
        for g in 0..4 + next(10) {
            for r in 0..1 + next(4) {
                f.insert(item(
                    "helm.packages",
                    "kubeapps",
                    &format!("pkg-{g:02}"),
                    &format!("r{r}"),
                ));
            }
        }
        f.pg_ties = true;
        let page_size = 1 + next(5) as u32;
        let chunk_limit = 1 + next(5) as u32;
        let mut env = Env::new(vec![f], page_size, chunk_limit);
        let mut p = env.pager();
        let mut shown: Vec<String> = Vec::new();
        let mut gone: HashSet<String> = HashSet::new();
        let id = |i: &ItemFields| i.identifier.clone();
        let all: Vec<String> = env.fakes[0].items.iter().map(id).collect();
        for _ in 0..200 {
            let page = env.page(&mut p);
            shown.extend(page.items.iter().map(id));
            if page.done {
                break;
            }
            // Delete one or two items already shown (ahead of the position): the list shifts.
            for _ in 0..next(3) {
                let seen: Vec<String> = env.fakes[0]
                    .items
                    .iter()
                    .map(id)
                    .filter(|i| shown.contains(i))
                    .collect();
                if let Some(victim) = seen.get(next(seen.len().max(1) as u64) as usize) {
                    env.fakes[0].items.retain(|i| i.identifier != *victim);
                    gone.insert(victim.clone());
                    deletions += 1;
                }
            }
            if next(3) == 0 {
                p = env.resume(&p);
            }
        }
        let mut seen = HashSet::new();
        for i in &shown {
            assert!(seen.insert(i), "round {round}: {i} shown twice: {shown:?}");
        }
        for i in all.iter().filter(|i| !gone.contains(*i)) {
            assert!(
                seen.contains(i),
                "round {round}: {i} never shown (page {page_size}, chunk {chunk_limit}): {shown:?}"
            );
        }
    }
    assert!(deletions > 100, "the rounds deleted ahead ({deletions})");
}

#[test]
fn tie_groups_shuffled_on_every_request_show_every_item_once() {
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    let (mut regroups, mut resumes) = (0, 0);
    for round in 0..300 {
        // One or two sources over the same names, each with tie groups of 1 to
        // 12 equal names (often more than the chunk limit), shuffled on every request.
        let mut fakes = Vec::new();
        for (s, plugin) in ["helm.packages", "fluxv2.packages"].iter().enumerate() {
            if s == 1 && next(2) == 0 {
                break;
            }
            let mut f = Fake::new(Kind::Offset, plugin, "kubeapps", &[]);
            for g in 0..1 + next(12) {
                for r in 0..next(13) {
                    f.insert(item(
                        plugin,
                        "kubeapps",
                        &format!("pkg-{g:02}"),
                        &format!("r{r:02}"),
                    ));
                }
            }
            f.shuffle_ties = Some(round * 7919 + s as u64 + 1);
            fakes.push(f);
        }
        let id = |i: &ItemFields| format!("{}:{}@{}", i.plugin, i.identifier, i.name);
        let mut want: Vec<String> = fakes.iter().flat_map(|f| f.items.iter().map(id)).collect();
        want.sort();
        let page_size = 1 + next(6) as u32;
        let chunk_limit = 1 + next(5) as u32;
        let mut env = Env::new(fakes, page_size, chunk_limit);
        env.options.max_source_items = 1000;
        let mut p = env.pager();
        let mut shown = Vec::new();
        for _ in 0..1000 {
            let page = env.page(&mut p);
            shown.extend(page.items.iter().map(id));
            if page.done {
                break;
            }
            if next(3) == 0 {
                regroups += p.stats().total().rescans;
                p = env.resume(&p);
                resumes += 1;
            }
        }
        regroups += p.stats().total().rescans;
        let mut got = shown.clone();
        got.sort();
        assert_eq!(
            got, want,
            "round {round}: every item exactly once (page {page_size}, chunk {chunk_limit}); shown {shown:?}"
        );
    }
    assert!(
        regroups > 0 && resumes > 0,
        "the test exercised re-reads ({regroups}) and resumes ({resumes})"
    );
}

#[test]
fn a_tie_group_over_the_cap_is_too_large() {
    let mut f = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]);
    for r in 0..20 {
        f.insert(item("helm.packages", "kubeapps", "x", &format!("r{r:02}")));
    }
    f.shuffle_ties = Some(7);
    let mut env = Env::new(vec![f], 10, 2);
    env.options.max_source_items = 5;
    let mut p = env.pager();
    let mut last = None;
    for _ in 0..20 {
        let reqs = p.next_requests();
        let Some(r) = reqs.into_iter().next() else {
            break;
        };
        let chunk = env.fakes[0].serve(&r).expect("served");
        let before = (p.state(), p.stats().clone());
        match p.feed(r.request_id, chunk) {
            Ok(_) => {}
            Err(e) => {
                assert_eq!((p.state(), p.stats().clone()), before, "state unchanged");
                last = Some(e.code());
                break;
            }
        }
    }
    assert_eq!(last, Some("SOURCE_TOO_LARGE"));
}

/// Equal names straddling an opaque token (no offset to re-read the group from): the source
/// cannot be streamed safely, so it is read whole, once; nothing is lost or repeated.
#[test]
fn equal_names_straddling_an_opaque_token_switch_the_source_to_a_whole_read() {
    let f = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]);
    let mut options = PagerOptions::new(vec![f.spec()]);
    options.page_size = 10;
    options.chunk_limit = 2;
    let mut p: Pager<ItemFields> = Pager::new(options).expect("valid");
    let r = p.next_requests();
    // "abc" is no offset: the source's tokens are opaque from here on.
    p.feed(r[0].request_id, chunk(&["a", "x"], "abc"))
        .expect("first");
    let r = p.next_requests();
    assert_eq!((r[0].page_token.as_str(), r[0].limit), ("abc", 2));
    let mut tied = chunk(&["x", "z"], "");
    tied.items[0].0.identifier = "other/x".into();
    p.feed(r[0].request_id, tied).expect("taken: a switch");
    let r = p.next_requests();
    assert_eq!(
        (r[0].page_token.as_str(), r[0].limit),
        ("", 10_001),
        "one whole read"
    );
    let mut whole = chunk(&["a", "x", "x", "z"], "");
    whole.items[2].0.identifier = "other/x".into();
    whole.items[2].1.identifier = "other/x".into();
    p.feed(r[0].request_id, whole).expect("whole read");
    let page = p.take_page().expect("encodes").expect("ready");
    let ids: Vec<&str> = page.items.iter().map(|i| i.identifier.as_str()).collect();
    assert_eq!(ids, ["repo/a", "other/x", "repo/x", "repo/z"]);
    assert!(page.done && page.reordered);
    assert_eq!(page.stats.sources[0].whole_read_switches, 1);
}

/// A Kubernetes continuation that goes back before the last key read (a server that does not
/// sort by name) switches the source to a whole read (following its continue tokens from the
/// start): every item once, the items never shown yet sorting before W shown late.
#[test]
fn f_k8s_backwards_chunk_switches_the_source_to_a_whole_read() {
    let f = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let mut options = PagerOptions::new(vec![f.spec()]);
    options.page_size = 2;
    options.chunk_limit = 3;
    let mut p: Pager<ItemFields> = Pager::new(options).expect("valid");
    let r = p.next_requests();
    let mut first = chunk(&["delta", "echo", "foxtrot"], "CHUNK2");
    first.resource_version = Some("100".into());
    p.feed(r[0].request_id, first).expect("first chunk");
    let page = p.take_page().expect("encodes").expect("ready");
    assert_eq!(names(&page), ["delta", "echo"]);
    let r = p.next_requests();
    assert_eq!(r[0].page_token, "CHUNK2");
    p.feed(r[0].request_id, chunk(&["alpha", "golf"], ""))
        .expect("a chunk going backwards: a switch");
    let r = p.next_requests();
    assert_eq!(
        (r[0].page_token.as_str(), r[0].limit),
        ("", 3),
        "from the start"
    );
    p.feed(r[0].request_id, chunk(&["delta", "echo", "foxtrot"], "W2"))
        .expect("whole read, part 1");
    let r = p.next_requests();
    p.feed(r[0].request_id, chunk(&["alpha", "golf"], ""))
        .expect("whole read, part 2");
    let page = p.take_page().expect("encodes").expect("ready");
    // foxtrot went into this page before the switch (a strict source's last key may go);
    // alpha was never shown and sorts before W (foxtrot): shown late, where it comes.
    assert_eq!(names(&page), ["foxtrot", "alpha"]);
    assert!(page.reordered);
    assert_eq!(page.stats.sources[0].late_items, 1);
    let page = p.take_page().expect("encodes").expect("ready");
    assert_eq!(names(&page), ["golf"]);
    assert!(page.done);
}

#[test]
fn a_relist_after_a_410_is_a_new_list_even_through_empty_chunks() {
    // Under a label selector a chunk may come back empty with a continue token;
    // after a relist the next items may sort before the last key of the old list.
    let f = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]);
    let mut options = PagerOptions::new(vec![f.spec()]);
    options.page_size = 10;
    options.chunk_limit = 2;
    let mut p: Pager<ItemFields> = Pager::new(options).expect("valid");
    let r = p.next_requests();
    p.feed(r[0].request_id, chunk(&["m", "n"], "T1"))
        .expect("first");
    let r = p.next_requests();
    let gone = Failure {
        status: 410,
        reason: Some("Expired".into()),
        continue_token: None,
    };
    p.fail(r[0].request_id, gone).expect("410");
    let r = p.next_requests();
    assert_eq!(r[0].page_token, "", "relist");
    p.feed(r[0].request_id, chunk(&[], "T2"))
        .expect("empty chunk");
    let r = p.next_requests();
    p.feed(r[0].request_id, chunk(&["a", "o"], ""))
        .expect("a new list's continuation");
    let page = p.take_page().expect("encodes").expect("ready");
    // "a" sorts before what was shown (W = "n"): behind the position, not shown.
    assert_eq!(names(&page), ["m", "n", "o"]);
    assert!(page.inconsistent);
}

/// Kubeapps servers that answer the overlap re-read (from `N - 1`, `limit + 1`) with the overlap
/// item alone: a server-side cap of one item per answer, or a server that gives a next token on
/// every non-empty answer so that only an empty answer ends the list. Both are legitimate; the
/// pager must neither stop with `NO_PROGRESS` nor loop on the same request.
#[test]
fn an_overlap_re_read_answered_with_the_overlap_item_alone_goes_on() {
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let mut resumes = 0;
    for round in 0..400u64 {
        let lazy_end = round % 2 == 0;
        let cap = match round % 4 {
            0 | 1 => Some(1),
            2 => None,
            _ => Some(1 + next(3) as usize),
        };
        let mut f = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]);
        let groups = next(6);
        for g in 0..groups {
            // Tie groups of 1 to 3 equal names (shuffled on every request in a third of the
            // rounds) where answers are not capped: a group is re-read in one answer, which a
            // server capped below the group's size cannot give (that is `SOURCE_TOO_LARGE`).
            let size = if cap.is_some() { 1 } else { 1 + next(3) };
            for r in 0..size {
                f.insert(item(
                    "helm.packages",
                    "kubeapps",
                    &format!("pkg-{g:02}"),
                    &format!("r{r}"),
                ));
            }
        }
        if round % 3 == 0 && cap.is_none() {
            f.shuffle_ties = Some(round + 1);
        }
        f.cap = cap;
        f.lazy_end = lazy_end;
        let id = |i: &ItemFields| format!("{}@{}", i.identifier, i.name);
        let want: Vec<String> = f.items.iter().map(id).collect();
        let page_size = 1 + next(4) as u32;
        let chunk_limit = 1 + next(3) as u32;
        let mut env = Env::new(vec![f], page_size, chunk_limit);
        let mut p = env.pager();
        let mut shown = Vec::new();
        let mut done = false;
        for _ in 0..200 {
            let page = env.page(&mut p);
            shown.extend(page.items.iter().map(id));
            if page.done {
                done = true;
                break;
            }
            if next(3) == 0 {
                p = env.resume(&p);
                resumes += 1;
            }
        }
        assert!(done, "round {round}: the list ends");
        let mut got = shown.clone();
        got.sort();
        let mut want = want;
        want.sort();
        assert_eq!(
            got, want,
            "round {round}: every item once (cap {cap:?}, lazy end {lazy_end}, page {page_size}, chunk {chunk_limit}); shown {shown:?}"
        );
    }
    assert!(resumes > 0);
}

/// The plainest case of the above: two items, a chunk of two, a server that ends a list only
/// with an empty answer. The re-read of `pkg-b` from offset 1 comes back as `[pkg-b]` with the
/// token `"2"` it gave before: not a repeat, the list goes on at 2 (and ends there).
#[test]
fn a_list_that_ends_at_the_overlap_item_ends_cleanly() {
    let mut f = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &pairs(&["pkg-a", "pkg-b"], "r"),
    );
    f.lazy_end = true;
    let mut env = Env::new(vec![f], 10, 2);
    let mut p = env.pager();
    let mut sent = Vec::new();
    while !p.page_ready() {
        for r in p.next_requests() {
            sent.push((r.page_token.clone(), r.limit));
            env.answer(&mut p, r);
        }
    }
    let page = p.take_page().expect("encodes").expect("ready");
    assert_eq!(names(&page), ["pkg-a", "pkg-b"]);
    assert!(page.done);
    let sent: Vec<(&str, u32)> = sent.iter().map(|(t, l)| (t.as_str(), *l)).collect();
    // The re-read from before pkg-b's tie group comes back short with a next token (the group
    // as known, whole): the list goes on from the position itself.
    assert_eq!(sent, [("", 2), ("", 4), ("2", 2)]);
    assert_eq!(p.stats().total().duplicates_dropped, 0);
}

/// An item whose key a page token cannot hold (here a 6 KB name) would make every later position
/// fail to encode: the list could not go on. The chunk is refused where it enters, naming the
/// item and the limit, and nothing changes; a key at the limit is fine.
#[test]
fn an_item_whose_key_cannot_fit_a_page_token_is_refused_where_it_enters() {
    let fakes = vec![
        Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]),
        Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &[]),
        Fake::new(Kind::Offset, "fluxv2.packages", "kubeapps", &[]),
    ];
    let env = Env::new(fakes, 10, 10);
    let max = env.options.max_key_bytes();
    // Half a page token, whatever the number of sources (they share the rest by what they take).
    assert_eq!(max, 3072 - 16);
    let mut p = env.pager();
    let reqs = p.next_requests();
    let before = p.state();
    // identifier "repo/<name>": the key is the name twice plus 5 bytes.
    let long = "x".repeat(6 * 1024);
    let err = p
        .feed(reqs[0].request_id, chunk(&["pkg-a", &long], ""))
        .expect_err("too long");
    assert_eq!(err.code(), "INVALID_RESPONSE");
    let message = err.message();
    assert!(
        message.contains("helm.packages/default/kubeapps"),
        "{message}"
    );
    assert!(message.contains("item 1's key"), "{message}");
    assert!(
        message.contains(&format!("at most {max} bytes")),
        "{message}"
    );
    assert_eq!(p.state(), before);
    assert_eq!(p.stats().total().requests, 0);
    // At the limit: accepted, and a position holding it encodes.
    let at = "y".repeat((max - 5) / 2);
    let wide = "z".repeat((max - 5) / 2 + 1);
    assert!(p
        .feed(reqs[0].request_id, chunk(&["pkg-a", &wide], ""))
        .is_err());
    for (k, r) in reqs.iter().enumerate() {
        let name = if k == 0 { at.as_str() } else { "pkg-b" };
        p.feed(r.request_id, chunk(&["pkg-a", name], ""))
            .expect("at the limit");
    }
    assert!(p.page_ready());
    let page = p
        .take_page()
        .expect("a position with one key at the limit encodes")
        .expect("ready");
    assert_eq!(page.items.len(), 6);
    assert!(page.done);

    // Three keys at the limit together are more than a page token holds: only then an error,
    // which says what takes the room; the page stays ready.
    let mut p = env.pager();
    for r in p.next_requests() {
        let mut c = chunk(&["pkg-a", &at], "");
        // An identifier that shares nothing with the name: nothing in the token can share it.
        c.items[1].0.identifier = "i".repeat(at.len() + 5);
        p.feed(r.request_id, c).expect("each key fits alone");
    }
    let err = p.take_page().expect_err("the position does not fit");
    assert_eq!(err.code(), "INVALID_PAGE_TOKEN");
    assert_eq!(err.details()["reason"], "too-long");
    let message = err.message();
    assert!(
        message.contains("keys and tokens together are too long"),
        "{message}"
    );
    assert!(p.page_ready(), "the page stays ready");
}

/// Kubeapps' usual layout: three plugins in the global and in the user's namespace, six sources,
/// with names of the Kubernetes maximum (253 bytes) and identifiers as long. Every position fits a
/// page token (the room is shared by what keys take, not reserved per source).
#[test]
fn six_sources_with_253_byte_names_and_identifiers_page_to_the_end() {
    let mut fakes = Vec::new();
    for ns in ["kubeapps", "team-1"] {
        for (plugin, kind) in [
            ("helm.packages", Kind::Offset),
            ("kapp_controller.packages", Kind::K8s),
            ("fluxv2.packages", Kind::Unordered),
        ] {
            let mut f = Fake::new(kind, plugin, ns, &[]);
            for k in 0..5 {
                let name = format!("{k}{}", "n".repeat(252));
                let mut it = item(plugin, ns, &name, "r");
                it.identifier = format!("{k}{}", "i".repeat(252));
                f.insert(it);
            }
            fakes.push(f);
        }
    }
    let mut env = Env::new(fakes, 4, 2);
    let mut p = env.pager();
    let mut shown = 0;
    for _ in 0..100 {
        let page = env.page(&mut p);
        shown += page.items.len();
        assert!(page.next_page_token.len() <= MAX_TOKEN_LEN);
        p = env.resume(&p);
        if page.done {
            break;
        }
    }
    assert_eq!(shown, 30);
}

/// A server that caps its answers below the size of a group of equal names can never give the
/// group in one answer, which a tie-able source needs (docs/DESIGN.md "Ties"): a typed error after
/// a few requests, never a loop of re-reads ending in `NO_PROGRESS` hundreds of requests later.
#[test]
fn a_tie_group_a_capped_server_gives_in_pieces_is_refused_at_once() {
    for (cap, shuffle, lazy_end) in [
        (1, false, false),
        (1, true, false),
        (2, true, true),
        (1, false, true),
        (2, false, false),
    ] {
        let mut f = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]);
        for g in 0..4 {
            for r in 0..3 {
                f.insert(item(
                    "helm.packages",
                    "kubeapps",
                    &format!("pkg-{g}"),
                    &format!("r{r}"),
                ));
            }
        }
        f.cap = Some(cap);
        f.lazy_end = lazy_end;
        f.shuffle_ties = shuffle.then_some(7);
        let mut env = Env::new(vec![f], 5, 2);
        let mut p = env.pager();
        let mut err = None;
        for _ in 0..100 {
            assert!(!p.page_ready(), "no page: the first group cannot be read");
            for r in p.next_requests() {
                let c = env.fakes[r.source_index].serve(&r).expect("served");
                if let Err(e) = p.feed(r.request_id, c) {
                    err = Some(e);
                }
            }
            if err.is_some() {
                break;
            }
        }
        let err = err.expect("an error");
        assert_eq!(err.code(), "INVALID_RESPONSE", "cap {cap}: {err}");
        assert!(err.message().contains("in pieces"), "{err}");
        assert!(
            env.requests() <= 10,
            "cap {cap}: {} requests",
            env.requests()
        );
    }
}

/// `Cursor::blocks` compares a candidate's whole key with a bound (a whole primary) instead of
/// scanning for its primary: starts-with means equal primaries, otherwise the bytes order them.
#[test]
fn a_key_orders_against_a_bound_as_its_primary_does() {
    let names = [
        "",
        "a",
        "a\u{0}",
        "a\u{0}b",
        "a\u{0}\u{0}",
        "ab",
        "abcdefgh",
        "b",
        "é",
        "\u{0}",
        "\u{0}\u{0}",
        "\u{ff}",
    ];
    let mut keys = Vec::new();
    for order in [SortOrder::Name, SortOrder::DisplayName] {
        for name in names {
            for plugin in ["", "p", "p\u{0}"] {
                keys.push(order.key(&item(plugin, "", name, "r")));
            }
        }
    }
    for a in &keys {
        for b in &keys {
            let bound = b.primary();
            let by_bytes = if a.0.starts_with(bound) {
                core::cmp::Ordering::Equal
            } else {
                a.0.as_slice().cmp(bound)
            };
            assert_eq!(a.primary().cmp(bound), by_bytes, "{a:?} vs {bound:?}");
        }
    }
}

/// Pages every item of `env` to the end (resuming after some pages when `resume_every` is set)
/// and checks: each identity once, and the page order sorted except the items the pages counted
/// late (dropping, for each page, as many items that sort below the running maximum as the page
/// says came late leaves a strictly increasing sequence; none more, none fewer).
fn page_all(env: &mut Env, resume_every: Option<usize>) -> (Vec<String>, u64) {
    let mut p = env.pager();
    let mut shown: Vec<String> = Vec::new();
    let mut late_total = 0;
    let mut max: Option<SortKey> = None;
    for k in 0..10_000 {
        let page = env.page(&mut p);
        let late: u64 = page.stats.sources.iter().map(|s| s.late_items).sum();
        let mut below = 0;
        for it in &page.items {
            let key = SortOrder::Name.key(it);
            if max.as_ref().is_some_and(|m| key < *m) {
                below += 1;
            } else {
                max = Some(key);
            }
            shown.push(it.identifier.clone());
        }
        assert_eq!(
            below, late,
            "page {k}: items out of order and items counted late"
        );
        if late > 0 {
            assert!(page.reordered, "page {k} has late items: reordered");
        }
        late_total += late;
        if page.done {
            let mut seen = HashSet::new();
            for i in &shown {
                assert!(seen.insert(i.clone()), "{i} shown twice");
            }
            return (shown, late_total);
        }
        if resume_every.is_some_and(|n| k % n == n - 1) {
            p = env.resume(&p);
        }
    }
    panic!("never done");
}

/// The real Bitnami names sorted as glibc's en_US collation does (PostgreSQL under a common
/// default locale): `kubeapps` before `kube-prometheus`. A zero-config source (`kind` from its
/// plugin: offsets) is found out of order, read whole once, and pages to the end with nothing
/// lost or repeated; the items it had not shown yet below W come late, counted.
#[test]
fn a_source_in_another_collation_is_read_whole_once_and_loses_nothing() {
    let names = [
        "kafka",
        "keycloak",
        "kiam",
        "kibana",
        "kong",
        "kube-prometheus",
        "kube-state-metrics",
        "kubeapps",
        "kubernetes-event-exporter",
        "kubeval",
        "logstash",
        "memcached",
        "metallb",
        "minio",
        "mongodb",
        "mysql",
        "nginx",
        "nginx-ingress-controller",
        "node",
        "redis",
    ];
    for (page_size, chunk_limit, resume) in [
        (3, 2, None),
        (5, 4, Some(1)),
        (20, 20, None),
        (2, 3, Some(2)),
    ] {
        let mut f = Fake::new(
            Kind::Offset,
            "helm.packages",
            "kubeapps",
            &pairs(&names, "bitnami"),
        );
        f.collate = true;
        let mut env = Env::new(vec![f], page_size, chunk_limit);
        env.options.sources[0] = SourceSpec::new(env.options.sources[0].id.clone());
        let (shown, late) = page_all(&mut env, resume);
        assert_eq!(
            shown.len(),
            names.len(),
            "page {page_size}, chunk {chunk_limit}"
        );
        let _ = late;
        // One whole read per list (a resume reads the switched source whole again).
        let whole = env.fakes[0].requests;
        assert!(whole <= 40, "{whole} requests");
    }
}

/// A source declared `kubernetes` whose tokens are decimal offsets (kapp_controller through
/// kubeapps-apis): a deletion ahead of the position between pages must not lose `cert-manager`.
#[test]
fn a_kubernetes_declaration_over_decimal_offsets_is_not_trusted() {
    let names = [
        "airflow",
        "apache",
        "argo-cd",
        "cassandra",
        "cert-manager",
        "consul",
        "contour",
    ];
    let mut f = Fake::new(
        Kind::Offset,
        "kapp_controller.packages",
        "kubeapps",
        &pairs(&names, "r"),
    );
    f.refuse_past_end = true;
    let mut env = Env::new(vec![f], 2, 2);
    env.options.sources[0].kind = SourceKind::Kubernetes;
    let mut p = env.pager();
    let mut shown = Vec::new();
    let page = env.page(&mut p);
    shown.extend(names_of(&page));
    env.fakes[0].delete("airflow");
    loop {
        let page = env.page(&mut p);
        shown.extend(names_of(&page));
        if page.done {
            break;
        }
    }
    assert_eq!(shown, names);
}

fn names_of(page: &Page<ItemFields>) -> Vec<String> {
    page.items.iter().map(|i| i.name.clone()).collect()
}

/// kapp_controller answers 400 InvalidArgument for an offset past the end of its list. When the
/// list shrinks under the position, or a saved token is reopened after it shrank, the position is
/// re-read from an earlier one and the list goes on; the stale offset is not asked forever.
#[test]
fn an_offset_refused_past_the_end_of_a_shrunken_list_is_re_read_from_earlier() {
    // (resume from the last page's token, items, items deleted from the start once 40 are shown)
    for (resume, total, deleted) in [(false, 90, 40), (true, 60, 30)] {
        let names: Vec<String> = seq("pkg-", total);
        let refs: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "r")).collect();
        let mut f = Fake::new(Kind::Offset, "kapp_controller.packages", "kubeapps", &refs);
        f.refuse_past_end = true;
        let mut env = Env::new(vec![f], 20, 20);
        let mut p = env.pager();
        let mut shown = names_of(&env.page(&mut p));
        shown.extend(names_of(&env.page(&mut p)));
        // Items shown so far are deleted: the position (58, before the group of the last item
        // read, a chunk being read ahead; 39 for the token) is now past the end.
        for n in &names[..deleted] {
            env.fakes[0].delete(n);
        }
        if resume {
            p = env.resume(&p);
        }
        let before = env.requests();
        loop {
            let page = env.page(&mut p);
            shown.extend(names_of(&page));
            if page.done {
                break;
            }
        }
        let want: Vec<String> = names[..40].iter().chain(&names[40..]).cloned().collect();
        assert_eq!(shown, want, "resume {resume}");
        assert!(
            env.requests() - before <= 12,
            "{} requests",
            env.requests() - before
        );
        assert!(
            env.fakes[0].refused > 0,
            "the position was refused (resume {resume})"
        );
    }
}

/// An inclusive continue cursor (each chunk starts with the previous chunk's last item) is no
/// error: the repeat is dropped by identity.
#[test]
fn an_inclusive_continue_cursor_repeats_are_dropped() {
    let names: Vec<String> = seq("pkg-", 9);
    let refs: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "r")).collect();
    let mut f = Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &refs);
    f.inclusive = true;
    let mut env = Env::new(vec![f], 4, 3);
    let (shown, late) = page_all(&mut env, None);
    assert_eq!(shown.len(), 9);
    assert_eq!(late, 0);
}

/// A plugin that ends its list by echoing the token it was sent: its items are shown, then the
/// list ends, once (no `NO_PROGRESS`, no request after it).
#[test]
fn an_end_signalled_by_echoing_the_token_ends_the_list_once() {
    for kind in [Kind::Offset, Kind::K8s] {
        let names: Vec<String> = seq("pkg-", 7);
        let refs: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "r")).collect();
        let mut f = Fake::new(kind, "helm.packages", "kubeapps", &refs);
        f.echo_end = true;
        let mut env = Env::new(vec![f], 3, 3);
        let (shown, _) = page_all(&mut env, None);
        assert_eq!(shown.len(), 7, "{kind:?}");
    }
}

/// A resumed token whose offset is negative, signed or overflows a plugin's 64-bit integer is
/// `INVALID_PAGE_TOKEN`, not forwarded to the plugin.
#[test]
fn a_negative_or_overflowing_offset_in_a_token_is_refused() {
    let env = Env::new(
        vec![Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[])],
        2,
        2,
    );
    let mut st = env.pager().state();
    for (token, offset, bad) in [
        ("-20", 0, true),
        ("+20", 0, true),
        ("99999999999999999999", 0, true),
        ("9223372036854775807", 1, true),
        ("9223372036854775806", 1, false),
        ("20", 3, false),
        ("eyJvcGFxdWUiOjF9", 3, false),
    ] {
        st.sources[0].chunk_token = token.into();
        st.sources[0].offset = offset;
        let got = Pager::<ItemFields>::from_state(st.clone(), env.options.clone());
        match (got, bad) {
            (Err(e), true) => assert_eq!(e.code(), "INVALID_PAGE_TOKEN", "{token}"),
            (Ok(_), false) => {}
            (Err(e), false) => panic!("{token}+{offset}: {e}"),
            (Ok(_), true) => panic!("{token}+{offset} accepted"),
        }
    }
}

/// A page token taken while late items are still to show (more of them than a page holds)
/// resumes them: each shown once, none lost.
#[test]
fn late_items_still_to_show_survive_a_resume() {
    // In byte order every `b…` item precedes the `c…` ones; this source gives them the other way
    // round after its first chunk: `a1 a2 c1 c2 | b1 … b6`.
    let mut names: Vec<String> = vec!["a1".into(), "a2".into(), "c1".into(), "c2".into()];
    names.extend((1..=6).map(|i| format!("b{i}")));
    let mut f = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]);
    for n in &names {
        f.items.push(item("helm.packages", "kubeapps", n, "r"));
    }
    let mut env = Env::new(vec![f], 2, 4);
    let mut p = env.pager();
    let mut shown = names_of(&env.page(&mut p)); // a1 a2
                                                 // c1, then the next chunk goes back: a switch; b1 comes late on this page.
    let page = env.page(&mut p);
    assert_eq!(names_of(&page), ["c1", "b1"]);
    let mut late = page.stats.sources[0].late_items;
    shown.extend(names_of(&page));
    for _ in 0..10 {
        p = env.resume(&p);
        let page = env.page(&mut p);
        late += page.stats.sources[0].late_items;
        shown.extend(names_of(&page));
        if page.done {
            break;
        }
    }
    let mut want = names.clone();
    want.sort();
    let mut got = shown.clone();
    got.sort();
    assert_eq!(got, want, "{shown:?}");
    assert_eq!(late, 6);
}
mod partial;
mod predicate;
mod prefetch;

/// A resumed `kubeapps` source in another order (en_US-like) awaits its last item read (`C2`, the
/// token's anchor) while the merge moves past its token's W (`B`), then loses every item it read
/// since the resume (`A2`, `C1`, `C1a`) and gains `a0`, first in its own order and above the
/// watermark it resumed with (`A2`) in the merge's. Its whole read finds none of the items read
/// since; the anchor still proves that `A1`, before it and at or below that watermark, was
/// consumed: it must not come again as late (the first item above `A2`, `a0`, is no cut).
#[test]
fn an_insert_ahead_of_consumed_items_does_not_show_them_again() {
    let (mut env, p, mut shown) = en_us_source_three_pages_in(&["A1", "A2", "C1", "C2", "C3"]);
    assert_eq!(
        p.state().sources[0].anchors.len(),
        1,
        "C2 read, not consumed"
    );
    // `C1a C1b` inserted between the position and the anchor: the first answer after the resume
    // does not reach `C2`, and W moves past `B` on it.
    let mut p = churn_behind_the_anchor(&mut env, &p, &mut shown);
    loop {
        let page = env.page(&mut p);
        shown.extend(page.items.iter().map(|i| i.name.clone()));
        if page.done {
            break;
        }
    }
    assert_each_shown_once(
        &shown,
        &["A1", "A2", "B", "C1", "C1b", "C2", "C3", "D", "a0"],
    );
}

/// A resumed `kubeapps` source in another order (en_US-like) is set aside (501) right after the
/// resume and retried once the merge has moved on without it; meanwhile its watermark (`A2`) is
/// deleted and `a0` inserted, first in its order and above `A2` in bytes. Its answer switches it to
/// a whole read. Its page token's anchor (`C2`, read before the token, not consumed) still counts:
/// the source is deduped against its own watermark while behind, not W, and that floor is not
/// above the one the token was taken with. So the cut falls after `C2`, not before `a0`, and a
/// page token taken while its late items (`-z`, `-zz`: never read, after `C2` in its order, below
/// `A2` in bytes) are still to show holds that cut: resumed, `A1` does not come again.
#[test]
fn a_retried_source_keeps_its_resumed_anchor_through_its_late_phase() {
    let mut f = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &pairs(&["A1", "A2", "C1", "C2", "-z", "-zz"], "r"),
    );
    f.collate = true;
    let g = Fake::new(
        Kind::K8s,
        "helm.packages",
        "other",
        &pairs(&["B", "D", "E", "F"], "r"),
    );
    let mut env = Env::new(vec![f, g], 1, 2);
    let mut p = env.pager();
    let mut shown: Vec<String> = Vec::new();
    for _ in 0..3 {
        shown.extend(env.page(&mut p).items.iter().map(|i| i.name.clone()));
    }
    assert_eq!(shown, ["A1", "A2", "B"]);
    assert_eq!(
        p.state().sources[0].anchors.len(),
        1,
        "C2 read, not consumed"
    );
    let mut p = env.resume(&p);
    env.fakes[0].down = Some(501);
    shown.extend(env.page(&mut p).items.iter().map(|i| i.name.clone()));
    assert_eq!(shown, ["A1", "A2", "B", "D"]);
    assert_eq!(p.unreachable().len(), 1);
    env.fakes[0].down = None;
    env.fakes[0].delete("A2");
    env.fakes[0].insert(item("helm.packages", "kubeapps", "a0", "r"));
    p.retry_unreachable(None);
    scroll_resuming_once_at(&mut env, &mut p, &mut shown, "-z");
    assert_each_shown_once(
        &shown,
        &[
            "A1", "A2", "B", "C1", "C2", "-z", "-zz", "D", "E", "F", "a0",
        ],
    );
}

/// As `an_insert_ahead_of_consumed_items_does_not_show_them_again`, with two items never read
/// (`-z`, `-zz`: after `C3` in the source's order, below W in bytes) that come late: a page token
/// taken while `-zz` is still to show must cut after the anchor too (nothing between the first
/// item above `A2` and `C2` comes late), or its resume shows `A1` again.
#[test]
fn an_insert_ahead_of_consumed_items_does_not_show_them_again_after_a_late_resume() {
    let (mut env, p, mut shown) =
        en_us_source_three_pages_in(&["A1", "A2", "C1", "C2", "C3", "-z", "-zz"]);
    let mut p = churn_behind_the_anchor(&mut env, &p, &mut shown);
    scroll_resuming_once_at(&mut env, &mut p, &mut shown, "-z");
    assert_each_shown_once(
        &shown,
        &[
            "A1", "A2", "B", "C1", "C1b", "C2", "C3", "-z", "-zz", "D", "a0",
        ],
    );
}

/// A `kubeapps` source listing `order` as given (another order than the merge's), alone, pages
/// of 1, chunks of 3: two pages taken.
fn two_pages_of(order: &[&str]) -> (Env, Pager<ItemFields>, Vec<String>) {
    let mut f = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]);
    for n in order {
        f.items.push(item("helm.packages", "kubeapps", n, "r"));
    }
    let mut env = Env::new(vec![f], 1, 3);
    let mut p = env.pager();
    let mut shown = Vec::new();
    for _ in 0..2 {
        let page = env.page(&mut p);
        assert!(!page.inconsistent);
        shown.extend(names_of(&page));
    }
    (env, p, shown)
}

/// Pages to the end; the names shown, and the possible repeats counted.
fn scroll_to_the_end(env: &mut Env, p: &mut Pager<ItemFields>, shown: &mut Vec<String>) -> u64 {
    let mut repeats = 0;
    loop {
        let page = env.page(p);
        let counted = page.stats.sources[0].possible_repeats;
        assert!(counted == 0 || page.inconsistent, "a possible repeat, said");
        repeats += counted;
        shown.extend(names_of(&page));
        if page.done {
            assert!(page.inconsistent || repeats == 0);
            return repeats;
        }
    }
}

/// The known limit (docs/DESIGN.md "Order is learned"): two histories, one page token. A source
/// in its own order `b c d a f e` consumed `b c` (`a`, below W in the merge order, never read), or
/// in the order `a c d f e` consumed `a c`: both tokens are the same (count 2, watermark `c`). Once
/// `b c d` are deleted, both lists are `a f e` (not in the merge order), and nothing tells whether
/// `a` was shown. It is shown, late, as a possible repeat (`inconsistent`, `possibleRepeats` 1):
/// in the first history it was never shown (dropped, it would be lost), in the second it comes
/// again.
#[test]
fn two_histories_one_token_show_the_item_as_a_possible_repeat() {
    let (mut never_read, p1, mut shown1) = two_pages_of(&["b", "c", "d", "a", "f", "e"]);
    let (mut consumed, p2, mut shown2) = two_pages_of(&["a", "c", "d", "f", "e"]);
    assert_eq!(shown1, ["b", "c"]);
    assert_eq!(shown2, ["a", "c"]);
    assert_eq!(
        p1.page_token().unwrap(),
        p2.page_token().unwrap(),
        "one token"
    );
    for gone in ["b", "c", "d"] {
        never_read.fakes[0].delete(gone);
        consumed.fakes[0].delete(gone);
    }
    let mut p1 = never_read.resume(&p1);
    let mut p2 = consumed.resume(&p2);
    assert_eq!(scroll_to_the_end(&mut never_read, &mut p1, &mut shown1), 1);
    assert_eq!(scroll_to_the_end(&mut consumed, &mut p2, &mut shown2), 1);
    assert_eq!(shown1, ["b", "c", "a", "e", "f"], "shown, not lost");
    assert_eq!(shown2, ["a", "c", "a", "e", "f"], "shown again, said so");
    assert!(p1.state().sources[0].inconsistent, "in the page token");
}

/// Not the limit: a source in its own order `b c d a e` consumed `b c`; `b c` are deleted before
/// the resume. `a` (below the watermark `c`, never read) now stands after `d`, above the watermark:
/// the items consumed are a prefix of the source's order that the merge took in its own order, so
/// nothing after an item above the watermark was consumed. `a` comes late, and no repeat is
/// possible: the page does not say one.
#[test]
fn an_item_after_one_above_the_watermark_is_late_and_no_possible_repeat() {
    let (mut env, p, mut shown) = two_pages_of(&["b", "c", "d", "a", "e"]);
    assert_eq!(shown, ["b", "c"]);
    env.fakes[0].delete("b");
    env.fakes[0].delete("c");
    let mut p = env.resume(&p);
    let repeats = scroll_to_the_end(&mut env, &mut p, &mut shown);
    assert_eq!(shown, ["b", "c", "a", "d", "e"]);
    assert_eq!(repeats, 0);
    assert!(!p.state().sources[0].inconsistent);
}

/// A page token taken during a late phase holds the cut by identity (its anchor `c2`, the last
/// item before the cut, and its watermark `c1`, the last consumed before the late items). Both
/// deleted before the resume, the count alone is left; the items it would take as consumed (`a1
/// a2`) sort below the last late item shown (`b1`): consumed, or late and shown already, either
/// way not to show. Every late item still comes, none twice, and no repeat is possible.
#[test]
fn every_anchor_of_a_late_phase_gone_shows_each_late_item_once() {
    let mut names: Vec<String> = vec!["a1".into(), "a2".into(), "c1".into(), "c2".into()];
    names.extend((1..=6).map(|i| format!("b{i}")));
    let mut f = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]);
    for n in &names {
        f.items.push(item("helm.packages", "kubeapps", n, "r"));
    }
    let mut env = Env::new(vec![f], 2, 4);
    let mut p = env.pager();
    let mut shown = names_of(&env.page(&mut p));
    let page = env.page(&mut p);
    assert_eq!(names_of(&page), ["c1", "b1"]);
    shown.extend(names_of(&page));
    let st = p.state();
    assert_eq!(st.sources[0].anchors.len(), 1, "c2: {st:?}");
    assert_eq!(
        st.sources[0]
            .watermark
            .as_ref()
            .map(|w| w.sort_key.as_str()),
        Some("c1")
    );
    env.fakes[0].delete("c1");
    env.fakes[0].delete("c2");
    let mut p = env.resume(&p);
    let repeats = scroll_to_the_end(&mut env, &mut p, &mut shown);
    assert_eq!(repeats, 0);
    assert_each_shown_once(
        &shown,
        &["a1", "a2", "c1", "b1", "b2", "b3", "b4", "b5", "b6"],
    );
}

/// A source in the merge order that holds W and has read past it (`c d`) keeps its last item read
/// (`d`) in its page token. Its watermark (`b`) deleted before the resume, the re-read at its
/// position cannot start where it should and the source is read whole: the cut falls after `d`,
/// found again, so `a` (consumed) is not shown again and nothing is a possible repeat.
#[test]
fn the_last_item_read_cuts_a_resumed_whole_read_when_the_watermark_is_gone() {
    let (mut env, p, mut shown) = two_pages_of(&["a", "b", "c", "d", "e", "f"]);
    assert_eq!(shown, ["a", "b"]);
    let st = p.state();
    assert_eq!(st.sources[0].anchors.len(), 1, "d, read past W: {st:?}");
    env.fakes[0].delete("b");
    let mut p = env.resume(&p);
    let repeats = scroll_to_the_end(&mut env, &mut p, &mut shown);
    assert_eq!(shown, ["a", "b", "c", "d", "e", "f"]);
    assert_eq!(repeats, 0);
    assert!(!p.state().sources[0].inconsistent);
}

/// No sources (a dashboard with no packages plugin configured) is an empty list: its first page
/// is empty and done, asks nothing, and its token resumes to the same empty list.
#[test]
fn no_sources_is_an_empty_done_list() {
    let options = PagerOptions::new(Vec::new());
    let mut p: Pager<ItemFields> = Pager::new(options.clone()).expect("no sources is valid");
    assert!(p.next_requests().is_empty(), "nothing to ask");
    assert!(p.page_ready());
    let page = p.take_page().unwrap().expect("a page");
    assert!(page.items.is_empty());
    assert!(page.done);
    assert!(page.unreachable.is_empty());
    let mut resumed: Pager<ItemFields> = Pager::resume(&page.next_page_token, options).unwrap();
    let again = resumed.take_page().unwrap().expect("a page");
    assert!(again.items.is_empty() && again.done);
}

// --- Issue 24: `sort: "displayName"` streams a source in its name order while they agree ---

/// Pages to the end under the options' sort: every item once (by identity), the pages in that
/// order but for the items counted late (each page's `reordered` then), and the stats summed.
fn page_all_sorted(env: &mut Env, resume_every: Option<usize>) -> (Vec<String>, SourceStats) {
    let sort = env.options.sort;
    let mut p = env.pager();
    let mut shown: Vec<String> = Vec::new();
    let mut total = SourceStats::default();
    let mut max: Option<SortKey> = None;
    for k in 0..10_000 {
        let page = env.page(&mut p);
        let late: u64 = page.stats.sources.iter().map(|s| s.late_items).sum();
        let mut below = 0;
        for it in &page.items {
            let key = sort.key(it);
            if max.as_ref().is_some_and(|m| key < *m) {
                below += 1;
            } else {
                max = Some(key);
            }
            shown.push(it.identifier.clone());
        }
        assert_eq!(
            below, late,
            "page {k}: items out of order and items counted late"
        );
        if late > 0 {
            assert!(page.reordered, "page {k} has late items: reordered");
        }
        total.add(&page.stats.total());
        if page.done {
            let mut seen = HashSet::new();
            for i in &shown {
                assert!(seen.insert(i.clone()), "{i} shown twice");
            }
            return (shown, total);
        }
        if resume_every.is_some_and(|n| k % n == n - 1) {
            p = env.resume(&p);
        }
    }
    panic!("never done");
}

/// Under `displayName` a helm source whose display names are its names (lowercase chart names)
/// streams in its own name order: page 1 after one chunk of it (not a whole read), every item
/// once, in display-name order, no switch; beside a kapp_controller source read whole.
#[test]
fn display_names_that_are_the_names_stream() {
    let charts: Vec<String> = (0..30).map(|i| format!("chart-{i:02}")).collect();
    let helm = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &charts
            .iter()
            .map(|n| (n.as_str(), "bitnami"))
            .collect::<Vec<_>>(),
    );
    let mut kapp = Fake::new(
        Kind::Offset,
        "kapp_controller.packages",
        "kubeapps",
        &[
            ("cert-manager.tanzu", "r"),
            ("helm-controller.fluxcd.tanzu", "r"),
        ],
    );
    kapp.items[0].display_name = "cert-manager".into();
    kapp.items[1].display_name = "Flux Helm Controller".into();
    for resume in [None, Some(2)] {
        let mut env = Env::new(vec![helm_clone(&helm), kapp_clone(&kapp)], 4, 5);
        env.options.sources = env
            .fakes
            .iter()
            .map(|f| SourceSpec::new(f.id.clone()))
            .collect();
        env.options.sort = SortOrder::DisplayName;
        let mut p = env.pager();
        let first = env.page(&mut p);
        assert!(first.stats.sources[0].streamed && !first.stats.sources[1].streamed);
        assert_eq!(env.fakes[0].requests, 1, "page 1: one chunk of helm");
        assert_eq!(
            names(&first),
            ["cert-manager.tanzu", "chart-00", "chart-01", "chart-02"]
        );
        let (shown, total) = page_all_sorted(&mut env, resume);
        assert_eq!(shown.len(), 32, "resume {resume:?}");
        assert_eq!((total.whole_read_switches, total.late_items), (0, 0));
        // 30 items in chunks of 5 (each continuation re-reads the item before it), per list.
        assert!(
            env.fakes[0].requests <= 1 + 8 + 8,
            "{} requests",
            env.fakes[0].requests
        );
    }
}

fn helm_clone(f: &Fake) -> Fake {
    let mut g = Fake::new(f.kind, &f.id.plugin, &f.id.namespace, &[]);
    g.items = f.items.clone();
    g
}

fn kapp_clone(f: &Fake) -> Fake {
    helm_clone(f)
}

/// One helm chart whose display name sorts far from its name (`zz-chart` shown as `B-late`,
/// i.e. `b-late`): the answer that holds it disagrees with the display-name order after the
/// merge went past `b-late`; the source switches to a whole read and the item comes late,
/// flagged, once; nothing else lost or repeated. With resumes between pages too.
#[test]
fn a_display_name_out_of_the_name_order_switches_and_loses_nothing() {
    for (page_size, chunk_limit, resume) in [
        (2, 3, None),
        (3, 2, Some(1)),
        (1, 4, Some(3)),
        (50, 50, None),
    ] {
        let names = [
            "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "zz-chart",
        ];
        let mut helm = Fake::new(
            Kind::Offset,
            "helm.packages",
            "kubeapps",
            &pairs(&names, "r"),
        );
        helm.items[8].display_name = "B-late".into();
        let mut env = Env::new(vec![helm], page_size, chunk_limit);
        env.options.sources[0] = SourceSpec::new(env.options.sources[0].id.clone());
        env.options.sort = SortOrder::DisplayName;
        let (shown, total) = page_all_sorted(&mut env, resume);
        assert_eq!(
            shown.len(),
            names.len(),
            "page {page_size}, chunk {chunk_limit}"
        );
        if page_size < 50 {
            assert_eq!(
                total.whole_read_switches, 1,
                "page {page_size}, chunk {chunk_limit}"
            );
            assert_eq!(total.late_items, 1, "page {page_size}, chunk {chunk_limit}");
        } else {
            // One answer holds everything: its order is the answer's, checked before anything
            // goes, so the switch's whole read shows no item late.
            assert_eq!(total.late_items, 0);
        }
    }
}

/// Two charts of one name whose display names differ (a tie of the source, not of the merge):
/// the source lists them in either order. Read first as `m (display n)`, the merge passes `m5`
/// from another source; the next answer gives `m (display m)` before it, an order that agrees
/// answer by answer. Taken as it comes it would be dropped (below W) and lost: the two display
/// names in one tie are a disorder, and the whole read shows it late, once.
#[test]
fn equal_names_with_two_display_names_are_a_disorder_and_nothing_is_lost() {
    let mut helm = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]);
    for (name, repo, display) in [
        ("a", "r", "a"),
        ("b", "r", "b"),
        ("m", "r2", "n"),
        ("m", "r1", "m"),
        ("z", "r", "z"),
    ] {
        let mut it = item("helm.packages", "kubeapps", name, repo);
        it.display_name = display.into();
        helm.items.push(it); // in this order: the tie `m` read as r2 first
    }
    let other = Fake::new(
        Kind::Offset,
        "fluxv2.packages",
        "kubeapps",
        &pairs(&["m5"], "r"),
    );
    let mut env = Env::new(vec![helm, other], 1, 3);
    env.options.sources = env
        .fakes
        .iter()
        .map(|f| SourceSpec::new(f.id.clone()))
        .collect();
    env.options.sort = SortOrder::DisplayName;
    let mut p = env.pager();
    let mut shown = Vec::new();
    for _ in 0..3 {
        shown.extend(env.page(&mut p).items.iter().map(|i| i.identifier.clone()));
    }
    assert_eq!(shown, ["r/a", "r/b", "r/m5"]);
    // The source now gives its tie the other way round.
    env.fakes[0].items.swap(2, 3);
    let mut late = 0;
    let mut switches = 0;
    loop {
        let page = env.page(&mut p);
        late += page.stats.sources[0].late_items;
        switches += page.stats.sources[0].whole_read_switches;
        shown.extend(page.items.iter().map(|i| i.identifier.clone()));
        if page.done {
            break;
        }
    }
    assert_eq!(shown, ["r/a", "r/b", "r/m5", "r1/m", "r2/m", "r/z"]);
    assert_eq!((late, switches), (1, 1));
}

/// Display-name ties: equal names with one display name (a tie of both orders, in any order on
/// each request), and different names with one display name (`Foo` and `foo`: a tie of the
/// merge's first component only). They stream, with no switch, each item once.
#[test]
fn display_name_ties_stream() {
    let mut helm = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]);
    for (name, repo, display) in [
        ("apache", "r1", "apache"),
        ("common", "r1", "common"),
        ("common", "r2", "common"),
        ("common", "r3", "common"),
        ("foo-a", "r", "Foo"),
        ("foo-b", "r", "foo"),
        ("ghost", "r1", "ghost"),
        ("ghost", "r2", "ghost"),
        ("zookeeper", "r", "zookeeper"),
    ] {
        let mut it = item("helm.packages", "kubeapps", name, repo);
        it.display_name = display.into();
        helm.insert(it);
    }
    for (page_size, chunk_limit, resume) in
        [(1, 1, None), (2, 2, Some(1)), (3, 2, None), (2, 3, Some(2))]
    {
        let mut f = helm_clone(&helm);
        f.shuffle_ties = Some(0x9E37_79B9_7F4A_7C15 ^ u64::from(chunk_limit));
        let mut env = Env::new(vec![f], page_size, chunk_limit);
        env.options.sources[0] = SourceSpec::new(env.options.sources[0].id.clone());
        env.options.sort = SortOrder::DisplayName;
        let (shown, total) = page_all_sorted(&mut env, resume);
        assert_eq!(shown.len(), 9, "page {page_size}, chunk {chunk_limit}");
        assert_eq!(
            total.whole_read_switches, 0,
            "page {page_size}, chunk {chunk_limit}"
        );
    }
}

/// A collated `displayName` sort (`collation: { locale }`): a helm database in an en_US-like
/// collation (`kubeapps` before `kube-prometheus`) agrees with the collation's order and
/// streams, no switch; under the plain (bytes, lowercase) `displayName` sort the same source is
/// found out of order and read whole once, nothing lost either way.
#[test]
fn a_collated_display_name_sort_streams_a_naturally_collated_source() {
    if !crate::collation::AVAILABLE {
        return;
    }
    let names = [
        "kafka",
        "keycloak",
        "kong",
        "kube-prometheus",
        "kube-state-metrics",
        "kubeapps",
        "kubernetes-event-exporter",
        "kubeval",
        "logstash",
        "mysql",
        "nginx",
    ];
    for (sort, switches) in [
        (
            SortOrder::Collated(crate::order::SortField::DisplayName, crate::Collation::Root),
            0,
        ),
        (SortOrder::DisplayName, 1),
    ] {
        let mut f = Fake::new(
            Kind::Offset,
            "helm.packages",
            "kubeapps",
            &pairs(&names, "bitnami"),
        );
        f.collate = true;
        let mut env = Env::new(vec![f], 2, 3);
        env.options.sources[0] = SourceSpec::new(env.options.sources[0].id.clone());
        env.options.sort = sort;
        let (shown, total) = page_all_sorted(&mut env, None);
        assert_eq!(shown.len(), names.len(), "{sort:?}");
        assert_eq!(total.whole_read_switches, switches, "{sort:?}");
    }
}

/// As above with two members of the tie never read (`m (m)`, `m (m1)`), both below W when the
/// source switches; a page token taken after the first of them is shown (the second still late)
/// resumes to show the second, once: the token's cut is before them (they stood before the
/// whole read's cut by position).
#[test]
fn late_tie_members_before_the_cut_survive_a_resume() {
    let mut helm = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[]);
    for (name, repo, display) in [
        ("a", "r", "a"),
        ("b", "r", "b"),
        ("m", "r3", "n"),
        ("m", "r1", "m"),
        ("m", "r2", "m1"),
        ("z", "r", "z"),
    ] {
        let mut it = item("helm.packages", "kubeapps", name, repo);
        it.display_name = display.into();
        helm.items.push(it);
    }
    let other = Fake::new(
        Kind::Offset,
        "fluxv2.packages",
        "kubeapps",
        &pairs(&["m5"], "r"),
    );
    let mut env = Env::new(vec![helm, other], 1, 3);
    env.options.sources = env
        .fakes
        .iter()
        .map(|f| SourceSpec::new(f.id.clone()))
        .collect();
    env.options.sort = SortOrder::DisplayName;
    let mut p = env.pager();
    let mut shown = Vec::new();
    for _ in 0..3 {
        shown.extend(env.page(&mut p).items.iter().map(|i| i.identifier.clone()));
    }
    assert_eq!(shown, ["r/a", "r/b", "r/m5"]);
    // The tie comes back as r1, r2, r3 from now on.
    let r3 = env.fakes[0].items.remove(2);
    env.fakes[0].items.insert(4, r3);
    let page = env.page(&mut p);
    shown.extend(page.items.iter().map(|i| i.identifier.clone()));
    assert_eq!(page.stats.sources[0].whole_read_switches, 1);
    assert_eq!(shown.last().map(String::as_str), Some("r1/m"));
    let mut p = env.resume(&p);
    loop {
        let page = env.page(&mut p);
        shown.extend(page.items.iter().map(|i| i.identifier.clone()));
        if page.done {
            break;
        }
    }
    assert_eq!(shown, ["r/a", "r/b", "r/m5", "r1/m", "r2/m", "r3/m", "r/z"]);
}

/// Issue 24 (slow start): an item inserted between the page token and the resume, before the
/// position in the source's own order (`a0`, first in en_US) but above W (`B`) in the merge's
/// (bytes), must not be lost when the anchor (`C2`, the last item read before the token) is read
/// again since the resume: the re-read from before the position finds `A1` where `A2` (the
/// source's watermark) stood, so something came before the position.
#[test]
fn an_insert_before_the_position_above_w_is_not_lost_when_the_anchor_is_read_again() {
    let (mut env, p, mut shown) = en_us_source_three_pages_in(&["A1", "A2", "C1", "C2", "C3"]);
    env.fakes[0].insert(item("helm.packages", "kubeapps", "a0", "r"));
    let mut p = env.resume(&p);
    loop {
        let page = env.page(&mut p);
        shown.extend(page.items.iter().map(|i| i.name.clone()));
        if page.done {
            break;
        }
    }
    assert_each_shown_once(&shown, &["A1", "A2", "B", "C1", "C2", "C3", "D", "a0"]);
}

/// As above with a chunk limit of 50, where the slow start sizes the chunks: the first chunk is 4
/// (`A1 A2 C1 C2`, the anchor `C2`), and the resume's first re-read (4 + 1 from `A1`) reads the
/// anchor again at once.
#[test]
fn an_insert_before_the_position_above_w_is_not_lost_under_the_slow_start() {
    let names = ["A1", "A2", "C1", "C2", "C3", "C4", "C5"];
    let mut f = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &pairs(&names, "r"),
    );
    f.collate = true;
    let g = Fake::new(
        Kind::K8s,
        "helm.packages",
        "other",
        &pairs(&["B", "D"], "r"),
    );
    let (mut env, p, mut shown) = en_us_three_pages_with(f, g, 50);
    assert_eq!(
        p.state().sources[0].anchors.len(),
        1,
        "C2 read, not consumed"
    );
    env.fakes[0].insert(item("helm.packages", "kubeapps", "a0", "r"));
    let mut p = env.resume(&p);
    loop {
        let page = env.page(&mut p);
        shown.extend(page.items.iter().map(|i| i.name.clone()));
        if page.done {
            break;
        }
    }
    let mut want = names.to_vec();
    want.extend(["B", "D", "a0"]);
    assert_each_shown_once(&shown, &want);
}

/// Issue 24, slow start: the limits asked of each source. Pages of 10 over a Kubernetes source
/// and a `kubeapps` one (both streamed) and an unordered one (read whole), chunk limit 50: the
/// streamed sources' first chunk is 2 × ceil(10 / 2) = 10, then 20, 40, 50 (the `kubeapps` one
/// two more each time after its first: a tie-able source re-reads the item before the tie group
/// of its last item and that group, here one item); the source
/// read whole asks `maxSourceItems + 1` at once; a resume starts at 10 again.
#[test]
fn slow_start_grows_each_streamed_chunk_and_a_resume_starts_small_again() {
    let names: Vec<String> = seq("p-", 300);
    let all: Vec<(&str, &str)> = names.iter().map(|s| (s.as_str(), "r")).collect();
    let mut unordered = Fake::new(Kind::Offset, "fluxv2.packages", "kubeapps", &all);
    unordered.items.reverse();
    let mut env = Env::new(
        vec![
            Fake::new(Kind::K8s, "kapp_controller.packages", "kubeapps", &all),
            Fake::new(Kind::Offset, "helm.packages", "kubeapps", &all),
            unordered,
        ],
        10,
        50,
    );
    env.options.sources[2].order = Some(crate::options::SourceOrder::None);
    let mut p = env.pager();
    let mut limits: Vec<Vec<u32>> = vec![Vec::new(); 3];
    let mut by = |env: &mut Env, p: &mut Pager<ItemFields>, limits: &mut Vec<Vec<u32>>| {
        env.page_by(p, |env, p, r| {
            limits[r.source_index].push(r.limit);
            Env::answer(env, p, r);
        })
    };
    for _ in 0..30 {
        by(&mut env, &mut p, &mut limits);
    }
    assert_eq!(limits[0][..4], [10, 20, 40, 50], "{limits:?}");
    assert_eq!(limits[1][..4], [10, 22, 42, 52], "{limits:?}");
    assert_eq!(limits[2], [10_001], "read whole: {limits:?}");
    let mut p = env.resume(&p);
    let mut again: Vec<Vec<u32>> = vec![Vec::new(); 3];
    by(&mut env, &mut p, &mut again);
    assert_eq!(again[0].first(), Some(&10), "{again:?}");
    assert_eq!(
        again[1].first(),
        Some(&11),
        "from the item before: {again:?}"
    );
    assert!(again[2].iter().all(|l| *l == 10_001), "{again:?}");
}

#[test]
fn fields_read_are_the_sort_field_and_what_the_sources_filter_tests() {
    let mut helm = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[("a", "r")]);
    helm.side = FilterSide::Source;
    let kapp = Fake::new(
        Kind::K8s,
        "kapp_controller.packages",
        "kubeapps",
        &[("a", "r")],
    );
    let mut env = Env::new(vec![helm, kapp], 3, 3);
    let read = |env: &Env, i| env.pager().fields_read(i);
    let none = FieldsRead {
        display_name: false,
        short_description: false,
        categories: false,
    };
    // No filter, sorted by name: only the fields every key holds.
    assert_eq!(read(&env, 0), none);
    assert_eq!(read(&env, 1), none);
    // Categories: read where the pager filters (the Kubernetes list), not where the plugin does.
    env.options.filter.categories = vec!["Database".into()];
    assert_eq!(read(&env, 0), none);
    assert_eq!(
        read(&env, 1),
        FieldsRead {
            categories: true,
            ..none
        }
    );
    // A query reads the text fields; a displayName sort reads displayName everywhere.
    env.options.filter.query = "sql".into();
    let text = FieldsRead {
        display_name: true,
        short_description: true,
        categories: true,
    };
    assert_eq!(read(&env, 1), text);
    env.options.filter = FilterOptions::default();
    env.options.sort = SortOrder::DisplayName;
    let display = FieldsRead {
        display_name: true,
        ..none
    };
    assert_eq!(read(&env, 0), display);
    assert_eq!(read(&env, 1), display);
}

/// A source read whole (here kapp_controller under `displayName`: its display names are not its
/// names) asks for it all in one request, `maxSourceItems + 1`; a server that caps its answers
/// and gives a next token is followed to the end (asking what is left of the cap + 1), and
/// `SOURCE_TOO_LARGE` only once the items read go over the cap: a short answer is legal.
#[test]
fn a_source_read_whole_follows_a_capped_servers_next_tokens() {
    let names = ["e", "d", "c", "b", "a"];
    let mut f = Fake::new(
        Kind::Offset,
        "kapp_controller.packages",
        "kubeapps",
        &pairs(&names, "r"),
    );
    f.cap = Some(2);
    let mut env = Env::new(vec![f], 10, 2);
    env.options.sort = SortOrder::DisplayName;
    env.options.max_source_items = 5;
    let mut p = env.pager();
    let mut asked = Vec::new();
    let page = env.page_by(&mut p, |env, p, r| {
        asked.push((r.page_token.clone(), r.limit));
        Env::answer(env, p, r);
    });
    assert_eq!(names_of(&page), ["a", "b", "c", "d", "e"]);
    assert!(page.done);
    let asked: Vec<(&str, u32)> = asked.iter().map(|(t, l)| (t.as_str(), *l)).collect();
    assert_eq!(asked, [("", 6), ("2", 4), ("4", 2)]);
    // Over the cap, counted: the third answer brings the fifth item.
    env.options.max_source_items = 4;
    let mut p = env.pager();
    let mut err = None;
    for _ in 0..3 {
        let r = p.next_requests();
        let answer = env.fakes[0].serve(&r[0]).expect("served");
        if let Err(e) = p.feed(r[0].request_id, answer) {
            err = Some(e);
            break;
        }
    }
    assert_eq!(err.map(|e| e.code()), Some("SOURCE_TOO_LARGE"));
}

/// An unordered source (another order on every request) read whole in pieces by offsets: an
/// item given twice means another was skipped. The whole read starts over; at the third in a row
/// the source is set aside (`no-progress`, named on the page) and the other sources go on: never a
/// page that silently lacks the skipped items.
#[test]
fn an_unordered_source_in_pieces_that_repeats_an_item_is_set_aside() {
    let names = ["a", "b", "c", "d", "e"];
    let mut f = Fake::new(
        Kind::Unordered,
        "fluxv2.packages",
        "kubeapps",
        &pairs(&names, "r"),
    );
    f.cap = Some(2);
    let other = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &pairs(&["x", "y"], "r"),
    );
    let mut env = Env::new(vec![f, other], 10, 2);
    let mut p = env.pager();
    let mut flux = Vec::new();
    let page = env.page_by(&mut p, |env, p, r| {
        if r.source_index == 0 {
            flux.push(r.page_token.clone());
        }
        let answer = env.fakes[r.source_index].serve(&r).expect("served");
        p.feed(r.request_id, answer).expect("fed");
    });
    assert_eq!(names_of(&page), ["x", "y"]);
    assert!(page.done);
    let u = p.unreachable();
    assert_eq!(u.len(), 1);
    assert_eq!(
        (u[0].source_index, u[0].cause),
        (0, UnreachableCause::NoProgress)
    );
    assert_eq!(flux.iter().filter(|t| t.is_empty()).count(), 3, "{flux:?}");
    assert!(flux.len() <= 9, "{flux:?}");
}

/// A whole read in pieces that meets an item again because the list grew in front reads right
/// when started over.
#[test]
fn a_whole_read_in_pieces_that_meets_an_item_again_starts_over() {
    let names = ["b", "c", "d", "e"];
    let mut f = Fake::new(
        Kind::Offset,
        "kapp_controller.packages",
        "kubeapps",
        &pairs(&names, "r"),
    );
    f.cap = Some(2);
    let mut env = Env::new(vec![f], 10, 2);
    env.options.sort = SortOrder::DisplayName;
    let mut p = env.pager();
    let r = p.next_requests();
    env.answer(&mut p, r.into_iter().next().expect("one"));
    env.fakes[0].insert(item("kapp_controller.packages", "kubeapps", "a", "r"));
    let page = env.page(&mut p);
    assert_eq!(names_of(&page), ["a", "b", "c", "d", "e"]);
    assert!(p.unreachable().is_empty());
}

/// A whole read's later chunk refused (400 at an offset: the list shrank under it) starts the
/// whole read over from `""`.
#[test]
fn a_whole_reads_refused_chunk_starts_it_over() {
    let names = ["a", "b", "c", "d", "e"];
    let mut f = Fake::new(
        Kind::Offset,
        "kapp_controller.packages",
        "kubeapps",
        &pairs(&names, "r"),
    );
    f.cap = Some(2);
    f.refuse_past_end = true;
    let mut env = Env::new(vec![f], 10, 2);
    env.options.sort = SortOrder::DisplayName;
    let mut p = env.pager();
    let r = p.next_requests();
    env.answer(&mut p, r.into_iter().next().expect("one"));
    for n in ["a", "b", "c", "d"] {
        env.fakes[0].delete(n);
    }
    let r = p.next_requests();
    assert_eq!(r[0].page_token, "2");
    let f = env.fakes[0].serve(&r[0]).expect_err("refused past the end");
    assert_eq!(f.status, 400);
    assert!(matches!(
        p.fail(r[0].request_id, f).expect("fail"),
        FailOutcome::Recovered(_)
    ));
    let r = p.next_requests();
    assert_eq!(r[0].page_token, "", "started over");
    env.answer(&mut p, r.into_iter().next().expect("one"));
    let page = env.page(&mut p);
    assert_eq!(names_of(&page), ["e"]);
}

/// A 400 (InvalidArgument) at the start of a decimal source's list: no position there could have
/// vanished, so the request itself is refused (a filter the plugin rejects). The source is set
/// aside at once (named on the page, the others go on), not asked 17 times; and a walk back after
/// a refused position ends as soon as `""` is refused.
#[test]
fn a_400_at_the_start_of_an_offset_list_sets_the_source_aside_at_once() {
    let names: Vec<String> = seq("pkg-", 40);
    let refs: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "r")).collect();
    let bad = Fake::new(Kind::Offset, "kapp_controller.packages", "kubeapps", &refs);
    let good = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &pairs(&["x", "y"], "r"),
    );
    let mut env = Env::new(vec![bad, good], 10, 10);
    env.fakes[0].down = Some(400);
    let mut p = env.pager();
    let page = env.page(&mut p);
    assert_eq!(names_of(&page), ["x", "y"]);
    assert!(page.done);
    assert_eq!(env.fakes[0].requests, 1, "asked once");
    let u = p.unreachable();
    assert_eq!(u.len(), 1);
    assert_eq!(u[0].cause, UnreachableCause::FailedForGood);

    // Refused everywhere once a page was read: the walk back to "" then no more.
    env.fakes[0].down = None;
    env.fakes[1].down = Some(404);
    let mut p = env.pager();
    let first = env.page(&mut p);
    assert_eq!(first.items.len(), 10);
    env.fakes[0].down = Some(400);
    let mut asked = Vec::new();
    let page = env.page_by(&mut p, |env, p, r| {
        if r.source_index == 0 {
            asked.push(r.page_token.clone());
        }
        Env::answer(env, p, r);
    });
    assert!(page.done);
    assert_eq!(asked.last().map(String::as_str), Some(""), "{asked:?}");
    assert_eq!(
        asked.iter().filter(|t| t.is_empty()).count(),
        1,
        "{asked:?}"
    );
    assert!(asked.len() <= 8, "{asked:?}");
    assert_eq!(p.unreachable().len(), 2);
}

/// A streamed source found out of the merge order (an en_US collation) switches to a whole read;
/// against a server that caps its answers, that whole read follows the next tokens too: every
/// item once, in the merge order, no `SOURCE_TOO_LARGE`.
#[test]
fn a_switched_sources_whole_read_follows_a_capped_servers_next_tokens() {
    let names = ["a", "B", "c", "D", "e", "F", "g"];
    let mut f = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &pairs(&names, "r"),
    );
    f.collate = true;
    f.cap = Some(2);
    let mut env = Env::new(vec![f], 20, 2);
    env.options.max_source_items = 10;
    let mut p = env.pager();
    let mut asked = Vec::new();
    let page = env.page_by(&mut p, |env, p, r| {
        asked.push((r.page_token.clone(), r.limit));
        Env::answer(env, p, r);
    });
    assert_eq!(names_of(&page), ["B", "D", "F", "a", "c", "e", "g"]);
    assert!(page.done);
    assert_eq!(page.stats.sources[0].whole_read_switches, 1);
    assert!(asked.contains(&(String::new(), 11)), "{asked:?}");
    assert!(asked.contains(&("2".to_string(), 9)), "{asked:?}");
}
