//! Partial results (a source that fails for good is set aside, retried later) and the filter's
//! two sides (a source that filters keeps what it matched; a filter change stays safe).

use super::*;

/// Three sources whose names interleave: helm (offsets), flux (unordered: read whole), kapp
/// (a Kubernetes list), `n` items each.
fn three(n: usize) -> Vec<Fake> {
    let names =
        |tag: &str| -> Vec<String> { (0..n).map(|i| format!("pkg-{i:03}-{tag}")).collect() };
    let (h, f, k) = (names("h"), names("f"), names("k"));
    let pairs = |v: &[String]| -> Vec<(String, String)> {
        v.iter()
            .map(|s| (s.clone(), "bitnami".to_string()))
            .collect()
    };
    fn refs(v: &[(String, String)]) -> Vec<(&str, &str)> {
        v.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect()
    }
    let (ph, pf, pk) = (pairs(&h), pairs(&f), pairs(&k));
    vec![
        Fake::new(Kind::Offset, "helm.packages", "kubeapps", &refs(&ph)),
        Fake::new(Kind::Unordered, "fluxv2.packages", "kubeapps", &refs(&pf)),
        Fake::new(
            Kind::K8s,
            "kapp_controller.packages",
            "kubeapps",
            &refs(&pk),
        ),
    ]
}

fn identities(items: &[ItemFields]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|i| (i.plugin.clone(), i.name.clone()))
        .collect()
}

/// Pages until `done`; returns every page.
fn drain(env: &mut Env, p: &mut Pager<ItemFields>, at_most: usize) -> Vec<Page<ItemFields>> {
    let mut pages = Vec::new();
    for _ in 0..at_most {
        let page = env.page(p);
        let done = page.done;
        pages.push(page);
        if done {
            break;
        }
    }
    pages
}

#[test]
fn a_source_that_fails_for_good_among_three_is_named_and_its_items_come_back_when_retried() {
    let mut env = Env::new(three(20), 7, 5);
    env.fakes[1].down = Some(501);
    let mut p = env.pager();
    let mut shown: Vec<ItemFields> = Vec::new();
    // Three pages without flux: helm and kapp in one total order, flux named on each page.
    for _ in 0..3 {
        let page = env.page(&mut p);
        assert_eq!(page.items.len(), 7, "full pages from the other two");
        assert!(!page.done && !page.late);
        assert_eq!(page.unreachable.len(), 1);
        let u = &page.unreachable[0];
        assert_eq!((u.source_index, u.status), (1, 501));
        assert_eq!(u.source.plugin, "fluxv2.packages");
        assert_eq!(u.cause, UnreachableCause::FailedForGood);
        shown.extend(page.items);
    }
    let mut keys: Vec<_> = shown
        .iter()
        .map(|i| (i.name.clone(), i.plugin.clone()))
        .collect();
    let sorted = {
        let mut k = keys.clone();
        k.sort();
        k
    };
    assert_eq!(keys, sorted, "the same total order without flux");
    assert!(shown.iter().all(|i| i.plugin != "fluxv2.packages"));
    assert_eq!(
        p.stats().sources[1].unreachable,
        1,
        "set aside once, not asked again"
    );
    let flux_requests = env.fakes[1].requests;
    shown.extend(env.page(&mut p).items);
    assert_eq!(
        env.fakes[1].requests, flux_requests,
        "an unreachable source is asked nothing"
    );
    // It comes back: retried on request.
    env.fakes[1].down = None;
    assert_eq!(p.retry_unreachable(None), vec![1]);
    assert_eq!(
        p.retry_unreachable(None),
        Vec::<usize>::new(),
        "nothing left to retry"
    );
    let before = identities(&shown);
    let rest = drain(&mut env, &mut p, 100);
    let late: u64 = rest.iter().map(|pg| pg.stats.total().late_items).sum();
    assert!(rest.iter().all(|pg| pg.unreachable.is_empty()));
    assert!(rest[0].late, "flux's items the merge went past come late");
    // The first page consumed before the retry (the fourth) had W at its last item.
    let w = shown.last().map(|i| i.name.clone()).unwrap_or_default();
    let missed = (0..20)
        .map(|i| format!("pkg-{i:03}-f"))
        .filter(|n| *n < w)
        .count() as u64;
    assert!(missed > 0);
    for pg in &rest {
        shown.extend(pg.items.iter().cloned());
    }
    let mut all = identities(&shown);
    let n = all.len();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), n, "nothing shown twice");
    assert_eq!(n, 60, "every item of the three sources, flux's too");
    assert!(late >= missed, "late {late}, missed {missed}");
    assert!(before.iter().all(|b| all.contains(b)));
    // After the late ones, the pages are in order again.
    keys = rest
        .iter()
        .flat_map(|pg| pg.items.iter())
        .skip(late as usize)
        .map(|i| (i.name.clone(), i.plugin.clone()))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}

