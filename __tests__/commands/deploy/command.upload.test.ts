import { expect, describe } from '@jest/globals'
import { writeFile, mkdir } from 'node:fs/promises'
import { type Emulator } from '../../../emulator/server.ts'
import { type FaultSpec } from '../../../emulator/faults/index.ts'
import { PUSH_MAIN } from '../../../scripts/runner-env.ts'
import { run } from '../../../src/run.ts'
import { emulatorInputs, fakePort } from '../../builders/fake-port.ts'
import { withEmulators } from '../../builders/in-process.ts'
import { copyFixture, rulesCase, rulesTree, tempDir, gitIn } from '../../builders/upload.ts'
import { join } from 'node:path'

// Upload deploys (`source: internal_source`) in process: run() through a fake port against the
// emulator, for the rules of the flow: what the upload host answers, the run's deadline, and what
// is refused before anything is sent. What only the bundle shows (the runner's temporary folder,
// the user the job runs as, signals) stays in __tests__/e2e/upload.test.ts.

let runs = 0

/** A run of `over` (an upload deploy of `workspace` unless `over` says otherwise). */
async function runIn(
  emu: Emulator,
  workspace: string,
  over: Record<string, string> = {},
  codehost = false
) {
  const { 'integration-id': integration, ...rest } = emulatorInputs(emu, {
    name: `upload-${++runs}`,
    'poll-interval': '2s',
    ...(codehost ? {} : { source: 'internal_source' }),
    ...over
  })
  const inputs = codehost ? { ...rest, 'integration-id': integration! } : rest
  const port = fakePort(inputs, {
    event: { ref: 'main', expectedSha: PUSH_MAIN.sha!, repository: 'acme/agent-server', workspace }
  })
  const result = await run(port)
  const log = port.calls.join('\n')
  return {
    code: result.exitCode,
    outputs: result.outputs,
    errors: port.calls.filter(c => c.startsWith('error: ')),
    log,
    summary: port.summaries.join('\n'),
    everything: `${log}\n${port.summaries.join('\n')}`
  }
}

/** A test with its own emulator (speed 4), all started at once. */
const withEmu = withEmulators()

const writes = (emu: Emulator) =>
  emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH')
const patches = (emu: Emulator) => writes(emu).filter(w => w.method === 'PATCH')

withEmu(
  'upload: a refused PUT is tried again with a new URL; the PATCH names only the stored object',
  async emu => {
    const workspace = await copyFixture('ignores')
    emu.addFaults([
      { method: 'PUT', path: '/_uploads/**', kind: 'status', status: 403, times: 1 },
      { method: 'PUT', path: '/_uploads/**', kind: 'lost-response', times: 1 }
    ])
    const r = await runIn(emu, workspace)
    expect(r.code).toBe(0)
    const uploads = emu.state().uploads
    expect(uploads).toHaveLength(3)
    expect(patches(emu)).toHaveLength(1)
    const named = (
      patches(emu)[0]!.body as { source_revision_config: { source_tarball_path: string } }
    ).source_revision_config.source_tarball_path
    // The first was refused, the second stored but unanswered: neither is ever named.
    expect(named).toBe(uploads[2]!.object_path)
    expect(r.log).toMatch(/refused with HTTP 403/)
    expect(r.log).toMatch(/answer was lost/)
  }
)

withEmu(
  'upload: PUTs that keep failing end the run with nothing patched, and say the deployment has no revision',
  async emu => {
    const workspace = await copyFixture('ignores')
    emu.addFaults({ method: 'PUT', path: '/_uploads/**', kind: 'status', status: 503 })
    const r = await runIn(emu, workspace)
    expect(r.code).toBe(1)
    expect(patches(emu)).toEqual([])
    expect(emu.state().uploads).toHaveLength(3)
    const error = r.errors.join('\n')
    expect(error).toContain('Nothing was patched')
    expect(error).toContain('was created by this run and has no revision with this source')
    expect(r.outputs.created).toBe('true')
  }
)

