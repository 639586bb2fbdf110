import { expect, describe } from '@jest/globals'
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
import { e2e, runAction as run, uniqueName, uploadInputs, type E2E } from './harness.ts'

// Upload deploys (`source: internal_source`) end to end through the bundle on Node 24: the
// workspace (GITHUB_WORKSPACE) archived, an upload URL asked for, the archive PUT there, the
// PATCH naming the stored object, and the revision followed as always. What the emulator unpacked
// is compared with the member list the LangGraph CLI's rules give (__tests__/upload/).

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

// A dry run's archive and plan: commands/deploy/command.upload.test.ts (in process).
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

// ---------------------------------------------------------------------------------------------
// What only the bundle shows: the runner's temporary folder (TMPDIR), the user the job runs as,
// signals. The flow's rules of the transport (what the upload host answers, the run's deadline,
// the refusals before anything is sent) run in process: commands/deploy/command.upload.test.ts.

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

// The upload's file set end to end through the bundle: what only the bundle shows, the runner's
// own files (GITHUB_OUTPUT in the workspace) never archived. The rules of the file set (the trees
// of fixtures/upload/rules, what the log says of each file left out, the dry run's listing) run
// in process: __tests__/commands/deploy/command.upload.test.ts.
describe('file-set', () => {
  /** An upload deploy of `workspace` (no integration, repository or ref) and what it built. */
  async function uploadRun(t: E2E, workspace: string, env: Record<string, string>) {
    const name = uniqueName('upload-set')
    const { 'integration-id': _none, ...inputs } = t.inputs({
      source: 'internal_source',
      name
    })
    const r = await run({ inputs, env: { GITHUB_WORKSPACE: workspace, ...env } })
    return Object.assign(r, { built: () => built(t, name) })
  }

  /** The files the emulator unpacked from the upload of deployment `name`, and what it built. */
  function built(t: E2E, name: string) {
    const last = t.named(name)[0]?.revisions.at(-1)
    return { files: last?.source_files, graphs: last?.graphs, status: last?.status }
  }

  e2e('upload set: the runner’s output file in the workspace is never archived', async t => {
    const workspace = await copyFixture('ignores')
    const out = join(workspace, 'step-outputs.txt')
    await writeFile(out, '')
    const first = await uploadRun(t, workspace, { GITHUB_OUTPUT: out })
    expect(first.stdout).toContain('Left out: step-outputs.txt: written by this run')
    expect(first.built().files).not.toContain('step-outputs.txt')
  })
})
