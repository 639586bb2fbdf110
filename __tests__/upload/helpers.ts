// Shared by the upload tests: fixture trees copied to a temporary directory (so that what git
// cannot keep, a symlink, a `.git` directory, a hard link, a fifo, is made there), and GNU tar's
// own reading of an archive.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { chmod, cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach } from '@jest/globals'

export const FIXTURES = fileURLToPath(new URL('../../fixtures/upload', import.meta.url))

const temps: string[] = []
afterEach(async () => {
  while (temps.length) await rm(temps.pop()!, { recursive: true, force: true })
})

/** A temporary directory, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'upload-test-'))
  temps.push(dir)
  return dir
}

/** A copy of fixtures/upload/<name> in a temporary directory. */
export async function copyFixture(name: string): Promise<string> {
  const dir = join(await tempDir(), name)
  await cp(join(FIXTURES, name), dir, { recursive: true })
  return dir
}

export interface TarMember {
  mode: string
  owner: string
  size: number
  time: string
  name: string
}

/** The members as `tar -tzvf` lists them (times in UTC). */
export function tarList(file: string): TarMember[] {
  const out = execFileSync('tar', ['-tzvf', file], {
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' }
  })
  return out
    .trim()
    .split('\n')
    .map(line => {
      const m = /^(\S+) (\S+)\s+(\d+) (\S+ \S+) (.*)$/.exec(line)
      if (!m) throw new Error(`unexpected tar line: ${line}`)
      return { mode: m[1]!, owner: m[2]!, size: Number(m[3]), time: m[4]!, name: m[5]! }
    })
}

/**
 * The user a run is started as when a file must be unreadable to it: nobody when the tests run as
 * root (whom no file mode stops), else the tests' own user. `openUp` lets it into `dirs`.
 */
export const RUN_AS = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined

/** Lets any user into these folders (and through the temporary folders above a fixture copy). */
export async function openUp(...dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    await chmod(dir, 0o777)
    if (dir.startsWith(tmpdir())) await chmod(join(dir, '..'), 0o777)
  }
}

/**
 * A folder for a run's temporary files (its TMPDIR), and whether the archive's own folder is in it
 * yet: the run is then writing the archive.
 */
export function watchedTemp(): { dir: string; archiving: () => boolean } {
  const dir = mkdtempSync(join(tmpdir(), 'upload-tmp-'))
  temps.push(dir)
  const archiving = () => readdirSync(dir).some(d => d.startsWith('control-plane-deploy-upload-'))
  return { dir, archiving }
}

/**
 * The race of a file swapped for a fifo while the archive is written: `zz.py` becomes one once
 * `temp` shows the archive begun (`a-weights.bin`, read first by name, gives the time). The swap
 * stops polling when it is done or when the returned function is called.
 */
export async function fifoRace(workspace: string, temp: { archiving: () => boolean }) {
  await writeFile(join(workspace, 'a-weights.bin'), randomBytes(64 * 1024 * 1024))
  await writeFile(join(workspace, 'zz.py'), 'x = 1\n')
  const swap = setInterval(() => {
    if (!temp.archiving()) return
    clearInterval(swap)
    rmSync(join(workspace, 'zz.py'))
    execFileSync('mkfifo', [join(workspace, 'zz.py')])
  }, 2)
  return () => clearInterval(swap)
}
