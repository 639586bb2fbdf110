// The production service's own description (spec/production-openapi.json, OpenAPI 3.1, i.e. JSON
// Schema 2020-12) as a checker of requests and answers: which operation a method and path target,
// what the description says is wrong with the path parameters, the query and the body sent to it,
// and with the status and body it answers.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { default as AjvClass, ValidateFunction } from 'ajv/dist/2020'

// ajv is CommonJS; required as such so that its default export is the class in every loader.
const require = createRequire(import.meta.url)
const Ajv2020 = require('ajv/dist/2020') as typeof AjvClass
const addFormats = require('ajv-formats') as (ajv: AjvClass) => AjvClass

interface Parameter {
  name: string
  in: 'path' | 'query' | 'header'
  required?: boolean
  schema: Record<string, unknown>
}
interface Operation {
  parameters?: Parameter[]
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } }
  responses: Record<string, { content?: { 'application/json': { schema: unknown } } }>
}
export interface OpenApi {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Record<string, unknown>> }
}

export const productionOpenApi = JSON.parse(
  readFileSync(new URL('../../spec/production-openapi.json', import.meta.url), 'utf8')
) as OpenApi

/**
 * The description leaves its objects open (FastAPI ignores unknown fields), so a misspelt field
 * would pass unseen, which is exactly how `graph_config_path` is silently ignored by production.
 * Requests are therefore checked against a closed copy: every object with `properties` gets
 * `additionalProperties: false`.
 */
export function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed)
  if (node === null || typeof node !== 'object') return node
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closed(v)]))
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false
  return out
}

/** A validator of values against schemas of (or referring into) these components. */
export function schemaChecker(components: unknown): (schema: unknown, value: unknown) => string[] {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }))
  // `#/components/schemas/X` references resolve against this document.
  ajv.addSchema({ $id: 'openapi', components })
  const compiled = new Map<string, ValidateFunction>()
  return (schema, value) => {
    const key = JSON.stringify(schema)
    let v = compiled.get(key)
    if (!v) {
      // Inline schemas (a parameter's, a list answer's) refer into the document by its id.
      v = ajv.compile(JSON.parse(key.replaceAll('"$ref":"#/', '"$ref":"openapi#/')) as object)
      compiled.set(key, v)
    }
    return v(value) ? [] : (v.errors ?? []).map(e => `${e.instancePath || '/'} ${e.message}`)
  }
}

/**
 * The copy is of 2026-08. Since then the service takes the new type words on create: the vendor's
 * own API example creates with `serverless`, its CLI sends `serverless` or `dedicated`
 * (spec/service-facts.md). Requests are checked against the description with those words added.
 */
export function withNewTypeWords(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNewTypeWords)
  if (node === null || typeof node !== 'object') return node
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withNewTypeWords(v)]))
  const e = out.enum as unknown[] | undefined
  if (e?.join() === 'dev_free,dev,prod') out.enum = [...e, 'serverless', 'dedicated']
  return out
}

const problems = schemaChecker(productionOpenApi.components)
const bodyProblems = schemaChecker(closed(withNewTypeWords(productionOpenApi.components)))

/** The operation a method and a concrete path target, with the path's parameter values. */
export function operationFor(method: string, path: string) {
  for (const [template, ops] of Object.entries(productionOpenApi.paths)) {
    const match = new RegExp(`^${template.replace(/\{[^}]+\}/g, '([^/]+)')}$`).exec(path)
    const op = ops[method.toLowerCase()]
    if (match && op) {
      const names = [...template.matchAll(/\{([^}]+)\}/g)].map(m => m[1]!)
      const values = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)]))
      return { template, op, values }
    }
  }
  return undefined
}

/** A query value read as the type its schema names (FastAPI reads the text the same way). */
function typed(schema: Record<string, unknown>, text: string): unknown {
  const types = [schema, ...((schema.anyOf as Record<string, unknown>[]) ?? [])].map(s => s.type)
  if (types.includes('integer') && /^-?\d+$/.test(text)) return Number(text)
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true'
  return text
}

export interface WireRequest {
  method: string
  /** Without the base path and the query. */
  path: string
  query: Record<string, string>
  /** Parsed JSON; null or undefined without a body. */
  body: unknown
}

/** What is wrong with a request, as production's description says; empty when nothing is. */
export function requestProblems(r: WireRequest): string[] {
  const found = operationFor(r.method, r.path)
  if (!found) return [`${r.method} ${r.path}: no such operation in the production description`]
  const { template, op, values } = found
  const out: string[] = []
  const params = op.parameters ?? []
  for (const p of params.filter(p => p.in === 'path'))
    out.push(...problems(p.schema, values[p.name]).map(e => `path ${p.name}: ${e}`))
  for (const [name, text] of Object.entries(r.query)) {
    const p = params.find(p => p.in === 'query' && p.name === name)
    if (!p) out.push(`query ${name}: not a parameter of ${r.method} ${template}`)
    else out.push(...problems(p.schema, typed(p.schema, text)).map(e => `query ${name}: ${e}`))
  }
  for (const p of params.filter(p => p.in === 'query' && p.required))
    if (!(p.name in r.query)) out.push(`query ${p.name}: required`)
  const schema = op.requestBody?.content['application/json'].schema
  const hasBody = r.body !== null && r.body !== undefined && r.body !== ''
  if (schema) out.push(...bodyProblems(schema, r.body).map(e => `body: ${e}`))
  else if (hasBody) out.push(`${r.method} ${template} takes no body`)
  return out
}

/**
 * What is wrong with an answer (its status and body), as production's description says; empty
 * when nothing is. Unlike requests, answers are checked against the description as published.
 */
export function answerProblems(
  method: string,
  path: string,
  status: number,
  body: unknown
): string[] {
  const found = operationFor(method, path)
  if (!found) return [`${method} ${path}: no such operation in the production description`]
  const declared = found.op.responses[String(status)]
  if (!declared) return [`${method} ${found.template} does not answer ${status}`]
  const schema = declared.content?.['application/json'].schema
  return schema ? problems(schema, body) : []
}