// An archive over 200 MiB is refused in the reliability suite (reliability/upload.test.ts): 5
// CPU-seconds of deflate wherever it runs.
withEmu(
  'upload: a missing config and a config outside the workspace are refused before any request',
  async emu => {
    const workspace = await copyFixture('ignores')
    const missing = await runIn(emu, workspace, { 'graph-config-path': 'agent/langgraph.json' })
    expect(missing.code).toBe(2)
    expect(missing.errors.join('\n')).toContain(
      "`graph-config-path`: 'agent/langgraph.json' does not exist in the workspace"
    )
    expect(emu.requests()).toEqual([])
    const outside = await runIn(emu, workspace, {
      'graph-config-path': '../monorepo/apps/agent/langgraph.json'
    })
    expect(outside.code).toBe(2)
    expect(outside.errors.join('\n')).toContain('`graph-config-path` must stay inside')
    expect(emu.requests()).toEqual([])
  }
)

withEmu(
  'upload: no PATCH names an object after any upload failure (refused, reset, lost, a redirect)',
  async emu => {
    const workspace = await copyFixture('ignores')
    // A malformed redirect: the case after this one.
    const faults: FaultSpec[] = [
      { kind: 'status', status: 403 },
      { kind: 'reset' },
      { kind: 'lost-response' },
      { kind: 'redirect', status: 307, location: 'https://elsewhere.example.com/o' }
    ]
    for (const fault of faults) {
      emu.clearFaults()
      emu.addFaults({ ...fault, method: 'PUT', path: '/_uploads/**' })
      emu.clearRequests()
      const r = await runIn(emu, workspace)
      const what = JSON.stringify(fault)
      expect({ what, code: r.code, errors: r.errors.length }).toEqual({ what, code: 1, errors: 1 })
      expect({ what, patches: patches(emu) }).toEqual({ what, patches: [] })
      expect(r.errors[0]).toContain('Nothing was patched')
      expect(r.errors[0]).not.toContain('Unexpected error')
      // Outputs as far as known, whatever the host answered.
      expect(r.outputs['source-digest']).toMatch(/^sha256:/)
      expect(r.outputs.created).toBe('true')
    }
  }
)

withEmu(
  'upload: a redirect with an unparsable Location is a refusal: one error, outputs, and the signed query nowhere',
  async emu => {
    const workspace = await copyFixture('ignores')
    emu.addFaults({
      method: 'PUT',
      path: '/_uploads/**',
      kind: 'redirect',
      location: 'http://[unparsable'
    })
    const r = await runIn(emu, workspace)
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain('refused with HTTP 302 (a redirect to (not a URL), not followed)')
    expect(r.errors[0]).toContain('Nothing was patched')
    expect(patches(emu)).toEqual([])
    expect(r.outputs['source-digest']).toMatch(/^sha256:/)
    expect(r.summary).toContain(r.outputs['source-digest']!)
    // The emulator's upload URLs carry `?signature=<token>`.
    const tokens = emu.state().uploads.map(u => u.signature)
    expect(tokens).toHaveLength(3)
    for (const token of tokens) expect(r.everything).not.toContain(token)
    expect(r.everything).not.toContain('signature=')
  }
)

withEmu(
  "upload: the run's deadline bounds a PUT that never answers, retries included",
  async emu => {
    const workspace = await copyFixture('ignores')
    emu.addFaults({ method: 'PUT', path: '/_uploads/**', kind: 'delay', ms: 600_000 })
    // `timeout: 15s`: the upload, every try included, ends by 15 s on the run's clock (the
    // client's deadline, 30 s later, leaves room for the look-ups around the wait); a PUT's own
    // was 300 s.
    const started = Date.now()
    const r = await runIn(emu, workspace, { timeout: '15s' })
    expect(r.code).toBe(1)
    expect(Date.now() - started).toBeLessThan(120_000)
    expect(r.errors[0]).toContain('The run reached its deadline (from `timeout`)')
    expect(r.errors[0]).toContain('its answer was lost (no answer within')
    expect(r.log).not.toContain('was its answer')
    expect(patches(emu)).toEqual([])
    expect(r.outputs['source-digest']).toMatch(/^sha256:/)
  }
)

