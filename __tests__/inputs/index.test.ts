import { COMMAND_RULES } from '../../src/run.ts'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { ACTION_MODULE, renderActionModule, repositorySources } from '../../scripts/readme.ts'
import { ACTION_INPUTS } from '../../src/interface/action-yml.ts'
import {
  commonWordSecretNames,
  INPUT_NAMES,
  INPUTS,
  inputEnvName,
  loadDocumentParser,
  nestingMayExceed,
  checkInputs,
  readRawInputs,
  secretValuesToMask
} from '../../src/inputs/index.ts'
import type { RawInputs } from '../../src/inputs/index.ts'
import type { EventDefaults } from '../../src/runner/event.ts'
import type { Options } from '../../src/inputs/options.ts'
import type { InputProblem } from '../../src/inputs/problems.ts'
import { renderProblems } from '../../src/inputs/problems.ts'
import { createNeedsProblem, missingForCreate } from '../../src/inputs/create-inputs.ts'
import { ACTION_SAY, ALIAS_BOMB } from '../builders.ts'

// The parser of the YAML/JSON inputs is loaded on demand (run() loads it when one is set); these
// tests read such inputs directly.
await loadDocumentParser()

const API_KEY = 'lsv2_pt_0123456789abcdef0123456789abcdef_0123456789'
const TENANT = '0f0e0d0c-0b0a-4908-8706-050403020100'
const INTEGRATION = '123e4567-e89b-12d3-a456-426614174000'
const DEPLOYMENT = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee'
const LISTENER = '11111111-2222-4333-8444-555555555555'
const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
const EVENT: EventDefaults = { ref: 'main', expectedSha: SHA, repository: 'my-org/my-agent' }
const CODEHOST: Partial<RawInputs> = {
  'api-key': API_KEY,
  name: 'my-agent',
  'integration-id': INTEGRATION
}
const EXTERNAL: Partial<RawInputs> = {
  'api-key': API_KEY,
  name: 'self-hosted-agent',
  source: 'external_docker',
  'image-uri': 'registry.example.com/agent@sha256:0123',
  'listener-id': LISTENER,
  'k8s-namespace': 'agents'
}

/** The Options of valid inputs; fails the test with the problems otherwise. */
function options(raw: Partial<RawInputs>, event: EventDefaults = EVENT): Options {
  const result = checkInputs(raw, event, ACTION_SAY, COMMAND_RULES)
  if (!result.ok) throw new Error(`unexpected problems: ${JSON.stringify(result.problems)}`)
  return result.options
}

/** The problems of invalid inputs; fails the test when they parse. */
function problems(raw: Partial<RawInputs>, event: EventDefaults = EVENT): InputProblem[] {
  const result = checkInputs(raw, event, ACTION_SAY, COMMAND_RULES)
  if (result.ok) throw new Error('expected problems, the inputs parsed')
  return result.problems
}

const inputsOf = (list: InputProblem[]) => [...new Set(list.map(p => p.input))].sort()

/**
 * Defaults of the fields these tests look at (compared with toMatchObject: a new input needs no
 * line here; the keys of Options are checked once, from the list of inputs).
 */
const DEFAULTS = {
  tenantId: undefined,
  baseUrl: 'https://api.host.langchain.com',
  name: undefined,
  integrationId: undefined,
  repository: undefined,
  repositoryExplicit: false,
  ref: undefined,
  expectedSha: undefined,
  graphConfigPath: 'langgraph.json',
  imageUri: undefined,
  secrets: undefined,
  secretReferences: undefined,
  resourceSpec: undefined,
  buildOnPush: undefined,
  customUrl: undefined,
  listenerId: undefined,
  k8sNamespace: undefined,
  installCommand: undefined,
  buildCommand: undefined,
  revisionSource: undefined,
  create: true,
  wait: true,
  timeoutMs: 30 * 60_000,
  pollIntervalMs: 15_000,
  dryRun: false,
  failureLogs: 50,
  onFailure: 'fail',
  apiDialect: 'langsmith',
  apiDialectReason: 'api.host.langchain.com is the hosted service',
  deploymentType: undefined,
  command: 'deploy',
  deleteTracingProject: false,
  prComment: false,
  healthCheck: false,
  healthCheckWindow: 30_000,
  healthCheckHosts: undefined,
  githubToken: undefined,
  environment: undefined,
  environmentUrl: undefined
} satisfies Partial<Options>

describe('readRawInputs', () => {
  const fromEnv = (env: Record<string, string>) =>
    readRawInputs(name => env[inputEnvName(name)] ?? '')

  test('reads INPUT_<NAME> with the name upper-cased and hyphens kept, trimmed at both ends', () => {
    const raw = fromEnv({
      'INPUT_API-KEY': `  ${API_KEY}\n`,
      'INPUT_DRY-RUN': 'true',
      INPUT_NAME: 'my-agent',
      INPUT_SECRETS: '\n  A=1\n  B= two \n\n',
      INPUT_API_KEY: 'not-this-one'
    })
    expect(raw['api-key']).toBe(API_KEY)
    expect(raw['dry-run']).toBe('true')
    expect(raw.name).toBe('my-agent')
    // Only the ends are trimmed: inner lines keep their spaces.
    expect(raw.secrets).toBe('A=1\n  B= two')
  })

  test('every input is present, empty when the runner did not set it', () => {
    const raw = fromEnv({})
    expect(Object.keys(raw).sort()).toEqual([...INPUT_NAMES].sort())
    expect(Object.values(raw).every(v => v === '')).toBe(true)
  })
})

describe('action.yml', () => {
  const action = parseYaml(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
    name: string
    inputs: Record<string, { description: string; required?: boolean; default?: string }>
    outputs: Record<string, { description: string }>
    runs: { using: string; main: string }
    branding: { icon: string; color: string }
  }

  test('declares exactly the inputs the parser reads, each described', () => {
    expect(Object.keys(action.inputs).sort()).toEqual([...INPUT_NAMES].sort())
    for (const input of Object.values(action.inputs)) {
      expect(input.description.length).toBeGreaterThan(10)
    }
    expect(action.inputs['api-key']?.required).toBe(true)
  })

  test('documents the defaults the parser applies, and none for event-derived inputs', () => {
    const defaults = Object.fromEntries(
      Object.entries(action.inputs)
        .filter(([, input]) => input.default !== undefined)
        .map(([name, input]) => [name, input.default])
    )
    // What users rely on; the rest is in docs/inputs.md, generated from action.yml.
    expect(defaults).toMatchObject({
      'base-url': 'https://api.host.langchain.com',
      source: 'codehost',
      create: 'true',
      wait: 'true',
      timeout: '30m',
      'github-token': '${{ github.token }}',
      command: 'deploy'
    })
    for (const input of ['name', 'deployment-id', 'repository', 'ref', 'api-key'])
      expect(defaults[input]).toBeUndefined()
    // The runner passes the documented defaults: they must parse to the parser's own defaults.
    // `github-token` is an expression the runner fills in: it stands for a token here.
    const withDefaults = {
      ...defaults,
      'github-token': 'ghs_runner0token',
      ...CODEHOST
    } as Partial<RawInputs>
    expect(options(withDefaults)).toEqual({ ...options(CODEHOST), githubToken: 'ghs_runner0token' })
  })

  test('declares every output, the node24 runtime and the branding', () => {
    expect(Object.keys(action.outputs)).toEqual([
      'deployment-id',
      'revision-id',
      'revision-status',
      'deployment-status',
      'created',
      'url',
      'status-url',
      'repo-commit-sha',
      'github-deployment-id',
      'deleted',
      'rollback-revision-id',
      'rollback-status',
      'served-revision',
      'smoke',
      'health',
      'source-digest',
      'deployment-type',
      'size',
      'swept',
      'drift',
      'matrix',
      'agents',
      'promoted-from-revision-id',
      'evaluation',
      'evaluation-url',
      'evaluation-scores'
    ])
    expect(action.name).toBe('Control Plane Deploy')
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' })
    expect(action.branding).toEqual({ icon: 'upload-cloud', color: 'blue' })
  })
})

