// The tests run dist/ only when `npm run build` wrote it from the sources as they are. The key
// covers what the action's bundle takes in: each file its entry reaches, the version and the build
// command; a file it never imports (the CLI's door, the emulator) leaves it as it is.
import { expect, test } from '@jest/globals'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  builtFromCurrentSources,
  bundledFiles,
  sourceKey,
  SOURCE_KEY_FILE
} from '../../scripts/source-key.ts'

function write(root: string, file: string, text: string): void {
  mkdirSync(join(root, file, '..'), { recursive: true })
  writeFileSync(join(root, file), text)
}

test("the key changes with a file the action's entry reaches, the version or the build command, and with nothing else", () => {
  const root = mkdtempSync(join(tmpdir(), 'cpd-source-key-'))
  try {
    write(root, 'package.json', '{"version":"1.0.0","scripts":{"build":"ncc build"}}')
    write(root, 'src/index.ts', "import { a } from './deploy/flow.ts'\nconsole.log(a)\n")
    write(root, 'src/deploy/flow.ts', "export const a = await import('./lazy.ts')\n")
    write(root, 'src/deploy/lazy.ts', 'export const b = 1\n')
    write(root, 'src/cli/index.ts', "import { a } from '../deploy/flow.ts'\nconsole.log(a)\n")
    write(root, 'emulator/cli.ts', 'export {}\n')
    expect(bundledFiles(['src/index.ts'], root)).toEqual([
      'src/deploy/flow.ts',
      'src/deploy/lazy.ts',
      'src/index.ts'
    ])
    const dist = join(root, 'dist')
    write(root, 'dist/index.js', '')
    expect(builtFromCurrentSources(dist, root)).toBe(false)
    writeFileSync(join(dist, SOURCE_KEY_FILE), `${sourceKey(root)}\n`)
    expect(builtFromCurrentSources(dist, root)).toBe(true)

    // Not in the action's bundle: its key stays.
    for (const [file, text] of [
      ['src/cli/index.ts', 'console.log(2)\n'],
      ['src/cli/new.ts', 'export {}\n'],
      ['emulator/cli.ts', 'console.log(3)\n'],
      ['fixtures/demo.json', '{"tenants":[]}'],
      ['package.json', '{"version":"1.0.0","scripts":{"build":"ncc build","test":"jest"}}'],
      ['package-lock.json', '{"lockfileVersion":3}']
    ] as const) {
      write(root, file, text)
      expect({ file, current: builtFromCurrentSources(dist, root) }).toEqual({
        file,
        current: true
      })
    }
    // In it: the key changes.
    for (const [file, text] of [
      ['src/deploy/flow.ts', "export const a = await import('./lazy.ts')\nexport const c = 2\n"],
      ['src/deploy/lazy.ts', 'export const b = 2\n'],
      ['package.json', '{"version":"1.0.1","scripts":{"build":"ncc build","test":"jest"}}'],
      ['package.json', '{"version":"1.0.1","scripts":{"build":"ncc build -m","test":"jest"}}']
    ] as const) {
      write(root, file, text)
      expect({ file, current: builtFromCurrentSources(dist, root) }).toEqual({
        file,
        current: false
      })
      writeFileSync(join(dist, SOURCE_KEY_FILE), sourceKey(root))
    }
    rmSync(join(dist, 'index.js'))
    expect(builtFromCurrentSources(dist, root)).toBe(false)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})

test("the repository's action key leaves out the CLI's door and the emulator", () => {
  const files = bundledFiles(['src/index.ts'])
  expect(files).toContain('src/run.ts')
  expect(files).toContain('src/action/main.ts')
  expect(files.filter(f => /^(src\/cli|emulator|fixtures)\//.test(f))).toEqual([])
})
