// The manifest: its published schema agrees with action.yml's inputs and validates every example
// manifest; an agent's files as the vendor's CLI reads its config; an entry as the run's inputs
// (its settings put in, a setting in both places refused, `promote-from` naming an environment).
import { expect } from '@jest/globals'
import { createRequire } from 'node:module'
import { parse as parseYaml } from 'yaml'
import type { default as AjvClass } from 'ajv/dist/2020'
import { manifestInputs } from '../../src/manifest/entry.ts'
import { agentFiles, agentsChanged, globTest } from '../../src/manifest/files.ts'
import { parseManifest, problemLines } from '../../src/manifest/read.ts'
import { NOT_IN_MANIFEST } from '../../src/manifest/schema.ts'
import { defaultOf, INPUT_NAMES, type RawInputs } from '../../src/interface/names.ts'
import { actionSay } from '../../src/interface/naming.ts'
import { readRepoFile } from '../builders/repo.ts'
import { MONOREPO } from '../../scripts/monorepo.ts'

const require = createRequire(import.meta.url)
const Ajv2020 = require('ajv/dist/2020') as typeof AjvClass
const schema = JSON.parse(readRepoFile('schema/manifest.schema.json')) as {
  properties: {
    agents: {
      additionalProperties: {
        properties: {
          environments: { additionalProperties: { properties: Record<string, unknown> } }
        }
      }
    }
  }
}
const environmentKeys = Object.keys(
  schema.properties.agents.additionalProperties.properties.environments.additionalProperties
    .properties
)

describe('the published schema', () => {
  test("every input of action.yml is an environment's key, or listed as not allowed in a manifest", () => {
    const action = parseYaml(readRepoFile('action.yml')) as { inputs: Record<string, unknown> }
    for (const input of Object.keys(action.inputs))
      expect([input, environmentKeys.includes(input) !== input in NOT_IN_MANIFEST]).toEqual([
        input,
        true
      ])
    expect(Object.keys(NOT_IN_MANIFEST).every(i => i in action.inputs)).toBe(true)
  })

  test('it validates every example manifest, and refuses a key that is no input', () => {
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema)
    // The fixture monorepo's (the examples' repository), and each manifest docs/manifest.md shows.
    const manifests = [
      readRepoFile('fixtures/monorepo/agents.yaml'),
      ...[...readRepoFile('docs/manifest.md').matchAll(/```yaml\n(agents:[\s\S]*?)```/g)].map(
        m => m[1]!
      )
    ]
    expect(manifests.length).toBeGreaterThan(1)
    for (const text of manifests) expect([text, validate(parseYaml(text))]).toEqual([text, true])
    const bad = {
      agents: { a: { config: 'x.json', environments: { s: { name: 'a', colour: 'red' } } } }
    }
    expect(validate(bad)).toBe(false)
  })
})

describe('an agent’s files, as the vendor’s CLI reads its config', () => {
  test('local dependencies, graph modules (Python and JS), env, auth, http, ui; a module name is none', () => {
    const files = agentFiles(
      'apps/a/langgraph.json',
      {
        dependencies: ['.', '../../libs/shared', 'langchain-openai'],
        graphs: {
          one: './src/graph.py:graph',
          two: { path: './web/graph.ts:graph' },
          three: 'pkg.module:graph'
        },
        env: '../.env.shared',
        auth: { path: '../auth/auth.py:auth' },
        http: { app: '../http/app.py:app' },
        ui: { chat: './ui/chat.tsx' }
      },
      { from: '.', globs: ['shared/prompts/**'] }
    )
    expect(files).toEqual({
      files: [
        'apps/a/langgraph.json',
        'apps/a/src/graph.py',
        'apps/a/web/graph.ts',
        'apps/.env.shared',
        'apps/auth/auth.py',
        'apps/http/app.py',
        'apps/a/ui/chat.tsx'
      ],
      folders: ['apps/a', 'libs/shared'],
      globs: ['shared/prompts/**']
    })
    const changed = [
      'apps/auth/auth.py',
      'apps/b/x.py',
      'shared/prompts/x/y.md',
      'libs/shared/z.py',
      'libs/other.py'
    ]
    expect(agentsChanged(files, changed)).toEqual([
      'apps/auth/auth.py',
      'shared/prompts/x/y.md',
      'libs/shared/z.py'
    ])
  })

  test('globs: ** any folders (none too), * and ? within a name', () => {
    expect(globTest('shared/**/*.md')('shared/a.md')).toBe(true)
    expect(globTest('shared/**/*.md')('shared/x/y/a.md')).toBe(true)
    expect(globTest('shared/*.md')('shared/x/a.md')).toBe(false)
    expect(globTest('a?.txt')('ab.txt')).toBe(true)
  })
})

