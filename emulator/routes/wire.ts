// The emulator's side of the wire dialect: requests are read into interface vocabulary before
// routing and answers rendered into the dialect's after, through control-plane/dialect.ts (the one
// table of renames). Nothing else in the emulator knows that there are two dialects.
import {
  locToWire,
  pathFromWire,
  requestFromWire,
  responseToWire,
  valueToWire,
  type Dialect
} from '../../src/control-plane/dialect.ts'
import type { Reply } from '../http/io.ts'
import type { Body } from '../http/io.ts'

export { pathFromWire }

export function bodyFromWire(dialect: Dialect, body: Body): Body {
  return body.kind === 'json' ? { kind: 'json', value: requestFromWire(dialect, body.value) } : body
}

const SOURCE_FIELDS = new Set(['source', 'revision_source'])

/** Free text (a detail, a validation message) with the dialect's names for values and fields. */
function textToWire(dialect: Dialect, text: string): string {
  return text
    .replace(/'([a-z_]+)'/g, (_m, value: string) => `'${valueToWire(dialect, value)}'`)
    .replace(
      /source_revision_config\.([a-z_]+)/g,
      (_m, field: string) =>
        `source_revision_config.${locToWire(dialect, ['source_revision_config', field])[1]}`
    )
}

function entryToWire(dialect: Dialect, entry: unknown): unknown {
  if (entry === null || typeof entry !== 'object') return entry
  const e = entry as Record<string, unknown>
  const loc = Array.isArray(e.loc) ? (e.loc as (string | number)[]) : []
  const out: Record<string, unknown> = { ...e, loc: locToWire(dialect, loc) }
  if (typeof e.msg === 'string') out.msg = textToWire(dialect, e.msg)
  if (typeof e.input === 'string' && SOURCE_FIELDS.has(String(loc.at(-1)))) {
    out.input = valueToWire(dialect, e.input)
  } else if (loc.length === 1 && loc[0] === 'body') {
    out.input = responseToWire(dialect, e.input)
  }
  if (e.ctx && typeof e.ctx === 'object') {
    const ctx = e.ctx as Record<string, unknown>
    out.ctx =
      typeof ctx.expected === 'string'
        ? { ...ctx, expected: textToWire(dialect, ctx.expected) }
        : ctx
  }
  return out
}

/** An answer in interface vocabulary, as the dialect's wire says it. */
export function replyToWire(dialect: Dialect, reply: Reply): Reply {
  if (dialect === 'interface' || reply.body === undefined) return reply
  const body = reply.body as { detail?: unknown } | null
  if (reply.status >= 400 && body && typeof body === 'object' && 'detail' in body) {
    const d = body.detail
    const detail = Array.isArray(d)
      ? d.map(e => entryToWire(dialect, e))
      : typeof d === 'string'
        ? textToWire(dialect, d)
        : d
    return { ...reply, body: { ...body, detail } }
  }
  return { ...reply, body: responseToWire(dialect, reply.body) }
}
