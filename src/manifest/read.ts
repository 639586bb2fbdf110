// The manifest's text -> its agents, checked by its schema (schema.ts) and named by line: every
// problem at once, each with the line it is on, before any request. Pure: the same check reads the
// manifest at a deployed commit (plan: did the entry change?). Its parsers load when a manifest is set.
import type { ErrorObject } from 'ajv'
import { NOT_IN_MANIFEST, manifestSchema } from './schema.ts'

/** An environment's settings as the manifest writes them, by input name. */
export type Settings = Record<string, unknown>

export interface AgentEntry {
  /** The agent's config, as written (from the manifest's folder). */
  config: string
  paths: readonly string[]
  environments: Record<string, Settings>
}

export interface Manifest {
  /** Its path as the input gave it (from the workspace). */
  file: string
  agents: Record<string, AgentEntry>
  /** The line of a place in it (`['agents', 'support', 'config']`); the nearest known above. */
  lineOf(path: readonly string[]): number | undefined
}

/** One problem: where (a line, a path in the file) and what. */
export interface ManifestProblem {
  line: number | undefined
  where: string
  message: string
}

export type ManifestRead = { manifest: Manifest } | { problems: ManifestProblem[] }

/** Problems as lines: `agents.yaml line 7 (agents.support...): what`. */
export function problemLines(file: string, problems: readonly ManifestProblem[]): string[] {
  return problems.map(p => {
    const line = p.line === undefined ? '' : ` line ${p.line}`
    const where = p.where ? ` (${p.where})` : ''
    return `${file}${line}${where}: ${p.message}`
  })
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null }
let validator: Validate | undefined

/** The schema's check, compiled once (ajv is CommonJS: its class is the default or beneath it). */
async function validate(): Promise<Validate> {
  if (validator) return validator
  const mod = (await import('ajv/dist/2020.js')) as unknown as {
    default: (new (o: object) => { compile(s: object): Validate }) & { default?: unknown }
  }
  const Ajv = (mod.default.default ?? mod.default) as typeof mod.default
  validator = new Ajv({ allErrors: true, strict: false }).compile(manifestSchema())
  return validator
}

/** The manifest's text, parsed and checked: its agents, or every problem with its line. */
export async function parseManifest(text: string, file: string): Promise<ManifestRead> {
  const { LineCounter, parseDocument } = await import('yaml')
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true })
  if (doc.errors.length) {
    const problems = doc.errors.map(e => ({
      line: e.linePos?.[0].line,
      where: '',
      message: `is not valid YAML: ${e.message.split('\n')[0]}`
    }))
    return { problems }
  }
  const lineOf = (path: readonly string[]) => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n), true) as { range?: [number] } | undefined
      const pair = n > 0 ? keyOffset(doc, path.slice(0, n)) : undefined
      const offset = pair ?? node?.range?.[0]
      if (offset !== undefined) return lines.linePos(offset).line
    }
    return undefined
  }
  const data: unknown = doc.toJS({})
  const check = await validate()
  if (!check(data)) return { problems: schemaProblems(check.errors ?? [], lineOf) }
  const agents = (data as { agents: Record<string, AgentEntry> }).agents
  for (const a of Object.values(agents)) a.paths ??= []
  return { manifest: { file, agents, lineOf } }
}

/** Where the key of a mapping entry starts, so a line names the key, not its value. */
function keyOffset(doc: { getIn(p: unknown[], keep: true): unknown }, path: readonly string[]) {
  const parent = doc.getIn(path.slice(0, -1), true) as
    { items?: { key?: { value?: unknown; range?: [number] } }[] } | undefined
  const last = path.at(-1)
  return parent?.items?.find(i => String(i.key?.value) === last)?.key?.range?.[0]
}

const code = (s: string) => `\`${s}\``

/** Each schema error in the words of the manifest: what is wrong, at its line. */
function schemaProblems(
  errors: readonly ErrorObject[],
  lineOf: (path: readonly string[]) => number | undefined
): ManifestProblem[] {
  const out: ManifestProblem[] = []
  const seen = new Set<string>()
  for (const e of errors) {
    // anyOf's own error says it once ("needs name or deployment-id"), not its branches'.
    if (e.keyword === 'required' && e.schemaPath.includes('/anyOf/')) continue
    const path = e.instancePath
      .split('/')
      .slice(1)
      .map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    const said = errorWords(e, path)
    const at = said.key === undefined ? path : [...path, said.key]
    const where = at.join('.')
    const problem = { line: lineOf(at), where, message: said.message }
    const id = `${where}\n${problem.message}`
    if (!seen.has(id)) out.push(problem)
    seen.add(id)
  }
  return out
}

/** What one error says, and the key it is about when that is beneath its place. */
function errorWords(e: ErrorObject, path: string[]): { message: string; key?: string } {
  const p = e.params as Record<string, unknown>
  const depth = path.length
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(p.additionalProperty)
      const why = (NOT_IN_MANIFEST as Record<string, string>)[key]
      if (depth === 4)
        return {
          key,
          message: why
            ? `${code(key)} is not allowed in a manifest: ${why}`
            : `${code(key)} is not an input of the action (an environment's keys are its input names)`
        }
      const keys = depth === 2 ? '`config`, `paths` and `environments`' : '`agents`'
      return { key, message: `${code(key)} is not a key here: the keys are ${keys}` }
    }
    case 'required':
      return { message: `needs ${code(String(p.missingProperty))}` }
    case 'anyOf':
      return { message: 'needs `name` (or `deployment-id`): the deployment of this environment' }
    case 'enum':
      return {
        message: `must be one of ${(p.allowedValues as unknown[]).map(v => code(String(v))).join(', ')}`
      }
    case 'type':
      return { message: `must be ${[p.type].flat().join(' or ')}` }
    case 'minProperties':
      return { message: 'needs at least one entry' }
    case 'minLength':
      return { message: 'must not be empty' }
    case 'pattern':
    case 'propertyNames':
      return {
        ...(p.propertyName !== undefined ? { key: String(p.propertyName) } : {}),
        message: 'a key must be letters, digits, `-` and `_`, starting with a letter or digit'
      }
    default:
      return { message: e.message ?? 'is not valid' }
  }
}