describe('checkInputs: happy paths', () => {
  test('Options holds each input under its camel-case name, and what is derived from them', () => {
    const camel = (name: string) => name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())
    const derived = ['deploymentId', 'timeout', 'pollInterval', 'apiDialect']
    const expected = [
      ...INPUT_NAMES.map(camel).filter(k => !derived.includes(k)),
      ...['target', 'repositoryExplicit', 'expectedSha', 'codeHost', 'timeoutMs', 'pollIntervalMs'],
      ...['apiDialect', 'apiDialectReason']
    ]
    expect(Object.keys(options(CODEHOST)).sort()).toEqual(expected.sort())
  })

  test('codehost by name with the event defaults', () => {
    expect(options(CODEHOST)).toMatchObject({
      ...DEFAULTS,
      apiKey: API_KEY,
      target: { kind: 'name', name: 'my-agent' },
      name: 'my-agent',
      source: 'codehost',
      integrationId: INTEGRATION,
      repository: 'my-org/my-agent',
      ref: 'main',
      expectedSha: SHA
    })
  })

  test('codehost with every input set', () => {
    const raw: Partial<RawInputs> = {
      ...CODEHOST,
      'tenant-id': TENANT.toUpperCase(),
      'base-url': 'https://eu.api.host.langchain.com/',
      repository: 'other-org/other.repo',
      ref: 'release/1.x',
      'graph-config-path': 'apps/agent/langgraph.json',
      secrets: '# comment\nOPENAI_API_KEY=sk-abc=def==  \n\n  DB_PASSWORD = p@ss word',
      'resource-spec': 'min_scale: 1\nmax_scale: 3\ncpu: 2\nmemory_mb: 4096',
      'build-on-push': 'True',
      'custom-url': 'https://agent.example.com/base',
      'install-command': 'pip install -e .',
      'build-command': 'make build',
      'revision-source': 'codehost',
      create: 'FALSE',
      wait: 'False',
      timeout: '1h30m',
      'poll-interval': '600',
      'dry-run': 'TRUE'
    }
    expect(options(raw)).toMatchObject({
      ...DEFAULTS,
      apiKey: API_KEY,
      tenantId: TENANT,
      baseUrl: 'https://eu.api.host.langchain.com',
      apiDialectReason: 'eu.api.host.langchain.com is the hosted service',
      target: { kind: 'name', name: 'my-agent' },
      name: 'my-agent',
      source: 'codehost',
      integrationId: INTEGRATION,
      repository: 'other-org/other.repo',
      repositoryExplicit: true,
      ref: 'release/1.x',
      // Another ref than the event's: the event's commit is not the one expected.
      expectedSha: undefined,
      graphConfigPath: 'apps/agent/langgraph.json',
      secrets: [
        { name: 'OPENAI_API_KEY', value: 'sk-abc=def==' },
        { name: 'DB_PASSWORD', value: 'p@ss word' }
      ],
      resourceSpec: { min_scale: 1, max_scale: 3, cpu: 2, memory_mb: 4096 },
      buildOnPush: true,
      customUrl: 'https://agent.example.com/base',
      installCommand: 'pip install -e .',
      buildCommand: 'make build',
      revisionSource: 'codehost',
      create: false,
      wait: false,
      timeoutMs: 90 * 60_000,
      pollIntervalMs: 600_000,
      dryRun: true
    })
  })

  test('deployment-id targets by id: no name, no integration-id needed', () => {
    expect(options({ 'api-key': API_KEY, 'deployment-id': DEPLOYMENT })).toMatchObject({
      ...DEFAULTS,
      apiKey: API_KEY,
      target: { kind: 'id', deploymentId: DEPLOYMENT },
      source: 'codehost',
      repository: 'my-org/my-agent',
      ref: 'main',
      expectedSha: SHA
    })
  })

  test('deployment-id wins over name, which is kept', () => {
    const o = options({ 'api-key': API_KEY, 'deployment-id': DEPLOYMENT, name: 'my-agent' })
    expect(o.target).toEqual({ kind: 'id', deploymentId: DEPLOYMENT })
    expect(o.name).toBe('my-agent')
  })

  test('external_docker with secret references and a resource spec in JSON', () => {
    const raw: Partial<RawInputs> = {
      ...EXTERNAL,
      secrets: '{"LANGSMITH_API_KEY": "ls-key-value", "MULTI": "line one\\nline two "}',
      'secret-references':
        '- name: DB_URL\n  secret_name: db\n  secret_key: url\n- {name: TOKEN, secret_name: tok, secret_key: value}',
      'resource-spec':
        '{"min_scale": 2, "labels": {"team": "ai"}, "sidecars": [{"name": "proxy", "image": "envoy"}]}'
    }
    expect(options(raw)).toMatchObject({
      ...DEFAULTS,
      apiKey: API_KEY,
      target: { kind: 'name', name: 'self-hosted-agent' },
      name: 'self-hosted-agent',
      source: 'external_docker',
      imageUri: 'registry.example.com/agent@sha256:0123',
      listenerId: LISTENER,
      k8sNamespace: 'agents',
      // LANGSMITH_API_KEY is reserved only on hosted deployments.
      secrets: [
        { name: 'LANGSMITH_API_KEY', value: 'ls-key-value' },
        // JSON values are kept exactly.
        { name: 'MULTI', value: 'line one\nline two ' }
      ],
      secretReferences: [
        { name: 'DB_URL', secret_name: 'db', secret_key: 'url' },
        { name: 'TOKEN', secret_name: 'tok', secret_key: 'value' }
      ],
      resourceSpec: {
        min_scale: 2,
        labels: { team: 'ai' },
        sidecars: [{ name: 'proxy', image: 'envoy' }]
      }
    })
  })

  test('internal_docker with an image; the event ref is not used', () => {
    const o = options({
      'api-key': API_KEY,
      name: 'cli-agent',
      source: 'internal_docker',
      'image-uri': 'img@sha256:ff'
    })
    expect(o).toMatchObject({
      source: 'internal_docker',
      imageUri: 'img@sha256:ff',
      ref: undefined,
      repository: undefined,
      expectedSha: undefined
    })
  })

  test('codehost update (create: false) needs no integration-id', () => {
    const o = options({ 'api-key': API_KEY, name: 'my-agent', create: 'false' })
    expect(o.create).toBe(false)
    expect(o.integrationId).toBeUndefined()
  })

  test.each([
    ['https://host.example.com/api-host/', 'https://host.example.com/api-host'],
    ['https://HOST.example.com', 'https://host.example.com'],
    ['https://host.example.com:8443/x//', 'https://host.example.com:8443/x'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://127.0.0.1:3000/api', 'http://127.0.0.1:3000/api'],
    ['http://127.1.2.3', 'http://127.1.2.3'],
    ['http://[::1]:9000/', 'http://[::1]:9000']
  ])('base-url %s -> %s', (input, expected) => {
    expect(options({ ...CODEHOST, 'base-url': input }).baseUrl).toBe(expected)
  })

  test('ref: refs/heads/<branch> means the branch; the event ref keeps its expected commit', () => {
    expect(options({ ...CODEHOST, ref: 'refs/heads/main' })).toMatchObject({
      ref: 'main',
      expectedSha: SHA
    })
    expect(options({ ...CODEHOST, ref: 'refs/tags/v1' })).toMatchObject({
      ref: 'refs/tags/v1',
      expectedSha: undefined
    })
  })

  test('build-on-push false with a tag ref is fine', () => {
    const o = options({ ...CODEHOST, 'build-on-push': 'false' }, { ...EVENT, ref: 'refs/tags/v1' })
    expect(o.buildOnPush).toBe(false)
    expect(o.ref).toBe('refs/tags/v1')
  })

  test('secrets: empty keeps the current ones (undefined), comments only give an empty list', () => {
    expect(options({ ...CODEHOST, secrets: '' }).secrets).toBeUndefined()
    expect(options({ ...CODEHOST, secrets: '# nothing yet' }).secrets).toEqual([])
  })

  test('names up to 63 characters, poll-interval up to the timeout, timeout up to 6h', () => {
    const name = 'a' + '-b'.repeat(31)
    expect(name).toHaveLength(63)
    expect(options({ ...CODEHOST, name }).name).toBe(name)
    expect(options({ ...CODEHOST, timeout: '6h', 'poll-interval': '6h' })).toMatchObject({
      timeoutMs: 6 * 3_600_000,
      pollIntervalMs: 6 * 3_600_000
    })
    expect(options({ ...CODEHOST, 'poll-interval': '1s' }).pollIntervalMs).toBe(1000)
  })
})

