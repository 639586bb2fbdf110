// How a check reports a problem: one collector, so that every bad input is reported at once.
// `return fail(...)` stops early; a check that goes on reports the next problem too. A failed
// input's value is `undefined` whatever its check returned: nothing downstream takes it as real.
import { DOCUMENT_INPUTS, type InputName } from '../interface/names.ts'
import type { Say } from '../interface/naming.ts'

/** One bad input: which one and what is expected of it. */
export interface InputProblem {
  input: string
  message: string
}

/** Size caps, in bytes of UTF-8. */
export const MAX_INPUT_BYTES = 64 * 1024
export const MAX_DOCUMENT_BYTES = 1024 * 1024

const DOCUMENTS: ReadonlySet<InputName> = new Set(DOCUMENT_INPUTS)

/** Records one problem at the check's input; `undefined` so that a check can `return fail(...)`. */
export type Fail = (message: string) => undefined
/** One input's check: its value, or `undefined` when not set (or after `fail`). */
export type Check<T> = (value: string, fail: Fail) => T | undefined

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
    : `${Math.ceil(bytes / 1024)} KiB`
}

/** Every problem found, in order, and the inputs they were found at. */
export class InputProblems {
  readonly #list: InputProblem[] = []
  readonly #failed = new Set<InputName>()
  readonly #say: Say

  constructor(say: Say) {
    this.#say = say
  }

  add(input: InputName, message: string): undefined {
    this.#list.push({ input, message })
    this.#failed.add(input)
    return undefined
  }

  /** One input through its check, its size capped; `undefined` when it reported any problem. */
  check<T>(input: InputName, value: string, check: Check<T>): T | undefined {
    const cap = DOCUMENTS.has(input) ? MAX_DOCUMENT_BYTES : MAX_INPUT_BYTES
    const bytes = Buffer.byteLength(value, 'utf8')
    if (bytes > cap) {
      return this.add(
        input,
        `${this.#say(input)} is ${sizeText(bytes)}; at most ${sizeText(cap)} is accepted`
      )
    }
    const before = this.#list.length
    // A check names its own input first, by its YAML name: said here as the user set it.
    const own = `\`${input}\``
    const named = this.#say(input)
    const result = check(value.trim(), message =>
      this.add(input, message.startsWith(own) ? named + message.slice(own.length) : message)
    )
    return this.#list.length > before ? undefined : result
  }

  failed(): ReadonlySet<InputName> {
    return new Set(this.#failed)
  }

  get list(): readonly InputProblem[] {
    return this.#list
  }
}

/** All bad inputs in one message: the first line counts the inputs, then one line per problem. */
export function renderProblems(problems: InputProblem[], say: Say): string {
  const inputs = new Set(problems.map(p => p.input)).size
  const head = inputs === 1 ? 'One input is not valid:' : `${inputs} inputs are not valid:`
  return [head, ...problems.map(p => `- ${say.bare(p.input as InputName)}: ${p.message}`)].join(
    '\n'
  )
}
