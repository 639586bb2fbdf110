// `command: plan` and a deploy of one agent's environment through the bundle, as the runner runs
// it, on the fixture monorepo as a git repository with history (the workspace) against the
// emulator: the shared library's dependents planned, one graph's agent, none for a change outside
// every agent; a missing deployment, a deployed commit the checkout lacks and a changed manifest
// entry each a deploy with its reason; then `manifest` + `agent` + `environment` deploys that
// entry. The same through the CLI's door: commands/plan/command.test.ts.
import { expect } from '@jest/globals'
import { deployedAt, monorepo, type Monorepo } from '../../scripts/monorepo.ts'
import { e2e, runAction, type E2E } from './harness.ts'

const STAGING = ['support-staging', 'research-staging', 'triage-staging']
const allAt = (sha: string) => Object.fromEntries(STAGING.map(n => [n, sha]))

/** The bundle's plan of staging, in the monorepo's checkout. */
async function plan(t: E2E, repo: Monorepo) {
  const r = await runAction({
    inputs: {
      'api-key': t.key,
      'base-url': t.emu.url,
      command: 'plan',
      manifest: 'agents.yaml',
      environment: 'staging'
    },
    env: { GITHUB_WORKSPACE: repo.dir }
  })
  expect([r.code, r.errors]).toEqual([0, []])
  return r
}

e2e('plan: which agents a change plans, compared with each deployed commit', async t => {
  const repo = monorepo()
  try {
    deployedAt(t.emu, allAt(repo.first))
    const shared = repo.commit({ 'libs/common/common/tone.py': 'TONE = "Be brief."\n' })
    const lib = await plan(t, repo)
    expect(lib.outputs.agents).toBe('["support","research"]')
    expect(JSON.parse(lib.outputs.matrix!)).toEqual({
      include: [
        { agent: 'support', environment: 'staging', name: 'support-staging' },
        { agent: 'research', environment: 'staging', name: 'research-staging' }
      ]
    })
    expect(lib.summary).toContain('| Agent | Deployment | Deployed commit | Verdict | Why |')
    expect(lib.summary).toContain(
      `| \`triage\` | \`triage-staging\` | \`${repo.first.slice(0, 12)}\` | ⏭️ skip |`
    )
    expect(lib.stdout).toContain(
      'triage (triage-staging): skip: nothing it depends on changed since'
    )

    deployedAt(t.emu, allAt(shared))
    const graph = repo.commit({ 'agents/triage/src/graph.ts': 'export const graph = null\n' })
    expect((await plan(t, repo)).outputs.agents).toBe('["triage"]')

    deployedAt(t.emu, allAt(graph))
    repo.commit({ 'README.md': '# Agents, all of them\n' })
    t.emu.clearRequests()
    const outside = await plan(t, repo)
    expect(outside.outputs.agents).toBe('[]')
    expect(outside.outputs.matrix).toBe('{"include":[]}')
    expect(t.emu.requests().length).toBe(6)
    expect(t.writes()).toEqual([])
  } finally {
    repo.remove()
  }
})

e2e(
  'plan: no deployment, an unknown deployed commit, a changed manifest entry: each a deploy, with why; then the entry deploys',
  async t => {
    const repo = monorepo()
    try {
      const elsewhere = 'e'.repeat(40)
      const manifest = repo.git('show', 'HEAD:agents.yaml')
      repo.commit({
        'agents.yaml': manifest.replace('triage-staging }', 'triage-staging, size: medium }')
      })
      deployedAt(t.emu, {
        'support-staging': null,
        'research-staging': elsewhere,
        'triage-staging': repo.first
      })
      const r = await plan(t, repo)
      expect(r.outputs.agents).toBe('["support","research","triage"]')
      expect(r.stdout).toContain(
        'support (support-staging): deploy: no deployment is named "support-staging": a deploy creates it.'
      )
      expect(r.stdout).toContain(
        `research (research-staging): deploy: unknown: commit ${elsewhere.slice(0, 12)} is not in this checkout.`
      )
      expect(r.stdout).toContain(
        `triage (triage-staging): deploy: its manifest entry changed since ${repo.first.slice(0, 12)}.`
      )
      expect(t.writes()).toEqual([])

      // The matrix's entry, deployed: the manifest's settings, config as graph-config-path.
      const deploy = await runAction({
        inputs: t.inputs({
          'integration-id': t.integration,
          manifest: 'agents.yaml',
          agent: 'support',
          environment: 'staging',
          'github-token': ''
        }),
        env: { GITHUB_WORKSPACE: repo.dir }
      })
      expect([deploy.code, deploy.errors]).toEqual([0, []])
      const [created] = t.named('support-staging')
      expect(created).toBeDefined()
      const body = t.writes().find(w => w.method === 'POST')!.body as {
        source_revision_config: { graph_config_path: string }
        source_config: { deployment_type: string }
      }
      expect(body.source_revision_config.graph_config_path).toBe('agents/support/langgraph.json')
      expect(body.source_config.deployment_type).toBe('serverless')
    } finally {
      repo.remove()
    }
  }
)

e2e(
  'a setting both in the manifest and as an input, and a manifest problem, refused before any request',
  async t => {
    const repo = monorepo()
    try {
      const both = await runAction({
        inputs: t.inputs({
          manifest: 'agents.yaml',
          agent: 'support',
          environment: 'staging',
          name: 'mine'
        }),
        env: { GITHUB_WORKSPACE: repo.dir }
      })
      expect(both.code).toBe(1)
      expect(both.errors.join('\n')).toMatch(
        /`name` is set both as an input and in agents\.yaml line \d+ \(agents\.support\.environments\.staging\.name\)/
      )
      expect(t.emu.requests()).toEqual([])
    } finally {
      repo.remove()
    }
  }
)
