// Durations as users write them in workflow files (`90s`, `15m`, `1h30m`, plain seconds `600`)
// and as the action prints them in logs (`1h30m`, `2m05s`).

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** Hours, minutes and seconds in this order, each optional, at least one present. */
const UNITS = /^(?:(\d{1,15})h)?(?:(\d{1,15})m)?(?:(\d{1,15})s)?$/i
const PLAIN_SECONDS = /^\d{1,15}$/

/**
 * Milliseconds of `90s`, `15m`, `1h`, `1h30m`, `2h15m30s` or plain seconds (`600`); units are
 * case-insensitive. `undefined` for anything else: empty text, a sign, a fraction, spaces inside,
 * words (`10 minutes`), or a value too large to be exact. Zero (`0`, `0s`) parses to 0: whether
 * zero makes sense is the caller's decision.
 */
export function parseDuration(text: string): number | undefined {
  const t = text.trim()
  if (t === '') return undefined
  let ms: number
  if (PLAIN_SECONDS.test(t)) {
    ms = Number(t) * SECOND
  } else {
    const m = UNITS.exec(t)
    if (!m) return undefined
    const [, h, min, s] = m
    if (h === undefined && min === undefined && s === undefined) return undefined
    ms = Number(h ?? 0) * HOUR + Number(min ?? 0) * MINUTE + Number(s ?? 0) * SECOND
  }
  return Number.isSafeInteger(ms) ? ms : undefined
}

const pad = (n: number): string => String(n).padStart(2, '0')

/**
 * Short human text for logs: `45s`, `2m05s`, `30m`, `1h`, `1h30m`, `1h02m05s`; under a second
 * `250ms`; zero, negative or not a number `0s`. Rounded to whole seconds from one second up.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0s'
  if (Math.round(ms) < SECOND) return `${Math.max(1, Math.round(ms))}ms`
  const total = Math.round(ms / SECOND)
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  if (h > 0) return `${h}h` + (m > 0 || s > 0 ? `${pad(m)}m` : '') + (s > 0 ? `${pad(s)}s` : '')
  if (m > 0) return `${m}m` + (s > 0 ? `${pad(s)}s` : '')
  return `${s}s`
}

const DAY = 24 * HOUR
const DAYS = /^(\d{1,6})d(.*)$/i

/**
 * `parseDuration` with days in front (`7d`, `1d12h`): an age, longer than any wait. The same
 * rules otherwise; `undefined` for anything else.
 */
export function parseAge(text: string): number | undefined {
  const t = text.trim()
  const m = DAYS.exec(t)
  if (!m) return parseDuration(t)
  const rest = m[2] === '' ? 0 : parseDuration(m[2]!)
  if (rest === undefined || /^\d+$/.test(m[2]!)) return undefined
  const ms = Number(m[1]) * DAY + rest
  return Number.isSafeInteger(ms) ? ms : undefined
}

/** An age for the log: `7d`, `2d03h`, or `formatDuration` under a day. */
export function formatAge(ms: number): string {
  if (!Number.isFinite(ms) || ms < DAY) return formatDuration(ms)
  const days = Math.floor(ms / DAY)
  const hours = Math.floor((ms % DAY) / HOUR)
  return hours > 0 ? `${days}d${pad(hours)}h` : `${days}d`
}
