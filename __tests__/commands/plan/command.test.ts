// `command: plan` in-process: run() through a fake port against the emulator, on the fixture
// monorepo as a git repository with history. Which agents a change plans (the shared library's
// dependents, one graph's agent, none for a change outside them), and each reason to deploy
// without a file change: no deployment, a deployed commit the checkout lacks, a changed manifest
// entry, a promotion whose source runs another commit. Two reads per deployment, nothing written.
import { expect } from '@jest/globals'
import { rmSync } from 'node:fs'
import type { Emulator } from '../../../emulator/server.ts'
import { run } from '../../../src/run.ts'
import { emulatorTest, inRunner, readRun } from '../../builders/in-process.ts'
import { deployedAt, monorepo, type Monorepo } from '../../builders/monorepo.ts'

const STAGING = { 'support-staging': '', 'research-staging': '', 'triage-staging': '' }

/** A plan of `repo` for `environment` on `emu`, in the runner's context of a push. */
async function plan(emu: Emulator, repo: Monorepo, over: Record<string, string> = {}) {
  const inputs = {
    'api-key': emu.credentials().apiKey,
    'base-url': emu.url,
    command: 'plan',
    manifest: 'agents.yaml',
    environment: 'staging',
    ...over
  }
  return inRunner('cpd-plan-', inputs, async port => {
    port.event = { ...port.event, workspace: repo.dir }
    const r = readRun(port, await run(port))
    return { ...r, matrix: JSON.parse(r.outputs.matrix || '{}') as { include: unknown[] } }
  })
}

/** Every staging deployment built `sha`. */
const allAt = (sha: string) =>
  Object.fromEntries(Object.keys(STAGING).map(name => [name, sha])) as Record<string, string>

const writes = (emu: Emulator) => emu.requests().filter(r => r.method !== 'GET')

function withRepo(title: string, body: (emu: Emulator, repo: Monorepo) => Promise<void>) {
  emulatorTest(title, async emu => {
    const repo = monorepo()
    try {
      await body(emu, repo)
    } finally {
      repo.remove()
    }
  })
}

withRepo(
  'a change to the shared library plans the agents that depend on it, and only those',
  async (emu, repo) => {
    deployedAt(emu, allAt(repo.first))
    repo.commit({ 'libs/common/common/tone.py': 'TONE = "Be brief."\n' })
    emu.clearRequests()
    const r = await plan(emu, repo)
    expect(r.code).toBe(0)
    expect(r.outputs.agents).toBe('["support","research"]')
    expect(r.matrix).toEqual({
      include: [
        { agent: 'support', environment: 'staging', name: 'support-staging' },
        { agent: 'research', environment: 'staging', name: 'research-staging' }
      ]
    })
    expect(r.log).toContain('support (support-staging): deploy: a file changed since')
    expect(r.log).toContain('libs/common/common/tone.py')
    expect(r.log).toMatch(
      /triage \(triage-staging\): skip: nothing it depends on changed since [0-9a-f]{12}/
    )
    expect(r.summary).toContain('| Agent | Deployment | Deployed commit | Verdict | Why |')
    expect(r.summary).toContain(
      `| \`triage\` | \`triage-staging\` | \`${repo.first.slice(0, 12)}\` | ⏭️ skip |`
    )
    // Two reads per deployment: its lookup, its active revision; nothing written.
    expect(emu.requests().length).toBe(6)
    expect(writes(emu)).toEqual([])
  }
)

withRepo(
  'a change to one graph plans that agent; so does a change to its env file',
  async (emu, repo) => {
    deployedAt(emu, allAt(repo.first))
    repo.commit({ 'agents/triage/src/graph.ts': 'export const graph = undefined\n' })
    const one = await plan(emu, repo)
    expect(one.outputs.agents).toBe('["triage"]')
    const base = repo.commit({ 'agents/research/research.env': 'RESEARCH_MAX_SOURCES=9\n' })
    deployedAt(emu, { ...allAt(base), 'research-staging': repo.first })
    const env = await plan(emu, repo)
    expect(env.outputs.agents).toBe('["research"]')
    expect(env.log).toContain('agents/research/research.env')
  }
)

withRepo(
  'a change outside every agent plans none; a path of `paths` plans its agent',
  async (emu, repo) => {
    deployedAt(emu, allAt(repo.first))
    const outside = repo.commit({ 'README.md': '# Agents\n', 'docs/notes.md': 'notes\n' })
    const none = await plan(emu, repo)
    expect(none.code).toBe(0)
    expect(none.outputs.agents).toBe('[]')
    expect(none.outputs.matrix).toBe('{"include":[]}')
    expect(none.summary).toContain('0 of 3 to deploy')
    repo.commit({ 'shared/prompts/support.md': 'Be kind.\n' })
    deployedAt(emu, allAt(outside))
    const prompt = await plan(emu, repo)
    expect(prompt.outputs.agents).toBe('["support"]')
  }
)

