// The house rules of src/: no import cycle (type-only imports included), functions short enough
// to read at once, the runner (@actions/core) reached only from the action's door (src/action/), and the flow
// (src/run.ts and below) never reading the process environment.
import { expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { execFileSync } from 'node:child_process'
import {
  findCycle,
  importGraph as graphOf,
  layerOf as layerIn,
  namesApart,
  sources,
  specifiersOf,
  SRC_LAYERS,
  upwardImports
} from '../scripts/layers.ts'

const ROOT = resolve('src')
const DOOR = join(ROOT, 'action')
/** The action's door and the two files that only start it. */
const ENTRY = ['main.ts', 'index.ts'].map(f => join(ROOT, f))

const importGraph = () => graphOf(ROOT)

it('src/ has no import cycle, type-only imports included', () => {
  expect(findCycle(importGraph())?.map(p => relative(ROOT, p)) ?? null).toBeNull()
})

/** Functions of `files` longer than `max` lines, with their length (scripts/long-functions.ts). */
function longFunctions(files: string[], max: number): string[] {
  const out = execFileSync(
    resolve('node_modules/node/bin/node'),
    ['scripts/long-functions.ts', String(max), ...files],
    { env: { ...process.env, NODE_COMPILE_CACHE: resolve('node_modules/.cache/cpd-node-compile') } }
  )
  return (JSON.parse(out.toString()) as string[]).map(f => relative(ROOT, f))
}

/** The layer of a file of src/ (scripts/layers.ts: the layers and their purposes). */
const layerOf = (file: string) => layerIn(SRC_LAYERS, ROOT, file)

it('every module of src/ has a layer, and none imports from a layer above its own', () => {
  const graph = importGraph()
  expect([...graph.keys()].filter(f => layerOf(f) === -1).map(f => relative(ROOT, f))).toEqual([])
  expect(upwardImports(SRC_LAYERS, ROOT, graph)).toEqual([])
})

it('layers name folders, or files at the top of src/: no file has a layer apart from its folder', () => {
  expect(namesApart(SRC_LAYERS)).toEqual([])
})

it('src/ reads at once: no function in it is over 60 lines', () => {
  expect(longFunctions(sources(ROOT), 60)).toEqual([])
})

it('the length check sees a long function', () => {
  const probe = join(mkdtempSync(join(tmpdir(), 'structure-')), 'long.ts')
  writeFileSync(probe, `export function long() {\n${'  void 0\n'.repeat(61)}}\n`)
  expect(longFunctions([probe], 60)).toHaveLength(1)
  expect(longFunctions([probe], 70)).toEqual([])
})

it('only the action door (src/action/) imports @actions/core', () => {
  const reaching = sources(ROOT)
    .filter(f => !f.startsWith(DOOR + '/'))
    .filter(f => specifiersOf(f).includes('@actions/core'))
    .map(f => relative(ROOT, f))
  expect(reaching).toEqual([])
})

it('the log has two writers, the doors, and each passes every line through logSafe (src/inert.ts)', () => {
  // Nothing below the doors writes to stdout or stderr itself: its lines go through the port.
  const writers = sources(ROOT)
    .filter(f => /\bconsole\.|process\.(stdout|stderr)/.test(readFileSync(f, 'utf8')))
    .map(f => relative(ROOT, f))
  expect(writers).toEqual(['cli/index.ts'])
  // The action's door: each call that writes to the log gets its text from logSafe.
  const door = readFileSync(join(ROOT, 'action/main.ts'), 'utf8')
  const calls = [
    ...door.matchAll(/core\.(info|debug|warning|notice|error|group|setFailed)\(([^)]{0,8})/g)
  ]
  expect(calls.length).toBeGreaterThan(5)
  expect(calls.filter(m => !m[2]!.startsWith('logSafe(')).map(m => m[0])).toEqual([])
  // The CLI's: its one line writer filters what it writes.
  expect(readFileSync(join(ROOT, 'cli/log.ts'), 'utf8')).toContain(
    'this.#stream.write(`${logSafe(this.#redactor.redact(line))}\\n`)'
  )
})

/** Reads of a `GITHUB_*` variable: `env.GITHUB_X`, `env['GITHUB_X']`, `{ GITHUB_X } = env`. */
const READS_GITHUB =
  /\.GITHUB_[A-Z_]+\b|\[\s*['"`]GITHUB_[A-Z_]+['"`]\s*\]|\{[^}]*\bGITHUB_[A-Z_]+\b[^}]*\}\s*=/

it("only the doors and the context module read the runner's GITHUB_* variables", () => {
  // The doors read them once into a typed context (src/runner/context.ts) and hand it down
  // (`port.github`, `port.event`); below them a message may name a variable, never read one.
  const allowed = (f: string) =>
    ENTRY.includes(f) ||
    [DOOR, join(ROOT, 'cli')].some(d => f.startsWith(d + '/')) ||
    f.endsWith('/context.ts')
  const offenders = sources(ROOT)
    .filter(f => !allowed(f))
    .filter(f => READS_GITHUB.test(readFileSync(f, 'utf8')))
    .map(f => relative(ROOT, f))
  expect(offenders).toEqual([])
})

it('the GITHUB_* check sees each way of reading one, and not a message that names one', () => {
  for (const read of [
    'const a = env.GITHUB_SHA',
    "const a = env['GITHUB_REPOSITORY']",
    'const { GITHUB_API_URL: api } = env'
  ])
    expect(READS_GITHUB.test(read)).toBe(true)
  expect(READS_GITHUB.test("log('GITHUB_REPOSITORY is not set to owner/name')")).toBe(false)
})

/**
 * A message's naming of an input left optional or defaulted: `say?:`, `naming?:`, `inputName?:`,
 * `say?.(`, `say ? … : …`, `say ?? …`, `?? ACTION_NAMING` (or `= ACTION_NAMING`), `sayOf(`.
 */
const OPTIONAL_NAMING =
  /\b(?:say|naming|inputName)\?[:.]|\bsay\s\?\s|\bsay\s*\?\?|(?:\?\?|=)\s*ACTION_NAMING\b|\bsayOf\(/

it('how a message names an input is required below the doors: no optional or defaulted naming', () => {
  // Each door makes its Say once (src/interface/naming.ts) and hands it down, like the clock: a
  // fallback to the action's names would have the CLI say `timeout` where its user set --timeout.
  const offenders = sources(ROOT)
    .filter(f => OPTIONAL_NAMING.test(readFileSync(f, 'utf8')))
    .map(f => relative(ROOT, f))
  expect(offenders).toEqual([])
  const makers = sources(ROOT)
    .filter(f => !f.startsWith(DOOR + '/') && f !== join(ROOT, 'interface/naming.ts'))
    .filter(f => /\bactionSay\(/.test(readFileSync(f, 'utf8')))
    .map(f => relative(ROOT, f))
  expect(makers).toEqual([])
})

it('the optional-naming check sees each way of leaving it out, and not a required one', () => {
  for (const optional of [
    '  say?: Say',
    '  naming?: InputNaming',
    '  inputName?: string',
    'const n = port.naming ?? ACTION_NAMING',
    'naming: InputNaming = ACTION_NAMING',
    "`${sayOf(deps)('timeout')}`",
    "deps.say?.('timeout') ?? '`timeout`'",
    "deps.say ? deps.say('secrets') : '`secrets`'",
    'const speak = say ?? actionSay()'
  ])
    expect(OPTIONAL_NAMING.test(optional)).toBe(true)
  for (const required of ['  say: Say', "`${deps.say('timeout')}`", 'const { say } = port'])
    expect(OPTIONAL_NAMING.test(required)).toBe(false)
})

it('the flow does not know where it runs: no process.env, no signal handlers outside the doors', () => {
  // The workflow run comes through the port (`port.github`, a context the door read once). The
  // doors (src/action/, src/cli/ and the files that start them) may.
  const doors = [DOOR, join(ROOT, 'cli')]
  const offenders = sources(ROOT)
    .filter(f => !ENTRY.includes(f) && !doors.some(d => f.startsWith(d + '/')))
    .filter(f => /\bprocess\.(env\b|once\(|on\()/.test(readFileSync(f, 'utf8')))
    .map(f => relative(ROOT, f))
  expect(offenders).toEqual([])
})

it('nothing in src/ imports a package that loads undici at start, but @actions/core in the door', () => {
  // @actions/http-client and undici load undici at their top level, and octokit is large; the
  // action uses them only behind a proxy or with `environment`, so only by import(). @actions/core
  // loads undici too (its OIDC client), as in every action: the runner's protocol, in src/action/.
  const heavy = /^@actions\/http-client$|^undici$|^@octokit\//
  const offenders = sources(ROOT).flatMap(f => {
    const text = readFileSync(f, 'utf8')
    const statics = /^\s*(?:import|export)(?!\s+type\b)(?:[^'();]*?\bfrom)?\s*'([^']+)'/gm
    return [...text.matchAll(statics)]
      .filter(m => heavy.test(m[1]!))
      .map(m => `${relative(ROOT, f)}: ${m[0].trim()}`)
  })
  expect(offenders).toEqual([])
})

it('nothing in src/ imports @actions/github: its import reads the runner variables and event again', () => {
  const offenders = sources(ROOT).filter(f => specifiersOf(f).includes('@actions/github'))
  expect(offenders.map(f => relative(ROOT, f))).toEqual([])
})

it('only src/net/ sends requests: no other file imports node:http or node:https', () => {
  const offenders = sources(ROOT)
    .filter(f => !f.startsWith(join(ROOT, 'net') + '/'))
    .filter(f => specifiersOf(f).some(s => /^(node:)?https?$/.test(s)))
    .map(f => relative(ROOT, f))
  expect(offenders).toEqual([])
  expect(specifiersOf(join(ROOT, 'net/request.ts'))).toContain('node:http')
})

it('the action reaches its first request without zod, yaml or the public suffix list: each only behind import()', () => {
  // Each takes a good part of the start-up: the zod model is loaded when the first answer is read
  // (control-plane/load-schema.ts), yaml with the YAML/JSON inputs' parser when one is set
  // (inputs/documents.ts). A static import on the way from the entry would load them at start.
  const statics = /^\s*(?:import|export)(?!\s+type\b)(?:[^'();]*?\bfrom)?\s*'([^']+)'/gm
  const importsOf = (file: string) =>
    [...readFileSync(file, 'utf8').matchAll(statics)].map(m => m[1]!)
  const reached = new Set<string>()
  const visit = (file: string) => {
    if (reached.has(file)) return
    reached.add(file)
    for (const s of importsOf(file).filter(s => s.startsWith('.'))) visit(resolve(dirname(file), s))
  }
  visit(join(ROOT, 'index.ts'))
  expect(reached).toContain(join(ROOT, 'control-plane/client.ts'))
  expect(reached).not.toContain(join(ROOT, 'control-plane/schema.ts'))
  const offenders = [...reached].flatMap(f =>
    importsOf(f)
      .filter(s => s === 'zod' || s === 'yaml' || s.startsWith('tldts'))
      .map(s => `${relative(ROOT, f)}: ${s}`)
  )
  expect(offenders).toEqual([])
})

it('the cycle check sees a cycle, also through a type-only import', () => {
  const graph = importGraph()
  expect(graph.get(join(ROOT, 'inputs/rules.ts'))).toContain(join(ROOT, 'inputs/table.ts'))
  // The cycle there was before table.ts: the rules took `type Fields` from index.ts.
  graph.set(join(ROOT, 'inputs/rules.ts'), [join(ROOT, 'inputs/index.ts')])
  expect(new Set(findCycle(graph)?.map(p => relative(ROOT, p)))).toEqual(
    new Set(['inputs/rules.ts', 'inputs/index.ts'])
  )
})

/**
 * Where a unit test lives: at the mirrored path of its module (src/ left out), as
 * `<module>.test.ts` or `<module>.<aspect>.test.ts`. The behaviour suites stay by door, and the
 * checks of the whole repository sit at the root of __tests__/ (CONTRIBUTING.md, "Tests").
 */
const BY_DOOR = ['e2e/', 'reliability/', 'package/', 'agent-server/', 'examples/']
const WHOLE_REPO = ['structure', 'emulator/structure', 'docs', 'ecosystem', 'package-name']

/** The module a unit test file mirrors, or null when it mirrors none. */
function mirroredModule(test: string): string | null {
  const base = test.replace(/\.test\.ts$/, '')
  const dir = dirname(base)
  const module = (dir === '.' ? '' : `${dir}/`) + base.split('/').at(-1)!.split('.')[0]!
  const candidates = [`src/${module}.ts`, `${module}.ts`]
  return candidates.find(c => existsSync(resolve(c))) ?? null
}

it('every unit test sits at the mirrored path of a module', () => {
  const tests = sources(resolve('__tests__'))
    .map(f => relative(resolve('__tests__'), f))
    .filter(f => f.endsWith('.test.ts'))
  expect(tests.length).toBeGreaterThan(50)
  const astray = tests
    .filter(t => !BY_DOOR.some(d => t.startsWith(d)))
    .filter(t => !WHOLE_REPO.includes(t.replace(/\.test\.ts$/, '')))
    .filter(t => mirroredModule(t) === null)
  expect(astray).toEqual([])
  // And the rule sees a stray file.
  expect(mirroredModule('commands/deploy/nowhere.test.ts')).toBeNull()
  expect(mirroredModule('commands/deploy/steps/plan.test.ts')).toBe(
    'src/commands/deploy/steps/plan.ts'
  )
  expect(mirroredModule('emulator/builds/logs.test.ts')).toBe('emulator/builds/logs.ts')
})
