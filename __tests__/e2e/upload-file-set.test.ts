// The upload's file set end to end through the bundle: what the emulator unpacked and built for
// the trees of fixtures/upload/rules (their expected members: the Python LangGraph CLI's, less our
// departures), and what the log says of each file left out. Each case failed before the file set
// was amended (issue 32: defects 1, 2, 4, 6; credentials; silent omissions).
import { expect } from '@jest/globals'

import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { copyFixture, rulesCase, rulesTree, tempDir, gitIn } from '../builders/upload.ts'
import { e2e, runAction as run, uniqueName, type E2E } from './harness.ts'

/** An upload deploy of `workspace` (no integration, repository or ref) and what it built. */
async function uploadRun(
  t: E2E,
  workspace: string,
  over: { inputs?: Record<string, string>; env?: Record<string, string> } = {}
) {
  const name = uniqueName('upload-set')
  const { 'integration-id': _none, ...inputs } = t.inputs({
    source: 'internal_source',
    name,
    ...over.inputs
  })
  const r = await run({ inputs, env: { GITHUB_WORKSPACE: workspace, ...over.env } })
  return Object.assign(r, { built: () => built(t, name) })
}

/** The files the emulator unpacked from the upload of deployment `name`, and what it built. */
function built(t: E2E, name: string) {
  const last = t.named(name)[0]?.revisions.at(-1)
  return { files: last?.source_files, graphs: last?.graphs, status: last?.status }
}

e2e(
  'upload set: `!.git/` and the whitelist `*` then `!*/` never put .git/ or .venv/ in',
  async t => {
    for (const name of ['negations', 'whitelist']) {
      const c = await rulesCase(name)
      const tree = await rulesTree(name)
      const r = await uploadRun(t, tree.dir)
      expect({ name, code: r.code, errors: r.errors }).toEqual({ name, code: 0, errors: [] })
      expect(r.built()).toMatchObject({ files: c.members, status: 'DEPLOYED', graphs: ['agent'] })
      expect(c.cli).toContain('.git/config') // the CLI sends the checkout's token
    }
  }
)

e2e(
  'upload set: allowlists keep the whole src tree; matching is case-sensitive; a BOM is read',
  async t => {
    const c = await rulesCase('allowlist')
    const tree = await rulesTree('allowlist')
    // `*` then `!/src/**`: the case where src/agent/graph.py was left out.
    await writeFile(join(tree.dir, '.gitignore'), c.variants![2]!)
    const r = await uploadRun(t, tree.dir)
    expect(r.code).toBe(0)
    expect(r.built()).toMatchObject({ files: c.members, status: 'DEPLOYED', graphs: ['agent'] })
    // `MANIFEST` keeps manifest; a .gitignore that begins with a byte-order mark keeps its first rule.
    for (const name of ['case', 'bom']) {
      const other = await uploadRun(t, (await rulesTree(name)).dir)
      expect({ name, files: other.built().files }).toEqual({
        name,
        files: (await rulesCase(name)).members
      })
    }
  }
)

e2e('upload set: links and special files are left out, each named in the log', async t => {
  const c = await rulesCase('links')
  const tree = await rulesTree('links')
  try {
    const r = await uploadRun(t, tree.dir)
    expect(r.code).toBe(0)
    expect(r.built().files).toEqual(c.members)
    // The hard link to a file outside the workspace is not uploaded with that file's bytes.
    expect(r.stdout).toContain(
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
      expect(r.stdout).toContain(line)
  } finally {
    await tree.close()
  }
})

e2e(
  'upload set: credentials stay out and are named; the env file gets a secrets hint; untracked files are named',
  async t => {
    const c = await rulesCase('credentials')
    const tree = await rulesTree('credentials')
    const git = gitIn(tree.dir)
    git('init', '-q')
    git('add', 'langgraph.json', 'agent.py')
    git('commit', '-qm', 'first')
    const r = await uploadRun(t, tree.dir)
    expect(r.code).toBe(0)
    expect(r.built().files).toEqual(c.members)
    expect(r.stdout).toContain(
      'Left out: gha-creds-3f2a9c1d.json: it carries credentials by its name (`gha-creds-*.json`)'
    )
    for (const name of Object.keys(c.departures)) expect(r.stdout).toContain(`Left out: ${name}: `)
    const warning = r.stdout.split('\n').find(l => l.startsWith('::warning') && l.includes('.env'))
    expect(warning).toContain('langgraph.json names .env as its `env`')
    expect(warning).toContain('Give its values to `secrets` instead')
    expect(r.stdout).toContain(
      'Not tracked by git, but in the archive: 7 files: .env.example, .env.sample, .streamlit/config.toml, README.md, cert.crt, config/settings.json, id_rsa.pub.'
    )
  }
)

e2e(
  'upload set: nested .gitignore files are honoured, also below a root a `../..` widens',
  async t => {
    const c = await rulesCase('nested')
    const tree = await rulesTree('nested')
    const r = await uploadRun(t, tree.dir)
    expect(r.code).toBe(0)
    expect(r.built().files).toEqual(c.members)

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
    const wide = await uploadRun(t, ws, {
      inputs: { 'graph-config-path': 'apps/a/langgraph.json' }
    })
    expect(wide.code).toBe(0)
    expect(wide.built().files).toEqual([
      'apps/a/.gitignore',
      'apps/a/agent.py',
      'apps/a/langgraph.json',
      'pyproject.toml'
    ])
  }
)

e2e('upload set: the runner’s output file in the workspace is never archived', async t => {
  const workspace = await copyFixture('ignores')
  const out = join(workspace, 'step-outputs.txt')
  await writeFile(out, '')
  const first = await uploadRun(t, workspace, { env: { GITHUB_OUTPUT: out } })
  expect(first.stdout).toContain('Left out: step-outputs.txt: written by this run')
  expect(first.built().files).not.toContain('step-outputs.txt')
})

e2e('upload set: a dry run prints every file, and every file left out with why', async t => {
  const workspace = await copyFixture('ignores')
  const r = await uploadRun(t, workspace, { inputs: { 'dry-run': 'true' } })
  expect(r.code).toBe(0)
  expect(t.writes()).toEqual([])
  const lines = r.stdout.split('\n')
  const files = lines.indexOf('Files in the archive (11):')
  expect(lines.slice(files + 1, files + 12)).toEqual([
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
  expect(lines[files + 12]).toBe('Left out (17):')
  for (const line of [
    '  .env: it carries credentials by its name (`.env`): such files are never archived',
    '  build/: ignored by `build/` (.gitignore line 4)',
    '  docs/: ignored by `docs/` (.dockerignore line 1)',
    '  nested/mod.py: ignored by `*.py` (nested/.gitignore line 1)',
    '  node_modules/: always left out, whatever the ignore files say'
  ])
    expect(lines).toContain(line)
})
