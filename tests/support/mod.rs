//! Test support shared by `tests/cases.rs`, `tests/model.rs` and
//! `examples/model_long_run.rs`: a referee backend ([`sim`]), reference
//! oracles for the filter and the order ([`oracle`]), a driver that runs a
//! pager against the backend and checks every invariant ([`harness`]), and the
//! generator of random runs ([`model`]).
// Each test crate uses a different part of this module.
#![allow(dead_code)]

pub mod harness;
pub mod model;
pub mod oracle;
pub mod sim;

/// How a resumed pager is rebuilt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResumeFrom {
    /// `Pager::resume(pager.page_token())`: through the token codec, as a browser reload does.
    Token,
    /// `Pager::from_state(pager.state())`: the in-memory state, for while the codec is missing.
    State,
}

/// The one switch: `Token` once the codec is merged. `PAGER_RESUME_FROM=state` overrides it
/// for a run (and also skips the page-token checks that need the codec).
pub const RESUME_FROM: ResumeFrom = ResumeFrom::Token;

/// [`RESUME_FROM`], or the `PAGER_RESUME_FROM` override.
pub fn resume_from() -> ResumeFrom {
    static FROM: std::sync::OnceLock<ResumeFrom> = std::sync::OnceLock::new();
    *FROM.get_or_init(|| match std::env::var("PAGER_RESUME_FROM").as_deref() {
        Ok("state") => ResumeFrom::State,
        Ok("token") => ResumeFrom::Token,
        _ => RESUME_FROM,
    })
}
