// Upload deploys (`source: internal_source`) end to end through the bundle on Node 24: the
// workspace (GITHUB_WORKSPACE) archived, an upload URL asked for, the archive PUT there, the
// PATCH naming the stored object, and the revision followed as always. What the emulator unpacked
// is compared with the member list the LangGraph CLI's rules give (__tests__/upload/).
import { expect } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { chmod, link, mkdir, mkdtemp, readdir, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  copyFixture,
  fifoRace,
  MONOREPO_MEMBERS,
  openUp,
  RUN_AS,
  watchedTemp,
  gitIn
} from '../builders/upload.ts'
import type { FaultSpec } from '../../emulator/faults/index.ts'
import { e2e, runAction as run, uniqueName, uploadInputs, type E2E } from './harness.ts'

/** What git cannot hold: links, a fifo, `.git` folders and a submodule's `.git` file. */
async function addUnkeepables(dir: string) {
  await symlink('agent.py', join(dir, 'link-to-agent.py'))
  await symlink('nested', join(dir, 'linked-dir'))
  await writeFile(join(dir, 'twice.py'), 'x = 1\n')
  await link(join(dir, 'twice.py'), join(dir, 'hard.py'))
  await mkdir(join(dir, 'sub', '.git'), { recursive: true })
  await writeFile(join(dir, 'sub', '.git', 'config'), '')
  await writeFile(join(dir, 'nested', '.git'), 'gitdir: ../.git/modules/nested\n')
  execFileSync('mkfifo', [join(dir, 'pipe')])
  await chmod(join(dir, 'run.sh'), 0o755)
}

// fixtures/upload/ignores after addUnkeepables, by the LangGraph CLI's rules with our departures
// (as __tests__/upload/archive.test.ts derives them): links, the fifo, `.git/` folders, .env (a
// credential) and nested/mod.py (nested/.gitignore) left out.
const IGNORES_MEMBERS = [
  '.dockerignore',
  '.gitignore',
  'agent.py',
  'keep.log',
  'langgraph.json',
  'lib/venv',
  'nested/.git',
  'nested/.gitignore',
  'run.sh',
  'sub/anchored.txt',
  'tests/test_agent.py',
  'venv.txt'
]
/** The inputs of an upload deploy of `workspace`: no integration, repository or ref. */
const upload = uploadInputs
/** A run that deploys `workspace` by upload, with these inputs. */
const runUpload = (t: E2E, workspace: string, over: Record<string, string>) =>
  run({ inputs: upload(t, over), env: { GITHUB_WORKSPACE: workspace } })

/** A copy of fixtures/upload/ignores and a new deployment name. */
const ignores = async (prefix: string) => ({
  workspace: await copyFixture('ignores'),
  name: uniqueName(prefix)
})
const deployments = (t: E2E, name: string) => t.named(name)
const revisionsOf = (t: E2E, name: string) => deployments(t, name)[0]?.revisions ?? []

