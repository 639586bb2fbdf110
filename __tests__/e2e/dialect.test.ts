// The production wire names end to end: the bundle against an emulator that speaks the `langsmith`
// dialect, every request it sent checked against the production service's own description.
import { expect } from '@jest/globals'
import type { Emulator } from '../../emulator/server.ts'
import { requestProblems } from '../builders/openapi.ts'
import { e2e, runAction as run, uniqueName } from './harness.ts'

/** Each request the emulator received, with what the production description says is wrong. */
const offProduction = (emu: Emulator) =>
  emu
    .requests()
    .map(q => ({ request: `${q.method} ${q.path}`, problems: requestProblems(q) }))
    .filter(q => q.problems.length > 0)

e2e(
  'api-dialect: auto speaks langsmith to a base-url ending in /api-host; langsmith creates, updates and waits, in the production names only',
  async ({ emu, inputs, named, writes }) => {
    expect(emu.url).toMatch(/\/api-host$/)
    const name = uniqueName('prod')
    // The create on `auto`, the update on `langsmith` set.
    const created = await run({ inputs: inputs({ name }) })
    expect(created.errors).toEqual([])
    expect(created.code).toBe(0)
    expect(created.stdout).toContain(
      'API dialect: langsmith (auto: the base URL ends in /api-host, as a self-hosted installation does).'
    )
    expect(created.outputs).toMatchObject({
      created: 'true',
      'deployment-id': named(name)[0]!.id,
      'revision-status': 'DEPLOYED'
    })
    const updated = await run({ inputs: inputs({ name, 'api-dialect': 'langsmith' }) })
    expect(updated.code).toBe(0)
    expect(updated.stdout).toContain('API dialect: langsmith.')
    const [d] = named(name)
    expect(updated.outputs).toMatchObject({
      created: 'false',
      'deployment-id': d!.id,
      'revision-id': d!.latest_revision_id,
      'revision-status': 'DEPLOYED'
    })
    expect(d!.revisions).toHaveLength(2)

    // On the wire: `github`, `langgraph_config_path` and the forge's github path, never the
    // interface's names.
    const [create, patch] = writes()
    expect(create).toMatchObject({ method: 'POST', path: '/v2/deployments' })
    expect(create!.body).toMatchObject({
      source: 'github',
      source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' }
    })
    expect(patch).toMatchObject({ method: 'PATCH', path: `/v2/deployments/${d!.id}` })
    expect(patch!.body).toMatchObject({
      source_revision_config: { langgraph_config_path: 'langgraph.json' }
    })
    const sent = JSON.stringify(emu.requests().map(q => q.body))
    expect(sent).not.toContain('"graph_config_path"')
    expect(sent).not.toContain('codehost')
    const paths = emu.requests().map(q => q.path)
    expect(paths.some(p => p.startsWith('/v1/integrations/forge/github/'))).toBe(true)
    expect(paths.some(p => p.includes('/forge/codehost/'))).toBe(false)
    // Every request of both runs, path, query and body, is one production accepts.
    expect(emu.requests().length).toBeGreaterThan(4)
    expect(offProduction(emu)).toEqual([])
  },
  { dialect: 'langsmith', basePath: '/api-host' }
)
