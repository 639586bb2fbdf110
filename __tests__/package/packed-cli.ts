// The packed CLI as one test file uses it: its bin/cli.js from the packed package and a folder of
// the file's own (made before the file, removed after), and emulators that close after the file.
import { afterAll, beforeAll } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator/server.ts'

type Dialect = NonNullable<EmulatorOptions['dialect']>
import { packedPackage } from './package.ts'

export interface PackedCli {
  /** The bin the file runs: the packed package's bin/cli.js unless said (set before its tests). */
  cliJs: string
  /** The file's folder (set before the file's tests). */
  dir: string
  /** An emulator at speed 4 in `dialect`, closed after the file. */
  emulator(dialect?: Dialect): Promise<Emulator>
}

/** `bin`: the script to run, once the package is there (the packed bin/cli.js unless said). */
export function packedCli(
  prefix: string,
  bin: () => string = () => join(packedPackage().dir, 'bin/cli.js')
): PackedCli {
  const emulators: Emulator[] = []
  const file: PackedCli = {
    cliJs: '',
    dir: '',
    async emulator(dialect = 'interface') {
      const emu = await startEmulator({ port: 0, speed: 4, dialect })
      emulators.push(emu)
      return emu
    }
  }
  beforeAll(() => {
    file.cliJs = bin()
    file.dir = mkdtempSync(join(tmpdir(), prefix))
  }, 240_000)
  afterAll(async () => {
    await Promise.all(emulators.map(e => e.close()))
    if (file.dir) rmSync(file.dir, { recursive: true, force: true })
  })
  return file
}
