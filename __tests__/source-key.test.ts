// The tests run dist/ only when `npm run build` wrote it from the sources as they are: any change to
// src/, emulator/, the demo fixture, the build command or the lockfile makes them build their own
// bundle from src/ again.
import { expect, test } from '@jest/globals'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { builtFromCurrentSources, sourceKey, SOURCE_KEY_FILE } from '../scripts/source-key.ts'

test('a bundle is current until a source, the demo fixture, the build command or the lockfile changes', () => {
  const root = mkdtempSync(join(tmpdir(), 'cpd-source-key-'))
  try {
    mkdirSync(join(root, 'src/deploy'), { recursive: true })
    mkdirSync(join(root, 'emulator'))
    mkdirSync(join(root, 'fixtures'))
    writeFileSync(join(root, 'src/index.ts'), 'export {}\n')
    writeFileSync(join(root, 'src/deploy/flow.ts'), 'export const a = 1\n')
    writeFileSync(join(root, 'package.json'), '{"scripts":{"build":"ncc build"}}')
    writeFileSync(join(root, 'package-lock.json'), '{}')
    const dist = join(root, 'dist')
    mkdirSync(dist)
    writeFileSync(join(dist, 'index.js'), '')
    expect(builtFromCurrentSources(dist, root)).toBe(false)
    writeFileSync(join(dist, SOURCE_KEY_FILE), `${sourceKey(root)}\n`)
    expect(builtFromCurrentSources(dist, root)).toBe(true)

    for (const [file, text] of [
      ['src/deploy/flow.ts', 'export const a = 2\n'],
      ['src/deploy/new.ts', 'export {}\n'],
      ['emulator/cli.ts', 'export {}\n'],
      ['fixtures/demo.json', '{"tenants":[]}'],
      ['package.json', '{"scripts":{"build":"ncc build -m"}}'],
      ['package-lock.json', '{"lockfileVersion":3}']
    ] as const) {
      writeFileSync(join(root, file), text)
      expect(builtFromCurrentSources(dist, root)).toBe(false)
      writeFileSync(join(dist, SOURCE_KEY_FILE), sourceKey(root))
      expect(builtFromCurrentSources(dist, root)).toBe(true)
    }
    rmSync(join(dist, 'index.js'))
    expect(builtFromCurrentSources(dist, root)).toBe(false)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})
