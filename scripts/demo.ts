// `npm run demo`: the main job on the local emulator. Starts the control plane emulator with its
// demo fixture, then runs the committed bundle exactly as the runner would (clean environment,
// INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, a push event): the first run
// creates the deployment (its build takes 35 s, so the wait says how long it has waited), the second takes the update path behind the health gate (the emulator
// serves each deployment's agent server: the previous revision answers /info first, as while it
// drains, then the new one; its graph is listed and a smoke case runs), the third pushes a commit whose build fails and, with
// `on-failure: rollback`, puts the previous revision back (that run exits 1), and the fourth's
// revision is DEPLOYED but its server fails the health check, so it is rolled back too. The fifth
// and sixth gate the revision on a LangSmith dataset (the emulator's, its judge a rule): the fifth
// passes and records its experiment; the sixth's agent refuses every question, fails its
// evaluation and is rolled back.
// Then the same deploy through the other door: the CLI, as from a terminal or another CI; then
// a deploy by upload (`source: internal_source`) of a small LangGraph project in fixtures/; last,
// a promotion of the deployment to a production one, which must build the very commit it runs.
// The code host is a git checkout made at run time: the emulator resolves main there (`--repo`),
// so every build reports the commit that was pushed. Last, the CLI plans a monorepo of three
// agents (fixtures/monorepo): which of them a change to their shared library needs deployed.
import { fileURLToPath } from 'node:url'
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, type Dirent } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { LANGSMITH_PREFIX } from '../emulator/routes/langsmith.ts'
import { startEmulator } from '../emulator/server.ts'
import { DEFAULT_STAGE_DURATIONS_MS } from '../emulator/state/lifecycle.ts'
import { printStep, runCli, runStep } from './demo-run.ts'
import { parse as parseYaml } from 'yaml'
import { commitFixtureRepo } from './fixture-repo.ts'
import { deployedAt, monorepo } from './monorepo.ts'
import { PUSH_MAIN } from './runner-env.ts'

/** The checkout: the graph config and one smoke case (the demo's server echoes the input). */
const workspace = mkdtempSync(join(tmpdir(), 'cpd-demo-ws-'))
writeFileSync(join(workspace, 'langgraph.json'), '{"graphs": {"agent": "./agent.py:graph"}}\n')
writeFileSync(
  join(workspace, 'smoke.yaml'),
  '- name: says hello\n  graph: agent\n  input: {messages: [{role: user, content: hello}]}\n  expect: {contains: hello}\n'
)
writeFileSync(join(workspace, 'agent.py'), 'graph = None  # the emulator serves an echo\n')
// The evaluation gate: the answer checked here, the dataset's judge (on LangSmith) waited for.
writeFileSync(
  join(workspace, 'evaluate.yaml'),
  [
    'dataset: support',
    'concurrency: 2',
    'evaluators:',
    '  - { key: answers, type: contains, path: "messages[-1].content", reference: "messages[-1].content" }',
    '  - { key: helpful, type: langsmith }',
    'thresholds:',
    '  answers: { pass-rate: 1 }',
    '  helpful: { mean: 0.8 }',
    ''
  ].join('\n')
)
// Its main is the commit every push of the demo pushes; the emulator's code host resolves main
// in it, as GitHub's integration would in the repository.
const sha = commitFixtureRepo(workspace)

const emulator = await startEmulator({ port: 0, repoDir: workspace })
const { apiKey, tenantId, integrationId } = emulator.credentials()
console.log(`Emulator: ${emulator.url} (tenant ${tenantId}, integration ${integrationId})`)
console.log(`Code host: main of acme/agent-server is ${sha} (a checkout in ${workspace})`)
// A LangSmith dataset of three questions; its evaluator "helpful" stands for an LLM-as-judge:
// 1 when the answer carries the question's reference, else 0.
const questions = ['What are your opening hours?', 'Can I return a gift?', 'Do you ship abroad?']
emulator.langsmith.seed({
  datasets: [
    {
      name: 'support',
      examples: questions.map(q => {
        const messages = [{ role: 'user', content: q }]
        return { inputs: { messages }, outputs: { messages } }
      }),
      evaluators: [
        {
          key: 'helpful',
          type: 'contains',
          path: 'messages[-1].content',
          reference: 'messages[-1].content',
          delayMs: 3000
        }
      ]
    }
  ]
})
console.log(
  `LangSmith: dataset "support" (${questions.length} examples) at ${emulator.url}${LANGSMITH_PREFIX}\n`
)

