// zod issues -> FastAPI/pydantic-style HTTPValidationError entries.
import type { z } from 'zod'
import type { ValidationErrorEntry } from '../src/control-plane/schema.ts'

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

function describe(issue: Issue, location: Location, input: unknown): Omit<Entry, 'loc'> {
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
    case 'too_big': {
      const max = Number(issue.maximum)
      if (issue.origin === 'string') {
        return {
          type: 'string_too_long',
          msg: `String should have at most ${max} characters`,
          input: value,
          ctx: { max_length: max }
        }
      }
      if (issue.origin === 'array') {
        return {
          type: 'too_long',
          msg: `List should have at most ${max} items`,
          input: value,
          ctx: { max_length: max }
        }
      }
      return issue.inclusive
        ? {
            type: 'less_than_equal',
            msg: `Input should be less than or equal to ${max}`,
            input: value,
            ctx: { le: max }
          }
        : {
            type: 'less_than',
            msg: `Input should be less than ${max}`,
            input: value,
            ctx: { lt: max }
          }
    }
    case 'too_small': {
      const min = Number(issue.minimum)
      if (issue.origin === 'string') {
        return {
          type: 'string_too_short',
          msg: `String should have at least ${min} character${min === 1 ? '' : 's'}`,
          input: value,
          ctx: { min_length: min }
        }
      }
      if (issue.origin === 'array') {
        return {
          type: 'too_short',
          msg: `List should have at least ${min} items`,
          input: value,
          ctx: { min_length: min }
        }
      }
      return issue.inclusive
        ? {
            type: 'greater_than_equal',
            msg: `Input should be greater than or equal to ${min}`,
            input: value,
            ctx: { ge: min }
          }
        : {
            type: 'greater_than',
            msg: `Input should be greater than ${min}`,
            input: value,
            ctx: { gt: min }
          }
    }
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
      return fromText
        ? {
            type: 'bool_parsing',
            msg: 'Input should be a valid boolean, unable to interpret input',
            input: value
          }
        : { type: 'bool_type', msg: 'Input should be a valid boolean', input: value }
    case 'unrecognized_keys':
      return { type: 'extra_forbidden', msg: 'Extra inputs are not permitted', input: value }
    case 'invalid_type':
      switch (issue.expected) {
        case 'string':
          return { type: 'string_type', msg: 'Input should be a valid string', input: value }
        case 'int':
          return typeof value === 'number'
            ? {
                type: 'int_from_float',
                msg: 'Input should be a valid integer, got a number with a fractional part',
                input: value
              }
            : { type: 'int_type', msg: 'Input should be a valid integer', input: value }
        case 'number':
          return fromText
            ? {
                type: 'float_parsing',
                msg: 'Input should be a valid number, unable to parse string as a number',
                input: value
              }
            : { type: 'float_type', msg: 'Input should be a valid number', input: value }
        case 'boolean':
          return fromText
            ? {
                type: 'bool_parsing',
                msg: 'Input should be a valid boolean, unable to interpret input',
                input: value
              }
            : { type: 'bool_type', msg: 'Input should be a valid boolean', input: value }
        case 'array':
          return { type: 'list_type', msg: 'Input should be a valid list', input: value }
        case 'record':
          return { type: 'dict_type', msg: 'Input should be a valid dictionary', input: value }
        case 'object':
          return {
            type: 'model_attributes_type',
            msg: 'Input should be a valid dictionary or object to extract fields from',
            input: value
          }
        default:
          return {
            type: `${issue.expected}_type`,
            msg: `Input should be a valid ${issue.expected}`,
            input: value
          }
      }
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
