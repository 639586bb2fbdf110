// What the archive leaves out that the config needs: a graph's own file (its module), refused
// before anything is written or sent, naming the graph and the rule or reason that dropped it; and
// the config's `env` file, which the log warns about whatever left it out.
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from '@jest/globals'
import { buildArchive, type BuiltArchive } from '../../src/upload/archive.ts'
import { ArchiveError } from '../../src/upload/errors.ts'
import { graphFiles } from '../../src/upload/left-out.ts'
import { envFileHint } from '../../src/upload/report.ts'
import { tempDir } from '../builders/upload.ts'

const built: BuiltArchive[] = []
afterAll(async () => {
  for (const a of built) await a.cleanup()
})

/** A project of these files (path -> text), `langgraph.json` from `config`. */
async function project(config: unknown, files: Record<string, string> = {}): Promise<string> {
  const dir = await tempDir()
  const all = { 'langgraph.json': JSON.stringify(config), ...files }
  for (const [name, text] of Object.entries(all)) {
    await mkdir(dirname(join(dir, name)), { recursive: true })
    await writeFile(join(dir, name), text)
  }
  return dir
}

/** The archive of `dir`, its own temporary folder returned beside it to see what it wrote. */
async function archive(dir: string, graphConfigPath = 'langgraph.json') {
  const temp = await tempDir()
  const run = buildArchive({
    workspace: dir,
    graphConfigPath,
    tempDir: temp,
    inputName: '`graph-config-path`'
  })
  return { run, temp }
}

async function refusal(dir: string, graphConfigPath?: string): Promise<ArchiveError> {
  const { run, temp } = await archive(dir, graphConfigPath)
  const err = await run.then(
    a => {
      built.push(a)
      return undefined
    },
    (e: unknown) => e
  )
  expect(err).toBeInstanceOf(ArchiveError)
  // Refused before the archive is written: nothing in its temporary folder.
  expect(await readdir(temp)).toEqual([])
  return err as ArchiveError
}

async function archived(dir: string, graphConfigPath?: string): Promise<BuiltArchive> {
  const a = await (await archive(dir, graphConfigPath)).run
  built.push(a)
  return a
}

describe("an archive without a graph's file is refused, naming the graph and why", () => {
  it('Python: the module left out by a .dockerignore rule', async () => {
    const dir = await project(
      { dependencies: ['.'], graphs: { support: './src/agent.py:graph' } },
      { '.dockerignore': '# build context\nsrc/\n', 'src/agent.py': 'graph = None\n' }
    )
    const err = await refusal(dir)
    expect(err.message).toBe(
      '`graph-config-path`: graph "support" of \'langgraph.json\' names ./src/agent.py (src/agent.py in the archive), which is not in the archive: src/ is ignored by `src/` (.dockerignore line 2). The build would fail to import it.'
    )
    expect(err.hint).toMatch(/change the rule that leaves it out/)
  })

  it('JS: a `{path}` graph whose file a nested .gitignore leaves out', async () => {
    const dir = await project(
      {
        node_version: '20',
        graphs: {
          chat: { path: './src/chat.ts:graph', description: 'kept' },
          agent: { path: './src/agent/index.ts:graph' }
        }
      },
      {
        'src/chat.ts': 'export const graph = 1\n',
        'src/agent/index.ts': 'export const graph = 1\n',
        'src/agent/.gitignore': 'index.ts\n'
      }
    )
    const err = await refusal(dir)
    expect(err.message).toContain('graph "agent" of \'langgraph.json\' names ./src/agent/index.ts')
    expect(err.message).toContain(
      'src/agent/index.ts is ignored by `index.ts` (src/agent/.gitignore line 1)'
    )
  })

  it('a JS file named without ./ ; a module under a folder that is always left out', async () => {
    const bare = await project(
      { graphs: { agent: 'agent.mts:graph' } },
      { '.gitignore': '*.mts\n' }
    )
    await writeFile(join(bare, 'agent.mts'), 'export const graph = 1\n')
    expect((await refusal(bare)).message).toContain('agent.mts is ignored by `*.mts`')
    const venv = await project(
      { graphs: { agent: './.venv/agent.py:graph' } },
      { '.venv/agent.py': 'graph = 1\n' }
    )
    expect((await refusal(venv)).message).toContain(
      '.venv/ is always left out, whatever the ignore files say'
    )
  })

  it('a module that is a symbolic link, and one that does not exist', async () => {
    const dir = await project({ graphs: { agent: './agent.py:graph' } }, { 'real.py': 'g = 1\n' })
    await symlink('real.py', join(dir, 'agent.py'))
    expect((await refusal(dir)).message).toContain(
      'agent.py is left out: a symbolic link: links are never archived'
    )
    const missing = await project({ graphs: { agent: './src/gone.py:graph' } })
    expect((await refusal(missing)).message).toContain(
      'names ./src/gone.py (src/gone.py in the archive), which is not in the archive: it does not exist.'
    )
  })

  it('a module outside the archive: above the config, beside its dependencies, absolute', async () => {
    const dir = await project(
      {},
      { 'app/agent.py': 'g = 1\n', 'lib/pyproject.toml': '', 'other/agent.py': 'g = 1\n' }
    )
    const config = (graphs: Record<string, string>, dependencies = ['.']) =>
      writeFile(join(dir, 'app/langgraph.json'), JSON.stringify({ dependencies, graphs }))
    const why = async () => (await refusal(dir, 'app/langgraph.json')).message
    await config({ up: '../other/agent.py:graph' })
    expect(await why()).toContain(
      "graph \"up\" of 'app/langgraph.json' names ../other/agent.py, which is not in the archive: it lies outside the archive's root"
    )
    // `../lib` widens the root to the workspace; other/ is still not walked.
    await config({ up: '../other/agent.py:graph' }, ['.', '../lib'])
    expect(await why()).toContain(
      'names ../other/agent.py (other/agent.py in the archive), which is not in the archive: it lies outside the folders archived'
    )
    await config({ abs: `${dir}/app/agent.py:graph` })
    expect(await why()).toContain(
      `names ${dir}/app/agent.py, which is not in the archive: it lies outside the archive's root`
    )
  })

  it('in a monorepo: the graph of apps/a, named by its member in the widened archive', async () => {
    const config = { dependencies: ['.', '../../libs/shared'], graphs: { a: './agent.py:graph' } }
    const dir = await project(
      {},
      {
        'apps/a/langgraph.json': JSON.stringify(config),
        'apps/a/agent.py': 'graph = 1\n',
        'apps/a/.dockerignore': 'agent.py\n',
        'libs/shared/pyproject.toml': '[project]\nname = "shared"\n'
      }
    )
    expect((await refusal(dir, 'apps/a/langgraph.json')).message).toContain(
      'graph "a" of \'apps/a/langgraph.json\' names ./agent.py (apps/a/agent.py in the archive), which is not in the archive: apps/a/agent.py is ignored by `agent.py` (apps/a/.dockerignore line 1).'
    )
  })

  it('a Python module path is the build’s import: not a file to check; kept files pass', async () => {
    const dir = await project(
      { graphs: { mod: 'my_agent.graph:app', file: './agent.py:graph' } },
      { 'agent.py': 'graph = 1\n' }
    )
    expect((await archived(dir)).files).toEqual(['agent.py', 'langgraph.json'])
  })
})