describe('an entry as the run’s inputs', () => {
  const raw = (over: Partial<RawInputs>): RawInputs => {
    const r = {} as RawInputs
    for (const n of INPUT_NAMES) r[n] = defaultOf(n)
    return { ...r, manifest: 'agents.yaml', ...over }
  }
  const say = actionSay()
  const all = { say, takes: () => true }

  test("its settings put in, config as graph-config-path from the manifest's folder; promote-from an environment", async () => {
    const r = await manifestInputs(
      raw({ agent: 'support', environment: 'production' }),
      MONOREPO,
      all
    )
    if ('problems' in r) throw new Error(JSON.stringify(r.problems))
    expect(r.raw.name).toBe('support-prod')
    expect(r.raw['graph-config-path']).toBe('agents/support/langgraph.json')
    expect(r.raw['promote-from']).toBe('support-staging')
    expect(r.raw.size).toBe('medium')
    expect(r.from.get('size')).toMatch(
      /^agents\.yaml line \d+ \(agents\.support\.environments\.production\.size\)$/
    )
  })

  test('a setting given both as an input and in the manifest is refused; a default counts as not given', async () => {
    const r = await manifestInputs(
      raw({ agent: 'support', environment: 'staging', name: 'other', wait: 'true' }),
      MONOREPO,
      all
    )
    expect('problems' in r && r.problems.map(p => p.message)).toEqual([
      expect.stringMatching(
        /^`name` is set both as an input and in agents\.yaml line \d+ \(agents\.support\.environments\.staging\.name\): set it in one place$/
      )
    ])
  })

  test('an unknown agent or environment, or agent without manifest, named with the choices', async () => {
    const firstProblem = async (inputs: Record<string, string>) => {
      const r = await manifestInputs(raw(inputs), MONOREPO, all)
      return 'problems' in r ? r.problems[0]!.message : undefined
    }
    expect(await firstProblem({ agent: 'nope', environment: 'staging' })).toBe(
      '`agent` names no agent of agents.yaml: the agents of agents.yaml are `support`, `research`, `triage`'
    )
    expect(await firstProblem({ agent: 'triage', environment: 'production' })).toBe(
      '`environment` names no environment of agent `triage`: its environments are `staging`'
    )
    expect(await firstProblem({ command: 'plan', environment: 'stagin' })).toBe(
      '`environment` names no environment of any agent of agents.yaml: the environments are `staging`, `production`'
    )
    expect(await firstProblem({ manifest: '', agent: 'support' })).toContain(
      '`agent` needs `manifest`'
    )
  })

  test("a command takes only its own of the entry's settings (a delete: the name; environment chose the entry)", async () => {
    const takes = (i: string) => ['name', 'deployment-id', 'manifest', 'agent'].includes(i)
    const r = await manifestInputs(
      raw({ agent: 'support', environment: 'production', command: 'delete' }),
      MONOREPO,
      { say, takes }
    )
    if ('problems' in r) throw new Error(JSON.stringify(r.problems))
    expect([r.raw.name, r.raw.size, r.raw.environment]).toEqual(['support-prod', '', ''])
  })
})

test('a YAML error and a duplicate key are named by line', async () => {
  const r = await parseManifest('agents:\n  a:\n    config: x\n    config: y\n', 'm.yaml')
  expect('problems' in r && problemLines('m.yaml', r.problems)[0]).toMatch(
    /^m\.yaml line 4: is not valid YAML/
  )
})