#[test]
fn a_source_down_for_good_ends_the_list_but_for_it_and_a_later_retry_opens_it_again() {
    let mut env = Env::new(three(6), 50, 4);
    env.fakes[2].down = Some(403);
    let mut p = env.pager();
    let page = env.page(&mut p);
    assert!(page.done, "done as far as the sources that answer go");
    assert_eq!(page.items.len(), 12);
    assert_eq!(page.unreachable.len(), 1);
    assert_eq!(page.unreachable[0].source_index, 2);
    // Still down: a retry sets it aside again, with no item lost or repeated.
    assert_eq!(p.retry_unreachable(Some(2)), vec![2]);
    let again = env.page(&mut p);
    assert!(again.done && again.items.is_empty());
    assert_eq!(again.unreachable.len(), 1);
    env.fakes[2].down = None;
    assert_eq!(
        p.retry_unreachable(Some(0)),
        Vec::<usize>::new(),
        "source 0 is reachable"
    );
    assert_eq!(p.retry_unreachable(Some(2)), vec![2]);
    let last = env.page(&mut p);
    assert!(last.done && last.unreachable.is_empty());
    assert_eq!(last.items.len(), 6);
    // All but pkg-005-k sort before helm's last item, pkg-005-h: shown after the others.
    assert_eq!(last.stats.total().late_items, 5);
    assert!(last
        .items
        .iter()
        .all(|i| i.plugin == "kapp_controller.packages"));
}

#[test]
fn a_token_taken_while_a_source_is_set_aside_resumes_with_its_items_still_to_come() {
    let mut env = Env::new(three(15), 6, 4);
    let mut p = env.pager();
    let first = env.page(&mut p);
    let mut shown = first.items.clone();
    // helm fails for good after its first chunk.
    env.fakes[0].down = Some(404);
    let mut tokens = Vec::new();
    for _ in 0..3 {
        let page = env.page(&mut p);
        assert_eq!(page.unreachable.len(), 1);
        tokens.push(page.next_page_token.clone());
        shown.extend(page.items);
    }
    let state = p.state();
    assert!(state.sources[0].behind, "the token says helm is behind");
    assert!(!state.sources[1].behind && !state.sources[2].behind);
    // A reload: helm answers again. Its items past its own watermark come (late, then in place).
    env.fakes[0].down = None;
    let mut resumed =
        Pager::resume(tokens.last().expect("a token"), env.options.clone()).expect("resume");
    assert!(resumed.unreachable().is_empty());
    for pg in drain(&mut env, &mut resumed, 100) {
        assert!(pg.unreachable.is_empty());
        shown.extend(pg.items);
    }
    let mut all = identities(&shown);
    let n = all.len();
    all.sort();
    all.dedup();
    assert_eq!((all.len(), n), (45, 45), "each of the 45 items once");
}