describe('inputs of the production dialect, deletes and failures', () => {
  test('source: github is another word for codehost', () => {
    expect(options({ ...CODEHOST, source: 'github' }).source).toBe('codehost')
  })
  test('api-dialect auto follows the base URL; an explicit one wins', () => {
    expect(options(CODEHOST).apiDialect).toBe('langsmith')
    expect(options({ ...CODEHOST, 'base-url': 'https://cp.example.com' }).apiDialect).toBe(
      'interface'
    )
    expect(options({ ...CODEHOST, 'base-url': 'https://cp.example.com/api-host' }).apiDialect).toBe(
      'langsmith'
    )
    expect(
      options({ ...CODEHOST, 'base-url': 'https://cp.example.com', 'api-dialect': 'langsmith' })
        .apiDialect
    ).toBe('langsmith')
    expect(
      options({ ...CODEHOST, 'base-url': 'https://cp.example.com', 'api-dialect': 'langsmith' })
        .apiDialectReason
    ).toBeUndefined()
    expect(options({ ...CODEHOST, 'api-dialect': 'interface' })).toMatchObject({
      baseUrl: 'https://api.host.langchain.com',
      apiDialect: 'interface',
      apiDialectReason: undefined
    })
  })
  test('command: delete needs only a target; deploy-only inputs are named', () => {
    expect(options({ 'api-key': API_KEY, name: 'my-agent-pr-7', command: 'delete' })).toMatchObject(
      {
        command: 'delete'
      }
    )
    expect(
      inputsOf(
        problems({ ...CODEHOST, command: 'delete', secrets: 'A=bcdefgh', 'on-failure': 'rollback' })
      )
    ).toEqual(['integration-id', 'on-failure', 'secrets'])
  })
  test('delete-tracing-project only with command: delete', () => {
    expect(inputsOf(problems({ ...CODEHOST, 'delete-tracing-project': 'true' }))).toEqual([
      'delete-tracing-project'
    ])
  })
  test('a fork pull request stops before any request unless repository and ref are set', () => {
    const fork = { ...EVENT, forkHead: 'octo/my-agent' }
    expect(problems(CODEHOST, fork)[0]?.message).toMatch(/comes from the fork `octo\/my-agent`/)
    expect(options({ ...CODEHOST, repository: 'octo/my-agent', ref: 'feature' }, fork).ref).toBe(
      'feature'
    )
  })
  test('an upload (internal_source) needs no integration, repository or ref, and refuses them', () => {
    const upload = { 'api-key': API_KEY, name: 'my-agent', source: 'internal_source' }
    const o = options(upload)
    expect(o.source).toBe('internal_source')
    expect(o.ref).toBeUndefined()
    expect(o.expectedSha).toBeUndefined()
    expect(options({ ...upload, 'deployment-type': 'dev' }).deploymentType).toBe('dev')
    expect(inputsOf(problems({ ...upload, 'integration-id': INTEGRATION, ref: 'main' }))).toEqual([
      'integration-id',
      'ref'
    ])
  })
  test('revision-source internal_source is refused on any source but internal_source, before any request', () => {
    const [p] = problems({ ...CODEHOST, 'revision-source': 'internal_source' })
    expect(p).toMatchObject({
      input: 'revision-source',
      message: expect.stringMatching(
        /needs a deployment whose source is `internal_source`.*not source `codehost`.*set `source: internal_source`/
      )
    })
    const upload = { 'api-key': API_KEY, name: 'my-agent', source: 'internal_source' }
    expect(
      checkInputs(
        { ...upload, 'revision-source': 'internal_source' },
        EVENT,
        ACTION_SAY,
        COMMAND_RULES
      ).ok
    ).toBe(true)
  })
  test('a fork pull request is refused for an upload, even with repository and ref', () => {
    const fork = { ...EVENT, forkHead: 'octo/my-agent' }
    const upload = { 'api-key': API_KEY, name: 'my-agent', source: 'internal_source' }
    const [p] = problems(upload, fork)
    expect(p).toMatchObject({ input: 'source', message: expect.stringMatching(/upload deploy/) })
    const revision = { ...CODEHOST, repository: 'octo/my-agent', ref: 'feature' }
    const [q] = problems({ ...revision, 'revision-source': 'internal_source' }, fork)
    expect(q).toMatchObject({ input: 'revision-source', message: expect.stringMatching(/fork/) })
  })
  test.each([
    ['cpu: 50', /cpu: Too big: expected number to be <=8/],
    ['cpu_limit: 20', /cpu_limit: Too big: expected number to be <=16/],
    ['min_scale: 1.5', /min_scale: .*expected int/],
    ['memory_mb: 512.5', /memory_mb: .*expected int/]
  ])('a resource-spec the production service rejects (%s) is refused up front', (spec, message) => {
    const [p] = problems({ ...CODEHOST, 'resource-spec': spec })
    expect(p).toMatchObject({ input: 'resource-spec', message: expect.stringMatching(message) })
  })

  test('deployment-type is one of the production types', () => {
    expect(options({ ...CODEHOST, 'deployment-type': 'prod' }).deploymentType).toBe('prod')
    expect(inputsOf(problems({ ...CODEHOST, 'deployment-type': 'huge' }))).toEqual([
      'deployment-type'
    ])
  })

  test('failure-logs is a whole number from 0 to 1000', () => {
    expect(options({ ...CODEHOST, 'failure-logs': '0' }).failureLogs).toBe(0)
    expect(inputsOf(problems({ ...CODEHOST, 'failure-logs': 'many' }))).toEqual(['failure-logs'])
  })
})

describe('poll-interval follows the timeout when it is not set', () => {
  test('timeout: 10s alone is valid and polls at most every 10 s', () => {
    expect(options({ ...CODEHOST, timeout: '10s' })).toMatchObject({
      timeoutMs: 10_000,
      pollIntervalMs: 10_000
    })
  })
  test('a long timeout keeps the 15 s default', () => {
    expect(options({ ...CODEHOST, timeout: '1h' }).pollIntervalMs).toBe(15_000)
  })
  test('only an explicit poll-interval longer than the timeout is an error', () => {
    expect(inputsOf(problems({ ...CODEHOST, timeout: '10s', 'poll-interval': '15s' }))).toEqual([
      'poll-interval'
    ])
  })
})

describe('the error of bad inputs', () => {
  test('counts the inputs, then gives one line per problem', () => {
    const text = renderProblems(
      problems({ 'api-key': 'k', name: 'My Agent', secrets: 'not a pair\nAPI_KEY=' }),
      ACTION_SAY
    )
    expect(text.split('\n')).toEqual([
      '2 inputs are not valid:',
      expect.stringMatching(/^- name: `name` must be lowercase/),
      expect.stringMatching(/^- secrets: `secrets` line 1 is not NAME=VALUE/),
      expect.stringMatching(/^- secrets: `secrets` line 2: the value is empty/)
    ])
    expect(
      renderProblems(
        problems({ 'api-key': '', 'deployment-id': '123e4567-e89b-12d3-a456-426614174000' }),
        ACTION_SAY
      ).split('\n')[0]
    ).toBe('One input is not valid:')
  })
})

