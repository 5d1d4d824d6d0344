//! Prints the pager's collation sort key of each line of stdin, in hex, one per line: what
//! `bench/collation-pg.mjs` compares a database's `ORDER BY` with (the first component of a
//! collated merge key, [`kubeapps_pager::SortKey::primary`], without its escaping).
//!
//! `cargo run --example collation_keys -- [root|en] < names.txt`

use std::io::{BufRead, Write};

use kubeapps_pager::Collation;

fn main() {
    let locale = std::env::args().nth(1).unwrap_or_else(|| "root".into());
    let collation = Collation::from_locale(&locale).unwrap_or_else(|| {
        eprintln!("unknown locale {locale:?}: root or en");
        std::process::exit(2)
    });
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin is UTF-8 text");
        let mut key = Vec::new();
        collation.write_sort_key(&line, &mut key);
        let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
        writeln!(out, "{hex}").expect("stdout");
    }
}
