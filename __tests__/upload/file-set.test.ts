// The upload's file set on the trees of fixtures/upload/rules (README there): the Python LangGraph
// CLI's members (its pathspec rules, derived by running them) less our deliberate departures, each
// left out with the reason the log gives. And the rule matcher against pathspec's own answers.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from '@jest/globals'
import { buildArchive, type BuiltArchive } from '../../src/upload/archive.ts'
import { lastMatch, parseRules } from '../../src/upload/wildmatch.ts'
import {
  RULES,
  rulesCase,
  rulesTree,
  tarList,
  tempDir,
  type RulesCase
} from '../builders/upload.ts'

/** The archive of `graphConfigPath` in `workspace`, its errors naming the input `graph-config-path`. */
const archiveAt = (workspace: string, graphConfigPath: string) =>
  buildArchive({ workspace, graphConfigPath, inputName: 'graph-config-path' })

const built: BuiltArchive[] = []
afterAll(async () => {
  for (const a of built) await a.cleanup()
})

async function archiveOf(name: string, gitignore?: string) {
  const tree = await rulesTree(name)
  if (gitignore !== undefined) await writeFile(join(tree.dir, '.gitignore'), gitignore)
  try {
    const a = await buildArchive({
      workspace: tree.dir,
      graphConfigPath: 'langgraph.json',
      tempDir: await tempDir(),
      inputName: 'graph-config-path'
    })
    built.push(a)
    return a
  } finally {
    await tree.close()
  }
}

/** Why `name` is left out, as the archive says it: a reason (or credential name), or a rule. */
function whyLeftOut(a: BuiltArchive, name: string): string | undefined {
  const skipped = a.skipped.find(e => e.name === name)
  if (skipped) return skipped.reason === 'credential' ? skipped.detail : skipped.reason
  const ignored = a.ignored.find(e => e.name === name)
  return ignored?.why
}

function checkCase(c: RulesCase, a: BuiltArchive) {
  expect(a.files).toEqual(c.members)
  // GNU tar reads the same members.
  expect(tarList(a.file).map(m => m.name)).toEqual(c.members)
  for (const [name, why] of Object.entries(c.departures)) {
    const said = whyLeftOut(a, name)
    expect({ name, said }).toEqual({ name, said: why })
  }
  if (!c.cli) return
  // Nothing the CLI leaves out goes in; whatever it keeps and we do not is a listed departure.
  for (const m of c.members) expect(c.cli).toContain(m)
  const departed = Object.keys(c.departures)
  for (const m of c.cli.filter(n => !c.members.includes(n)))
    expect({
      m,
      listed: departed.some(d => m === d || (d.endsWith('/') && m.startsWith(d)))
    }).toEqual({
      m,
      listed: true
    })
}

describe('the file set: the LangGraph CLI rules and our departures (fixtures/upload/rules)', () => {
  for (const name of ['negations', 'whitelist', 'case', 'nested', 'bom', 'credentials', 'links']) {
    it(name, async () => {
      const c = await rulesCase(name)
      checkCase(c, await archiveOf(name))
    })
  }

  it('allowlists keep the whole src tree, the graph module included', async () => {
    const c = await rulesCase('allowlist')
    for (const variant of c.variants!) checkCase(c, await archiveOf('allowlist', variant))
  })

  it('the links case says each link and special file, and nothing else, is left out', async () => {
    const a = await archiveOf('links')
    expect(a.skipped).toEqual([
      { name: 'link-to-agent.py', reason: 'symlink' },
      { name: 'linked-src/', reason: 'symlink' },
      { name: 'outside.py', reason: 'hard link', detail: '2' },
      { name: 'pipe', reason: 'fifo' },
      { name: 'server.sock', reason: 'socket' },
      { name: 'shared-again.py', reason: 'hard link', detail: '2' },
      { name: 'shared.py', reason: 'hard link', detail: '2' }
    ])
    expect(a.ignored).toEqual([])
  })

  it('the config’s env file is known, to say how to pass its values as secrets', async () => {
    const a = await archiveOf('credentials')
    expect(a.envFile).toBe('.env')
    expect(a.skipped).toContainEqual({ name: '.env', reason: 'credential', detail: '.env' })
  })

  it('what the run writes is never archived: its output file, its temporary folders', async () => {
    const tree = await rulesTree('case')
    const temp = join(tree.dir, 'tmp')
    await writeFile(join(tree.dir, 'outputs.txt'), 'DEPLOYMENT_ID=1\n')
    await mkdir(join(temp, 'control-plane-deploy-upload-old'), { recursive: true })
    await writeFile(join(temp, 'control-plane-deploy-upload-old', 'source.tar.gz'), 'x')
    await writeFile(join(temp, 'other.txt'), 'kept')
    const a = await buildArchive({
      workspace: tree.dir,
      graphConfigPath: 'langgraph.json',
      tempDir: temp,
      ownFiles: [join(tree.dir, 'outputs.txt')],
      inputName: 'graph-config-path'
    })
    built.push(a)
    expect(a.files).not.toContain('outputs.txt')
    expect(a.files).toContain('tmp/other.txt')
    expect(a.skipped).toEqual([
      { name: 'outputs.txt', reason: 'written by this run' },
      { name: 'tmp/control-plane-deploy-upload-old/', reason: 'written by this run' }
    ])
  })

  it('the config left out is refused with the rule that leaves it out', async () => {
    const tree = await rulesTree('case')
    await writeFile(join(tree.dir, '.dockerignore'), '# none\n*.json\n')
    await expect(archiveAt(tree.dir, 'langgraph.json')).rejects.toThrow(
      "graph-config-path: 'langgraph.json' is left out of the archive: langgraph.json is ignored by `*.json` (.dockerignore line 2); the config must be in it."
    )
  })
})

