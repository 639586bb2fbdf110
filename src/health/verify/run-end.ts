// How a `POST /runs/wait` answer ended: 200 with the final values, or `{"__error__": ...}` when the
// run raised (only a 2xx JSON answer is read so: smoke.ts).
import { jsonOf } from './agent-call.ts'

export interface RunEnd {
  /** `error`: the run failed (`__error__` in the answer, or a status of 400 or more). */
  status: 'success' | 'error'
  /** The final values (or the error), as JSON. */
  output: unknown
  /** The output as text: a text output as it is, anything else as JSON. */
  text: string
}

/** How a `/runs/wait` answer ended. */
export function runOf(status: number, body: string): RunEnd {
  const parsed = jsonOf(body)
  const error =
    typeof parsed === 'object' && parsed !== null && '__error__' in parsed
      ? (parsed as { __error__: unknown }).__error__
      : undefined
  if (error !== undefined) return { status: 'error', output: error, text: JSON.stringify(error) }
  const output = parsed === undefined ? body : parsed
  const text = typeof output === 'string' ? output : JSON.stringify(output)
  return { status: status >= 400 ? 'error' : 'success', output, text }
}
