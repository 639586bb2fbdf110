// The requests of the production service's two real clients (the LangGraph CLI and the Terraform
// provider), replayed from fixtures/real-client-requests.json against the emulator in the
// `langsmith` dialect. Each answer must have the status the client relies on, fit the zod model
// the client of this project reads it with, carry the fields the real client reads, and be what
// the production OpenAPI description says, or differ from it exactly as the table records.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, test } from '@jest/globals'
import type { z } from 'zod'
import { responseFromWire } from '../../src/control-plane/dialect.ts'
import {
  Deployment,
  DeploymentList,
  ErrorDetail,
  HTTPValidationError,
  PushToken,
  Revision,
  RevisionList,
  RevisionLogPage,
  UploadUrl
} from '../../src/control-plane/schema.ts'
import { demoFixture, startEmulator, type Emulator } from '../../emulator/server.ts'
import { answerProblems, operationFor, requestProblems } from '../builders/openapi.ts'
import { project } from '../builders/tarballs.ts'

interface Step {
  from: string
  kind?: 'upload'
  advanceMs?: number
  method: string
  path: string
  query?: Record<string, string>
  body?: unknown
  openapi: 'shown' | 'not shown: taken from the real client'
  openapiRequest?: string[]
  openapiAnswer?: string[]
  status: number
  model?: keyof typeof MODELS
  answer?: Record<string, unknown>
  present?: string[]
  save?: Record<string, string>
}
interface Flow {
  name: string
  client: 'langgraph-cli' | 'terraform'
  tenantHeader: string
  steps: Step[]
}
interface Table {
  clients: Record<string, string>
  flows: Flow[]
}

const table = JSON.parse(
  readFileSync(new URL('../../fixtures/real-client-requests.json', import.meta.url), 'utf8')
) as Table

const MODELS = {
  Deployment,
  DeploymentList,
  Revision,
  RevisionList,
  RevisionLogPage,
  PushToken,
  UploadUrl,
  ErrorDetail,
  HTTPValidationError
} satisfies Record<string, z.ZodType>

const fixture = demoFixture()
const TENANT = fixture.tenants[0]!.id
const KEY = fixture.tenants[0]!.api_keys[0]!

/** `{name}` in every string replaced by a saved value (names not saved stay as they are). */
function fill(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string')
    return value.replace(/\{(\w+)\}/g, (m, name: string) => vars[name] ?? m)
  if (Array.isArray(value)) return value.map(v => fill(v, vars))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]))
  return value
}

/** `logs.0.id` of a JSON value. */
function at(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (v, key) => (v === null || typeof v !== 'object' ? undefined : (v as never)[key]),
      value
    )
}

let emu: Emulator | undefined
afterEach(async () => {
  await emu?.close()
  emu = undefined
})

async function send(step: Step, flow: Flow, url: string) {
  if (step.kind === 'upload') {
    // What `langgraph deploy` uploads: a gzip tarball of the project, with no API key (the URL is
    // signed); the emulator unpacks it and builds the graphs of its langgraph.json.
    const tarball = project(['agent'])
    const res = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/gzip' },
      body: tarball
    })
    return { status: res.status, body: null }
  }
  const query = step.query ? `?${new URLSearchParams(step.query).toString()}` : ''
  const res = await fetch(`${emu!.url}${url}${query}`, {
    method: step.method,
    headers: {
      'X-Api-Key': KEY,
      [flow.tenantHeader]: TENANT,
      Accept: 'application/json',
      ...(step.body === undefined ? {} : { 'Content-Type': 'application/json' })
    },
    body: step.body === undefined ? undefined : JSON.stringify(step.body)
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null }
}

describe('the table is honest and complete', () => {
  const froms = table.flows.flatMap(f => f.steps.map(s => `${f.client} ${s.from}`))

  test.each([
    // host_backend.py: every method of HostBackendClient.
    ...[
      'create_deployment',
      'list_deployments',
      'get_deployment',
      'delete_deployment',
      'request_push_token',
      'request_upload_url',
      'update_deployment,',
      'update_deployment_internal_source',
      'list_revisions',
      'get_revision',
      'get_build_logs',
      'get_deploy_logs without a revision',
      'get_deploy_logs with --revision-id',
      '_upload_to_gcs'
    ].map(f => ['langgraph-cli', f]),
    // deployment_resource.go: every function that sends a request.
    ...[
      'DeploymentResource.create (createPayload)',
      'the display name takes a second write',
      'DeploymentResource.read',
      'mutablePayload',
      'revisionUpdatePayload',
      'DeploymentResource.waitForRevision',
      'DeploymentResource.delete'
    ].map(f => ['terraform', f])
  ])('%s: %s is replayed', (client, fn) => {
    expect(froms.some(f => f.startsWith(client) && f.includes(fn))).toBe(true)
  })

  test('each step says whether the production description shows it, and the description agrees', () => {
    for (const flow of table.flows)
      for (const step of flow.steps) {
        const path = step.kind === 'upload' ? '/_uploads/x' : step.path.replace(/\{\w+\}/g, 'x')
        const shown = operationFor(step.method, path) !== undefined
        expect({ step: step.from, openapi: step.openapi }).toEqual({
          step: step.from,
          openapi: shown ? 'shown' : 'not shown: taken from the real client'
        })
      }
  })
})

describe.each(table.flows)('$client: $name', flow => {
  test('every request answers as the real client expects, in the zod model and the description', async () => {
    let now = Date.parse('2026-03-01T12:00:00Z')
    emu = await startEmulator({ port: 0, dialect: 'langsmith', now: () => now })
    const vars: Record<string, string> = { integration: fixture.integrations![0]!.id }
    for (const raw of flow.steps) {
      now += raw.advanceMs ?? 0
      const step = fill(raw, vars) as Step
      const r = await send(step, flow, step.path)
      const label = `${flow.client} ${step.from}`
      expect({ label, status: r.status, body: r.status === step.status ? 'ok' : r.body }).toEqual({
        label,
        status: step.status,
        body: 'ok'
      })
      if (step.model) {
        const parsed = MODELS[step.model].safeParse(responseFromWire('langsmith', r.body))
        expect({ label, model: step.model, issues: parsed.error?.issues ?? [] }).toEqual({
          label,
          model: step.model,
          issues: []
        })
      }
      if (step.openapi === 'shown') {
        const wire = { method: step.method, path: step.path, query: step.query ?? {} }
        expect({ label, request: requestProblems({ ...wire, body: step.body }) }).toEqual({
          label,
          request: step.openapiRequest ?? []
        })
        expect({ label, answer: answerProblems(step.method, step.path, r.status, r.body) }).toEqual(
          { label, answer: step.openapiAnswer ?? [] }
        )
      }
      for (const [path, want] of Object.entries(step.answer ?? {}))
        expect({ label, path, value: at(r.body, path) }).toEqual({ label, path, value: want })
      for (const path of step.present ?? []) {
        expect({ label, path, present: at(r.body, path) != null }).toEqual({
          label,
          path,
          present: true
        })
      }
      for (const [name, path] of Object.entries(step.save ?? {}))
        vars[name] = String(at(r.body, path))
    }
  })
})
