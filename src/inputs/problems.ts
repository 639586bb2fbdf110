// How a check reports a problem. One idea throughout: a check is a plain function
// `(value, fail) => result`; it calls `fail(message)` for each problem it finds (as many as it
// finds) and `field()` turns it into a zod field whose value is INVALID as soon as `fail` was
// called, whatever the check returned. A check therefore keeps no `ok` flag of its own: it may go
// on after a problem to report the next one, and returns `fail(...)` (INVALID) only to stop early.
// INVALID then marks that input for the cross-field checks, which skip it.
import { z } from 'zod'
import type { InputName } from './names.ts'
import type { InputProblem } from './options.ts'

/** Size caps, in bytes of UTF-8. */
export const MAX_INPUT_BYTES = 64 * 1024
export const MAX_DOCUMENT_BYTES = 1024 * 1024

const DOCUMENT_INPUTS: ReadonlySet<InputName> = new Set([
  'secrets',
  'secret-references',
  'resource-spec'
])

export const INVALID: unique symbol = Symbol('invalid input')
export type Invalid = typeof INVALID
export type Fail = (message: string) => Invalid

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
    : `${Math.ceil(bytes / 1024)} KiB`
}

/**
 * A zod field for one input: caps its size, trims single-line inputs, passes `''` for an empty
 * input to `check`, and turns every `fail` into an issue at this input.
 */
export function field<T>(input: InputName, check: (value: string, fail: Fail) => T | Invalid) {
  const cap = DOCUMENT_INPUTS.has(input) ? MAX_DOCUMENT_BYTES : MAX_INPUT_BYTES
  return z.string().transform((value, ctx): T | Invalid => {
    const bytes = Buffer.byteLength(value, 'utf8')
    if (bytes > cap) {
      ctx.addIssue({
        code: 'custom',
        message: `\`${input}\` is ${sizeText(bytes)}; at most ${sizeText(cap)} is accepted`
      })
      return INVALID
    }
    let failed = false
    const result = check(value.trim(), message => {
      failed = true
      ctx.addIssue({ code: 'custom', message })
      return INVALID
    })
    return failed ? INVALID : result
  })
}

/** All bad inputs in one message: the first line counts them, then one line each. */
export function renderProblems(problems: InputProblem[]): string {
  const head =
    problems.length === 1 ? 'One input is not valid:' : `${problems.length} inputs are not valid:`
  return [head, ...problems.map(p => `- ${p.input}: ${p.message}`)].join('\n')
}