#[test]
fn transient_failures_retry_the_same_request_until_the_fifth_in_a_row() {
    let mut env = Env::new(three(3), 10, 5);
    let mut p = env.pager();
    let reqs = p.next_requests();
    let kapp = reqs
        .iter()
        .find(|r| r.source_index == 2)
        .cloned()
        .expect("kapp asked");
    for r in reqs.into_iter().filter(|r| r.source_index != 2) {
        env.answer(&mut p, r);
    }
    let unavailable = Failure {
        status: 503,
        reason: Some("Unavailable".into()),
        continue_token: None,
    };
    let mut req = kapp;
    for n in 1..MAX_FAILURES_IN_A_ROW {
        assert_eq!(
            p.fail(req.request_id, unavailable.clone()),
            Ok(FailOutcome::Retry),
            "{n}"
        );
        let again = p.next_requests();
        assert_eq!(again.len(), 1);
        assert_eq!(
            (&again[0].page_token, again[0].limit),
            (&req.page_token, req.limit)
        );
        req = again[0].clone();
    }
    assert!(!p.page_ready(), "a transient failure holds the page");
    assert_eq!(
        p.fail(req.request_id, unavailable),
        Ok(FailOutcome::SetAside(UnreachableCause::RepeatedFailures))
    );
    let page = p.take_page().expect("encodes").expect("ready without kapp");
    assert_eq!(page.items.len(), 6);
    assert_eq!(
        page.unreachable[0].cause,
        UnreachableCause::RepeatedFailures
    );
    assert_eq!(page.unreachable[0].reason.as_deref(), Some("Unavailable"));
    // A 410 a kubernetes source recovers from is no failure.
    let expired = Failure {
        status: 410,
        reason: Some("Expired".into()),
        continue_token: None,
    };
    assert!(!fails_for_good(&expired));
}

#[test]
fn a_source_that_filters_is_sent_the_filter_and_keeps_what_it_matched() {
    let mut helm = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &[
            ("apache", "bitnami"),
            ("mysql", "db"),
            ("nginx", "bitnami"),
            ("redis", "db"),
        ],
    );
    helm.side = FilterSide::Source;
    // A source the pager filters: its own rules (query in name, displayName, description or
    // identifier), requests without a filter.
    let kapp = Fake::new(
        Kind::K8s,
        "kapp_controller.packages",
        "kubeapps",
        &[("db-operator", "tce"), ("contour", "tce"), ("dbx", "tce")],
    );
    let mut env = Env::new(vec![helm, kapp], 10, 2);
    env.options.filter = FilterOptions {
        query: " db ".into(),
        plugins: vec!["helm.packages".into(), "kapp_controller.packages".into()],
        ..Default::default()
    };
    let mut p = env.pager();
    for r in p.next_requests() {
        match r.source_index {
            0 => {
                let f = r.filter.as_ref().expect("helm is sent the filter");
                assert_eq!(f.query, "db");
                assert!(f.plugins.is_empty());
            }
            _ => assert_eq!(r.filter, None, "kapp is sent no filter"),
        }
        env.answer(&mut p, r);
    }
    let page = env.page(&mut p);
    // helm matched mysql and redis by their repository "db" (a field the pager's rules do not
    // read): kept. The pager filters kapp by its own rules.
    assert_eq!(names(&page), ["db-operator", "dbx", "mysql", "redis"]);
    assert_eq!(page.stats.total().filtered_out, 1, "contour, by the pager");
    // The plugins rule is the pager's for every source.
    env.options.filter.plugins = vec!["kapp_controller.packages".into()];
    let mut p = env.pager();
    assert_eq!(names(&env.page(&mut p)), ["db-operator", "dbx"]);
}

#[test]
fn a_filter_change_mid_page_never_shows_answers_to_the_old_filter() {
    let mut helm = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &[("apache", "bitnami"), ("mysql", "db"), ("nginx", "bitnami")],
    );
    helm.side = FilterSide::Source;
    let mut env = Env::new(vec![helm], 10, 5);
    env.options.filter.query = "db".into();
    let mut old = env.pager();
    let old_requests = old.next_requests();
    let old_token = old.page_token().expect("encodes");
    // The user types another query: a new pager. The old request's answer arrives.
    let mut changed = env.options.clone();
    changed.filter.query = "nginx".into();
    let mut p = Pager::new(changed.clone()).expect("valid");
    let answer = env.fakes[0].serve(&old_requests[0]).expect("an answer");
    assert_eq!(
        p.feed(old_requests[0].request_id, answer),
        Ok(FeedOutcome::Stale)
    );
    env.options = changed;
    let page = env.page(&mut p);
    assert_eq!(names(&page), ["nginx"]);
    // And a token of the old filter does not resume under the new one.
    let err = Pager::<ItemFields>::resume(&old_token, env.options.clone()).err();
    assert_eq!(err.map(|e| e.code()), Some("FILTER_MISMATCH"));
}

