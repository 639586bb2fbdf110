// zod issues -> FastAPI/pydantic-style HTTPValidationError entries.
import type { z } from 'zod'
import type { ValidationErrorEntry } from '../../src/control-plane/schema.ts'

export type Location = 'body' | 'query' | 'path' | 'header'

type Issue = z.core.$ZodIssue
type Key = string | number

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur = input
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<PropertyKey, unknown>)[key]
  }
  return cur
}

function hasKey(input: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return input !== undefined
  const parent = valueAt(input, path.slice(0, -1))
  return parent !== null && typeof parent === 'object' && path[path.length - 1]! in parent
}

/** pydantic's way of listing choices: `'a', 'b' or 'c'`. */
export function choices(values: readonly unknown[]): string {
  const quoted = values.map(v => (typeof v === 'string' ? `'${v}'` : String(v)))
  if (quoted.length <= 1) return quoted.join('')
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`
}

function uuidMessage(value: unknown): string {
  if (typeof value !== 'string') return 'UUID input should be a string, bytes or UUID object'
  const compact = value.replace(/-/g, '')
  const bad = [...value].findIndex(c => !/[0-9a-fA-F-]/.test(c))
  if (bad >= 0) {
    return `Input should be a valid UUID, invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${value[bad]}\` at ${bad + 1}`
  }
  if (compact.length !== 32) {
    return `Input should be a valid UUID, invalid length: expected length 32 for simple format, found ${compact.length}`
  }
  return 'Input should be a valid UUID, invalid group count: expected 5, found 1'
}

const isIntegerText = (v: unknown) => typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)

type Entry = Omit<ValidationErrorEntry, 'loc'> & { loc: Key[] }
type Described = Omit<Entry, 'loc'>

