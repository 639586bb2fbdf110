// Small pure helpers of the transport: URLs, backoff, Retry-After.

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MiB`
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`
  return `${n} bytes`
}

export function formatSeconds(ms: number): string {
  return `${+(ms / 1000).toFixed(1)} s`
}

export function buildUrl(
  baseUrl: string,
  path: string,
  query?: Record<string, string | number | boolean | undefined>
): URL {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path)
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined) url.searchParams.set(k, String(v))
  }
  return url
}

/** Full jitter: a uniform draw below an exponentially growing cap (attempt 1 -> base). */
export function backoffDelay(
  attempt: number,
  baseDelayMs: number,
  maxDelayMs: number,
  random: () => number = Math.random
): number {
  const cap = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(random() * cap)
}

/** `Retry-After` as seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number
): number | undefined {
  const v = Array.isArray(value) ? value[0] : value
  if (v === undefined || v.trim() === '') return undefined
  const text = v.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  if (/^\d+\.\d+$/.test(text)) return Math.round(Number(text) * 1000)
  // Date.parse reads '-5' as a year: only something that looks like an HTTP date counts.
  if (!/[a-z]/i.test(text)) return undefined
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/** Where a redirect points, origin and path: not its query (a token?) nor its credentials. */
export function locationOf(
  location: string | undefined,
  base: string
): { origin: string; path: string } {
  if (!location) return { origin: 'an unnamed location', path: '' }
  const url = URL.parse(location, base)
  return url
    ? { origin: url.origin, path: url.pathname }
    : { origin: 'an unreadable location', path: '' }
}
