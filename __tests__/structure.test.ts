// The house rules of src/: no import cycle (type-only imports included), no file over 400 lines,
// and the runner (workflow commands, outputs, the summary) reached only from the entry layer.
import { expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = resolve('src')
const ENTRY = ['main.ts', 'index.ts'].map(f => join(ROOT, f))

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []
  )
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'([^']+)'/g)].map(m => m[1]!)
}

/** Relative imports of a file, resolved to absolute paths inside src/. */
function importsOf(file: string): string[] {
  return specifiersOf(file)
    .filter(s => s.startsWith('.'))
    .map(s => resolve(dirname(file), s))
    .filter(p => p.startsWith(ROOT))
}

/** One cycle of `graph` (file -> its imports), the first file again at the end; or null. */
function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (f: string): string[] | null => {
    if (state.get(f) === 'done') return null
    if (state.get(f) === 'open') return [...stack.slice(stack.indexOf(f)), f]
    state.set(f, 'open')
    stack.push(f)
    for (const next of graph.get(f) ?? []) {
      const cycle = visit(next)
      if (cycle) return cycle
    }
    stack.pop()
    state.set(f, 'done')
    return null
  }
  for (const f of graph.keys()) {
    const cycle = visit(f)
    if (cycle) return cycle
  }
  return null
}

function importGraph(): Map<string, string[]> {
  return new Map(sources(ROOT).map(f => [f, importsOf(f)]))
}

it('src/ has no import cycle, type-only imports included', () => {
  expect(findCycle(importGraph())?.map(p => relative(ROOT, p)) ?? null).toBeNull()
})

it('no source file in src/ is over 400 lines', () => {
  const long = sources(ROOT)
    .map(f => ({ file: relative(ROOT, f), lines: readFileSync(f, 'utf8').split('\n').length }))
    .filter(f => f.lines > 400)
  expect(long).toEqual([])
})

it('only the entry layer reaches the runner: @actions/core and src/runner.ts', () => {
  const runner = join(ROOT, 'runner.ts')
  const reaching = sources(ROOT)
    .filter(f => !ENTRY.includes(f))
    .filter(f => specifiersOf(f).includes('@actions/core') || importsOf(f).includes(runner))
    .map(f => relative(ROOT, f))
  expect(reaching).toEqual([])
})

it('nothing in src/ imports a package that loads undici at start: only by import() or for types', () => {
  // @actions/core, @actions/http-client and @actions/github import undici at their top level; the
  // action uses them only behind a proxy or with `environment`. (lib/proxy alone does not.)
  const heavy = /^@actions\/(core|github|http-client)$|^undici$/
  const offenders = sources(ROOT).flatMap(f => {
    const text = readFileSync(f, 'utf8')
    const statics = /^\s*(?:import|export)(?!\s+type\b)(?:[^'();]*?\bfrom)?\s*'([^']+)'/gm
    return [...text.matchAll(statics)]
      .filter(m => heavy.test(m[1]!))
      .map(m => `${relative(ROOT, f)}: ${m[0].trim()}`)
  })
  expect(offenders).toEqual([])
})

it('the cycle check sees a cycle, also through a type-only import', () => {
  const graph = importGraph()
  expect(graph.get(join(ROOT, 'inputs/cross-field.ts'))).toContain(join(ROOT, 'inputs/checks.ts'))
  // The cycle there was before checks.ts: cross-field.ts took `type Fields` from index.ts.
  graph.set(join(ROOT, 'inputs/cross-field.ts'), [join(ROOT, 'inputs/index.ts')])
  expect(new Set(findCycle(graph)?.map(p => relative(ROOT, p)))).toEqual(
    new Set(['inputs/cross-field.ts', 'inputs/index.ts'])
  )
})