const inputs = {
  'api-key': apiKey,
  'base-url': emulator.url,
  'tenant-id': tenantId,
  'integration-id': integrationId ?? '',
  name: 'agent-server-demo',
  secrets: 'OPENAI_API_KEY=sk-demo-0000000000000000',
  'poll-interval': '5s'
}
const push = {
  ...PUSH_MAIN,
  sha,
  payload: { ref: PUSH_MAIN.ref, after: sha, repository: { full_name: 'acme/agent-server' } }
}

// The third push misspells a dependency: pip's own lines follow the emulator's "Installing
// dependencies" step, and the last one is the error the build failed with.
const BROKEN_BUILD = [
  'Obtaining file:///deps/agent-server',
  'Collecting langgraph>=0.4 (from agent-server==0.1.0)',
  'Collecting langchain-opneai>=0.3 (from agent-server==0.1.0)',
  {
    level: 'ERROR' as const,
    message:
      'ERROR: Could not find a version that satisfies the requirement langchain-opneai>=0.3 (from agent-server) (from versions: none)'
  },
  'ERROR: No matching distribution found for langchain-opneai>=0.3'
]

/** The agent server is asked after DEPLOYED: 2xx for 10 s (30 s by default). */
const HEALTH_GATE = { 'health-check': 'true', 'health-check-window': '10s' }

/** The evaluation gate on the emulator's LangSmith API (the control plane's key is LangSmith's). */
const EVALUATE = {
  evaluate: 'evaluate.yaml',
  'langsmith-api-url': `${emulator.url}${LANGSMITH_PREFIX}`
}

interface Run {
  title: string
  expect: number
  extra: Record<string, string>
  before?: () => void
  env?: Record<string, string>
}

const runs: Run[] = [
  {
    title: 'Run 1: push to main, the deployment does not exist yet; its build takes 35 s',
    expect: 0,
    extra: {},
    // A build long enough for the wait's progress line ("Still BUILDING after 30s").
    before: () => void emulator.configure({ stageDurationsMs: { BUILDING: 35_000 } })
  },
  {
    title:
      'Run 2: the next push, the same deployment is updated; its server is health-checked, the old revision answers /info at first, then the new one; a smoke case runs',
    expect: 0,
    extra: { ...HEALTH_GATE, 'smoke-test': 'smoke.yaml' },
    // The previous revision answers the first /info, as while it drains; builds are quick again.
    before: () => {
      emulator.configure({ stageDurationsMs: { BUILDING: DEFAULT_STAGE_DURATIONS_MS.BUILDING } })
      emulator.agents.scriptApp('*', { previousFirst: 1 })
    },
    env: { GITHUB_WORKSPACE: workspace }
  },
  {
    title: 'Run 3: a push whose build fails, with on-failure: rollback',
    expect: 1,
    extra: { 'on-failure': 'rollback' },
    before: () => void emulator.script({ outcome: 'BUILD_FAILED', logLines: BROKEN_BUILD })
  },
  {
    title: 'Run 4: DEPLOYED, but the server fails its health check, with on-failure: rollback',
    expect: 1,
    extra: { ...HEALTH_GATE, 'on-failure': 'rollback' },
    // It answers once, then its graph no longer loads.
    before: () =>
      void emulator.agents.script('*', {
        sequence: ['healthy'],
        health: 'failing',
        status: 500,
        body: 'graph "agent" failed to load: KeyError: OPENAI_API_BASE'
      })
  },
  {
    title:
      'Run 5: a push with an evaluation gate: the dataset "support" runs on the new revision, its experiment recorded on LangSmith',
    expect: 0,
    extra: EVALUATE,
    // Its server is healthy again, and echoes each question (which the dataset accepts).
    before: () => {
      emulator.agents.script('*', {})
      emulator.agents.scriptApp('*', {})
    },
    env: { GITHUB_WORKSPACE: workspace }
  },
  {
    title:
      'Run 6: a push whose agent refuses every question: DEPLOYED and healthy, but it fails its evaluation, with on-failure: rollback',
    expect: 1,
    extra: { ...EVALUATE, 'on-failure': 'rollback' },
    before: () => {
      const refusal = { messages: [{ role: 'assistant', content: 'I cannot help with that.' }] }
      emulator.agents.scriptApp('*', { runs: { outputs: questions.map(() => refusal) } })
    },
    env: { GITHUB_WORKSPACE: workspace }
  }
]

