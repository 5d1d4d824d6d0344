//! The token decoders' JSON reading (continue tokens' `{"v","rv","start"}` and Kubeapps core
//! tokens' `{"plugin": offset}`), pinned to a recorded corpus.
//!
//! `tests/golden/token_json_outcomes.txt` holds, for every prefix and thousands of one- and
//! two-byte edits of continue-token and core-token JSON (plus hand-picked edge cases), the outcome
//! the crate's former hand-written reader (`src/json.rs`, removed for issue 14) gave: the decoded
//! fields, or the rejection reason (`TokenFault`, the error's `details.reason`). The serde_json
//! reading that replaced it must give the same outcome for every line. Messages are not pinned:
//! a JSON syntax error's message is serde_json's.
//!
//! Regenerate (only when a behaviour change is intended, and say so in the commit):
//! `TOKEN_JSON_RECORD=1 cargo test --test token_json`.
//!
//! Behaviour the corpus pins on purpose (differences from a plain serde_json reading):
//! - an `rv` or offset written with a fraction or an exponent is `malformed` whatever its size
//!   (`1e20` too, and `1e400`): Go cannot read it into an integer field either; only an integer
//!   literal outside the range is `overflow`;
//! - `-0` is `malformed` (not an integer literal Kubernetes or Kubeapps writes);
//! - the values of unknown keys are only checked for syntax (lone surrogate escapes pass, numbers
//!   of any magnitude pass, nesting is unbounded), as Go's decoder skips them.

use kubeapps_pager::token::base64url;
use kubeapps_pager::token::{ContinueToken, CoreToken};
use kubeapps_pager::{PagerError, TokenFault};

const GOLDEN: &str = "tests/golden/token_json_outcomes.txt";

fn reason<T>(r: Result<T, PagerError>) -> Result<T, TokenFault> {
    r.map_err(|e| match e {
        PagerError::InvalidContinueToken { reason, .. }
        | PagerError::InvalidKubeappsToken { reason, .. } => reason,
        other => panic!("not a token error: {other:?}"),
    })
}

/// A continue token's JSON read through `ContinueToken::decode`: `ok <rv> <start as JSON>` or
/// the reason.
fn continue_outcome(json: &str) -> String {
    match reason(ContinueToken::decode(&base64url::encode(json.as_bytes()))) {
        Ok(t) => {
            assert_eq!(t.version, "meta.k8s.io/v1");
            format!("ok {} {}", t.resource_version, quoted(&t.start))
        }
        Err(fault) => fault.as_str().to_owned(),
    }
}

