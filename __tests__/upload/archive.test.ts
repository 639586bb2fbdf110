// The archive of an upload deploy: which files (the LangGraph CLI's rules), the root and config
// path of a monorepo, the refusals before any request, and the bytes (GNU tar reads them; the same
// files give the same bytes whatever their times and modes).
//
// The expected member lists are derived by hand from the CLI's code (langgraph_cli/archive.py,
// _ignore.py and config.py's _assemble_local_deps): each included directory's own .dockerignore
// then .gitignore, the seven always-excluded directory names at any depth, regular files only,
// no directories; with our departures (docs/upload.md): nested .gitignore files read, credential
// names, every name of a hard-linked file and special files left out, each with its reason. The
// comment beside each entry says which rule keeps it or leaves it out; file-set.test.ts checks
// the rules case by case against the CLI's own answers.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { chmod, link, mkdir, readFile, readdir, symlink, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from '@jest/globals'
import { buildArchive, fsProblem, type BuiltArchive } from '../../src/upload/archive.ts'
import { ArchiveError } from '../../src/upload/errors.ts'
import { copyFixture, MONOREPO_MEMBERS, tarList, tempDir } from '../builders/upload.ts'

/** The archive of `graphConfigPath` in `workspace`, its errors naming the input `graph-config-path`. */
const archiveAt = (workspace: string, graphConfigPath: string) =>
  buildArchive({ workspace, graphConfigPath, inputName: 'graph-config-path' })

const built: BuiltArchive[] = []
async function build(workspace: string, graphConfigPath: string, tempRoot?: string) {
  const a = await buildArchive({
    workspace,
    graphConfigPath,
    tempDir: tempRoot ?? (await tempDir()),
    inputName: 'graph-config-path'
  })
  built.push(a)
  return a
}