describe('checkInputs: each bad input is named with what is expected', () => {
  test.each<[string, Partial<RawInputs>, RegExp]>([
    ['api-key', { 'api-key': '' }, /required/],
    ['api-key', { 'api-key': 'abc\r\nX-Evil: 1' }, /one line.*HTTP header/],
    ['api-key', { 'api-key': 'abc\u0000def' }, /control characters/],
    ['api-key', { 'api-key': 'k'.repeat(5000) }, /too long/],
    ['tenant-id', { 'tenant-id': 'workspace-1' }, /uuid/],
    ['base-url', { 'base-url': 'not a url' }, /URL/],
    ['base-url', { 'base-url': 'api.host.langchain.com' }, /absolute URL/],
    ['base-url', { 'base-url': 'http://api.host.langchain.com' }, /https/],
    ['base-url', { 'base-url': 'http://127.example.com' }, /https/],
    ['base-url', { 'base-url': 'ftp://host.example.com' }, /https/],
    ['base-url', { 'base-url': 'https://user:pw@host.example.com' }, /credentials/],
    ['base-url', { 'base-url': 'https://host.example.com/?x=1' }, /query/],
    ['base-url', { 'base-url': 'https://host.example.com/#top' }, /fragment/],
    ['name', { name: 'My_Agent' }, /lowercase letters, digits and hyphens/],
    ['name', { name: '1agent' }, /starting with a letter/],
    ['name', { name: 'agent\nx' }, /lowercase/],
    ['name', { name: 'a'.repeat(64) }, /at most 63 characters/],
    ['deployment-id', { 'deployment-id': '42' }, /uuid/],
    ['source', { source: 'gitlab' }, /one of `codehost`, `external_docker`/],
    ['integration-id', { 'integration-id': 'gh-1' }, /uuid/],
    ['repository', { repository: 'just-a-name' }, /owner\/name/],
    ['repository', { repository: 'a/b/c' }, /owner\/name/],
    ['repository', { repository: 'https://github.com/a/b' }, /owner\/name/],
    ['ref', { ref: 'main branch' }, /must not contain spaces/],
    ['graph-config-path', { 'graph-config-path': '/abs/langgraph.json' }, /relative/],
    ['secrets', { secrets: 'NOT A PAIR' }, /line 1 is not NAME=VALUE/],
    ['secrets', { secrets: 'A=1\n1BAD=2' }, /line 2: the name must look like an environment/],
    ['secrets', { secrets: 'A=1\nA=2' }, /A is set more than once/],
    ['secrets', { secrets: 'A=1\nEMPTY=' }, /line 2: the value is empty/],
    ['secrets', { secrets: '{"EMPTY": ""}' }, /EMPTY: the value is empty/],
    ['secrets', { secrets: 'PORT=8080' }, /PORT is reserved/],
    ['secrets', { secrets: 'LANGSMITH_ENDPOINT=x' }, /reserved by the platform on hosted/],
    ['secrets', { secrets: '{"A": 1}' }, /value of A must be a string/],
    ['secrets', { secrets: '{"A": "x", "A": "y"}' }, /A is set more than once/],
    [
      'secrets',
      { secrets: '{"A": "x",' },
      /not valid JSON at line 1, column 11: use a JSON object/
    ],
    [
      'secrets',
      { secrets: '{\n"A": "x",\n"A": "y"}' },
      /A is set more than once \(line 3, column 1\)/
    ],
    ['secrets', { secrets: '["A", "B"]' }, /line 1 is not NAME=VALUE/],
    ['secrets', { secrets: '{"BAD-NAME": "x"}' }, /the name must look like an environment/],
    ['resource-spec', { 'resource-spec': 'min_scale: one' }, /min_scale: .*expected number/],
    ['resource-spec', { 'resource-spec': '[1, 2]' }, /must be a YAML or JSON object/],
    ['resource-spec', { 'resource-spec': 'min_scale: [' }, /not valid YAML or JSON at line 1/],
    ['resource-spec', { 'resource-spec': 'cpu: 1\ncpu: 2' }, /key cpu twice \(line 2, column 1\)/],
    ['resource-spec', { 'resource-spec': '{"labels": {"a": 1, "a": 2}}' }, /key a twice/],
    ['resource-spec', { 'resource-spec': 'minscale: 1' }, /unknown keys.*: minscale$/],
    ['build-on-push', { 'build-on-push': 'yes' }, /`true` or `false`/],
    ['custom-url', { 'custom-url': 'agent.example.com' }, /absolute URL/],
    ['custom-url', { 'custom-url': 'javascript:alert(1)' }, /http/],
    ['revision-source', { 'revision-source': 'external_docker' }, /one of `codehost`/],
    ['create', { create: 'yes' }, /`true` or `false`/],
    ['wait', { wait: '1' }, /`true` or `false`/],
    ['dry-run', { 'dry-run': 'on' }, /`true` or `false`/],
    ['timeout', { timeout: '10 minutes' }, /duration like `90s`/],
    ['timeout', { timeout: '0' }, /longer than zero/],
    ['timeout', { timeout: '7h' }, /at most 6h/],
    ['poll-interval', { 'poll-interval': '1.5.h' }, /duration/],
    ['poll-interval', { 'poll-interval': '0s' }, /at least 1s/],
    [
      'poll-interval',
      { timeout: '1m', 'poll-interval': '2m' },
      /not be longer than `timeout` \(1m\)/
    ]
  ])('%s: %j', (input, overrides, message) => {
    const found = problems({ ...CODEHOST, ...overrides })
    expect(inputsOf(found)).toEqual([input])
    expect(found.map(p => p.message).join('\n')).toMatch(message)
    for (const p of found) expect(p.message).toContain(`\`${input}\``)
  })

  test.each<[string, Partial<RawInputs>, RegExp]>([
    ['listener-id', { 'listener-id': 'l-1' }, /uuid/],
    ['k8s-namespace', { 'k8s-namespace': 'Agents' }, /Kubernetes namespace/],
    ['k8s-namespace', { 'k8s-namespace': 'a'.repeat(64) }, /at most 63/],
    ['k8s-namespace', { 'k8s-namespace': 'agents-' }, /ending with a letter or digit/],
    ['image-uri', { 'image-uri': 'img tag' }, /without spaces/],
    ['secret-references', { 'secret-references': 'name: X' }, /must be a YAML or JSON list/],
    [
      'secret-references',
      { 'secret-references': '- {name: X, secret_name: s}' },
      /\[0\]\.secret_key/
    ],
    [
      'secret-references',
      { 'secret-references': '- {name: X, secret_name: s, secret_key: k, secretKey: k}' },
      /unknown keys.*\[0\]\.secretKey/
    ],
    [
      'secret-references',
      { 'secret-references': '- {name: 9X, secret_name: s, secret_key: k}' },
      /environment variable name/
    ],
    [
      'secret-references',
      { 'secret-references': '- {name: PORT, secret_name: s, secret_key: k}' },
      /PORT is reserved/
    ],
    [
      'secret-references',
      {
        'secret-references':
          '- {name: X, secret_name: s, secret_key: k}\n- {name: X, secret_name: t, secret_key: k}'
      },
      /X is listed more than once/
    ],
    [
      'secret-references',
      { secrets: 'X=1', 'secret-references': '- {name: X, secret_name: s, secret_key: k}' },
      /X is also set in `secrets`/
    ],
    ['install-command', { 'install-command': 'a\nb' }, /one line/],
    ['build-command', { 'build-command': 'a\u0007b' }, /one line/]
  ])('external_docker %s: %j', (input, overrides, message) => {
    const found = problems({ ...EXTERNAL, ...overrides })
    expect(inputsOf(found)).toEqual([input])
    expect(found.map(p => p.message).join('\n')).toMatch(message)
  })

  test('resource-spec names unknown keys at any depth', () => {
    const found = problems({
      ...EXTERNAL,
      'resource-spec':
        'min_scale: 1\nmaxscale: 2\nsidecars:\n  - name: proxy\n    imge: envoy\nvolumes:\n  - name: v\n    emptyDirr: {}'
    })
    expect(found).toHaveLength(1)
    expect(found[0]?.message).toMatch(/unknown keys/)
    expect(found[0]?.message).toMatch(/maxscale, sidecars\[0\]\.imge, volumes\[0\]\.emptyDirr$/)
  })
})