#[test]
fn who_filters_is_bound_to_the_token() {
    let mut helm = Fake::new(Kind::Offset, "helm.packages", "kubeapps", &[("a", "r")]);
    helm.side = FilterSide::Source;
    let mut env = Env::new(vec![helm], 10, 5);
    env.options.filter.query = "a".into();
    let p = env.pager();
    let token = p.page_token().expect("encodes");
    let mut pager_side = env.options.clone();
    pager_side.sources[0].filter = Some(FilterSide::Pager);
    let err = Pager::<ItemFields>::resume(&token, pager_side.clone()).err();
    assert_eq!(err.map(|e| e.code()), Some("FILTER_MISMATCH"));
    // Without a filter to send, both sides keep the same items: the token resumes.
    env.options.filter.query = String::new();
    pager_side.filter.query = String::new();
    let token = env.pager().page_token().expect("encodes");
    assert!(Pager::<ItemFields>::resume(&token, pager_side).is_ok());
}

#[test]
fn a_tie_group_open_when_its_source_is_set_aside_waits_and_comes_whole() {
    // The model test's find: a tie-able source set aside with part of a group of equal names
    // buffered; consuming that part would drop the rest of the group once the source is back.
    for seed in 1..40u64 {
        let mut helm = Fake::new(
            Kind::Offset,
            "helm.packages",
            "kubeapps",
            &[
                ("", "r"),
                ("a", "r"),
                ("m", "x"),
                ("m", "repo-a"),
                ("m", "b"),
                ("z", "r"),
            ],
        );
        helm.shuffle_ties = Some(seed);
        let kapp = Fake::new(
            Kind::K8s,
            "kapp_controller.packages",
            "kubeapps",
            &[("b", "t"), ("c", "t"), ("y", "t")],
        );
        let mut env = Env::new(vec![helm, kapp], 2, 3);
        let mut p = env.pager();
        let mut shown = env.page(&mut p).items;
        env.fakes[0].down = Some(501);
        let pages = drain(&mut env, &mut p, 50);
        assert_eq!(
            pages.last().map(|pg| pg.unreachable.len()),
            Some(1),
            "seed {seed}"
        );
        for page in pages {
            shown.extend(page.items);
        }
        env.fakes[0].down = None;
        assert_eq!(p.retry_unreachable(None), vec![0]);
        for page in drain(&mut env, &mut p, 50) {
            shown.extend(page.items);
        }
        let mut all: Vec<_> = shown.iter().map(|i| i.identifier.clone()).collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!((all.len(), n), (9, 9), "seed {seed}: {all:?}");
    }
}

/// helm (`m n`, by offsets) and kapp_controller (`b c x y`, continue tokens), pages of 1, chunks
/// of 5: kapp holds W while helm has consumed nothing.
fn helm_behind_kapp() -> Env {
    let helm = Fake::new(
        Kind::Offset,
        "helm.packages",
        "team-a",
        &pairs(&["m", "n"], "bitnami"),
    );
    let kapp = Fake::new(
        Kind::K8s,
        "kapp_controller.packages",
        "kubeapps",
        &pairs(&["b", "c", "x", "y"], "bitnami"),
    );
    Env::new(vec![helm, kapp], 1, 5)
}

