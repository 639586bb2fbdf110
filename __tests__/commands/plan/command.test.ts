// `command: plan` in-process through the CLI's door (its flags, stdout, stderr) against the emulator, on the fixture
// monorepo as a git repository with history. Which agents a change plans (the shared library's
// dependents, one graph's agent, none for a change outside them), and each reason to deploy
// without a file change: no deployment, a deployed commit the checkout lacks, a changed manifest
// entry, a promotion whose source runs another commit. Two reads per deployment, nothing written.
import { expect } from '@jest/globals'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { cli, type CliIo } from '../../../src/cli/main.ts'
import { parseCommandLine } from '../../../src/cli/flags.ts'
import type { Emulator } from '../../../emulator/server.ts'
import { run } from '../../../src/run.ts'
import { emulatorTest } from '../../builders/in-process.ts'
import { deployedAt, monorepo, type Monorepo } from '../../../scripts/monorepo.ts'

const STAGING = { 'support-staging': '', 'research-staging': '', 'triage-staging': '' }

/** A plan of `repo` through the CLI's door (the action's: e2e/action.test.ts, command: plan), `--output json`. */
async function plan(emu: Emulator, repo: Monorepo, over: Record<string, string> = {}) {
  const flags = Object.entries({ environment: 'staging', ...over }).flatMap(([k, v]) => [
    `--${k}`,
    v
  ])
  const r = await cliRun(emu, repo.dir, [
    'plan',
    '--manifest',
    'agents.yaml',
    ...flags,
    '--output',
    'json'
  ])
  const outputs = (r.code === 0 ? JSON.parse(r.stdout) : {}) as Record<string, string>
  return { code: r.code, outputs, log: r.stderr }
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
    expect(JSON.parse(r.outputs.matrix!)).toEqual({
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
    // `agent`: that agent alone is read and judged.
    const alone = await plan(emu, repo, { agent: 'support' })
    expect(alone.outputs.agents).toBe('[]')
    expect(alone.log).toContain('Done: 0 of 1 agents to deploy to staging.')
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
    expect(none.log).toContain('Done: 0 of 3 agents to deploy to staging.')
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
    const text = r.log
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

/** The CLI's door in-process, in the checkout `cwd`, as on GitLab: its exit, stdout and stderr. */
async function cliRun(emu: Emulator, cwd: string, argv: string[]) {
  const out = { stdout: '', stderr: '' }
  const io: CliIo = {
    stdout: { write: (t: string) => (out.stdout += t) },
    stderr: { write: (t: string) => (out.stderr += t), isTTY: false },
    now: () => 0,
    cwd,
    onSignal: () => () => undefined,
    exit: () => undefined
  }
  const env = {
    CONTROL_PLANE_API_KEY: emu.credentials().apiKey,
    CONTROL_PLANE_BASE_URL: emu.url,
    GITLAB_CI: 'true',
    CI_COMMIT_BRANCH: 'main'
  }
  const code = await cli(argv, env, io, run)
  return { code, ...out }
}

withRepo(
  'the CLI: plan prints the same and writes a GitLab child pipeline, one deploy job per agent',
  async (emu, repo) => {
    deployedAt(emu, allAt(repo.first))
    repo.commit({ 'libs/common/common/tone.py': 'TONE = "Be brief."\n' })
    const file = join(repo.dir, 'deploys.yml')
    const argv = ['plan', '--manifest', 'agents.yaml', '--environment', 'staging']
    const r = await cliRun(emu, repo.dir, [...argv, '--child-pipeline', file])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('agents=["support","research"]')
    expect(r.stderr).toContain('support (support-staging): deploy: a file changed since')
    const pipeline = parseYaml(readFileSync(file, 'utf8')) as Record<
      string,
      { script?: string[]; resource_group?: string }
    >
    const jobs = Object.entries(pipeline).filter(([, j]) => j.script)
    expect(jobs.map(([name, j]) => [name, j.resource_group, j.script])).toEqual([
      [
        'deploy support staging',
        'support-staging',
        [
          'npx --yes "$DEPLOY_CLI" deploy --manifest agents.yaml --agent support --environment staging'
        ]
      ],
      [
        'deploy research staging',
        'research-staging',
        [
          'npx --yes "$DEPLOY_CLI" deploy --manifest agents.yaml --agent research --environment staging'
        ]
      ]
    ])
    // Each job's line is one the CLI takes, the entry's settings with it.
    const line = parseCommandLine(
      ['deploy', '--manifest', 'agents.yaml', '--agent', 'support', '--environment', 'staging'],
      {}
    )
    expect(line.kind).toBe('run')

    // Nothing to deploy: one job that says so (GitLab refuses an empty pipeline).
    deployedAt(emu, allAt(repo.git('rev-parse', 'HEAD')))
    const none = await cliRun(emu, repo.dir, [...argv, '--child-pipeline', file])
    expect(none.code).toBe(0)
    const empty = parseYaml(readFileSync(file, 'utf8')) as Record<string, { script?: string[] }>
    expect(Object.entries(empty).filter(([, j]) => j.script)).toEqual([
      [
        'nothing to deploy to staging',
        { script: ["echo 'control-plane-deploy plan: no agent needs a deploy to staging'"] }
      ]
    ])
    expect(
      await cliRun(emu, repo.dir, ['deploy', '--child-pipeline', file]).then(x => x.code)
    ).toBe(2)
  }
)

withRepo(
  'the CLI: deploy --manifest --agent --environment deploys that entry, no GitHub token needed',
  async (emu, repo) => {
    deployedAt(emu, {})
    const r = await cliRun(emu, repo.dir, [
      'deploy',
      '--manifest',
      'agents.yaml',
      '--agent',
      'triage',
      '--environment',
      'staging',
      '--integration-id',
      emu.credentials().integrationId!,
      '--repository',
      'acme/agent-server',
      '--no-wait'
    ])
    expect([r.code, r.stderr.split('\n').filter(l => /error/i.test(l))]).toEqual([0, []])
    const created = emu.requests().find(q => q.method === 'POST')!.body as {
      name: string
      source_revision_config: { graph_config_path: string }
    }
    expect([created.name, created.source_revision_config.graph_config_path]).toEqual([
      'triage-staging',
      'agents/triage/langgraph.json'
    ])
  }
)

withRepo(
  'the CLI: check and delete of an entry take its settings (a delete: its name alone)',
  async (emu, repo) => {
    deployedAt(emu, { 'triage-staging': repo.first, 'support-prod': repo.first })
    const entry = ['--manifest', 'agents.yaml', '--agent', 'triage', '--environment', 'staging']
    const c = emu.credentials()
    const check = await cliRun(emu, repo.dir, [
      'check',
      ...entry,
      '--integration-id',
      c.integrationId!,
      '--repository',
      'acme/agent-server'
    ])
    // Its config is the entry's, where the deployment has another: drift, the setting named.
    expect(check.code).toBe(3)
    expect(check.stderr).toContain(
      'graph_config_path: langgraph.json -> agents/triage/langgraph.json'
    )
    const gone = await cliRun(emu, repo.dir, [
      'delete',
      '--manifest',
      'agents.yaml',
      '--agent',
      'support',
      '--environment',
      'production',
      '--dry-run'
    ])
    expect(gone.code).toBe(0)
    expect(gone.stderr).toContain('support-prod')
    expect(emu.requests().filter(q => q.method !== 'GET')).toEqual([])
  }
)

withRepo(
  "a setting the manifest made that its input's check refuses says where it is",
  async (emu, repo) => {
    const manifest = repo.git('show', 'HEAD:agents.yaml')
    repo.commit({
      'agents.yaml': manifest.replace('triage-staging }', 'triage-staging, timeout: soon }')
    })
    const r = await cliRun(emu, repo.dir, [
      'deploy',
      '--manifest',
      'agents.yaml',
      '--agent',
      'triage',
      '--environment',
      'staging'
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /- --timeout: .*\(set in agents\.yaml line \d+ \(agents\.triage\.environments\.staging\.timeout\)\)/
    )
    expect(emu.requests()).toEqual([])
  }
)