describe('checkInputs: how inputs fit together', () => {
  test('an input given but failing its own check gets that problem only, not "required"', () => {
    const only = (raw: Partial<RawInputs>) => problems(raw).map(p => p.input)
    expect(only({ ...EXTERNAL, 'listener-id': 'nope' })).toEqual(['listener-id'])
    expect(only({ ...EXTERNAL, 'image-uri': 'has space' })).toEqual(['image-uri'])
    expect(only({ ...CODEHOST, 'integration-id': 'nope' })).toEqual(['integration-id'])
    expect(only({ ...CODEHOST, name: 'Bad Name' })).toEqual(['name'])
    expect(only({ ...CODEHOST, environment: 'prod', 'github-token': 'a b' })).toEqual([
      'github-token'
    ])
    // A failed deployment-id still targets by id: no "name is required".
    expect(only({ 'api-key': API_KEY, 'deployment-id': 'nope' })).toEqual(['deployment-id'])
  })

  test('name is required unless deployment-id is set', () => {
    const found = problems({ 'api-key': API_KEY })
    expect(inputsOf(found)).toEqual(['name'])
    expect(found[0]?.message).toMatch(/`name` is required.*`deployment-id`/)
  })

  test('an update by name needs no input of a create: only the flow asks, finding nothing', () => {
    const o = options({ 'api-key': API_KEY, name: 'my-agent' }, {})
    expect(o.integrationId).toBeUndefined()
    expect(missingForCreate(o)).toEqual(['integration-id', 'repository', 'ref'])
    const problem = createNeedsProblem(o, 'my-agent', ACTION_SAY)
    expect(problem?.message).toBe(
      'No deployment is named "my-agent", and creating a `codehost` deployment needs `integration-id`, `repository` and `ref`: they were not given.'
    )
    expect(problem?.hint).toMatch(/`create: false` to only update/)
    // The event's repository and ref count as given.
    const fromEvent = options({ 'api-key': API_KEY, name: 'my-agent' })
    expect(missingForCreate(fromEvent)).toEqual(['integration-id'])
    expect(missingForCreate(options({ ...CODEHOST, repository: 'o/r', ref: 'main' }, {}))).toEqual(
      []
    )
  })

  test('build-on-push cannot be true with a tag ref, from the input or from the event', () => {
    const explicit = problems({ ...CODEHOST, ref: 'refs/tags/v1', 'build-on-push': 'true' })
    expect(inputsOf(explicit)).toEqual(['build-on-push'])
    expect(explicit[0]?.message).toMatch(/tag/)
    const fromEvent = problems(
      { ...CODEHOST, 'build-on-push': 'true' },
      { ...EVENT, ref: 'refs/tags/v1' }
    )
    expect(inputsOf(fromEvent)).toEqual(['build-on-push'])
  })

  test('external_docker needs image-uri, listener-id and k8s-namespace to create', () => {
    const o = options({ 'api-key': API_KEY, name: 'x', source: 'external_docker' })
    expect(missingForCreate(o)).toEqual(['image-uri', 'listener-id', 'k8s-namespace'])
    expect(createNeedsProblem(o, 'x', ACTION_SAY)?.message).toMatch(
      /creating an `external_docker` deployment needs `image-uri`, `listener-id` and `k8s-namespace`/
    )
    // Updating by id needs none of them.
    expect(
      options({ 'api-key': API_KEY, 'deployment-id': DEPLOYMENT, source: 'external_docker' }).source
    ).toBe('external_docker')
  })

  test('external_docker rejects codehost inputs given explicitly', () => {
    const found = problems({
      ...EXTERNAL,
      'integration-id': INTEGRATION,
      repository: 'o/r',
      ref: 'main',
      'build-on-push': 'false',
      'revision-source': 'codehost'
    })
    expect(inputsOf(found)).toEqual([
      'build-on-push',
      'integration-id',
      'ref',
      'repository',
      'revision-source'
    ])
    for (const p of found) expect(p.message).toMatch(/not to source `external_docker`/)
  })

  test('external_docker does not take the ref, repository or commit of the event', () => {
    expect(options(EXTERNAL)).toMatchObject({
      ref: undefined,
      repository: undefined,
      expectedSha: undefined
    })
  })

  test('codehost rejects image-uri, listener-id, k8s-namespace and secret-references', () => {
    const found = problems({
      ...CODEHOST,
      'image-uri': 'img:1',
      'listener-id': LISTENER,
      'k8s-namespace': 'agents',
      'secret-references': '[]'
    })
    expect(inputsOf(found)).toEqual([
      'image-uri',
      'k8s-namespace',
      'listener-id',
      'secret-references'
    ])
    for (const p of found) expect(p.message).toMatch(/applies only to .* not to source `codehost`/)
  })

  test('internal_docker needs image-uri; so does revision-source internal_docker', () => {
    expect(
      inputsOf(problems({ 'api-key': API_KEY, name: 'x', source: 'internal_docker' }))
    ).toEqual(['image-uri'])
    const found = problems({
      'api-key': API_KEY,
      'deployment-id': DEPLOYMENT,
      'revision-source': 'internal_docker'
    })
    expect(inputsOf(found)).toEqual(['image-uri'])
    expect(found[0]?.message).toMatch(/revision-source: internal_docker/)
    expect(
      options({
        'api-key': API_KEY,
        'deployment-id': DEPLOYMENT,
        'revision-source': 'internal_docker',
        'image-uri': 'img@sha256:1'
      }).imageUri
    ).toBe('img@sha256:1')
  })

  test('hosted deployments reserve LANGSMITH_API_KEY too', () => {
    const found = problems({ ...CODEHOST, secrets: 'LANGSMITH_API_KEY=abc123456' })
    expect(inputsOf(found)).toEqual(['secrets'])
    expect(found[0]?.message).toMatch(/LANGSMITH_API_KEY is reserved by the platform on hosted/)
  })

  test('every problem is reported at once, field and cross-field alike', () => {
    const found = problems(
      {
        'api-key': '',
        'tenant-id': 'x',
        'base-url': 'http://example.com',
        name: 'Bad Name',
        source: 'codehost',
        'integration-id': 'nope',
        repository: 'nope',
        ref: 'a b',
        secrets: 'nope',
        'resource-spec': 'x: 1',
        'build-on-push': 'maybe',
        'custom-url': 'nope',
        'listener-id': LISTENER,
        'revision-source': 'nope',
        create: 'maybe',
        wait: 'maybe',
        timeout: 'forever',
        'poll-interval': 'often',
        'dry-run': 'maybe'
      },
      {}
    )
    expect(inputsOf(found)).toEqual(
      [
        'api-key',
        'tenant-id',
        'base-url',
        'name',
        'integration-id',
        'repository',
        'ref',
        'secrets',
        'resource-spec',
        'build-on-push',
        'custom-url',
        'listener-id',
        'revision-source',
        'create',
        'wait',
        'timeout',
        'poll-interval',
        'dry-run'
      ].sort()
    )
  })
})

describe('checkInputs: no secret in any message', () => {
  const SECRET = 'hunter2-very-secret-value'
  const JSON_SECRET = 'json-secret-value-42'

  test('values are never repeated, even when pasted into the wrong input', () => {
    const raws: Array<Partial<RawInputs>> = [
      {
        'api-key': `${API_KEY}\n`,
        'tenant-id': API_KEY,
        name: API_KEY,
        'deployment-id': SECRET,
        'base-url': `https://user:${SECRET}@host.example.com/?key=${API_KEY}`,
        source: API_KEY,
        repository: SECRET,
        ref: `${SECRET} x`,
        'graph-config-path': `/${SECRET}`,
        'image-uri': `${API_KEY} x`,
        secrets: `PORT=${SECRET}\n${SECRET}\n1${SECRET}=x\nA=1\nA=${SECRET}\nLANGSMITH_API_KEY=${API_KEY}`,
        'custom-url': SECRET,
        'listener-id': SECRET,
        'k8s-namespace': SECRET,
        'revision-source': SECRET,
        create: SECRET,
        timeout: SECRET,
        'poll-interval': API_KEY,
        'dry-run': API_KEY
      },
      { 'api-key': `bad key ${SECRET}`, name: 'x', secrets: `{"A": "${JSON_SECRET}", "A": "y"}` },
      { 'api-key': API_KEY, name: 'x', secrets: `{"PORT": "${JSON_SECRET}", "B": 5}` },
      { 'api-key': API_KEY, name: 'x', secrets: `{"A": "${JSON_SECRET}",, }` },
      { 'api-key': API_KEY, name: 'x', secrets: `{"${SECRET}": "a", "${SECRET}": "b"}` },
      { 'api-key': API_KEY, name: 'x', secrets: `{A: '${JSON_SECRET}', B: [1]}` },
      { 'api-key': API_KEY, 'base-url': `https://${API_KEY}:x@h.example.com`, name: 'x' },
      // A value pasted alone, its base64 padding looking like `NAME=`.
      { 'api-key': API_KEY, name: 'x', secrets: `A=1\nc2VjcmV0c2VjcmV0=\nA=2` }
    ]
    for (const raw of raws) {
      const text = problems(raw)
        .map(p => p.message)
        .join('\n')
      expect(text.length).toBeGreaterThan(0)
      for (const value of [
        API_KEY,
        SECRET,
        JSON_SECRET,
        API_KEY.slice(0, 20),
        'c2VjcmV0c2VjcmV0'
      ]) {
        expect(text).not.toContain(value)
      }
    }
  })
})

