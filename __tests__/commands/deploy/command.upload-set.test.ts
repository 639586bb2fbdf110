// The upload's file set, in process: run() through a fake port against the emulator, for the
// trees of fixtures/upload/rules (their expected members: the Python LangGraph CLI's, less our
// departures): what the emulator unpacked and built, and what the log says of each file left out.
// Each case failed before the file set was amended (defects 1, 2, 4, 6; credentials; silent
// omissions). What only the bundle shows (the runner's own files) stays in
// __tests__/e2e/upload-file-set.test.ts.
import { expect } from '@jest/globals'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Emulator } from '../../../emulator/server.ts'
import { PUSH_MAIN } from '../../../scripts/runner-env.ts'
import { run } from '../../../src/run.ts'
import { emulatorInputs, fakePort } from '../../builders/fake-port.ts'
import { withEmulators } from '../../builders/in-process.ts'
import { copyFixture, rulesCase, rulesTree, tempDir, gitIn } from '../../builders/upload.ts'

let runs = 0

/** An upload deploy of `workspace` (no integration, repository or ref) and what it built. */
async function uploadRun(emu: Emulator, workspace: string, over: Record<string, string> = {}) {
  const name = `upload-set-${++runs}`
  const { 'integration-id': _none, ...inputs } = emulatorInputs(emu, {
    source: 'internal_source',
    name,
    'poll-interval': '2s',
    ...over
  })
  const port = fakePort(inputs, {
    event: { ref: 'main', expectedSha: PUSH_MAIN.sha!, repository: 'acme/agent-server', workspace }
  })
  const result = await run(port)
  // Each line said, its kind's prefix off for the info lines (what a runner's log shows).
  const lines = port.calls.flatMap(c => (c.startsWith('info: ') ? c.slice(6) : c).split('\n'))
  const last = emu
    .state()
    .tenants.flatMap(x => x.deployments)
    .find(d => d.name === name)
    ?.revisions.at(-1)
  return {
    code: result.exitCode,
    outputs: result.outputs,
    errors: port.calls.filter(c => c.startsWith('error: ')),
    lines,
    log: lines.join('\n'),
    summary: port.summaries.join('\n'),
    built: { files: last?.source_files, graphs: last?.graphs, status: last?.status }
  }
}

/** A test with its own emulator (speed 4), all started at once. */
const withEmu = withEmulators()

const writes = (emu: Emulator) =>
  emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH')

withEmu(
  'upload set: `!.git/` and the whitelist `*` then `!*/` never put .git/ or .venv/ in',
  async emu => {
    for (const name of ['negations', 'whitelist']) {
      const c = await rulesCase(name)
      const tree = await rulesTree(name)
      const r = await uploadRun(emu, tree.dir)
      expect({ name, code: r.code, errors: r.errors }).toEqual({ name, code: 0, errors: [] })
      expect(r.built).toMatchObject({ files: c.members, status: 'DEPLOYED', graphs: ['agent'] })
      expect(c.cli).toContain('.git/config') // the CLI sends the checkout's token
    }
  }
)

withEmu(
  'upload set: allowlists keep the whole src tree; matching is case-sensitive; a BOM is read',
  async emu => {
    const c = await rulesCase('allowlist')
    const tree = await rulesTree('allowlist')
    // `*` then `!/src/**`: the case where src/agent/graph.py was left out.
    await writeFile(join(tree.dir, '.gitignore'), c.variants![2]!)
    const r = await uploadRun(emu, tree.dir)
    expect(r.code).toBe(0)
    expect(r.built).toMatchObject({ files: c.members, status: 'DEPLOYED', graphs: ['agent'] })
    // `MANIFEST` keeps manifest; a .gitignore that begins with a byte-order mark keeps its first rule.
    for (const name of ['case', 'bom']) {
      const other = await uploadRun(emu, (await rulesTree(name)).dir)
      expect({ name, files: other.built.files }).toEqual({
        name,
        files: (await rulesCase(name)).members
      })
    }
  }
)

withEmu('upload set: links and special files are left out, each named in the log', async emu => {
  const c = await rulesCase('links')
  const tree = await rulesTree('links')
  try {
    const r = await uploadRun(emu, tree.dir)
    expect(r.code).toBe(0)
    expect(r.built.files).toEqual(c.members)
    // The hard link to a file outside the workspace is not uploaded with that file's bytes.
    expect(r.log).toContain(
      'Left out: outside.py: a hard link (the file has 2 names): links are never archived'
    )
    for (const line of [
      'Left out: link-to-agent.py: a symbolic link',
      'Left out: linked-src/: a symbolic link',
      'Left out: shared.py: a hard link',
      'Left out: shared-again.py: a hard link',
      'Left out: pipe: a FIFO, not a regular file',
      'Left out: server.sock: a socket, not a regular file'
    ])
      expect(r.log).toContain(line)
  } finally {
    await tree.close()
  }
})

