// Shared by the upload tests: fixture trees copied to a temporary directory (so that what git
// cannot keep, a symlink, a `.git` directory, a hard link, a fifo, is made there), and GNU tar's
// own reading of an archive.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { chmod, cp, link, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
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

/** What an archive of the `monorepo` fixture's apps/agent/langgraph.json holds. */
export const MONOREPO_MEMBERS = [
  'apps/agent/.gitignore',
  'apps/agent/agent.py',
  'apps/agent/langgraph.json',
  'libs/shared/.dockerignore',
  'libs/shared/pyproject.toml',
  'libs/shared/scratch.tmp',
  'libs/shared/shared/__init__.py'
]

const COMMITTER = [
  '-c',
  'user.name=t',
  '-c',
  'user.email=t@example.com',
  '-c',
  'commit.gpgsign=false'
]

/** git in `dir` as a test's own committer (name and email set, no signing), its output trimmed. */
export function gitIn(dir: string): (...args: string[]) => string {
  return (...args) =>
    execFileSync('git', [...COMMITTER, ...args], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe']
    }).trim()
}
