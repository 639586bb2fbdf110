// The house rules of emulator/, as src/'s: no import cycle (type-only imports included), and its
// folders are layers (EMULATOR_LAYERS, scripts/layers.ts): a module imports only from its own
// layer or those below, and every file has the layer of its folder.
import { expect, it } from '@jest/globals'
import { join, relative, resolve } from 'node:path'
import {
  EMULATOR_LAYERS,
  findCycle,
  importGraph,
  layerOf,
  namesApart,
  upwardImports
} from '../../scripts/layers.ts'

const ROOT = resolve('emulator')

it('emulator/ has no import cycle, type-only imports included', () => {
  expect(findCycle(importGraph(ROOT))?.map(p => relative(ROOT, p)) ?? null).toBeNull()
})

it('every module of emulator/ has a layer, and none imports from a layer above its own', () => {
  const graph = importGraph(ROOT)
  const without = [...graph.keys()].filter(f => layerOf(EMULATOR_LAYERS, ROOT, f) === -1)
  expect(without.map(f => relative(ROOT, f))).toEqual([])
  expect(upwardImports(EMULATOR_LAYERS, ROOT, graph)).toEqual([])
})

it('layers name folders, or files at the top of emulator/: no file has a layer apart from its folder', () => {
  expect(namesApart(EMULATOR_LAYERS)).toEqual([])
})

it('the layer check sees an import that runs up, and a file with no layer', () => {
  const graph = importGraph(ROOT)
  const store = join(ROOT, 'state/store.ts')
  graph.set(store, [...graph.get(store)!, join(ROOT, 'routes/pipeline.ts')])
  expect(upwardImports(EMULATOR_LAYERS, ROOT, graph)).toEqual([
    'state/store.ts -> routes/pipeline.ts'
  ])
  expect(layerOf(EMULATOR_LAYERS, ROOT, join(ROOT, 'elsewhere/new.ts'))).toBe(-1)
  expect(layerOf(EMULATOR_LAYERS, ROOT, join(ROOT, 'faults/kind.ts'))).toBe(4)
})
