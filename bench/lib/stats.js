// Small statistics over timing samples (milliseconds in, whatever unit out).

/** The q-quantile (0..1) of `samples` by the nearest-rank method; NaN when empty. */
export function quantile(samples, q) {
  if (samples.length === 0) return NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1];
}

export const median = (samples) => quantile(samples, 0.5);
export const p99 = (samples) => quantile(samples, 0.99);