describe('the files a graph names, read as the LangGraph CLIs read them', () => {
  it('the spec up to its first colon, from the config’s folder; a path, or a JS or Python file', () => {
    expect(
      graphFiles(
        {
          graphs: {
            py: './src/agent.py:graph',
            js: { path: 'src\\agent.ts:make:graph' },
            up: '../shared/agent.py:graph',
            bare: 'agent.cjs:graph',
            abs: '/home/me/agent.py:graph',
            mod: 'pkg.agent:graph',
            odd: 42,
            nopath: { description: 'x' }
          }
        },
        'apps/a/langgraph.json'
      )
    ).toEqual([
      { graph: 'py', file: './src/agent.py', member: 'apps/a/src/agent.py' },
      { graph: 'js', file: 'src\\agent.ts', member: 'apps/a/src/agent.ts' },
      { graph: 'up', file: '../shared/agent.py', member: 'apps/shared/agent.py' },
      { graph: 'bare', file: 'agent.cjs', member: 'apps/a/agent.cjs' },
      { graph: 'abs', file: '/home/me/agent.py', member: '../home/me/agent.py' }
    ])
    expect(graphFiles({ graphs: ['./a.py:g'] }, 'langgraph.json')).toEqual([])
    expect(graphFiles(null, 'langgraph.json')).toEqual([])
  })
})

describe("the config's env file not in the archive: a warning with how to pass its values", () => {
  const hint = async (files: Record<string, string>, env: unknown = '.env') => {
    const dir = await project(
      { graphs: { agent: './agent.py:graph' }, env },
      {
        'agent.py': 'graph = 1\n',
        ...files
      }
    )
    return envFileHint(await archived(dir), '`secrets`')
  }

  it('gitignored (a name that is no credential), dropped by a .dockerignore rule, or missing', async () => {
    const ignored = await hint(
      { '.gitignore': 'settings/\n', 'settings/vars': 'A=1\n' },
      'settings/vars'
    )
    expect(ignored).toContain(
      'langgraph.json names settings/vars as its `env`, and it is not in the archive'
    )
    expect(ignored).toContain('settings/ is ignored by `settings/` (.gitignore line 1)')
    expect(ignored).toContain('the agent server would start without those variables')
    expect(ignored).toContain('Give its values to `secrets` instead')
    const docker = await hint({ '.dockerignore': '.env\n', '.env': 'A=1\n' })
    expect(docker).toContain('.env is ignored by `.env` (.dockerignore line 1)')
    expect(await hint({})).toContain('(it does not exist)')
  })

  it('left out for its credential name, as before; none when the archive holds it, or env is a map', async () => {
    expect(await hint({ '.env': 'A=1\n' })).toContain(
      '.env is left out: it carries credentials by its name (`.env`)'
    )
    expect(await hint({ 'vars.txt': 'A=1\n' }, 'vars.txt')).toBeUndefined()
    expect(await hint({}, { A: '1' })).toBeUndefined()
  })
})
