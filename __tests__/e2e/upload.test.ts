// Upload deploys (`source: internal_source`) end to end through the bundle on Node 24: the
// workspace (GITHUB_WORKSPACE) archived, an upload URL asked for, the archive PUT there, the
// PATCH naming the stored object, and the revision followed as always. What the emulator unpacked
// is compared with the member list the LangGraph CLI's rules give (__tests__/upload/).
import { expect } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmod, link, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { copyFixture } from '../upload/helpers.ts'
import { e2e, runAction as run, uniqueName, type E2E } from './harness.ts'

/** What git cannot hold: links, a fifo, `.git` folders and a submodule's `.git` file. */
async function addUnkeepables(dir: string) {
  await symlink('agent.py', join(dir, 'link-to-agent.py'))
  await symlink('nested', join(dir, 'linked-dir'))
  await link(join(dir, 'agent.py'), join(dir, 'hard.py'))
  await mkdir(join(dir, 'sub', '.git'), { recursive: true })
  await writeFile(join(dir, 'sub', '.git', 'config'), '')
  await writeFile(join(dir, 'nested', '.git'), 'gitdir: ../.git/modules/nested\n')
  execFileSync('mkfifo', [join(dir, 'pipe')])
  await chmod(join(dir, 'run.sh'), 0o755)
}

// fixtures/upload/ignores after addUnkeepables, by the LangGraph CLI's rules (as
// __tests__/upload/archive.test.ts derives them): links, the fifo and `.git/` folders left out.
const IGNORES_MEMBERS = [
  '.dockerignore',
  '.env',
  '.gitignore',
  'agent.py',
  'keep.log',
  'langgraph.json',
  'lib/venv',
  'nested/.git',
  'nested/.gitignore',
  'nested/mod.py',
  'run.sh',
  'sub/anchored.txt',
  'tests/test_agent.py',
  'venv.txt'
]
const MONOREPO_MEMBERS = [
  'apps/agent/.gitignore',
  'apps/agent/agent.py',
  'apps/agent/langgraph.json',
  'libs/shared/.dockerignore',
  'libs/shared/pyproject.toml',
  'libs/shared/scratch.tmp',
  'libs/shared/shared/__init__.py'
]

/** The inputs of an upload deploy of `workspace`: no integration, repository or ref. */
function upload(t: E2E, over: Record<string, string> = {}): Record<string, string> {
  const { 'integration-id': _none, ...rest } = t.inputs({ source: 'internal_source', ...over })
  return rest
}

const deployments = (t: E2E, name: string) => t.named(name)
const revisionsOf = (t: E2E, name: string) => deployments(t, name)[0]?.revisions ?? []

e2e(
  'upload: creates by upload; the emulator builds exactly the files the rules select',
  async t => {
    const workspace = await copyFixture('ignores')
    await addUnkeepables(workspace)
    const name = uniqueName('upload')
    const r = await run({ inputs: upload(t, { name }), env: { GITHUB_WORKSPACE: workspace } })
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
    expect(r.stdout).toContain(`14 files, `)
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
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: repo
    })
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
    const workspace = await copyFixture('ignores')
    const name = uniqueName('upload-dry')
    const r = await run({
      inputs: upload(t, { name, 'dry-run': 'true' }),
      env: { GITHUB_WORKSPACE: workspace }
    })
    expect(r.code).toBe(0)
    expect(t.writes()).toEqual([])
    expect(t.emu.state().uploads).toEqual([])
    expect(r.stdout).toContain('Create deployment')
    expect(r.stdout).toMatch(/source: 13 files, \d+ B, sha256:[0-9a-f]{64}/)
    expect(r.summary).toContain(r.outputs['source-digest']!)
  }
)

e2e(
  'upload: a refused PUT is tried again with a new URL; the PATCH names only the stored object',
  async t => {
    const workspace = await copyFixture('ignores')
    const name = uniqueName('upload-refused')
    t.emu.addFaults([
      { method: 'PUT', path: '/_uploads/**', kind: 'status', status: 403, times: 1 },
      { method: 'PUT', path: '/_uploads/**', kind: 'lost-response', times: 1 }
    ])
    const r = await run({ inputs: upload(t, { name }), env: { GITHUB_WORKSPACE: workspace } })
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
    const workspace = await copyFixture('ignores')
    const name = uniqueName('upload-down')
    t.emu.addFaults({ method: 'PUT', path: '/_uploads/**', kind: 'status', status: 503 })
    const r = await run({ inputs: upload(t, { name }), env: { GITHUB_WORKSPACE: workspace } })
    expect(r.code).toBe(1)
    expect(t.writes().filter(w => w.method === 'PATCH')).toEqual([])
    expect(t.emu.state().uploads).toHaveLength(3)
    const error = r.errors.join('\n')
    expect(error).toContain('Nothing was patched')
    expect(error).toContain('was created by this run and has no revision with this source')
    expect(r.outputs.created).toBe('true')
  }
)

e2e(
  'upload: a missing config, a config outside the workspace and an archive over 200 MiB are refused before any request',
  async t => {
    const workspace = await copyFixture('ignores')
    const name = uniqueName('upload-bad')
    const missing = await run({
      inputs: upload(t, { name, 'graph-config-path': 'agent/langgraph.json' }),
      env: { GITHUB_WORKSPACE: workspace }
    })
    expect(missing.code).toBe(1)
    expect(missing.errors.join('\n')).toContain(
      "`graph-config-path`: 'agent/langgraph.json' does not exist in the workspace"
    )
    expect(t.emu.requests()).toEqual([])
    const outside = await run({
      inputs: upload(t, { name, 'graph-config-path': '../monorepo/apps/agent/langgraph.json' }),
      env: { GITHUB_WORKSPACE: workspace }
    })
    expect(outside.code).toBe(1)
    expect(outside.errors.join('\n')).toContain('`graph-config-path` must stay inside')
    expect(t.emu.requests()).toEqual([])

    // 201 MiB that deflate cannot shrink: the build stops as it passes 200 MiB.
    const big = join(workspace, 'weights.bin')
    for (let i = 0; i < 201 / 16 + 1; i++)
      await writeFile(big, randomBytes(16 * 1024 * 1024), { flag: 'a' })
    // The runner's temporary directory: the archive begun there is removed when it is refused.
    const runnerTemp = await mkdtemp(join(tmpdir(), 'upload-tmp-'))
    const large = await run({
      inputs: upload(t, { name }),
      env: { GITHUB_WORKSPACE: workspace, TMPDIR: runnerTemp },
      timeoutMs: 180_000
    })
    expect(large.code).toBe(1)
    expect(large.errors.join('\n')).toContain('larger than 200.0 MiB, the upload limit')
    expect(t.emu.requests()).toEqual([])
    expect(await readdir(runnerTemp)).toEqual([])
    await rm(big)
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
    const workspace = await copyFixture('ignores')
    const name = uniqueName('upload-lost-patch')
    t.emu.addFaults({ method: 'PATCH', path: '/v2/deployments/*', kind: 'lost-response', times: 1 })
    const r = await run({ inputs: upload(t, { name }), env: { GITHUB_WORKSPACE: workspace } })
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
