// A smoke case's expectations held to a run's end: its status (success by default), text it must
// contain, and a value at a path (`a.b[0]`) or the whole output that must equal a given one.
import type { SmokeExpect } from '../../inputs/smoke-cases.ts'
import type { RunEnd } from './run-end.ts'

/** Why the run misses `expect`, or undefined when it meets it. */
export function expectationMiss(expect: SmokeExpect, run: RunEnd): string | undefined {
  const wanted = expect.status ?? 'success'
  if (run.status !== wanted)
    return wanted === 'success'
      ? 'the run ended in an error'
      : 'the run succeeded, an error was expected'
  if (expect.contains !== undefined && !containsText(run, expect.contains))
    return `the output does not contain ${JSON.stringify(expect.contains)}`
  if (expect.path === undefined && !('equals' in expect)) return undefined
  const found = expect.path === undefined ? { value: run.output } : valueAt(run.output, expect.path)
  if (found === undefined) return `the output has nothing at ${expect.path}`
  if ('equals' in expect && !deepEqual(found.value, expect.equals))
    return `${expect.path ?? 'the output'} is ${short(found.value)}, not ${short(expect.equals)}`
  return undefined
}

/** In the text as shown, or in any text value of the output (JSON escapes aside). */
function containsText(run: RunEnd, text: string): boolean {
  if (run.text.includes(text)) return true
  const stack: unknown[] = [run.output]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v === 'string' && v.includes(text)) return true
    if (typeof v === 'object' && v !== null) stack.push(...Object.values(v))
  }
  return false
}

/** The value at `a.b[0].c`, or undefined when the path leads nowhere. */
export function valueAt(root: unknown, path: string): { value: unknown } | undefined {
  let v: unknown = root
  for (const [, key, index] of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (index !== undefined) {
      if (!Array.isArray(v) || Number(index) >= v.length) return undefined
      v = v[Number(index)]
    } else {
      if (typeof v !== 'object' || v === null || !Object.hasOwn(v, key!)) return undefined
      v = (v as Record<string, unknown>)[key!]
    }
  }
  return { value: v }
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  return ka.every(k => Object.hasOwn(b, k) && deepEqual((a as never)[k], (b as never)[k]))
}

const short = (v: unknown): string => {
  const t = JSON.stringify(v) ?? String(v)
  return t.length > 80 ? `${t.slice(0, 79)}…` : t
}
