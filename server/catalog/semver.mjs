// Semantic versions as Kubeapps reads them (Masterminds/semver: an optional "v", minor
// and patch may be missing, build metadata ignored in comparisons).

const RE = /^v?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/;

/** Parses a version; null when it is not semver. */
export function parseSemver(s) {
  const m = RE.exec(String(s).trim());
  if (!m) return null;
  return {
    major: Number(m[1]), minor: Number(m[2] ?? 0), patch: Number(m[3] ?? 0),
    pre: m[4] ? m[4].split(".") : [],
  };
}

function comparePre(a, b) {
  if (a.length === 0 || b.length === 0) return b.length - a.length; // release > prerelease
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) {
      if (Number(x) !== Number(y)) return Number(x) - Number(y);
    } else if (nx !== ny) {
      return nx ? -1 : 1; // numeric identifiers sort below alphanumeric ones
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return a.length - b.length;
}

/** Compares two parsed versions (<0, 0, >0). */
export function compareSemver(a, b) {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch || comparePre(a.pre, b.pre);
}

/** The highest of some version strings (non-semver ones ignored); undefined when none parse. */
export function highest(versions) {
  let best;
  let bestParsed;
  for (const v of versions) {
    const p = parseSemver(v);
    if (p && (!bestParsed || compareSemver(p, bestParsed) > 0)) {
      best = v;
      bestParsed = p;
    }
  }
  return best;
}