withRepo(
  'no deployment, a deployed commit the checkout lacks, a changed manifest entry: each a deploy, with why',
  async (emu, repo) => {
    const elsewhere = 'f'.repeat(40)
    const manifest = repo.git('show', 'HEAD:agents.yaml')
    repo.commit({
      'agents.yaml': manifest.replace('triage-staging }', 'triage-staging, size: medium }')
    })
    deployedAt(emu, {
      'support-staging': null,
      'research-staging': elsewhere,
      'triage-staging': repo.first
    })
    const r = await plan(emu, repo)
    expect(r.outputs.agents).toBe('["support","research","triage"]')
    expect(r.log).toContain(
      'support (support-staging): deploy: no deployment is named "support-staging": a deploy creates it.'
    )
    expect(r.log).toContain(
      `research (research-staging): deploy: unknown: commit ${elsewhere.slice(0, 12)} is not in this checkout.`
    )
    expect(r.log).toContain(
      `triage (triage-staging): deploy: its manifest entry changed since ${repo.first.slice(0, 12)}.`
    )
    expect(writes(emu)).toEqual([])
  }
)

withRepo(
  "another agent's entry or a comment in the manifest is no change of this one's",
  async (emu, repo) => {
    const manifest = repo.git('show', 'HEAD:agents.yaml')
    repo.commit({
      'agents.yaml': `# a comment\n${manifest.replace('research-staging }', 'research-staging, size: large }')}`
    })
    deployedAt(emu, allAt(repo.first))
    const r = await plan(emu, repo)
    expect(r.outputs.agents).toBe('["research"]')
    expect(r.log).toContain('research (research-staging): deploy: its manifest entry changed since')
  }
)

withRepo(
  'a shallow checkout that lacks the deployed commit says so, and plans a deploy',
  async (emu, repo) => {
    const next = repo.commit({ 'README.md': 'moved on\n' })
    deployedAt(emu, allAt(repo.first))
    const shallow = `${repo.dir}-shallow`
    repo.git('clone', '-q', '--depth', '1', `file://${repo.dir}`, shallow)
    try {
      const r = await plan(emu, { ...repo, dir: shallow })
      expect(r.outputs.agents).toBe('["support","research","triage"]')
      expect(r.log).toContain(
        `support (support-staging): deploy: unknown: commit ${repo.first.slice(0, 12)} is not in this checkout (a shallow one: check out with fetch-depth: 0).`
      )
      expect(r.log).toContain('The checkout is shallow')
      expect(next).not.toBe(repo.first)
    } finally {
      rmSync(shallow, { recursive: true, force: true })
    }
  }
)

withRepo(
  'a promotion deploys when its source runs another commit, and skips when the same',
  async (emu, repo) => {
    const next = repo.commit({ 'libs/common/common/tone.py': 'TONE = "Be brief."\n' })
    deployedAt(emu, {
      ...allAt(next),
      'support-prod': repo.first,
      'research-prod': next
    })
    const r = await plan(emu, repo, { environment: 'production' })
    expect(r.outputs.agents).toBe('["support"]')
    expect(r.log).toContain(
      `support (support-prod): deploy: its source "support-staging" runs commit ${next}, this runs commit ${repo.first}.`
    )
    expect(r.log).toContain(
      'research (research-prod): skip: it runs what its source "research-staging" runs'
    )
    // Two deployments read per agent, two reads each.
    expect(emu.requests().filter(q => q.method === 'GET').length).toBeLessThanOrEqual(8)
  }
)

withRepo(
  'the manifest checked before any request: every problem with its line',
  async (emu, repo) => {
    repo.commit({
      'agents.yaml': [
        'agents:',
        '  support:',
        '    config: agents/support/langgraph.json',
        '    environments:',
        '      staging: { name: support-staging, size: huge, api-key: nope }',
        '  ghost:',
        '    config: agents/ghost/langgraph.json',
        '    environments:',
        '      staging: { deployment-type: serverless }',
        ''
      ].join('\n')
    })
    emu.clearRequests()
    const r = await plan(emu, repo)
    expect(r.code).toBe(2)
    const text = r.errors.join('\n')
    expect(text).toContain(
      'agents.yaml line 5 (agents.support.environments.staging.size): must be one of `small`, `medium`, `large`'
    )
    expect(text).toContain(
      'agents.yaml line 5 (agents.support.environments.staging.api-key): `api-key` is not allowed in a manifest'
    )
    expect(text).toContain(
      'agents.yaml line 9 (agents.ghost.environments.staging): needs `name` (or `deployment-id`)'
    )
    expect(emu.requests()).toEqual([])
  }
)