describe('checkInputs: oversized and hostile inputs', () => {
  test('a several-megabyte input gives one clear problem', () => {
    const found = problems({ ...CODEHOST, secrets: 'A=' + 'x'.repeat(5 * 1024 * 1024) })
    expect(found).toEqual([
      { input: 'secrets', message: '`secrets` is 5.0 MiB; at most 1.0 MiB is accepted' }
    ])
  })

  test('plain inputs are capped at 64 KiB', () => {
    const found = problems({ ...CODEHOST, 'install-command': 'x'.repeat(100 * 1024) })
    expect(found).toEqual([
      {
        input: 'install-command',
        message: '`install-command` is 100 KiB; at most 64 KiB is accepted'
      }
    ])
  })

  test('a YAML alias bomb is rejected fast', () => {
    const bomb = ALIAS_BOMB
    const found = problems({ ...EXTERNAL, 'resource-spec': bomb })
    expect(found).toEqual([
      {
        input: 'resource-spec',
        message: '`resource-spec` expands too many YAML aliases (at most 100)'
      }
    ])
  })

  test('an alias whose anchor is not set is named as such, not as too many aliases', () => {
    expect(problems({ ...EXTERNAL, 'resource-spec': 'labels: *missing' })).toEqual([
      {
        input: 'resource-spec',
        message:
          '`resource-spec` uses a YAML alias (*name) whose anchor (&name) is not set before it'
      }
    ])
  })

  // Comparing all pairs of 20,000 keys would outlast the test's timeout; its speed is not timed here.
  test('a big flat map is read whole, and a duplicate key at its end is found', () => {
    const labels = Array.from({ length: 20_000 }, (_, i) => `  key${i}: value-${i}`).join('\n')
    const spec = options({ ...EXTERNAL, 'resource-spec': `labels:\n${labels}` }).resourceSpec
    expect(Object.keys(spec?.labels ?? {})).toHaveLength(20_000)
    expect(
      inputsOf(problems({ ...EXTERNAL, 'resource-spec': `labels:\n${labels}\n  key7: again` }))
    ).toEqual(['resource-spec'])
  })

  test('a few aliases are fine', () => {
    const spec = 'labels: &l {team: ai}\nannotations: *l'
    expect(options({ ...EXTERNAL, 'resource-spec': spec }).resourceSpec).toEqual({
      labels: { team: 'ai' },
      annotations: { team: 'ai' }
    })
  })

  /** `labels` holding maps nested to `depth` levels in all (the top-level object is 1). */
  const nestedLabels = (depth: number, flow: boolean) => {
    let inner = '1'
    for (let i = 0; i < depth - 1; i++) inner = flow ? `{"k": ${inner}}` : `{k: ${inner}}`
    return flow ? `{"labels": ${inner}}` : `labels: ${inner}`
  }

  test.each([true, false])('depth 32 is accepted, 33 is not (JSON: %s)', flow => {
    expect(options({ ...EXTERNAL, 'resource-spec': nestedLabels(32, flow) }).resourceSpec).toEqual(
      expect.objectContaining({ labels: expect.any(Object) })
    )
    expect(problems({ ...EXTERNAL, 'resource-spec': nestedLabels(33, flow) })).toEqual([
      { input: 'resource-spec', message: '`resource-spec` is nested too deeply: at most 32 levels' }
    ])
  })

  test.each([
    ['JSON arrays', '['.repeat(500_000) + ']'.repeat(500_000)],
    ['JSON objects', '{"a":'.repeat(150_000) + '1' + '}'.repeat(150_000)],
    ['YAML sequences', '- '.repeat(400_000) + 'x'],
    ['YAML blocks', Array.from({ length: 1200 }, (_, i) => ' '.repeat(i) + 'k:').join('\n')],
    ['unclosed brackets', '['.repeat(1_000_000)]
  ])('deeply nested %s are rejected without blowing the stack', (_, text) => {
    const found = problems({ ...EXTERNAL, 'resource-spec': text, 'secret-references': text })
    expect(found).toEqual([
      { input: 'secret-references', message: expect.stringMatching(/nested too deeply/) },
      { input: 'resource-spec', message: expect.stringMatching(/nested too deeply/) }
    ])
  })

  test('the nesting pre-scan ignores brackets in strings, comments and block scalars', () => {
    const brackets = '[['.repeat(100)
    expect(nestingMayExceed(`a: "${brackets}"\nb: '${brackets}'\nc: x # ${brackets}`, 10)).toBe(
      false
    )
    expect(nestingMayExceed(`a: |\n  ${brackets}\n      ${brackets}\nb: 1`, 10)).toBe(false)
    expect(nestingMayExceed(`a: ${'['.repeat(11)}`, 10)).toBe(true)
  })
})

describe('secretValuesToMask', () => {
  test('the api key and every NAME=VALUE value, values with "=" whole', () => {
    const values = secretValuesToMask({
      'api-key': API_KEY,
      secrets: '# a comment\nA=first-secret\n\nB=with=equals==\n  C = spaced  '
    })
    expect(values).toEqual(
      expect.arrayContaining([API_KEY, 'first-secret', 'with=equals==', ' spaced  ', 'spaced'])
    )
    expect(values).not.toContain('# a comment')
  })

  test('a line that is not NAME=VALUE is masked whole (it may be a pasted value)', () => {
    expect(secretValuesToMask({ secrets: 'A=1\nstray-secret-line' })).toContain('stray-secret-line')
  })

  test('JSON object values, multi-line ones whole and per line, and their escaped form', () => {
    const values = secretValuesToMask({
      secrets: JSON.stringify({
        KEY: '-----BEGIN KEY-----\nMIIEvQIBADANBg\n-----END KEY-----',
        QUOTED: 'say "hi"',
        N: 12345
      })
    })
    expect(values).toEqual(
      expect.arrayContaining([
        '-----BEGIN KEY-----\nMIIEvQIBADANBg\n-----END KEY-----',
        '-----BEGIN KEY-----\\nMIIEvQIBADANBg\\n-----END KEY-----',
        '-----BEGIN KEY-----',
        'MIIEvQIBADANBg',
        '-----END KEY-----',
        'say "hi"',
        'say \\"hi\\"',
        '12345'
      ])
    )
  })

  test('values of malformed JSON are still found', () => {
    const values = secretValuesToMask({
      secrets: '{"A": "first-value", "B": unquoted-value,\n "C": "unterminated-value'
    })
    expect(values).toEqual(
      expect.arrayContaining(['first-value', 'unquoted-value', 'unterminated-value'])
    )
  })

  test('the YAML flow form of the object is accepted, and exactly its values are masked', () => {
    const secrets = `{A: 'single-quoted-1', "B": 'it''s-quoted-2', C: plain-value-3}`
    expect(options({ ...CODEHOST, secrets }).secrets).toEqual([
      { name: 'A', value: 'single-quoted-1' },
      { name: 'B', value: "it's-quoted-2" },
      { name: 'C', value: 'plain-value-3' }
    ])
    expect(secretValuesToMask({ secrets })).toEqual(
      expect.arrayContaining(['single-quoted-1', "it's-quoted-2", 'plain-value-3'])
    )
  })

  test('an object that does not parse is refused without its value and still masked', () => {
    const secrets = `{A: 'unterminated-value-4`
    const found = problems({ ...CODEHOST, secrets })
    expect(inputsOf(found)).toEqual(['secrets'])
    expect(found[0]?.message).toMatch(
      /^`secrets` starts with `\{` but is not valid JSON at line 1, column \d+: use a JSON object \{"NAME": "value"\} or NAME=VALUE lines$/
    )
    expect(secretValuesToMask({ secrets })).toContain('unterminated-value-4')
  })

  test('a password in base-url or custom-url', () => {
    expect(
      secretValuesToMask({
        'base-url': 'https://me:pa%24%24word@host.example.com',
        'custom-url': 'https://u:other-pass@x.example.com'
      })
    ).toEqual(expect.arrayContaining(['pa%24%24word', 'pa$$word', 'other-pass']))
  })

  test('nothing to mask gives an empty list; longest values come first', () => {
    expect(secretValuesToMask({})).toEqual([])
    const values = secretValuesToMask({ 'api-key': 'short-key', secrets: 'A=a-much-longer-value' })
    expect(values).toEqual(['a-much-longer-value', 'short-key'])
  })
})