/** What git cannot keep in the fixture: made in the copy. */
async function addUnkeepables(dir: string) {
  await symlink('agent.py', join(dir, 'link-to-agent.py'))
  await symlink('nested', join(dir, 'linked-dir'))
  await writeFile(join(dir, 'twice.py'), 'x = 1\n')
  await link(join(dir, 'twice.py'), join(dir, 'hard.py'))
  await mkdir(join(dir, '.git'))
  await writeFile(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n')
  await mkdir(join(dir, 'sub', '.git'), { recursive: true })
  await writeFile(join(dir, 'sub', '.git', 'config'), '')
  await writeFile(join(dir, 'nested', '.git'), 'gitdir: ../.git/modules/nested\n')
  await mkdir(join(dir, 'empty'))
  execFileSync('mkfifo', [join(dir, 'pipe')])
  await chmod(join(dir, 'run.sh'), 0o755)
}

// fixtures/upload/ignores after addUnkeepables, by the CLI's rules:
const IGNORES_MEMBERS = [
  '.dockerignore', // ignore files are archived like any file
  '.gitignore',
  'agent.py',
  'keep.log', // *.log, then !keep.log later in .gitignore
  'langgraph.json',
  'lib/venv', // a file: `venv/` names directories only
  'nested/.git', // a file (a submodule's pointer): `.git/` names directories only
  'nested/.gitignore', // nested ignore files are archived, and read (its `*.py`: no nested/mod.py)
  'run.sh',
  'sub/anchored.txt', // `/anchored.txt` is anchored to the directory's top
  'tests/test_agent.py', // `tests/*.txt` leaves only tests/a.txt out
  'venv.txt'
]
// Left out: app.log, important.log (`!important.log` is in .dockerignore, read before .gitignore's
// `*.log`), build/ (both files: `!build/keep.txt` cannot re-include under an ignored directory),
// secrets.env and sub/secrets.env (unanchored), anchored.txt, docs/ (.dockerignore), tests/a.txt,
// .venv/ node_modules/ __pycache__/ sub/__pycache__/ .tox/ .mypy_cache/ venv/ .git/ sub/.git/
// (always), empty/ (no directory members), and, not ignored but never archived, these:
// .env carries credentials by its name; both names of twice.py (hard.py is its second) go.
const IGNORES_SKIPPED = [
  { name: '.env', reason: 'credential', detail: '.env' },
  { name: 'hard.py', reason: 'hard link', detail: '2' },
  { name: 'link-to-agent.py', reason: 'symlink' },
  { name: 'linked-dir/', reason: 'symlink' },
  { name: 'pipe', reason: 'fifo' },
  { name: 'twice.py', reason: 'hard link', detail: '2' }
]

describe('the file set: the LangGraph CLI rules', () => {
  it('a tree with .gitignore and .dockerignore, always-excluded folders, a symlink, a hard link and a fifo', async () => {
    const dir = await copyFixture('ignores')
    await addUnkeepables(dir)
    const a = await build(dir, 'langgraph.json')
    expect(a.files).toEqual(IGNORES_MEMBERS)
    expect(a.skipped).toEqual(IGNORES_SKIPPED)
    expect(a.configPath).toBe('langgraph.json')
    // GNU tar reads the same members, regular files owned by 0/0 at the fixed time, modes
    // normalised (run.sh executable), and nothing else (no directory, link or pax member).
    const listed = tarList(a.file)
    expect(listed.map(m => m.name)).toEqual(IGNORES_MEMBERS)
    for (const m of listed) {
      expect(m.owner).toBe('0/0')
      expect(m.time).toBe('2000-01-01 00:00')
      expect(m.mode).toBe(m.name === 'run.sh' ? '-rwxr-xr-x' : '-rw-r--r--')
    }
    expect(listed.find(m => m.name === 'agent.py')!.size).toBe(
      (await readFile(join(dir, 'agent.py'))).length
    )
  })

  it('extracts to the same contents', async () => {
    const dir = await copyFixture('ignores')
    const a = await build(dir, 'langgraph.json')
    const out = await tempDir()
    execFileSync('tar', ['-xzf', a.file, '-C', out])
    for (const name of a.files)
      expect((await readFile(join(out, name))).equals(await readFile(join(dir, name)))).toBe(true)
  })

  it('a monorepo: the root widens to the dependency outside the config folder, each folder with its own ignore files', async () => {
    const repo = await copyFixture('monorepo')
    const a = await build(repo, 'apps/agent/langgraph.json')
    expect(a.root.endsWith('/monorepo')).toBe(true)
    expect(a.configPath).toBe('apps/agent/langgraph.json')
    // Included: apps/agent (the config's folder) and libs/shared (`../../libs/shared`); not the
    // root as a whole (README.txt, libs/other), whose .gitignore is not read either
    // (`*.py` and `*.toml` there leave nothing out). apps/agent's `*.tmp` does not reach
    // libs/shared; libs/shared's .dockerignore leaves its dist/ out. `langchain-openai` is a
    // package, not a folder.
    expect(a.files).toEqual(MONOREPO_MEMBERS)
    expect(tarList(a.file).map(m => m.name)).toEqual(a.files)
  })

  it('long and non-ASCII names survive (pax headers)', async () => {
    const dir = await tempDir()
    const long = `${'deep/'.repeat(30)}${'n'.repeat(120)}.py`
    await mkdir(join(dir, ...long.split('/').slice(0, -1)), { recursive: true })
    await writeFile(join(dir, long), 'x = 1\n')
    await writeFile(join(dir, 'ünïcødé.py'), 'y = 2\n')
    await writeFile(join(dir, 'langgraph.json'), '{}')
    const a = await build(dir, 'langgraph.json')
    expect(tarList(a.file).map(m => m.name)).toEqual([long, 'langgraph.json', 'ünïcødé.py'])
  })
})

describe('refused before any request', () => {
  const refusal = (p: Promise<unknown>) => expect(p).rejects.toThrow(ArchiveError)

  it('a missing config, named as given', async () => {
    const dir = await copyFixture('ignores')
    await expect(archiveAt(dir, 'agent/langgraph.json')).rejects.toThrow(
      `graph-config-path: 'agent/langgraph.json' does not exist in the workspace`
    )
    await expect(
      buildArchive({
        workspace: dir,
        graphConfigPath: 'nope.json',
        inputName: '--graph-config-path'
      })
    ).rejects.toThrow(`--graph-config-path: 'nope.json' does not exist`)
  })

  it('a config outside the workspace, by path or by symlink', async () => {
    const repo = await copyFixture('monorepo')
    await refusal(archiveAt(join(repo, 'libs'), '../apps/agent/langgraph.json'))
    await expect(archiveAt(join(repo, 'libs'), '../apps/agent/langgraph.json')).rejects.toThrow(
      `'../apps/agent/langgraph.json' is outside the workspace`
    )
    await symlink('../apps/agent', join(repo, 'libs', 'agent'))
    await expect(archiveAt(join(repo, 'libs'), 'agent/langgraph.json')).rejects.toThrow(
      /is outside the workspace \(.*\) once its symlinks are followed/
    )
  })

  it('a dependency outside the workspace, missing, or not a folder', async () => {
    const repo = await copyFixture('monorepo')
    await expect(archiveAt(join(repo, 'apps'), 'agent/langgraph.json')).rejects.toThrow(
      `the dependency '../../libs/shared' of 'agent/langgraph.json' is outside the workspace`
    )
    const config = join(repo, 'apps/agent/langgraph.json')
    await writeFile(config, JSON.stringify({ dependencies: ['./missing'] }))
    await expect(archiveAt(repo, 'apps/agent/langgraph.json')).rejects.toThrow(
      `the dependency './missing' of 'apps/agent/langgraph.json' does not exist`
    )
    await writeFile(config, JSON.stringify({ dependencies: ['./agent.py'] }))
    await expect(archiveAt(repo, 'apps/agent/langgraph.json')).rejects.toThrow('is not a directory')
  })

  it('a config that is not JSON, a symlink, or left out by an ignore file', async () => {
    const dir = await copyFixture('ignores')
    await writeFile(join(dir, 'bad.json'), '{')
    await expect(archiveAt(dir, 'bad.json')).rejects.toThrow(
      "graph-config-path: 'bad.json' is not valid JSON"
    )
    await symlink('langgraph.json', join(dir, 'linked.json'))
    await expect(archiveAt(dir, 'linked.json')).rejects.toThrow('a symlink')
    // The config's own folder's .gitignore leaves `*.log` out.
    await writeFile(join(dir, 'config.log'), '{}')
    await expect(archiveAt(dir, 'config.log')).rejects.toThrow(
      'is left out of the archive: config.log is ignored by `*.log` (.gitignore line 2)'
    )
  })
})

// The archive's size against the service's limits is held end to end through the action's bundle,
// in __tests__/reliability/upload.test.ts: over 50 MiB deploys with a warning, over 200 MiB is
// refused before any request. Both build an archive that size: seconds of deflate.

describe('unpacked size and files that cannot be read', () => {
  it('files over 1 GiB unpacked are refused before their bytes are read (a sparse 8 GiB file)', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'langgraph.json'), '{}')
    execFileSync('truncate', ['-s', '8G', join(dir, 'sparse.bin')])
    const temp = await tempDir()
    const err = await buildArchive({
      workspace: dir,
      graphConfigPath: 'langgraph.json',
      tempDir: temp,
      inputName: 'graph-config-path'
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ArchiveError)
    expect((err as Error).message).toContain('more than 1024.0 MiB unpacked')
    expect(await readdir(temp)).toEqual([])
  })

  it('an error of the file system is one the user can act on', () => {
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })
    expect(fsProblem(denied, 'secrets/key.pem')).toEqual(
      new ArchiveError(
        'secrets/key.pem cannot be read (permission denied): make it readable by the user the job runs as, or leave it out with .dockerignore or .gitignore.'
      )
    )
    const other = new Error('something else')
    expect(fsProblem(other, 'a')).toBe(other)
  })
})

