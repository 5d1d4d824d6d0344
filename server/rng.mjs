// A small seeded PRNG (mulberry32): the same seed gives the same catalog, shuffles and churn.

/** Returns a function giving floats in [0, 1) from a 32-bit seed. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [0, n). */
export function randInt(rand, n) {
  return Math.floor(rand() * n);
}

/** One element of a non-empty array. */
export function pick(rand, arr) {
  return arr[randInt(rand, arr.length)];
}

/** A shuffled copy (Fisher-Yates). */
export function shuffled(rand, arr) {
  const out = arr.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = randInt(rand, i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A 32-bit FNV-1a hash of a string, for stable per-name choices. */
export function hash32(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
