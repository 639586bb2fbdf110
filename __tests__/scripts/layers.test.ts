// CONTRIBUTING.md's diagram of the layers is the list the structure tests check: a layer added,
// moved or reworded in scripts/layers.ts without `npm run readme` fails here.
import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { EMULATOR_LAYERS, SRC_LAYERS } from '../../scripts/layers.ts'
import { renderLayers } from '../../scripts/readme.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const CONTRIBUTING = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8')

describe("CONTRIBUTING.md's diagram of the layers", () => {
  test('is what npm run readme draws from scripts/layers.ts', () => {
    expect(CONTRIBUTING).toBe(renderLayers(CONTRIBUTING))
  })

  test.each([
    ['src/', SRC_LAYERS],
    ['emulator/', EMULATOR_LAYERS]
  ])(
    "names each layer of %s, top to bottom, with its purpose, in 'The layers'",
    (folder, layers) => {
      const section = CONTRIBUTING.slice(
        CONTRIBUTING.indexOf('## The layers'),
        CONTRIBUTING.indexOf('<!-- layers:end -->')
      )
      let at = section.indexOf(`${folder}, top to bottom`)
      expect(at).toBeGreaterThan(0)
      for (const { names, purpose } of layers) {
        const line = `${names.map(n => folder + n).join(', ')}\n    ${purpose}\n`
        expect(section.indexOf(line, at)).toBeGreaterThan(at)
        at = section.indexOf(line, at)
      }
    }
  )

  test('a diagram edited by hand is stale: npm run readme draws it back from the list', () => {
    const edited = CONTRIBUTING.replace(SRC_LAYERS[0]!.purpose, 'the doors')
    expect(edited).not.toBe(CONTRIBUTING)
    expect(renderLayers(edited)).toBe(CONTRIBUTING)
  })
})