/// A resumed offset source re-reads the item before its position, checked against W as it was at
/// the resume. Set aside by its first request, it is behind, and its dedupe floor becomes its own
/// watermark (none here: the one item before its position was inserted behind W and dropped). The
/// retry used to be planned from that floor: from the position itself, unchecked, so after a
/// deletion ahead it skipped the item that moved there. The retry is the request it failed.
#[test]
fn a_resumed_source_set_aside_by_its_first_request_retries_that_very_request() {
    let mut env = helm_behind_kapp();
    let mut p = env.pager();
    let mut shown = env.page(&mut p).items;
    assert_eq!(identities(&shown)[0].1, "b");
    // Inserted behind W: helm's next read drops it, and its position counts it.
    env.fakes[0].insert(item("helm.packages", "team-a", "a0", "bitnami"));
    let mut p = env.resume(&p);
    shown.extend(env.page(&mut p).items);
    let st = &p.state().sources[0];
    assert_eq!((st.chunk_token.as_str(), st.offset), ("", 1));
    assert!(st.watermark.is_none(), "nothing consumed from helm");
    // Resumed: helm's first request fails for good, then the item before its position goes.
    let mut p = env.resume(&p);
    env.fakes[0].down = Some(501);
    let mut failed = Vec::new();
    let page = env.page_by(&mut p, |env, p, r| {
        if r.source_index == 0 {
            failed.push((r.page_token.clone(), r.limit));
        }
        Env::answer(env, p, r);
    });
    // The resume starts small again (slow start: a first chunk of 4, the least) and re-reads
    // the item before the position: + 1.
    assert_eq!(failed, vec![(String::new(), 5)], "from the item before, +1");
    assert_eq!(page.unreachable.len(), 1);
    shown.extend(page.items);
    env.fakes[0].delete("a0");
    for pg in drain(&mut env, &mut p, 10) {
        shown.extend(pg.items);
    }
    env.fakes[0].down = None;
    assert_eq!(p.retry_unreachable(None), vec![0]);
    let retry = p.next_requests();
    assert_eq!(retry.len(), 1);
    assert_eq!(
        (retry[0].page_token.clone(), retry[0].limit),
        failed[0],
        "fail() changes nothing: the retry is the request that failed"
    );
    for r in retry {
        env.answer(&mut p, r);
    }
    for pg in drain(&mut env, &mut p, 10) {
        shown.extend(pg.items);
    }
    let mut all: Vec<String> = shown.iter().map(|i| i.name.clone()).collect();
    all.sort();
    assert_eq!(all, ["b", "c", "m", "n", "x", "y"], "each item once");
}

/// As above, but the list is reloaded from a page token taken while the source is set aside: the
/// token says it is behind, and nothing was consumed from it, so no key bounds the items before
/// its position (they were dropped below W, before it was set aside). After a deletion ahead its
/// position alone would skip the item that moved there.
#[test]
fn a_source_behind_with_nothing_consumed_is_reloaded_without_a_loss() {
    let mut env = helm_behind_kapp();
    let mut p = env.pager();
    let mut shown = env.page(&mut p).items;
    env.fakes[0].insert(item("helm.packages", "team-a", "a0", "bitnami"));
    let mut p = env.resume(&p);
    shown.extend(env.page(&mut p).items);
    let mut p = env.resume(&p);
    env.fakes[0].down = Some(501);
    let page = env.page(&mut p);
    assert_eq!(page.unreachable.len(), 1);
    shown.extend(page.items);
    let st = &p.state().sources[0];
    assert!(st.behind && st.watermark.is_none());
    assert_eq!((st.chunk_token.as_str(), st.offset), ("", 1));
    env.fakes[0].delete("a0");
    env.fakes[0].down = None;
    let mut p = env.resume(&p);
    for pg in drain(&mut env, &mut p, 20) {
        shown.extend(pg.items);
    }
    let mut all: Vec<String> = shown.iter().map(|i| i.name.clone()).collect();
    all.sort();
    assert_eq!(all, ["b", "c", "m", "n", "x", "y"], "each item once");
}

#[test]
fn an_apiserver_refusing_a_list_with_400_sets_that_source_aside_and_the_others_go_on() {
    // A selector the apiserver cannot parse: 400 BadRequest on every request, whatever its
    // continue token. The Kubernetes source (kapp) is set aside at once; the others list on.
    let mut env = Env::new(three(6), 50, 4);
    env.fakes[2].down = Some(400);
    let mut p = env.pager();
    let pages = drain(&mut env, &mut p, 20);
    let last = pages.last().unwrap();
    assert!(last.done, "the list ends but for the refused source");
    assert_eq!(last.unreachable.len(), 1);
    let u = &last.unreachable[0];
    assert_eq!((u.source_index, u.status), (2, 400));
    assert_eq!(u.cause, UnreachableCause::FailedForGood);
    assert_eq!(env.fakes[2].requests, 1, "asked once, not again and again");
    let shown: usize = pages.iter().map(|pg| pg.items.len()).sum();
    assert_eq!(shown, 12, "helm's and flux's items, all of them");
}
