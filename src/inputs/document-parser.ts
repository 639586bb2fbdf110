// The one parser of the YAML/JSON document inputs (limits on nesting, aliases and size, duplicate
// keys refused), so every one is read, limited and masked alike; then their schema, unknown keys
// refused. Loaded only when one is set (documents.ts), given the client's zod model.
import { z } from 'zod'
import { isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml'
import type { Document } from 'yaml'
import type { Model } from '../control-plane/load-schema.ts'
import type { SecretReference } from '../control-plane/schema.ts'
import type { ResourceSpec } from '../control-plane/resource-spec.ts'
import { RESERVED_SECRET_NAMES } from '../control-plane/vocabulary.ts'
import { ENV_NAME, type InputName } from '../interface/names.ts'
import { nestingMayExceed } from './nesting.ts'
import type { Fail } from './problems.ts'
import { lineColumn } from './text.ts'

/** Deepest nesting of a YAML/JSON input (the top-level object or list is depth 1). */
export const MAX_DOCUMENT_DEPTH = 32
/** Aliases a YAML input may expand: a few are handy, thousands are an attack. */
export const MAX_YAML_ALIASES = 100

/** Depth of nested objects and lists, without recursion; stops counting past `limit`. */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]]
  let visited = 0
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number]
    if (typeof node !== 'object' || node === null) continue
    if (depth > limit || ++visited > 1_000_000) return true
    for (const child of Object.values(node)) stack.push([child, depth + 1])
  }
  return false
}

/** The first key set twice in one mapping (as the JS object would see it), without recursion. */
function firstDuplicateKey(doc: Document): { key: string; offset: number } | undefined {
  const stack: unknown[] = [doc.contents]
  while (stack.length > 0) {
    const node = stack.pop()
    if (isMap(node)) {
      const keys = new Set<string>()
      for (const pair of node.items) {
        if (isScalar(pair.key)) {
          const key = String(pair.key.value)
          if (keys.has(key)) return { key, offset: pair.key.range?.[0] ?? 0 }
          keys.add(key)
        }
        stack.push(pair.key, pair.value)
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(isPair(item) ? item.value : item)
    }
  }
  return undefined
}

/** How a document input words a text that does not parse and a key set twice. */
export interface SyntaxMessages {
  /** `where`: ` at line L, column C` or `''`; `reason`: the parser's first line. */
  notParsed(where: string, reason: string): string
  /** `where`: `line L, column C`. */
  duplicateKey(key: string, where: string): string
}

const syntaxMessages = (input: InputName): SyntaxMessages => ({
  notParsed: (where, reason) => `\`${input}\` is not valid YAML or JSON${where}: ${reason}`,
  duplicateKey: (key, where) =>
    `\`${input}\` has the key ${key} twice (${where}): a later value would silently replace the first`
})

/** A YAML (or JSON) document, checked; `undefined` after `fail` (an empty one is `null`). */
export function parseDocumentInput(
  input: InputName,
  v: string,
  fail: Fail,
  messages: SyntaxMessages = syntaxMessages(input)
): unknown {
  if (nestingMayExceed(v, 2 * MAX_DOCUMENT_DEPTH)) {
    return fail(`\`${input}\` is nested too deeply: at most ${MAX_DOCUMENT_DEPTH} levels`)
  }
  let value: unknown
  try {
    // yaml's own unique-key check compares every pair of keys: a big map takes it many seconds.
    const doc = parseDocument(v, { uniqueKeys: false })
    const error = doc.errors[0]
    if (error !== undefined) {
      const position = error.linePos?.[0]
      const where = position ? ` at line ${position.line}, column ${position.col}` : ''
      const reason =
        error.code === 'RESOURCE_EXHAUSTION'
          ? 'it is too large or nested too deeply'
          : (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')
      return fail(messages.notParsed(where, reason))
    }
    const duplicate = firstDuplicateKey(doc)
    if (duplicate !== undefined) {
      return fail(messages.duplicateKey(duplicate.key, lineColumn(v, duplicate.offset)))
    }
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES })
  } catch (error) {
    const text = error instanceof ReferenceError ? error.message : ''
    return fail(
      /unresolved alias/i.test(text)
        ? `\`${input}\` uses a YAML alias (*name) whose anchor (&name) is not set before it`
        : /alias/i.test(text)
          ? `\`${input}\` expands too many YAML aliases (at most ${MAX_YAML_ALIASES})`
          : `\`${input}\` could not be read as YAML or JSON`
    )
  }
  if (depthExceeds(value, MAX_DOCUMENT_DEPTH)) {
    return fail(`\`${input}\` is nested too deeply: at most ${MAX_DOCUMENT_DEPTH} levels`)
  }
  return value
}

