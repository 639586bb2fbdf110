// The emulator's house rules: no import cycle (type imports included) and no file over 400 lines.
import { expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = resolve('src/emulator')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []
  )
}

/** Relative imports of a file inside src/emulator, resolved to absolute paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specs = [...text.matchAll(/(?:from|import)\s+'(\.[^']+\.ts)'/g)].map(m => m[1]!)
  return specs.map(s => resolve(dirname(file), s)).filter(p => p.startsWith(ROOT))
}

function findCycle(files: string[]): string[] | null {
  const graph = new Map(files.map(f => [f, importsOf(f)]))
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
  for (const f of files) {
    const cycle = visit(f)
    if (cycle) return cycle.map(p => relative(ROOT, p))
  }
  return null
}

it('src/emulator has no import cycle, type-only imports included', () => {
  expect(findCycle(sources(ROOT))).toBeNull()
})

it('no emulator source file is over 400 lines', () => {
  const long = sources(ROOT)
    .map(f => ({ file: relative(ROOT, f), lines: readFileSync(f, 'utf8').split('\n').length }))
    .filter(f => f.lines > 400)
  expect(long).toEqual([])
})