/**
 * Run 10: the fixture monorepo of three agents, each deployed from its first commit, then a change
 * to the library two of them share: the CLI's plan deploys those two, and writes the GitLab child
 * pipeline of their deploys. Whether it planned exactly those.
 */
async function planMonorepo(apiKey: string): Promise<boolean> {
  console.log('\n━━━ Run 10: a monorepo of three agents; which ones a push changed (the CLI) ━━━')
  const mono = monorepo()
  try {
    const names = ['support-staging', 'research-staging', 'triage-staging']
    deployedAt(emulator, Object.fromEntries(names.map(n => [n, mono.first])))
    mono.commit({ 'libs/common/common/tone.py': 'TONE = "Brief and warm."\n' })
    const file = join(mono.dir, 'staging.yml')
    const argv = ['plan', '--manifest', 'agents.yaml', '--environment', 'staging']
    const env = { CONTROL_PLANE_API_KEY: apiKey, CONTROL_PLANE_BASE_URL: emulator.url }
    const code = await runCli([...argv, '--child-pipeline', 'staging.yml'], env, mono.dir)
    console.log(`\nThe child pipeline (staging.yml):\n${readFileSync(file, 'utf8')}`)
    const jobs = Object.keys(parseYaml(readFileSync(file, 'utf8')) as object)
    const planned = jobs.filter(j => j.startsWith('deploy ')).join(', ')
    if (code === 0 && planned === 'deploy support staging, deploy research staging') return true
    console.log(`Expected exit 0 and the deploys of support and research, got ${code}: ${planned}.`)
    return false
  } finally {
    mono.remove()
  }
}

const MONOREPO = fileURLToPath(new URL('../fixtures/upload/monorepo', import.meta.url))

/**
 * The monorepo's files that the archive left out, and why: outside the folders the build needs
 * (the config's and the libraries it names), or inside them and matched by an ignore file.
 */