/** Where each item of a top-level list starts, for messages that name a place, not its text. */
export function itemPlaces(v: string): string[] {
  const list = parseDocument(v, { uniqueKeys: false }).contents
  if (!isSeq(list)) return []
  return list.items.map(item => {
    const offset = (item as { range?: [number, number, number] } | null)?.range?.[0]
    return offset === undefined ? '' : lineColumn(v, offset)
  })
}

/** Keys that a zod object schema would silently drop, as paths (`sidecars[0].imge`). */
function unknownKeys(schema: z.ZodType, value: unknown, path: string, into: string[]): void {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    unknownKeys(schema.unwrap() as z.ZodType, value, path, into)
  } else if (schema instanceof z.ZodArray && Array.isArray(value)) {
    value.forEach((item, i) =>
      unknownKeys(schema.element as z.ZodType, item, `${path}[${i}]`, into)
    )
  } else if (
    schema instanceof z.ZodObject &&
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value)
  ) {
    const shape = schema.shape as Record<string, z.ZodType>
    for (const [key, child] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`
      const known = Object.hasOwn(shape, key) ? shape[key] : undefined
      if (known === undefined) into.push(at)
      else unknownKeys(known, child, at, into)
    }
  }
}

/** Zod issues of a document as `path: message` lines. */
function issuePaths(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map(issue => {
    const path = issue.path
      .map((key, i) =>
        typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`
      )
      .join('')
    return `${path === '' ? 'the document' : path}: ${issue.message}`
  })
}

/** A document that must match `schema`, its unknown keys rejected with their names. */
function parseWithSchema<T>(
  input: InputName,
  v: string,
  schema: z.ZodType<T>,
  shapeText: string,
  fail: Fail
): T | undefined {
  const value = parseDocumentInput(input, v, fail)
  if (value === undefined) return undefined
  const unknown: string[] = []
  unknownKeys(schema, value, '', unknown)
  if (unknown.length > 0) {
    fail(
      `\`${input}\` has unknown keys, which would be ignored: ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', ...' : ''}`
    )
  }
  const result = schema.safeParse(value)
  if (!result.success) {
    const typeError = result.error.issues.find(i => i.path.length === 0)
    if (typeError !== undefined) {
      return fail(`\`${input}\` must be ${shapeText}`)
    }
    for (const line of issuePaths(result.error.issues).slice(0, 10)) fail(`\`${input}\` ${line}`)
  }
  // `undefined` after any problem: the caller checks the list further only when it is sound.
  return unknown.length === 0 && result.success ? result.data : undefined
}

export function parseSecretReferences(
  model: Model,
  v: string,
  fail: Fail
): SecretReference[] | undefined {
  const input = 'secret-references'
  if (v === '') return undefined
  const list = parseWithSchema(
    input,
    v,
    z.array(model.SecretReference),
    'a YAML or JSON list of {name, secret_name, secret_key}',
    fail
  )
  if (list === undefined) return undefined
  const seen = new Set<string>()
  list.forEach((ref, i) => {
    const problem = (message: string) => fail(`\`${input}\` [${i}]: ${message}`)
    if (!ENV_NAME.test(ref.name)) {
      problem(
        '`name` must look like an environment variable name (letters, digits and underscores, not starting with a digit)'
      )
    } else if (seen.has(ref.name)) {
      problem(`${ref.name} is listed more than once`)
    } else if ((RESERVED_SECRET_NAMES as readonly string[]).includes(ref.name)) {
      problem(`${ref.name} is reserved by the platform`)
    }
    seen.add(ref.name)
    if (ref.secret_name.trim() === '') problem('`secret_name` must not be empty')
    if (ref.secret_key.trim() === '') problem('`secret_key` must not be empty')
  })
  return list
}

export function parseResourceSpec(model: Model, v: string, fail: Fail): ResourceSpec | undefined {
  return v === ''
    ? undefined
    : parseWithSchema(
        'resource-spec',
        v,
        model.ResourceSpec,
        'a YAML or JSON object of resource settings (min_scale, cpu, memory_mb, ...)',
        fail
      )
}
