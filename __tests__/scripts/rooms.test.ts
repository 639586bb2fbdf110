// The map of every file (docs/files.md, linked from CONTRIBUTING.md) is the tree as it is: a
// module added, moved or renamed without `npm run readme` fails here, and every module of src/
// and emulator/ has a row.
import { describe, expect, test } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { FILES_DOC, MAPPED, purposeOf, renderFilesDoc } from '../../scripts/rooms.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const MAP = readFileSync(join(ROOT, FILES_DOC), 'utf8')

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? modules(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []
  )
}

describe('docs/files.md, the map of every file', () => {
  test('is what npm run readme writes from the tree', () => {
    expect(MAP).toBe(renderFilesDoc(ROOT))
  })

  test('CONTRIBUTING.md links it', () => {
    expect(readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8')).toContain('](docs/files.md)')
  })

  test('names every module under its folder, with its purpose', () => {
    for (const top of MAPPED) {
      for (const file of modules(join(ROOT, top))) {
        const path = relative(ROOT, file)
        const folder = path.slice(0, path.lastIndexOf('/'))
        const section = MAP.slice(MAP.indexOf(`**\`${folder}/\`**`))
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