describe('checkInputs: GitHub deployment inputs', () => {
  const TOKEN = 'ghs_0123456789abcdefghijABCDEFGHIJ012345'

  test('not set: no token, no environment, nothing else changes', () => {
    expect(options(CODEHOST)).toMatchObject({
      githubToken: undefined,
      environment: undefined,
      environmentUrl: undefined
    })
  })

  test('the token alone (the default ${{ github.token }}) turns nothing on and is fine', () => {
    expect(options({ ...CODEHOST, 'github-token': TOKEN })).toMatchObject({
      githubToken: TOKEN,
      environment: undefined
    })
  })

  test('environment with a token and an environment URL', () => {
    expect(
      options({
        ...CODEHOST,
        'github-token': TOKEN,
        environment: 'production (eu)',
        'environment-url': 'https://agent.example.com/'
      })
    ).toMatchObject({
      githubToken: TOKEN,
      environment: 'production (eu)',
      environmentUrl: 'https://agent.example.com/'
    })
  })

  test('environment without a token says where to get one', () => {
    const list = problems({ ...CODEHOST, environment: 'production' })
    expect(inputsOf(list)).toEqual(['github-token'])
    expect(list[0]?.message).toContain('${{ github.token }}')
    expect(list[0]?.message).toContain('deployments: write')
  })

  test('environment-url without environment is named', () => {
    expect(
      inputsOf(
        problems({ ...CODEHOST, 'github-token': TOKEN, 'environment-url': 'https://x.example' })
      )
    ).toEqual(['environment-url'])
  })

  test('an environment that failed its own check is not also missing for environment-url', () => {
    const list = problems({
      ...CODEHOST,
      'github-token': TOKEN,
      environment: 'a'.repeat(256),
      'environment-url': 'https://x.example'
    })
    expect(list).toEqual([
      { input: 'environment', message: '`environment` must be at most 255 characters' }
    ])
  })

  test('bad values are named, never quoted', () => {
    const list = problems({
      ...CODEHOST,
      'github-token': 'ghs_has a space-0123456789',
      environment: 'a'.repeat(256),
      'environment-url': 'ftp://user:hunter2-secret@files.example.com'
    })
    expect(inputsOf(list)).toEqual(['environment', 'environment-url', 'github-token'])
    const text = JSON.stringify(list)
    expect(text).not.toContain('ghs_has a space')
    expect(text).not.toContain('hunter2-secret')
  })

  test('the token and a password in environment-url are masked', () => {
    expect(
      secretValuesToMask({
        'github-token': TOKEN,
        'environment-url': 'https://u:url-password-1@x.example.com'
      })
    ).toEqual(expect.arrayContaining([TOKEN, 'url-password-1']))
  })
})

describe('each input declared once: action.yml and the inputs table', () => {
  const root = new URL('../..', import.meta.url).pathname

  test('src/interface/action-yml.ts is action.yml as it is (`npm run readme` regenerates it)', async () => {
    const sources = repositorySources(root)
    const expected = await renderActionModule(sources.action, root)
    expect(readFileSync(join(root, ACTION_MODULE), 'utf8')).toBe(expected)
  })

  test('the table has one row per input of action.yml, and no other', () => {
    const action = repositorySources(root).action
    expect(Object.keys(INPUTS)).toEqual(Object.keys(action.inputs))
    expect(INPUT_NAMES).toEqual(Object.keys(action.inputs))
  })

  test('a check sees the default of action.yml when the input is not set', () => {
    const o = options({ ...CODEHOST })
    expect(o).toMatchObject({
      baseUrl: ACTION_INPUTS['base-url'].default,
      graphConfigPath: ACTION_INPUTS['graph-config-path'].default,
      failureLogs: Number(ACTION_INPUTS['failure-logs'].default),
      timeoutMs: 30 * 60_000
    })
  })

  test('the unevaluated `${{ github.token }}` (a local runner passes it as is) counts as not set', () => {
    const o = options({ ...CODEHOST, 'github-token': '${{ github.token }}' })
    expect(o.githubToken).toBeUndefined()
  })

  test('what applies only to deploying is derived: inputs for deploy without a default', () => {
    const list = problems({
      'api-key': API_KEY,
      name: 'my-agent',
      command: 'delete',
      'integration-id': INTEGRATION,
      'custom-url': 'https://agent.example.com'
    })
    expect(list.map(p => p.message)).toEqual([
      '`integration-id` applies only to deploying, not to `command: delete`',
      '`custom-url` applies only to deploying, not to `command: delete`'
    ])
  })
})

