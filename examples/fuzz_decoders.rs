//! In-tree fuzzer for every token decoder (no nightly toolchain needed).
//!
//! ```text
//! cargo run --profile fuzz --example fuzz_decoders -- --iterations 10000000 --seed 1
//! ```
//!
//! Mutation-based: it starts from valid tokens of each kind (page tokens of 0,
//! 3 and 64 sources and near the 8 KiB limit, continue tokens, Kubeapps core
//! tokens and offsets, the field cases' broken tokens) and applies one to four
//! random edits: characters replaced by base64 digits or any byte, inserted,
//! deleted, duplicated, truncations, splices of two seeds, and pure random
//! text. Structure-aware edits reach past the integrity check: a page token's
//! frame is decoded, its bytes edited (bits, "interesting" bytes, varints,
//! insertions, deletions) and its CRC-32 recomputed; a continue token's JSON
//! is edited and re-encoded.
//!
//! Each input goes to `base64url::decode`, `PageToken::decode`,
//! `ContinueToken::decode`, `CoreToken::decode`, `PluginOffset::decode` and
//! `inspect_token`, each under `catch_unwind`. The harness stops at the first
//! panic, printing the input. A counting global allocator measures every call:
//! the bytes it requests in total (each `realloc` counted at its full new
//! size) must stay within
//!
//! ```text
//! ALLOC_FACTOR * max(input length, 8 KiB) = 16 * max(n, 8192) bytes
//! ```
//!
//! (page-token decoding reads at most 8 KiB of text, so 128 KiB for any
//! input). Why 16: the decoded frame is at most 6 KiB (3/4 of 8 KiB of
//! base64), and every string of the token is rebuilt from its own bytes of
//! it. The costliest form is a continue token stored as (rv, start): the key
//! (L bytes), its JSON (at most 6L + 57, each byte a `\u0000` escape, sized
//! once) and the base64 text (4/3 of the JSON) come to at most 15L + 150
//! bytes, with L under 6 KiB: 90 KiB. The rest is small beside it: the frame,
//! the sources vector (at most 64 x 248 bytes), known plugin names (1 byte for
//! 24) and the watermark's copies of its source's names. The other decoders
//! allocate a few times their input (JSON keys and values, entry vectors).
//! Decoded page tokens are also re-encoded and must decode to the same state.

use std::alloc::{GlobalAlloc, Layout, System};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use kubeapps_pager::token::{
    base64url, inspect_token, ContinueToken, CoreToken, PageToken, PluginOffset, SourceState,
    Watermark,
};
use kubeapps_pager::{Identity, PagerError, SourceId};

/// Allocation bound per call, as a multiple of max(input length, 8 KiB).
const ALLOC_FACTOR: usize = 16;
const MAX_TOKEN_LEN: usize = 8 * 1024;

// ---------------------------------------------------------------------------
// A counting allocator: live bytes, the peak since the last reset, and the
// total requested since the last reset.

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static REQUESTED: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwards the caller's contract to the system allocator.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size(), layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwards the caller's contract to the system allocator.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwards the caller's contract to the system allocator.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size(), layout.size());
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwards the caller's contract to the system allocator.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Relaxed);
            grew(new_size, new_size);
        }
        p
    }
}

