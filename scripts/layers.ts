// The layers of the house, top to bottom, and how to read a folder's import graph: the structure
// tests check the imports against them, and `npm run readme` draws CONTRIBUTING.md's diagram from
// them, so the rule and its picture are one list.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, relative, resolve, join } from 'node:path'

/** One layer: the folders (ending in `/`) and top-level files in it, and what it is for. */
export interface Layer {
  readonly names: readonly string[]
  readonly purpose: string
}

/**
 * The layers of src/, top to bottom: a module imports only from its own layer or those below.
 * The doors start the run; the run chooses the command; each command (its flow, its steps, its
 * report and GitHub side) calls the services below it: the health gate and the upload, the
 * inputs' checks, the wire model, the one request; plain values at the bottom.
 */
export const SRC_LAYERS: readonly Layer[] = [
  {
    names: ['action/', 'cli/', 'index.ts', 'main.ts'],
    purpose: "the doors: the action's (@actions/core, signals) and the CLI's (flags, variables)"
  },
  // The registry of the commands: the one place that chooses among them.
  {
    names: ['run.ts'],
    purpose: 'the run: the registry of the commands, the one place that chooses'
  },
  {
    names: ['commands/'],
    purpose: 'a folder per command: its inputs, rules, flow, steps and ending'
  },
  {
    names: ['report/', 'github/', 'health/', 'upload/', 'evaluate/'],
    purpose:
      "what the commands use: the report, the GitHub side, the health gate (probes, the agent server's client), the upload, the evaluation gate"
  },
  {
    // Above the inputs, whose names its entries use: the manifest's entry becomes inputs.
    names: ['manifest/'],
    purpose:
      "the manifest: its schema, its check by line, an entry as inputs, an agent's files and their changes"
  },
  { names: ['inputs/'], purpose: 'raw inputs -> Options (pure): the table, its rules, the checks' },
  {
    names: ['control-plane/'],
    purpose: 'the wire model, the client (both dialects), transport, errors'
  },
  {
    // The one request (the proxy, the time budget, the body cap, no redirect): below every caller.
    names: ['net/'],
    purpose: 'the one request: proxy, time budget, abort, body cap, no redirect'
  },
  {
    // What a door knows of where it runs (the runner's contexts, what its event implies, the port),
    // and the public words: the inputs' names and how a message says them, the outcome table.
    names: ['runner/', 'interface/', 'port.ts'],
    purpose: "where it runs: the runner's contexts, the port; the inputs' names, the Say, outcomes"
  },
  {
    names: ['clock.ts', 'duration.ts', 'version.ts', 'inert.ts', 'log.ts'],
    purpose: 'plain values: the clock, durations, text made inert, the job log'
  }
]

/**
 * The layers of emulator/, top to bottom, on the same rule: the doors start a server; a request
 * goes through the routes to the operations, which use the agent servers, the builds and the
 * faults; all of them read and write the state; HTTP's plumbing at the bottom.
 */
export const EMULATOR_LAYERS: readonly Layer[] = [
  {
    names: ['cli.ts', 'cli-options.ts', 'server.ts'],
    purpose: 'the doors: the command and its flags, startEmulator and its control API'
  },
  {
    names: ['routes/'],
    purpose: 'what a request goes through: the pipeline, the API and admin route tables, the wire'
  },
  {
    names: ['runtime.ts', 'types.ts'],
    purpose: 'all a running emulator holds, and its public shapes'
  },
  {
    names: ['operations/'],
    purpose: "what the operations do: the interface's, the production's beyond it, out of band"
  },
  {
    names: ['agents/', 'builds/', 'faults/', 'langsmith/'],
    purpose:
      "the deployments' agent servers; uploads, builds, logs; each fault kind; the LangSmith API's records"
  },
  {
    names: ['state/'],
    purpose: 'the records, their lifecycle, the settings, the views, what an operation works with'
  },
  {
    names: ['http/'],
    purpose: 'the plumbing: a body read, a reply written, rate limit, request log'
  }
]

/** The `.ts` files under `dir`, every depth. */
export function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []
  )
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
export function specifiersOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'([^']+)'/g)].map(m => m[1]!)
}

/** Relative imports of a file, resolved to absolute paths inside `root`. */
export function importsOf(file: string, root: string): string[] {
  return specifiersOf(file)
    .filter(s => s.startsWith('.'))
    .map(s => resolve(dirname(file), s))
    .filter(p => p.startsWith(root + '/'))
}

/** Each file under `root` with the files under `root` it imports. */
export function importGraph(root: string): Map<string, string[]> {
  return new Map(sources(root).map(f => [f, importsOf(f, root)]))
}

/** One cycle of `graph` (file -> its imports), the first file again at the end; or null. */
export function findCycle(graph: Map<string, string[]>): string[] | null {
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

/** The layer of a file under `root` (its index, top first): the most specific name; -1 for none. */
export function layerOf(layers: readonly Layer[], root: string, file: string): number {
  const path = relative(root, file)
  let best = -1
  let length = -1
  layers.forEach(({ names }, layer) => {
    for (const e of names) {
      const hit = e.endsWith('/') ? path.startsWith(e) : path === e
      if (hit && e.length > length) [best, length] = [layer, e.length]
    }
  })
  return best
}

/** The imports of `graph` that run up a layer, as `file -> import` relative to `root`. */
export function upwardImports(
  layers: readonly Layer[],
  root: string,
  graph: Map<string, string[]>
): string[] {
  const of = (f: string) => layerOf(layers, root, f)
  return [...graph].flatMap(([file, imports]) =>
    imports
      .filter(i => of(i) < of(file))
      .map(i => `${relative(root, file)} -> ${relative(root, i)}`)
  )
}

/** Names of layers that are a file inside a folder: a file given a layer apart from its folder. */
export function namesApart(layers: readonly Layer[]): string[] {
  return layers.flatMap(l => l.names).filter(e => !e.endsWith('/') && e.includes('/'))
}

/**
 * The layers drawn top to bottom for CONTRIBUTING.md: each layer's names under `folder`, and its
 * purpose on the line below.
 */
export function layersDiagram(folder: string, layers: readonly Layer[]): string {
  const lines = layers.flatMap((l, i) => [
    `${String(i + 1).padStart(2)}  ${l.names.map(n => folder + n).join(', ')}`,
    `    ${l.purpose}`
  ])
  return [
    `${folder}, top to bottom: each layer imports only from itself and those below`,
    ...lines
  ].join('\n')
}