describe('deterministic bytes', () => {
  it('the same files give the same bytes whatever their times, modes and walk order', async () => {
    const one = await copyFixture('ignores')
    const two = await copyFixture('ignores')
    await utimes(join(two, 'agent.py'), new Date('2011-01-01'), new Date('2011-01-01'))
    await utimes(join(two, 'langgraph.json'), new Date(), new Date())
    await chmod(join(two, 'agent.py'), 0o600)
    await chmod(join(one, 'run.sh'), 0o700)
    await chmod(join(two, 'run.sh'), 0o775)
    const a = await build(one, 'langgraph.json')
    const b = await build(two, 'langgraph.json')
    expect(b.digest).toBe(a.digest)
    expect((await readFile(b.file)).equals(await readFile(a.file))).toBe(true)
    const bytes = await readFile(a.file)
    expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(a.digest)
    expect(bytes.length).toBe(a.size)
  })

  it('gzip without a name or a time, OS "unknown"; the tar bytes are fixed down to the last byte', async () => {
    const dir = await copyFixture('monorepo')
    const a = await build(dir, 'apps/agent/langgraph.json')
    const bytes = await readFile(a.file)
    expect([...bytes.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
    // The uncompressed tar depends on nothing but the files: any change to the writer shows here.
    const tar = gunzipSync(bytes)
    expect(tar.length % 10240).toBe(0)
    expect(createHash('sha256').update(tar).digest('hex')).toBe(
      '59ed9c58884904afab52a0d902f60bd839c460d33014e680de4d06a8768b4cbd'
    )
  })

  it('an archive of many deflate blocks: the same bytes twice, and GNU tar reads every file back', async () => {
    // 2.5 MiB of text and 1.5 MiB that does not compress, over block boundaries (1 MiB), deflated
    // several blocks at once: the bytes must not depend on which block finished first.
    const dir = await tempDir()
    const text = Buffer.from(
      Array.from({ length: 200_000 }, (_, i) => `line ${(i * 7919) % 100_003}`).join('\n')
    )
    const noise = createHash('sha256').update('seed').digest()
    const random = Buffer.concat(
      Array.from({ length: 49_152 }, (_, i) =>
        createHash('sha256').update(noise).update(String(i)).digest()
      )
    )
    await writeFile(join(dir, 'langgraph.json'), '{"dependencies": ["."], "graphs": {}}\n')
    await writeFile(join(dir, 'a.txt'), text)
    await writeFile(join(dir, 'b.bin'), random)
    await writeFile(join(dir, 'c.txt'), text.subarray(12_345, 1_500_000))
    const a = await build(dir, 'langgraph.json')
    const b = await build(dir, 'langgraph.json')
    expect(b.digest).toBe(a.digest)
    expect(a.size).toBeGreaterThan(1024 * 1024)
    const out = await tempDir()
    execFileSync('tar', ['-xzf', a.file, '-C', out])
    for (const name of ['a.txt', 'b.bin', 'c.txt'])
      expect((await readFile(join(out, name))).equals(await readFile(join(dir, name)))).toBe(true)
  })

  it('a cancelled build stops and leaves nothing behind', async () => {
    const temp = await tempDir()
    const controller = new AbortController()
    controller.abort()
    await expect(
      buildArchive({
        workspace: await copyFixture('monorepo'),
        graphConfigPath: 'apps/agent/langgraph.json',
        tempDir: temp,
        signal: controller.signal,
        inputName: 'graph-config-path'
      })
    ).rejects.toThrow(expect.objectContaining({ name: 'AbortError' }))
    expect(await readdir(temp)).toEqual([])
  })

  it('a build cancelled once its archive has begun stops there: the loop over the files yields', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'langgraph.json'), '{"graphs": {"agent": "./f0.py:graph"}}\n')
    const text = Buffer.from('def graph(state):\n    return {"messages": state["messages"]}\n')
    for (let i = 0; i < 24; i++)
      await writeFile(join(dir, `f${i}.py`), Buffer.alloc(1024 * 1024, text))
    const temp = await tempDir()
    const controller = new AbortController()
    // Cancels as soon as archive bytes are on disk: only a loop that lets timers run sees it.
    const watch = setInterval(() => {
      const [sub] = readdirSync(temp)
      const file = sub && join(temp, sub, 'source.tar.gz')
      if (file && existsSync(file) && statSync(file).size > 0) controller.abort()
    }, 1)
    try {
      await expect(
        buildArchive({
          workspace: dir,
          graphConfigPath: 'langgraph.json',
          tempDir: temp,
          signal: controller.signal,
          inputName: 'graph-config-path'
        })
      ).rejects.toThrow(expect.objectContaining({ name: 'AbortError' }))
    } finally {
      clearInterval(watch)
    }
    expect(await readdir(temp)).toEqual([])
  })

  it('a signal inside one large file is seen between its blocks, not after the file', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'langgraph.json'), '{}')
    await writeFile(join(dir, 'weights.bin'), Buffer.alloc(16 * 1024 * 1024, 'weights '))
    const temp = await tempDir()
    // A signal that says "aborted" at its 4th look: inside weights.bin (16 blocks), whatever the
    // machine's speed. A loop that looks once per file would archive the whole file.
    let looks = 0
    const signal = {
      get aborted() {
        return looks >= 4
      },
      throwIfAborted() {
        if (++looks >= 4) throw new DOMException('stopped', 'AbortError')
      }
    } as unknown as AbortSignal
    await expect(
      buildArchive({
        workspace: dir,
        graphConfigPath: 'langgraph.json',
        tempDir: temp,
        signal,
        inputName: 'graph-config-path'
      })
    ).rejects.toThrow(expect.objectContaining({ name: 'AbortError' }))
    expect(looks).toBeLessThan(10)
    expect(await readdir(temp)).toEqual([])
  })

  it('cleanup removes the temporary file', async () => {
    const a = await build(await copyFixture('monorepo'), 'apps/agent/langgraph.json')
    expect(existsSync(a.file)).toBe(true)
    await a.cleanup()
    expect(existsSync(a.file)).toBe(false)
  })
})