fn grew(live: usize, requested: usize) {
    let now = LIVE.fetch_add(live, Relaxed) + live;
    PEAK.fetch_max(now, Relaxed);
    REQUESTED.fetch_add(requested, Relaxed);
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f`, returning whether it panicked, the bytes it requested in total
/// and its peak of live bytes above the start.
fn measured(f: impl FnOnce()) -> (bool, usize, usize) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    REQUESTED.store(0, Relaxed);
    let panicked = panic::catch_unwind(AssertUnwindSafe(f)).is_err();
    let requested = REQUESTED.load(Relaxed);
    let peak = PEAK.load(Relaxed).saturating_sub(base);
    (panicked, requested, peak)
}

// ---------------------------------------------------------------------------
// A small deterministic PRNG (SplitMix64).

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=";
const INTERESTING_BYTES: &[u8] = &[
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x0F, 0x10, 0x40, 0x41, 0x7F, 0x80, 0xFE, 0xFF,
];
const ODD_TEXT: &[&str] = &[
    " ",
    "\n",
    "\t",
    "=",
    "==",
    "\u{a0}",
    "\0",
    "é",
    "😀",
    "\u{2028}",
    "{",
    "}",
    "\"",
    ":",
    ",",
    "-1",
    "-",
    "+",
    "/",
    "..",
    "\\u0000",
    "null",
    "1e3",
    "9223372036854775808",
];

// ---------------------------------------------------------------------------
// Seeds.

fn mark(plugin: &str, name: &str) -> Option<Watermark> {
    Some(Watermark {
        sort_key: name.into(),
        identity: Identity {
            plugin: plugin.into(),
            cluster: "default".into(),
            namespace: "kubeapps".into(),
            identifier: format!("bitnami/{name}"),
        },
    })
}

fn source(plugin: &str, chunk_token: String, watermark: Option<Watermark>) -> SourceState {
    SourceState {
        source: SourceId::new(plugin, "default", "kubeapps"),
        chunk_token,
        offset: 3,
        watermark,
        resource_version: "123456".into(),
        exhausted: false,
        inconsistent: false,
        behind: false,
        anchors: Vec::new(),
        late_watermark: None,
    }
}

fn seeds() -> Vec<String> {
    let plugins = [
        "helm.packages",
        "fluxv2.packages",
        "kapp_controller.packages",
    ];
    let k8s = |i: usize| {
        ContinueToken::new(123_456, format!("kubeapps/package-{i}\0"))
            .encode()
            .unwrap_or_default()
    };
    let mut pages = vec![
        PageToken {
            fingerprint: 1,
            page_size: 10,
            sources: vec![],
        },
        PageToken {
            fingerprint: 0x0123_4567_89ab_cdef,
            page_size: 25,
            sources: plugins
                .iter()
                .enumerate()
                .map(|(i, p)| source(p, k8s(i), mark(p, &format!("pkg-{i}"))))
                .collect(),
        },
        PageToken {
            fingerprint: 2,
            page_size: 3,
            sources: vec![
                source(
                    "my.plugin",
                    "+RID:~kubeapps/pkg-b==#RT:1#TRC:10".into(),
                    None,
                ),
                source("helm.packages", "17".into(), mark("other", "\0😀")),
                source("fluxv2.packages", base64url::encode(&[0xFF; 40]), None),
            ],
        },
        PageToken {
            fingerprint: 3,
            page_size: 100,
            sources: (0..64)
                .map(|i| source(plugins[i % 3], (i * 7).to_string(), None))
                .collect(),
        },
        PageToken {
            fingerprint: 4,
            page_size: 1,
            sources: vec![source(
                "helm.packages",
                "#".repeat(5900),
                mark("helm.packages", "x"),
            )],
        },
    ];
    // A continue token whose key is all NULs: the costliest form to rebuild.
    pages.push(PageToken {
        fingerprint: 5,
        page_size: 1,
        sources: vec![source(
            "kapp_controller.packages",
            ContinueToken::new(-1, "\0".repeat(5000))
                .encode()
                .unwrap_or_default(),
            None,
        )],
    });
    let mut seeds: Vec<String> = pages.iter().filter_map(|p| p.encode().ok()).collect();
    seeds.extend([
        k8s(0),
        "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6Imt1YmVhcHBzL3BrZy1jXHUwMDAwIn0"
            .into(),
        "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0Ijoia3ViZWFwcHMvcGtnLWNcdTAwMDAifQ".into(),
        r#"{"helm.packages":10,"fluxv2.packages":-1,"kapp_controller.packages":0}"#.into(),
        "{}".into(),
        "0".into(),
        "17".into(),
        "-1".into(),
        "2147483647".into(),
        "eyJoZWxtLnBhY2thZ2VzIjp7".into(),
        "not a token!".into(),
        "K1JJRDp-a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMA".into(),
    ]);
    seeds
}

// ---------------------------------------------------------------------------
// Mutations.

fn random_text(rng: &mut Rng) -> String {
    let len = if rng.chance(3) {
        rng.below(MAX_TOKEN_LEN + 1024)
    } else {
        rng.below(200)
    };
    match rng.below(3) {
        0 => (0..len).map(|_| char::from(*rng.pick(DIGITS))).collect(),
        1 => (0..len)
            .map(|_| char::from((rng.below(95) + 32) as u8))
            .collect(),
        _ => (0..len)
            .map(|_| char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('\u{FFFD}'))
            .collect(),
    }
}

fn edit_bytes(rng: &mut Rng, bytes: &mut Vec<u8>, other: &[u8], text: bool) {
    let len = bytes.len();
    match rng.below(9) {
        0 if len > 0 => {
            let at = rng.below(len);
            bytes[at] = if text {
                *rng.pick(DIGITS)
            } else {
                bytes[at] ^ (1 << rng.below(8))
            };
        }
        1 if len > 0 => {
            let at = rng.below(len);
            bytes[at] = if rng.chance(50) {
                *rng.pick(INTERESTING_BYTES)
            } else {
                rng.next() as u8
            };
        }
        2 => {
            let at = rng.below(len + 1);
            let insert: Vec<u8> = if text && rng.chance(60) {
                rng.pick(ODD_TEXT).as_bytes().to_vec()
            } else {
                (0..rng.below(4) + 1)
                    .map(|_| *rng.pick(INTERESTING_BYTES))
                    .collect()
            };
            bytes.splice(at..at, insert);
        }
        3 if len > 0 => {
            let at = rng.below(len);
            let end = (at + rng.below(8) + 1).min(len);
            bytes.drain(at..end);
        }
        4 => bytes.truncate(rng.below(len + 1)),
        5 => {
            let cut = rng.below(len + 1);
            let from = rng.below(other.len() + 1);
            bytes.truncate(cut);
            bytes.extend_from_slice(&other[from..]);
        }
        6 if len > 0 => {
            let at = rng.below(len);
            let end = (at + rng.below(32) + 1).min(len);
            let copy = bytes[at..end].to_vec();
            let to = rng.below(len + 1);
            bytes.splice(to..to, copy);
        }
        7 if len > 0 => {
            // A varint-looking run: long, or with the top bits set.
            let at = rng.below(len);
            let run: Vec<u8> = (0..rng.below(11) + 1)
                .map(|_| 0x80 | rng.next() as u8)
                .collect();
            bytes.splice(at..at, run.into_iter().chain([rng.below(0x80) as u8]));
        }
        _ if len > 0 => {
            let at = rng.below(len);
            bytes[at] = bytes[at].wrapping_add(1);
        }
        _ => bytes.push(rng.next() as u8),
    }
}

/// Edits a page token inside its frame and fixes the check, so the edit
/// reaches the payload reader.
fn edit_frame(rng: &mut Rng, token: &str, other: &[u8]) -> Option<String> {
    let mut frame = base64url::decode(token).ok()?;
    if frame.len() < 5 {
        return None;
    }
    frame.truncate(frame.len() - 4);
    for _ in 0..rng.below(3) + 1 {
        edit_bytes(rng, &mut frame, other, false);
    }
    if !rng.chance(5) && !frame.is_empty() {
        frame[0] = 1;
    }
    let check = crc32fast::hash(&frame);
    frame.extend_from_slice(&check.to_le_bytes());
    Some(base64url::encode(&frame))
}

/// Edits a continue token's JSON and re-encodes it.
fn edit_json(rng: &mut Rng, token: &str, other: &[u8]) -> Option<String> {
    let mut json = base64url::decode(token).ok()?;
    for _ in 0..rng.below(3) + 1 {
        edit_bytes(rng, &mut json, other, true);
    }
    Some(base64url::encode(&json))
}

fn next_input(rng: &mut Rng, seeds: &[String]) -> String {
    if rng.chance(4) {
        return random_text(rng);
    }
    let seed = rng.pick(seeds);
    let other = rng.pick(seeds).as_bytes();
    match rng.below(10) {
        0..=2 => {
            if let Some(t) = edit_frame(rng, seed, other) {
                return t;
            }
        }
        3 => {
            if let Some(t) = edit_json(rng, seed, other) {
                return t;
            }
        }
        _ => {}
    }
    let mut bytes = seed.as_bytes().to_vec();
    for _ in 0..rng.below(4) + 1 {
        edit_bytes(rng, &mut bytes, other, true);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

// ---------------------------------------------------------------------------
// The run.

const DECODERS: [&str; 6] = [
    "base64url",
    "page",
    "continue",
    "kubeappsCore",
    "kubeappsOffset",
    "inspect",
];

#[derive(Default, Clone, Copy)]
struct Tally {
    accepted: u64,
    rejected: u64,
    max_requested: usize,
    max_peak: usize,
    /// Largest (requested bytes / max(input, 8 KiB)) seen, in hundredths.
    max_ratio_pct: usize,
}

fn reason_of<T>(r: &Result<T, PagerError>) -> &'static str {
    match r {
        Ok(_) => "ok",
        Err(PagerError::InvalidPageToken { reason, .. })
        | Err(PagerError::InvalidContinueToken { reason, .. })
        | Err(PagerError::InvalidKubeappsToken { reason, .. }) => reason.as_str(),
        Err(_) => "other",
    }
}

thread_local! {
    static LAST_PANIC: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

struct Args {
    iterations: u64,
    seed: u64,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        iterations: 1_000_000,
        seed: 1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let n: u64 = value
            .parse()
            .map_err(|_| format!("{flag}: not a number: {value}"))?;
        match flag.as_str() {
            "--iterations" => args.iterations = n,
            "--seed" => args.seed = n,
            _ => return Err(format!("unknown flag {flag} (use --iterations N --seed S)")),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    // Panics are reported by the harness with the input that caused them.
    panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|p| *p.borrow_mut() = info.to_string())
    }));
    let seeds = seeds();
    let mut rng = Rng(args.seed);
    let mut tallies = [Tally::default(); 6];
    let mut page_faults: std::collections::BTreeMap<&'static str, u64> = Default::default();
    let mut longest = 0usize;
    let started = Instant::now();

    for i in 0..args.iterations {
        let input = next_input(&mut rng, &seeds);
        longest = longest.max(input.len());
        let bound = ALLOC_FACTOR * input.len().max(MAX_TOKEN_LEN);
        let mut page_result = None;
        let runs: [&mut dyn FnMut() -> bool; 6] = [
            &mut || base64url::decode(&input).is_ok(),
            &mut || {
                let r = PageToken::decode(&input);
                let ok = r.is_ok();
                page_result = Some(r);
                ok
            },
            &mut || ContinueToken::decode(&input).is_ok(),
            &mut || CoreToken::decode(&input).is_ok(),
            &mut || PluginOffset::decode(&input).is_ok(),
            &mut || {
                !matches!(
                    inspect_token(&input),
                    kubeapps_pager::token::TokenInfo::Invalid { .. }
                )
            },
        ];
        for (d, run) in runs.into_iter().enumerate() {
            let mut ok = false;
            let (panicked, requested, peak) = measured(|| ok = run());
            if panicked {
                let message = LAST_PANIC.with(|p| p.borrow().clone());
                eprintln!(
                    "PANIC in {} decoder, iteration {i}, seed {}: input {input:?}",
                    DECODERS[d], args.seed
                );
                eprintln!("{message}");
                return ExitCode::FAILURE;
            }
            if requested > bound {
                eprintln!(
                    "ALLOCATION {requested} bytes > bound {bound} in {} decoder, iteration {i}: input {input:?}",
                    DECODERS[d]
                );
                return ExitCode::FAILURE;
            }
            let t = &mut tallies[d];
            if ok {
                t.accepted += 1;
            } else {
                t.rejected += 1;
            }
            t.max_requested = t.max_requested.max(requested);
            t.max_peak = t.max_peak.max(peak);
            t.max_ratio_pct = t
                .max_ratio_pct
                .max(requested * 100 / input.len().max(MAX_TOKEN_LEN));
        }
        if let Some(r) = page_result {
            *page_faults.entry(reason_of(&r)).or_default() += 1;
            // What decodes must re-encode to a token of the same state.
            if let Ok(token) = r {
                let again = token.encode().and_then(|t| PageToken::decode(&t));
                if again.as_ref() != Ok(&token) {
                    eprintln!("ROUND TRIP differs at iteration {i}: input {input:?}");
                    return ExitCode::FAILURE;
                }
            }
        }
        if (i + 1) % 1_000_000 == 0 {
            eprintln!("{} inputs, {:.1} s", i + 1, started.elapsed().as_secs_f64());
        }
    }

    let secs = started.elapsed().as_secs_f64();
    println!(
        "fuzz_decoders: {} inputs, seed {}, {secs:.1} s, no panic",
        args.iterations, args.seed
    );
    println!("longest input: {longest} bytes; allocation bound: {ALLOC_FACTOR} x max(input, 8 KiB) requested per call");
    println!(
        "size_of::<SourceState>() = {} bytes",
        std::mem::size_of::<SourceState>()
    );
    println!("| decoder | accepted | rejected | max requested | max live peak | max requested / max(n, 8 KiB) |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, t) in DECODERS.iter().zip(tallies) {
        println!(
            "| {name} | {} | {} | {} B | {} B | {}.{:02} |",
            t.accepted,
            t.rejected,
            t.max_requested,
            t.max_peak,
            t.max_ratio_pct / 100,
            t.max_ratio_pct % 100
        );
    }
    println!("page-token outcomes: {page_faults:?}");
    ExitCode::SUCCESS
}
