//! Prefetch ([`Pager::prefetch_requests`]): what goes ahead after a page, within a budget, and
//! what the counters say of it.

use super::*;

/// Two streamed sources (offsets and a Kubernetes list) whose names interleave, `n` items each.
fn two(n: usize) -> Env {
    let a: Vec<String> = (0..n).map(|i| format!("pkg-{i:03}-a")).collect();
    let b: Vec<String> = (0..n).map(|i| format!("pkg-{i:03}-b")).collect();
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let b: Vec<&str> = b.iter().map(String::as_str).collect();
    Env::new(
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
                &pairs(&b, "repo-b"),
            ),
        ],
        4,
        4,
    )
}

/// What a request asks, without its id (ids differ between pagers).
fn asks(reqs: &[ChunkRequest]) -> Vec<(usize, String, u32)> {
    reqs.iter()
        .map(|r| (r.source_index, r.page_token.clone(), r.limit))
        .collect()
}

/// Prefetch sends what the next call would ask first, and a page served from its answers asks
/// nothing more; the pages and tokens are those of a pager without prefetch.
#[test]
fn prefetch_asks_what_the_next_call_would_and_changes_no_page() {
    let (mut plain_env, mut ahead_env) = (two(12), two(12));
    let (mut plain, mut ahead) = (plain_env.pager(), ahead_env.pager());
    let mut served = 0;
    loop {
        let want = plain_env.page(&mut plain);
        let got = ahead_env.page(&mut ahead);
        assert_eq!(names(&got), names(&want));
        assert_eq!(got.next_page_token, want.next_page_token);
        assert_eq!(got.done, want.done);
        if want.done {
            assert!(
                ahead
                    .prefetch_requests(PrefetchBudget::default())
                    .is_empty(),
                "done: nothing ahead"
            );
            break;
        }
        let sent = ahead.prefetch_requests(PrefetchBudget::default());
        // The plain pager's first requests for the next page are the same.
        let next = plain.next_requests();
        assert_eq!(asks(&sent), asks(&next));
        for r in next {
            plain.cancel(r.request_id);
        }
        assert!(
            ahead.next_requests().is_empty(),
            "what went ahead is not asked again"
        );
        let before = ahead_env.requests();
        for r in sent {
            ahead_env.answer(&mut ahead, r);
        }
        let served_ahead = ahead.page_ready();
        served += usize::from(served_ahead);
        let page = if served_ahead {
            // The next page from the prefetched answers: no request of its own.
            let before_page = ahead_env.requests();
            let page = ahead_env.page(&mut ahead);
            assert_eq!(ahead_env.requests(), before_page);
            page
        } else {
            ahead_env.page(&mut ahead)
        };
        let want = plain_env.page(&mut plain);
        assert_eq!(names(&page), names(&want));
        assert_eq!(page.next_page_token, want.next_page_token);
        assert!(ahead_env.requests() > before || page.done);
        if page.done {
            break;
        }
    }
    assert!(served > 0, "some page came from prefetched answers alone");
    let total = ahead.stats().total();
    assert!(total.prefetched_requests > 0);
    assert!(total.prefetched_items > 0);
    assert!(total.prefetched_items <= total.items_scanned);
    assert_eq!(total.prefetches_cancelled, 0);
}

/// Nothing goes ahead when the next page is buffered already.
#[test]
fn nothing_ahead_when_the_next_page_is_buffered() {
    let mut env = two(12);
    env.options.chunk_limit = 20;
    let mut p = env.pager();
    // The slow start's first chunks (4 items) hold page 1 alone; the doubled second chunks hold
    // the next page too: page on until the chunks read hold it.
    let mut pages = 0;
    while !p.page_ready() {
        assert!(
            !env.page(&mut p).done && pages < 3,
            "the chunks never held the next page"
        );
        pages += 1;
    }
    assert!(pages >= 1);
    assert!(p.prefetch_requests(PrefetchBudget::default()).is_empty());
    assert_eq!(p.stats().total().prefetched_requests, 0);
}