describe('issue 18: a mistyped command, ref as git checks it, common-word secrets', () => {
  test.each(['DELETE', 'remove', 'Deploy'])('command %s: one problem, the command', command => {
    // No integration-id: a deploy of a new codehost deployment would need one.
    const list = problems({ 'api-key': API_KEY, name: 'my-agent', command })
    expect(list).toEqual([
      {
        input: 'command',
        message: '`command` must be one of `deploy`, `delete`, `sweep`, `check`, `plan`'
      }
    ])
  })

  test('a mistyped command still reports a missing target and other bad inputs', () => {
    const list = problems({ 'api-key': API_KEY, command: 'remove', timeout: 'soon' })
    expect(inputsOf(list)).toEqual(['command', 'name', 'timeout'])
  })

  test.each([
    ['main..x', /must not contain `\.\.`/],
    ['a b', /must not contain spaces/],
    ['feature~1', /any of ~/],
    ['x^', /any of ~ \^/],
    ['a:b', /any of ~ \^ :/],
    ['what?', /\?/],
    ['wild*', /\*/],
    ['br[0]', /\[/],
    ['back\\slash', /\\/],
    ['a@{1}', /must not contain `@\{`/],
    ['@', /must not be `@` alone/],
    ['/main', /must not start or end with `\/`/],
    ['main/', /must not start or end with `\/`/],
    ['a//b', /nor contain `\/\/`/],
    ['main.', /must not end with `\.`/],
    ['.hidden', /starts with `\.`/],
    ['team/.x', /starts with `\.`/],
    ['topic.lock', /ends with `\.lock`/],
    ['refs/tags/v1.lock/x', /ends with `\.lock`/]
  ])('ref %s is refused as git refuses it', (ref, reason) => {
    const list = problems({ ...CODEHOST, ref })
    expect(list).toHaveLength(1)
    expect(list[0]!.input).toBe('ref')
    expect(list[0]!.message).toMatch(
      /^`ref` must be a branch name or `refs\/tags\/<tag>` as git allows it/
    )
    expect(list[0]!.message).toMatch(reason)
  })

  test.each(['main', 'feature/login-2', 'refs/tags/v1.2.0', 'release-1.x', 'user@host', 'a.b'])(
    'ref %s is accepted',
    ref => {
      expect(options({ ...CODEHOST, ref }).ref).toBe(ref)
    }
  )

  test('refs/heads/X is deployed as X, with a notice that says so', () => {
    const result = checkInputs(
      { ...CODEHOST, ref: 'refs/heads/feature/x' },
      EVENT,
      ACTION_SAY,
      COMMAND_RULES
    )
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.options.ref).toBe('feature/x')
    expect(result.notices).toEqual([
      '`ref`: refs/heads/feature/x is deployed as the branch name feature/x, the form the control plane takes.'
    ])
    const plain = checkInputs({ ...CODEHOST, ref: 'main' }, EVENT, ACTION_SAY, COMMAND_RULES)
    expect(plain.ok && plain.notices).toEqual([])
  })

  test.each(['refs/pull/12/merge', 'refs/pull/12/head'])(
    '%s is refused, naming the pull request head branch',
    ref => {
      const event: EventDefaults = { ...EVENT, ref: 'feature-login', pullRequestNumber: 12 }
      const list = problems({ ...CODEHOST, ref }, event)
      expect(list).toHaveLength(1)
      expect(list[0]!.input).toBe('ref')
      expect(list[0]!.message).toMatch(/pull request's ref/)
      expect(list[0]!.message).toMatch(/head branch, `feature-login`/)
      // Outside a pull request event, the hint is the expression that gives the head branch.
      const other = problems({ ...CODEHOST, ref }, EVENT)
      expect(other[0]!.message).toMatch(/`\$\{\{ github\.head_ref \}\}`/)
    }
  )

  test('secrets whose values are common words are named once and not masked', () => {
    const secrets = [
      'DEBUG=true',
      'LOG_LEVEL=info',
      'MODE=main',
      'STATE=READY',
      'OPENAI_API_KEY=sk-live-abcdef0123'
    ].join('\n')
    const o = options({ ...CODEHOST, secrets })
    expect(commonWordSecretNames(o.secrets ?? [])).toEqual(['DEBUG', 'LOG_LEVEL', 'MODE', 'STATE'])
    const masked = secretValuesToMask({ 'api-key': API_KEY, secrets })
    expect(masked).toEqual(expect.arrayContaining([API_KEY, 'sk-live-abcdef0123']))
    for (const word of ['true', 'info', 'main', 'READY']) expect(masked).not.toContain(word)
  })

  test('the API key is masked even when it is a common word', () => {
    expect(secretValuesToMask({ 'api-key': 'production' })).toEqual(['production'])
  })
})

describe('issue 25: refs, paths and URLs that read as something else', () => {
  test.each([
    ['ma\u202Eni', /invisible or direction-changing characters \(it has U\+202E\)/],
    ['main\u200B', /U\+200B/],
    ['feature/\u00A0x', /U\+00A0/],
    ['\uFF4D\uFF41\uFF49\uFF4E', /fullwidth or halfwidth forms \(it has U\+FF4D\)/]
  ])('ref %j is refused, the character named by its code point', (ref, reason) => {
    const list = problems({ ...CODEHOST, ref })
    expect(list).toHaveLength(1)
    expect(list[0]).toEqual({
      input: 'ref',
      message: expect.stringMatching(/^`ref` must be a branch name/)
    })
    expect(list[0]!.message).toMatch(reason)
  })

  test.each(['fix/café', 'docs/日本語', 'релиз'])('ref %s in any script is accepted', ref => {
    expect(options({ ...CODEHOST, ref }).ref).toBe(ref)
  })

  test.each([
    ['pull/5', "CircleCI's name of a pull request"],
    ['refs/pull/5/head', "GitHub's"]
  ])('ref %s is a pull request, not a branch (%s)', ref => {
    expect(problems({ ...CODEHOST, ref })[0]?.message).toMatch(/^`ref` is a pull request's ref/)
  })

  test('a ref from the event goes through the same check, naming where it was read', () => {
    for (const [ref, reason] of [
      ['main..x', /must not contain `\.\.`/],
      ['evil:main', /any of ~ \^ :/],
      ['ma\u202Eni', /U\+202E/]
    ] as const) {
      const list = problems(CODEHOST, { ...EVENT, ref, refFrom: 'CI_COMMIT_BRANCH' })
      expect(list).toEqual([{ input: 'ref', message: expect.stringMatching(reason) }])
      expect(list[0]!.message).toMatch(/^The ref read from CI_COMMIT_BRANCH must be a branch name/)
      expect(list[0]!.message).toMatch(/set `ref` to the branch to deploy/)
    }
    const pr = problems(CODEHOST, { ...EVENT, ref: 'pull/5', refFrom: 'CIRCLE_BRANCH' })
    expect(pr[0]?.message).toMatch(/^The ref read from CIRCLE_BRANCH is a pull request's ref/)
    // Without a variable to name, the event is named.
    const plain = problems(CODEHOST, { ...EVENT, ref: 'a b' })
    expect(plain[0]?.message).toMatch(/^The ref the triggering event gives must be/)
    // The input wins: an explicit ref replaces the event's, which is then not checked.
    expect(options({ ...CODEHOST, ref: 'main' }, { ...EVENT, ref: 'a b' }).ref).toBe('main')
    // A source that builds no repository takes no ref from the event, so nothing to refuse.
    expect(options(EXTERNAL, { ...EVENT, ref: 'a b' }).ref).toBeUndefined()
  })

  test.each(['../../../etc/passwd', 'apps/../../x.json', '..\\..\\x.json'])(
    'graph-config-path %s escaping the repository is refused',
    path => {
      expect(problems({ ...CODEHOST, 'graph-config-path': path })).toEqual([
        {
          input: 'graph-config-path',
          message: expect.stringMatching(/^`graph-config-path` must stay inside the repository/)
        }
      ])
    }
  )

  test.each(['apps/agent/../langgraph.json', './langgraph.json', 'a..b/langgraph.json'])(
    'graph-config-path %s inside the repository is accepted',
    path => {
      expect(options({ ...CODEHOST, 'graph-config-path': path }).graphConfigPath).toBe(path)
    }
  )

  test.each([
    ['custom-url', 'https://agent\u200B.example.com', /U\+200B/],
    ['custom-url', 'https://agent.example.com/\u2060x', /U\+2060/],
    ['environment-url', 'https://\u202Egro.example', /U\+202E/],
    ['base-url', 'https://api.host.lang\u200Dchain.com', /U\+200D/]
  ] as const)('%s with an invisible character is refused, naming it', (input, url, reason) => {
    const raw = {
      ...CODEHOST,
      [input]: url,
      ...(input === 'environment-url' ? { environment: 'prod', 'github-token': 'ghs_x' } : {})
    }
    const list = problems(raw)
    expect(list).toEqual([{ input, message: expect.stringMatching(reason) }])
    expect(list[0]!.message).toMatch(new RegExp(`^\`${input}\` must not contain invisible`))
  })
})

describe('the rows say which source takes what', () => {
  test('internal_source (an upload) needs no integration-id, repository or ref, and takes none', () => {
    const upload = { 'api-key': API_KEY, name: 'uploaded', source: 'internal_source' }
    expect(options(upload)).toMatchObject({ source: 'internal_source', ref: undefined })
    const found = problems({ ...upload, 'integration-id': INTEGRATION, ref: 'main' })
    expect(found).toEqual([
      {
        input: 'integration-id',
        message: expect.stringMatching(
          /applies only to source `codehost`, not to source `internal_source`/
        )
      },
      {
        input: 'ref',
        message: expect.stringMatching(
          /applies only to source `codehost` \(or `revision-source: codehost`\)/
        )
      }
    ])
  })

  test('a default fits every source: only what the user set is out of place', () => {
    // graph-config-path has a default and is for every source; given, it is kept.
    expect(options({ ...EXTERNAL, 'graph-config-path': 'x/langgraph.json' }).graphConfigPath).toBe(
      'x/langgraph.json'
    )
    expect(inputsOf(problems({ ...EXTERNAL, 'build-on-push': 'false' }))).toEqual(['build-on-push'])
  })
})

describe('promotion inputs', () => {
  const REVISION = '77777777-7777-4777-8777-777777777777'

  test('promote-revision-id and verify-source: false need promote-from, before any request', () => {
    const list = problems({
      ...CODEHOST,
      'promote-revision-id': REVISION,
      'verify-source': 'false'
    })
    expect(inputsOf(list)).toEqual(['promote-revision-id', 'verify-source'])
    expect(list[0]!.message).toContain('set `promote-from` too')
    expect(
      inputsOf(problems({ ...CODEHOST, 'promote-from': 'staging', 'promote-revision-id': 'r-1' }))
    ).toEqual(['promote-revision-id'])
  })

  test('with promote-from: the revision to promote, and the source verified unless told not to', () => {
    const o = options({ ...CODEHOST, 'promote-from': 'staging', 'promote-revision-id': REVISION })
    expect(o).toMatchObject({ promoteRevisionId: REVISION, verifySource: true })
    const unverified = options({ ...CODEHOST, 'promote-from': 'staging', 'verify-source': 'false' })
    expect(unverified.verifySource).toBe(false)
  })
})

describe('command: sweep: bad inputs, each named with what is expected', () => {
  const sweep = (over: Partial<RawInputs>) => ({ 'api-key': API_KEY, command: 'sweep', ...over })
  test.each([
    [{}, /`sweep-names` is required with `command: sweep`/],
    [{ 'sweep-names': '*' }, /`sweep-names` must name a part of the deployments/],
    [{ 'sweep-names': 'pv-*' }, /needs a criterion/],
    [{ 'sweep-names': 'pv-*', 'sweep-closed': 'true' }, /`sweep-closed` needs `\{pr\}`/],
    [{ 'sweep-names': 'pv-*', 'sweep-max-age': '7 days' }, /`sweep-max-age` must be a duration/],
    [
      { 'sweep-names': 'pv-*', 'sweep-max-age': '7' },
      /`sweep-max-age` needs a unit: `7` would be 7 seconds; write `7d` for days or `7h` for hours \(at least `1h`\)/
    ],
    [{ 'sweep-names': 'pv-*', 'sweep-max-age': '30m' }, /`sweep-max-age` must be at least `1h`/],
    [
      { 'sweep-names': 'my-agent', 'sweep-max-age': '7d' },
      /`sweep-names` must hold `\{pr\}` or `\*`/
    ],
    [{ 'sweep-names': 'pv-{pr}', name: 'pv-1' }, /`name` applies only to command/]
  ] as [Partial<RawInputs>, RegExp][])('%j', (over, says) => {
    expect(problems(sweep(over)).map(p => p.message)).toContainEqual(expect.stringMatching(says))
  })
})

describe('smoke-test: a path inside the repository', () => {
  test('without health-check, one problem saying it needs it', () => {
    const list = problems({ ...CODEHOST, 'smoke-test': 'smoke.json' })
    expect(list.map(p => p.message)).toContainEqual(
      expect.stringMatching(/`smoke-test` needs `health-check`/)
    )
  })

  test.each([
    ['/proc/self/environ', /`smoke-test` must be relative to the repository root/],
    ['../outside.yaml', /`smoke-test` must stay inside the repository/]
  ])('%s', (path, says) => {
    const list = problems({ ...CODEHOST, 'health-check': 'true', 'smoke-test': path })
    expect(list.map(p => p.message)).toContainEqual(expect.stringMatching(says))
  })
})