withEmu(
  'upload set: credentials stay out and are named; the env file gets a secrets hint; untracked files are named',
  async emu => {
    const c = await rulesCase('credentials')
    const tree = await rulesTree('credentials')
    const git = gitIn(tree.dir)
    git('init', '-q')
    git('add', 'langgraph.json', 'agent.py')
    git('commit', '-qm', 'first')
    const r = await uploadRun(emu, tree.dir)
    expect(r.code).toBe(0)
    expect(r.built.files).toEqual(c.members)
    expect(r.log).toContain(
      'Left out: gha-creds-3f2a9c1d.json: it carries credentials by its name (`gha-creds-*.json`)'
    )
    for (const name of Object.keys(c.departures)) expect(r.log).toContain(`Left out: ${name}: `)
    const warning = r.lines.find(l => l.startsWith('warning: ') && l.includes('.env'))
    expect(warning).toContain('langgraph.json names .env as its `env`')
    expect(warning).toContain('Give its values to `secrets` instead')
    expect(r.log).toContain(
      'Not tracked by git, but in the archive: 7 files: .env.example, .env.sample, .streamlit/config.toml, README.md, cert.crt, config/settings.json, id_rsa.pub.'
    )
  }
)

withEmu(
  'upload set: nested .gitignore files are honoured, also below a root a `../..` widens',
  async emu => {
    const c = await rulesCase('nested')
    const tree = await rulesTree('nested')
    const r = await uploadRun(emu, tree.dir)
    expect(r.code).toBe(0)
    expect(r.built.files).toEqual(c.members)

    // apps/a depends on `../..`: the root is the workspace, walked with apps/a/.gitignore read.
    const ws = await tempDir()
    await mkdir(join(ws, 'apps/a'), { recursive: true })
    await writeFile(
      join(ws, 'apps/a/langgraph.json'),
      JSON.stringify({ dependencies: ['../..'], graphs: { agent: './agent.py:graph' } })
    )
    await writeFile(join(ws, 'apps/a/agent.py'), 'graph = "agent"\n')
    await writeFile(join(ws, 'apps/a/.gitignore'), 'secret.txt\n')
    await writeFile(join(ws, 'apps/a/secret.txt'), 'TOKEN\n')
    await writeFile(join(ws, 'pyproject.toml'), '[project]\nname = "ws"\n')
    const wide = await uploadRun(emu, ws, { 'graph-config-path': 'apps/a/langgraph.json' })
    expect(wide.code).toBe(0)
    expect(wide.built.files).toEqual([
      'apps/a/.gitignore',
      'apps/a/agent.py',
      'apps/a/langgraph.json',
      'pyproject.toml'
    ])
  }
)

withEmu(
  'upload set: a dry run builds the archive and prints it with the plan: every file, and every file left out with why; no write, no upload',
  async emu => {
    const workspace = await copyFixture('ignores')
    const r = await uploadRun(emu, workspace, { 'dry-run': 'true' })
    expect(r.code).toBe(0)
    expect(writes(emu)).toEqual([])
    expect(emu.state().uploads).toEqual([])
    expect(r.log).toContain('Create deployment')
    expect(r.log).toMatch(/source: 11 files, \d+ B, sha256:[0-9a-f]{64}/)
    expect(r.summary).toContain(r.outputs['source-digest']!)
    const files = r.lines.indexOf('Files in the archive (11):')
    expect(r.lines.slice(files + 1, files + 12)).toEqual([
      '  .dockerignore',
      '  .gitignore',
      '  agent.py',
      '  keep.log',
      '  langgraph.json',
      '  lib/venv',
      '  nested/.gitignore',
      '  run.sh',
      '  sub/anchored.txt',
      '  tests/test_agent.py',
      '  venv.txt'
    ])
    expect(r.lines[files + 12]).toBe('Left out (17):')
    for (const line of [
      '  .env: it carries credentials by its name (`.env`): such files are never archived',
      '  build/: ignored by `build/` (.gitignore line 4)',
      '  docs/: ignored by `docs/` (.dockerignore line 1)',
      '  nested/mod.py: ignored by `*.py` (nested/.gitignore line 1)',
      '  node_modules/: always left out, whatever the ignore files say'
    ])
      expect(r.lines).toContain(line)
  }
)