e2e(
  'upload: creates by upload; the emulator builds exactly the files the rules select',
  async t => {
    const workspace = await copyFixture('ignores')
    await addUnkeepables(workspace)
    const name = uniqueName('upload')
    const r = await runUpload(t, workspace, { name })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const [d] = deployments(t, name)
    expect(d!.source).toBe('internal_source')
    const built = revisionsOf(t, name).at(-1)!
    expect(built.id).toBe(r.outputs['revision-id'])
    expect(built.status).toBe('DEPLOYED')
    expect(built.source_files).toEqual(IGNORES_MEMBERS)
    expect(built.graphs).toEqual(['agent'])
    // The create as the real clients send it, then upload-url, then the PATCH naming the object.
    const writes = t.writes()
    expect(writes.map(w => `${w.method} ${w.path.replace(d!.id, '{id}')}`)).toEqual([
      'POST /v2/deployments',
      'POST /v2/deployments/{id}/upload-url',
      'PATCH /v2/deployments/{id}'
    ])
    expect(writes[0]!.body).toMatchObject({
      name,
      source: 'internal_source',
      source_revision_config: {}
    })
    const patch = writes[2]!.body as { source_revision_config: Record<string, string> }
    const [stored] = t.emu.state().uploads
    expect(patch.source_revision_config).toEqual({
      source_tarball_path: stored!.object_path,
      graph_config_path: 'langgraph.json'
    })
    // The digest is that of the bytes the upload host received; the log and summary say it.
    const digest = r.outputs['source-digest']!
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(stored!.bytes).toBeGreaterThan(0)
    expect(r.stdout).toContain(`12 files, `)
    expect(r.stdout).toContain(digest)
    expect(r.summary).toContain(digest)
    expect(r.outputs.created).toBe('true')
    // The summary's changes say what this run did: the create, not the update that named the upload.
    expect(r.summary).toMatch(
      /\*\*Changes\*\*\n\n```\nCreate deployment "[^"]+" \(source internal_source\)\n/
    )
    expect(r.summary).not.toMatch(/^Update deployment/m)
    // The key never reaches the upload host; the PUT says what it is.
    const headers = stored!.put_headers
    expect(headers).toHaveLength(1)
    expect(headers[0]!['content-type']).toBe('application/gzip')
    expect(headers[0]!['content-length']).toBe(String(stored!.bytes))
    expect(Object.values(headers[0]!).join('\n')).not.toContain(t.key)
    expect(Object.keys(headers[0]!)).not.toContain('x-api-key')
  }
)

e2e('upload: updates by upload; a monorepo widens to its shared library; git is named', async t => {
  const repo = await copyFixture('monorepo')
  const git = gitIn(repo)
  git('init', '-q')
  git('add', '-A', '-f')
  git('commit', '-qm', 'first')
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo }).toString().trim()
  const name = uniqueName('upload-mono')
  const inputs = upload(t, { name, 'graph-config-path': 'apps/agent/langgraph.json' })
  const env = { GITHUB_WORKSPACE: repo }
  const first = await run({ inputs, env })
  expect(first.code).toBe(0)
  expect(first.stdout).toContain(`git commit ${commit.slice(0, 12)}`)
  expect(first.stdout).not.toContain('uncommitted')

  // A tracked file changed: the update uploads it, and says the workspace differs from HEAD.
  await writeFile(join(repo, 'apps/agent/agent.py'), 'graph = "changed"\n')
  t.emu.clearRequests()
  const second = await run({ inputs, env })
  expect(second.code).toBe(0)
  expect(second.outputs.created).toBe('false')
  expect(second.stdout).toContain('(with uncommitted changes)')
  expect(second.summary).toContain('(with uncommitted changes)')
  expect(second.outputs['source-digest']).not.toBe(first.outputs['source-digest'])
  const revisions = revisionsOf(t, name)
  const last = revisions.at(-1)!
  expect(last.id).toBe(second.outputs['revision-id'])
  expect(last.source_files).toEqual(MONOREPO_MEMBERS)
  expect(last.source_revision_config).toMatchObject({
    graph_config_path: 'apps/agent/langgraph.json'
  })
  expect(t.writes().map(w => w.method)).toEqual(['POST', 'PATCH'])
})

e2e(
  'upload: a dry run builds the archive and prints it with the plan, and sends no write',
  async t => {
    const { workspace, name } = await ignores('upload-dry')
    const r = await runUpload(t, workspace, { name, 'dry-run': 'true' })
    expect(r.code).toBe(0)
    expect(t.writes()).toEqual([])
    expect(t.emu.state().uploads).toEqual([])
    expect(r.stdout).toContain('Create deployment')
    expect(r.stdout).toMatch(/source: 11 files, \d+ B, sha256:[0-9a-f]{64}/)
    expect(r.summary).toContain(r.outputs['source-digest']!)
  }
)

e2e(
  'upload: a refused PUT is tried again with a new URL; the PATCH names only the stored object',
  async t => {
    const { workspace, name } = await ignores('upload-refused')
    t.emu.addFaults([
      { method: 'PUT', path: '/_uploads/**', kind: 'status', status: 403, times: 1 },
      { method: 'PUT', path: '/_uploads/**', kind: 'lost-response', times: 1 }
    ])
    const r = await runUpload(t, workspace, { name })
    expect(r.code).toBe(0)
    const uploads = t.emu.state().uploads
    expect(uploads).toHaveLength(3)
    const patches = t.writes().filter(w => w.method === 'PATCH')
    expect(patches).toHaveLength(1)
    const named = (patches[0]!.body as { source_revision_config: { source_tarball_path: string } })
      .source_revision_config.source_tarball_path
    // The first was refused, the second stored but unanswered: neither is ever named.
    expect(named).toBe(uploads[2]!.object_path)
    expect(r.stdout).toMatch(/refused with HTTP 403/)
    expect(r.stdout).toMatch(/answer was lost/)
  }
)

e2e(
  'upload: PUTs that keep failing end the run with nothing patched, and say the deployment has no revision',
  async t => {
    const { workspace, name } = await ignores('upload-down')
    t.emu.addFaults({ method: 'PUT', path: '/_uploads/**', kind: 'status', status: 503 })
    const r = await runUpload(t, workspace, { name })
    expect(r.code).toBe(1)
    expect(t.writes().filter(w => w.method === 'PATCH')).toEqual([])
    expect(t.emu.state().uploads).toHaveLength(3)
    const error = r.errors.join('\n')
    expect(error).toContain('Nothing was patched')
    expect(error).toContain('was created by this run and has no revision with this source')
    expect(r.outputs.created).toBe('true')
  }
)

// An archive over 200 MiB is refused in the reliability suite (reliability/upload.test.ts): 5
// CPU-seconds of deflate wherever it runs.
e2e(
  'upload: a missing config and a config outside the workspace are refused before any request',
  async t => {
    const { workspace, name } = await ignores('upload-bad')
    const missing = await runUpload(t, workspace, {
      name,
      'graph-config-path': 'agent/langgraph.json'
    })
    expect(missing.code).toBe(1)
    expect(missing.errors.join('\n')).toContain(
      "`graph-config-path`: 'agent/langgraph.json' does not exist in the workspace"
    )
    expect(t.emu.requests()).toEqual([])
    const outside = await runUpload(t, workspace, {
      name,
      'graph-config-path': '../monorepo/apps/agent/langgraph.json'
    })
    expect(outside.code).toBe(1)
    expect(outside.errors.join('\n')).toContain('`graph-config-path` must stay inside')
    expect(t.emu.requests()).toEqual([])
  }
)

e2e('upload: a pull request from a fork is refused before any request', async t => {
  const workspace = await copyFixture('ignores')
  const r = await run({
    inputs: upload(t, { name: uniqueName('upload-fork') }),
    env: { GITHUB_WORKSPACE: workspace },
    event: {
      name: 'pull_request',
      ref: 'refs/pull/7/merge',
      headRef: 'feature',
      payload: {
        number: 7,
        pull_request: {
          number: 7,
          head: {
            ref: 'feature',
            sha: 'a'.repeat(40),
            repo: { full_name: 'mallory/agent-server' }
          },
          base: { repo: { full_name: 'acme/agent-server' } }
        }
      }
    }
  })
  expect(r.code).toBe(1)
  expect(r.errors.join('\n')).toContain('the fork `mallory/agent-server`')
  expect(r.errors.join('\n')).toContain('upload deploy')
  expect(t.emu.requests()).toEqual([])
})

e2e(
  'upload: a PATCH whose answer is lost converges on the one upload, with no second PUT',
  async t => {
    const { workspace, name } = await ignores('upload-lost-patch')
    t.emu.addFaults({ method: 'PATCH', path: '/v2/deployments/*', kind: 'lost-response', times: 1 })
    const r = await runUpload(t, workspace, { name })
    expect(r.code).toBe(0)
    const uploads = t.emu.state().uploads
    expect(uploads).toHaveLength(1)
    const last = revisionsOf(t, name).at(-1)!
    expect(last.id).toBe(r.outputs['revision-id'])
    expect(last.status).toBe('DEPLOYED')
    expect(last.source_revision_config).toMatchObject({
      source_tarball_path: uploads[0]!.object_path
    })
    expect(r.stdout).toContain('The patch went through')
  }
)

// ---------------------------------------------------------------------------------------------
// The edges of the transport: what the upload host answers, the run's deadline, signals and
// races, and what is refused before anything is sent (issue 32).

/** Everything a run printed or wrote: where a signed URL's query must never be. */
const everything = (r: { stdout: string; stderr: string; summary: string }) =>
  `${r.stdout}\n${r.stderr}\n${r.summary}`

/** The emulator's upload URLs carry `?signature=<token>`: the token of each URL it handed out. */
const signatures = (t: E2E) => t.emu.state().uploads.map(u => u.signature)

e2e(
  'upload: no PATCH names an object after any upload failure (refused, reset, lost, a redirect)',
  async t => {
    const workspace = await copyFixture('ignores')
    // A malformed redirect: the case after this one.
    const faults: FaultSpec[] = [
      { kind: 'status', status: 403 },
      { kind: 'reset' },
      { kind: 'lost-response' },
      { kind: 'redirect', status: 307, location: 'https://elsewhere.example.com/o' }
    ]
    for (const fault of faults) {
      const name = uniqueName('upload-never-patched')
      t.emu.clearFaults()
      t.emu.addFaults({ ...fault, method: 'PUT', path: '/_uploads/**' })
      t.emu.clearRequests()
      const r = await runUpload(t, workspace, { name })
      const what = JSON.stringify(fault)
      expect({ what, code: r.code, errors: r.errors.length }).toEqual({ what, code: 1, errors: 1 })
      expect({ what, patches: t.writes().filter(w => w.method === 'PATCH') }).toEqual({
        what,
        patches: []
      })
      expect(r.errors[0]).toContain('Nothing was patched')
      expect(r.errors[0]).not.toContain('Unexpected error')
      // Outputs as far as known, whatever the host answered.
      expect(r.outputs['source-digest']).toMatch(/^sha256:/)
      expect(r.outputs.created).toBe('true')
    }
  }
)

e2e(
  'upload: a redirect with an unparsable Location is a refusal: one error, outputs, and the signed query nowhere',
  async t => {
    const { workspace, name } = await ignores('upload-bad-location')
    t.emu.addFaults({
      method: 'PUT',
      path: '/_uploads/**',
      kind: 'redirect',
      location: 'http://[unparsable'
    })
    const r = await runUpload(t, workspace, { name })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain('refused with HTTP 302 (a redirect to (not a URL), not followed)')
    expect(r.errors[0]).toContain('Nothing was patched')
    expect(t.writes().filter(w => w.method === 'PATCH')).toEqual([])
    expect(r.outputs['source-digest']).toMatch(/^sha256:/)
    expect(r.summary).toContain(r.outputs['source-digest']!)
    const tokens = signatures(t)
    expect(tokens).toHaveLength(3)
    for (const token of tokens) expect(everything(r)).not.toContain(token)
    expect(everything(r)).not.toContain('signature=')
  }
)

e2e("upload: the run's deadline bounds a PUT that never answers, retries included", async t => {
  const { workspace, name } = await ignores('upload-hang')
  t.emu.addFaults({ method: 'PUT', path: '/_uploads/**', kind: 'delay', ms: 600_000 })
  // `timeout: 15s`: the upload, every try included, ends by 15 s on the run's clock (the client's
  // deadline, 30 s later, leaves room for the look-ups around the wait); a PUT's own was 300 s.
  // 15 s: time enough on a loaded machine for the first PUT to start.
  const r = await run({
    inputs: upload(t, { name, timeout: '15s' }),
    env: { GITHUB_WORKSPACE: workspace },
    timeoutMs: 150_000
  })
  expect(r.code).toBe(1)
  expect(r.ms).toBeLessThan(120_000)
  expect(r.errors[0]).toContain('The run reached its deadline (from `timeout`)')
  expect(r.errors[0]).toContain('its answer was lost (no answer within')
  expect(r.stdout).not.toContain('was its answer')
  expect(t.writes().filter(w => w.method === 'PATCH')).toEqual([])
  expect(r.outputs['source-digest']).toMatch(/^sha256:/)
})

e2e(
  'upload: an upload URL of another scheme or with credentials is never sent to, nor asked for again',
  async t => {
    const { workspace, name } = await ignores('upload-scheme')
    // Each scheme and credentials in upload/put.test.ts; here, one of each through the bundle.
    const urls = ['file:///etc/passwd', 'https://user:pass@storage.example.com/o.tar.gz']
    for (const url of urls) {
      t.emu.clearRequests()
      t.emu.addFaults({
        method: 'POST',
        path: '/v2/deployments/*/upload-url',
        kind: 'bad-schema',
        body: { upload_url: url, object_path: 'uploads/elsewhere.tar.gz' },
        times: 1
      })
      const r = await runUpload(t, workspace, { name })
      const asked = t.emu.requests().filter(q => q.path.endsWith('/upload-url'))
      expect({ url, code: r.code, asked: asked.length }).toEqual({ url, code: 1, asked: 1 })
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toContain('The source archive was not sent: the upload URL')
      expect(r.errors[0]).not.toContain('Unexpected error')
      expect(r.errors[0]).not.toContain('pass@')
      expect(t.writes().filter(w => w.method === 'PATCH')).toEqual([])
    }
  }
)

e2e(
  'upload: files over 1 GiB unpacked (an 8 GiB sparse file, 8 MiB compressed) are refused before any request',
  async t => {
    const workspace = await copyFixture('ignores')
    execFileSync('truncate', ['-s', '8G', join(workspace, 'disk.img')])
    const runnerTemp = await mkdtemp(join(tmpdir(), 'upload-tmp-'))
    const r = await run({
      inputs: upload(t, { name: uniqueName('upload-sparse') }),
      env: { GITHUB_WORKSPACE: workspace, TMPDIR: runnerTemp }
    })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toContain(
      'The source files hold more than 1024.0 MiB unpacked, the limit of what the build unpacks'
    )
    expect(r.errors.join('\n')).toContain('Nothing was sent')
    expect(t.emu.requests()).toEqual([])
    expect(await readdir(runnerTemp)).toEqual([])
  }
)

e2e(
  'upload: an unreadable file ends the run before any request, naming it and what to do',
  async t => {
    const workspace = await copyFixture('ignores')
    await writeFile(join(workspace, 'private.py'), 'key = "x"\n', { mode: 0o000 })
    await openUp(workspace)
    const r = await run({
      inputs: upload(t, { name: uniqueName('upload-unreadable') }),
      env: { GITHUB_WORKSPACE: workspace },
      ...(RUN_AS ? { user: RUN_AS } : {})
    })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain(
      'private.py cannot be read (permission denied): make it readable by the user the job runs as, or leave it out with .dockerignore or .gitignore. Nothing was sent.'
    )
    expect(r.errors[0]).not.toContain('Unexpected error')
    expect(t.emu.requests()).toEqual([])
  }
)

e2e(
  'upload: a file swapped for a fifo while the archive is written is refused, never waited on',
  async t => {
    const workspace = await copyFixture('ignores')
    // Read first (sorted by name), long enough for the swap to come before zz.py is opened.
    const temp = watchedTemp()
    const stopSwap = await fifoRace(workspace, temp)
    const r = await run({
      inputs: upload(t, { name: uniqueName('upload-fifo') }),
      env: { GITHUB_WORKSPACE: workspace, TMPDIR: temp.dir },
      timeoutMs: 90_000
    })
    stopSwap()
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toContain('zz.py changed while it was archived')
    expect(t.emu.requests()).toEqual([])
    expect(await readdir(temp.dir)).toEqual([])
  }
)

e2e(
  'upload: SIGTERM inside one large file stops the archive at once: outputs written, the temporary file removed',
  async t => {
    const workspace = await copyFixture('ignores')
    // 900 MiB that deflate keeps small but must still read and compress, block by block.
    execFileSync('truncate', ['-s', '900M', join(workspace, 'disk.img')])
    const temp = watchedTemp()
    const r = await run({
      inputs: upload(t, { name: uniqueName('upload-sigterm') }),
      env: { GITHUB_WORKSPACE: workspace, TMPDIR: temp.dir },
      cancel: { signal: 'SIGTERM', when: temp.archiving },
      timeoutMs: 90_000
    })
    expect(r.exitAfterSignalMs).toBeDefined()
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/cancel/i)
    // The outputs of a run that was stopped: written, as far as known.
    expect(Object.keys(r.outputs)).toContain('source-digest')
    expect(t.emu.requests()).toEqual([])
    expect(await readdir(temp.dir)).toEqual([])
  }
)

e2e(
  'upload: revision-source internal_source on a codehost deployment is refused before any request',
  async t => {
    const workspace = await copyFixture('ignores')
    const r = await run({
      inputs: t.inputs({
        name: uniqueName('upload-codehost'),
        repository: 'acme/agent-server',
        ref: 'main',
        'revision-source': 'internal_source'
      }),
      env: { GITHUB_WORKSPACE: workspace }
    })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toContain(
      '`revision-source: internal_source` needs a deployment whose source is `internal_source`'
    )
    expect(r.errors.join('\n')).toContain('set `source: internal_source`')
    expect(t.emu.requests()).toEqual([])
  }
)

e2e(
  "upload: an ignore rule that leaves out the graph's module is refused before anything is sent, naming the graph and the rule",
  async t => {
    const workspace = await copyFixture('ignores')
    // The service's build would fail to import it (as the emulator's does).
    await writeFile(join(workspace, '.dockerignore'), 'agent.py\n', { flag: 'a' })
    const r = await runUpload(t, workspace, { name: uniqueName('upload-no-graph') })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain(
      '`graph-config-path`: graph "agent" of \'langgraph.json\' names ./agent.py (agent.py in the archive), which is not in the archive: agent.py is ignored by `agent.py` (.dockerignore line 4).'
    )
    expect(r.errors[0]).toContain('Nothing was sent.')
    expect(t.emu.requests()).toEqual([])
  }
)
