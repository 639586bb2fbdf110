// Shared by the upload tests: fixture trees copied to a temporary directory (so that what git
// cannot keep, a symlink, a `.git` directory, a hard link, a fifo, is made there), and GNU tar's
// own reading of an archive.
import { execFileSync } from 'node:child_process'
import { cp, link, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
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

export const RULES = join(FIXTURES, 'rules')

/** A case of fixtures/upload/rules: what its `<name>.expected.json` says. */
export interface RulesCase {
  about: string
  variants?: string[]
  cli: string[] | null
  members: string[]
  departures: Record<string, string>
}

export async function rulesCase(name: string): Promise<RulesCase> {
  return JSON.parse(await readFile(join(RULES, `${name}.expected.json`), 'utf8')) as RulesCase
}

/**
 * A copy of fixtures/upload/rules/<name>, with what git cannot hold made in it (the case's
 * `about` lists it). `close()` removes what needs it (a listening socket).
 */
export async function rulesTree(name: string): Promise<{ dir: string; close(): Promise<void> }> {
  const dir = join(await tempDir(), name)
  await cp(join(RULES, name), dir, { recursive: true })
  let close = async () => {}
  if (name === 'negations' || name === 'whitelist') {
    await mkdir(join(dir, '.git'))
    await writeFile(join(dir, '.git', 'config'), '[http] extraheader = AUTHORIZATION: basic FAKE\n')
    await mkdir(join(dir, 'node_modules', 'pkg'), { recursive: true })
    await writeFile(join(dir, 'node_modules', 'pkg', 'index.js'), 'module.exports = 1\n')
  }
  if (name === 'links') close = await addLinks(dir)
  return { dir, close }
}

/** The links case: symlinks, hard links (one to a file outside the tree), a FIFO, a socket. */
async function addLinks(dir: string): Promise<() => Promise<void>> {
  await symlink('agent.py', join(dir, 'link-to-agent.py'))
  await symlink('src', join(dir, 'linked-src'))
  const outside = join(dirname(dir), 'outside-secret.txt')
  await writeFile(outside, 'OUTSIDE THE WORKSPACE\n')
  await link(outside, join(dir, 'outside.py'))
  await writeFile(join(dir, 'shared.py'), 'shared = 1\n')
  await link(join(dir, 'shared.py'), join(dir, 'shared-again.py'))
  execFileSync('mkfifo', [join(dir, 'pipe')])
  const server = createServer()
  await new Promise<void>(res => server.listen(join(dir, 'server.sock'), res))
  return () => new Promise<void>(res => server.close(() => res()))
}
