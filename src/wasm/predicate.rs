//! A custom predicate (`PagerOptions.predicate`, `{ id, matches }`): read apart from the other
//! options by `predicate.js` (`matches` is a function, which their JSON reading refuses), its id
//! handed to the core ([`PagerOptions::predicate`]), its function kept in JS for `readChunk`,
//! which calls it on every item of a chunk of a source the pager filters; the core takes the
//! verdicts ([`Pager::feed_judged`](crate::Pager::feed_judged)).

use crate::prelude::*;
use wasm_bindgen::prelude::*;

use super::convert::to_js;
use super::errors::{js, JsResult};
use crate::options::PagerOptions;

#[wasm_bindgen(module = "/src/wasm/predicate.js")]
extern "C" {
    /// `readPredicate`'s answer: `{ options, id?, matches? }`.
    pub(crate) type Predicate;
    #[wasm_bindgen(catch, js_name = readPredicate)]
    fn read_predicate(options: &JsValue) -> JsResult<Option<Predicate>>;
    #[wasm_bindgen(method, getter)]
    fn options(this: &Predicate) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn id(this: &Predicate) -> Option<String>;
    #[wasm_bindgen(js_name = makeJudges)]
    fn make_judges(
        predicate: &Predicate,
        sources: &JsValue,
        labels: &JsValue,
        judged: &str,
    ) -> JsValue;
}

/// Checked core options from a JS value, and its custom predicate if it has one (`predicate`
/// read apart, the other members as `options::options_from_js` reads them). `INVALID_OPTIONS`
/// names what did not fit (`predicate.id`, `predicate.matches`…).
pub(crate) fn options_from_js(value: &JsValue) -> JsResult<(PagerOptions, Option<Predicate>)> {
    let Some(predicate) = read_predicate(value)? else {
        return Ok((super::options::options_from_js(value)?, None));
    };
    let mut options = super::options::options_from_js(&predicate.options())?;
    options.predicate = predicate.id();
    if options.predicate.is_none() {
        return Ok((options, None));
    }
    js(options.validate())?;
    Ok((options, Some(predicate)))
}

/// `readChunk`'s judges (`makeJudges`): per source, the predicate where it judges that source's
/// items ([`Pager::judges`](crate::Pager::judges)), else null; `undefined` without a predicate.
pub(crate) fn judges<T: Clone>(
    core: &crate::Pager<T>,
    predicate: Option<&Predicate>,
    labels: &JsValue,
) -> JsValue {
    let Some(predicate) = predicate else {
        return JsValue::UNDEFINED;
    };
    let sources = &core.options().sources;
    let mut judged = String::new();
    for i in 0..sources.len() {
        judged.push(if core.judges(i) { '1' } else { '0' });
    }
    let ids: Vec<&crate::SourceId> = sources.iter().map(|s| &s.id).collect();
    make_judges(predicate, &to_js(&ids), labels, &judged)
}
