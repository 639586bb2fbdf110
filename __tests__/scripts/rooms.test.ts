// CONTRIBUTING.md's map of every file is the tree as it is: a module added, moved or renamed
// without `npm run readme` fails here, and every module of src/ and emulator/ has a row.
import { describe, expect, test } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { MAPPED, purposeOf, renderContributing } from '../../scripts/rooms.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const CONTRIBUTING = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8')

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? modules(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []
  )
}

describe("CONTRIBUTING.md's map", () => {
  test('is what npm run readme writes from the tree', () => {
    expect(CONTRIBUTING).toBe(renderContributing(CONTRIBUTING, ROOT))
  })

  test('names every module under its folder, with its purpose', () => {
    for (const top of MAPPED) {
      for (const file of modules(join(ROOT, top))) {
        const path = relative(ROOT, file)
        const folder = path.slice(0, path.lastIndexOf('/'))
        const section = CONTRIBUTING.slice(CONTRIBUTING.indexOf(`**\`${folder}/\`**`))
        const name = path.slice(folder.length + 1)
        expect(section).toContain(`| \`${name}\` | `)
        expect(purposeOf(readFileSync(file, 'utf8'))).not.toBe('(no header comment)')
      }
    }
  })

  test('a purpose is the first sentence of the header, code spans kept whole', () => {
    expect(purposeOf('#!/usr/bin/env node\n// The door. More here.\nimport x')).toBe('The door')
    expect(purposeOf('// Runs `a. b` then: more\n')).toBe('Runs `a. b` then')
    expect(purposeOf('import x\n')).toBe('(no header comment)')
  })
})