withEmu(
  'upload: an upload URL of another scheme or with credentials is never sent to, nor asked for again',
  async emu => {
    const workspace = await copyFixture('ignores')
    // Each scheme and credentials in upload/put.test.ts; here, one of each through a whole run.
    const urls = ['file:///etc/passwd', 'https://user:pass@storage.example.com/o.tar.gz']
    for (const url of urls) {
      emu.clearRequests()
      emu.addFaults({
        method: 'POST',
        path: '/v2/deployments/*/upload-url',
        kind: 'bad-schema',
        body: { upload_url: url, object_path: 'uploads/elsewhere.tar.gz' },
        times: 1
      })
      const r = await runIn(emu, workspace, { name: 'upload-scheme' })
      const asked = emu.requests().filter(q => q.path.endsWith('/upload-url'))
      expect({ url, code: r.code, asked: asked.length }).toEqual({ url, code: 1, asked: 1 })
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toContain('The source archive was not sent: the upload URL')
      expect(r.errors[0]).not.toContain('Unexpected error')
      expect(r.errors[0]).not.toContain('pass@')
      expect(patches(emu)).toEqual([])
    }
  }
)

withEmu(
  'upload: revision-source internal_source on a codehost deployment is refused before any request',
  async emu => {
    const workspace = await copyFixture('ignores')
    const r = await runIn(
      emu,
      workspace,
      { repository: 'acme/agent-server', ref: 'main', 'revision-source': 'internal_source' },
      true
    )
    expect(r.code).toBe(2)
    expect(r.errors.join('\n')).toContain(
      '`revision-source: internal_source` needs a deployment whose source is `internal_source`'
    )
    expect(r.errors.join('\n')).toContain('set `source: internal_source`')
    expect(emu.requests()).toEqual([])
  }
)

withEmu(
  "upload: an ignore rule that leaves out the graph's module is refused before anything is sent, naming the graph and the rule",
  async emu => {
    const workspace = await copyFixture('ignores')
    // The service's build would fail to import it (as the emulator's does).
    await writeFile(join(workspace, '.dockerignore'), 'agent.py\n', { flag: 'a' })
    const r = await runIn(emu, workspace)
    expect(r.code).toBe(2)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain(
      '`graph-config-path`: graph "agent" of \'langgraph.json\' names ./agent.py (agent.py in the archive), which is not in the archive: agent.py is ignored by `agent.py` (.dockerignore line 4).'
    )
    expect(r.errors[0]).toContain('Nothing was sent.')
    expect(emu.requests()).toEqual([])
  }
)

withEmu(
  'upload: a PATCH whose answer is lost converges on the one upload, with no second PUT',
  async emu => {
    const workspace = await copyFixture('ignores')
    emu.addFaults({ method: 'PATCH', path: '/v2/deployments/*', kind: 'lost-response', times: 1 })
    const r = await runIn(emu, workspace, { name: 'upload-lost-patch' })
    expect(r.code).toBe(0)
    const uploads = emu.state().uploads
    expect(uploads).toHaveLength(1)
    const last = emu
      .state()
      .tenants.flatMap(x => x.deployments)
      .find(d => d.name === 'upload-lost-patch')!
      .revisions.at(-1)!
    expect(last.id).toBe(r.outputs['revision-id'])
    expect(last.status).toBe('DEPLOYED')
    expect(last.source_revision_config).toMatchObject({
      source_tarball_path: uploads[0]!.object_path
    })
    expect(r.log).toContain('The patch went through')
  }
)

// The upload's file set, in process: run() through a fake port against the emulator, for the
// trees of fixtures/upload/rules (their expected members: the Python LangGraph CLI's, less our
// departures): what the emulator unpacked and built, and what the log says of each file left out.
// Each case failed before the file set was amended (defects 1, 2, 4, 6; credentials; silent
// omissions). What only the bundle shows (the runner's own files) stays in
// __tests__/e2e/upload.test.ts.
describe('set', () => {
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
      event: {
        ref: 'main',
        expectedSha: PUSH_MAIN.sha!,
        repository: 'acme/agent-server',
        workspace
      }
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
})