describe('names that are not UTF-8', () => {
  it('one an ignore line leaves out is no obstacle; one that would go up is refused', async () => {
    const tree = await rulesTree('case')
    const latin1 = Buffer.concat([
      Buffer.from(join(tree.dir, 'caf')),
      Buffer.from([0xe9]),
      Buffer.from('.bin')
    ])
    await writeFile(latin1, 'x')
    await writeFile(join(tree.dir, '.dockerignore'), '*.bin\n')
    const a = await archiveAt(tree.dir, 'langgraph.json')
    built.push(a)
    expect(a.ignored.map(e => e.why)).toContain('ignored by `*.bin` (.dockerignore line 1)')
    await writeFile(join(tree.dir, '.dockerignore'), '')
    await expect(archiveAt(tree.dir, 'langgraph.json')).rejects.toThrow(
      'is not UTF-8: rename it or ignore it'
    )
  })
})

describe('the rule matcher reads rules as the Python CLI does (pathspec 1.1.1)', () => {
  it('every path of every rule set as pathspec decides it', async () => {
    const table = JSON.parse(await readFile(join(RULES, 'wildmatch.expected.json'), 'utf8')) as {
      paths: string[]
      cases: { rules: string[]; ignored: string[] }[]
    }
    const differ: string[] = []
    for (const c of table.cases) {
      const rules = parseRules(c.rules.join('\n'), '.gitignore', 'cli')
      for (const p of table.paths) {
        const isDir = p.endsWith('/')
        const rule = lastMatch(rules, isDir ? p.slice(0, -1) : p, isDir)
        const ignored = Boolean(rule && !rule.negated)
        if (ignored !== c.ignored.includes(p)) differ.push(`${JSON.stringify(c.rules)} ${p}`)
      }
    }
    expect(differ).toEqual([])
    expect(table.cases.length * table.paths.length).toBeGreaterThan(2500)
  })

  it('a byte-order mark is dropped; the same line without it reads the same', () => {
    const withBom = parseRules('\ufeffprivate.txt\n', '.gitignore', 'cli')
    expect(withBom.map(r => r.text)).toEqual(['private.txt'])
    expect(lastMatch(withBom, 'private.txt', false)?.where).toBe('.gitignore line 1')
    // Only at the start of the file: elsewhere it is part of the rule, as in git.
    const later = parseRules('a\n\ufeffb\n', '.gitignore', 'cli')
    expect(lastMatch(later, 'b', false)).toBeUndefined()
  })

  it('nested files read as git reads them: a rule matches the path itself', () => {
    const git = parseRules('*\n!src/\nbuild/\n/top.txt\ndoc/*.md\n', 'x/.gitignore', 'git')
    const ignored = (p: string, dir = false) => {
      const r = lastMatch(git, p, dir)
      return Boolean(r && !r.negated)
    }
    expect(ignored('src', true)).toBe(false)
    expect(ignored('src/a.py')).toBe(true)
    expect(ignored('build', false)).toBe(true) // `*`
    expect(ignored('top.txt')).toBe(true)
    expect(ignored('doc/a.md')).toBe(true)
    const dirOnly = parseRules('build/\n', 'x/.gitignore', 'git')
    expect(lastMatch(dirOnly, 'build', false)).toBeUndefined()
    expect(lastMatch(dirOnly, 'a/build', true)?.text).toBe('build/')
  })
})
