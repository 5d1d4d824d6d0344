//! A custom predicate (`PagerOptions::predicate`, `Pager::feed_judged`): the caller's verdicts
//! replace the pager's rules for the sources it filters, and only for those.

use super::*;

/// The caller's rule in these tests: an item passes when its short description says "keep".
fn keep(i: &ItemFields) -> bool {
    i.short_description.contains("keep")
}

/// Answers `req` from its fake, feeding each item's verdict by `rule` (for every source: the
/// pager reads them only for the sources it judges).
fn answer_judged(
    env: &mut Env,
    p: &mut Pager<ItemFields>,
    req: ChunkRequest,
    rule: fn(&ItemFields) -> bool,
) {
    let fake = &mut env.fakes[req.source_index];
    match fake.serve(&req) {
        Ok(chunk) => {
            let verdicts: Vec<bool> = chunk.items.iter().map(|(_, item)| rule(item)).collect();
            assert_eq!(
                p.feed_judged(req.request_id, chunk, &verdicts)
                    .expect("feed"),
                FeedOutcome::Accepted
            );
        }
        Err(f) => assert_ne!(p.fail(req.request_id, f).expect("fail"), FailOutcome::Stale),
    }
}

fn page_judged(
    env: &mut Env,
    p: &mut Pager<ItemFields>,
    rule: fn(&ItemFields) -> bool,
) -> Page<ItemFields> {
    env.page_by(p, |env, p, r| answer_judged(env, p, r, rule))
}

/// helm filters itself (by `server_rule`: the query in the name or repository); kapp, a plain
/// Kubernetes list, and my.plugin are filtered by the pager. Descriptions say which to keep.
fn three_sources() -> Env {
    let mut helm = Fake::new(
        Kind::Offset,
        "helm.packages",
        "kubeapps",
        &[("apache", "bitnami"), ("mysql", "db"), ("redis", "db")],
    );
    helm.side = FilterSide::Source;
    let mut kapp = Fake::new(
        Kind::K8s,
        "kapp_controller.packages",
        "kubeapps",
        &[
            ("contour", "tce"),
            ("db-operator", "tce"),
            ("dbx", "tce"),
            ("harbor", "tce"),
        ],
    );
    let mut mine = Fake::new(
        Kind::Offset,
        "my.plugin",
        "kubeapps",
        &[
            ("alpha", "r"),
            ("beta-db", "r"),
            ("gamma", "r"),
            ("zeta", "r"),
        ],
    );
    for f in [&mut helm, &mut kapp, &mut mine] {
        for i in &mut f.items {
            if matches!(
                i.name.as_str(),
                "apache" | "contour" | "dbx" | "gamma" | "zeta"
            ) {
                i.short_description = "keep".into();
            }
        }
    }
    let mut env = Env::new(vec![helm, kapp, mine], 20, 2);
    env.options.filter.query = "db".into();
    env.options.predicate = Some("keep-v1".into());
    env
}

#[test]
fn verdicts_replace_the_rules_for_the_sources_the_pager_filters() {
    let mut env = three_sources();
    let mut p = env.pager();
    assert!(!p.judges(0) && p.judges(1) && p.judges(2));
    for r in p.next_requests() {
        // The source that filters is still sent the filter; the others none.
        assert_eq!(r.filter.is_some(), r.source_index == 0, "{r:?}");
        answer_judged(&mut env, &mut p, r, keep);
    }
    let page = page_judged(&mut env, &mut p, keep);
    // helm: what it matched for "db" (mysql, redis), whatever the verdicts (apache is kept by the
    // rule but helm never answered it). kapp and my.plugin: what the predicate keeps, whatever
    // the query ("db-operator" and "beta-db" match the query; the predicate drops them).
    assert_eq!(
        names(&page),
        ["contour", "dbx", "gamma", "mysql", "redis", "zeta"]
    );
    assert!(page.done);
    // Every predicate rejection is counted, by source.
    let out: Vec<u64> = page.stats.sources.iter().map(|s| s.filtered_out).collect();
    assert_eq!(out, [0, 2, 2]);
    // `plugins` stays the pager's rule, over the predicate's verdicts too.
    env.options.filter.plugins = vec!["helm.packages".into(), "my.plugin".into()];
    let mut p = env.pager();
    let page = page_judged(&mut env, &mut p, keep);
    assert_eq!(names(&page), ["gamma", "mysql", "redis", "zeta"]);
}

#[test]
fn a_source_that_filters_itself_ignores_the_verdicts() {
    let mut env = three_sources();
    let mut p = env.pager();
    // Every verdict false: only the source that filters itself shows anything.
    let page = page_judged(&mut env, &mut p, |_| false);
    assert_eq!(names(&page), ["mysql", "redis"]);
    assert_eq!(page.stats.total().filtered_out, 8);
}

#[test]
fn without_a_predicate_the_rules_apply_and_verdicts_are_not_read() {
    let mut env = three_sources();
    env.options.predicate = None;
    let mut p = env.pager();
    assert!(!p.judges(1));
    let page = page_judged(&mut env, &mut p, |_| false);
    // The pager's rules for kapp and my.plugin: "db" in name, description or identifier.
    assert_eq!(
        names(&page),
        ["beta-db", "db-operator", "dbx", "mysql", "redis"]
    );
}