/// A core token read through `CoreToken::decode`: `ok <entries re-encoded>` or the reason.
fn core_outcome(json: &str) -> String {
    match reason(CoreToken::decode(json)) {
        Ok(t) => format!("ok {}", t.encode().expect("a decoded token encodes")),
        Err(fault) => fault.as_str().to_owned(),
    }
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// Bytes that matter to JSON's syntax and to these formats, without digits (edits never make a
/// number literal longer).
const EDITS: &[&str] = &[
    "{", "}", "[", "]", "\"", "\\", ":", ",", " ", "-", ".", "e", "E", "+", "n", "u", "l", "t",
    "r", "f", "a", "s", "v", "\\u", "\\ud800", "\\udc00", "\u{1}", "é", "ſ", "null", "",
];

/// Every prefix, every one-edit (replace, insert, delete) and a sample of two-edit variants.
fn variants(base: &str) -> Vec<String> {
    let chars: Vec<char> = base.chars().collect();
    let at = |i: usize| chars[..i].iter().collect::<String>();
    let from = |i: usize| chars[i..].iter().collect::<String>();
    let mut out = Vec::new();
    for i in 0..=chars.len() {
        out.push(at(i));
        for e in EDITS {
            out.push(format!("{}{e}{}", at(i), from(i)));
            if i < chars.len() {
                out.push(format!("{}{e}{}", at(i), from(i + 1)));
            }
        }
    }
    let singles = out.len();
    for k in 0..singles {
        let v: Vec<char> = out[k * 7919 % singles].chars().collect();
        if v.is_empty() {
            continue;
        }
        let i = k % v.len();
        let e = EDITS[k % EDITS.len()];
        let head: String = v[..i].iter().collect();
        let tail: String = v[i + 1..].iter().collect();
        out.push(format!("{head}{e}{tail}"));
    }
    out
}

const CONTINUE_BASES: &[&str] = &[
    r#"{"v":"meta.k8s.io/v1","rv":100,"start":"kubeapps/pkg-c\u0000"}"#,
    r#" {"V":"meta.k8s.io/v1", "Rv":-1, "x":[1,{"y":null}], "START":"a/b" } "#,
    r#"{"v":"meta.k8s.io/v1","rv":5,"start":"a","start":null,"z":"\ud83d\ude00"}"#,
    r#"{"v":null,"rv":1.5,"start":true}"#,
];

const CORE_BASES: &[&str] = &[
    r#"{"helm.packages":10,"fluxv2.packages":-1}"#,
    r#" { "a" : 0 , "b\u0041" : 2147483647 } "#,
    r#"{"a":-2,"b":1.5,"c":null,"d":"x"}"#,
    "{}",
];

/// Numbers around the ranges' edges, in every way they can be written.
const NUMBERS: &[&str] = &[
    "0", "-0", "1", "-1", "-2", "1.0", "1.5", "1e2", "1E+2", "1e-2", "-1e0", "1e19", "-1e19",
    "1e20", "1.5e20", "-1e20", "1e400", "-1e400", "1e-400", "2147483647", "2147483648",
    "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616",
    "99999999999999999999999", "-99999999999999999999999", "9223372036854775807.0",
    "9223372036854775808e0", "01", "-01", "+1", ".5", "1.", "1e", "-", "0x10",
    "100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
];

/// Edge cases no edit of the bases reaches: numbers, nesting, repeats, escapes, trailing text.
fn extras() -> Vec<(char, String)> {
    let mut out = Vec::new();
    for n in NUMBERS {
        out.push((
            'c',
            format!(r#"{{"v":"meta.k8s.io/v1","rv":{n},"start":"a"}}"#),
        ));
        out.push(('c', format!(r#"{{"v":"meta.k8s.io/v1","rv":{n}"#)));
        out.push((
            'c',
            format!(r#"{{"v":"meta.k8s.io/v1","rv":1,"x":{n},"start":"a"}}"#),
        ));
        out.push((
            'c',
            format!(r#"{{"v":"meta.k8s.io/v1","rv":{n},"rv":1.5,"start":"a"}}"#),
        ));
        out.push(('k', format!(r#"{{"a":{n}}}"#)));
        out.push(('k', format!(r#"{{"a":{n}"#)));
        out.push(('k', format!(r#"{{"a":{n},"b":1.5}}"#)));
        out.push(('k', format!(r#"{{"a":{n},"b":99999999999999999999}}"#)));
    }
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let deep_obj = format!("{}1{}", "{\"a\":".repeat(5_000), "}".repeat(5_000));
    for (kind, json) in [
        (
            'c',
            format!(r#"{{"x":{deep},"v":"meta.k8s.io/v1","rv":1,"start":"a"}}"#),
        ),
        (
            'c',
            format!(r#"{{"x":{deep_obj},"v":"meta.k8s.io/v1","rv":1,"start":"a"}}"#),
        ),
        ('c', format!(r#"{{"x":{}"#, &deep[..deep.len() - 1])),
        ('c', format!(r#"{{"rv":{deep}}}"#)),
        ('k', format!(r#"{{"a":{deep}}}"#)),
        (
            'c',
            r#"{"v":"meta.k8s.io/v1","rv":1,"start":"a","x":"\udc00\ud800"}"#.to_owned(),
        ),
        (
            'c',
            r#"{"v":"meta.k8s.io/v1","rv":1,"start":"\udc00"}"#.to_owned(),
        ),
        (
            'c',
            r#"{"v":"meta.k8s.io/v1","rv":1,"start":"a\ud800"}"#.to_owned(),
        ),
        (
            'c',
            r#"{"v":"meta.k8s.io/v1","rv":1,"start":"a/../b"}"#.to_owned(),
        ),
        (
            'c',
            r#"{"v":"meta.k8s.io/v1","rv":1,"ſtart":"a","ſTART":"b"}"#.to_owned(),
        ),
        (
            'c',
            r#"{"v":"meta.k8s.io/v1","rv":1,"start":"a"} {}"#.to_owned(),
        ),
        (
            'c',
            r#"{"v":"meta.k8s.io/v1","rv":1,"start":"a"},"#.to_owned(),
        ),
        (
            'c',
            r#"{"v":"meta.k8s.io/v2","rv":1,"start":"a"}"#.to_owned(),
        ),
        (
            'c',
            r#"{"v":"meta.k8s.io/v1","rv":0,"start":"a"}"#.to_owned(),
        ),
        (
            'c',
            r#"{"v":"meta.k8s.io/v1","rv":1,"start":""}"#.to_owned(),
        ),
        (
            'c',
            r#"{"v":"meta.k8s.io/v1","RV":1,"rv":null,"start":"a"}"#.to_owned(),
        ),
        (
            'c',
            r#"{"v":"meta.k8s.io/v1","rv":1,"start":"a","\ud800":1}"#.to_owned(),
        ),
        ('c', r#"[]"#.to_owned()),
        ('c', r#""text""#.to_owned()),
        (
            'c',
            "\t\r\n{\"v\":\"meta.k8s.io/v1\",\"rv\":1,\"start\":\"a\"}\n".to_owned(),
        ),
        (
            'c',
            "{\"v\":\"meta.k8s.io/v1\",\"rv\":1,\"start\":\"a\u{0}\"}".to_owned(),
        ),
        (
            'c',
            "{\"v\":\"meta.k8s.io/v1\",\"rv\":1,\"start\":\"a\u{7f}\u{2028}😀\"}".to_owned(),
        ),
        (
            'c',
            "{\"v\":\"meta.k8s.io/v1\",\"rv\":1,\"start\":\"a\"}\u{a0}".to_owned(),
        ),
        ('k', r#"{"a":1,"a":2}"#.to_owned()),
        ('k', r#"{"a":1,"\u0061":2}"#.to_owned()),
        ('k', r#"{"":1}"#.to_owned()),
        ('k', r#"{"a":1} x"#.to_owned()),
        ('k', r#"{"\ud800":1}"#.to_owned()),
        ('k', r#"{"a":"\ud800"}"#.to_owned()),
        ('k', r#"{"a":[1]}"#.to_owned()),
        ('k', r#"{"a":{}}"#.to_owned()),
        ('k', r#"{"a":true}"#.to_owned()),
        ('k', r#"{"a":1,}"#.to_owned()),
        ('k', r#"[1]"#.to_owned()),
        ('k', r#"1"#.to_owned()),
        ('k', r#" "#.to_owned()),
    ] {
        out.push((kind, json));
    }
    out
}

/// The corpus, each input once, in a fixed order: `('c', continue JSON)` or `('k', core JSON)`.
/// `""` is left out of the continue inputs: it is no token at all (`empty`), not JSON cut short.
fn corpus() -> Vec<(char, String)> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let bases = CONTINUE_BASES
        .iter()
        .flat_map(|b| variants(b).into_iter().map(|j| ('c', j)))
        .chain(
            CORE_BASES
                .iter()
                .flat_map(|b| variants(b).into_iter().map(|j| ('k', j))),
        )
        .chain(extras());
    for (kind, json) in bases {
        if kind == 'c' && json.is_empty() {
            continue;
        }
        if seen.insert((kind, json.clone())) {
            out.push((kind, json));
        }
    }
    out
}

fn outcome(kind: char, json: &str) -> String {
    match kind {
        'c' => continue_outcome(json),
        _ => core_outcome(json),
    }
}

/// Each outcome's one-letter code in the golden file; `+` = accepted (listed after the codes).
const CODES: &[(char, &str)] = &[
    ('m', "malformed"),
    ('t', "truncated"),
    ('o', "overflow"),
    ('i', "invalid-field"),
    ('u', "unknown-version"),
    ('n', "not-utf8"),
];

fn code(outcome: &str) -> char {
    if outcome.starts_with("ok ") {
        return '+';
    }
    CODES
        .iter()
        .find(|(_, name)| *name == outcome)
        .map(|(c, _)| *c)
        .unwrap_or_else(|| panic!("no code for outcome {outcome:?}"))
}

/// The golden file's text: the inputs' codes in corpus order, 100 a line, then each accepted
/// outcome once: `<indexes, comma-separated>\t<outcome>`.
fn golden_text(outcomes: &[String]) -> String {
    let mut text = String::from(
        "# tests/token_json.rs: one code per input of its corpus, in order (m malformed, \
         t truncated, o overflow, i invalid-field, u unknown-version, n not-utf8, + accepted: \
         its fields follow the codes, after the indexes of the inputs that give them). \
         Recorded from the hand-written reader removed for issue 14.\n",
    );
    let codes: Vec<char> = outcomes.iter().map(|o| code(o)).collect();
    for chunk in codes.chunks(100) {
        text.extend(chunk);
        text.push('\n');
    }
    // Each accepted outcome once, with the indexes of the inputs that give it.
    let mut accepted: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for (i, o) in outcomes.iter().enumerate() {
        if o.starts_with("ok ") {
            accepted.entry(o).or_default().push(i.to_string());
        }
    }
    for (o, indexes) in accepted {
        text.push_str(&format!("{}\t{o}\n", indexes.join(",")));
    }
    text
}

/// The golden file read back into one outcome per input.
fn parse_golden(text: &str) -> Vec<String> {
    let mut codes = Vec::new();
    let mut accepted = std::collections::HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        match line.split_once('\t') {
            Some((indexes, o)) => {
                for i in indexes.split(',') {
                    accepted.insert(i.parse::<usize>().expect("an index"), o.to_owned());
                }
            }
            None => codes.extend(line.chars()),
        }
    }
    codes
        .iter()
        .enumerate()
        .map(|(i, &c)| match c {
            '+' => accepted
                .get(&i)
                .cloned()
                .expect("an accepted input's fields"),
            c => CODES
                .iter()
                .find(|(k, _)| *k == c)
                .map(|(_, name)| (*name).to_owned())
                .expect("a known code"),
        })
        .collect()
}

#[test]
fn every_input_reads_as_recorded() {
    let corpus = corpus();
    assert!(corpus.len() > 30_000, "{} inputs", corpus.len());
    let outcomes: Vec<String> = corpus.iter().map(|(k, j)| outcome(*k, j)).collect();
    if std::env::var_os("TOKEN_JSON_RECORD").is_some() {
        std::fs::write(GOLDEN, golden_text(&outcomes)).expect("the golden file is written");
        return;
    }
    let golden = std::fs::read_to_string(GOLDEN).expect("the golden file is read");
    let recorded = parse_golden(&golden);
    assert_eq!(
        recorded.len(),
        outcomes.len(),
        "the corpus changed: re-record it"
    );
    let mut differ = Vec::new();
    for (i, (got, want)) in outcomes.iter().zip(&recorded).enumerate() {
        if got != want {
            let (kind, json) = &corpus[i];
            differ.push(format!(
                "  #{i} {kind} {}: got {got}, want {want}",
                quoted(json)
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} inputs read differently, first ones:\n{}",
        differ.len(),
        outcomes.len(),
        differ[..differ.len().min(20)].join("\n")
    );
    // The corpus reaches every outcome.
    for (c, name) in CODES.iter().filter(|(c, _)| *c != 'n') {
        assert!(
            recorded.iter().any(|o| o == name),
            "no input is {name} ({c})"
        );
    }
}

/// The behaviour the module docs list, case by case (each is in the corpus too).
#[test]
fn documented_behaviour() {
    let rv =
        |n: &str| continue_outcome(&format!(r#"{{"v":"meta.k8s.io/v1","rv":{n},"start":"a"}}"#));
    let offset = |n: &str| core_outcome(&format!(r#"{{"a":{n}}}"#));
    for (n, want) in [
        ("7", "ok 7 \"a\""),
        ("-1", "ok -1 \"a\""),
        ("9223372036854775807", "ok 9223372036854775807 \"a\""),
        ("-9223372036854775808", "ok -9223372036854775808 \"a\""),
        // Integer literals outside int64: overflow.
        ("9223372036854775808", "overflow"),
        ("-9223372036854775809", "overflow"),
        ("99999999999999999999999", "overflow"),
        // A fraction or an exponent, whatever the size, and -0: malformed.
        ("1.5", "malformed"),
        ("1e2", "malformed"),
        ("1e20", "malformed"),
        ("-1e20", "malformed"),
        ("1e400", "malformed"),
        ("-0", "malformed"),
        ("0", "invalid-field"),
    ] {
        assert_eq!(rv(n), want, "rv {n}");
    }
    for (n, want) in [
        ("0", "ok {\"a\":0}"),
        ("-1", "ok {\"a\":-1}"),
        ("2147483647", "ok {\"a\":2147483647}"),
        ("2147483648", "overflow"),
        ("-2", "overflow"),
        ("99999999999999999999999", "overflow"),
        ("1e20", "malformed"),
        ("1e400", "malformed"),
        ("1.0", "malformed"),
        ("-0", "malformed"),
    ] {
        assert_eq!(offset(n), want, "offset {n}");
    }
    let c = |json: &str| continue_outcome(json);
    // Go's key matching: case-insensitive, ſ folds to s; the last of repeated keys wins; null
    // leaves a field unset; unknown keys are skipped by their syntax only.
    assert_eq!(
        c(r#"{"V":"meta.k8s.io/v1","Rv":3,"ſtart":"a"}"#),
        "ok 3 \"a\""
    );
    assert_eq!(
        c(r#"{"v":"meta.k8s.io/v1","rv":3,"rv":4,"start":"a","start":null}"#),
        "ok 4 \"a\""
    );
    assert_eq!(
        c(r#"{"v":"meta.k8s.io/v1","rv":3,"start":"a","x":["\udc00",1e999,[[{}]]]}"#),
        "ok 3 \"a\""
    );
    // Strict where the apiserver never writes: lone surrogates, trailing text, cut-short text.
    assert_eq!(
        c(r#"{"v":"meta.k8s.io/v1","rv":3,"start":"\udc00"}"#),
        "malformed"
    );
    assert_eq!(
        c(r#"{"v":"meta.k8s.io/v1","rv":3,"start":"a"} x"#),
        "malformed"
    );
    assert_eq!(
        c(r#"{"v":"meta.k8s.io/v1","rv":3,"start":"a""#),
        "truncated"
    );
    assert_eq!(
        c(r#"{"v":"meta.k8s.io/v1","rv":1.5,"start":"a"#),
        "truncated"
    );
    // Core tokens: a repeated or empty plugin name is refused.
    assert_eq!(core_outcome(r#"{"a":1,"a":2}"#), "invalid-field");
    assert_eq!(core_outcome(r#"{"":1}"#), "invalid-field");
}