function leftOut(root: string, built: string[]): string[] {
  const all = (readdirSync(root, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter(e => e.isFile())
    .map(e => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort()
  const folders = [...new Set(built.map(f => f.split('/').slice(0, 2).join('/')))]
  const left = all.filter(f => !built.includes(f))
  const inside = left.filter(f => folders.some(d => f.startsWith(`${d}/`)))
  const outside = left.filter(f => !inside.includes(f))
  return [
    `Left out, outside the folders the build needs (${folders.join(', ')}): ${outside.join(', ') || 'none'}`,
    `Left out by their ignore files (.gitignore, .dockerignore): ${inside.join(', ') || 'none'}`
  ]
}

let failed = false
try {
  for (const run of runs) {
    console.log(`━━━ ${run.title} ━━━`)
    run.before?.()
    const r = await runStep({ ...inputs, ...run.extra }, push, run.env)
    printStep(r)
    if (r.code !== run.expect) {
      console.log(`Expected exit code ${run.expect}, got ${r.code}.`)
      failed = true
    }
    console.log()
  }
  console.log('━━━ Run 7: the same deploy from another CI (a GitLab pipeline), with the CLI ━━━')
  // GitLab's own variables of a push pipeline on main: the CLI takes ref and commit from them.
  const cli = await runCli(['deploy', '--name', inputs.name, '--poll-interval', '5s'], {
    GITLAB_CI: 'true',
    CI_COMMIT_REF_NAME: 'main',
    CI_COMMIT_BRANCH: 'main',
    CI_COMMIT_SHA: sha,
    CONTROL_PLANE_API_KEY: apiKey,
    CONTROL_PLANE_BASE_URL: emulator.url,
    CONTROL_PLANE_TENANT_ID: tenantId,
    CONTROL_PLANE_INTEGRATION_ID: integrationId ?? '',
    CONTROL_PLANE_REPOSITORY: 'acme/agent-server'
  })
  if (cli !== 0) {
    console.log(`Expected exit code 0, got ${cli}.`)
    failed = true
  }
  console.log()
  console.log(
    '━━━ Run 8: deploy by upload, no integration: a LangGraph monorepo from fixtures/ ━━━'
  )
  // source: internal_source archives the workspace (its app and the shared library it names),
  // PUTs it to the upload URL and builds it remotely; the graphs come from its langgraph.json.
  const { 'integration-id': _integration, ...keyed } = inputs
  const upload = await runStep(
    {
      ...keyed,
      name: 'agent-server-upload-demo',
      source: 'internal_source',
      'graph-config-path': 'apps/agent/langgraph.json'
    },
    push,
    { GITHUB_WORKSPACE: MONOREPO }
  )
  printStep(upload)
  if (upload.code !== 0) {
    console.log(`Expected exit code 0, got ${upload.code}.`)
    failed = true
  }
  const built = emulator
    .state()
    .tenants.flatMap(t => t.deployments)
    .find(d => d.name === 'agent-server-upload-demo')
    ?.revisions.at(-1)
  console.log(
    `The emulator built ${built?.source_files?.length ?? 0} files: ${built?.source_files?.join(', ')}`
  )
  for (const line of leftOut(MONOREPO, built?.source_files ?? [])) console.log(line)
  console.log(`Graphs served: ${built?.graphs.join(', ')}\n`)
  console.log('━━━ Run 9: a release promotes agent-server-demo to production ━━━')
  // Production gets what agent-server-demo runs, verified there first; its own build must report
  // the commit the source built (the code host resolves main in the checkout).
  // Its agent server answers as a healthy one: the earlier runs' scripts end here.
  emulator.agents.script('*', {})
  emulator.agents.scriptApp('*', {})
  const promoted = await runStep(
    {
      ...inputs,
      name: 'agent-server-demo-prod',
      'promote-from': 'agent-server-demo',
      'deployment-type': 'dedicated'
    },
    push,
    // The checkout of the commit that staging built: its graphs are checked on both servers.
    { GITHUB_WORKSPACE: workspace }
  )
  printStep(promoted)
  if (promoted.code !== 0 || promoted.outputs['promoted-from-revision-id'] === '') {
    console.log(`Expected a promotion that runs (exit 0), got exit ${promoted.code}.`)
    failed = true
  }
  if (promoted.outputs['repo-commit-sha'] !== sha) {
    console.log(`Expected repo-commit-sha ${sha}, got "${promoted.outputs['repo-commit-sha']}".`)
    failed = true
  }
  const experiments = [...emulator.langsmith.sessions.values()]
  console.log(`LangSmith recorded ${experiments.length} experiments (runs 5 and 6):`)
  for (const e of experiments) {
    const m = (e.extra?.metadata ?? {}) as Record<string, unknown>
    console.log(`  ${e.name}: ${String(m.verdict)} (revision ${String(m.revision_id)})`)
  }
  console.log()
  const requests = emulator.requests()
  console.log(`The emulator received ${requests.length} requests in all:`)
  for (const r of requests) console.log(`  ${r.status ?? '---'} ${r.method} ${r.path}`)
  const probes = emulator.agents.probes()
  console.log(`\nThe agent server received ${probes.length} requests (runs 2, 4, 5 and 6):`)
  for (const p of probes) console.log(`  ${p.status ?? '---'} ${p.path} (key ${p.key})`)
  if (!(await planMonorepo(apiKey))) failed = true
} finally {
  await emulator.close()
}
process.exitCode = failed ? 1 : 0
