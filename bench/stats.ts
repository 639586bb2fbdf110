// Small statistics and formatting helpers for the benchmark tables.

/** Linear-interpolated quantile (q in 0..1) of a non-empty list. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN
  const xs = [...values].sort((a, b) => a - b)
  const pos = (xs.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  return xs[lo]! + (xs[hi]! - xs[lo]!) * (pos - lo)
}

export const median = (values: readonly number[]): number => quantile(values, 0.5)

export interface Summary {
  n: number
  median: number
  p10: number
  p90: number
  min: number
  max: number
}

export function summarize(values: readonly number[]): Summary {
  return {
    n: values.length,
    median: median(values),
    p10: quantile(values, 0.1),
    p90: quantile(values, 0.9),
    min: Math.min(...values),
    max: Math.max(...values)
  }
}

/** Milliseconds: `12.3 ms` below 10 s, else seconds (`12.3 s`), minutes past 10 min. */
export function ms(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return String(value)
  const abs = Math.abs(value)
  if (abs < 10_000) return `${value.toFixed(digits)} ms`
  if (abs < 600_000) return `${(value / 1000).toFixed(digits)} s`
  return `${(value / 60_000).toFixed(digits)} min`
}

/** Seconds with a fixed number of decimals. */
export const sec = (valueMs: number, digits = 2): string => `${(valueMs / 1000).toFixed(digits)} s`

export const mib = (bytes: number, digits = 1): string =>
  `${(bytes / 1024 / 1024).toFixed(digits)} MiB`

export const pct = (ratio: number, digits = 0): string => `${(ratio * 100).toFixed(digits)}%`

/** `median (p10–p90)` of a summary, formatted with `f`. */
export function spread(s: Summary, f: (v: number) => string): string {
  return `${f(s.median)} (${f(s.p10)} – ${f(s.p90)})`
}

/** A duration for tables: whole ms below 10 s, seconds with two decimals above. */
export const dur = (valueMs: number): string =>
  Math.abs(valueMs) < 10_000 ? `${Math.round(valueMs)} ms` : `${(valueMs / 1000).toFixed(2)} s`
