// One flow, two doors: the action (src/action/) and the CLI (src/cli/) both run src/run.ts, and
// neither reaches the flow's parts (the deploy, the client, the GitHub side, the report) any other
// way. What the doors do besides is theirs: inputs, log, outputs, signals.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const SRC = resolve(import.meta.dirname, '../src')

function filesOf(dir: string): string[] {
  return readdirSync(join(SRC, dir)).map(f => join(SRC, dir, f))
}

/** Every file of src/ a door's file imports, relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\s*\(?\s*'(\.[^']+)'/g)]
    .map(m => relative(SRC, resolve(dirname(file), (m[1] ?? m[2])!)))
    .filter(p => !p.startsWith('..'))
}

/**
 * The flow: what runs a deploy or a delete, and what only the flow may call. The workflow run's
 * context (runner/context.ts) and its event's defaults (runner/event.ts) are not: the doors read
 * them and hand them to the flow.
 */
const FLOW =
  /^(deploy\/|github\/(?!(context|event)\.ts$)|control-plane\/(client|http|paging)\b|report\.ts$)/

for (const door of ['action', 'cli']) {
  test(`src/${door}/ runs src/run.ts and reaches no part of the flow otherwise`, () => {
    const imports = filesOf(door).flatMap(f =>
      importsOf(f).map(i => ({ file: relative(SRC, f), i }))
    )
    expect(imports.filter(x => x.i === 'run.ts').length).toBeGreaterThan(0)
    expect(imports.filter(x => FLOW.test(x.i))).toEqual([])
  })
}

test('the flow is written once: its messages live in src/run.ts and src/deploy/ only', () => {
  const all = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap(e =>
      e.isDirectory() ? all(join(dir, e.name)) : [join(dir, e.name)]
    )
  const holding = (text: string) =>
    all(SRC)
      .filter(f => readFileSync(f, 'utf8').includes(text))
      .map(f => relative(SRC, f))
  expect(holding('Cancelled while the create of deployment')).toEqual(['commands/deploy/ending.ts'])
  expect(holding('Wait for revision')).toEqual(['commands/deploy/flow.ts'])
})