/// The budget: a request budget of one sends one; a byte budget below the estimate sends none;
/// the estimate is the limit times the mean key bytes per item read so far.
#[test]
fn the_budget_bounds_what_goes_ahead() {
    let mut env = two(12);
    let mut p = env.pager();
    env.page(&mut p);
    let one = PrefetchBudget {
        requests: 1,
        bytes: u64::MAX,
    };
    let sent = p.prefetch_requests(one);
    assert_eq!(sent.len(), 1);
    assert!(p.prefetch_requests(one).len() <= 1, "one per source still");
    let mut env = two(12);
    let mut p = env.pager();
    env.page(&mut p);
    let none = PrefetchBudget {
        requests: 64,
        bytes: 0,
    };
    assert!(p.prefetch_requests(none).is_empty());
    // Each item of `two` carries these key bytes that vary by item: identifier, name, display
    // name (no description).
    let per_item = ("repo-a/pkg-000-a".len() + 2 * "pkg-000-a".len()) as u64;
    let estimate = p.ahead.estimate(0, 5);
    assert_eq!(estimate, per_item * 5);
    assert_eq!(
        p.ahead.estimate(7, 5),
        5 * UNKNOWN_ITEM_BYTES,
        "a source never heard of"
    );
    // Exactly the first request's estimate: that one goes, not the second.
    let first_limit = {
        let mut probe_env = two(12);
        let mut probe = probe_env.pager();
        probe_env.page(&mut probe);
        probe.next_requests()[0].limit
    };
    let tight = PrefetchBudget {
        requests: 64,
        bytes: p.ahead.estimate(0, first_limit),
    };
    let sent = p.prefetch_requests(tight);
    assert_eq!(asks(&sent).len(), 1);
    assert_eq!(sent[0].source_index, 0);
}

/// A source set aside gets nothing ahead; a prefetched request that fails is a failure of its
/// source as any (the same outcome), and one cancelled is counted as of no use.
#[test]
fn set_aside_failed_and_cancelled_prefetch() {
    let mut env = two(12);
    env.options.chunk_limit = 2;
    let mut p = env.pager();
    env.page(&mut p);
    // Withdrawn unanswered: of no use, counted; its late answer is stale; the next call asks it.
    let sent = p.prefetch_requests(PrefetchBudget::default());
    assert!(!sent.is_empty());
    for r in &sent {
        assert!(p.cancel(r.request_id));
    }
    let cancelled = sent.len() as u64;
    assert_eq!(p.stats().total().prefetched_requests, cancelled);
    assert_eq!(p.stats().total().prefetches_cancelled, cancelled);
    assert_eq!(
        p.feed(sent[0].request_id, chunk(&["pkg-zzz"], ""))
            .expect("feed"),
        FeedOutcome::Stale
    );
    assert_eq!(asks(&p.next_requests()), asks(&sent));
    let mut env2 = two(12);
    env2.options.chunk_limit = 2;
    let mut p = env2.pager();
    env2.page(&mut p);
    let sent = p.prefetch_requests(PrefetchBudget::default());
    let failed = sent[0].source_index;
    let forbidden = Failure {
        status: 403,
        reason: None,
        continue_token: None,
    };
    assert_eq!(
        p.fail(sent[0].request_id, forbidden).expect("fail"),
        FailOutcome::SetAside(UnreachableCause::FailedForGood)
    );
    assert_eq!(p.stats().total().prefetched_requests, 1);
    assert_eq!(p.stats().total().requests, 1 + env2.requests() as u64);
    // The failed source is set aside: it blocks nothing, and nothing goes ahead to it.
    let page = env2.page(&mut p);
    assert_eq!(page.unreachable.len(), 1);
    assert_eq!(page.unreachable[0].source_index, failed);
    let again = p.prefetch_requests(PrefetchBudget::default());
    assert!(again.iter().all(|r| r.source_index != failed), "{again:?}");
    // An unknown id cancels nothing and counts nothing.
    assert!(!p.cancel(12345 << 6));
    assert_eq!(p.stats().total().prefetches_cancelled, 0);
}