#[test]
fn a_judged_chunk_needs_one_verdict_per_item_and_a_refusal_changes_nothing() {
    let mut env = three_sources();
    let mut p = env.pager();
    let reqs = p.next_requests();
    let kapp = reqs
        .iter()
        .find(|r| r.source_index == 1)
        .expect("kapp asked")
        .clone();
    let chunk = env.fakes[1].serve(&kapp).expect("an answer");
    let token = p.page_token().expect("encodes");
    let stats = p.stats().clone();
    for verdicts in [None, Some(vec![true]), Some(vec![true; 3])] {
        let got = match &verdicts {
            None => p.feed(kapp.request_id, chunk.clone()),
            Some(v) => p.feed_judged(kapp.request_id, chunk.clone(), v),
        };
        let e = got.expect_err("refused");
        assert_eq!(e.code(), "INVALID_RESPONSE", "{verdicts:?}");
        assert_eq!(
            e.details()["source"],
            "kapp_controller.packages/default/kubeapps"
        );
        assert_eq!(p.page_token().expect("encodes"), token);
        assert_eq!(p.stats(), &stats);
        assert!(p.awaits(kapp.request_id), "the request is still in flight");
    }
    // The same answer with its verdicts is taken; a source that filters itself needs none.
    assert_eq!(
        p.feed_judged(kapp.request_id, chunk, &[true, false]),
        Ok(FeedOutcome::Accepted)
    );
    let helm = reqs
        .iter()
        .find(|r| r.source_index == 0)
        .expect("helm asked")
        .clone();
    let chunk = env.fakes[0].serve(&helm).expect("an answer");
    assert_eq!(p.feed(helm.request_id, chunk), Ok(FeedOutcome::Accepted));
    assert!(!p.awaits(helm.request_id));
}

#[test]
fn the_predicate_id_binds_the_token() {
    let mut env = three_sources();
    env.options.page_size = 2;
    let mut p = env.pager();
    let first = page_judged(&mut env, &mut p, keep);
    assert_eq!(names(&first), ["contour", "dbx"]);
    let token = first.next_page_token.clone();
    let mut other = env.options.clone();
    for id in [Some("keep-v2"), None] {
        other.predicate = id.map(Into::into);
        let e = Pager::<ItemFields>::resume(&token, other.clone()).err();
        assert_eq!(e.map(|e| e.code()), Some("FILTER_MISMATCH"), "{id:?}");
        let e = Pager::<ItemFields>::from_state(p.state(), other.clone()).err();
        assert_eq!(e.map(|e| e.code()), Some("FILTER_MISMATCH"), "{id:?}");
    }
    // And a token minted without a predicate does not resume under one.
    other.predicate = None;
    let plain = Pager::<ItemFields>::new(other)
        .expect("valid")
        .page_token()
        .expect("encodes");
    let e = Pager::<ItemFields>::resume(&plain, env.options.clone()).err();
    assert_eq!(e.map(|e| e.code()), Some("FILTER_MISMATCH"));
    // Under the same id it resumes, and the rest comes once, judged.
    let mut shown = names_of(&first);
    let mut p = Pager::resume(&token, env.options.clone()).expect("same id");
    loop {
        let page = page_judged(&mut env, &mut p, keep);
        shown.extend(names_of(&page));
        if page.done {
            break;
        }
        p = Pager::resume(&page.next_page_token, env.options.clone()).expect("same id");
    }
    assert_eq!(shown, ["contour", "dbx", "gamma", "mysql", "redis", "zeta"]);
}

#[test]
fn changed_and_re_read_items_get_the_predicates_verdict() {
    // A tie-able source the pager filters: each continuation re-reads the tie group of the last
    // item read; the items' descriptions change between reads.
    let names: Vec<String> = seq("pkg-", 12);
    let refs: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "r")).collect();
    let mut f = Fake::new(Kind::Offset, "my.plugin", "kubeapps", &refs);
    for i in &mut f.items {
        i.short_description = "keep".into();
    }
    let mut env = Env::new(vec![f], 3, 3);
    env.options.predicate = Some("keep".into());
    let mut p = env.pager();
    assert_eq!(
        names_of(&page_judged(&mut env, &mut p, keep)),
        ["pkg-000", "pkg-001", "pkg-002"]
    );
    // Not yet shown: pkg-003 and pkg-004 (read already, buffered) and pkg-007 change. The
    // buffered ones keep the verdict they had when read; pkg-007, read after the change, is
    // judged as it is now.
    for i in &mut env.fakes[0].items {
        if matches!(i.name.as_str(), "pkg-004" | "pkg-007") {
            i.short_description = "drop".into();
        }
    }
    let mut shown = Vec::new();
    loop {
        let page = page_judged(&mut env, &mut p, keep);
        shown.extend(names_of(&page));
        if page.done {
            break;
        }
    }
    assert!(!shown.contains(&"pkg-007".to_string()), "{shown:?}");
    assert!(shown.contains(&"pkg-008".to_string()), "{shown:?}");
    // Resumed from the start, every item is read again and judged as it is now.
    let mut p = env.pager();
    let mut all = Vec::new();
    loop {
        let page = page_judged(&mut env, &mut p, keep);
        all.extend(names_of(&page));
        if page.done {
            break;
        }
    }
    let want: Vec<String> = names
        .iter()
        .filter(|n| !matches!(n.as_str(), "pkg-004" | "pkg-007"))
        .cloned()
        .collect();
    assert_eq!(all, want);
}

#[test]
fn an_empty_predicate_id_is_invalid_options() {
    let mut env = three_sources();
    env.options.predicate = Some(String::new());
    let e = Pager::<ItemFields>::new(env.options.clone())
        .err()
        .expect("refused");
    assert_eq!(e.code(), "INVALID_OPTIONS");
    assert_eq!(e.details()["field"], "predicate.id");
}