/** pydantic's words for a bound: its error type, its message, and the name of its `ctx` key. */
interface Bound {
  type: string
  msg: (limit: number) => string
  ctx: string
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** For each bound issue, by what is bounded: a string's length, a list's, or a number (le/lt, ge/gt). */
const BOUNDS: Record<
  'too_big' | 'too_small',
  Record<'string' | 'array' | 'inclusive' | 'exclusive', Bound>
> = {
  too_big: {
    string: {
      type: 'string_too_long',
      msg: n => `String should have at most ${n} characters`,
      ctx: 'max_length'
    },
    array: { type: 'too_long', msg: n => `List should have at most ${n} items`, ctx: 'max_length' },
    inclusive: {
      type: 'less_than_equal',
      msg: n => `Input should be less than or equal to ${n}`,
      ctx: 'le'
    },
    exclusive: { type: 'less_than', msg: n => `Input should be less than ${n}`, ctx: 'lt' }
  },
  too_small: {
    string: {
      type: 'string_too_short',
      msg: n => `String should have at least ${plural(n, 'character')}`,
      ctx: 'min_length'
    },
    array: {
      type: 'too_short',
      msg: n => `List should have at least ${n} items`,
      ctx: 'min_length'
    },
    inclusive: {
      type: 'greater_than_equal',
      msg: n => `Input should be greater than or equal to ${n}`,
      ctx: 'ge'
    },
    exclusive: { type: 'greater_than', msg: n => `Input should be greater than ${n}`, ctx: 'gt' }
  }
}

function outOfBounds(
  issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall,
  value: unknown
): Described {
  const limit = Number(issue.code === 'too_big' ? issue.maximum : issue.minimum)
  const bounded: keyof (typeof BOUNDS)['too_big'] =
    issue.origin === 'string'
      ? 'string'
      : issue.origin === 'array'
        ? 'array'
        : issue.inclusive
          ? 'inclusive'
          : 'exclusive'
  const bound = BOUNDS[issue.code][bounded]
  return { type: bound.type, msg: bound.msg(limit), input: value, ctx: { [bound.ctx]: limit } }
}

/** pydantic's error for a value of the wrong type: `[type, msg]`, or one for a body value and one for query/path text. */
type TypeWords = readonly [string, string]
const TYPE_ERRORS: Record<string, TypeWords | { body: TypeWords; text: TypeWords }> = {
  string: ['string_type', 'Input should be a valid string'],
  number: {
    body: ['float_type', 'Input should be a valid number'],
    text: ['float_parsing', 'Input should be a valid number, unable to parse string as a number']
  },
  boolean: {
    body: ['bool_type', 'Input should be a valid boolean'],
    text: ['bool_parsing', 'Input should be a valid boolean, unable to interpret input']
  },
  array: ['list_type', 'Input should be a valid list'],
  record: ['dict_type', 'Input should be a valid dictionary'],
  object: [
    'model_attributes_type',
    'Input should be a valid dictionary or object to extract fields from'
  ]
}

function wrongType(expected: string, value: unknown, fromText: boolean): Described {
  if (expected === 'int') {
    return typeof value === 'number'
      ? {
          type: 'int_from_float',
          msg: 'Input should be a valid integer, got a number with a fractional part',
          input: value
        }
      : { type: 'int_type', msg: 'Input should be a valid integer', input: value }
  }
  const known = TYPE_ERRORS[expected]
  const [type, msg] =
    known === undefined
      ? [`${expected}_type`, `Input should be a valid ${expected}`]
      : 'body' in known
        ? known[fromText ? 'text' : 'body']
        : known
  return { type, msg, input: value }
}

function describe(issue: Issue, location: Location, input: unknown): Described {
  const path = issue.path
  const value = valueAt(input, path)
  const fromText = location !== 'body'

  if (issue.code === 'invalid_type' && !hasKey(input, path)) {
    const parent = path.length === 0 ? null : valueAt(input, path.slice(0, -1))
    return { type: 'missing', msg: 'Field required', input: parent ?? null }
  }
  // Query and path values are text: anything that does not read as an integer is int_parsing.
  if (
    fromText &&
    (issue.code === 'too_big' || issue.code === 'too_small' || issue.code === 'invalid_type')
  ) {
    const numeric =
      issue.code === 'invalid_type'
        ? ['number', 'int'].includes(issue.expected)
        : issue.origin === 'number'
    if (numeric && !isIntegerText(value)) {
      return {
        type: 'int_parsing',
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: value
      }
    }
  }
  switch (issue.code) {
    case 'too_big':
    case 'too_small':
      return outOfBounds(issue, value)
    case 'invalid_value': {
      const expected = choices(issue.values)
      return { type: 'enum', msg: `Input should be ${expected}`, input: value, ctx: { expected } }
    }
    case 'invalid_format':
      if (issue.format === 'guid' || issue.format === 'uuid') {
        return { type: 'uuid_parsing', msg: uuidMessage(value), input: value }
      }
      return {
        type: 'string_pattern_mismatch',
        msg: `String should match pattern '${issue.format}'`,
        input: value
      }
    case 'invalid_union':
      // The only union of the model is the query boolean.
      return wrongType('boolean', value, fromText)
    case 'unrecognized_keys':
      return { type: 'extra_forbidden', msg: 'Extra inputs are not permitted', input: value }
    case 'invalid_type':
      return wrongType(issue.expected, value, fromText)
    default:
      return { type: 'value_error', msg: issue.message, input: value }
  }
}

/** FastAPI entries for the issues of one request part (`input` is the raw value of that part). */
export function toValidationErrors(
  issues: readonly Issue[],
  location: Location,
  input: unknown,
  prefix: readonly Key[] = []
): Entry[] {
  return issues.map(issue => ({
    loc: [location, ...prefix, ...(issue.path as Key[])],
    ...describe(issue, location, input)
  }))
}

/** FastAPI's answer to a body that is not JSON. */
export function jsonInvalid(error: unknown, text: string): Entry {
  const message = error instanceof Error ? error.message : String(error)
  const match = /position (\d+)/.exec(message)
  const position = match ? Number(match[1]) : Math.max(0, text.length - 1)
  return {
    loc: ['body', position],
    msg: 'JSON decode error',
    type: 'json_invalid',
    input: {},
    ctx: { error: 'Expecting value' }
  }
}

/** An absent body where one is required. */
export function bodyMissing(): Entry {
  return { loc: ['body'], msg: 'Field required', type: 'missing', input: null }
}
